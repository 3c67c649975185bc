//===- graph/builder.cpp - Task graph from OTTER's typed events ----------===//
//
// Structural walk over the per-task event sequences; see builder.h for the
// semantics and docs/graph.md for the rules each edge kind follows.
//
// The walk is two passes over the same structure:
//  1. a signature (hash) of every task's subtree, so that the implicit tasks
//     of a team can be put in an order that does not depend on which thread
//     happened to execute the single, the dynamic chunk or the section;
//  2. the emission of nodes and edges, depth first in program order, which
//     makes node ids canonical.
//
//===----------------------------------------------------------------------===//
#include "graph/builder.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <pthread.h>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace otter {

namespace {

bool isGraphEvent(EventKind K) {
  switch (K) {
  case EventKind::ThreadBegin:
  case EventKind::ParallelBegin:
  case EventKind::ImplicitTaskBegin:
  case EventKind::TaskCreate:
  case EventKind::TaskDependence:
  case EventKind::TaskSchedule:
  case EventKind::SyncBegin:
  case EventKind::SyncEnd:
  case EventKind::WorkBegin:
  case EventKind::WorkEnd:
  case EventKind::MaskedBegin:
  case EventKind::MaskedEnd:
  case EventKind::MutexAcquired:
  case EventKind::MutexReleased:
  case EventKind::NestLockBegin:
  case EventKind::NestLockEnd:
  case EventKind::Cancel:
    return true;
  default:
    return false;
  }
}

bool isBarrier(SyncKind K) {
  switch (K) {
  case SyncKind::Barrier:
  case SyncKind::BarrierImplicit:
  case SyncKind::BarrierExplicit:
  case SyncKind::BarrierImplementation:
  case SyncKind::BarrierImplicitWorkshare:
  case SyncKind::BarrierImplicitParallel:
  case SyncKind::BarrierTeams:
    return true;
  default:
    return false;
  }
}

// ompt_cancel_flag_t bits (Cancel events' Aux).
constexpr std::uint32_t CancelParallel = 0x1, CancelSections = 0x2,
                        CancelLoop = 0x4, CancelTaskgroup = 0x8,
                        CancelActivated = 0x10;

/// What a cancel node cancels, as node flags (the raw OMPT bits would
/// collide with NodeSingleExecutor).
std::uint32_t cancelNodeFlags(std::uint32_t Aux) {
  std::uint32_t F = 0;
  if (Aux & CancelParallel)
    F |= NodeCancelParallel;
  if (Aux & CancelSections)
    F |= NodeCancelSections;
  if (Aux & CancelLoop)
    F |= NodeCancelLoop;
  if (Aux & CancelTaskgroup)
    F |= NodeCancelTaskgroup;
  return F;
}

/// The end of a worksharing construct that every member of a team
/// encounters (not a taskloop, which belongs to one task).
bool isTeamWorkEnd(const Event &E) {
  return E.Kind == EventKind::WorkEnd &&
         static_cast<WorkKind>(E.Sub) != WorkKind::Taskloop;
}

std::uint64_t mix(std::uint64_t H, std::uint64_t V) {
  // splitmix64-style combination: order sensitive, well distributed.
  H ^= V + 0x9e3779b97f4a7c15ULL + (H << 6) + (H >> 2);
  H ^= H >> 31;
  H *= 0xbf58476d1ce4e5b9ULL;
  H ^= H >> 27;
  return H;
}

std::uint64_t hashString(const std::string &S) {
  std::uint64_t H = 0xcbf29ce484222325ULL;
  for (unsigned char C : S) {
    H ^= C;
    H *= 0x100000001b3ULL;
  }
  return H;
}

struct TeamCtx;
struct TaskgroupFrame;

struct TaskInfo {
  TaskId Id = 0;
  std::uint32_t Flags = 0;
  TaskId Creator = 0;
  std::uint64_t Code = 0;
  std::uint64_t Time = 0;
  std::uint32_t Thread = NoThread;
  ParallelId Parallel = 0;
  std::uint32_t TeamIndex = 0;
  std::uint32_t Begin = 0, End = 0; // range in the sorted event order
  bool Known = false;   // created / begun: we know what it is
  bool HashDone = false;
  bool Visited = false; // emitted
  bool Synced = false;
  std::uint64_t Hash = 0;
  NodeId Node = NoNode;
  NodeId Frontier = NoNode;
  TeamCtx *Team = nullptr;
  TaskgroupFrame *InheritedGroup = nullptr;
};

struct ParallelInfo {
  ParallelId Id = 0;
  TaskId Encountering = 0;
  std::uint64_t Code = 0;
  std::uint64_t Time = 0;
  std::uint32_t Thread = NoThread;
  std::uint32_t Requested = 0;
  std::vector<std::uint32_t> Members; // task indices
  bool HashDone = false;
  std::uint64_t Hash = 0;
};

struct TeamCtx {
  NodeId TeamNode = NoNode; // parent of team-wide nodes
  std::vector<std::uint32_t> Pending; // tasks waited for by next barrier
};

struct TaskgroupFrame {
  std::vector<std::uint32_t> Members;
};

struct AddrState {
  std::vector<std::uint32_t> LastSet;
  DependenceType SetType = DependenceType::Source; // Source = none yet
  std::vector<std::uint32_t> Readers;
  std::vector<std::uint32_t> SetPreds;
};

class Walker {
public:
  Walker(std::vector<Event> &Events, std::vector<std::uint32_t> &Threads,
         GraphBuilder::Resolver &Resolve)
      : Events(Events), Threads(Threads), Resolve(Resolve) {}

