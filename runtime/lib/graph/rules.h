//===- graph/rules.h - The OpenMP rules of the task graph ----*- C++ -*-===//
//
// What an OpenMP event stream means for the task graph, written once and
// used by both of its readers:
//  - GraphBuilder (graph/builder.cpp), which regroups the events per task
//    and walks the program structurally to make nodes and edges;
//  - otter's analyses (utils/otter/analysis*.cpp), which make one streaming
//    pass in time order to weigh the same graph with execution times (work,
//    span, critical path, profile).
// Before this module each had its own copy of these rules, and the copies
// drifted (which sync kinds are barriers, which earlier waits make a
// dependence edge implied, the id layout, the stream form).
//
// The rules, each with the why at its definition below:
//  1. The stream form: both read events as OMPT reported them; an event the
//     recorder folded several into (a sync event with its wait,
//     SyncWaitFolded; an empty taskwait's ends, SyncWaitEndFolded and
//     SyncEndFolded; a task's creation with the switch to it,
//     CreateSwitchFolded) is read as the events it stands for, wherever it
//     comes from (forEachEvent, unfoldEvent).
//  2. Task ids to dense indices (TaskIndex).
//  3. Which construct an event's sub-kind is (constructOf*, isBarrier,
//     isTeamWork).
//  4. Who waits for an explicit task: its creator's next taskwait, the end
//     of the innermost taskgroup it was created in (descendants included),
//     its team's next barrier (waitScopeOf, taskgroupOfChild).
//  5. Dependences between sibling tasks, OpenMP 5.x, mutexinoutset and
//     inoutset groups included (DependenceRules).
//  6. libomp's reporting order, adjusted so that scopes nest: a worksharing
//     construct's implicit barrier and a taskloop's implicit taskgroup
//     belong inside the construct (adjustLibompOrder, barrierClosesWork).
//  7. Labels: implicit tasks and implicit barriers, for which OMPT gives no
//     code address on worker threads, take the enclosing construct's
//     (inheritCode, implicitBarrierRow).
//  8. Target offload: which node a target construct's begin or end makes
//     (a `target data` region is reported as an enter data and an exit
//     data construct: its label tells them apart), which data operations
//     move bytes, and in which direction (targetNodeOf, transferOf).
//
// Why the analyses do not simply run over the builder's graph (the other way
// to have one model): measured on fib 33 (11,405,772 tasks, 2 threads, the
// 794 MB trace of bench/utils_scale.py; /usr/bin/time, peak RSS), otter-graph
// peaks at 929 MiB (83 B/task) and takes 11-12 s, `otter parallelism` 105
// MiB (9.4 B/task; 69 MiB, 6.2 B/task, on this module's id table) and 2.2 s:
// the builder holds every event until it walks them (it must, to order a
// team's members by the signature of their work), the analyses hold state
// for live tasks only. Weighing the graph would add timestamps to it (>= 8
// B per node) and take the analyses from 6 to over 90 B/task, near
// docs/performance-notes.md's limit of 100 B/task at 10 M tasks, and from 2 to
// over 11 s. So both call the rules here instead, each keeping the
// representation its pass needs (the builder: lists of tasks, to make
// edges; the analyses: running maxima of path lengths, released as tasks
// complete). test/unit/analysis_property_test.cpp checks on random programs
// that the two agree (the analyses' dependence edges are the builder's) and
// that work and span equal a brute-force computation over the program's
// graph.
//
// Nothing here knows OMPT, OTF2 or node ids: unit tested on its own
// (test/unit/rules_test.cpp) and through both readers (builder_test.cpp,
// analysis_*_test.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_RULES_H
#define OTTER_GRAPH_RULES_H

#include "otter/events.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace otter::rules {

//===----------------------------------------------------------------------===//
// 1. The stream form.
//===----------------------------------------------------------------------===//

