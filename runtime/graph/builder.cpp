//===- graph/builder.cpp - Task graph from OTTER's typed events ----------===//
//
// Structural walk over the per-task event sequences; see builder.h for the
// semantics and docs/graph.md for the rules each edge kind follows.
//
// addEvents reduces each event at once to what the walk reads (see
// builder_store.h, "Ingest", and builder_ingest.cpp); build() indexes that
// per task and walks it (here). What the
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
#include "graph/builder.h"
#include "graph/builder_store.h"
#include "graph/rules.h"
#include "otter/event_info.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <malloc.h>
// Under a sanitizer, malloc is the sanitizer's: glibc's malloc_trim then
// works on arenas no thread attached to, and with several builders at once
// (otter-graph on an MPI job) glibc aborts at thread exit
// ("__malloc_arena_thread_freeres: a->attached_threads > 0").
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OTTER_SANITIZED_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define OTTER_SANITIZED_MALLOC 1
#endif
#endif
#ifndef OTTER_SANITIZED_MALLOC
#define OTTER_SANITIZED_MALLOC 0
#endif
#include <memory>
#include <mutex>
#include <numeric>
#include <pthread.h>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace otter {

namespace {

using rules::isBarrier;

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

/// The begin and end node kinds of a construct that makes a pair of nodes;
/// false for one that makes none (an atomic) or a single node.
bool pairNodeKinds(rules::Construct C, NodeKind &Begin, NodeKind &End) {
  switch (C) {
  case rules::Construct::Loop:
    Begin = NodeKind::LoopBegin, End = NodeKind::LoopEnd;
    return true;
  case rules::Construct::Sections:
    Begin = NodeKind::SectionsBegin, End = NodeKind::SectionsEnd;
    return true;
  case rules::Construct::Single:
    Begin = NodeKind::SingleBegin, End = NodeKind::SingleEnd;
    return true;
  case rules::Construct::Taskloop:
    Begin = NodeKind::TaskloopBegin, End = NodeKind::TaskloopEnd;
    return true;
  case rules::Construct::Workshare:
    Begin = NodeKind::WorkshareBegin, End = NodeKind::WorkshareEnd;
    return true;
  case rules::Construct::Masked:
    Begin = NodeKind::MaskedBegin, End = NodeKind::MaskedEnd;
    return true;
  case rules::Construct::Taskgroup:
    Begin = NodeKind::TaskgroupBegin, End = NodeKind::TaskgroupEnd;
    return true;
  case rules::Construct::Critical:
    Begin = NodeKind::CriticalBegin, End = NodeKind::CriticalEnd;
    return true;
  case rules::Construct::Lock:
    Begin = NodeKind::LockBegin, End = NodeKind::LockEnd;
    return true;
  case rules::Construct::NestLock:
    Begin = NodeKind::NestLockBegin, End = NodeKind::NestLockEnd;
    return true;
  case rules::Construct::Ordered:
    Begin = NodeKind::OrderedBegin, End = NodeKind::OrderedEnd;
    return true;
  case rules::Construct::Parallel:
    Begin = NodeKind::ParallelBegin, End = NodeKind::ParallelEnd;
    return true;
  default:
    Begin = End = NodeKind::Count;
    return false;
  }
}

/// The end of a worksharing construct that every member of a team
/// encounters (not a taskloop, which belongs to one task).
template <class Ev> bool isTeamWorkEnd(const Ev &E) {
  return static_cast<EventKind>(E.Kind) == EventKind::WorkEnd &&
         rules::isTeamWork(static_cast<WorkKind>(E.Sub));
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

} // namespace

namespace {

//===----------------------------------------------------------------------===//
// The walk.
//===----------------------------------------------------------------------===//

struct TeamCtx;
struct TaskgroupFrame;

/// What a task is, interned: few distinct (code, flags, thread) triples.
struct TaskDesc {
  std::uint32_t Code = 0; // code index
  std::uint32_t Flags = 0;
  std::uint32_t Thread = NoThread;
  bool operator==(const TaskDesc &) const = default;
};
struct TaskDescHash {
  std::size_t operator()(const TaskDesc &D) const {
    return mix(mix(D.Code, D.Flags), D.Thread);
  }
};

// Per-task walk state bits.
constexpr std::uint8_t Known = 1, Visited = 2, Synced = 4, HashDone = 8;

struct ParallelInfo {
  std::uint32_t Code = 0;
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

struct RootInfo {
  std::uint32_t Task;
  std::uint64_t Time;
  TaskId Id;
};

class Walker {
public:
  Walker(GraphBuilder::Store &In, GraphBuilder::Resolver &Resolve, Graph &Out)
      : In(In), Resolve(Resolve), G(Out) {}

