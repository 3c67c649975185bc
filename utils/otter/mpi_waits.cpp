//===- otter/mpi_waits.cpp - Scalasca's MPI wait states of a job ---------===//
#include "mpi_waits.h"

#include "otter/mpi.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

namespace otter::analysis {

namespace {

using mpi::Function;


bool blockingSend(Function F) {
  switch (F) {
  case Function::Send:
  case Function::Ssend:
  case Function::Rsend:
  case Function::Sendrecv:
  case Function::Sendrecv_replace:
    return true;
  default: // Bsend returns once buffered; I-sends never wait
    return false;
  }
}

/// The calls that wait for requests to complete (MPI_Wait*; MPI_Test* do
/// not wait): an I-send's or an I-receive's.
bool waitsForRequests(Function F) {
  switch (F) {
  case Function::Wait:
  case Function::Waitall:
  case Function::Waitany:
  case Function::Waitsome:
    return true;
  default:
    return false;
  }
}

/// A call that blocks until a message it receives has arrived.
bool blockingReceive(Function F) {
  return F == Function::Recv || F == Function::Sendrecv ||
         F == Function::Sendrecv_replace || waitsForRequests(F);
}


enum class Pattern { NxN, Barrier, LateBroadcast, EarlyReduce };

const char *patternName(Pattern P) {
  switch (P) {
  case Pattern::NxN:
    return "Wait at N x N";
  case Pattern::Barrier:
    return "Wait at Barrier";
  case Pattern::LateBroadcast:
    return "Late Broadcast";
  case Pattern::EarlyReduce:
    return "Early Reduce";
  }
  return "?";
}

/// The call a wait waited for (its rank and node; NoNode: unknown).
struct WaitCause {
  std::uint32_t Rank = 0;
  NodeId Node = NoNode;
};

/// A call's latest partner: when it began, and which call it was.
struct Partner {
  std::uint64_t Begin = 0;
  WaitCause Who;
  void later(std::uint64_t B, WaitCause W) {
    if (B >= Begin) {
      Begin = B;
      Who = W;
    }
  }
};

/// Where each site's losses add up.
struct Site {
  std::string Check;
  SourceLabel L;
  std::string Function;
  std::string Pattern; // collectives: the site's pattern (Scalasca's)
  std::uint64_t Calls = 0, Waited = 0;
  std::uint64_t LostNs = 0, WorstNs = 0;
  std::map<std::string, std::uint64_t> Patterns; // collectives: by pattern
  std::map<std::uint32_t, std::uint64_t> RankLost; // by rank
  /// By (rank, thread of the rank).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> ThreadLost;
};

class Collector {
public:
  Collector(const JobGraph &M, const JobTimeFn &Time, const LabelFn &Label)
      : M(M), Time(Time), Label(Label) {}

