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

#include <cstddef>
#include <cstdint>

namespace otter {

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
};

} // namespace otter

#endif // OTTER_CORE_SINK_H
