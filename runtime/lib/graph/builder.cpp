//===- graph/builder.cpp - Task graph from OTTER's typed events ----------===//
//
// Structural walk over the per-task event sequences; see builder.h for the
// semantics and docs/graph.md for the rules each edge kind follows.
//
// addEvents reduces each event at once to what the walk reads (see
// builder_store.h, "Ingest", and builder_ingest.cpp); build() indexes that
// per task and walks it: the Walker's state is in builder_walk.h, its index
// in builder_index.cpp, its first pass in builder_signature.cpp, its second
// pass here. What the
// events mean in OpenMP terms (which sync kinds are barriers, who waits for
// a task, dependences, libomp's reporting order, inherited labels, the id
// map, the stream form) is graph/rules.h, shared with otter's analyses.
//
// The walk is two passes over the same structure:
//  1. a signature (hash) of every task's subtree, so that the implicit tasks
//     of a team can be put in an order that does not depend on which thread
//     happened to execute the single, the dynamic chunk or the section;
//  2. the emission of nodes and edges, depth first in program order, which
//     makes node ids canonical.
//
//===----------------------------------------------------------------------===//
#include "graph/builder_walk.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <pthread.h>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace otter::walk {

namespace {

/// The begin and end node kinds of a construct that makes a pair of nodes;
/// false for one that makes none (an atomic) or a single node.
bool pairNodeKinds(rules::Construct C, NodeKind &Begin, NodeKind &End) {
  switch (C) {
#define OTTER_CONSTRUCT(Id, Name, B, E)                                        \
  case rules::Construct::Id:                                                   \
    Begin = NodeKind::B, End = NodeKind::E;                                    \
    break;
#include "otter/constructs.def"
  default:
    Begin = End = NodeKind::Count;
  }
  if (End != NodeKind::Count)
    return true;
  Begin = NodeKind::Count;
  return false;
}


} // namespace


/// The events of T's own strand that matter for the graph, in program
/// order, with libomp's reporting order adjusted so that scopes nest (a
/// worksharing construct's implicit barrier and a taskloop's implicit
/// taskgroup go inside the construct: rules.h, rule 6).
bool Walker::strand(std::uint32_t T, std::vector<std::uint32_t> &Out) const {
  // Ingest kept only what makes nodes (Store::add), and the task's
  // dependences, which are not in program order.
  Out.clear();
  std::uint32_t B = ItemBegin[T], E = ItemBegin[T + 1];
  for (std::uint32_t I = B; I < E; ++I)
    if (Items[I].kind() != EventKind::TaskDependence)
      Out.push_back(I);
  rules::adjustLibompOrder(Out, [&](std::uint32_t Pos) {
    return rules::KindSub{ev(Pos).kind(), ev(Pos).Sub};
  });
  return Out.size() != E - B;
}

/// A code index's label (its index in the graph's labels, resolved once)
/// and the hash of what is stable across runs of the same binary: label()
/// looks it up (both passes call it per item), this makes it on the code's
/// first use.
std::pair<std::uint32_t, std::uint64_t> Walker::newLabel(std::uint32_t Code) {
  auto &Slot = Labels[Code];
  SourceLabel L = Resolve(In.Codes[Code]);
  // Hash what is stable across runs of the same binary (not the address).
  std::uint64_t H = L.RegionId ? L.RegionId : hashString(L.Location);
  if (L.Line)
    H = mix(H, L.Line);
  if (Feed) { // the labels may move: not while the feed's reader reads them
    std::lock_guard<std::mutex> Lock(Feed->labelsLock());
    G.Labels.push_back(std::move(L));
  } else {
    G.Labels.push_back(std::move(L));
  }
  Slot = {(std::uint32_t)G.Labels.size() - 1, H};
  return Slot;
}

/// Explicit task T's strand, its items [B, E), into S: as they are (Direct)
/// when libomp's order needs no adjusting, the common case, else as
/// strand() makes it. True if T has dependences.
bool Walker::strandOf(std::uint32_t T, std::uint32_t B, std::uint32_t E,
                      Strand &S) const {
  bool Deps = false;
  for (std::uint32_t I = B; I < E; ++I) {
    const Item &X = Items[I];
    if (X.kind() == EventKind::TaskDependence)
      Deps = true;
    else if (rules::startsLibompReorder({X.kind(), X.Sub}))
      return strand(T, S.Items);
  }
  S.Direct = true;
  S.First = B;
  S.Count = E - B;
  return Deps;
}

