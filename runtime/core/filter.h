//===- core/filter.h - The filter stage before the buffers -----*- C++ -*-===//
//
// The one place that decides whether an event is recorded, between the
// adapters that make events (the OMPT callbacks in ompt/tool.cpp, the event
// sources of otter/source.h such as the MPI wrappers) and the per-thread
// buffers that feed the sinks. Selective tracing (filter rules by event
// group, by kind, by code address: the plugin's region of a construct, its
// file, its function) and pausing (omp_control_tool) are set here, and
// nowhere else needs to know about them.
//
// Cost: nothing while nothing is filtered. Engaging the stage closes the
// recorder's gate (recorder::Gate): the callbacks leave their fast path,
// and their general path asks admit() for each event it would append. An
// event refused is written into the thread's discard slot, so the adapter
// keeps its own state (task records, ids) exactly as if it had been
// recorded.
//
// Groups follow the callback groups of an OMPT registration table (as
// Score-P's OMPT adapter has them): ompt/registration.h says which callback
// is in which group, whether the adapter needs it, and what its refusal
// disables. A group filtered out entirely is not even registered, where the
// adapter does not need it (registration.h).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_FILTER_H
#define OTTER_CORE_FILTER_H

#include "otter/event_info.h"
#include "otter/events.h"
#include "otter/label.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace otter {

/// A set of groups: bit 1 << group.
using GroupSet = std::uint32_t;
constexpr GroupSet groupBit(EventGroup G) { return GroupSet(1) << unsigned(G); }
constexpr GroupSet AllGroups = (GroupSet(1) << unsigned(EventGroup::Count)) - 1;

/// "tasks", "mutex", ...
const char *eventGroupName(EventGroup G);
/// "tasks, mutex" (empty set: "").
std::string groupSetText(GroupSet S);
/// The group of an event kind (every kind has one; from its row in
/// otter/event_kinds.def).
EventGroup eventGroupOf(EventKind K);

inline constexpr std::size_t EventKindCount =
    std::size_t(EventKind::LastKind) + 1;

namespace filter {

/// What is not recorded; everything is by default. Rules are set once, at
/// tool start, before any thread records (issue 10's filter file compiles
/// into them); pausing may change at any time.
struct Rules {
  /// Groups not recorded at all.
  GroupSet Groups = 0;
  /// Kinds not recorded, by sub-kind: bit S of Subs[K] drops events of kind
  /// K whose Sub is S (S >= 31: bit 31); ~0u drops every event of kind K.
  /// E.g. taskwait alone: the Sync kinds with bit SyncKind::Taskwait.
  std::array<std::uint32_t, EventKindCount> Subs{};
  /// Code addresses not recorded: true drops every event labelled with the
  /// address (a construct's call site). Asked once per distinct address,
  /// from whichever callback sees it first (it may take locks and
  /// allocate); the answer is kept. Null: no address is dropped.
  std::function<bool(std::uint64_t Code)> DropCode;

