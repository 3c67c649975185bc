//===- core/sample_ring.h - A thread's ring of samples ------------*- C++ -*-===//
//
// Where a sampling signal handler writes (ompt/sampler.cpp): a ring of
// fixed-size slots with one producer, the handler on the sampled thread,
// and one consumer at a time, the drain (the thread itself at its end, or
// the session at the end of the run, under the ring's drain lock). The
// producer takes no lock, makes no call and allocates nothing: it fills
// the slot at Head and then publishes it (a release store); a full ring
// counts the sample as dropped. The event buffers (core/recorder.h) are
// never touched by the handler, so a signal in the middle of an event's
// record cannot damage it.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_SAMPLE_RING_H
#define OTTER_CORE_SAMPLE_RING_H

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace otter {

/// One sample as the handler writes it: 256 bytes.
struct Sample {
  static constexpr unsigned MaxFrames = 24;
  std::uint64_t Time = 0;  // raw timestamp (recorder::now())
  std::uint32_t State = 0; // ompt_state_t
  std::uint16_t Depth = 0; // Frames used, innermost first
  std::uint16_t Flags = 0; // SampleTruncated, ...
  std::uint64_t WaitId = 0;
  std::uint64_t Task = 0;      // OTTER's id of the current task (0: none)
  std::uint64_t ExitFrame = 0; // the current task's OMPT frames (0: none)
  std::uint64_t EnterFrame = 0;
  /// Timer periods the sample stands for: 1 plus the expirations the
  /// kernel merged into its signal while the thread could not take it
  /// (descheduled, the signal blocked): the time is not lost, and a
  /// thread that often waits off the CPU is not under-counted.
  std::uint32_t Weight = 1;
  std::uint32_t Reserved = 0;
  /// The code address of the current task's construct (0: not known): a
  /// parallel region's fork call (SampleRegionImplicit) or a task's
  /// creation, so that a body the construct's outlined function
  /// tail-called, whose frame is gone, still has its construct.
  std::uint64_t Region = 0;
  std::uint64_t Frames[MaxFrames] = {}; // code addresses
};
static_assert(sizeof(Sample) == 256);

/// Sample::Flags: the unwind stopped at MaxFrames, not at the stack's end.
inline constexpr std::uint16_t SampleTruncated = 1;
/// Sample::Flags: the unwind went past frames of the OpenMP runtime (from
/// the interrupted instruction, or where the frame chain broke, to a task's
/// enter frame): Frames[0] may be in the runtime, the frames after it are
/// the user's call path.
inline constexpr std::uint16_t SampleRuntimeSkipped = 2;
/// Sample::Flags: Region is a parallel region's (the current task is an
/// implicit task), not a task's creation.
inline constexpr std::uint16_t SampleRegionImplicit = 4;

/// A single-producer ring of Capacity (a power of two) samples over
/// storage the owner provides (ompt/sampler.cpp maps it; tests use an
/// array).
class SampleRing {
public:
  SampleRing() = default;
  SampleRing(Sample *Slots, std::size_t Capacity) { reset(Slots, Capacity); }
  void reset(Sample *Slots, std::size_t Capacity) {
    this->Slots = Slots;
    Mask = Capacity - 1;
    Head.store(0, std::memory_order_relaxed);
    Tail.store(0, std::memory_order_relaxed);
  }
  std::size_t capacity() const { return Slots ? Mask + 1 : 0; }

  /// Producer (async-signal-safe): the slot to fill, or nullptr when the
  /// ring is full (the sample is counted as dropped). publish() makes it
  /// visible to the consumer; a slot not published is overwritten by the
  /// next sample.
  Sample *claim() {
    const std::uint64_t H = Head.load(std::memory_order_relaxed);
    if (!Slots || H - Tail.load(std::memory_order_acquire) > Mask) {
      Dropped.store(Dropped.load(std::memory_order_relaxed) + 1,
                    std::memory_order_relaxed);
      return nullptr;
    }
    return &Slots[H & Mask];
  }
  void publish() {
    Head.store(Head.load(std::memory_order_relaxed) + 1,
               std::memory_order_release);
  }

  /// Consumer (one at a time): calls F(const Sample &) for every published
  /// sample, oldest first, and frees their slots. Returns their number.
  template <class Fn> std::size_t drain(Fn &&F) {
    const std::uint64_t H = Head.load(std::memory_order_acquire);
    std::uint64_t T = Tail.load(std::memory_order_relaxed);
    const std::size_t N = std::size_t(H - T);
    for (; T != H; ++T)
      F(static_cast<const Sample &>(Slots[T & Mask]));
    Tail.store(T, std::memory_order_release);
    return N;
  }
  std::uint64_t dropped() const {
    return Dropped.load(std::memory_order_relaxed);
  }

private:
  Sample *Slots = nullptr;
  std::uint64_t Mask = 0;
  std::atomic<std::uint64_t> Head{0}; // written by the producer only
  std::atomic<std::uint64_t> Tail{0}; // written by the consumer only
  std::atomic<std::uint64_t> Dropped{0};
};

} // namespace otter

#endif // OTTER_CORE_SAMPLE_RING_H
