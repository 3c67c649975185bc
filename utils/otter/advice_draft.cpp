//===- otter/advice_draft.cpp - Transformations of the replayed program --===//
//
// The Draft (advice.h): a Program taken apart into one vector of steps per
// task, the transformations the advice replays (a cut-off, fused regions,
// dependence edges removed, taskwaits removed), and the Program built back
// from it in pre-order of the creation tree, as the Recorder lays it out
// (sim_program.cpp), so that the replay's descendant test holds.
//
//===----------------------------------------------------------------------===//
#include "advice.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace otter::advice {

using sim::argOf;
using sim::NoTask;
using sim::preOf;
using sim::Step;
using sim::stepOf;

namespace {

std::uint64_t makeWord(Step S, std::uint64_t Pre, std::uint32_t Arg) {
  return std::uint64_t(S) | (Pre << 4) | (std::uint64_t(Arg) << 32);
}
std::uint64_t computeWord(std::uint64_t Ns) {
  return std::uint64_t(Step::Compute) | (Ns << 4);
}
/// The execution a step stands for: a Compute's payload, else the time
/// before the step.
std::uint64_t workOf(std::uint64_t W) { return preOf(W); }

/// Appends a step with Pre of execution before it (a Compute of its own if
/// longer than a step can hold).
void append(Draft::Task &T, bool Sites, Step S, std::uint64_t Pre,
            std::uint32_t Arg, std::uint32_t Site) {
  if (S == Step::Compute) {
    if (Pre) {
      T.Steps.push_back(computeWord(Pre));
      if (Sites)
        T.Sites.push_back(0);
    }
    return;
  }
  if (Pre > sim::MaxPre) {
    T.Steps.push_back(computeWord(Pre));
    if (Sites)
      T.Sites.push_back(0);
    Pre = 0;
  }
  T.Steps.push_back(makeWord(S, Pre, Arg));
  if (Sites)
    T.Sites.push_back(Site);
}

} // namespace

Draft draftOf(const sim::Program &G) {
  Draft D;
  std::size_t N = G.tasks();
  bool Sites = !G.StepSite.empty();
  D.Tasks.resize(N);
  for (std::uint32_t T = 0; T < N; ++T) {
    Draft::Task &X = D.Tasks[T];
    for (std::uint32_t I = G.StepBegin[T];; ++I) {
      X.Steps.push_back(G.Steps[I]);
      if (Sites)
        X.Sites.push_back(G.StepSite[I]);
      if (stepOf(G.Steps[I]) == Step::End)
        break;
    }
    X.Succ.assign(G.Succ.begin() + G.SuccBegin[T],
                  G.Succ.begin() + G.SuccBegin[T + 1]);
    X.Flags = G.Flags[T];
    X.Team = G.Team[T];
  }
  D.Teams.resize(G.Teams.size());
  for (std::size_t I = 0; I < G.Teams.size(); ++I) {
    const sim::TeamRec &R = G.Teams[I];
    Draft::Team &X = D.Teams[I];
    X.Enc = R.Enc;
    X.ForkNs = R.ForkNs;
    X.JoinNs = R.JoinNs;
    X.Members.assign(G.Members.begin() + R.FirstMember,
                     G.Members.begin() + R.FirstMember + R.Members);
    X.Delay.assign(G.MemberDelay.begin() + R.FirstMember,
                   G.MemberDelay.begin() + R.FirstMember + R.Members);
  }
  D.Roots = G.Roots;
  D.Sites = G.Sites;
  return D;
}