NodeId Walker::addNode(NodeKind K, NodeId Parent, std::uint32_t Thread,
                       std::uint32_t Code, std::uint32_t Flags) {
  std::size_t Final = G.Nodes.size();
  if (Final >= MaxNodes) [[unlikely]]
    throwNodeLimit(); // Edge's 30-bit ids (graph.h)
  Node N;
  N.Kind = K;
  N.Parent = Parent;
  N.Thread = Thread;
  N.Label = label(Code).first;
  N.Flags = Flags;
  if (Feed && (Final % NodeFeed::Batch == 0 || Final == G.Nodes.capacity()))
      [[unlikely]]
    feedNodes(Final);
  G.Nodes.push_back(N);
  return (NodeId)Final;
}

/// Nodes [0, Final) are made: every node but the one made last is final
/// (the caller may still set its LabelInherited): node_feed.h.
void Walker::feedNodes(std::size_t Final) {
  if (Final == G.Nodes.capacity())
    Feed->grow(Final); // the reader must not read nodes that move
  else
    Feed->publish(Final - (Final != 0));
}

void Walker::syncAll(std::vector<std::uint32_t> &Waited, NodeId Sync) {
  for (std::uint32_t X : Waited) {
    if ((Bits[X] & Synced) || Frontier[X] == NoNode)
      continue;
    Bits[X] |= Synced;
    addEdge(Frontier[X], Sync, EdgeKind::Sync);
  }
  Waited.clear();
}

/// The join of S's undeferred and included children (if(0), final) into
/// Next, the node of S's strand that follows them: the creator was
/// suspended until they completed, so what it does next comes after. A join
/// is a sync edge. Between strand nodes the creator may create more tasks:
/// each gets a sync edge from the pending join (emitTask), and an undeferred
/// one replaces it (its own completion implies the earlier one), so the
/// list stays short (one child, plus any its own strand left unjoined) and
/// the edges linear in the tasks. A
/// child joined counts as waited for (Synced: a later taskwait's or
/// dependence's edge from it is implied). A child still unjoined when its
/// creator's strand ends completes before its creator does: emitTask hands
/// it to whoever waits for the creator.
void Walker::joinInto(Strand &S, NodeId Next) {
  for (std::uint32_t X : S.Joins) {
    Bits[X] |= Synced;
    addEdge(Frontier[X], Next, EdgeKind::Sync);
  }
  S.Joins.clear();
}

/// Dependence edges for Child against its earlier siblings (rules.h, rule
/// 5). An edge whose source was already waited for (Synced: a taskwait,
/// taskgroup end or barrier earlier in the creator's program order, which
/// the walk has passed) is implied and not listed.
void Walker::addDependences(Strand &Creator, std::uint32_t Child,
                            NodeId ChildNode) {
  std::vector<std::uint32_t> Preds;
  for (std::uint32_t D = ItemBegin[Child]; D < ItemBegin[Child + 1]; ++D) {
    const Item &E = ev(D);
    if (E.kind() == EventKind::TaskDependence)
      Creator.Deps.add(In.Wides[E.Payload].A,
                       static_cast<DependenceType>(E.Sub), Child, Preds);
  }
  rules::resolvePredecessors(Preds, Child, [&](std::uint32_t P) {
    return (Bits[P] & Synced) || Frontier[P] == NoNode;
  });
  for (std::uint32_t P : Preds)
    addEdge(Frontier[P], ChildNode, EdgeKind::Dependence);
}