  const MpiCall *call(std::uint32_t Rank, NodeId N) const {
    if (Rank >= M.Ranks.size())
      return nullptr;
    const std::vector<MpiCall> &C = M.Ranks[Rank].Mpi.Calls;
    auto It =
        std::lower_bound(C.begin(), C.end(), N,
                         [](const MpiCall &X, NodeId Y) { return X.Node < Y; });
    return It != C.end() && It->Node == N ? &*It : nullptr;
  }
  std::uint64_t begin(std::uint32_t Rank, const MpiCall &C) const {
    return Time(Rank, C.Begin);
  }
  std::uint64_t end(std::uint32_t Rank, const MpiCall &C) const {
    return Time(Rank, C.End);
  }
  /// One call's loss under Check (counted even when 0: calls per site),
  /// caused by the call Cause made (its rank, its node; NoNode: unknown).
  void add(const char *Check, std::uint32_t Rank, const MpiCall &C,
           std::uint64_t Lost, WaitCause Cause,
           const char *Pattern = nullptr) {
    if (Lost && Cause.Node != NoNode) {
      DelayCause &D = Causes[{Cause.Rank, Cause.Node}];
      D.LostNs += Lost;
      ++D.Waits;
    }
    std::uint64_t Code =
        (std::uint64_t(Rank + 1) << CodeRankShift) | codeAddress(C.Site);
    SourceLabel L = codeAddress(C.Site) ? Label(Code) : SourceLabel{};
    std::string Key = std::string(Check) + "|" +
                      (L.RegionId ? std::to_string(L.RegionId)
                       : L.Line   ? L.File + ":" + std::to_string(L.Line)
                                  : std::to_string(codeAddress(C.Site)));
    Site &S = Sites[Key];
    if (!S.Calls) {
      S.Check = Check;
      S.Pattern = Pattern ? Pattern : "";
      S.L = L;
      S.Function = mpi::functionName(C.Function);
    }
    ++S.Calls;
    if (Lost) {
      ++S.Waited;
      S.LostNs += Lost;
      S.WorstNs = std::max(S.WorstNs, Lost);
      S.RankLost[Rank] += Lost;
      S.ThreadLost[{Rank, C.Thread}] += Lost;
      if (Pattern)
        S.Patterns[Pattern] += Lost;
    }
  }
  std::map<std::string, Site> Sites;
  std::map<std::pair<std::uint32_t, NodeId>, DelayCause> Causes;

private:
  const JobGraph &M;
  const JobTimeFn &Time;
  const LabelFn &Label;
};


/// Late senders and late receivers: each blocking call's wait for its
/// latest partner.
void pointToPoint(const JobGraph &M, Collector &Co) {
  // Point to point: per receiving (sending) call, its latest partner.
  std::map<std::pair<std::uint32_t, NodeId>, Partner> LatestSend, LatestPost;
  for (const JobMessage &X : M.Messages) {
    if (X.State != JobMessage::Matched)
      continue;
    const MpiCall *S = Co.call(X.SendRank, X.SendNode);
    const MpiCall *P = Co.call(X.RecvRank, X.RecvPost);
    if (!S || !P)
      continue;
    LatestSend[{X.RecvRank, X.RecvNode}].later(
        Co.begin(X.SendRank, *S), {X.SendRank, X.SendNode});
    LatestPost[{X.SendRank, X.SendNode}].later(Co.begin(X.RecvRank, *P),
                                               {X.RecvRank, X.RecvPost});
  }
  // A Wait* that completes an MPI_Isend waits for its receive to be posted
  // as a blocking send does: the completing call of each I-send.
  std::map<std::pair<std::uint32_t, NodeId>, NodeId> Completer;
  for (std::uint32_t R = 0; R < M.Ranks.size(); ++R) {
    const MpiGraph &G = M.Ranks[R].Mpi;
    std::map<std::uint32_t, NodeId> Pending; // request -> the I-send's call
    for (const MpiCall &C : G.Calls)
      for (std::uint32_t I = C.FirstOp; I < C.FirstOp + C.OpCount; ++I) {
        const MpiOp &Op = G.Ops[I];
        if (Op.Kind == EventKind::MpiIsend && Op.Request)
          Pending[Op.Request] = C.Node;
        else if (Op.Kind == EventKind::MpiIsendComplete) {
          auto It = Pending.find(Op.Request);
          if (It != Pending.end()) {
            Completer[{R, It->second}] = C.Node;
            Pending.erase(It);
          }
        }
      }
  }
  for (const JobMessage &X : M.Messages) {
    if (X.State != JobMessage::Matched)
      continue;
    auto W = Completer.find({X.SendRank, X.SendNode});
    const MpiCall *P = Co.call(X.RecvRank, X.RecvPost);
    if (W == Completer.end() || !P)
      continue;
    LatestPost[{X.SendRank, W->second}].later(Co.begin(X.RecvRank, *P),
                                              {X.RecvRank, X.RecvPost});
  }
  // Each call's wait for its latest send (as a receiver) and for its latest
  // receive's posting (as a sender). Both begin at the call's begin, so a
  // call that is both (MPI_Sendrecv, a Waitall completing receives and
  // sends) waited for the longer of the two:
  // counted once, under the pattern that explains more of it.
  std::map<std::pair<std::uint32_t, NodeId>,
           std::pair<std::uint64_t, WaitCause>>
      AsReceiver, AsSender; // the call's loss, and its cause
  for (auto &[K, Send] : LatestSend) {
    const MpiCall *C = Co.call(K.first, K.second);
    if (!C || !blockingReceive(C->Function))
      continue;
    std::uint64_t B = Co.begin(K.first, *C), E = Co.end(K.first, *C);
    AsReceiver[K] = {Send.Begin > B ? std::min(E, Send.Begin) - B : 0,
                     Send.Who};
  }
  for (auto &[K, Post] : LatestPost) {
    const MpiCall *C = Co.call(K.first, K.second);
    if (!C || !(blockingSend(C->Function) || waitsForRequests(C->Function)))
      continue;
    std::uint64_t B = Co.begin(K.first, *C), E = Co.end(K.first, *C);
    std::uint64_t Lost = Post.Begin > B ? std::min(E, Post.Begin) - B : 0;
    auto R = AsReceiver.find(K);
    if (R != AsReceiver.end()) {
      if (Lost > R->second.first)
        R->second.first = 0;
      else
        Lost = 0;
    }
    AsSender[K] = {Lost, Post.Who};
  }
  for (auto &[K, X] : AsReceiver)
    Co.add("late_sender", K.first, *Co.call(K.first, K.second), X.first,
           X.second);
  for (auto &[K, X] : AsSender)
    Co.add("late_receiver", K.first, *Co.call(K.first, K.second), X.first,
           X.second);
}

/// The blocking collectives' patterns.
void collectives(const JobGraph &M, Collector &Co) {
  // Collectives: blocking ones (started and completed by one call).
  for (const JobCollective &X : M.Collectives) {
    struct Member {
      std::uint32_t Rank;
      const MpiCall *C;
      std::uint64_t B, E;
    };
    std::vector<Member> Ms;
    for (const JobCollective::Member &Y : X.Members) {
      if (Y.Post == NoNode || Y.Post != Y.Complete)
        continue;
      if (const MpiCall *C = Co.call(Y.Rank, Y.Post))
        Ms.push_back({Y.Rank, C, Co.begin(Y.Rank, *C), Co.end(Y.Rank, *C)});
    }
    if (Ms.size() < 2)
      continue;
    using mpi::CollectiveOp;
    bool OneToN = X.Root != mpi::NoRank && (X.Op == CollectiveOp::Bcast ||
                                            X.Op == CollectiveOp::Scatter ||
                                            X.Op == CollectiveOp::Scatterv);
    bool NToOne = X.Root != mpi::NoRank && (X.Op == CollectiveOp::Reduce ||
                                            X.Op == CollectiveOp::Gather ||
                                            X.Op == CollectiveOp::Gatherv);
    auto lost = [](const Member &M, std::uint64_t Until) {
      return Until > M.B ? std::min(M.E, Until) - M.B : 0;
    };
    auto who = [](const Member *Y) {
      return Y ? WaitCause{Y->Rank, Y->C->Node} : WaitCause{};
    };
    if (OneToN || NToOne) {
      const Member *Root = nullptr, *First = nullptr;
      for (const Member &Y : Ms)
        if (Y.Rank == X.Root)
          Root = &Y;
        else if (!First || Y.B < First->B)
          First = &Y;
      if (!Root)
        continue;
      for (const Member &Y : Ms) {
        std::uint64_t L = 0;
        WaitCause Cause;
        if (OneToN && &Y != Root) {
          L = lost(Y, Root->B);
          Cause = who(Root);
        } else if (NToOne && &Y == Root && First) {
          L = lost(Y, First->B);
          Cause = who(First);
        }
        Co.add("wait_at_collective", Y.Rank, *Y.C, L, Cause,
               patternName(OneToN ? Pattern::LateBroadcast
                                  : Pattern::EarlyReduce));
      }
      continue;
    }
    const Member *Last = &Ms[0];
    for (const Member &Y : Ms)
      if (Y.B > Last->B)
        Last = &Y;
    for (const Member &Y : Ms)
      Co.add("wait_at_collective", Y.Rank, *Y.C, lost(Y, Last->B), who(Last),
             patternName(X.Op == CollectiveOp::Barrier ? Pattern::Barrier
                                                       : Pattern::NxN));
  }

}

/// The split by thread of a pattern's loss (rank, thread) -> ns: only the
/// ranks where more than one thread lost time (a rank with one waiting
/// thread is its rank's figure already).
std::vector<Finding::ThreadLoss> threadSplit(
    const std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t>
        &Threads) {
  std::map<std::uint32_t, std::uint32_t> Waiting; // rank -> threads
  for (auto &[RT, Ns] : Threads)
    Waiting[RT.first] += Ns > 0;
  std::vector<Finding::ThreadLoss> Out;
  for (auto &[RT, Ns] : Threads)
    if (Ns && Waiting[RT.first] > 1)
      Out.push_back({RT.first, RT.second, Ns});
  return Out;
}

/// The findings of the patterns Co collected.
std::vector<Finding> patternFindings(const Collector &Co,
                                     double ThreadTimeNs) {
  // One finding per pattern (late sender, late receiver, and each of the
  // collectives' patterns): its total over every call site, the threshold
  // applied to the total (time spread over many sites is not hidden), then
  // split by call site and rank.
  std::map<std::pair<std::string, std::string>, std::vector<const Site *>>
      ByCheck;
  for (auto &[Key, S] : Co.Sites)
    ByCheck[{S.Check, S.Pattern}].push_back(&S);
  std::vector<Finding> F;
  char B[64];
  std::snprintf(B, sizeof B, "%.0f", MinLostShare * 100);
  for (auto &[CheckPattern, Sites] : ByCheck) {
    const std::string &Check = CheckPattern.first;
    std::uint64_t Lost = 0, Calls = 0, Waited = 0, Worst = 0;
    std::map<std::string, std::uint64_t> Patterns;
    std::map<std::uint32_t, std::uint64_t> Ranks;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> Threads;
    for (const Site *S : Sites) {
      Lost += S->LostNs;
      Calls += S->Calls;
      Waited += S->Waited;
      Worst = std::max(Worst, S->WorstNs);
      for (auto &[P, Ns] : S->Patterns)
        Patterns[P] += Ns;
      for (auto &[R, Ns] : S->RankLost)
        Ranks[R] += Ns;
      for (auto &[RT, Ns] : S->ThreadLost)
        Threads[RT] += Ns;
    }
    if (!Lost || double(Lost) <= MinLostShare * ThreadTimeNs)
      continue;
    std::vector<const Site *> Lossy;
    for (const Site *S : Sites)
      if (S->LostNs)
        Lossy.push_back(S);
    std::stable_sort(Lossy.begin(), Lossy.end(),
                     [](const Site *A, const Site *C) {
                       return A->LostNs > C->LostNs;
                     });
    auto where = [](const Site &S) {
      return sourceText(S.L) + " " + S.Function;
    };
    Finding X;
    X.Check = Check;
    X.K = Kind::Mpi;
    X.Where = where(*Lossy[0]);
    if (Lossy.size() > 1)
      X.Where += " and " + std::to_string(Lossy.size() - 1) +
                 " other call site(s)";
    X.RegionId = Lossy[0]->L.RegionId;
    X.LostNs = Lost;
    X.Threshold = std::string("time lost > ") + B +
                  "% of thread time (" + fmtNs(MinLostShare * ThreadTimeNs) +
                  "), summed over the pattern's call sites";
    const char *What = Check == "late_sender"     ? "receive(s) began before "
                                                    "their send"
                       : Check == "late_receiver" ? "send(s) began before "
                                                    "their receive was posted"
                                                  : "member call(s) waited";
    X.Evidence = std::to_string(Waited) + " of " + std::to_string(Calls) +
                 " " + What + ", " + fmtNs(double(Lost)) + " lost, worst " +
                 fmtNs(double(Worst));
    for (auto &[P, Ns] : Patterns)
      X.Evidence += "; " + P + " " + fmtNs(double(Ns));
    if (Lossy.size() > 1) {
      // The sites that lost most, then the rest in one figure.
      constexpr std::size_t Shown = 5;
      X.Evidence += "; by call site:";
      std::uint64_t Rest = 0;
      for (std::size_t I = 0; I < Lossy.size(); ++I)
        if (I < Shown)
          X.Evidence += std::string(I ? "," : "") + " " + where(*Lossy[I]) +
                        " " + fmtNs(double(Lossy[I]->LostNs)) + " (" +
                        std::to_string(Lossy[I]->Waited) + " calls)";
        else
          Rest += Lossy[I]->LostNs;
      if (Rest)
        X.Evidence += ", " + std::to_string(Lossy.size() - Shown) +
                      " more " + fmtNs(double(Rest));
    }
    X.Ranks.assign(Ranks.begin(), Ranks.end());
    X.Threads = threadSplit(Threads);
    F.push_back(X);
  }
  return F;
}

} // namespace

std::vector<Finding> mpiWaitFindings(const JobGraph &M, const JobTimeFn &Time,
                                     const LabelFn &Label,
                                     double ThreadTimeNs) {
  Collector Co(M, Time, Label);
  pointToPoint(M, Co);
  collectives(M, Co);
  std::vector<Finding> F = patternFindings(Co, ThreadTimeNs);
  if (std::optional<Finding> D =
          delayCostFinding(M, Co.Causes, Label, ThreadTimeNs))
    F.push_back(std::move(*D));
  std::stable_sort(F.begin(), F.end(), [](const Finding &A, const Finding &C) {
    return A.LostNs > C.LostNs;
  });
  return F;
}

} // namespace otter::analysis