  void run(const std::function<void(Graph &)> &NodesDone);

private:
  GraphBuilder::Store &In; // what addEvents collected
  GraphBuilder::Resolver &Resolve;

  // Per task (dense index), structure of arrays.
  std::vector<std::uint32_t> Desc;      // index into Descs
  std::vector<std::uint32_t> ItemBegin; // task's items: [Begin[T], Begin[T+1])
  std::vector<std::uint32_t> Frontier;  // last node of the task's strand
  std::vector<std::uint8_t> Bits;
  std::vector<std::uint64_t> Hashes;    // signatures, made on first use
  std::size_t Hashed = 0;               // signatures made since allocation
  std::vector<TaskDesc> Descs;
  std::vector<Item> Items; // all strands, grouped by task, program order
  std::vector<ParallelInfo> Parallels;
  std::vector<RootInfo> Roots;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> Labels; // per code
                                            // index: (label index, hash)
  Graph &G;

  void index();
  void releaseWalkState();
  const Item &ev(std::uint32_t Pos) const { return Items[Pos]; }
  std::uint32_t threadOf(std::uint32_t Pos) const {
    return In.ThreadIds[Items[Pos].Thread];
  }
  const TaskDesc &desc(std::uint32_t T) const { return Descs[Desc[T]]; }
  /// Code index of an item's event.
  std::uint32_t codeOf(const Item &E) const {
    switch (payloadOf(E.kind())) {
    case PayloadOf::Task:
      return desc(E.Payload).Code;
    case PayloadOf::Parallel:
      return Parallels[E.Payload].Code;
    case PayloadOf::Wide:
      return In.Wides[E.Payload].Code;
    case PayloadOf::MpiCall:
      return In.MpiCodes[E.Payload];
    case PayloadOf::Code:
      break;
    }
    return E.Payload;
  }
  std::pair<std::uint32_t, std::uint64_t> label(std::uint32_t Code);
  void strand(std::uint32_t T, std::vector<std::uint32_t> &Out) const;

  std::uint64_t taskHash(std::uint32_t T);
  std::uint64_t parallelHash(std::uint32_t P);
  std::uint64_t itemHash(std::uint64_t H, std::uint32_t Pos);
  std::vector<std::size_t> phaseEnds(const std::vector<std::uint32_t> &Items) const;
  std::vector<std::uint64_t> segmentHashes(std::uint32_t TI);

  NodeId addNode(NodeKind K, NodeId Parent, std::uint32_t Thread,
                 std::uint32_t Code, std::uint32_t Flags = 0);
  void addEdge(NodeId S, NodeId T, EdgeKind K) {
    if (S != NoNode && T != NoNode && S != T)
      G.Edges.push_back({S, T, K});
  }
  void warn(std::string W) {
    if (G.Warnings.size() < 100)
      G.Warnings.push_back(std::move(W));
    ++G.Stats.Warnings;
  }
  /// Appends to a list of tasks waiting for a sync; when the list is full,
  /// first drops those already synced (syncAll skips them anyway). On fib
  /// the team's list would otherwise hold every task of the program.
  void pushPending(std::vector<std::uint32_t> &L, std::uint32_t T) {
    if (L.size() == L.capacity() && L.size() >= 64) {
      L.erase(std::remove_if(L.begin(), L.end(),
                             [&](std::uint32_t X) { return Bits[X] & Synced; }),
              L.end());
      if (L.size() > L.capacity() / 2)
        L.reserve(L.capacity() * 2); // amortised: grow, as push_back would
    }
    L.push_back(T);
  }