void Walker::emitTask(std::uint32_t Child, Strand &Creator, TeamCtx &Team,
                      std::uint32_t CreatePos) {
  if (Bits[Child] & Visited) {
    warn("task created twice in the event stream");
    return;
  }
  Bits[Child] |= Visited;
  ++G.Stats.Tasks;
  const TaskDesc &D = desc(Child);
  std::uint32_t Thread = D.Thread != NoThread ? D.Thread : threadOf(CreatePos);
  bool Undeferred = D.Flags & (TaskUndeferred | TaskIncluded);
  // libomp reports some creations of untied tasks with no code address (a
  // null codeptr_ra, BOTS concom): such a task takes its creator's label,
  // the construct the creator runs (rules::inheritCode).
  auto [TCode, TInherited] = rules::inheritCode(D.Code, desc(Creator.Task).Code);
  NodeId Node = addNode(NodeKind::Task, Creator.Node, Thread, TCode, D.Flags);
  G.Nodes[Node].LabelInherited = TInherited && TCode;
  addEdge(Creator.Cursor, Node, EdgeKind::Create);
  // Made after the creator's undeferred children completed (joinInto).
  for (std::uint32_t J : Creator.Joins) {
    addEdge(Frontier[J], Node, EdgeKind::Sync);
    Bits[J] |= Synced;
  }
  TaskgroupFrame *Group = rules::taskgroupOfChild(
      !Creator.Groups.empty() ? Creator.Groups.back().get() : nullptr,
      Creator.InheritedGroup);
  std::uint32_t B = ItemBegin[Child], E = ItemBegin[Child + 1];
  if (B == E) {
    // No strand (fib's leaves, half its tasks): the task's node is all it
    // makes, and it leaves no child unjoined.
    Frontier[Child] = Node;
    if (Undeferred) {
      Creator.Joins.clear(); // implied by Child's join, as below
      Creator.Joins.push_back(Child);
    }
  } else {
    StrandLease Lease(*this, Child);
    Strand &S = Lease.S;
    S.Node = S.Cursor = Node;
    S.InheritedGroup = Group;
    if (strandOf(Child, B, E, S)) // the task has dependences
      addDependences(Creator, Child, Node);
    std::uint32_t Stop = runStrand(S, Team);
    while (Stop != ~0u) { // a barrier in an explicit task: not legal OpenMP
      warn("barrier reported inside an explicit task");
      Stop = runStrand(S, Team);
    }
    Frontier[Child] = S.Cursor;
    // Children Child left unjoined (its last action made them) complete
    // before it does: whoever waits for Child waits for them too.
    if (Undeferred) {
      S.Joins.push_back(Child);          // implies the creator's earlier ones
      std::swap(Creator.Joins, S.Joins); // S is done: its list is reused
    } else {
      for (std::uint32_t J : S.Joins)
        pushPending(Creator.PendingChildren, J);
    }
  }

  pushPending(Creator.PendingChildren, Child);
  if (Group)
    pushPending(Group->Members, Child);
  pushPending(Team.Pending, Child);
  taskDone(Child, B, E);
}

NodeId Walker::step(Strand &S, std::uint32_t Pos, NodeKind K,
                    std::uint32_t Flags) {
  NodeId N = addNode(K, S.Node, threadOf(Pos), codeOf(ev(Pos)), Flags);
  addEdge(S.Cursor, N, EdgeKind::Scope);
  joinInto(S, N);
  S.Cursor = N;
  return N;
}