sim::Program build(const Draft &D) {
  std::size_t N = D.Tasks.size();
  std::vector<std::uint32_t> New(N, NoTask), Order, ParentOf(N, NoTask),
      TeamOf(N, NoTask), SizeOf(N, 1);
  Order.reserve(N);
  for (std::uint32_t TI = 0; TI < D.Teams.size(); ++TI)
    for (std::uint32_t M : D.Teams[TI].Members)
      TeamOf[M] = TI;
  struct Frame {
    std::uint32_t T;
    std::size_t Step;
    std::uint32_t Member;
  };
  std::vector<Frame> Stack;
  auto enter = [&](std::uint32_t T, std::uint32_t Parent) {
    New[T] = std::uint32_t(Order.size());
    Order.push_back(T);
    ParentOf[T] = Parent;
    if (TeamOf[T] == NoTask && Parent != NoTask)
      TeamOf[T] = TeamOf[Parent];
    Stack.push_back({T, 0, 0});
  };
  auto visit = [&](std::uint32_t Root) {
    if (D.Tasks[Root].Dead || New[Root] != NoTask)
      return;
    if (TeamOf[Root] == NoTask)
      TeamOf[Root] = D.Tasks[Root].Team;
    enter(Root, NoTask);
    while (!Stack.empty()) {
      Frame &F = Stack.back();
      const std::vector<std::uint64_t> &S = D.Tasks[F.T].Steps;
      if (F.Step >= S.size()) {
        SizeOf[F.T] = std::uint32_t(Order.size()) - New[F.T];
        Stack.pop_back();
        continue;
      }
      std::uint64_t W = S[F.Step];
      std::uint32_t Child = NoTask;
      if (stepOf(W) == Step::Create) {
        Child = argOf(W);
        ++F.Step;
      } else if (stepOf(W) == Step::Fork) {
        const Draft::Team &Tm = D.Teams[argOf(W)];
        if (F.Member < Tm.Members.size())
          Child = Tm.Members[F.Member++];
        else {
          ++F.Step;
          F.Member = 0;
        }
      } else {
        ++F.Step;
      }
      if (Child != NoTask && !D.Tasks[Child].Dead && New[Child] == NoTask)
        enter(Child, F.T);
    }
  };
  for (std::uint32_t R : D.Roots)
    visit(R);
  for (std::uint32_t T = 0; T < N; ++T)
    visit(T);

  sim::Program G;
  std::size_t L = Order.size();
  bool Sites = !D.Sites.empty();
  G.StepBegin.resize(L);
  G.Parent.resize(L);
  G.Team.resize(L);
  G.Size.resize(L);
  G.Flags.resize(L);
  G.NPreds.assign(L, 0);
  G.SuccBegin.assign(L + 1, 0);
  for (std::uint32_t X = 0; X < L; ++X) {
    std::uint32_t T = Order[X];
    const Draft::Task &K = D.Tasks[T];
    G.StepBegin[X] = std::uint32_t(G.Steps.size());
    for (std::size_t I = 0; I < K.Steps.size(); ++I) {
      std::uint64_t W = K.Steps[I];
      if (stepOf(W) == Step::Create)
        W = (W & 0xffffffffull) | (std::uint64_t(New[argOf(W)]) << 32);
      G.Steps.push_back(W);
      if (Sites)
        G.StepSite.push_back(I < K.Sites.size() ? K.Sites[I] : 0);
      G.ComputeNs += workOf(W);
    }
    G.Parent[X] = ParentOf[T] == NoTask ? NoTask : New[ParentOf[T]];
    G.Team[X] = TeamOf[T];
    G.Size[X] = SizeOf[T];
    G.Flags[X] = K.Flags;
    if (!(K.Flags & (sim::FInitial | sim::FImplicit))) {
      ++G.ExplicitTasks;
      if (K.Flags & sim::FSerialized)
        ++G.SerializedTasks;
    }
    for (std::uint32_t S : K.Succ)
      if (New[S] != NoTask) {
        ++G.SuccBegin[X + 1];
        ++G.NPreds[New[S]];
        G.Succ.push_back(New[S]);
      }
  }
  for (std::size_t X = 0; X < L; ++X)
    G.SuccBegin[X + 1] += G.SuccBegin[X];
  for (const Draft::Team &Tm : D.Teams) {
    sim::TeamRec R;
    R.Enc = Tm.Enc == NoTask ? NoTask : New[Tm.Enc];
    R.FirstMember = std::uint32_t(G.Members.size());
    R.ForkNs = Tm.ForkNs;
    R.JoinNs = Tm.JoinNs;
    for (std::size_t I = 0; I < Tm.Members.size(); ++I)
      if (New[Tm.Members[I]] != NoTask) {
        G.Members.push_back(New[Tm.Members[I]]);
        G.MemberDelay.push_back(I < Tm.Delay.size() ? Tm.Delay[I] : 0);
        ++R.Members;
      }
    if (R.Members)
      G.ComputeNs += R.ForkNs;
    G.Teams.push_back(R);
  }
  for (std::uint32_t R : D.Roots)
    if (New[R] != NoTask)
      G.Roots.push_back(New[R]);
  G.Sites = D.Sites;
  return G;
}

