//===- core/recorder.h - Per-thread event recording (the hot path) *- C++
//-*-===//
//
// Everything an OMPT callback touches: the calling thread's state (found
// through one thread_local pointer), its fixed-size event buffer, and its
// free list of per-task records. No global lock and no allocation in the
// common case; a full buffer is handed to the session's sinks (flush), which
// is the only place that synchronises, and so is a buffer at the thread's
// first event after its periodic flush fell due (OTTER_FLUSH_INTERVAL).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_RECORDER_H
#define OTTER_CORE_RECORDER_H

#include "core/sink.h"
#include "otter/events.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <mutex>
#include <new>
#include <type_traits>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace otter {

/// Per-task record hung off OMPT's task_data->ptr.
struct TaskState {
  TaskId Id;
  std::uint32_t Seq; // next event number in this task's own sequence
  std::uint32_t Flags;
  TaskState *NextFree;
  /// The code address its creation was labelled with, and whether libomp
  /// created it from inside itself (a taskloop's task-generating task: the
  /// tasks it creates belong to the same taskloop).
  std::uint64_t Code;
  bool CreatedInRuntime;
};

struct TaskBlock; // a batch of TaskStates (recorder.cpp)

/// A recording thread's state. Its ThreadInfo (Index, Type) first: what
/// sinks are handed of it. Cache-line aligned: two threads' states never
/// share a line (each is written by its own thread on every event).
struct alignas(64) ThreadState : ThreadInfo {
  Event *Buffer = nullptr;
  std::size_t Count = 0;
  std::size_t Capacity = 0;
  /// Where the fast path stops appending and the next event takes the
  /// general path, which flushes (append): Capacity, or the count at the
  /// event that found the periodic flush due (FlushDue).
  std::size_t Limit = 0;
  /// The raw timestamp (now()) past which the thread's next event flushes
  /// its buffer to disk (OTTER_FLUSH_INTERVAL): compared with each event's
  /// own timestamp, no other clock read. ~0: never (the interval is off).
  std::uint64_t FlushDue = ~std::uint64_t(0);
  std::uint64_t NextLocalId = 0;
  TaskState *FreeTasks = nullptr;
  /// Every batch of task records this thread made, chained: records of
  /// tasks still running (or never ended) are on no free list, and a batch
  /// must stay reachable from the thread's state (leak checkers, and any
  /// later release of a thread's memory) whatever its records became.
  TaskBlock *TaskBlocks = nullptr;
  std::uint64_t Flushes = 0;
  std::uint64_t EventsRecorded = 0;
  /// Task records this thread made (TaskBatch at a time): its own counter,
  /// summed by taskRecords() at the end of the run.
  std::uint64_t TaskRecordsMade = 0;
  /// Set while this thread hands its buffer to the sinks (flush): per
  /// thread, so that flushing threads share no cache line; freezeFlushes()
  /// reads every thread's, through the registration chain below.
  std::atomic<int> FlushUnderWay{0};
  /// The thread registered before this one (a chain only ever pushed to:
  /// walked without a lock, from a signal handler too).
  ThreadState *PrevRegistered = nullptr;
  bool Ended = false;
  /// Room for the event source adapter's own per-thread state, which the
  /// recorder neither reads nor names: the adapter keeps a struct of its
  /// own here (adapterArea<T>()), on the thread's cache lines and with no
  /// allocation. Zeroed when the thread registers; the struct must be
  /// implicit-lifetime (the array's creation creates it) and fit.
  static constexpr std::size_t AdapterAreaBytes = 72;
  alignas(8) std::byte AdapterArea[AdapterAreaBytes] = {};
  /// Held while this thread's buffer is handed to the sinks: by the thread
  /// itself, or by finalize flushing every thread. Per thread, so that
  /// threads encoding their own buffers never wait for each other.
  std::mutex FlushLock;
  /// Where an event the filter stage refuses is written (core/filter.h):
  /// the adapters fill it as they would a buffer slot, and it goes nowhere.
  Event Discard;
};