std::uint32_t Walker::runStrand(Strand &S, TeamCtx &Team, std::size_t StopAt) {
  const std::size_t N = S.size(); // (S's items do not change meanwhile)
  while (S.Pos < N && S.Pos < StopAt) {
    std::uint32_t Pos = S.at(S.Pos++);
    const Item &E = ev(Pos);
    auto step = [&](NodeKind K, std::uint32_t Flags = 0) {
      return this->step(S, Pos, K, Flags);
    };
    switch (E.kind()) {
    case EventKind::TaskCreate: // the task was indexed by its creation
      emitTask(E.Payload, S, Team, Pos);
      break;
    case EventKind::ParallelBegin:
      S.Cursor = emitTeam(E.Payload, S, Pos);
      break;
    case EventKind::SyncBegin:
      // Who the construct waits for: rules.h, rule 4.
      switch (rules::waitScopeOf(static_cast<SyncKind>(E.Sub))) {
      case rules::WaitScope::Team:
        return Pos; // the team decides what the barrier joins
      case rules::WaitScope::Children:
        syncAll(S.PendingChildren, step(NodeKind::Taskwait));
        break;
      case rules::WaitScope::Taskgroup: // waits at its end
        step(NodeKind::TaskgroupBegin);
        S.Groups.push_back(std::make_unique<TaskgroupFrame>());
        break;
      case rules::WaitScope::None: // a reduction: no node
        break;
      }
      break;
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
      auto K = static_cast<WorkKind>(E.Sub);
      NodeKind Begin, End;
      pairNodeKinds(rules::constructOfWork(K), Begin, End);
      step(E.kind() == EventKind::WorkBegin ? Begin : End,
           K == WorkKind::SingleExecutor ? std::uint32_t(NodeSingleExecutor) : 0u);
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
      NodeKind Begin, End; // none for an atomic
      if (pairNodeKinds(rules::constructOfMutex(static_cast<MutexKind>(E.Sub)),
                        Begin, End))
        step(E.kind() == EventKind::MutexAcquired ? Begin : End);
      break;
    }
    case EventKind::NestLockBegin:
      step(NodeKind::NestLockBegin, NodeReacquire);
      break;
    case EventKind::NestLockEnd:
      step(NodeKind::NestLockEnd, NodeReacquire);
      break;
    case EventKind::Cancel:
      step(NodeKind::Cancel, cancelNodeFlags(In.Wides[E.Payload].Aux));
      break;
    case EventKind::MpiCallBegin: // one MPI call (graph/mpi_graph.h)
      // The function from the call's record: values above 254 do not fit
      // an item's Sub.
      In.Mpi.nodeMade(E.Payload,
                      step(NodeKind::MpiCall,
                           std::uint32_t(In.Mpi.functionOf(E.Payload))));
      break;
    case EventKind::ToolControl:
      step(E.Sub == std::uint8_t(ControlCommand::Pause) ? NodeKind::Pause
                                                        : NodeKind::Resume);
      break;
    case EventKind::PhaseBegin:
    case EventKind::PhaseEnd:
    case EventKind::Mark: {
      NodeKind K = E.kind() == EventKind::PhaseBegin ? NodeKind::PhaseBegin
                   : E.kind() == EventKind::PhaseEnd ? NodeKind::PhaseEnd
                                                     : NodeKind::Mark;
      G.NodeNames[step(K)] = std::uint32_t(In.Wides[E.Payload].A);
      break;
    }
    case EventKind::TargetBegin:
    case EventKind::TargetEnd:
    case EventKind::TargetDataOpBegin:
    case EventKind::TargetSubmitBegin:
      targetItem(S, Pos);
      break;
    case EventKind::TaskLabel: // names the strand's task node (last wins)
      if (S.Node != NoNode)
        G.NodeNames[S.Node] = std::uint32_t(In.Wides[E.Payload].A);
      break;
    default:
      break;
    }
  }
  S.Ended = S.Pos >= N;
  return ~0u;
}

void Walker::targetItem(Strand &S, std::uint32_t Pos) {
  const Item &E = ev(Pos);
  switch (E.kind()) {
  case EventKind::TargetDataOpBegin: { // a transfer (builder_ingest.cpp)
    if (S.TargetNode == NoNode) {
      warn("data transfer outside a target construct");
      return;
    }
    TargetBytes &B = G.NodeBytes[S.TargetNode];
    const std::uint64_t Bytes = In.Wides[E.Payload].A;
    (rules::transferOf(static_cast<DataOpKind>(E.Sub)) > 0 ? B.To : B.From) +=
        Bytes;
    return;
  }
  case EventKind::TargetSubmitBegin: { // its target region's kernel
    NodeId N = addNode(NodeKind::Kernel, S.Node, threadOf(Pos), S.TargetCode);
    addEdge(S.Cursor, N, EdgeKind::Scope);
    joinInto(S, N);
    S.Cursor = N;
    return;
  }
  default:
    break;
  }
  const bool Begin = E.kind() == EventKind::TargetBegin;
  const std::uint32_t Code = codeOf(E);
  const bool DataRegion =
      Code && G.Labels[label(Code).first].Directive == "target data";
  rules::TargetNode TN =
      rules::targetNodeOf(static_cast<TargetKind>(E.Sub), Begin, DataRegion);
  NodeKind K = NodeKind::Count;
  switch (TN) {
  case rules::TargetNode::RegionBegin:
    K = NodeKind::TargetBegin;
    break;
  case rules::TargetNode::RegionEnd:
    K = NodeKind::TargetEnd;
    break;
  case rules::TargetNode::EnterData:
    K = NodeKind::TargetEnterData;
    break;
  case rules::TargetNode::ExitData:
    K = NodeKind::TargetExitData;
    break;
  case rules::TargetNode::Update:
    K = NodeKind::TargetUpdate;
    break;
  case rules::TargetNode::None:
    break;
  }
  NodeId N = K == NodeKind::Count ? NoNode : step(S, Pos, K);
  if (Begin) { // the construct's transfers and kernels follow
    S.TargetNode = N;
    S.TargetCode = Code;
    if (N != NoNode)
      G.NodeBytes[N] = {};
  } else {
    S.TargetNode = NoNode;
    S.TargetCode = 0;
  }
}

