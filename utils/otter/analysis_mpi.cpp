//===- otter/analysis_mpi.cpp - MPI calls in the streaming analysis ------===//
//
// An MPI call is waiting, not work: the time between its MpiCallBegin and
// MpiCallEnd is the calling task's wait (and its thread's MPI time), a row
// of kind `mpi` per call site (summary), and not on the task's path. What
// an MPI call waits for is another rank's work: in a job's merged stream
// (utils/otter/job.h) the links say which calls publish their task's path
// (a send posted, a contribution to a collective) and which merge it (a
// receive completed, a collective's result), as the job graph's message
// and collective edges do. Because a value is published when the call
// starts and merged when the receiving call ends, and a receive cannot end
// before its send started, time order is still a topological order (on
// one host; across hosts after the clock offsets: a value that arrives
// late is counted, and its edge left out of the span).
//
// Where a path crosses ranks, a zero-length step for the MPI call is put
// on it, at the send and at the receive, so that the critical path shows
// the message it followed.
//
//===----------------------------------------------------------------------===//
#include "analysis_impl.h"

#include "otter/mpi.h"

namespace otter::analysis {

std::uint32_t Analyzer::Impl::stepRecord(std::uint32_t Prev,
                                         std::uint32_t Code, Kind K,
                                         std::uint64_t Ns) {
  std::uint32_t N;
  if (!FreeRecs.empty()) {
    N = FreeRecs.back();
    FreeRecs.pop_back();
  } else {
    N = std::uint32_t(Recs.size());
    Recs.emplace_back();
  }
  incref(Prev); // the step refers to it
  Record &X = Recs[N];
  X.Ns = Ns;
  X.Prev = Prev;
  X.Refs = 1;
  X.Code = Code;
  X.K = std::uint8_t(K);
  X.Label = 0;
  X.First = false;
  X.Cum = Prev != None ? Recs[Prev].Cum : 0;
  return N;
}

void Analyzer::Impl::onMpiCallBegin(ThreadSt &TS, std::uint32_t Th,
                                    std::uint32_t T, const Event &E) {
  std::uint32_t Code = code(E.Code);
  const MpiLinks *L = Links ? Links->links(Th, E) : nullptr;
  TS.MpiCalls.push_back({T, Code, E.Sub, E.Time, L});
  if (T == None)
    return;
  TS.Waits.push_back({T, Code, Kind::Mpi, false, 0, E.Time});
  if (!L || L->Publish.empty())
    return;
  std::int64_t V = mark(T);
  std::uint32_t Step = stepRecord(Slots[T].Rec, Code, Kind::Mpi, 0);
  for (std::uint32_t S : L->Publish)
    if (S < LinkVals.size() && LinkLeft[S])
      assign(LinkVals[S], V, Step);
  decref(Step);
}

void Analyzer::Impl::onMpiCallEnd(ThreadSt &TS, std::uint32_t Th,
                                  std::uint32_t T, const Event &E) {
  // The call this ends: the thread's innermost (calls do not nest; a
  // begin lost to a cut-off trace leaves nothing to end).
  if (TS.MpiCalls.empty())
    return;
  MpiFrame F = TS.MpiCalls.back();
  TS.MpiCalls.pop_back();
  std::uint64_t Ns = E.Time - std::min(E.Time, F.Start);
  TS.Mpi += Ns;
  ConstructStats &St = stat(F.Code, Kind::Mpi);
  ++St.Instances;
  St.TotalNs += Ns;
  St.MaxNs = std::max(St.MaxNs, Ns);
  St.MpiFunction = F.Function;
  if (Obs)
    Obs->mpiCall(Th, Codes[F.Code], F.Function, F.Start, E.Time);
  if (F.Task == None)
    return;
  for (std::size_t I = TS.Waits.size(); I-- > 0;)
    if (TS.Waits[I].K == Kind::Mpi && TS.Waits[I].Task == F.Task) {
      St.WaitNs += TS.Waits[I].Ns;
      TS.Waits.erase(TS.Waits.begin() + std::ptrdiff_t(I));
      break;
    }
  if (!F.Links || T == None)
    return;
  for (std::uint32_t S : F.Links->Merge) {
    if (S >= LinkVals.size() || !LinkLeft[S])
      continue;
    PathVal &V = LinkVals[S];
    if (V.V == NegInf) {
      ++LateLinks; // published after this call ended: not in time order
    } else if (V.V > path(Slots[T])) {
      std::uint32_t Step = stepRecord(V.Rec, F.Code, Kind::Mpi, 0);
      merge(T, V.V, Step);
      decref(Step);
    }
    if (--LinkLeft[S] == 0)
      resetVal(V);
  }
}

} // namespace otter::analysis
