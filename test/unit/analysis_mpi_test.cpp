//===- analysis_mpi_test.cpp - MPI calls and links in the analysis --------===//
//
// Hand-made streams of two "ranks" (two threads, each one rank's initial
// task, codes tagged with the rank as the job's input does): an MPI call's
// time is waiting, not work; a link from a send to a receive carries the
// sender's path to the receiver, so the span and the critical path cross
// ranks; a collective's slot takes the longest contribution; a value that
// arrives after its receive ended is counted, not used. Times in ns, the
// expected values worked out in the comments.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "otter/mpi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace otter;
using namespace otter::analysis;

namespace {

std::uint64_t tag(int Rank, std::uint64_t Addr) {
  return (std::uint64_t(Rank + 1) << CodeRankShift) | Addr;
}

/// Links by (task, seq of the MpiCallBegin).
struct Links final : LinkSource {
  std::map<std::pair<std::uint64_t, std::uint32_t>, MpiLinks> By;
  std::vector<std::uint32_t> Consumers;
  const MpiLinks *links(std::uint32_t, const Event &B) override {
    auto It = By.find({B.Task, B.Seq});
    return It == By.end() ? nullptr : &It->second;
  }
  std::size_t slots() const override { return Consumers.size(); }
  std::uint32_t consumers(std::uint32_t S) const override {
    return Consumers[S];
  }
};

struct Stream {
  std::vector<std::pair<std::uint32_t, Event>> Ev;
  std::map<std::uint64_t, std::uint32_t> Seq;
  Event &e(std::uint32_t Th, std::uint64_t T, EventKind K, std::uint64_t Task,
           std::uint64_t Code = 0) {
    Event E{};
    E.Time = T;
    E.Kind = K;
    E.Task = Task;
    E.Code = Code;
    E.Seq = Seq[Task]++;
    Ev.push_back({Th, E});
    return Ev.back().second;
  }
  /// Rank R's initial task (id R + 1) on thread R from T.
  void start(int R, std::uint64_t T) {
    e(std::uint32_t(R), T, EventKind::ImplicitTaskBegin, std::uint64_t(R + 1),
      tag(R, 0))
        .Extra = TaskInitial;
  }
  /// An MPI call of rank R from B to E; returns its begin's (task, seq).
  std::pair<std::uint64_t, std::uint32_t> call(int R, std::uint64_t B,
                                               std::uint64_t End,
                                               mpi::Function F,
                                               std::uint64_t Site) {
    Event &X = e(std::uint32_t(R), B, EventKind::MpiCallBegin,
                 std::uint64_t(R + 1), tag(R, Site));
    X.Sub = std::uint16_t(F);
    std::pair<std::uint64_t, std::uint32_t> Key{X.Task, X.Seq};
    e(std::uint32_t(R), End, EventKind::MpiCallEnd, std::uint64_t(R + 1),
      tag(R, Site))
        .Sub = std::uint16_t(F);
    return Key;
  }
  void end(int R, std::uint64_t T) {
    e(std::uint32_t(R), T, EventKind::ImplicitTaskEnd, std::uint64_t(R + 1));
  }
  Result run(LinkSource *L) {
    std::stable_sort(Ev.begin(), Ev.end(), [](const auto &A, const auto &B) {
      return A.second.Time < B.second.Time;
    });
    Analyzer A;
    A.setLinks(L);
    for (auto &[Th, E] : Ev)
      A.add(Th, E);
    return A.finish();
  }
};

/// Rank 0 works 100, sends (100..110) and works 10; rank 1 receives
/// (5..150: waiting for rank 0) and works 50. Work: 110 + 5 + 50 = 165.
/// Without the link the span is rank 0's 110; with it rank 0's 100 before
/// the send, then rank 1's 50 after the receive: 150.
Result pingRun(bool Linked, Links &L) {
  Stream S;
  S.start(0, 0);
  S.start(1, 0);
  auto Send = S.call(0, 100, 110, mpi::Function::Send, 0x10);
  auto Recv = S.call(1, 5, 150, mpi::Function::Recv, 0x20);
  S.end(0, 120);
  S.end(1, 200);
  if (Linked) {
    L.Consumers = {1};
    L.By[Send].Publish = {0};
    L.By[Recv].Merge = {0};
  }
  return S.run(Linked ? &L : nullptr);
}

TEST(AnalysisMpi, CallsAreWaitingAndMessagesCarryPathsAcrossRanks) {
  Links None, L;
  Result A = pingRun(false, None);
  EXPECT_EQ(A.WorkNs, 165u);
  EXPECT_EQ(A.MpiNs, 10u + 145u);
  EXPECT_EQ(A.SpanNs, 110u);
  ASSERT_EQ(A.PerThread.size(), 2u);
  EXPECT_EQ(A.PerThread[0].BusyNs, 110u);
  EXPECT_EQ(A.PerThread[1].MpiNs, 145u);
  EXPECT_EQ(A.PerThread[1].BusyNs, 55u);

  Result B = pingRun(true, L);
  EXPECT_EQ(B.WorkNs, 165u);
  EXPECT_EQ(B.SpanNs, 150u);
  // rank 0's 100, the send, the receive, rank 1's 50.
  ASSERT_EQ(B.CriticalPath.size(), 4u);
  EXPECT_EQ(codeRank(B.CriticalPath[0].Code), 0);
  EXPECT_EQ(B.CriticalPath[0].K, Kind::Initial);
  EXPECT_EQ(B.CriticalPath[0].Ns, 100u);
  EXPECT_EQ(B.CriticalPath[1].K, Kind::Mpi);
  EXPECT_EQ(B.CriticalPath[1].Code, tag(0, 0x10));
  EXPECT_EQ(B.CriticalPath[2].K, Kind::Mpi);
  EXPECT_EQ(B.CriticalPath[2].Code, tag(1, 0x20));
  EXPECT_EQ(codeRank(B.CriticalPath[3].Code), 1);
  EXPECT_EQ(B.CriticalPath[3].Ns, 50u);
  // One row per call site, with its function and its time as waiting.
  bool SawRecv = false;
  for (const ConstructStats &C : B.Constructs)
    if (C.K == Kind::Mpi && C.Code == tag(1, 0x20)) {
      SawRecv = true;
      EXPECT_EQ(C.MpiFunction, std::uint16_t(mpi::Function::Recv));
      EXPECT_EQ(C.Instances, 1u);
      EXPECT_EQ(C.TotalNs, 145u);
      EXPECT_EQ(C.WaitNs, 145u);
    }
  EXPECT_TRUE(SawRecv);
  EXPECT_TRUE(B.Warnings.empty());
}

TEST(AnalysisMpi, ACollectiveTakesTheLongestContribution) {
  // An allreduce: rank 0 arrives at 100 (path 100), rank 1 at 40 (path
  // 40); both leave at 100 and work 10 more: span 110 (rank 0's path), and
  // rank 1's tail continues from it.
  Stream S;
  Links L;
  S.start(0, 0);
  S.start(1, 0);
  auto A = S.call(0, 100, 101, mpi::Function::Allreduce, 0x30);
  auto B = S.call(1, 40, 101, mpi::Function::Allreduce, 0x30);
  S.end(0, 111);
  S.end(1, 130);
  L.Consumers = {2};
  L.By[A] = {{0}, {0}};
  L.By[B] = {{0}, {0}};
  Result R = S.run(&L);
  // rank 1: 40 + its 29 after the call, from rank 0's 100: 129.
  EXPECT_EQ(R.SpanNs, 129u);
  EXPECT_EQ(R.WorkNs, 100u + 10u + 40u + 29u);
  EXPECT_EQ(codeRank(R.CriticalPath.front().Code), 0);
  EXPECT_EQ(codeRank(R.CriticalPath.back().Code), 1);
}

TEST(AnalysisMpi, AValueAfterItsReceiveIsCountedNotUsed) {
  // The receive ends (50) before the send starts (100): clocks of two hosts
  // out of step. The edge is left out and said.
  Stream S;
  Links L;
  S.start(0, 0);
  S.start(1, 0);
  auto Send = S.call(0, 100, 110, mpi::Function::Send, 0x10);
  auto Recv = S.call(1, 5, 50, mpi::Function::Recv, 0x20);
  S.end(0, 120);
  S.end(1, 60);
  L.Consumers = {1};
  L.By[Send].Publish = {0};
  L.By[Recv].Merge = {0};
  Result R = S.run(&L);
  EXPECT_EQ(R.SpanNs, 110u);
  ASSERT_EQ(R.Warnings.size(), 1u);
  EXPECT_NE(R.Warnings[0].find("1 message or collective value(s) arrived "
                               "after the call that received them"),
            std::string::npos);
}

} // namespace