  // Emission.
  struct Strand {
    std::uint32_t Task;
    NodeId Node = NoNode; // parent of the nodes this strand makes
    TaskgroupFrame *InheritedGroup = nullptr; // innermost enclosing taskgroup
    std::vector<std::uint32_t> Items; // order positions, normalised
    std::size_t Pos = 0;
    NodeId Cursor = NoNode;
    std::vector<std::unique_ptr<TaskgroupFrame>> Groups;
    std::vector<std::uint32_t> PendingChildren;
    /// Undeferred and included children (if(0), final): the creator resumes
    /// only when they complete, so its next node follows their ends.
    std::vector<std::uint32_t> Joins;
    rules::DependenceRules Deps; // among this strand's children
    bool Ended = false;
    /// A team's initial task under host teams: the teams construct's code,
    /// which the team's own region (OMPT reports it with none) inherits.
    std::uint32_t LeagueCode = 0;
  };
  /// Runs S until its next barrier (returns the order position of the
  /// barrier's SyncBegin) or its end (returns ~0u).
  std::uint32_t runStrand(Strand &S, TeamCtx &Team,
                          std::size_t StopAt = ~std::size_t(0));
  void emitTask(std::uint32_t Child, Strand &Creator, TeamCtx &Team,
                std::uint32_t CreatePos);
  NodeId emitTeam(std::uint32_t P, Strand &Encounter, std::uint32_t Pos);
  void joinInto(Strand &S, NodeId Next);
  void emitRoot(std::uint32_t T);
  void syncAll(std::vector<std::uint32_t> &Waited, NodeId Sync);
  void addDependences(Strand &Creator, std::uint32_t Child, NodeId ChildNode);
};

/// Turns what addEvents collected into the walk's arrays, releasing the
/// collected records as it goes (they are the bulk of the memory).
void Walker::index() {
  std::size_t NT = In.Tasks.size();
  Desc.resize(NT);
  Bits.assign(NT, 0);
  std::unordered_map<TaskDesc, std::uint32_t, TaskDescHash> DescIndex;
  for (std::size_t T = 0; T < NT; ++T) {
    const TaskIn &X = In.Tasks[T];
    // An implicit-task begin gives the thread; else the schedule events.
    std::uint16_t Th = (X.Bits & (TaskIn::Implicit | TaskIn::HasSched))
                           ? X.Thread
                           : NoThreadIndex;
    TaskDesc D{X.Code, X.Flags,
               Th == NoThreadIndex ? NoThread : In.ThreadIds[Th]};
    auto [It, New] = DescIndex.try_emplace(D, (std::uint32_t)Descs.size());
    if (New)
      Descs.push_back(D);
    Desc[T] = It->second;
    if (X.Bits & TaskIn::Known) {
      Bits[T] = Known;
      if ((X.Flags & TaskInitial) && !(X.Bits & TaskIn::InLeague)) {
        auto R = In.Roots.find((std::uint32_t)T);
        RootIn RI = R != In.Roots.end() ? R->second : RootIn{};
        Roots.push_back({(std::uint32_t)T, RI.Time, RI.Id});
      }
    }
  }
  In.Tasks.clear();
  In.Ids.clear();
  In.Roots = {};
  In.InitialIndex = {};

  // Group the records by task (a counting sort: stable, so a task's records
  // keep their arrival order), then order each task's by Seq.
  std::size_t NR = In.Recs.size();
  if (NR >= NoIndex)
    throw std::length_error("too many events");
  ItemBegin.assign(NT + 1, 0);
  for (std::size_t I = 0; I < NR; ++I)
    ++ItemBegin[In.Recs[I].Task + 1];
  for (std::size_t T = 0; T < NT; ++T)
    ItemBegin[T + 1] += ItemBegin[T];
  Items.resize(NR);
  std::vector<std::uint32_t> Seqs(NR);
  {
    std::vector<std::uint32_t> Next(ItemBegin.begin(), ItemBegin.end() - 1);
    for (std::size_t I = 0; I < NR; ++I) {
      const Rec &R = In.Recs[I];
      std::uint32_t P = Next[R.Task]++;
      Items[P] = R.It;
      Seqs[P] = R.Seq;
      if (((I + 1) & (PagedVec<Rec>::PageSize - 1)) == 0)
        In.Recs.releasePageOf(I);
    }
  }
  In.Recs.clear();
  std::vector<std::pair<std::uint32_t, Item>> Tmp;
  for (std::size_t T = 0; T < NT; ++T) {
    std::uint32_t B = ItemBegin[T], E = ItemBegin[T + 1];
    if (std::is_sorted(Seqs.begin() + B, Seqs.begin() + E))
      continue;
    Tmp.clear();
    for (std::uint32_t I = B; I < E; ++I)
      Tmp.emplace_back(Seqs[I], Items[I]);
    std::stable_sort(Tmp.begin(), Tmp.end(), [](const auto &X, const auto &Y) {
      return X.first < Y.first;
    });
    for (std::uint32_t I = B; I < E; ++I)
      Items[I] = Tmp[I - B].second;
  }
  Seqs = {};
  Tmp = {};
#if defined(__GLIBC__) && !OTTER_SANITIZED_MALLOC
  malloc_trim(0); // give the released pages back before the graph grows
#endif

  // libomp 19 reports a critical's release with the return address of
  // thread 0 (OMPT_LOAD_RETURN_ADDRESS(0) in __kmpc_end_critical): null or
  // some other code on every other thread, so it depends on who ran the
  // task. A critical_end takes the code of its critical_begin instead.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> OpenCriticals;
  for (std::size_t T = 0; T < NT; ++T) {
    OpenCriticals.clear();
    for (std::uint32_t I = ItemBegin[T]; I < ItemBegin[T + 1]; ++I) {
      const Item &E = Items[I];
      if (E.Sub != std::uint8_t(MutexKind::Critical))
        continue;
      if (E.kind() == EventKind::MutexAcquired) {
        OpenCriticals.emplace_back(In.Wides[E.Payload].A,
                                   In.Wides[E.Payload].Code);
      } else if (E.kind() == EventKind::MutexReleased) {
        Wide &W = In.Wides[E.Payload];
        for (std::size_t J = OpenCriticals.size(); J-- > 0;)
          if (OpenCriticals[J].first == W.A) {
            W.Code = OpenCriticals[J].second;
            OpenCriticals.erase(OpenCriticals.begin() + J);
            break;
          }
      }
    }
  }

  Parallels.resize(In.Parallels.size());
  for (std::size_t P = 0; P < In.Parallels.size(); ++P) {
    auto &M = In.Parallels[P].Members;
    std::stable_sort(M.begin(), M.end(), [](const auto &X, const auto &Y) {
      return X.first < Y.first;
    });
    Parallels[P].Code = In.Parallels[P].Code;
    for (const auto &X : M)
      Parallels[P].Members.push_back(X.second);
  }
  In.Parallels = {};
  Labels.assign(In.Codes.size(), {NoIndex, 0});
  Frontier.assign(NT, NoNode);
}

std::pair<std::uint32_t, std::uint64_t> Walker::label(std::uint32_t Code) {
  if (Code == 0)
    return {0, 0};
  auto &Slot = Labels[Code];
  if (Slot.first != NoIndex)
    return Slot;
  SourceLabel L = Resolve(In.Codes[Code]);
  // Hash what is stable across runs of the same binary (not the address).
  std::uint64_t H = L.RegionId ? L.RegionId : hashString(L.Location);
  if (L.Line)
    H = mix(H, L.Line);
  G.Labels.push_back(std::move(L));
  Slot = {(std::uint32_t)G.Labels.size() - 1, H};
  return Slot;
}

/// The events of T's own strand that matter for the graph, in program
/// order, with libomp's reporting order adjusted so that scopes nest (a
/// worksharing construct's implicit barrier and a taskloop's implicit
/// taskgroup go inside the construct: rules.h, rule 6).
void Walker::strand(std::uint32_t T, std::vector<std::uint32_t> &Out) const {
  // Ingest kept only what makes nodes (Store::add), and the task's
  // dependences, which are not in program order.
  Out.clear();
  for (std::uint32_t I = ItemBegin[T]; I < ItemBegin[T + 1]; ++I)
    if (Items[I].kind() != EventKind::TaskDependence)
      Out.push_back(I);
  rules::adjustLibompOrder(Out, [&](std::uint32_t Pos) {
    return rules::KindSub{ev(Pos).kind(), ev(Pos).Sub};
  });
}

std::uint64_t Walker::itemHash(std::uint64_t H, std::uint32_t Pos) {
  const Item &E = ev(Pos);
  H = mix(H, (std::uint64_t(E.kind()) << 16) | E.Sub);
  // Not a barrier's code: libomp gives it on the team's primary thread
  // only (workers report none at the end of a parallel region), and the
  // signature must not depend on which member is the primary (e.g. when
  // it is the one that executed a single).
  if (!(E.kind() == EventKind::SyncBegin &&
        isBarrier(static_cast<SyncKind>(E.Sub))))
    H = mix(H, label(codeOf(E)).second);
  if (E.kind() == EventKind::Cancel)
    H = mix(H, cancelNodeFlags(In.Wides[E.Payload].Aux));
  if (E.kind() == EventKind::TaskCreate) {
    std::uint32_t C = E.Payload;
    for (std::uint32_t D = ItemBegin[C]; D < ItemBegin[C + 1]; ++D)
      if (ev(D).kind() == EventKind::TaskDependence)
        H = mix(H, ev(D).Sub);
    H = mix(H, taskHash(C));
  } else if (E.kind() == EventKind::ParallelBegin) {
    H = mix(H, parallelHash(E.Payload));
  }
  return H;
}

std::uint64_t Walker::taskHash(std::uint32_t TI) {
  // Made only for teams of more than one member (emitTeam), so a memo of
  // 8 bytes per task exists only when some team needs it.
  if (Hashes.empty())
    Hashes.assign(Bits.size(), 0);
  if (Bits[TI] & HashDone)
    return Hashes[TI];
  Bits[TI] |= HashDone; // guards against cycles in corrupt input
  ++Hashed;
  std::uint64_t H =
      mix(0x6f74746572ULL, desc(TI).Flags & ~(TaskUndeferred | TaskIncluded));
  H = mix(H, label(desc(TI).Code).second);
  std::vector<std::uint32_t> Items;
  strand(TI, Items);
  for (std::uint32_t Pos : Items)
    H = itemHash(H, Pos);
  Hashes[TI] = H;
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
    const Item &E = ev(Items[I]);
    bool Cut = false;
    if (E.kind() == EventKind::SyncBegin &&
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
  strand(TI, Items);
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
                       std::uint32_t Code, std::uint32_t Flags) {
  Node N;
  N.Kind = K;
  N.Parent = Parent;
  N.Thread = Thread;
  N.Label = label(Code).first;
  N.Flags = Flags;
  G.Nodes.push_back(N);
  return (NodeId)G.Nodes.size() - 1;
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
  Strand S;
  S.Task = Child;
  S.Node = addNode(NodeKind::Task, Creator.Node, Thread, D.Code, D.Flags);
  addEdge(Creator.Cursor, S.Node, EdgeKind::Create);
  // Made after the creator's undeferred children completed (joinInto).
  for (std::uint32_t J : Creator.Joins) {
    addEdge(Frontier[J], S.Node, EdgeKind::Sync);
    Bits[J] |= Synced;
  }
  S.InheritedGroup = rules::taskgroupOfChild(
      !Creator.Groups.empty() ? Creator.Groups.back().get() : nullptr,
      Creator.InheritedGroup);
  addDependences(Creator, Child, S.Node);

  strand(Child, S.Items);
  S.Cursor = S.Node;
  std::uint32_t Stop = runStrand(S, Team);
  while (Stop != ~0u) { // a barrier in an explicit task: not legal OpenMP
    warn("barrier reported inside an explicit task");
    Stop = runStrand(S, Team);
  }
  Frontier[Child] = S.Cursor;
  // Children Child left unjoined (its last action made them) complete before
  // it does: whoever waits for Child waits for them too.
  if (D.Flags & (TaskUndeferred | TaskIncluded)) {
    S.Joins.push_back(Child); // implies the creator's earlier ones
    Creator.Joins = std::move(S.Joins);
  } else {
    for (std::uint32_t J : S.Joins)
      pushPending(Creator.PendingChildren, J);
  }

  pushPending(Creator.PendingChildren, Child);
  if (S.InheritedGroup)
    pushPending(S.InheritedGroup->Members, Child);
  pushPending(Team.Pending, Child);
}

std::uint32_t Walker::runStrand(Strand &S, TeamCtx &Team, std::size_t StopAt) {
  while (S.Pos < S.Items.size() && S.Pos < StopAt) {
    std::uint32_t Pos = S.Items[S.Pos++];
    const Item &E = ev(Pos);
    std::uint32_t Thread = threadOf(Pos);
    auto step = [&](NodeKind K, std::uint32_t Flags = 0) {
      NodeId N = addNode(K, S.Node, Thread, codeOf(E), Flags);
      addEdge(S.Cursor, N, EdgeKind::Scope);
      joinInto(S, N);
      S.Cursor = N;
      return N;
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
      In.Mpi.nodeMade(E.Payload, step(NodeKind::MpiCall, E.Sub));
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
    case EventKind::TaskLabel: // names the strand's task node (last wins)
      if (S.Node != NoNode)
        G.NodeNames[S.Node] = std::uint32_t(In.Wides[E.Payload].A);
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
      // One barrier node for this instance; label from the primary thread's
      // member (strand 0: members are in team-index order), whose address
      // is its own call site (workers report none at the implicit barrier
      // of a parallel region, and a worker inside a task-generating task
      // of a taskloop reports one deep in the runtime), else from the first
      // member that has one, else from the region (rules.h, rule 7).
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
}

void Walker::run(const std::function<void(Graph &)> &NodesDone) {
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
  std::size_t NodesMax = Bits.size() + 2 * Parallels.size();
  for (const Item &E : Items)
    NodesMax += E.kind() == EventKind::ParallelBegin ? 3
                : E.kind() == EventKind::TaskCreate ||
                        E.kind() == EventKind::TaskDependence
                    ? 0
                    : 1;
  std::size_t Members = 0;
  for (const ParallelInfo &P : Parallels)
    Members += P.Members.size();
  G.Nodes.reserve(NodesMax);
  G.Edges.reserve(NodesMax + 2 * Bits.size() + 2 * Members);

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
  releaseWalkState();
  if (NodesDone)
    NodesDone(G);

  std::sort(G.Edges.begin(), G.Edges.end());
  G.Edges.erase(std::unique(G.Edges.begin(), G.Edges.end()), G.Edges.end());
  G.Mpi = In.Mpi.finish();
}

void Walker::releaseWalkState() {
  std::vector<std::uint32_t>().swap(Desc);
  std::vector<std::uint32_t>().swap(ItemBegin);
  std::vector<std::uint32_t>().swap(Frontier);
  std::vector<std::uint8_t>().swap(Bits);
  std::vector<std::uint64_t>().swap(Hashes);
  std::vector<TaskDesc>().swap(Descs);
  std::vector<Item>().swap(Items);
  std::vector<ParallelInfo>().swap(Parallels);
  std::vector<RootInfo>().swap(Roots);
#if defined(__GLIBC__) && !OTTER_SANITIZED_MALLOC
  malloc_trim(0);
#endif
}

} // namespace

void walkStore(GraphBuilder::Store &In, GraphBuilder::Resolver &Resolve,
               Graph &Out, const std::function<void(Graph &)> &NodesDone) {
  Walker W(In, Resolve, Out);
  W.run(NodesDone);
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
