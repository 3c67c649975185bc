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

TEST(ProfilePath, RecordedConstructNamesTheInnermostTailCalledBody) {
  // A task (frame kept) inside a region whose body was tail-called (no
  // outlined frame between the runtime and f_body): the recorded
  // construct names the innermost one only, and only if its frame is gone.
  std::vector<SymFrame> Tail = {user("kernel", 9), user("f_body", 4),
                                runtime(), runtime(), user("main", 1)};
  EXPECT_EQ(text(userPath(Tail, label)),
            std::string("main;") + TailCallLabel + ";f_body;kernel");
  EXPECT_EQ(text(userPath(Tail, label, "parallel a.c:3")),
            "main;parallel a.c:3;f_body;kernel");
  std::vector<SymFrame> Nested = {user("gemm", 40),
                                  user(".omp_task_entry.", 28),
                                  runtime(),
                                  user("f_body", 4),
                                  runtime(),
                                  user("main", 1)};
  EXPECT_EQ(text(userPath(Nested, label, "parallel a.c:3")),
            std::string("main;") + TailCallLabel + ";f_body;task a.c:28;gemm");
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

TEST(ProfileAggregate, WaitsBlamedOnTheOtherThreadsCode) {
  auto At = [](unsigned Thread, std::uint64_t T, StateClass C,
               std::vector<PathFrame> F) {
    return PathSample{Thread, T * 1000, C, 1, std::move(F)}; // T: us
  };
  const PathFrame Region = construct("parallel a.c:5");
  const PathFrame Task = construct("task a.c:9");
  std::vector<PathSample> S = {
      // A barrier: thread 0 waits, threads 1 and 2 arrive late, thread 3
      // waits too (not a culprit): 1 ms split between 1 and 2.
      At(0, 10000, StateClass::Barrier, {fn("main"), Region}),
      At(1, 10100, StateClass::Work, {Region, fn("late1")}),
      At(2, 9900, StateClass::Work, {Region, fn("late2")}),
      At(3, 10000, StateClass::Barrier, {Region}),
      // A lock: thread 1 waits while thread 2 holds it (thread 0 is in
      // serial code far from it: outside the window).
      At(1, 20000, StateClass::Lock, {Region, fn("f")}),
      At(2, 20200, StateClass::Work, {Region, fn("holder")}),
      // A taskwait: thread 0 waits; thread 1 runs a task, thread 2 a
      // region's code that is no task (not awaited).
      At(0, 30000, StateClass::Taskwait, {fn("main"), Region}),
      At(1, 30300, StateClass::Work, {Task, fn("child")}),
      At(2, 29800, StateClass::Work, {Region, fn("other")}),
      // A lock wait with nobody working nearby: not blamed.
      At(3, 90000, StateClass::Lock, {Region}),
  };
  Profile P = aggregate(S, 1000000); // 1 ms periods
  auto find = [](const std::vector<Row> &Rows, const std::string &N) {
    for (const Row &R : Rows)
      if (R.Name == N)
        return R;
    ADD_FAILURE() << "no row " << N;
    return Row();
  };
  EXPECT_EQ(P.IdleNs, 0u);
  EXPECT_EQ(P.WaitNs[unsigned(StateClass::Barrier)], 2000000u);
  EXPECT_EQ(P.WaitBlamedNs[unsigned(StateClass::Barrier)], 2000000u);
  EXPECT_EQ(P.WaitNs[unsigned(StateClass::Lock)], 2000000u);
  EXPECT_EQ(P.WaitBlamedNs[unsigned(StateClass::Lock)], 1000000u);
  EXPECT_EQ(P.WaitNs[unsigned(StateClass::Taskwait)], 1000000u);
  EXPECT_EQ(P.WaitBlamedNs[unsigned(StateClass::Taskwait)], 1000000u);
  // Thread 0's and thread 3's barrier waits: 0.5 ms each to either late
  // arriver; thread 3's window also holds thread 0 (waiting: no culprit).
  EXPECT_EQ(find(P.Functions, "late1").BlamedNs, 1000000u);
  EXPECT_EQ(find(P.Functions, "late2").BlamedNs, 1000000u);
  EXPECT_EQ(find(P.Functions, "holder").BlamedNs, 1000000u);
  EXPECT_EQ(find(P.Functions, "child").BlamedNs, 1000000u);
  EXPECT_EQ(find(P.Functions, "other").BlamedNs, 0u);
  EXPECT_EQ(find(P.Constructs, "task a.c:9").BlamedNs, 1000000u);
  EXPECT_EQ(find(P.Constructs, "parallel a.c:5").BlamedNs, 3000000u);

  std::ostringstream OS;
  printTable(P, 0, OS);
  EXPECT_NE(OS.str().find("blame: 1.0 of 2.0 ms lock waiting blamed on the "
                          "holders' code"),
            std::string::npos)
      << OS.str();
}

TEST(ProfileAggregate, AHeavySampleCoversThePeriodsBeforeIt) {
  // Thread 1 was off the CPU: one sample at 45 ms of weight 6 stands for
  // 40..45 ms, so it is what thread 0 waited for at 40 ms, although its
  // time is after the wait's window (38..41 ms); one of weight 1 there is
  // not.
  const PathFrame Region = construct("parallel a.c:5");
  for (std::uint64_t Weight : {6u, 1u}) {
    std::vector<PathSample> S = {
        PathSample{0, 40000000, StateClass::Barrier, 1, {Region}},
        PathSample{1, 45000000, StateClass::Work, Weight,
                   {Region, fn("late")}}};
    Profile P = aggregate(S, 1000000);
    EXPECT_EQ(P.WaitBlamedNs[unsigned(StateClass::Barrier)],
              Weight == 6 ? 1000000u : 0u)
        << Weight;
  }
}

TEST(ProfileAggregate, FewHeavySamplesAreCalledCoarse) {
  // Ten samples standing for 50 periods each (a loaded machine's CPU
  // clock): the table says so in a line under its heading; ten of
  // weight 4 (a 250 Hz kernel tick at 1 kHz) are the usual case.
  const PathFrame Region = construct("parallel a.c:5");
  for (std::uint64_t Weight : {50u, 4u}) {
    std::vector<PathSample> S;
    for (std::uint64_t I = 0; I < 10; ++I)
      S.push_back(PathSample{0, (I + 1) * Weight * 1000000,
                             StateClass::Work, Weight, {Region, fn("f")}});
    Profile P = aggregate(S, 1000000);
    EXPECT_DOUBLE_EQ(P.periodsPerSample(), double(Weight));
    std::ostringstream OS;
    printTable(P, 10, OS);
    const bool Noted =
        OS.str().find("note: the kernel delivered one tick for every 50.0 "
                      "timer periods") != std::string::npos;
    EXPECT_EQ(Noted, Weight == 50) << OS.str();
    EXPECT_NE(OS.str().find(Weight == 50 ? "50.0 periods per sample"
                                         : "4.0 periods per sample"),
              std::string::npos);
  }
}

TEST(ProfileDiff, RowsMatchedAndSortedByTheLargestChange) {
  auto Run = [](unsigned Slow, unsigned Gone) {
    std::vector<PathSample> S;
    for (unsigned I = 0; I < Slow; ++I)
      S.push_back({0, I, StateClass::Work, 1, {fn("main"), fn("slow")}});
    S.push_back({0, 100, StateClass::Work, 1, {fn("main"), fn("steady")}});
    for (unsigned I = 0; I < Gone; ++I)
      S.push_back({0, 200 + I, StateClass::Work, 1, {fn("main"), fn("gone")}});
    return aggregate(S, 1000);
  };
  const Profile A = Run(1, 2), B = Run(4, 0);
  const ProfileDiff D = compare(A, B);
  ASSERT_EQ(D.Functions.size(), 4u);
  // slow +3 periods exclusive, gone -2 (only in A), steady and main 0.
  EXPECT_EQ(D.Functions[0].Name, "slow");
  EXPECT_EQ(D.Functions[0].exclusiveDelta(), 3000);
  EXPECT_EQ(D.Functions[1].Name, "gone");
  EXPECT_EQ(D.Functions[1].exclusiveDelta(), -2000);
  EXPECT_TRUE(D.Functions[1].InA);
  EXPECT_FALSE(D.Functions[1].InB);
  // main: no exclusive change, inclusive +1 period: before steady.
  EXPECT_EQ(D.Functions[2].Name, "main");
  EXPECT_EQ(D.Functions[2].inclusiveDelta(), 1000);
  EXPECT_EQ(D.Functions[3].Name, "steady");

  std::ostringstream OS;
  printDiff(A, B, "a", "b", 0, false, OS);
  EXPECT_NE(OS.str().find("+0.0  slow (a.c:1)"), std::string::npos)
      << OS.str();
  EXPECT_NE(OS.str().find("gone (a.c:1) [only in A]"), std::string::npos);
}

// merge (an MPI job's ranks): with no wait to blame, merging the profiles
// of two sets of samples is aggregating them together -- every total, row
// and folded stack -- over random paths of work samples.
TEST(ProfileMerge, SameAsAggregatingTheSamplesTogether) {
  const std::vector<PathFrame> Pool = {fn("main"),
                                       fn("solve"),
                                       construct("parallel a.c:5"),
                                       construct("task a.c:9"),
                                       fn("slow"),
                                       fn("fast")};
  std::uint64_t Seed = 12345;
  auto next = [&Seed](unsigned N) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return unsigned((Seed >> 33) % N);
  };
  for (unsigned Round = 0; Round < 50; ++Round) {
    std::vector<PathSample> A, B, All;
    for (unsigned I = 0; I < 40; ++I) {
      PathSample S;
      S.Thread = next(3);
      S.TimeNs = I * 1000;
      S.Weight = 1 + next(3);
      for (unsigned D = next(5); D > 0; --D)
        S.Frames.push_back(Pool[next(unsigned(Pool.size()))]);
      const bool InB = next(2);
      if (InB)
        S.Thread += 10; // another process's threads
      (InB ? B : A).push_back(S);
      All.push_back(S);
    }
    Profile M;
    merge(M, aggregate(A, 1000));
    merge(M, aggregate(B, 1000));
    const Profile Together = aggregate(All, 1000);
    EXPECT_EQ(M.Ranks, 2u);
    EXPECT_EQ(M.Samples, Together.Samples);
    EXPECT_EQ(M.TotalNs, Together.TotalNs);
    EXPECT_EQ(M.Threads, Together.Threads);
    EXPECT_EQ(M.ByClass, Together.ByClass);
    EXPECT_EQ(M.Folded, Together.Folded);
    EXPECT_EQ(M.ConstructNames, Together.ConstructNames);
    for (const auto &[Merged, Whole] :
         {std::pair{&M.Constructs, &Together.Constructs},
          std::pair{&M.Functions, &Together.Functions}}) {
      ASSERT_EQ(Merged->size(), Whole->size());
      for (std::size_t I = 0; I < Merged->size(); ++I) {
        EXPECT_EQ((*Merged)[I].Name, (*Whole)[I].Name);
        EXPECT_EQ((*Merged)[I].Location, (*Whole)[I].Location);
        EXPECT_EQ((*Merged)[I].InclusiveNs, (*Whole)[I].InclusiveNs);
        EXPECT_EQ((*Merged)[I].ExclusiveNs, (*Whole)[I].ExclusiveNs);
        EXPECT_EQ((*Merged)[I].ByClass, (*Whole)[I].ByClass);
      }
    }
  }
}

