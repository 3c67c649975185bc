//===- otter/analysis_paths.cpp - Longest paths and the task lifecycle ---===//
//
// Span and critical path (see analysis_impl.h for the path values and
// records): a task's path starts from its creator's at creation (create
// edge), follows its dependence predecessors' completions (dependence
// edges), and each construct that waits for tasks continues from the longest
// of those it waits for (sync edges). Who waits for whom and which siblings
// depend on each other are graph/rules.h's rules 4 and 5, the same the graph
// builder follows; here they are kept as running maxima, released as tasks
// complete, so memory follows the live tasks.
//
// Why one pass in time order is enough: every value a task merges comes
// from an event that happens before the event that consumes it (a child
// completes before the taskwait that waits for it ends, a predecessor
// completes before its successor starts), so time order is a topological
// order of the graph.
//
//===----------------------------------------------------------------------===//
#include "analysis_impl.h"

#include <algorithm>
#include <cmath>

namespace otter::analysis {

//===----------------------------------------------------------------------===//
// Slots and path records.
//===----------------------------------------------------------------------===//

std::uint32_t Analyzer::Impl::newSlot(std::uint64_t Id) {
  std::uint32_t S;
  if (!FreeSlots.empty()) {
    S = FreeSlots.back();
    FreeSlots.pop_back();
    Slots[S] = Slot();
  } else {
    S = std::uint32_t(Slots.size());
    Slots.emplace_back();
  }
  Slots[S].Id = Id;
  if (Id)
    Ids.cell(Id) = S;
  PeakLive = std::max(PeakLive, ++Live);
  return S;
}

void Analyzer::Impl::decref(std::uint32_t R) {
  while (R != None) {
    Record &X = Recs[R];
    if (--X.Refs)
      return;
    std::uint32_t P = X.Prev;
    FreeRecs.push_back(R);
    R = P;
  }
}

void Analyzer::Impl::assign(PathVal &Dst, std::int64_t V, std::uint32_t Rec) {
  if (V <= Dst.V)
    return;
  incref(Rec);
  decref(Dst.Rec);
  Dst.V = V;
  Dst.Rec = Rec;
}

void Analyzer::Impl::resetVal(PathVal &P) {
  decref(P.Rec);
  P = PathVal();
}

/// Closes S's current segment into a path record; returns path(S).
std::int64_t Analyzer::Impl::mark(std::uint32_t S) {
  Slot &T = Slots[S];
  std::uint64_t Delta = T.Exec - T.MarkExec;
  bool FirstSeg = !(T.Flags & SOwnRec);
  // A first segment gets its record even when empty: that record counts the
  // task in Cum (tasks entered along the path, the burdened span's factor).
  if (Delta == 0 && !FirstSeg)
    return path(T);
  T.MarkExec = T.Exec;
  T.Flags |= SOwnRec;
  // The task's label so far (the program names it, otter_task_label): the
  // critical path's steps name it. One lookup only in programs with labels.
  std::uint32_t Label = 0;
  if (!LabelOfTask.empty())
    if (auto It = LabelOfTask.find(T.Id); It != LabelOfTask.end())
      Label = It->second;
  if (T.Rec != None && !FirstSeg) {
    Record &Old = Recs[T.Rec];
    if (Old.Refs == 1 && Old.Code == T.Code && Old.K == std::uint8_t(T.K) &&
        Old.Label == Label) {
      Old.Ns += Delta; // only T refers to it: extend in place
      return path(T);
    }
  }
  std::uint32_t N;
  if (!FreeRecs.empty()) {
    N = FreeRecs.back();
    FreeRecs.pop_back();
  } else {
    N = std::uint32_t(Recs.size());
    Recs.emplace_back();
  }
  Record &X = Recs[N];
  X.Ns = Delta;
  X.Prev = T.Rec; // T's reference moves to the new record
  X.Refs = 1;
  X.Code = T.Code;
  X.K = std::uint8_t(T.K);
  X.Label = Label;
  X.First = FirstSeg;
  X.Cum = (T.Rec != None ? Recs[T.Rec].Cum : 0) +
          (FirstSeg && T.K == Kind::Task ? 1 : 0);
  T.Rec = N;
  return path(T);
}

/// path(S) = max(path(S), V), V's record becoming S's if it wins.
void Analyzer::Impl::merge(std::uint32_t S, std::int64_t V, std::uint32_t Rec) {
  if (S == None)
    return;
  Slot &T = Slots[S];
  if (V <= path(T))
    return;
  // path(T) = Base + Exec stays the running sum; the segment restarts here,
  // after V's record.
  T.Base = V - std::int64_t(T.Exec);
  T.MarkExec = T.Exec;
  incref(Rec);
  decref(T.Rec);
  T.Rec = Rec;
}

/// bpath(S) = the better of bpath(S) and V.
void Analyzer::Impl::bmerge(std::uint32_t S, const BPath &V) {
  if (S == None)
    return;
  Slot &T = Slots[S];
  if (!bbetter(V, bpath(T)))
    return;
  T.BBase = V.A - std::int64_t(T.Exec);
  T.BK = V.K;
}

/// The burden as measured so far: the scheduling cost (schedulingCostNs),
/// recomputed as samples double and every 4096 samples (a percentile over
/// 256 buckets).
void Analyzer::Impl::updateBurden() {
  std::uint64_t N = R.ScheduleSamples;
  if (FixedBurden || !N || ((N & (N - 1)) && (N & 4095)))
    return;
  BurdenEst = std::llround(schedulingCostNs(DispatchHist));
}

std::uint32_t Analyzer::Impl::creatorState(std::uint32_t S) {
  Slot &T = Slots[S];
  if (T.Extra == None) {
    if (!FreeCreators.empty()) {
      T.Extra = FreeCreators.back();
      FreeCreators.pop_back();
    } else {
      T.Extra = std::uint32_t(Creators.size());
      Creators.emplace_back();
    }
  }
  return T.Extra;
}

std::uint32_t Analyzer::Impl::newGroup(std::uint32_t Parent) {
  std::uint32_t G;
  if (!FreeGroups.empty()) {
    G = FreeGroups.back();
    FreeGroups.pop_back();
    Groups[G] = GroupFrame();
  } else {
    G = std::uint32_t(Groups.size());
    Groups.emplace_back();
  }
  Groups[G].Parent = Parent;
  return G;
}

//===----------------------------------------------------------------------===//
// The task lifecycle.
//===----------------------------------------------------------------------===//

/// Child starts from its creator's path at the creation (create edge) and
/// binds to what will wait for it (rules.h, rule 4): its creator, the
/// creator's innermost taskgroup (Slot::Group is the open one, else the one
/// the creator belongs to: taskgroupOfChild), the creator's team at its
/// current barrier epoch.
void Analyzer::Impl::createTask(std::uint32_t Creator, std::uint32_t Child) {
  std::int64_t V = mark(Creator);
  Slot &P = Slots[Creator];
  Slot &C = Slots[Child];
  C.Creator = Creator;
  ++P.Live;
  C.Team = P.Team;
  C.Epoch = P.Team != None ? Teams[P.Team].Epoch : 0;
  C.Group = P.Group;
  C.Base = V;
  C.Rec = P.Rec;
  incref(C.Rec);
  // The burdened path enters one more task (create edge: b).
  BPath PB = bpath(P);
  C.BBase = PB.A;
  C.BK = PB.K + 1;
}

/// A task with dependences may be a later sibling's predecessor: its slot
/// is kept (Slot indices stay valid in DependenceRules), and the constructs
/// that wait for it note it, to drop edges they imply (rules.h, rule 5).
void Analyzer::Impl::keepForDependences(std::uint32_t Child) {
  if (Slots[Child].Flags & SKeep)
    return;
  Slots[Child].Flags |= SKeep;
  Slot C = Slots[Child]; // copies: the calls below may grow the tables
  if (C.Creator != None)
    Creators[creatorState(C.Creator)].deps().KeptChildren.push_back(Child);
  if (C.Group != None)
    Groups[C.Group].Kept.push_back(Child);
  if (C.Team != None) {
    Team::Bar &B = barFor(Teams[C.Team], C.Epoch);
    if (B.K == C.Epoch)
      B.Kept.push_back(Child);
  }
}

void Analyzer::Impl::markWaited(std::vector<std::uint32_t> &Kept) {
  for (std::uint32_t X : Kept)
    Slots[X].Flags |= SWaited;
  Kept.clear();
}

/// One of Child's dependences: its predecessors among the earlier siblings
/// (rules.h, rule 5). A completed one is merged at once; the others when
/// they complete. Each predecessor is linked once per child, however many
/// addresses they share (one dependence edge in the graph).
void Analyzer::Impl::dependence(std::uint32_t Child, std::uint64_t Addr,
                                DependenceType Type) {
  keepForDependences(Child);
  std::uint32_t Creator = Slots[Child].Creator;
  if (Creator == None)
    return;
  DependenceState &CS = Creators[creatorState(Creator)].deps();
  if (CS.DepChild != Child) {
    CS.DepChild = Child;
    CS.DepLinked.clear();
  }
  PredScratch.clear();
  CS.Rules.add(Addr, Type, Child, PredScratch);
  rules::resolvePredecessors(PredScratch, Child, [&](std::uint32_t P) {
    return P >= Slots.size() || (Slots[P].Flags & SWaited);
  });
  for (std::uint32_t P : PredScratch) {
    if (std::find(CS.DepLinked.begin(), CS.DepLinked.end(), P) !=
        CS.DepLinked.end())
      continue;
    CS.DepLinked.push_back(P);
    Slot &Pr = Slots[P];
    Slot &C = Slots[Child];
    if (Pr.Flags & SCompleted) {
      merge(Child, path(Pr), Pr.Rec);
      // The child's burden is paid after its last predecessor.
      BPath PB = bpath(Pr);
      bmerge(Child, {PB.A, PB.K + 1});
      if (Obs) {
        Obs->flow(true, Pr.StartThread, Pr.Start, C.Id);
        Obs->constructEdge(Codes[Pr.Code], Kind::Task, Codes[C.Code],
                           Kind::Task, "dependence");
      }
    } else {
      auto &V = Successors[P];
      if (std::find(V.begin(), V.end(), Child) == V.end())
        V.push_back(Child);
    }
  }
}

void Analyzer::Impl::completeTask(std::uint32_t S, std::uint32_t Thread,
                                  std::uint64_t Time) {
  if (Slots[S].Flags & SCompleted)
    return;
  std::int64_t V = mark(S);
  Slot &T = Slots[S];
  T.Flags |= SCompleted;
  R.WorkNs += T.Exec;
  ++R.ExplicitTasks;
  taskInstance(T);
  if (Obs)
    Obs->task(T.StartThread, T.Id, Codes[T.Code], T.Start, Time, T.Exec);
  BPath BV = bpath(T);
  assign(Best, V, T.Rec, BV);
  // What waits for it (rules.h, rule 4) continues from at least V.
  if (T.Team != None) {
    Team &Tm = Teams[T.Team];
    Tm.Work += T.Exec;
    Team::Bar &B = barFor(Tm, T.Epoch);
    if (B.K == T.Epoch)
      assign(B.Pend, V, T.Rec, BV);
  }
  if (T.Group != None)
    assign(Groups[T.Group].Max, V, T.Rec, BV);
  if (T.Creator != None) {
    CreatorState &C = Creators[creatorState(T.Creator)];
    assign(C.Pend, V, Slots[S].Rec, BV);
    siblingCompleted(C, Slots[S]);
  }
  auto It = Successors.find(S);
  if (It != Successors.end()) {
    for (std::uint32_t Succ : It->second) {
      merge(Succ, V, Slots[S].Rec);
      bmerge(Succ, {BV.A, BV.K + 1}); // its burden after its predecessor
      Slots[Succ].Ready = std::max(Slots[Succ].Ready, Time);
      if (Obs) {
        Obs->flow(true, Thread, Time, Slots[Succ].Id);
        Obs->constructEdge(Codes[Slots[S].Code], Kind::Task,
                           Codes[Slots[Succ].Code], Kind::Task, "dependence");
      }
    }
    Successors.erase(It);
  }
  Slots[S].Start = Time; // kept tasks: where the dependence flows leave
  Slots[S].StartThread = Thread;
  tryFree(S);
}

/// A taskwait of T ended: T continues from its longest child; every child
/// so far has been waited for.
void Analyzer::Impl::taskwaitEnded(std::uint32_t T) {
  if (Slots[T].Extra != None) {
    CreatorState &C = Creators[Slots[T].Extra];
    // Pend is not reset: T's path is now at least Pend, so merging the same
    // value at a later taskwait changes nothing; later children raise it.
    merge(T, C.Pend);
    if (C.Deps) {
      markWaited(C.Deps->KeptChildren);
      // No earlier sibling can be a predecessor any more (rules.h, rule 5).
      C.Deps->Rules.clear();
    }
  }
  evalSiblings(T);
}

/// T's innermost taskgroup ended: T continues from its longest member.
void Analyzer::Impl::taskgroupEnded(std::uint32_t T) {
  std::uint32_t G = Slots[T].Group;
  if (G != None) {
    merge(T, Groups[G].Max);
    markWaited(Groups[G].Kept);
    Slots[T].Group = Groups[G].Parent;
    resetVal(Groups[G].Max);
    FreeGroups.push_back(G);
  }
  evalSiblings(T);
}

/// Releases S's state once it has completed and has no live children
/// (their completion still reads it), then its creator's, up the chain.
void Analyzer::Impl::tryFree(std::uint32_t S) {
  while (S != None) {
    Slot &T = Slots[S];
    // A task with dependences (SKeep) is never released: a later sibling may
    // still name it as a predecessor (docs/utils.md counts that memory).
    if (!(T.Flags & SCompleted) || T.Live || (T.Flags & SKeep))
      return;
    std::uint32_t Creator = T.Creator;
    decref(T.Rec);
    if (T.Extra != None) {
      CreatorState &C = Creators[T.Extra];
      resetVal(C.Pend);
      C.Deps.reset();
      C.SibN = 0;
      FreeCreators.push_back(T.Extra);
    }
    if (T.Id)
      Ids.erase(T.Id);
    T = Slot();
    FreeSlots.push_back(S);
    --Live;
    if (Creator == None)
      return;
    if (Slots[Creator].Live)
      --Slots[Creator].Live;
    S = Creator;
  }
}

} // namespace otter::analysis
