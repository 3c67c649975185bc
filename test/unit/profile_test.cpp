//===- unit/profile_test.cpp - `otter profile`'s paths and aggregation ----===//
//
// utils/otter/profile.h on synthetic stacks and samples: the runtime's
// frames removed from a path, outlined functions shown as their
// construct, and the inclusive / exclusive / per-class times of
// constructs and functions, the folded stacks.
//
//===----------------------------------------------------------------------===//
#include "profile.h"

#include <gtest/gtest.h>

#include <sstream>

namespace otter::profile {
namespace {

SymFrame user(const char *F, unsigned Start = 1) {
  return SymFrame{F, "/src/a.c", Start + 1, "/src/a.c", Start, Origin::User};
}
SymFrame runtime() { return SymFrame{"", "", 0, "", 0, Origin::Runtime}; }
SymFrame systemFrame(const char *F) {
  return SymFrame{F, "", 0, "", 0, Origin::System};
}

std::string label(const std::string &Kind, const std::string &File,
                  std::uint32_t Line) {
  return Kind + " " + File.substr(File.rfind('/') + 1) + ":" +
         std::to_string(Line);
}

std::string text(const std::vector<PathFrame> &P) {
  std::string S;
  for (const PathFrame &F : P)
    S += (S.empty() ? "" : ";") + F.Name;
  return S;
}

TEST(ProfilePath, RuntimeFramesRemovedOutlinedAsConstruct) {
  // Innermost first: gemm called by a task's body (.omp_outlined. inlined
  // into .omp_task_entry.), run by libomp from a taskwait in solve, called
  // by main, started by libc.
  std::vector<SymFrame> Stack = {user("gemm", 40),
                                 user(".omp_outlined.", 0),
                                 user(".omp_task_entry.", 28),
                                 runtime(),
                                 systemFrame("sched_yield"),
                                 runtime(),
                                 user("solve", 20),
                                 user("main", 10),
                                 systemFrame("__libc_start_call_main"),
                                 user("_start", 0)};
  // sched_yield sits between two runtime frames: the runtime's own.
  EXPECT_EQ(text(userPath(Stack, label)), "main;solve;task a.c:28;gemm");
}

TEST(ProfilePath, ParallelRegionAndSystemLeafKept) {
  std::vector<SymFrame> Stack = {systemFrame("memcpy"),
                                 user("copy", 5),
                                 user("f.omp_outlined_debug__", 8),
                                 user("f.omp_outlined", 7),
                                 runtime(),
                                 runtime(),
                                 user("f", 3),
                                 user("main", 1),
                                 systemFrame("__libc_start_main")};
  std::vector<PathFrame> P = userPath(Stack, label);
  EXPECT_EQ(text(P), "main;f;parallel a.c:7;copy;memcpy");
  EXPECT_TRUE(P[2].Construct);
  EXPECT_EQ(P[3].Location, "a.c:5");
}

TEST(ProfilePath, WhollyInRuntimeIsEmpty) {
  EXPECT_TRUE(userPath({systemFrame("sched_yield"), runtime(), runtime(),
                        systemFrame("start_thread")},
                       label)
                  .empty());
}

PathSample sample(unsigned Thread, StateClass C, std::uint64_t W,
                  std::vector<PathFrame> F) {
  return PathSample{Thread, 0, C, W, std::move(F)};
}
PathFrame fn(const char *N) { return PathFrame{N, "a.c:1", false}; }
PathFrame construct(const char *N) { return PathFrame{N, "", true}; }

TEST(ProfileAggregate, InclusiveExclusiveAndClasses) {
  std::vector<PathSample> S = {
      // main -> parallel -> task -> slow (3 periods), fast (1)
      sample(0, StateClass::Work, 3,
             {fn("main"), construct("parallel a.c:5"), construct("task a.c:9"),
              fn("slow")}),
      sample(1, StateClass::Work, 1,
             {fn("main"), construct("parallel a.c:5"), construct("task a.c:9"),
              fn("fast")}),
      // waiting at the region's barrier (2 periods), an idle worker (4)
      sample(1, StateClass::Barrier, 2,
             {fn("main"), construct("parallel a.c:5")}),
      sample(1, StateClass::Idle, 4, {}),
      // recursion: main -> rec -> rec counted once inclusive
      sample(0, StateClass::Work, 1, {fn("main"), fn("rec"), fn("rec")}),
  };
  Profile P = aggregate(S, 1000);
  EXPECT_EQ(P.TotalNs, 11000u);
  EXPECT_EQ(P.Threads, 2u);
  EXPECT_EQ(P.ByClass[unsigned(StateClass::Idle)], 4000u);
  auto find = [](const std::vector<Row> &Rows, const std::string &N) {
    for (const Row &R : Rows)
      if (R.Name == N)
        return R;
    ADD_FAILURE() << "no row " << N;
    return Row();
  };
  Row Par = find(P.Constructs, "parallel a.c:5");
  EXPECT_EQ(Par.InclusiveNs, 6000u);
  EXPECT_EQ(Par.ExclusiveNs, 2000u);
  EXPECT_EQ(Par.ByClass[unsigned(StateClass::Barrier)], 2000u);
  EXPECT_EQ(Par.ByClass[unsigned(StateClass::Work)], 4000u);
  Row Task = find(P.Constructs, "task a.c:9");
  EXPECT_EQ(Task.InclusiveNs, 4000u);
  EXPECT_EQ(Task.ExclusiveNs, 4000u);
  EXPECT_EQ(find(P.Constructs, "[idle]").InclusiveNs, 4000u);
  EXPECT_EQ(find(P.Constructs, SerialLabel).InclusiveNs, 1000u);
  // Functions: slow is the hottest; main is inclusive of all but idle.
  EXPECT_EQ(P.Functions.front().Name, "slow");
  EXPECT_EQ(P.Functions.front().ExclusiveNs, 3000u);
  Row Main = find(P.Functions, "main");
  EXPECT_EQ(Main.InclusiveNs, 7000u);
  EXPECT_EQ(Main.ExclusiveNs, 0u);
  Row Rec = find(P.Functions, "rec");
  EXPECT_EQ(Rec.InclusiveNs, 1000u);
  EXPECT_EQ(Rec.ExclusiveNs, 1000u);

  std::ostringstream OS;
  printFolded(P, OS);
  EXPECT_EQ(OS.str(), "[idle] 4\n"
                      "main;parallel a.c:5 2\n"
                      "main;parallel a.c:5;task a.c:9;fast 1\n"
                      "main;parallel a.c:5;task a.c:9;slow 3\n"
                      "main;rec;rec 1\n");
}

TEST(ProfileAggregate, IdleWorkersBlamedOnThePrimarysCode) {
  auto At = [](unsigned Thread, std::uint64_t T, StateClass C,
               std::vector<PathFrame> F) {
    return PathSample{Thread, T, C, 1, std::move(F)};
  };
  std::vector<PathSample> S = {
      At(0, 10000, StateClass::Work, {fn("main"), fn("serial")}),
      At(0, 11000, StateClass::Work,
         {fn("main"), construct("parallel a.c:5"), fn("body")}),
      // idle at 10200: nearest primary sample 10000 (serial code)
      At(1, 10200, StateClass::Idle, {}),
      // idle at 10900: nearest 11000 (the region's body)
      At(1, 10900, StateClass::Idle, {}),
      // idle far from any primary sample: not blamed
      At(1, 50000, StateClass::Idle, {}),
      // a barrier wait is not idle: not blamed here
      At(1, 10100, StateClass::Barrier, {construct("parallel a.c:5")}),
  };
  Profile P = aggregate(S, 1000);
  EXPECT_EQ(P.IdleNs, 3000u);
  EXPECT_EQ(P.BlamedNs, 2000u);
  auto find = [](const std::vector<Row> &Rows, const std::string &N) {
    for (const Row &R : Rows)
      if (R.Name == N)
        return R;
    ADD_FAILURE() << "no row " << N;
    return Row();
  };
  EXPECT_EQ(find(P.Functions, "serial").BlamedNs, 1000u);
  EXPECT_EQ(find(P.Functions, "body").BlamedNs, 1000u);
  EXPECT_EQ(find(P.Functions, "main").BlamedNs, 2000u);
  EXPECT_EQ(find(P.Constructs, SerialLabel).BlamedNs, 1000u);
  EXPECT_EQ(find(P.Constructs, "parallel a.c:5").BlamedNs, 1000u);
  EXPECT_EQ(find(P.Constructs, "[idle]").BlamedNs, 0u);
}

} // namespace
} // namespace otter::profile
