//===- otter/analysis_idle.cpp - OpenMP idle threads and their cause ------===//
//
// Part of the streaming analysis (analysis_impl.h). Scalasca's "OpenMP idle
// threads" (docs/utils.md, "Idle threads"): once a parallel region has
// ended, its other threads have nothing to do until the primary thread
// forks the next one. libomp keeps them in the region's implicit barrier
// (hot teams: the barrier's end is reported at the next fork) or in its
// thread pool; either way the time is idle, not the barrier's waiting, and
// what makes it long is what the primary thread does meanwhile: serial
// code, an MPI call. So:
//  - a worker's wait in an implicit barrier is idle from its region's end
//    on (idleInBarrier: chargeTime splits the interval there);
//  - a primary thread logs its state timeline from a region's end to its
//    next fork (startIdleLog .. stopIdleLog, logActivity);
//  - each idle interval of a worker after its last region's end is
//    matched against that log and its time added per cause (blameIdle):
//    in time order the primary's intervals up to the worker's event are
//    already charged, all but its current one, whose state is known.
//
//===----------------------------------------------------------------------===//
#include "analysis_impl.h"

#include <algorithm>
#include <limits>

namespace otter::analysis {
namespace {
// A primary thread's log holds at most this many pieces (serial code with
// a great many MPI calls between two regions): past it, the last piece
// grows to cover the rest, so memory stays bounded and the time is kept.
constexpr std::size_t MaxLog = 1u << 16;
} // namespace

std::uint64_t Analyzer::Impl::idleInBarrier(const ThreadSt &TS,
                                            std::uint64_t From,
                                            std::uint64_t To) const {
  const WaitFrame &W = TS.Waits.back();
  if (W.K != Kind::ImplicitBarrier || W.Task == None)
    return 0;
  const Slot &X = Slots[W.Task];
  if (X.Team == None || !(X.Flags & SImplicit))
    return 0;
  const Team &Tm = Teams[X.Team];
  const std::uint32_t Th = std::uint32_t(&TS - Threads.data());
  if (Tm.Pseudo || Tm.Device || !Tm.ParallelEnded || Tm.EncThread == Th ||
      Tm.End >= To)
    return 0;
  return To - std::max(From, Tm.End);
}

void Analyzer::Impl::logActivity(ThreadSt &TS, std::uint64_t From,
                                 std::uint64_t To, ThreadState St, Kind K,
                                 std::uint32_t Code) {
  if (To <= From)
    return;
  if (!TS.Log.empty()) {
    Activity &L = TS.Log.back();
    if ((L.St == St && L.K == K && L.Code == Code && L.End == From) ||
        TS.Log.size() >= MaxLog) {
      L.End = To;
      return;
    }
  }
  TS.Log.push_back({From, To, St, K, Code});
}

void Analyzer::Impl::startIdleLog(ThreadSt &TS, std::uint32_t TI) {
  const Team &Tm = Teams[TI];
  TS.Log.clear();
  TS.LogTeam = None;
  TS.LogOpen = false;
  // Only a region with other threads leaves any idle.
  if (Tm.Pseudo || Tm.Device || Tm.Members < 2)
    return;
  TS.LogTeam = TI;
  TS.LogAfter = Tm.Code;
  TS.LogOpen = true;
}

void Analyzer::Impl::stopIdleLog(ThreadSt &TS, std::uint32_t TI,
                                 std::uint64_t At) {
  if (!TS.LogOpen)
    return;
  TS.LogOpen = false;
  // Workers are released after the fork: from it on, their idle time is
  // the fork of the next region.
  TS.Log.push_back({At, std::numeric_limits<std::uint64_t>::max(),
                    ThreadState::Running, Kind::Parallel, Teams[TI].Code});
}

void Analyzer::Impl::blameIdle(const ThreadSt &TS, std::uint64_t From,
                               std::uint64_t To) {
  std::uint32_t TI = TS.Cur != None ? Slots[TS.Cur].Team : TS.LastImplTeam;
  if (TI == None || To <= From)
    return;
  const Team &Tm = Teams[TI];
  const std::uint32_t Th = std::uint32_t(&TS - Threads.data());
  if (Tm.Pseudo || Tm.Device || !Tm.ParallelEnded || Tm.EncThread == None ||
      Tm.EncThread == Th || Tm.EncThread >= Threads.size() || Tm.End >= To)
    return;
  From = std::max(From, Tm.End);
  R.IdleThreadsNs += To - From;
  const ThreadSt &P = Threads[Tm.EncThread];
  auto Add = [&](ThreadState St, Kind K, std::uint32_t Code, std::uint64_t Ns) {
    if (Ns)
      IdleBlame[{St, K, Code, Tm.Code}] += Ns;
  };
  if (P.LogTeam != TI) {
    // The primary thread has moved on past another region (this worker
    // sat that one out): what it did is no longer at hand.
    Add(ThreadState::Idle, Kind::Parallel, 0, To - From);
    return;
  }
  // Every ns of [From, To) goes to exactly one cause (the causes add up
  // to IdleThreadsNs): a stretch the log does not hold is "not known".
  std::uint64_t Covered = From;
  for (const Activity &A : P.Log) {
    if (A.End <= Covered)
      continue;
    if (A.Start >= To)
      break;
    const std::uint64_t S = std::max(A.Start, Covered),
                        E = std::min(A.End, To);
    if (S > Covered)
      Add(ThreadState::Idle, Kind::Parallel, 0, S - Covered);
    Add(A.St, A.K, A.Code, E - S);
    Covered = E;
  }
  if (Covered >= To)
    return;
  // The rest is the primary thread's current interval, not charged yet:
  // its state since its last event.
  if (P.InTool)
    Add(ThreadState::Tool, Kind::Task, 0, To - Covered);
  else if (P.Cur == None)
    Add(ThreadState::Idle, Kind::Task, 0, To - Covered);
  else if (!P.Waits.empty() && P.Waits.back().Task == P.Cur)
    Add(ThreadState::Waiting, P.Waits.back().K, P.Waits.back().Code,
        To - Covered);
  else
    Add(ThreadState::Running, Slots[P.Cur].K, Slots[P.Cur].Code, To - Covered);
}

void Analyzer::Impl::finishIdle() {
  R.IdleCauses.clear();
  for (const auto &[Key, Ns] : IdleBlame) {
    IdleCause C;
    C.State = std::get<0>(Key);
    C.K = std::get<1>(Key);
    C.Code = Codes[std::get<2>(Key)];
    C.After = Codes[std::get<3>(Key)];
    C.Ns = Ns;
    R.IdleCauses.push_back(C);
  }
  std::stable_sort(
      R.IdleCauses.begin(), R.IdleCauses.end(),
      [](const IdleCause &A, const IdleCause &B) { return A.Ns > B.Ns; });
}

} // namespace otter::analysis
