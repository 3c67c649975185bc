//===- job/logical_clock.cpp - Clock condition of a job's messages --------===//
//
// The controlled logical clock of logical_clock.h: each rank's sends and
// receives in time order, processed rank by rank in happened-before order
// (a receive waits until its send is processed) with a work list.
//
//===----------------------------------------------------------------------===//
#include "logical_clock.h"

#include <algorithm>
#include <deque>

namespace otter::job {

std::uint64_t ClockShift::shift(std::uint64_t T) const {
  if (Ramps.empty())
    return 0;
  // Ramps that ended at or before T count whole; the next one in part.
  auto It = std::upper_bound(
      Ramps.begin(), Ramps.end(), T,
      [](std::uint64_t V, const Ramp &R) { return V < R.End; });
  std::size_t I = std::size_t(It - Ramps.begin());
  std::uint64_t S = I ? Sum[I - 1] : 0;
  if (I < Ramps.size() && Ramps[I].Start < T) {
    const Ramp &R = Ramps[I];
    S += std::uint64_t((unsigned __int128)R.Delta * (T - R.Start) /
                       (R.End - R.Start));
  }
  return S;
}

void ClockShift::add(Ramp R) {
  Sum.push_back(total() + R.Delta);
  Ramps.push_back(R);
}

namespace {

/// The amortization of a rank's first move: at most this long before it.
constexpr std::uint64_t FirstWindowNs = 1000000;

struct RankEvent {
  std::uint64_t Ns;
  std::uint32_t Message;
  bool Send;
};

} // namespace

ClockCondition enforceClockCondition(const std::vector<ClockMessage> &Messages,
                                     std::size_t Ranks,
                                     std::uint64_t MinLatencyNs) {
  ClockCondition Out;
  Out.Shifts.resize(Ranks);
  std::vector<std::vector<RankEvent>> Events(Ranks);
  for (std::uint32_t M = 0; M < Messages.size(); ++M) {
    const ClockMessage &X = Messages[M];
    if (X.SendRank >= Ranks || X.RecvRank >= Ranks)
      continue;
    Events[X.SendRank].push_back({X.SendNs, M, true});
    Events[X.RecvRank].push_back({X.RecvNs, M, false});
  }
  // A rank's events by time; at one time receives first (a send at the
  // time of a receive carries its move).
  for (auto &E : Events)
    std::stable_sort(E.begin(), E.end(),
                     [](const RankEvent &A, const RankEvent &B) {
                       return A.Ns != B.Ns ? A.Ns < B.Ns : (!A.Send && B.Send);
                     });
  constexpr std::uint32_t NoRank = ~0u;
  std::vector<std::uint64_t> SendNs(Messages.size(), 0);
  std::vector<bool> Sent(Messages.size(), false);
  std::vector<std::uint32_t> Waiting(Messages.size(), NoRank);
  std::vector<std::size_t> Next(Ranks, 0);
  std::vector<std::uint64_t> Cum(Ranks, 0), Prev(Ranks, 0);
  std::vector<bool> HasPrev(Ranks, false), Moved(Ranks, false);
  std::deque<std::uint32_t> Ready;
  for (std::uint32_t R = 0; R < Ranks; ++R)
    Ready.push_back(R);

  auto receive = [&](std::uint32_t R, const RankEvent &E, std::uint64_t Send) {
    std::uint64_t Cur = E.Ns + Cum[R], Need = Send + MinLatencyNs;
    if (Cur < Need) {
      std::uint64_t Delta = Need - Cur;
      std::uint64_t Start =
          HasPrev[R] ? Prev[R] : E.Ns - std::min(E.Ns, FirstWindowNs);
      Out.Shifts[R].add({Start, E.Ns, Delta});
      Cum[R] += Delta;
      ++Out.Corrected;
      Out.MaxMoveNs = std::max(Out.MaxMoveNs, Delta);
      Moved[R] = true;
    }
  };
  // Runs rank R until it waits for a send not processed yet.
  auto run = [&](std::uint32_t R) {
    std::vector<RankEvent> &Ev = Events[R];
    while (Next[R] < Ev.size()) {
      const RankEvent &E = Ev[Next[R]];
      if (E.Send) {
        SendNs[E.Message] = E.Ns + Cum[R];
        Sent[E.Message] = true;
        if (Waiting[E.Message] != NoRank) {
          Ready.push_back(Waiting[E.Message]);
          Waiting[E.Message] = NoRank;
        }
      } else if (!Sent[E.Message]) {
        Waiting[E.Message] = R;
        return;
      } else {
        receive(R, E, SendNs[E.Message]);
      }
      Prev[R] = E.Ns;
      HasPrev[R] = true;
      ++Next[R];
    }
  };
  for (;;) {
    while (!Ready.empty()) {
      std::uint32_t R = Ready.front();
      Ready.pop_front();
      run(R);
    }
    // Every rank done, or waiting in a cycle (times that contradict the
    // messages' order): the earliest waiting receive goes first, against
    // its send's time as it stands.
    std::uint32_t Best = NoRank;
    for (std::uint32_t R = 0; R < Ranks; ++R)
      if (Next[R] < Events[R].size() &&
          (Best == NoRank ||
           Events[R][Next[R]].Ns < Events[Best][Next[Best]].Ns))
        Best = R;
    if (Best == NoRank)
      break;
    const RankEvent &E = Events[Best][Next[Best]];
    const ClockMessage &M = Messages[E.Message];
    Waiting[E.Message] = NoRank;
    receive(Best, E, M.SendNs + Cum[M.SendRank]);
    Prev[Best] = E.Ns;
    HasPrev[Best] = true;
    ++Next[Best];
    Ready.push_back(Best);
  }
  for (std::uint32_t R = 0; R < Ranks; ++R)
    if (Moved[R])
      Out.Ranks.push_back(R);
  return Out;
}

} // namespace otter::job