/// Calls Fn(const Event &) for each event of E[0..N) in the one form the
/// graph's readers interpret: as OMPT reported it. The adapter folds a sync
/// region's wait into the region's own begin/end event when both happen at
/// once (SyncWaitFolded, most taskwaits and barriers: one record instead of
/// two), and the switch to a task just created into its creation
/// (CreateSwitchFolded: one buffer slot), and an empty taskwait's end into its
/// begin (SyncEndFolded); that is an encoding of the trace and
/// of the per-thread buffers, not a different meaning, so every reader unfolds
/// it here, whether the events come live from the runtime (folded) or from the
/// trace reader (which already gives the pairs back: unfolding is then a
/// no-op).
template <class Fn>
inline void forEachEvent(const Event *E, std::size_t N, Fn &&F) {
  for (std::size_t I = 0; I < N; ++I) {
    if (!(E[I].Extra & SyncWaitFolded)) {
      F(E[I]);
      continue;
    }
    if (E[I].Kind == EventKind::TaskCreate) { // CreateSwitchFolded
      Event Create = E[I];
      Create.Extra = 0;
      F(Create);
      F(foldedSwitch(E[I]));
      continue;
    }
    if (E[I].Kind == EventKind::SyncBegin &&
        (E[I].Extra & SyncWaitEndFolded)) { // an empty taskwait
      Event X = E[I];
      X.Extra = 0;
      F(X);
      X.Kind = EventKind::SyncWaitBegin;
      F(X);
      X = foldedSyncEnd(E[I]);
      X.Extra = 0;
      X.Kind = EventKind::SyncWaitEnd;
      F(X);
      if (E[I].Extra & SyncEndFolded) {
        X.Kind = EventKind::SyncEnd;
        F(X);
      }
      continue;
    }
    Event Pair[MaxUnfolded];
    unsigned Count = unfoldEvent(E[I], Pair);
    for (unsigned K = 0; K < Count; ++K)
      F(Pair[K]);
  }
}

//===----------------------------------------------------------------------===//
// 2. Task ids.
//===----------------------------------------------------------------------===//

/// Task id -> dense 32-bit index (NoIndex: none); one reader thread at a
/// time (the lookup remembers pages). The runtime makes ids without a
/// shared counter, as makeId(thread, per-thread counter) (otter/events.h);
/// those go to a direct table per creating thread, paged (4 bytes per id,
/// no copy as it grows); any other id (synthetic streams, another producer,
/// corrupt input) to a hash map.
class TaskIndex {
public:
  static constexpr std::uint32_t NoIndex = ~std::uint32_t(0);

  /// The index of Id, or NoIndex. The common cases inline: the analyses
  /// look up, make and forget an id for nearly every event.
  std::uint32_t find(TaskId Id) const {
    if (const std::uint32_t *C = directCell(Id))
      return *C;
    if ((Id >> LoBits) < MaxHi && (Id & LoMask) < MaxLo)
      return NoIndex; // a runtime id on a page never made
    return findOther(Id);
  }
  /// The cell holding Id's index (NoIndex until set), made if needed.
  std::uint32_t &cell(TaskId Id) {
    if (std::uint32_t *C = directCell(Id))
      return *C;
    return makeCell(Id);
  }
  /// Forgets Id (its index may be given to another id).
  void erase(TaskId Id) {
    if (std::uint32_t *C = directCell(Id))
      *C = NoIndex;
    else
      eraseOther(Id);
  }
  void clear();
  /// Calls F(Id, Index) for every id that has an index (in no set order).
  template <class Fn> void forEach(Fn &&F) const {
    for (std::size_t Hi = 0; Hi < Direct.size(); ++Hi)
      for (std::size_t P = 0; P < Direct[Hi].size(); ++P)
        if (const std::uint32_t *Page = Direct[Hi][P].get())
          for (std::size_t K = 0; K <= PageMask; ++K)
            if (Page[K] != NoIndex)
              F(TaskId((std::uint64_t(Hi) << LoBits) |
                       (std::uint64_t(P) << PageShift) | K),
                Page[K]);
    for (const auto &[Id, Index] : Other)
      if (Index != NoIndex)
        F(Id, Index);
  }

private:
  /// Id's cell in the direct table, if its page exists. Ids come in runs
  /// from each thread's counter: the last page used per thread (modulo 4)
  /// is remembered.
  std::uint32_t *directCell(TaskId Id) const {
    std::uint64_t Key = Id >> PageShift; // thread and page
    RecentPage &R = Recent[(Id >> LoBits) & 3];
    if (R.Key == Key)
      return R.Page + (Id & PageMask);
    std::uint64_t Hi = Id >> LoBits, Lo = Id & LoMask;
    if (Hi >= Direct.size())
      return nullptr;
    const auto &Pages = Direct[Hi];
    std::uint64_t P = Lo >> PageShift;
    if (P >= Pages.size() || !Pages[P])
      return nullptr;
    R.Key = Key;
    R.Page = Pages[P].get();
    return R.Page + (Id & PageMask);
  }
  struct RecentPage {
    std::uint64_t Key = ~std::uint64_t(0);
    std::uint32_t *Page = nullptr;
  };
  mutable RecentPage Recent[4];
  std::uint32_t &makeCell(TaskId Id);
  void eraseOther(TaskId Id);
  static constexpr unsigned LoBits = IdCounterBits, PageShift = 12,
                            MaxLoBits = 30;
  static constexpr std::uint64_t LoMask = (std::uint64_t(1) << LoBits) - 1,
                                 PageMask = (std::uint64_t(1) << PageShift) - 1,
                                 MaxLo = std::uint64_t(1) << MaxLoBits,
                                 MaxHi = 4096;
  std::uint32_t findOther(TaskId Id) const;
  std::vector<std::vector<std::unique_ptr<std::uint32_t[]>>> Direct;
  std::unordered_map<TaskId, std::uint32_t> Other;
};