  bool empty() const;
};

/// Installs R (replacing any rules). Engages the stage unless R is empty
/// and recording is not paused. Only while no thread records.
void install(Rules R);
/// The rules installed.
const Rules &rules();

/// Pauses or resumes recording (thread-safe, any time). While paused only
/// the Threads group is recorded (a thread's begin and end cost nothing
/// and name its location).
void setPaused(bool Paused);
bool paused();
/// The flag paused() reads, for the adapters' general path: a paused
/// callback asks nothing more (core/filter.cpp sets it).
extern std::atomic<bool> PausedFlag;
inline bool pausedNow() { return PausedFlag.load(std::memory_order_relaxed); }

/// The gap: tasks created while recording is paused ("gap tasks") share
/// one record in the OMPT adapter and are never recorded, nor is anything
/// they do, even after recording starts again (docs/trace.md, "Tool
/// control"). Their record is only safe on the adapter's general path, so
/// the stage stays engaged (the gate closed) after a start until every gap
/// task has completed. Each thread counts the gap tasks it created and
/// completed (its own counters: no cache line shared between threads); a
/// start, and each completion after it, sums them.
struct GapCount {
  std::atomic<std::uint64_t> Created{0}, Done{0};
};
GapCount *registerGapCount();
extern thread_local constinit GapCount *MyGapCount
    __attribute__((tls_model("initial-exec")));
inline GapCount *gapCount() {
  if (GapCount *G = MyGapCount) [[likely]]
    return G;
  return registerGapCount();
}
/// Closes the gap (and opens the gate) when recording is on and every gap
/// task has completed.
void closeGap();
/// Counts a gap task the calling thread creates while paused; false when
/// recording started meanwhile (the task is then recorded as any other).
/// The fence pairs with the start's: a start that sums the counters either
/// sees this task or this thread sees the start.
inline bool gapTaskCreated() {
  GapCount *G = gapCount();
  G->Created.store(G->Created.load(std::memory_order_relaxed) + 1,
                   std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (PausedFlag.load(std::memory_order_seq_cst)) [[likely]]
    return true;
  G->Created.store(G->Created.load(std::memory_order_relaxed) - 1,
                   std::memory_order_relaxed);
  closeGap(); // a start may have seen the count just undone
  return false;
}
/// Counts a gap task created by a gap task (paused or not: the creator is
/// still counted, so the gap cannot close meanwhile).
/// (The first on a thread registers its counters: a tail call, so that the
/// callers need no stack frame.)
void gapChildCreatedFirst();
inline void gapChildCreated() {
  GapCount *G = MyGapCount;
  if (!G) [[unlikely]]
    return gapChildCreatedFirst();
  G->Created.store(G->Created.load(std::memory_order_relaxed) + 1,
                   std::memory_order_relaxed);
}
/// Counts a gap task's completion; after a start, closes the gap with the
/// last one.
void gapTaskDoneFirst();
inline void gapTaskDone() {
  GapCount *G = MyGapCount;
  if (!G) [[unlikely]]
    return gapTaskDoneFirst();
  G->Done.store(G->Done.load(std::memory_order_relaxed) + 1,
                std::memory_order_release);
  if (!PausedFlag.load(std::memory_order_relaxed)) [[unlikely]]
    closeGap();
}
/// The same from a callback that found recording paused (GatePaused in the
/// gate word it read): no second look at the flag. Should the start come
/// in between and miss this count, the gap stays open until the next
/// completion or gapCheck() closes it.
inline void gapTaskDonePaused() {
  GapCount *G = MyGapCount;
  if (!G) [[unlikely]]
    return gapTaskDoneFirst();
  G->Done.store(G->Done.load(std::memory_order_relaxed) + 1,
                std::memory_order_release);
}
/// Open after a start (gap tasks may be left); general paths call
/// gapCheck() at rare points (a parallel region's end).
extern std::atomic<bool> GapOpen;
inline void gapCheck() {
  if (GapOpen.load(std::memory_order_relaxed) &&
      !PausedFlag.load(std::memory_order_relaxed)) [[unlikely]]
    closeGap();
}

/// Whether anything can be refused (rules set, paused, or gap tasks left
/// after a start): the adapters ask admit() only then. One relaxed load.
extern std::atomic<bool> Engaged;
inline bool engaged() { return Engaged.load(std::memory_order_relaxed); }

/// Whether to record an event of kind K, sub-kind Sub, labelled Code (0:
/// none; the Code of an MPI payload is no code address and is not asked
/// about). No lock and no allocation, but the first time a code address is
/// asked about while a DropCode rule is set.
bool admit(EventKind K, std::uint16_t Sub, std::uint64_t Code);

/// A DropCode rule over the plugin's region ids: drops the addresses whose
/// label (Resolve: the session's site index) has one of RegionIds.
std::function<bool(std::uint64_t)>
dropRegions(std::function<SourceLabel(std::uint64_t)> Resolve,
            std::vector<std::uint64_t> RegionIds);

} // namespace filter
} // namespace otter

#endif // OTTER_CORE_FILTER_H