void taskSites(const Draft &D, std::vector<std::uint32_t> &Site,
               std::vector<std::uint32_t> &Creator) {
  Site.assign(D.Tasks.size(), 0);
  Creator.assign(D.Tasks.size(), NoTask);
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T) {
    const Draft::Task &K = D.Tasks[T];
    if (K.Dead)
      continue;
    for (std::size_t I = 0; I < K.Steps.size(); ++I)
      if (stepOf(K.Steps[I]) == Step::Create) {
        std::uint32_t C = argOf(K.Steps[I]);
        Creator[C] = T;
        Site[C] = I < K.Sites.size() ? K.Sites[I] : 0;
      }
  }
}

namespace {

/// Recursion depth of every task of the family (-1: not in it).
std::vector<int> depths(const Draft &D,
                        const std::vector<std::uint32_t> &Family) {
  std::vector<std::uint32_t> S, Creator;
  taskSites(D, S, Creator);
  std::vector<int> Depth(D.Tasks.size(), -1);
  // Creators come before their children (pre-order ids): one pass.
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T) {
    if (D.Tasks[T].Dead || !S[T] ||
        !std::binary_search(Family.begin(), Family.end(), S[T]))
      continue;
    std::uint32_t C = Creator[T];
    Depth[T] = C != NoTask && Depth[C] >= 0 ? Depth[C] + 1 : 0;
  }
  return Depth;
}

/// T's whole subtree as one task (cutOff). False: it forks a team.
bool collapse(Draft &D, std::uint32_t T, double CreateNs,
              std::uint64_t &Removed) {
  std::vector<std::uint32_t> Sub{T};
  std::uint64_t Work = 0;
  for (std::size_t I = 0; I < Sub.size(); ++I)
    for (std::uint64_t W : D.Tasks[Sub[I]].Steps) {
      if (stepOf(W) == Step::Fork)
        return false;
      Work += workOf(W);
      if (stepOf(W) == Step::Create)
        Sub.push_back(argOf(W));
    }
  std::uint64_t N = Sub.size() - 1;
  double Saved = std::min(double(Work), double(N) * std::max(0.0, CreateNs));
  Work -= std::uint64_t(std::llround(Saved));
  for (std::size_t I = 1; I < Sub.size(); ++I)
    D.Tasks[Sub[I]].Dead = true;
  Draft::Task &K = D.Tasks[T];
  bool Sites = !K.Sites.empty();
  K.Steps.clear();
  K.Sites.clear();
  append(K, Sites, Step::Compute, Work, 0, 0);
  append(K, Sites, Step::End, 0, 0, 0);
  Removed += N;
  return true;
}

} // namespace