//===----------------------------------------------------------------------===//
// 3. Constructs.
//===----------------------------------------------------------------------===//

/// The source constructs the graph's nodes and the analyses' rows stand
/// for (a begin/end pair of nodes is one construct): otter/constructs.def.
enum class Construct : std::uint8_t {
#define OTTER_CONSTRUCT(Construct, Name, Begin, End) Construct,
#include "otter/constructs.def"
  Count
};
/// Its name in the analyses' outputs (the table's Name).
const char *constructName(Construct C);

/// Every barrier kind OMPT has (implicit, explicit, implementation, teams;
/// the generic ones older runtimes report). Not taskwait, taskgroup or
/// reduction, which are sync regions too.
bool isBarrier(SyncKind K);
/// A sync region's construct; false for a reduction (no construct of its
/// own: it is part of the construct whose clause it is).
bool constructOfSync(SyncKind K, Construct &Out);
/// A worksharing event's construct (loop schedules are all Loop; the two
/// single kinds are Single).
Construct constructOfWork(WorkKind K);
/// A mutex's construct (test_lock is Lock, test_nest_lock NestLock);
/// Construct::Count for a value OMPT does not define.
Construct constructOfMutex(MutexKind K);
/// A worksharing construct that every member of a team encounters, in the
/// same order: all but a taskloop, which belongs to the one task that
/// encounters it.
inline bool isTeamWork(WorkKind K) { return K != WorkKind::Taskloop; }

//===----------------------------------------------------------------------===//
// 4. Who waits for an explicit task.
//===----------------------------------------------------------------------===//

/// The constructs that wait for an explicit task's completion are, in its
/// creator's program order, the first of: the creator's next taskwait (its
/// children, not grandchildren); the end of the innermost taskgroup the task
/// was created in (every descendant created in it); the next barrier of the
/// team the task binds to (every task of the team). Both readers keep one
/// set per creator, per taskgroup and per team (the builder: the tasks, to
/// make sync edges; the analyses: the longest path among them) and drain
/// the one a sync construct names.
enum class WaitScope : std::uint8_t {
  None,
  Children,  // taskwait: the encountering task's children so far
  Taskgroup, // taskgroup end: the members of the group that ends
  Team,      // barrier: every task bound to the team so far
};
inline WaitScope waitScopeOf(SyncKind K) {
  if (K == SyncKind::Taskwait)
    return WaitScope::Children;
  if (K == SyncKind::Taskgroup)
    return WaitScope::Taskgroup;
  return isBarrier(K) ? WaitScope::Team : WaitScope::None;
}