  Graph run();

private:
  std::vector<Event> &Events;
  std::vector<std::uint32_t> &Threads;
  GraphBuilder::Resolver &Resolve;

  std::vector<std::uint32_t> Order; // event indices sorted by (Task, Seq)
  std::vector<TaskInfo> Tasks;
  std::unordered_map<TaskId, std::uint32_t> TaskIndex;
  std::vector<ParallelInfo> Parallels;
  std::unordered_map<ParallelId, std::uint32_t> ParallelIndex;
  std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::uint64_t>>
      CodeLabels; // code -> (label index, hash)
  Graph G;

  std::uint32_t taskFor(TaskId Id);
  std::uint32_t parallelFor(ParallelId Id);
  const Event &ev(std::uint32_t OrderPos) const {
    return Events[Order[OrderPos]];
  }
  std::uint32_t threadOf(std::uint32_t OrderPos) const {
    return Threads[Order[OrderPos]];
  }
  std::pair<std::uint32_t, std::uint64_t> label(std::uint64_t Code);
  void strand(const TaskInfo &T, std::vector<std::uint32_t> &Out) const;

  std::uint64_t taskHash(std::uint32_t T);
  std::uint64_t parallelHash(std::uint32_t P);
  std::uint64_t itemHash(std::uint64_t H, std::uint32_t Pos);
  std::vector<std::size_t> phaseEnds(const std::vector<std::uint32_t> &Items) const;
  std::vector<std::uint64_t> segmentHashes(std::uint32_t TI);

  NodeId addNode(NodeKind K, NodeId Parent, std::uint32_t Thread,
                 std::uint64_t Code, std::uint64_t Time,
                 std::uint32_t Flags = 0);
  void addEdge(NodeId S, NodeId T, EdgeKind K) {
    if (S != NoNode && T != NoNode && S != T)
      G.Edges.push_back({S, T, K});
  }
  void warn(std::string W) {
    if (G.Warnings.size() < 100)
      G.Warnings.push_back(std::move(W));
    ++G.Stats.Warnings;
  }