/// The node of one barrier instance of a team, whose members (Order: their
/// strands, in slot order) stopped at the barrier events Stops (~0u: a
/// member that did not reach it). Its label is the primary thread's
/// member's (strand 0: members are in team-index order), whose address is
/// its own call site (workers report none at the implicit barrier of a
/// parallel region, and a worker inside a task-generating task of a
/// taskloop reports one deep in the runtime), else the first member's that
/// has one, else the region's, PCode (rules.h, rule 7). EndBarrier: whether
/// it ends the parallel region.
NodeId Walker::teamBarrier(const std::vector<std::size_t> &Order,
                           const std::vector<std::uint32_t> &Stops,
                           std::uint32_t PCode, NodeId Begin,
                           bool &EndBarrier) {
  std::uint32_t Code = 0;
  NodeKind Kind = NodeKind::BarrierImplicit;
  bool Missing = false;
  for (std::size_t K = 0; K < Order.size(); ++K)
    if (Order[K] == 0 && Stops[K] != ~0u)
      Code = codeOf(ev(Stops[K]));
  for (std::uint32_t Stop : Stops) {
    if (Stop == ~0u) {
      Missing = true;
      continue;
    }
    const Item &B = ev(Stop);
    if (!Code && codeOf(B))
      Code = codeOf(B);
    if (static_cast<SyncKind>(B.Sub) == SyncKind::BarrierExplicit)
      Kind = NodeKind::Barrier;
    EndBarrier =
        static_cast<SyncKind>(B.Sub) == SyncKind::BarrierImplicitParallel ||
        static_cast<SyncKind>(B.Sub) == SyncKind::BarrierTeams;
  }
  if (Missing)
    warn("not every member of a team reached a barrier");
  auto [Label, Inherited] = rules::inheritCode(Code, PCode);
  NodeId Barrier = addNode(Kind, Begin, NoThread, Label);
  G.Nodes[Barrier].LabelInherited = Inherited;
  return Barrier;
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
NodeId Walker::emitTeam(std::uint32_t PI, Strand &Encounter,
                        std::uint32_t Pos) {
  ParallelInfo &P = Parallels[PI];
  ++G.Stats.ParallelRegions;
  NodeId EncounterParent = Encounter.Node;
  // A league member's own region has no code: the teams construct's.
  auto [PCode, PInherited] = rules::inheritCode(P.Code, Encounter.LeagueCode);
  NodeId Begin = addNode(NodeKind::ParallelBegin, EncounterParent,
                         threadOf(Pos), PCode);
  G.Nodes[Begin].LabelInherited = PInherited;
  addEdge(Encounter.Cursor, Begin, EdgeKind::Scope);
  joinInto(Encounter, Begin);
  TeamCtx Team;
  Team.TeamNode = Begin;
  std::vector<Strand> Strands;
  std::vector<std::vector<std::uint64_t>> Segs;
  std::vector<std::vector<std::size_t>> Ends;
  std::vector<std::size_t> Phase;
  for (std::uint32_t M : P.Members) {
    if (Bits[M] & Visited)
      continue;
    Bits[M] |= Visited;
    Strand S;
    S.Task = M;
    if (desc(M).Flags & TaskInitial) // a league: its teams' initial tasks
      S.LeagueCode = PCode;
    strand(M, S.Items);
    Ends.push_back(phaseEnds(S.Items));
    Strands.push_back(std::move(S));
    Phase.push_back(0);
  }
  // The signatures only order members against each other: a team of one
  // needs none (and then its tasks are never hashed).
  if (Strands.size() > 1) {
    for (const Strand &S : Strands)
      Segs.push_back(segmentHashes(S.Task));
    // The memo only saves recomputing within and across these calls: a
    // later team (nested in this one) gets the same signatures by making
    // them again. So drop it before the graph grows, once it is big enough
    // that clearing the bits is cheap against making it (fib, 2 threads:
    // 8 bytes per task of the program).
    if (Hashed > Bits.size() / 8) {
      std::vector<std::uint64_t>().swap(Hashes);
      for (std::uint8_t &B : Bits)
        B &= ~HashDone;
      Hashed = 0;
    }
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
    const TaskDesc &T = desc(Strands[I].Task);
    // OMPT gives an implicit task no code address: it is labelled with its
    // parallel region (rules.h, rule 7).
    auto [Code, Inherited] = rules::inheritCode(std::uint32_t(0), PCode);
    NodeId N = addNode((T.Flags & TaskInitial) ? NodeKind::InitialTask
                                               : NodeKind::ImplicitTask,
                       Begin, T.Thread, Code, T.Flags);
    G.Nodes[N].LabelInherited = Inherited;
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
      S.Node = SlotNode[K]; // parent of what this phase makes
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
      NodeId Barrier = teamBarrier(Order, Stops, PCode, Begin, EndBarrier);
      for (std::size_t K = 0; K < Order.size(); ++K)
        if (Stops[K] != ~0u) {
          addEdge(SlotCursor[K], Barrier, EdgeKind::Scope);
          joinInto(Strands[Order[K]], Barrier);
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
    auto [Label, Inherited] = rules::inheritCode(std::uint32_t(0), PCode);
    NodeId Barrier =
        addNode(NodeKind::BarrierImplicit, Begin, NoThread, Label);
    G.Nodes[Barrier].LabelInherited = Inherited;
    for (NodeId &C : SlotCursor) {
      addEdge(C, Barrier, EdgeKind::Scope);
      C = Barrier;
    }
    for (Strand &S : Strands)
      joinInto(S, Barrier);
    syncAll(Team.Pending, Barrier);
  }
  NodeId End = addNode(NodeKind::ParallelEnd, EncounterParent, threadOf(Pos),
                       PCode);
  G.Nodes[End].LabelInherited = PInherited;
  for (Strand &S : Strands) // only after malformed streams: no end barrier
    joinInto(S, End);
  for (NodeId C : SlotCursor)
    addEdge(C, End, EdgeKind::Scope);
  if (SlotCursor.empty())
    addEdge(Begin, End, EdgeKind::Scope);
  for (const Strand &S : Strands)
    taskDone(S.Task);
  return End;
}

/// An initial task: the root of a contention group, in a team of its own
/// (the implicit parallel region), whose barriers hang off the task node.
void Walker::emitRoot(std::uint32_t TI) {
  Bits[TI] |= Visited;
  const TaskDesc &T = desc(TI);
  Strand S;
  S.Task = TI;
  S.Node = addNode(NodeKind::InitialTask, NoNode, T.Thread, T.Code, T.Flags);
  TeamCtx Team;
  Team.TeamNode = S.Node;
  strand(TI, S.Items);
  S.Cursor = S.Node;
  for (;;) {
    std::uint32_t Stop = runStrand(S, Team);
    if (Stop == ~0u)
      break;
    const Item &B = ev(Stop);
    NodeKind Kind = static_cast<SyncKind>(B.Sub) == SyncKind::BarrierExplicit
                        ? NodeKind::Barrier
                        : NodeKind::BarrierImplicit;
    NodeId Barrier =
        addNode(Kind, S.Node, threadOf(Stop), codeOf(B));
    addEdge(S.Cursor, Barrier, EdgeKind::Scope);
    joinInto(S, Barrier);
    S.Cursor = Barrier;
    syncAll(Team.Pending, Barrier);
  }
  Frontier[TI] = S.Cursor;
  taskDone(TI);
}

void Walker::run(const GraphBuilder::Hooks &H) {
  G = Graph();
  G.Labels.push_back(SourceLabel{}); // label 0: none
  G.Stats.Threads = (std::uint32_t)In.ThreadIds.size();
  G.Stats.Events = In.Events;
  index();
  // Reserve what the walk will make, so that the graph never reallocates
  // (a copy of millions of nodes or edges next to the original): every
  // explicit task makes a node, a create and a sync edge; every strand item
  // at most a node and a scope edge (a parallel begin three nodes).
  // Reserved and unused memory is never touched, so costs nothing.
  // A node with a name gets it after it is made (a task's label), a target
  // construct's node its bytes (Graph::NodeBytes, as its transfers come):
  // then no node can be read before the walk ends (CompletedLater).
  // Meanwhile, whether the tasks form a tree: each created, begun as a
  // team member or started as a root once (Release needs it). The items'
  // part of both was tallied by index().
  std::size_t NodesMax = Bits.size() + 2 * Parallels.size() + Tally.Nodes;
  bool CompletedLater = Tally.CompletedLater;
  std::size_t Members = 0;
  for (const ParallelInfo &P : Parallels) {
    Members += P.Members.size();
    for (std::uint32_t M : P.Members)
      claim(M);
  }
  for (const RootInfo &R : Roots)
    claim(R.Task);
  decltype(Claims)().swap(Claims);
  bool Tree = Tally.Tree;
  startRelease(Tree);
  G.Nodes.reserve(NodesMax);
  G.Edges.reserve(NodesMax + 2 * Bits.size() + 2 * Members);
  if (H.WalkStarts && !CompletedLater)
    Feed = H.WalkStarts(G, NodesMax);
  // The feed's reader waits for the walk's end, even if the walk throws.
  struct FeedEnd {
    Walker &W;
    ~FeedEnd() {
      if (W.Feed)
        W.Feed->finish(W.G.Nodes.size());
      W.Feed = nullptr;
    }
  } EndFeed{*this};

  std::sort(Roots.begin(), Roots.end(),
            [&](const RootInfo &A, const RootInfo &B) {
              if (A.Time != B.Time)
                return A.Time < B.Time;
              return A.Id < B.Id;
            });
  for (const RootInfo &R : Roots)
    emitRoot(R.Task);
  std::uint64_t Lost = 0;
  for (std::uint8_t B : Bits)
    if ((B & Known) && !(B & Visited))
      ++Lost;
  if (Lost)
    warn(std::to_string(Lost) +
         " task(s) not reachable from an initial task (incomplete events)");

  // The walk's state is not needed any more: released before the edges are
  // sorted and, meanwhile, the nodes written (NodesDone), so that those add
  // nothing to the peak memory, which is at the end of the walk.
  if (Feed) {
    Feed->finish(G.Nodes.size());
    Feed = nullptr;
  }
  releaseWalkState();
  if (H.NodesDone)
    H.NodesDone(G);

  sortEdges(G.Edges);
  G.Edges.erase(std::unique(G.Edges.begin(), G.Edges.end()), G.Edges.end());
  G.Mpi = In.Mpi.finish();
}

void Walker::startRelease(bool Tree) {
  if (!Tree || Bits.empty())
    return;
  Release.Items.start(Items.data(), Items.size(), sizeof(Item), 1);
  Release.Desc.start(Desc.data(), Desc.size(), sizeof(std::uint32_t), 1);
  // Entry T is read by tasks T - 1 (its end) and T: the first and last by
  // one each.
  Release.ItemBegin.start(ItemBegin.data(), ItemBegin.size(),
                          sizeof(std::uint32_t), 2);
  Release.ItemBegin.unuse(0);
  Release.ItemBegin.unuse(ItemBegin.size() - 1);
}

void Walker::releaseWalkState() {
  decltype(Desc)().swap(Desc);
  decltype(ItemBegin)().swap(ItemBegin);
  std::vector<std::uint32_t>().swap(Frontier);
  decltype(Bits)().swap(Bits);
  std::vector<std::uint64_t>().swap(Hashes);
  std::vector<TaskDesc>().swap(Descs);
  decltype(Items)().swap(Items);
  Release = decltype(Release)();
  std::vector<ParallelInfo>().swap(Parallels);
  std::vector<RootInfo>().swap(Roots);
#if defined(__GLIBC__) && !OTTER_SANITIZED_MALLOC
  malloc_trim(0);
#endif
}

} // namespace otter::walk

namespace otter {

void walkStore(GraphBuilder::Store &In, GraphBuilder::Resolver &Resolve,
               Graph &Out, const GraphBuilder::Hooks &H) {
  walk::Walker W(In, Resolve, Out);
  W.run(H);
}

} // namespace otter
