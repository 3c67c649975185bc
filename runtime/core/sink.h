//===- core/sink.h - What consumes flushed event buffers ------*- C++ -*-===//
//
// The interface between the recorder and whatever consumes its buffers (the
// graph builder, the OTF2 writer, a test's collector): a sink sees a
// thread's events in order, a buffer at a time, with the little it needs to
// know about the thread. Sinks know nothing of OMPT nor of the recorder's
// per-thread state; the runtime's sinks and their registry are in
// core/sinks.h.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_SINK_H
#define OTTER_CORE_SINK_H

#include "otter/events.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace otter {

/// Time-stamp counter ticks to CLOCK_MONOTONIC ns: Ns = NsBase + ((Tick -
/// TickBase) * Mult) >> 32. The default is the identity (times that are ns
/// already).
struct TickScale {
  std::uint64_t TickBase = 0, NsBase = 0, Mult = std::uint64_t(1) << 32;
  std::uint64_t toNs(std::uint64_t Tick) const {
    if (Tick >= TickBase) [[likely]]
      return NsBase +
             std::uint64_t(((unsigned __int128)(Tick - TickBase) * Mult) >> 32);
    std::uint64_t Back =
        std::uint64_t(((unsigned __int128)(TickBase - Tick) * Mult) >> 32);
    return Back < NsBase ? NsBase - Back : 0;
  }
  bool identity() const {
    return TickBase == 0 && NsBase == 0 && Mult == std::uint64_t(1) << 32;
  }
};

/// Converts the times of E[0..N) from ticks to ns with S (the recorder's
/// pass for the sinks that do not take ticks, and the graph's ingest
/// thread's: core/ingest_queue.h).
inline void ticksToNs(const TickScale &Scale, Event *E, std::size_t N) {
  const TickScale S = Scale; // a copy: the stores to E cannot change it
  for (Event *End = E + N; E != End; ++E) {
    const std::uint64_t Tick = E->Time;
    E->Time = S.toNs(Tick);
    // A folded creation's switch is Extra >> 1 ticks later, a folded
    // taskwait's end Extra >> SyncEndShift: in ns too (the adapter
    // folds no more than CreateSwitchMaxTicks).
    if (!(E->Extra & CreateSwitchFolded)) [[likely]]
      continue;
    if (E->Kind == EventKind::TaskCreate) {
      const std::uint64_t D = S.toNs(Tick + (E->Extra >> 1)) - E->Time;
      E->Extra = std::uint32_t(std::min<std::uint64_t>(D, CreateSwitchMaxDelta))
                     << 1 |
                 CreateSwitchFolded;
    } else if (E->Kind == EventKind::SyncBegin &&
               (E->Extra & SyncWaitEndFolded)) {
      const std::uint32_t Flags = E->Extra & ((1u << SyncEndShift) - 1);
      const std::uint64_t D =
          S.toNs(Tick + (E->Extra >> SyncEndShift)) - E->Time;
      E->Extra = std::uint32_t(std::min<std::uint64_t>(D, SyncEndMaxDelta))
                     << SyncEndShift |
                 Flags;
    }
  }
}

/// What a sink knows of the thread whose events it is handed.
struct ThreadInfo {
  /// The thread's index in the process, from 0 in registration order: its
  /// OTF2 location and the high bits of the ids it makes (otter/events.h).
  std::uint32_t Index = 0;
  /// Its ThreadType (initial, worker, other), for the location's name.
  std::uint32_t Type = 0;
};

class EventSink {
public:
  virtual ~EventSink() = default;
  /// Called with a thread's buffer when full, at thread end and finalize;
  /// calls for one thread never overlap, calls for different threads may.
  /// Must not throw, block for long or end the process: it runs on the
  /// application's thread (out of memory: drop, count, report at the end).
  virtual void consume(const ThreadInfo &T, const Event *Events,
                       std::size_t N) = 0;
  /// True: this sink is handed the events' times as the recorder read them
  /// (time-stamp counter ticks, when that is the clock) and converts them
  /// itself (the OTF2 writer, per event as it encodes it); the recorder
  /// converts a buffer in a pass of its own only for the other sinks.
  virtual bool takesTicks() const { return false; }
  /// After a periodic flush's consume() (OTTER_FLUSH_INTERVAL): makes what
  /// this sink holds of thread T durable, so that a process killed later
  /// (SIGKILL) keeps it. Same thread and rules as consume(); rare (every
  /// few seconds per thread).
  virtual void persist(const ThreadInfo & /*T*/) {}
  /// True: instead of consume(), this sink takes the buffer itself: adopt()
  /// is handed it after every other sink consumed it, with its times in
  /// ticks if Ticks (to convert with the recorder's TickScale), and returns
  /// the buffer the thread records into next (Buffer, or another of
  /// Capacity events). Calls for one thread never overlap. At most one sink
  /// adopts (the graph's: core/ingest_queue.h).
  virtual bool adoptsBuffers() const { return false; }
  virtual Event *adopt(const ThreadInfo &T, Event *Buffer, std::size_t N,
                       std::size_t /*Capacity*/, bool /*Ticks*/) {
    consume(T, Buffer, N);
    return Buffer;
  }
};

} // namespace otter

#endif // OTTER_CORE_SINK_H