/// The taskgroup a new task belongs to: its creator's innermost open one,
/// else the one its creator belongs to (a taskgroup waits for descendants,
/// so membership is inherited). Null: none.
template <class Group>
inline Group *taskgroupOfChild(Group *CreatorInnermostOpen,
                               Group *CreatorInherited) {
  return CreatorInnermostOpen ? CreatorInnermostOpen : CreatorInherited;
}

//===----------------------------------------------------------------------===//
// 5. Dependences.
//===----------------------------------------------------------------------===//

/// The depend-clause rules of OpenMP 5.x between sibling tasks (same
/// creator), from each task's dependences (address, type) in creation order:
/// one object per creator, fed each new child's dependences as they are
/// reported (ompt_callback_dependences, right after the task's creation:
/// program order within one creator, so the result does not depend on the
/// schedule; ompt_callback_task_dependence fires only when the predecessor
/// is still running, so it is not used). Tasks are the reader's indices.
///
/// Per address:
///  - `in` follows the last writer set (an out/inout task, or a group of
///    mutexinoutset or of inoutset tasks);
///  - `out`/`inout` follows the readers since the last writer set if any,
///    else the writer set (the readers follow it already: that edge would
///    be transitive);
///  - consecutive mutexinoutset (or inoutset) tasks form a group: its members
///    share the group's predecessors and do not follow each other (OpenMP
///    makes mutexinoutset members mutually exclusive, not ordered);
///  - depobj dependences arrive as the type stored in the object (libomp
///    expands them before reporting); source/sink are doacross, not task
///    dependences, and are ignored.
/// An edge from a predecessor that has already been waited for (rule 4,
/// earlier in the creator's program order) is implied by that wait: readers
/// drop it with resolvePredecessors.
class DependenceRules {
public:
  /// Child's dependence on Addr of type T: appends the siblings Child must
  /// follow to Preds (unsorted, maybe repeated, maybe Child itself).
  void add(std::uint64_t Addr, DependenceType T, std::uint32_t Child,
           std::vector<std::uint32_t> &Preds);
  bool empty() const { return ByAddr.empty(); }
  /// Forgets every address: for when every sibling so far has been waited
  /// for (a taskwait), so none of them can be a predecessor any more.
  void clear() { ByAddr.clear(); }

private:
  struct Address {
    std::vector<std::uint32_t> LastSet;  // last writer set
    std::vector<std::uint32_t> Readers;  // `in` tasks since LastSet
    std::vector<std::uint32_t> SetPreds; // predecessors of a set group
    DependenceType SetType = DependenceType::Source; // Source: none yet
  };
  std::unordered_map<std::uint64_t, Address> ByAddr;
};

/// Sorts and deduplicates Preds and removes Child and every task for which
/// Waited(task) is true (see DependenceRules).
template <class WaitedFn>
inline void resolvePredecessors(std::vector<std::uint32_t> &Preds,
                                std::uint32_t Child, WaitedFn &&Waited) {
  std::sort(Preds.begin(), Preds.end());
  Preds.erase(std::unique(Preds.begin(), Preds.end()), Preds.end());
  Preds.erase(
      std::remove_if(Preds.begin(), Preds.end(),
                     [&](std::uint32_t P) { return P == Child || Waited(P); }),
      Preds.end());
}

//===----------------------------------------------------------------------===//
// 6. libomp's reporting order.
//===----------------------------------------------------------------------===//

/// What the order rules read of an event: its kind and sub-kind.
struct KindSub {
  EventKind Kind;
  std::uint16_t Sub;
};