std::vector<std::vector<std::uint32_t>> recursiveFamilies(const Draft &D) {
  std::vector<std::uint32_t> S, Creator;
  taskSites(D, S, Creator);
  // The site graph: an edge from a task's creator's site to its site.
  std::map<std::uint32_t, std::uint32_t> Index; // site -> node
  std::vector<std::uint64_t> Count;
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T)
    if (!D.Tasks[T].Dead && S[T] && Index.emplace(S[T], Index.size()).second)
      Count.push_back(0);
  std::size_t N = Index.size();
  if (N > 512)
    return {}; // more task constructs than a program has by hand
  std::vector<std::vector<bool>> Reach(N, std::vector<bool>(N, false));
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T) {
    if (D.Tasks[T].Dead || !S[T])
      continue;
    std::uint32_t To = Index[S[T]];
    ++Count[To];
    if (std::uint32_t C = Creator[T]; C != NoTask && S[C])
      Reach[Index[S[C]]][To] = true;
  }
  for (std::size_t K = 0; K < N; ++K)
    for (std::size_t I = 0; I < N; ++I)
      if (Reach[I][K])
        for (std::size_t J = 0; J < N; ++J)
          if (Reach[K][J])
            Reach[I][J] = true;
  std::vector<std::uint32_t> SiteOf(N);
  for (const auto &[Site, I] : Index)
    SiteOf[I] = Site;
  std::vector<bool> Done(N, false);
  std::vector<std::vector<std::uint32_t>> Out;
  std::vector<std::uint64_t> Tasks;
  for (std::size_t I = 0; I < N; ++I) {
    if (Done[I] || !Reach[I][I])
      continue;
    std::vector<std::uint32_t> F;
    std::uint64_t Sum = 0;
    for (std::size_t J = 0; J < N; ++J)
      if (Reach[I][J] && Reach[J][I]) {
        Done[J] = true;
        F.push_back(SiteOf[J]);
        Sum += Count[J];
      }
    std::sort(F.begin(), F.end());
    Out.push_back(std::move(F));
    Tasks.push_back(Sum);
  }
  std::vector<std::size_t> Order(Out.size());
  for (std::size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(),
                   [&](auto A, auto B) { return Tasks[A] > Tasks[B]; });
  std::vector<std::vector<std::uint32_t>> Sorted;
  for (std::size_t I : Order)
    Sorted.push_back(std::move(Out[I]));
  return Sorted;
}

unsigned recursionDepth(const Draft &D,
                        const std::vector<std::uint32_t> &Family) {
  int Max = 0;
  for (int X : depths(D, Family))
    Max = std::max(Max, X);
  return unsigned(Max);
}

std::uint64_t cutOff(Draft &D, const std::vector<std::uint32_t> &Family,
                     unsigned Depth, double CreateNs) {
  std::vector<int> Dep = depths(D, Family);
  std::uint64_t Removed = 0;
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T)
    if (Dep[T] == int(Depth) && !D.Tasks[T].Dead)
      collapse(D, T, CreateNs, Removed);
  return Removed;
}

std::vector<RegionRun> regionRuns(const Draft &D) {
  std::vector<RegionRun> Out;
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T) {
    const Draft::Task &K = D.Tasks[T];
    if (K.Dead)
      continue;
    RegionRun Run{T, {}};
    auto close = [&] {
      if (Run.ForkSteps.size() >= 2)
        Out.push_back(Run);
      Run.ForkSteps.clear();
    };
    for (std::uint32_t I = 0; I < K.Steps.size(); ++I) {
      Step S = stepOf(K.Steps[I]);
      if (S == Step::Compute)
        continue;
      if (S != Step::Fork) {
        close();
        continue;
      }
      std::size_t Size = D.Teams[argOf(K.Steps[I])].Members.size();
      if (!Size) {
        close();
        continue;
      }
      if (!Run.ForkSteps.empty() &&
          D.Teams[argOf(K.Steps[Run.ForkSteps[0]])].Members.size() != Size)
        close();
      Run.ForkSteps.push_back(I);
    }
    close();
  }
  return Out;
}