/// The adapter's struct in T's AdapterArea (see there).
template <class Ext> inline Ext &adapterArea(ThreadState *T) {
  static_assert(sizeof(Ext) <= ThreadState::AdapterAreaBytes &&
                    alignof(Ext) <= 8 &&
                    std::is_trivially_default_constructible_v<Ext> &&
                    std::is_trivially_destructible_v<Ext>,
                "an adapter's per-thread struct must fit AdapterArea and be "
                "implicit-lifetime (trivial)");
  return *std::launder(reinterpret_cast<Ext *>(T->AdapterArea));
}

namespace recorder {

/// Why the fast path may not append an event as it comes: one bit per
/// reason, all clear when it may (fastThread() tests the word, one load).
/// Set and cleared with atomic or / and: no lock, so that the fork and crash
/// handlers may too.
enum GateReason : std::uint32_t {
  GateNotRecording = 0x1, // Active is false
  GateNoTsc = 0x2,        // the clock is not the TSC (set until initClock)
  GateFiltering = 0x4,    // the filter stage is engaged (core/filter.h)
  GatePaused = 0x8,       // recording is paused (core/filter.h; with
                          // GateFiltering): callbacks test it in the word
                          // fastThread(GateWord) read, with no other load
};
extern std::atomic<std::uint32_t> Gate;
inline void closeGate(GateReason R) {
  Gate.fetch_or(R, std::memory_order_relaxed);
}
inline void openGate(GateReason R) {
  Gate.fetch_and(~std::uint32_t(R), std::memory_order_relaxed);
}

/// Recording on or off: set by the session (and the crash and fork
/// handlers, the event sources); false means "do not record". Read and set
/// like an atomic<bool>; setting it also opens or closes the gate.
class RecordingSwitch {
public:
  bool load(std::memory_order O = std::memory_order_seq_cst) const {
    return On.load(O);
  }
  void store(bool V, std::memory_order O = std::memory_order_seq_cst) {
    // Off: the gate closes first; on: it opens last. A fast path never
    // records while the switch says off.
    if (!V)
      closeGate(GateNotRecording);
    On.store(V, O);
    if (V)
      openGate(GateNotRecording);
  }

private:
  std::atomic<bool> On{false};
};
extern RecordingSwitch Active;

/// The calling thread's state. Initial-exec TLS: one load, no call into the
/// dynamic linker (the variable is a single pointer, which fits the static
/// TLS space glibc reserves for dlopen'ed libraries); constinit: no
/// initialisation check either.
extern thread_local constinit ThreadState *CurrentThread
    __attribute__((tls_model("initial-exec")));

/// Timestamps: the CPU's invariant time-stamp counter where there is one
/// (a few cycles to read), converted to CLOCK_MONOTONIC nanoseconds when a
/// buffer is flushed; CLOCK_MONOTONIC itself elsewhere.
extern bool UseTsc;

/// Where flushed buffers go, in this order (any number of sinks). Only
/// while no thread records: at start, in tests.
void setSinks(EventSink **Sinks, std::size_t N);
void setBufferEvents(std::size_t N);

ThreadState *registerThread(std::uint32_t Type);

/// A thread state that is not registered: its events go nowhere (no sink
/// ever sees its buffer, which holds Capacity events and is never
/// flushed). For measuring the recording cost (ompt/calibrate.h): made
/// current on the measuring thread for the measurement only.
ThreadState *makeScratchThread(std::size_t Capacity);
/// Frees a scratch thread's buffer, task records and state.
void releaseScratchThread(ThreadState *T);
/// OTTER's cost of recording one event on this machine in ns, as measured
/// at tool start (0: not measured); stored in the trace's anchor.
void setRecordingCostNs(std::uint32_t Ns);
std::uint32_t recordingCostNs();

/// The calling thread's state, creating it on first use.
inline ThreadState *thisThread() {
  if (ThreadState *T = CurrentThread) [[likely]]
    return T;
  return registerThread(std::uint32_t(ThreadType::Other));
}

/// Process-unique id made from the thread index and a local counter.
inline std::uint64_t newId(ThreadState *T) {
  return makeId(T->Index, ++T->NextLocalId);
}

/// A record from the thread's free list (refilled in batches).
TaskState *refillTasks(ThreadState *T);
inline TaskState *allocTask(ThreadState *T) {
  if (TaskState *S = T->FreeTasks) [[likely]] {
    T->FreeTasks = S->NextFree;
    return S;
  }
  return refillTasks(T);
}
inline void freeTask(ThreadState *T, TaskState *S) {
  S->NextFree = T->FreeTasks;
  T->FreeTasks = S;
}

inline std::uint64_t monotonicNs() {
  timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return std::uint64_t(Ts.tv_sec) * 1000000000ull + std::uint64_t(Ts.tv_nsec);
}

/// Raw timestamp for an event (ticks or ns: see UseTsc).
inline std::uint64_t now() {
#if defined(__x86_64__)
  if (UseTsc) [[likely]]
    return __rdtsc();
#endif
  return monotonicNs();
}

/// Chooses the clock and calibrates the counter; once, at tool start.
void initClock();
/// Raw timestamps to ns (the identity when the clock is not the TSC): for
/// sinks that convert times themselves (EventSink::takesTicks).
const TickScale &tickScale();
/// Converts a raw timestamp to CLOCK_MONOTONIC ns.
std::uint64_t toNs(std::uint64_t Raw);
/// CLOCK_MONOTONIC minus the trace's clock (toNs(now())), sampled now at
/// TraceNs (the trace's time): what the start's short calibration has
/// drifted by so far (0 when the clock is CLOCK_MONOTONIC itself).
std::int64_t clockError(std::uint64_t &TraceNs);

/// Hands T's buffer to the sinks; Persist: then asks them to make every
/// event of the thread so far durable (EventSink::persist). False: flushes
/// are frozen (freezeFlushes), the buffer is as it was.
bool flush(ThreadState *T, bool Persist = false);
/// flush() of the calling thread's buffer when full or when its periodic
/// flush is due (ThreadState::Limit), recording the time it took as OTTER's
/// own (a ToolBegin / ToolEnd pair, otter/event_kinds.def) at the start of
/// the emptied buffer. Persists when the periodic flush is due.
void flushFull(ThreadState *T);

/// OTTER_FLUSH_INTERVAL: each thread's events reach the disk at its first
/// event after Ns nanoseconds since its last such flush (0: only when
/// buffers fill and at the end). After initClock(), before any thread
/// registers.
void setFlushInterval(std::uint64_t Ns);
/// The next FlushDue of a thread whose clock reads Now (raw, as now()).
std::uint64_t nextFlushDue(std::uint64_t Now);
/// Marks the periodic flush due at the thread's next event when Time (the
/// event just appended, now()'s reading) is past the deadline: one compare
/// on the hot path, no call.
[[gnu::always_inline]] inline void noteTime(ThreadState *T,
                                            std::uint64_t Time) {
  if (Time >= T->FlushDue) [[unlikely]]
    T->Limit = T->Count;
}
/// The calling thread's CPU use so far, as a ThreadCpu event (a few system
/// calls: at points that are slow anyway).
void recordThreadCpu(ThreadState *T);

/// Appends one event; flushes when the buffer is full or its periodic
/// flush is due.
inline Event &append(ThreadState *T) {
  if (T->Count >= T->Limit) [[unlikely]] {
    flushFull(T);
    if (T->Count == T->Capacity) // flushes frozen: the run is being saved
      return T->Discard;
  }
  Event &E = T->Buffer[T->Count++];
  E.Time = now();
  noteTime(T, E.Time);
  return E;
}

/// The hot path's gate: the calling thread's state when an event can be
/// appended with no call at all (the Gate open: recording on, the TSC as
/// clock, nothing filtered; thread registered, room in its buffer and no
/// periodic flush due), else
/// nullptr: then the callback takes its general path. GateWord: the gate's
/// word as read, so that a callback's slow branch tests its reasons
/// (GatePaused) with no further load. Callbacks split that way need no
/// stack frame in the common case (no callee-saved registers to save and
/// restore).
[[gnu::always_inline]] inline ThreadState *fastThread(std::uint32_t &GateWord) {
  GateWord = Gate.load(std::memory_order_relaxed);
#if defined(__x86_64__)
  ThreadState *T = CurrentThread;
  if (GateWord || !T || T->Count >= T->Limit) [[unlikely]]
    return nullptr;
  return T;
#else
  return nullptr;
#endif
}
[[gnu::always_inline]] inline ThreadState *fastThread() {
  std::uint32_t GateWord;
  return fastThread(GateWord);
}

/// The clock on the fast path (after fastThread(): the counter).
[[gnu::always_inline]] inline std::uint64_t nowFast() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return now();
#endif
}

