//===- otter/mpi_delay.cpp - What made ranks wait: delay costs -----------===//
//
// The `delay_cost` finding of `otter diagnose` on a job (mpi_waits.h): the
// time ranks lost in MPI wait states, charged to its cause -- the work the
// late rank did between its previous MPI call on the thread that could have
// waited (not a non-blocking post, a one-sided operation or a poll) and the
// call the others waited for -- summed per such interval of code (rank, from
// call site, to call site), as one finding split by interval.
//
//===----------------------------------------------------------------------===//
#include "mpi_waits.h"

#include <algorithm>
#include <cstdio>

namespace otter::analysis {

namespace {

/// A call that returns without waiting for another rank: a non-blocking
/// post, a one-sided operation, a poll, local bookkeeping. The work before
/// a late call goes back past these to the rank's previous call that could
/// have waited (a put between a fence and the late one is part of the
/// computation, as it was when one-sided calls were not traced).
bool neverWaits(mpi::Function F) {
  using mpi::Function;
  switch (F) {
  case Function::Isend:
  case Function::Issend:
  case Function::Ibsend:
  case Function::Irsend:
  case Function::Irecv:
  case Function::Send_init:
  case Function::Ssend_init:
  case Function::Bsend_init:
  case Function::Rsend_init:
  case Function::Recv_init:
  case Function::Start:
  case Function::Startall:
  case Function::Test:
  case Function::Testall:
  case Function::Testany:
  case Function::Testsome:
  case Function::Iprobe:
  case Function::Improbe:
  case Function::Imrecv:
  case Function::Cancel:
  case Function::Request_free:
  case Function::Ibarrier:
  case Function::Ibcast:
  case Function::Ireduce:
  case Function::Iallreduce:
  case Function::Igather:
  case Function::Igatherv:
  case Function::Iscatter:
  case Function::Iscatterv:
  case Function::Iallgather:
  case Function::Iallgatherv:
  case Function::Ialltoall:
  case Function::Ialltoallv:
  case Function::Ialltoallw:
  case Function::Ireduce_scatter:
  case Function::Ireduce_scatter_block:
  case Function::Iscan:
  case Function::Iexscan:
  case Function::Ineighbor_allgather:
  case Function::Ineighbor_allgatherv:
  case Function::Ineighbor_alltoall:
  case Function::Ineighbor_alltoallv:
  case Function::Ineighbor_alltoallw:
  case Function::Comm_idup:
  case Function::Comm_set_name:
  case Function::Win_attach:
  case Function::Win_detach:
  case Function::Win_test:
  case Function::Put:
  case Function::Get:
  case Function::Accumulate:
  case Function::Get_accumulate:
  case Function::Fetch_and_op:
  case Function::Compare_and_swap:
  case Function::Rput:
  case Function::Rget:
  case Function::Raccumulate:
  case Function::Rget_accumulate:
  case Function::File_iread:
  case Function::File_iread_all:
  case Function::File_iread_at:
  case Function::File_iread_at_all:
  case Function::File_iread_shared:
  case Function::File_iwrite:
  case Function::File_iwrite_all:
  case Function::File_iwrite_at:
  case Function::File_iwrite_at_all:
  case Function::File_iwrite_shared:
    return true;
  default:
    return false;
  }
}

/// Each MPI call's previous one on its rank's thread that could have
/// waited (null: none).
std::map<std::pair<std::uint32_t, NodeId>, const MpiCall *>
previousCalls(const JobGraph &M) {
  std::map<std::pair<std::uint32_t, NodeId>, const MpiCall *> Prev;
  for (std::uint32_t R = 0; R < M.Ranks.size(); ++R) {
    std::map<std::uint32_t, std::vector<const MpiCall *>> ByThread;
    for (const MpiCall &C : M.Ranks[R].Mpi.Calls)
      ByThread[C.Thread].push_back(&C);
    for (auto &[T, Calls] : ByThread) {
      std::stable_sort(Calls.begin(), Calls.end(),
                       [](const MpiCall *A, const MpiCall *B) {
                         return A->Begin < B->Begin;
                       });
      const MpiCall *Waiting = nullptr; // the last that could have waited
      for (const MpiCall *C : Calls) {
        Prev[{R, C->Node}] = Waiting;
        if (!neverWaits(C->Function))
          Waiting = C;
      }
    }
  }
  return Prev;
}

/// What lost time is charged to: a rank's work between two call sites.
struct Interval {
  std::uint32_t Rank = 0;
  std::string From, To; // "file:line MPI_X"; From empty: the rank's start
  std::uint64_t RegionId = 0;
  std::uint64_t LostNs = 0, Waits = 0, Calls = 0, WorkNs = 0;
  std::string text() const {
    return "rank " + std::to_string(Rank) + "'s work " +
           (From.empty() ? "from its start" : "from " + From) + " to " + To;
  }
};

} // namespace

std::optional<Finding>
delayCostFinding(const JobGraph &M,
                 const std::map<std::pair<std::uint32_t, NodeId>, DelayCause>
                     &Causes,
                 const LabelFn &Label, double ThreadTimeNs) {
  auto site = [&](std::uint32_t Rank, const MpiCall &C, std::uint64_t *Id) {
    std::uint64_t Code =
        (std::uint64_t(Rank + 1) << CodeRankShift) | codeAddress(C.Site);
    SourceLabel L = codeAddress(C.Site) ? Label(Code) : SourceLabel{};
    if (Id)
      *Id = L.RegionId;
    return sourceText(L) + " " + mpi::functionName(C.Function);
  };
  auto Prev = previousCalls(M);
  std::map<std::string, Interval> ByInterval;
  std::uint64_t Total = 0, Waits = 0;
  for (const auto &[K, D] : Causes) {
    const std::vector<MpiCall> &Calls = M.Ranks[K.first].Mpi.Calls;
    auto It = std::lower_bound(
        Calls.begin(), Calls.end(), K.second,
        [](const MpiCall &X, NodeId Y) { return X.Node < Y; });
    if (It == Calls.end() || It->Node != K.second)
      continue;
    const MpiCall *P = Prev[K];
    Interval X;
    X.Rank = K.first;
    X.To = site(K.first, *It, &X.RegionId);
    if (P)
      X.From = site(K.first, *P, nullptr);
    Interval &I = ByInterval.try_emplace(X.text(), X).first->second;
    I.LostNs += D.LostNs;
    I.Waits += D.Waits;
    ++I.Calls;
    std::uint64_t Since = P ? P->End : It->Begin;
    I.WorkNs += It->Begin > Since ? It->Begin - Since : 0;
    Total += D.LostNs;
    Waits += D.Waits;
  }
  if (!Total || double(Total) <= MinLostShare * ThreadTimeNs)
    return std::nullopt;
  std::vector<const Interval *> Order;
  for (const auto &[K, I] : ByInterval)
    Order.push_back(&I);
  std::stable_sort(Order.begin(), Order.end(),
                   [](const Interval *A, const Interval *B) {
                     return A->LostNs > B->LostNs;
                   });
  const Interval &Top = *Order[0];
  Finding F;
  F.Check = "delay_cost";
  F.K = Kind::Mpi;
  F.Where = Top.text();
  if (Order.size() > 1)
    F.Where += " and " + std::to_string(Order.size() - 1) + " other(s)";
  F.RegionId = Top.RegionId;
  F.LostNs = Total;
  char B[64];
  std::snprintf(B, sizeof B, "%.0f", MinLostShare * 100);
  F.Threshold = std::string("waiting caused > ") + B + "% of thread time (" +
                fmtNs(MinLostShare * ThreadTimeNs) +
                "), summed over its causes";
  F.Evidence = std::to_string(Waits) + " wait(s) in MPI on other ranks, " +
               fmtNs(double(Total)) +
               " lost, caused by late calls; the work before them (from the "
               "rank's previous MPI call on the thread that could have "
               "waited) is what to shorten or balance: ";
  constexpr std::size_t Shown = 5;
  std::uint64_t Rest = 0;
  std::map<std::uint32_t, std::uint64_t> Ranks;
  for (std::size_t I = 0; I < Order.size(); ++I) {
    const Interval &X = *Order[I];
    Ranks[X.Rank] += X.LostNs;
    if (I >= Shown) {
      Rest += X.LostNs;
      continue;
    }
    F.Evidence += std::string(I ? "; " : "") + X.text() + " caused " +
                  fmtNs(double(X.LostNs)) + " (" + std::to_string(X.Waits) +
                  " waits; that work took " +
                  fmtNs(double(X.WorkNs) / double(X.Calls)) + " a time)";
  }
  if (Rest)
    F.Evidence += "; " + std::to_string(Order.size() - Shown) + " more " +
                  fmtNs(double(Rest));
  F.Ranks.assign(Ranks.begin(), Ranks.end());
  return F;
}

} // namespace otter::analysis