std::uint64_t fuseRegions(Draft &D, const std::vector<RegionRun> &Runs) {
  std::uint64_t Removed = 0;
  for (const RegionRun &Run : Runs) {
    Draft::Task &E = D.Tasks[Run.Task];
    bool ESites = !E.Sites.empty();
    Draft::Team &A = D.Teams[argOf(E.Steps[Run.ForkSteps[0]])];
    std::vector<bool> Drop(E.Steps.size(), false);
    for (std::size_t K = 1; K < Run.ForkSteps.size(); ++K) {
      std::uint32_t From = Run.ForkSteps[K - 1], To = Run.ForkSteps[K];
      // The sequential code between the two regions.
      std::uint64_t Between = preOf(E.Steps[To]);
      for (std::uint32_t I = From + 1; I < To; ++I) {
        Between += workOf(E.Steps[I]);
        Drop[I] = true;
      }
      Drop[To] = true;
      Draft::Team &B = D.Teams[argOf(E.Steps[To])];
      for (std::size_t M = 0; M < A.Members.size(); ++M) {
        Draft::Task &Into = D.Tasks[A.Members[M]];
        Draft::Task &From2 = D.Tasks[B.Members[M]];
        bool Sites = !Into.Sites.empty();
        // Into's End becomes the execution before it, then the code
        // between the regions, then the next region's part.
        std::uint64_t EndPre = preOf(Into.Steps.back());
        Into.Steps.pop_back();
        if (Sites)
          Into.Sites.pop_back();
        append(Into, Sites, Step::Compute, EndPre + Between, 0, 0);
        Into.Steps.insert(Into.Steps.end(), From2.Steps.begin(),
                          From2.Steps.end());
        if (Sites)
          Into.Sites.insert(Into.Sites.end(), From2.Sites.begin(),
                            From2.Sites.end());
        From2.Steps.clear();
        From2.Sites.clear();
        From2.Dead = true;
      }
      A.JoinNs = B.JoinNs;
      B.Members.clear();
      B.Delay.clear();
      ++Removed;
    }
    std::vector<std::uint64_t> Steps;
    std::vector<std::uint32_t> Sites;
    for (std::size_t I = 0; I < E.Steps.size(); ++I)
      if (!Drop[I]) {
        Steps.push_back(E.Steps[I]);
        if (ESites)
          Sites.push_back(E.Sites[I]);
      }
    E.Steps.swap(Steps);
    E.Sites.swap(Sites);
  }
  return Removed;
}

namespace {
/// Each task's dependence predecessors.
std::vector<std::vector<std::uint32_t>> predecessors(const Draft &D) {
  std::vector<std::vector<std::uint32_t>> P(D.Tasks.size());
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T)
    if (!D.Tasks[T].Dead)
      for (std::uint32_t S : D.Tasks[T].Succ)
        P[S].push_back(T);
  return P;
}
} // namespace

std::vector<Edge> chainEdges(const Draft &D, unsigned MinChain) {
  std::vector<std::uint32_t> Site, Creator;
  taskSites(D, Site, Creator);
  std::vector<std::vector<std::uint32_t>> Pred = predecessors(D);
  // Chain heads: a task linked to its only predecessor, a sibling of the
  // same construct, joins that predecessor's chain.
  std::vector<std::uint32_t> Head(D.Tasks.size(), NoTask);
  std::unordered_map<std::uint32_t, std::uint32_t> Length;
  std::vector<std::pair<Edge, std::uint32_t>> Linked; // edge, chain head
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T) {
    if (D.Tasks[T].Dead || !Site[T])
      continue;
    Head[T] = T;
    if (Pred[T].size() == 1) {
      std::uint32_t P = Pred[T][0];
      if (Creator[P] == Creator[T] && Site[P] == Site[T] &&
          Head[P] != NoTask) {
        Head[T] = Head[P];
        Linked.push_back({{P, T}, Head[T]});
      }
    }
    ++Length[Head[T]];
  }
  std::vector<Edge> Out;
  for (const auto &[E, H] : Linked)
    if (Length[H] >= MinChain)
      Out.push_back(E);
  return Out;
}

std::vector<Edge> redundantEdges(const Draft &D, std::size_t Limit) {
  std::vector<std::vector<std::uint32_t>> Pred = predecessors(D);
  std::vector<std::uint32_t> Site, Creator;
  taskSites(D, Site, Creator);
  // Each creator's children with dependences, in creation order (a
  // topological order: a task depends only on siblings created before).
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> Kids;
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T)
    if (!D.Tasks[T].Dead && Creator[T] != NoTask &&
        (!Pred[T].empty() || !D.Tasks[T].Succ.empty()))
      Kids[Creator[T]].push_back(T);
  std::vector<Edge> Out;
  std::unordered_map<std::uint32_t, std::uint32_t> Index;
  for (auto &[C, K] : Kids) {
    if (K.size() > Limit || K.size() < 3)
      continue;
    std::sort(K.begin(), K.end()); // pre-order ids follow creation order
    Index.clear();
    for (std::uint32_t I = 0; I < K.size(); ++I)
      Index[K[I]] = I;
    std::size_t Words = (K.size() + 63) / 64;
    // Anc[I]: the siblings task I transitively depends on.
    std::vector<std::uint64_t> Anc(K.size() * Words, 0);
    auto has = [&](std::size_t I, std::size_t J) {
      return (Anc[I * Words + J / 64] >> (J % 64)) & 1;
    };
    for (std::uint32_t I = 0; I < K.size(); ++I) {
      std::vector<std::uint32_t> Ps;
      for (std::uint32_t P : Pred[K[I]])
        if (auto It = Index.find(P); It != Index.end())
          Ps.push_back(It->second);
      for (std::uint32_t P : Ps) {
        for (std::size_t W = 0; W < Words; ++W)
          Anc[I * Words + W] |= Anc[P * Words + W];
        Anc[I * Words + P / 64] |= 1ull << (P % 64);
      }
      // An edge from P is implied when another predecessor depends on P.
      for (std::uint32_t P : Ps)
        for (std::uint32_t Q : Ps)
          if (Q != P && has(Q, P)) {
            Out.push_back({K[P], K[I]});
            break;
          }
    }
  }
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