/// Appends one event after fastThread() said there is room.
[[gnu::always_inline]] inline Event &appendFast(ThreadState *T) {
  Event &E = T->Buffer[T->Count++];
  E.Time = nowFast();
  noteTime(T, E.Time);
  return E;
}

/// The event appended last by this thread and still in its buffer, if it
/// is of kind K for task Task (a sync region and its wait that begin or end
/// together are folded into one event).
inline Event *lastEventIf(ThreadState *T, EventKind K, TaskId Task) {
  if (T->Count == 0)
    return nullptr;
  Event &E = T->Buffer[T->Count - 1];
  return E.Kind == K && E.Task == Task ? &E : nullptr;
}

/// The largest difference in clock ticks between a task's creation and the
/// switch to it that the adapter folds into the creation's event
/// (CreateSwitchFolded, otter/events.h): ~5 ms at 3 GHz, and in ns still
/// below CreateSwitchMaxDelta for any counter faster than 8 MHz.
inline constexpr std::uint64_t CreateSwitchMaxTicks = std::uint64_t(1) << 24;
/// The same for the difference between a taskwait's begin and its end
/// (SyncEndFolded): in ns below SyncEndMaxDelta for any counter faster than
/// 32 MHz.
inline constexpr std::uint64_t SyncEndMaxTicks = std::uint64_t(1) << 24;