// MpiNs: the samples whose path holds an MPI function (OTTER's wrapper
// frame, named MPI_* in C and mpi_* in Fortran), whatever their state;
// summed by merge.
TEST(ProfileAggregate, TimeInMpiCallsCounted) {
  std::vector<PathSample> S = {
      sample(0, StateClass::Work, 3, {fn("main"), fn("MPI_Allreduce")}),
      sample(0, StateClass::Work, 2,
             {fn("main"), fn("MPI_Barrier"), fn("opal_progress")}),
      sample(0, StateClass::Work, 1, {fn("main"), fn("mpi_send_")}),
      sample(0, StateClass::Work, 4, {fn("main"), fn("solve")}),
      // A construct named like one is no MPI call.
      sample(1, StateClass::Work, 5, {construct("MPI_fake a.c:1")}),
  };
  Profile P = aggregate(S, 1000000); // 1 ms periods
  EXPECT_EQ(P.MpiNs, 6000000u);
  std::ostringstream OS;
  printTable(P, 10, OS);
  EXPECT_NE(OS.str().find("in MPI calls: 6.0 ms"), std::string::npos)
      << OS.str();
  Profile M;
  merge(M, P);
  merge(M, P);
  EXPECT_EQ(M.MpiNs, 12000000u);
}

} // namespace
} // namespace otter::profile