  // Emission.
  struct Strand {
    std::uint32_t Task;
    std::vector<std::uint32_t> Items; // order positions, normalised
    std::size_t Pos = 0;
    NodeId Cursor = NoNode;
    std::vector<std::unique_ptr<TaskgroupFrame>> Groups;
    std::vector<std::uint32_t> PendingChildren;
    std::unordered_map<std::uint64_t, AddrState> Deps;
    bool Ended = false;
  };
  /// Runs S until its next barrier (returns the order position of the
  /// barrier's SyncBegin) or its end (returns ~0u).
  std::uint32_t runStrand(Strand &S, TeamCtx &Team,
                          std::size_t StopAt = ~std::size_t(0));
  void emitTask(std::uint32_t Child, Strand &Creator, TeamCtx &Team,
                std::uint32_t CreatePos);
  NodeId emitTeam(std::uint32_t P, NodeId Cursor, NodeId EncounterParent,
                  std::uint32_t Pos);
  void emitRoot(std::uint32_t T);
  void syncAll(std::vector<std::uint32_t> &Waited, NodeId Sync);
  void addDependences(Strand &Creator, std::uint32_t Child);
};

std::uint32_t Walker::taskFor(TaskId Id) {
  auto [It, New] = TaskIndex.try_emplace(Id, (std::uint32_t)Tasks.size());
  if (New) {
    Tasks.emplace_back();
    Tasks.back().Id = Id;
  }
  return It->second;
}

std::uint32_t Walker::parallelFor(ParallelId Id) {
  auto [It, New] =
      ParallelIndex.try_emplace(Id, (std::uint32_t)Parallels.size());
  if (New) {
    Parallels.emplace_back();
    Parallels.back().Id = Id;
  }
  return It->second;
}

std::pair<std::uint32_t, std::uint64_t> Walker::label(std::uint64_t Code) {
  if (Code == 0)
    return {0, 0};
  auto It = CodeLabels.find(Code);
  if (It != CodeLabels.end())
    return It->second;
  SourceLabel L = Resolve(Code);
  // Hash what is stable across runs of the same binary (not the address).
  std::uint64_t H = L.RegionId ? L.RegionId : hashString(L.Location);
  if (L.Line)
    H = mix(H, L.Line);
  G.Labels.push_back(std::move(L));
  auto Result = std::make_pair((std::uint32_t)G.Labels.size() - 1, H);
  CodeLabels.emplace(Code, Result);
  return Result;
}

/// The events of T's own strand that matter for the graph, in program
/// order, with libomp's reporting order adjusted so that scopes nest:
///  - a worksharing construct's implicit barrier is reported after the
///    construct's end; it belongs inside it (so that tasks created in the
///    construct and waited for at its barrier reach the construct's end);
///  - a taskloop's implicit taskgroup is reported around the taskloop; it
///    belongs inside it, for the same reason.
void Walker::strand(const TaskInfo &T, std::vector<std::uint32_t> &Out) const {
  Out.clear();
  for (std::uint32_t I = T.Begin; I < T.End; ++I) {
    const Event &E = ev(I);
    switch (E.Kind) {
    case EventKind::TaskCreate:
    case EventKind::ParallelBegin:
    case EventKind::WorkBegin:
    case EventKind::WorkEnd:
    case EventKind::MaskedBegin:
    case EventKind::MaskedEnd:
    case EventKind::MutexAcquired:
    case EventKind::MutexReleased:
    case EventKind::NestLockBegin:
    case EventKind::NestLockEnd:
      Out.push_back(I);
      break;
    case EventKind::Cancel:
      // Only a cancel the task itself activated is program order; libomp's
      // "detected" (at a cancellation point or barrier) and "discarded task"
      // reports depend on timing, so they make no node.
      if (E.Aux & CancelActivated)
        Out.push_back(I);
      break;
    case EventKind::SyncBegin:
    case EventKind::SyncEnd: {
      auto K = static_cast<SyncKind>(E.Sub);
      if (K == SyncKind::Reduction)
        break;
      if (E.Kind == EventKind::SyncEnd && K != SyncKind::Taskgroup)
        break; // only the begin of a taskwait / barrier makes a node
      Out.push_back(I);
      break;
    }
    default:
      break;
    }
  }
  auto kindOf = [&](std::uint32_t Pos, EventKind K) { return ev(Pos).Kind == K; };
  auto syncOf = [&](std::uint32_t Pos, SyncKind K) {
    const Event &E = ev(Pos);
    return (E.Kind == EventKind::SyncBegin || E.Kind == EventKind::SyncEnd) &&
           static_cast<SyncKind>(E.Sub) == K;
  };
  for (std::size_t I = 0; I + 1 < Out.size(); ++I) {
    const Event &E = ev(Out[I]);
    // WorkEnd, barrier-begin  ->  barrier-begin, WorkEnd
    if (E.Kind == EventKind::WorkEnd &&
        static_cast<WorkKind>(E.Sub) != WorkKind::Taskloop &&
        ev(Out[I + 1]).Kind == EventKind::SyncBegin &&
        isBarrier(static_cast<SyncKind>(ev(Out[I + 1]).Sub)) &&
        static_cast<SyncKind>(ev(Out[I + 1]).Sub) !=
            SyncKind::BarrierImplicitParallel) {
      std::swap(Out[I], Out[I + 1]);
      ++I;
      continue;
    }
    // taskgroup-begin, taskloop-begin ... taskloop-end, taskgroup-end
    if (syncOf(Out[I], SyncKind::Taskgroup) &&
        E.Kind == EventKind::SyncBegin && kindOf(Out[I + 1], EventKind::WorkBegin) &&
        static_cast<WorkKind>(ev(Out[I + 1]).Sub) == WorkKind::Taskloop) {
      // Find the matching taskloop end followed by taskgroup end.
      int Depth = 0;
      for (std::size_t J = I + 2; J + 1 < Out.size(); ++J) {
        const Event &F = ev(Out[J]);
        if (F.Kind == EventKind::WorkBegin &&
            static_cast<WorkKind>(F.Sub) == WorkKind::Taskloop)
          ++Depth;
        if (F.Kind == EventKind::WorkEnd &&
            static_cast<WorkKind>(F.Sub) == WorkKind::Taskloop) {
          if (Depth-- > 0)
            continue;
          if (ev(Out[J + 1]).Kind == EventKind::SyncEnd &&
              syncOf(Out[J + 1], SyncKind::Taskgroup)) {
            std::swap(Out[I], Out[I + 1]);
            std::swap(Out[J], Out[J + 1]);
          }
          break;
        }
      }
      ++I;
    }
  }
}

std::uint64_t Walker::itemHash(std::uint64_t H, std::uint32_t Pos) {
  const Event &E = ev(Pos);
  H = mix(H, (std::uint64_t(E.Kind) << 16) | E.Sub);
  // Not a barrier's code: libomp gives it on the team's primary thread
  // only (workers report none at the end of a parallel region), and the
  // signature must not depend on which member is the primary (e.g. when
  // it is the one that executed a single).
  if (!(E.Kind == EventKind::SyncBegin &&
        isBarrier(static_cast<SyncKind>(E.Sub))))
    H = mix(H, label(E.Code).second);
  if (E.Kind == EventKind::Cancel)
    H = mix(H, cancelNodeFlags(E.Aux));
  if (E.Kind == EventKind::TaskCreate) {
    auto It = TaskIndex.find(E.A);
    if (It != TaskIndex.end()) {
      TaskInfo &C = Tasks[It->second];
      for (std::uint32_t D = C.Begin; D < C.End; ++D)
        if (ev(D).Kind == EventKind::TaskDependence)
          H = mix(H, ev(D).Sub);
      H = mix(H, taskHash(It->second));
    }
  } else if (E.Kind == EventKind::ParallelBegin) {
    auto It = ParallelIndex.find(E.A);
    if (It != ParallelIndex.end())
      H = mix(H, parallelHash(It->second));
  }
  return H;
}

std::uint64_t Walker::taskHash(std::uint32_t TI) {
  TaskInfo &T = Tasks[TI];
  if (T.HashDone)
    return T.Hash;
  T.HashDone = true; // guards against cycles in corrupt input
  std::uint64_t H = mix(0x6f74746572ULL, T.Flags & ~TaskUndeferred);
  H = mix(H, label(T.Code).second);
  std::vector<std::uint32_t> Items;
  strand(T, Items);
  for (std::uint32_t Pos : Items)
    H = itemHash(H, Pos);
  T.Hash = H;
  return H;
}

/// Where a team member's strand is cut into phases: after the end of every
/// worksharing construct (every member of a team encounters the same ones,
/// in the same order) and after every barrier (with the ends of the
/// constructs that the barrier closes, which strand() put after it).
/// Returns the exclusive end index of each phase in Items; the last phase
/// ends at Items.size() and may be empty.
std::vector<std::size_t>
Walker::phaseEnds(const std::vector<std::uint32_t> &Items) const {
  std::vector<std::size_t> Ends;
  for (std::size_t I = 0; I < Items.size(); ++I) {
    const Event &E = ev(Items[I]);
    bool Cut = false;
    if (E.Kind == EventKind::SyncBegin &&
        isBarrier(static_cast<SyncKind>(E.Sub))) {
      while (I + 1 < Items.size() && isTeamWorkEnd(ev(Items[I + 1])))
        ++I;
      Cut = true;
    } else if (isTeamWorkEnd(E)) {
      Cut = true;
    }
    if (Cut)
      Ends.push_back(I + 1);
  }
  Ends.push_back(Items.size());
  return Ends;
}

/// Signatures of a team member's phases (see phaseEnds).
std::vector<std::uint64_t> Walker::segmentHashes(std::uint32_t TI) {
  std::vector<std::uint32_t> Items;
  strand(Tasks[TI], Items);
  std::vector<std::uint64_t> Out;
  std::size_t Begin = 0;
  for (std::size_t End : phaseEnds(Items)) {
    std::uint64_t H = 0x7365676dULL;
    for (std::size_t I = Begin; I < End; ++I)
      H = itemHash(H, Items[I]);
    Out.push_back(H);
    Begin = End;
  }
  return Out;
}

std::uint64_t Walker::parallelHash(std::uint32_t PI) {
  ParallelInfo &P = Parallels[PI];
  if (P.HashDone)
    return P.Hash;
  P.HashDone = true;
  // Per phase, the multiset of what the members did: the same whichever
  // member did which part (see emitTeam).
  std::vector<std::vector<std::uint64_t>> Segs;
  std::size_t Phases = 0;
  for (std::uint32_t M : P.Members) {
    Segs.push_back(segmentHashes(M));
    Phases = std::max(Phases, Segs.back().size());
  }
  std::uint64_t H = mix(0x706172ULL, label(P.Code).second);
  H = mix(H, P.Members.size());
  for (std::size_t Ph = 0; Ph < Phases; ++Ph) {
    std::vector<std::uint64_t> Column;
    for (const auto &S : Segs)
      Column.push_back(Ph < S.size() ? S[Ph] : 0);
    std::sort(Column.begin(), Column.end());
    for (std::uint64_t X : Column)
      H = mix(H, X);
  }
  P.Hash = H;
  return H;
}


NodeId Walker::addNode(NodeKind K, NodeId Parent, std::uint32_t Thread,
                       std::uint64_t Code, std::uint64_t Time,
                       std::uint32_t Flags) {
  Node N;
  N.Kind = K;
  N.Parent = Parent;
  N.Thread = Thread;
  N.Label = label(Code).first;
  N.Flags = Flags;
  N.Time = Time;
  G.Nodes.push_back(N);
  return (NodeId)G.Nodes.size() - 1;
}

void Walker::syncAll(std::vector<std::uint32_t> &Waited, NodeId Sync) {
  for (std::uint32_t X : Waited) {
    TaskInfo &T = Tasks[X];
    if (T.Synced || T.Frontier == NoNode)
      continue;
    T.Synced = true;
    addEdge(T.Frontier, Sync, EdgeKind::Sync);
  }
  Waited.clear();
}

/// Dependence edges for Child against its earlier siblings, OpenMP 5.x:
/// in after out/inout/set; out/inout after the readers since the last
/// writer, else after the writer (set); consecutive mutexinoutset (or
/// inoutset) tasks on one address form a group that shares predecessors.
/// Edges whose source was already waited for (a taskwait or barrier in
/// program order before Child was created) are implied and not listed.
void Walker::addDependences(Strand &Creator, std::uint32_t Child) {
  TaskInfo &C = Tasks[Child];
  std::vector<std::uint32_t> Preds;
  for (std::uint32_t D = C.Begin; D < C.End; ++D) {
    const Event &E = ev(D);
    if (E.Kind != EventKind::TaskDependence)
      continue;
    auto Type = static_cast<DependenceType>(E.Sub);
    AddrState &S = Creator.Deps[E.A];
    auto isSet = [](DependenceType T) {
      return T == DependenceType::MutexInOutSet || T == DependenceType::InOutSet;
    };
    switch (Type) {
    case DependenceType::In:
      Preds.insert(Preds.end(), S.LastSet.begin(), S.LastSet.end());
      S.Readers.push_back(Child);
      break;
    case DependenceType::Out:
    case DependenceType::InOut:
      if (!S.Readers.empty())
        Preds.insert(Preds.end(), S.Readers.begin(), S.Readers.end());
      else
        Preds.insert(Preds.end(), S.LastSet.begin(), S.LastSet.end());
      S.LastSet.assign(1, Child);
      S.SetType = DependenceType::InOut;
      S.Readers.clear();
      S.SetPreds.clear();
      break;
    case DependenceType::MutexInOutSet:
    case DependenceType::InOutSet:
      if (S.SetType == Type && S.Readers.empty() && isSet(Type)) {
        Preds.insert(Preds.end(), S.SetPreds.begin(), S.SetPreds.end());
        S.LastSet.push_back(Child);
      } else {
        S.SetPreds = !S.Readers.empty() ? S.Readers : S.LastSet;
        Preds.insert(Preds.end(), S.SetPreds.begin(), S.SetPreds.end());
        S.LastSet.assign(1, Child);
        S.SetType = Type;
        S.Readers.clear();
      }
      break;
    default: // source/sink (doacross) are not task dependences
      break;
    }
  }
  std::sort(Preds.begin(), Preds.end());
  Preds.erase(std::unique(Preds.begin(), Preds.end()), Preds.end());
  for (std::uint32_t P : Preds) {
    if (P == Child || Tasks[P].Synced || Tasks[P].Frontier == NoNode)
      continue;
    addEdge(Tasks[P].Frontier, C.Node, EdgeKind::Dependence);
  }
}

void Walker::emitTask(std::uint32_t Child, Strand &Creator, TeamCtx &Team,
                      std::uint32_t CreatePos) {
  TaskInfo &C = Tasks[Child];
  TaskInfo &P = Tasks[Creator.Task];
  if (C.Visited) {
    warn("task created twice in the event stream");
    return;
  }
  C.Visited = true;
  ++G.Stats.Tasks;
  std::uint32_t Thread = C.Thread != NoThread ? C.Thread : threadOf(CreatePos);
  C.Node = addNode(NodeKind::Task, P.Node, Thread, C.Code, C.Time, C.Flags);
  addEdge(Creator.Cursor, C.Node, EdgeKind::Create);
  C.Team = &Team;
  C.InheritedGroup = !Creator.Groups.empty() ? Creator.Groups.back().get()
                                             : P.InheritedGroup;
  addDependences(Creator, Child);

  Strand S;
  S.Task = Child;
  strand(C, S.Items);
  S.Cursor = C.Node;
  std::uint32_t Stop = runStrand(S, Team);
  while (Stop != ~0u) { // a barrier in an explicit task: not legal OpenMP
    warn("barrier reported inside an explicit task");
    Stop = runStrand(S, Team);
  }
  C.Frontier = S.Cursor;

  Creator.PendingChildren.push_back(Child);
  if (C.InheritedGroup)
    C.InheritedGroup->Members.push_back(Child);
  Team.Pending.push_back(Child);
}

std::uint32_t Walker::runStrand(Strand &S, TeamCtx &Team, std::size_t StopAt) {
  TaskInfo &T = Tasks[S.Task];
  while (S.Pos < S.Items.size() && S.Pos < StopAt) {
    std::uint32_t Pos = S.Items[S.Pos++];
    const Event &E = ev(Pos);
    std::uint32_t Thread = threadOf(Pos);
    auto step = [&](NodeKind K, std::uint32_t Flags = 0) {
      NodeId N = addNode(K, T.Node, Thread, E.Code, E.Time, Flags);
      addEdge(S.Cursor, N, EdgeKind::Scope);
      S.Cursor = N;
      return N;
    };
    switch (E.Kind) {
    case EventKind::TaskCreate: {
      auto It = TaskIndex.find(E.A);
      if (It == TaskIndex.end()) {
        warn("task creation with unknown task");
        break;
      }
      emitTask(It->second, S, Team, Pos);
      break;
    }
    case EventKind::ParallelBegin: {
      auto It = ParallelIndex.find(E.A);
      if (It == ParallelIndex.end())
        break;
      S.Cursor = emitTeam(It->second, S.Cursor, T.Node, Pos);
      break;
    }
    case EventKind::SyncBegin: {
      auto K = static_cast<SyncKind>(E.Sub);
      if (isBarrier(K)) {
        return Pos; // the team decides what the barrier joins
      }
      if (K == SyncKind::Taskwait) {
        NodeId W = step(NodeKind::Taskwait);
        syncAll(S.PendingChildren, W);
      } else if (K == SyncKind::Taskgroup) {
        step(NodeKind::TaskgroupBegin);
        S.Groups.push_back(std::make_unique<TaskgroupFrame>());
      }
      break;
    }
    case EventKind::SyncEnd: // taskgroup only (see strand())
      if (S.Groups.empty()) {
        warn("taskgroup end without begin");
        break;
      } else {
        NodeId End = step(NodeKind::TaskgroupEnd);
        syncAll(S.Groups.back()->Members, End);
        S.Groups.pop_back();
      }
      break;
    case EventKind::WorkBegin:
    case EventKind::WorkEnd: {
      bool Begin = E.Kind == EventKind::WorkBegin;
      NodeKind K;
      std::uint32_t Flags = 0;
      switch (static_cast<WorkKind>(E.Sub)) {
      case WorkKind::Loop:
      case WorkKind::LoopStatic:
      case WorkKind::LoopDynamic:
      case WorkKind::LoopGuided:
      case WorkKind::LoopOther:
        K = Begin ? NodeKind::LoopBegin : NodeKind::LoopEnd;
        break;
      case WorkKind::Sections:
        K = Begin ? NodeKind::SectionsBegin : NodeKind::SectionsEnd;
        break;
      case WorkKind::SingleExecutor:
        Flags = NodeSingleExecutor;
        [[fallthrough]];
      case WorkKind::SingleOther:
        K = Begin ? NodeKind::SingleBegin : NodeKind::SingleEnd;
        break;
      case WorkKind::Taskloop:
        K = Begin ? NodeKind::TaskloopBegin : NodeKind::TaskloopEnd;
        break;
      default:
        K = Begin ? NodeKind::WorkshareBegin : NodeKind::WorkshareEnd;
        break;
      }
      step(K, Flags);
      break;
    }
    case EventKind::MaskedBegin:
      step(NodeKind::MaskedBegin);
      break;
    case EventKind::MaskedEnd:
      step(NodeKind::MaskedEnd);
      break;
    case EventKind::MutexAcquired:
    case EventKind::MutexReleased: {
      bool Begin = E.Kind == EventKind::MutexAcquired;
      switch (static_cast<MutexKind>(E.Sub)) {
      case MutexKind::Lock:
      case MutexKind::TestLock:
        step(Begin ? NodeKind::LockBegin : NodeKind::LockEnd);
        break;
      case MutexKind::NestLock:
      case MutexKind::TestNestLock:
        step(Begin ? NodeKind::NestLockBegin : NodeKind::NestLockEnd);
        break;
      case MutexKind::Critical:
        step(Begin ? NodeKind::CriticalBegin : NodeKind::CriticalEnd);
        break;
      case MutexKind::Ordered:
        step(Begin ? NodeKind::OrderedBegin : NodeKind::OrderedEnd);
        break;
      default:
        break;
      }
      break;
    }
    case EventKind::NestLockBegin:
      step(NodeKind::NestLockBegin);
      break;
    case EventKind::NestLockEnd:
      step(NodeKind::NestLockEnd);
      break;
    case EventKind::Cancel:
      step(NodeKind::Cancel, cancelNodeFlags(E.Aux));
      break;
    default:
      break;
    }
  }
  S.Ended = S.Pos >= S.Items.size();
  return ~0u;
}

/// A team: parallel_begin, one implicit task per member, the team's
/// barriers (the k-th barrier of every member is the same instance),
/// parallel_end.
///
/// Members run phase by phase (see phaseEnds: a phase ends with a
/// worksharing construct or a barrier). Within a phase the members are
/// interchangeable: which thread runs a single, or which one runs both of
/// two singles, is the schedule's choice. So in every phase the members'
/// work is put on the implicit-task nodes ("slots") in the order of its
/// signature, not by thread; each node still records the thread that really
/// encountered it. The graph is then the same whichever member did what.
NodeId Walker::emitTeam(std::uint32_t PI, NodeId Cursor, NodeId EncounterParent,
                        std::uint32_t Pos) {
  ParallelInfo &P = Parallels[PI];
  ++G.Stats.ParallelRegions;
  const Event &E = ev(Pos);
  NodeId Begin = addNode(NodeKind::ParallelBegin, EncounterParent,
                         threadOf(Pos), P.Code, E.Time);
  addEdge(Cursor, Begin, EdgeKind::Scope);
  TeamCtx Team;
  Team.TeamNode = Begin;
  std::vector<Strand> Strands;
  std::vector<std::vector<std::uint64_t>> Segs;
  std::vector<std::vector<std::size_t>> Ends;
  std::vector<std::size_t> Phase;
  for (std::uint32_t M : P.Members) {
    TaskInfo &T = Tasks[M];
    if (T.Visited)
      continue;
    T.Visited = true;
    T.Team = &Team;
    Strand S;
    S.Task = M;
    strand(T, S.Items);
    Ends.push_back(phaseEnds(S.Items));
    Strands.push_back(std::move(S));
    Segs.push_back(segmentHashes(M));
    Phase.push_back(0);
  }
  // Members still running, in the order of their current phase's signature
  // (ties: team index).
  auto slotOrder = [&] {
    std::vector<std::size_t> Active;
    for (std::size_t I = 0; I < Strands.size(); ++I)
      if (!Strands[I].Ended && Phase[I] < Ends[I].size())
        Active.push_back(I);
    std::stable_sort(Active.begin(), Active.end(),
                     [&](std::size_t A, std::size_t B) {
                       return Segs[A][Phase[A]] < Segs[B][Phase[B]];
                     });
    return Active;
  };
  std::vector<NodeId> SlotNode, SlotCursor;
  for (std::size_t I : slotOrder()) {
    TaskInfo &T = Tasks[Strands[I].Task];
    NodeId N = addNode(NodeKind::ImplicitTask, Begin, T.Thread, P.Code,
                       T.Time, T.Flags);
    G.Nodes[N].LabelInherited = true;
    addEdge(Begin, N, EdgeKind::Scope);
    SlotNode.push_back(N);
    SlotCursor.push_back(N);
  }
  bool EndBarrier = false; // the last barrier ends the parallel region
  for (;;) {
    std::vector<std::size_t> Order = slotOrder();
    if (Order.empty())
      break;
    std::vector<std::uint32_t> Stops(Order.size(), ~0u);
    bool AnyBarrier = false;
    auto runPhase = [&](std::size_t K) {
      Strand &S = Strands[Order[K]];
      Tasks[S.Task].Node = SlotNode[K]; // parent of what this phase makes
      S.Cursor = SlotCursor[K];
      std::uint32_t Stop = runStrand(S, Team, Ends[Order[K]][Phase[Order[K]]]);
      SlotCursor[K] = S.Cursor;
      return Stop;
    };
    for (std::size_t K = 0; K < Order.size(); ++K) {
      Stops[K] = runPhase(K);
      AnyBarrier |= Stops[K] != ~0u;
    }
    if (AnyBarrier) {
      // One barrier node for this instance; label from the first member
      // that has a code address (workers report none at the implicit
      // barrier of a parallel region).
      std::uint64_t Code = 0, Time = 0;
      NodeKind Kind = NodeKind::BarrierImplicit;
      bool Missing = false;
      for (std::uint32_t Stop : Stops) {
        if (Stop == ~0u) {
          Missing = true;
          continue;
        }
        const Event &B = ev(Stop);
        if (!Code && B.Code)
          Code = B.Code;
        if (!Time || B.Time < Time)
          Time = B.Time;
        if (static_cast<SyncKind>(B.Sub) == SyncKind::BarrierExplicit)
          Kind = NodeKind::Barrier;
        EndBarrier =
            static_cast<SyncKind>(B.Sub) == SyncKind::BarrierImplicitParallel;
      }
      if (Missing)
        warn("not every member of a team reached a barrier");
      NodeId Barrier = addNode(Kind, Begin, NoThread, Code, Time);
      for (std::size_t K = 0; K < Order.size(); ++K)
        if (Stops[K] != ~0u) {
          addEdge(SlotCursor[K], Barrier, EdgeKind::Scope);
          SlotCursor[K] = Barrier;
        }
      syncAll(Team.Pending, Barrier);
      // The rest of the phase: the ends of the constructs this barrier
      // closes, in the same slot as their begins.
      for (std::size_t K = 0; K < Order.size(); ++K)
        if (Stops[K] != ~0u && runPhase(K) != ~0u)
          warn("two barriers in one phase");
    }
    for (std::size_t I : Order)
      ++Phase[I];
  }
  // Every parallel region ends with an implicit barrier, but libomp 19
  // reports none for a serialized team (a team of one): make it, so that a
  // region's shape does not depend on whether its team was serialized.
  if (!EndBarrier && !SlotCursor.empty()) {
    NodeId Barrier =
        addNode(NodeKind::BarrierImplicit, Begin, NoThread, P.Code, E.Time);
    G.Nodes[Barrier].LabelInherited = true;
    for (NodeId &C : SlotCursor) {
      addEdge(C, Barrier, EdgeKind::Scope);
      C = Barrier;
    }
    syncAll(Team.Pending, Barrier);
  }
  NodeId End = addNode(NodeKind::ParallelEnd, EncounterParent, threadOf(Pos),
                       P.Code, E.Time);
  for (NodeId C : SlotCursor)
    addEdge(C, End, EdgeKind::Scope);
  if (SlotCursor.empty())
    addEdge(Begin, End, EdgeKind::Scope);
  return End;
}

/// An initial task: the root of a contention group, in a team of its own
/// (the implicit parallel region), whose barriers hang off the task node.
void Walker::emitRoot(std::uint32_t TI) {
  TaskInfo &T = Tasks[TI];
  T.Visited = true;
  T.Node = addNode(NodeKind::InitialTask, NoNode, T.Thread, T.Code, T.Time,
                   T.Flags);
  TeamCtx Team;
  Team.TeamNode = T.Node;
  T.Team = &Team;
  Strand S;
  S.Task = TI;
  strand(T, S.Items);
  S.Cursor = T.Node;
  for (;;) {
    std::uint32_t Stop = runStrand(S, Team);
    if (Stop == ~0u)
      break;
    const Event &B = ev(Stop);
    NodeKind Kind = static_cast<SyncKind>(B.Sub) == SyncKind::BarrierExplicit
                        ? NodeKind::Barrier
                        : NodeKind::BarrierImplicit;
    NodeId Barrier = addNode(Kind, T.Node, threadOf(Stop), B.Code, B.Time);
    addEdge(S.Cursor, Barrier, EdgeKind::Scope);
    S.Cursor = Barrier;
    syncAll(Team.Pending, Barrier);
  }
  T.Frontier = S.Cursor;
}

Graph Walker::run() {
  G.Labels.push_back(SourceLabel{}); // label 0: none
  // Sort by (task, seq); stable so equal keys keep arrival order.
  Order.resize(Events.size());
  std::iota(Order.begin(), Order.end(), 0u);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](std::uint32_t A, std::uint32_t B) {
                     const Event &X = Events[A], &Y = Events[B];
                     if (X.Task != Y.Task)
                       return X.Task < Y.Task;
                     return X.Seq < Y.Seq;
                   });
  // libomp 19 reports a critical's release with the return address of
  // thread 0 (OMPT_LOAD_RETURN_ADDRESS(0) in __kmpc_end_critical): null or
  // some other code on every other thread, so it depends on who ran the
  // task. A critical_end takes the code of its critical_begin instead.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> OpenCriticals;
  for (std::uint32_t I = 0; I < Order.size(); ++I) {
    Event &E = Events[Order[I]];
    if (I == 0 || ev(I - 1).Task != E.Task)
      OpenCriticals.clear();
    if (static_cast<MutexKind>(E.Sub) != MutexKind::Critical)
      continue;
    if (E.Kind == EventKind::MutexAcquired) {
      OpenCriticals.emplace_back(E.A, E.Code);
    } else if (E.Kind == EventKind::MutexReleased) {
      for (std::size_t J = OpenCriticals.size(); J-- > 0;)
        if (OpenCriticals[J].first == E.A) {
          E.Code = OpenCriticals[J].second;
          OpenCriticals.erase(OpenCriticals.begin() + J);
          break;
        }
    }
  }
  std::unordered_set<std::uint32_t> ThreadSet;
  for (std::uint32_t I = 0; I < Order.size(); ++I) {
    const Event &E = ev(I);
    ThreadSet.insert(threadOf(I));
    if (E.Kind != EventKind::ThreadBegin && E.Task != 0) {
      // Events of one task are contiguous in Order.
      TaskInfo &T = Tasks[taskFor(E.Task)];
      if (I == 0 || ev(I - 1).Task != E.Task)
        T.Begin = I;
      T.End = I + 1;
    }
    switch (E.Kind) {
    case EventKind::TaskCreate: {
      TaskInfo &C = Tasks[taskFor(E.A)];
      C.Known = true;
      C.Flags = E.Aux | TaskExplicit;
      C.Creator = E.Task;
      C.Code = E.Code;
      C.Time = E.Time;
      break;
    }
    case EventKind::ImplicitTaskBegin: {
      TaskInfo &T = Tasks[taskFor(E.Task)];
      T.Known = true;
      T.Flags = E.Extra;
      T.Parallel = E.A;
      T.TeamIndex = E.Sub;
      T.Thread = threadOf(I);
      T.Time = E.Time;
      if (E.A && !(E.Extra & TaskInitial))
        Parallels[parallelFor(E.A)].Members.push_back(taskFor(E.Task));
      break;
    }
    case EventKind::ParallelBegin: {
      ParallelInfo &P = Parallels[parallelFor(E.A)];
      P.Encountering = E.Task;
      P.Code = E.Code;
      P.Time = E.Time;
      P.Requested = E.Aux;
      break;
    }
    case EventKind::TaskSchedule: {
      if (E.A) {
        TaskInfo &N = Tasks[taskFor(E.A)];
        if (N.Thread == NoThread)
          N.Thread = threadOf(I);
      }
      break;
    }
    default:
      break;
    }
  }
  G.Stats.Threads = (std::uint32_t)ThreadSet.size();
  G.Stats.Events = Events.size();
  for (ParallelInfo &P : Parallels)
    std::sort(P.Members.begin(), P.Members.end(),
              [&](std::uint32_t A, std::uint32_t B) {
                return Tasks[A].TeamIndex < Tasks[B].TeamIndex;
              });

  std::vector<std::uint32_t> Roots;
  for (std::uint32_t I = 0; I < Tasks.size(); ++I)
    if (Tasks[I].Known && (Tasks[I].Flags & TaskInitial))
      Roots.push_back(I);
  std::sort(Roots.begin(), Roots.end(), [&](std::uint32_t A, std::uint32_t B) {
    if (Tasks[A].Time != Tasks[B].Time)
      return Tasks[A].Time < Tasks[B].Time;
    return Tasks[A].Id < Tasks[B].Id;
  });
  for (std::uint32_t R : Roots)
    emitRoot(R);
  std::uint64_t Lost = 0;
  for (TaskInfo &T : Tasks)
    if (T.Known && !T.Visited)
      ++Lost;
  if (Lost)
    warn(std::to_string(Lost) +
         " task(s) not reachable from an initial task (incomplete events)");

  std::sort(G.Edges.begin(), G.Edges.end());
  G.Edges.erase(std::unique(G.Edges.begin(), G.Edges.end()), G.Edges.end());
  return std::move(G);
}

} // namespace

GraphBuilder::GraphBuilder(Resolver R) : Resolve(std::move(R)) {}

void GraphBuilder::addEvents(std::uint32_t Thread, const Event *E,
                             std::size_t N) {
  for (std::size_t I = 0; I < N; ++I) {
    if (!isGraphEvent(E[I].Kind))
      continue;
    Events.push_back(E[I]);
    Threads.push_back(Thread);
  }
}

Graph GraphBuilder::build() {
  Walker W(Events, Threads, Resolve);
  return W.run();
}

void runWithLargeStack(const std::function<void()> &Fn) {
  struct Ctx {
    const std::function<void()> *Fn;
  } C{&Fn};
  pthread_attr_t Attr;
  if (pthread_attr_init(&Attr) == 0) {
    pthread_t Th;
    bool Ok = pthread_attr_setstacksize(&Attr, std::size_t(1) << 30) == 0 &&
              pthread_create(
                  &Th, &Attr,
                  [](void *P) -> void * {
                    (*static_cast<Ctx *>(P)->Fn)();
                    return nullptr;
                  },
                  &C) == 0;
    pthread_attr_destroy(&Attr);
    if (Ok) {
      pthread_join(Th, nullptr);
      return;
    }
  }
  Fn();
}

} // namespace otter