std::uint64_t removeEdges(Draft &D, const std::vector<Edge> &Edges) {
  std::uint64_t N = 0;
  for (auto [P, S] : Edges) {
    std::vector<std::uint32_t> &V = D.Tasks[P].Succ;
    auto It = std::find(V.begin(), V.end(), S);
    if (It != V.end()) {
      V.erase(It);
      ++N;
    }
  }
  return N;
}

std::vector<StepRef> idleTaskwaits(const Draft &D) {
  std::vector<StepRef> Out;
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T) {
    const Draft::Task &K = D.Tasks[T];
    if (K.Dead)
      continue;
    bool Pending = false; // a deferred child not waited for yet
    for (std::uint32_t I = 0; I < K.Steps.size(); ++I) {
      std::uint64_t W = K.Steps[I];
      switch (stepOf(W)) {
      case Step::Create: {
        std::uint8_t F = D.Tasks[argOf(W)].Flags;
        if (!(F & sim::FImmediate) || (F & sim::FSerialized))
          Pending = true;
        break;
      }
      case Step::Taskwait:
        if (!Pending)
          Out.push_back({T, I});
        Pending = false;
        break;
      case Step::Barrier:
        Pending = false; // a barrier completes the team's tasks
        break;
      default:
        break;
      }
    }
  }
  return Out;
}

std::vector<StepRef> trailingTaskwaits(const Draft &D, std::uint64_t TrailNs) {
  std::vector<StepRef> Out;
  for (std::uint32_t T = 0; T < D.Tasks.size(); ++T) {
    const Draft::Task &K = D.Tasks[T];
    if (K.Dead)
      continue;
    for (std::uint32_t I = 0; I + 1 < K.Steps.size(); ++I) {
      if (stepOf(K.Steps[I]) != Step::Taskwait)
        continue;
      std::uint64_t Next = K.Steps[I + 1];
      // The task's end, or a barrier (which waits for the team's tasks).
      if ((stepOf(Next) == Step::End || stepOf(Next) == Step::Barrier) &&
          preOf(Next) <= TrailNs)
        Out.push_back({T, I});
    }
  }
  return Out;
}

std::uint64_t removeTaskwaits(Draft &D, std::vector<StepRef> Steps) {
  std::sort(Steps.begin(), Steps.end(), std::greater<>());
  Steps.erase(std::unique(Steps.begin(), Steps.end()), Steps.end());
  std::uint64_t N = 0;
  for (auto [T, I] : Steps) {
    Draft::Task &K = D.Tasks[T];
    if (I >= K.Steps.size() || stepOf(K.Steps[I]) != Step::Taskwait)
      continue;
    std::uint64_t Pre = preOf(K.Steps[I]);
    bool Sites = !K.Sites.empty();
    if (Pre) {
      K.Steps[I] = computeWord(Pre);
      if (Sites)
        K.Sites[I] = 0;
    } else {
      K.Steps.erase(K.Steps.begin() + I);
      if (Sites)
        K.Sites.erase(K.Sites.begin() + I);
    }
    ++N;
  }
  return N;
}

} // namespace otter::advice