/// libomp reports a worksharing construct's implicit barrier after the
/// construct's end. The barrier belongs inside the construct: tasks created
/// in the construct and waited for at its barrier must reach the
/// construct's end node (every node reachable from a begin node reaches its
/// end node). True if Next, the event right after Prev in one task's
/// program order, is such a barrier of Prev's construct. The end of a
/// parallel region's implicit barrier is not: it follows the region's last
/// construct but belongs to the region.
inline bool barrierClosesWork(KindSub Prev, KindSub Next) {
  return Prev.Kind == EventKind::WorkEnd &&
         isTeamWork(static_cast<WorkKind>(Prev.Sub)) &&
         Next.Kind == EventKind::SyncBegin &&
         isBarrier(static_cast<SyncKind>(Next.Sub)) &&
         static_cast<SyncKind>(Next.Sub) != SyncKind::BarrierImplicitParallel;
}

/// Whether adjustLibompOrder may move E or what follows it: E starts one
/// of the patterns it rewrites (a team worksharing construct's end, which
/// its barrier may follow; a taskgroup's begin, which a taskloop may
/// follow). A strand with no such event is in the graph's order as
/// reported, so a reader may skip adjusting it (the builder does, per task).
inline bool startsLibompReorder(KindSub E) {
  return (E.Kind == EventKind::WorkEnd &&
          isTeamWork(static_cast<WorkKind>(E.Sub))) ||
         (E.Kind == EventKind::SyncBegin &&
          static_cast<SyncKind>(E.Sub) == SyncKind::Taskgroup);
}

/// Puts one task's strand (Order: positions of its events, in program
/// order; KindOf(position) -> KindSub) into the graph's order:
///  - WorkEnd, barrier begin -> barrier begin, WorkEnd (barrierClosesWork);
///  - taskgroup begin, taskloop begin ... taskloop end, taskgroup end ->
///    taskloop begin, taskgroup begin ... taskgroup end, taskloop end: libomp
///    reports a taskloop's implicit taskgroup around the taskloop; it belongs
///    inside it, for the same reason.
template <class Pos, class KindOfFn>
void adjustLibompOrder(std::vector<Pos> &Order, KindOfFn &&KindOf) {
  auto isTaskloop = [&](std::size_t I, EventKind K) {
    KindSub E = KindOf(Order[I]);
    return E.Kind == K && static_cast<WorkKind>(E.Sub) == WorkKind::Taskloop;
  };
  auto isTaskgroup = [&](std::size_t I, EventKind K) {
    KindSub E = KindOf(Order[I]);
    return E.Kind == K && static_cast<SyncKind>(E.Sub) == SyncKind::Taskgroup;
  };
  for (std::size_t I = 0; I + 1 < Order.size(); ++I) {
    if (!startsLibompReorder(KindOf(Order[I])))
      continue; // (what makes skipping such a strand safe)
    if (barrierClosesWork(KindOf(Order[I]), KindOf(Order[I + 1]))) {
      std::swap(Order[I], Order[I + 1]);
      ++I;
      continue;
    }
    if (isTaskgroup(I, EventKind::SyncBegin) &&
        isTaskloop(I + 1, EventKind::WorkBegin)) {
      // The matching taskloop end, if a taskgroup end follows it.
      int Depth = 0;
      for (std::size_t J = I + 2; J + 1 < Order.size(); ++J) {
        if (isTaskloop(J, EventKind::WorkBegin))
          ++Depth;
        if (isTaskloop(J, EventKind::WorkEnd)) {
          if (Depth-- > 0)
            continue;
          if (isTaskgroup(J + 1, EventKind::SyncEnd)) {
            std::swap(Order[I], Order[I + 1]);
            std::swap(Order[J], Order[J + 1]);
          }
          break;
        }
      }
      ++I;
    }
  }
}

//===----------------------------------------------------------------------===//
// 7. Labels.
//===----------------------------------------------------------------------===//

/// OMPT gives no code address (codeptr_ra NULL) for an implicit task, and
/// none to a worker thread at a parallel region's implicit barrier: such a
/// node or row takes the enclosing construct's label. Returns the code (an
/// address, or a reader's index of one; 0: none) to label with, and whether
/// it was inherited.
template <class Code>
inline std::pair<Code, bool> inheritCode(Code Own, Code Enclosing) {
  return Own ? std::make_pair(Own, false) : std::make_pair(Enclosing, true);
}

