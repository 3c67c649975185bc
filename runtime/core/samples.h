//===- core/samples.h - Sampling: per-thread rings, timers, output -*- C++ -*-===//
//
// The sampling mode's state outside the signal handler (which is the event
// source's: ompt/sampler.cpp). Each sampled thread has a SampleThread: its
// ring (core/sample_ring.h, mapped at the thread's start, written only by
// the handler), its stack bounds for the handler's unwind, its timer
// (timer_create, SIGEV_THREAD_ID: the signal goes to that thread only) and
// what was drained from the ring so far. The rings are drained by their
// thread at its end and by the session at the end of the run; the sample
// sink (sample_sink.cpp) writes samples.csv and modules.csv from them.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_SAMPLES_H
#define OTTER_CORE_SAMPLES_H

#include "core/sample_ring.h"

#include <atomic>
#include <cstdint>
#include <ctime>
#include <mutex>
#include <string>
#include <vector>

namespace otter {

struct SampleThread {
  SampleRing Ring;
  std::uint32_t ThreadIndex = 0; // the recorder's index of the thread
  /// The thread's stack, [StackLow, StackHigh): the unwind reads no frame
  /// outside it.
  std::uintptr_t StackLow = 0, StackHigh = 0;
  timer_t Timer{};
  bool HasTimer = false;
  /// Where the handler's unwind goes on inside an MPI call (0: none):
  /// otter_source_sample_resume (otter/source.h); [0] the wrapper's frame,
  /// [1] an address in the wrapper plus one. Written by the thread,
  /// read by the handler on the same thread.
  volatile std::uintptr_t Resume[2] = {0, 0};
  /// Set while the handler may sample this thread.
  std::atomic<bool> Live{false};
  /// Taken by whoever drains (never by the handler).
  std::mutex DrainLock;
  /// Drained samples, compacted: per sample a header of SampleWords words
  /// (time, state|depth<<32|flags<<48, wait id, task, exit frame, enter
  /// frame, weight, region) and then Depth frames.
  std::vector<std::uint64_t> Drained;
  /// Words of Drained already written into the trace (core/trace_sink.cpp;
  /// under DrainLock).
  std::size_t TraceCursor = 0;
  /// Words of Drained already appended to samples.csv (the sample sink,
  /// sample_sink.cpp; under DrainLock).
  std::size_t CsvCursor = 0;
  std::uint64_t Count = 0;
  Sample *Slots = nullptr;
  std::size_t SlotBytes = 0;
};

namespace samples {

inline constexpr unsigned SampleWords = 8;
/// One sample of SampleThread::Drained, decoded.
struct DrainedSample {
  std::uint64_t Time = 0, WaitId = 0, Task = 0, ExitFrame = 0, EnterFrame = 0,
                Weight = 1, Region = 0;
  std::uint32_t State = 0;
  unsigned Depth = 0, Flags = 0;
  const std::uint64_t *Frames = nullptr; // Depth code addresses
};

/// Calls Fn(Sample, End) for each whole sample of D from word Begin on,
/// oldest first, at most Most of them; End: the word after it (where the
/// next one begins).
template <typename F>
void forEachDrained(const std::vector<std::uint64_t> &D, std::size_t Begin,
                    F &&Fn, std::size_t Most = ~std::size_t(0)) {
  for (std::size_t I = Begin; Most && I + SampleWords <= D.size(); --Most) {
    DrainedSample X;
    X.Time = D[I];
    X.State = std::uint32_t(D[I + 1]);
    X.Depth = unsigned(D[I + 1] >> 32) & 0xffff;
    X.Flags = unsigned(D[I + 1] >> 48);
    X.WaitId = D[I + 2];
    X.Task = D[I + 3];
    X.ExitFrame = D[I + 4];
    X.EnterFrame = D[I + 5];
    X.Weight = D[I + 6];
    X.Region = D[I + 7];
    I += SampleWords;
    if (I + X.Depth > D.size())
      return;
    X.Frames = D.data() + I;
    I += X.Depth;
    Fn(static_cast<const DrainedSample &>(X), I);
  }
}

/// Slots per thread: ~8 s of samples at 1 kHz between two drains; the
/// pages are committed only as the handler first touches them.
inline constexpr std::size_t RingSlots = 8192;

/// Sampling as configured: Hz samples per second per thread of the chosen
/// clock, sent as signal Signal. Set once at start (before any thread is
/// added).
void configure(unsigned Hz, bool Wall, int Signal);
unsigned rate();
/// The sampling signal's handler, once installed (the event source's);
/// handlerReplaced(): the program has installed another one since (its
/// samples were lost: the signal went to the program's handler).
void setHandler(void *Handler);
bool handlerReplaced();
int signal();

/// The calling thread's sampling state, made and its timer started (off
/// the hot path: thread start). Null if sampling is off, the thread is
/// sampled already, or something failed (the thread is then not sampled).
/// \p Current: where the handler finds it (the event source's
/// thread-local pointer), set before the timer starts.
SampleThread *startThread(std::uint32_t ThreadIndex,
                          SampleThread *&Current);
/// The calling thread is ending: its timer deleted, its ring drained.
void endThread(SampleThread *&Current);
/// Drains one thread's ring into its Drained samples.
void drain(SampleThread *S);
/// The end of the run: every timer deleted, every ring drained.
void stopAll();
/// Every thread's state (for the sink), and the samples dropped because a
/// ring was full.
std::vector<SampleThread *> threads();
/// The state of the thread of recorder index ThreadIndex (null: not
/// sampled).
SampleThread *find(std::uint32_t ThreadIndex);
std::uint64_t dropped();

} // namespace samples
} // namespace otter

#endif // OTTER_CORE_SAMPLES_H