/// The event appended last by this thread, if it is the creation of task
/// Child by task Creator, with no switch folded into it yet: the switch from
/// Creator to Child may be folded into it (fast path only: there the clock
/// is the counter, read here).
[[gnu::always_inline]] inline Event *
lastCreateOf(ThreadState *T, TaskId Creator, TaskId Child) {
  if (!T->Count)
    return nullptr;
  Event &E = T->Buffer[T->Count - 1];
  return E.Kind == EventKind::TaskCreate && E.A == Child && E.Task == Creator &&
                 !E.Extra
             ? &E
             : nullptr;
}

/// Task records made (in batches) and not on any thread's free list: the
/// records of tasks whose end was not reported yet. For OTTER_VERBOSE, at
/// the end of the run (walks every free list: other threads are idle).
struct TaskRecordCount {
  std::uint64_t Made = 0;
  std::uint64_t InUse = 0;
};
TaskRecordCount taskRecords();

/// Flushes every registered thread (finalize: other threads are idle).
void flushAll();

/// Before a forked copy of the process saves the run while other threads
/// may still run (a crash, a termination signal, exit() in a parallel
/// region, MPI_Abort): no flush may be half done, or the copy would wait
/// forever on a lock whose holder does not exist in it. Stops new flushes
/// (a full buffer's next events are dropped) and waits up to DeadlineMs for
/// those under way. Async-signal-safe. False: one did not end in time.
bool freezeFlushes(unsigned DeadlineMs);
/// In the copy (one thread: nothing under way): flushes work again.
void thawFlushesInChild();
/// Number of registered threads and a snapshot of them.
std::size_t threadCount();
ThreadState *threadAt(std::size_t I);

} // namespace recorder
} // namespace otter

#endif // OTTER_CORE_RECORDER_H