/// The construct an implicit barrier is counted under in the analyses'
/// per-construct rows (docs/utils.md, `otter summary`): a parallel region's
/// barrier under the region (the primary thread reports the region's
/// address, workers none); a worksharing construct's barrier
/// (barrier_implicit_workshare) under the worksharing construct its task
/// ended last, which libomp reports before it, with a reduction's own
/// barrier maybe in between; any other under its own address. (The graph
/// keeps one node per barrier instance, labelled with the barrier's own
/// address, and puts the barrier reported right after a construct's end
/// inside the construct: barrierClosesWork.) Codes as in inheritCode;
/// Region, LastWork 0: unknown.
template <class Code>
inline Code implicitBarrierRow(SyncKind K, Code Own, Code Region,
                               Code LastWork) {
  if (K == SyncKind::BarrierImplicitParallel && Region)
    return Region;
  if (K == SyncKind::BarrierImplicitWorkshare && LastWork)
    return LastWork;
  return Own;
}

/// Whether an event of kind K is one of its task's own strand: the task it
/// names runs on the event's thread then (the analyses and the replay's
/// program follow each thread's running task with these). MPI calls count
/// only when Mpi: the analyses count them, the replay's program
/// (utils/otter/sim_program.cpp) does not.
inline bool inOwnStrand(EventKind K, bool Mpi) {
  switch (K) {
  case EventKind::TaskCreate:
  case EventKind::SyncBegin:
  case EventKind::SyncEnd:
  case EventKind::SyncWaitBegin:
  case EventKind::SyncWaitEnd:
  case EventKind::WorkBegin:
  case EventKind::WorkEnd:
  case EventKind::MaskedBegin:
  case EventKind::MaskedEnd:
  case EventKind::Cancel:
    return true;
  case EventKind::MpiCallBegin:
  case EventKind::MpiCallEnd:
    return Mpi;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// 8. Target offload.
//===----------------------------------------------------------------------===//

/// The node a target construct's begin or end makes (docs/offload.md,
/// "The graph"). A `target` region and a `target data` region are a node
/// pair each (RegionBegin, RegionEnd); `target enter data`, `target exit
/// data` and `target update` one node each, made at their begin. The
/// runtime reports a `target data` region as an enter data construct at
/// its entry and an exit data construct at its exit, each with the code
/// address of its own call: DataRegion says that the construct's label is
/// the `target data` directive (without the plugin's labels it is not
/// known, and the region is its enter and exit data nodes). Its pair's end
/// is made at the exit's begin, so that the bytes moved at its exit are on
/// it (bytes go to the node of the construct event they are reported in).
enum class TargetNode : std::uint8_t {
  None,
  RegionBegin,
  RegionEnd,
  EnterData,
  ExitData,
  Update,
};
inline TargetNode targetNodeOf(TargetKind K, bool Begin, bool DataRegion) {
  switch (K) {
  case TargetKind::Target:
  case TargetKind::TargetNowait:
    return Begin ? TargetNode::RegionBegin : TargetNode::RegionEnd;
  case TargetKind::EnterData:
  case TargetKind::EnterDataNowait:
    if (!Begin)
      return TargetNode::None;
    return DataRegion ? TargetNode::RegionBegin : TargetNode::EnterData;
  case TargetKind::ExitData:
  case TargetKind::ExitDataNowait:
    if (!Begin)
      return TargetNode::None;
    return DataRegion ? TargetNode::RegionEnd : TargetNode::ExitData;
  case TargetKind::Update:
  case TargetKind::UpdateNowait:
    return Begin ? TargetNode::Update : TargetNode::None;
  }
  return TargetNode::None;
}

/// The direction of a data operation that moves bytes: +1 to the device,
/// -1 from it, 0 none (an allocation, deletion, association).
inline int transferOf(DataOpKind K) {
  switch (K) {
  case DataOpKind::TransferToDevice:
  case DataOpKind::TransferToDeviceAsync:
    return 1;
  case DataOpKind::TransferFromDevice:
  case DataOpKind::TransferFromDeviceAsync:
    return -1;
  default:
    return 0;
  }
}

} // namespace otter::rules

#endif // OTTER_GRAPH_RULES_H
