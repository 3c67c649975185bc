//===- core/ingest_queue.h - Flushed buffers ingested aside -*- C++ -*-===//
//
// The graph's ingest (reducing each flushed event to what the builder
// keeps: graph/builder_store.h) cost the application's thread 0.13 s on fib
// 30 (1 thread, 10.8 M events), while the machine's other core idled for
// the whole run. IngestQueue moves it off: the recorder's flush hands the
// full buffer itself to the queue (EventSink::adopt, no copy) and gets an
// empty one back; a background thread, at the lowest priority (SCHED_IDLE:
// it runs only on a core nothing else wants, so a program using every core
// is not slowed), converts the buffer's times and ingests it.
//
// Per application thread (a channel, found without a lock): a ring of full
// buffers (the thread pushes, the ingester pops) and a ring of empty ones
// coming back (the other way round), so a flush takes no lock and shares no
// cache line with another application thread. Who ingests a channel's
// buffers is claimed per chunk of a buffer (Owner): normally the background
// thread; the application thread itself when its ring is full (the
// background thread is behind: it waits at most for the one chunk being
// ingested, then ingests the rest in order) or when there is no background
// thread (not started, stopped, or this is a forked copy of the process,
// where it does not exist). A channel's buffers are ingested in flush order,
// one chunk at a time, so the ingest sees each thread's events as it did
// when the flush ingested them itself.
//
// The background thread takes its malloc arena as it starts (start() waits
// for it): made later, its first allocation would take the arena of a
// pthread running OpenMP that had ended, memory libomp 19 still writes
// into (ingest_queue.cpp, run()).
//
// Under an address-space limit (ulimit -v) there is no background thread:
// the program's threads need the room, and the flushes ingest as before.
// Only the first few threads' channels are asynchronous (MaxAsyncThreads):
// a program of many threads leaves no core idle, one background thread
// could not keep up with them, and each channel costs buffers (at most
// Ring + Ring of the thread's buffer size).
//
// Forks: the session's copies of the process (trace/crash.h: the end of the
// run at exit() inside a parallel region, on SIGTERM, otter_end) build the
// graph in the copy, where the background thread does not exist. freeze()
// (async-signal-safe, before the fork) closes the gate (Gate) the thread
// passes before each chunk and waits for the chunk under way, if any, to
// end; the copy's stop() ingests what is queued, from the first event no
// chunk ingested. The thread runs at SCHED_IDLE: on a busy machine it may
// get no CPU for a while, so the wait is bounded (a chunk is ~0.1 ms of
// work once the thread runs); if it is still inside a chunk at the fork,
// that buffer is lost to the copy: stop() returns false and the graph is
// not written (the session says so; the trace is complete). The parent is
// not thawed: the session's copies are made at the end of recording, and
// the parent's flushes stay frozen too (recorder.h, freezeFlushes).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_INGEST_QUEUE_H
#define OTTER_CORE_INGEST_QUEUE_H

#include "core/sink.h"
#include "otter/events.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <pthread.h>
#include <sys/types.h>

namespace otter {

class IngestQueue {
public:
  /// Ingests Thread's events; calls for one thread never overlap, calls for
  /// different threads may.
  using IngestFn =
      std::function<void(std::uint32_t Thread, const Event *E, std::size_t N)>;
  static constexpr unsigned Ring = 4;
  static constexpr std::uint32_t MaxAsyncThreads = 4;
  /// Events the background thread ingests per claim of a channel: a freeze
  /// before a fork waits for one chunk at most (~0.1 ms of work), and a copy
  /// of the process goes on after the chunks already ingested.
  static constexpr std::size_t Chunk = 1024;

  /// Scale: converts the times of buffers adopted in ticks.
  IngestQueue(IngestFn Fn, const TickScale &Scale);
  ~IngestQueue();
  IngestQueue(const IngestQueue &) = delete;
  IngestQueue &operator=(const IngestQueue &) = delete;

  /// Starts the background thread; false if it cannot be made (every
  /// buffer is then ingested by the thread that flushes it).
  bool start();
  /// A flush of thread Thread (calls for one thread never overlap): takes
  /// Buffer (N events, room for Capacity; times in ticks if Ticks) and
  /// returns the buffer the thread records into next (Buffer itself if it
  /// was ingested at once, else an empty one of the same capacity).
  Event *adopt(std::uint32_t Thread, Event *Buffer, std::size_t N,
               std::size_t Capacity, bool Ticks);
  /// Stops the background thread (if this process has it) and ingests what
  /// is queued on the calling thread; every later adopt() ingests at once.
  /// False: a buffer was lost (see the file comment).
  bool stop();
  /// Before a fork (async-signal-safe): waits up to DeadlineMs for the
  /// background thread to be between two chunks, and keeps it there.
  void freeze(unsigned DeadlineMs);

  struct Channel; // ingest_queue.cpp

private:
  Channel *channel(std::uint32_t Thread, std::size_t Capacity);
  bool drain(Channel &C, bool Reuse);
  void ingest(std::uint32_t Thread, Event *E, std::size_t N, bool Ticks);
  void run();
  void wake();

  IngestFn Fn;
  TickScale Scale;
  pthread_t Worker{};
  bool HasWorker = false;
  pid_t Pid = 0; // the process whose thread Worker is
  std::atomic<bool> Running{false}, Stop{false};
  /// Set by the background thread once it has its malloc arena (run()).
  std::atomic<bool> HasArena{false};
  /// The background thread's chunk (Working, set only by that thread) and
  /// freeze() (Frozen) in one word: the thread opens a chunk only while
  /// the word is 0, so once freeze() has set Frozen and seen no Working, no
  /// chunk is under way, nor will one start.
  static constexpr std::uint32_t Working = 1, Frozen = 2;
  std::atomic<std::uint32_t> Gate{0};
  std::atomic<bool> Lost{false};
  std::atomic<std::uint32_t> Work{0}; // bumped at each push (futex word)
  std::atomic<std::uint32_t> Sleeping{0};
  std::atomic<Channel *> Channels[MaxAsyncThreads] = {};
};

} // namespace otter

#endif // OTTER_CORE_INGEST_QUEUE_H
