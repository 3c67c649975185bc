//===- core/recorder.cpp - Per-thread event recording --------------------===//
//
// Slow paths of the recorder: thread registration, buffer flush, free-list
// refill. The registry mutex is taken once per thread (registration) and at
// finalize, never per event.
//
//===----------------------------------------------------------------------===//
#include "core/recorder.h"
#include "core/write_guard.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <new>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <vector>

namespace otter {
/// Task records are made this many at a time, and chained per thread.
constexpr std::size_t TaskBatch = 1024;
struct TaskBlock {
  TaskBlock *Next;
  TaskState Records[TaskBatch];
};
} // namespace otter

namespace otter::recorder {

constinit std::atomic<std::uint32_t> Gate{GateNotRecording | GateNoTsc};
constinit RecordingSwitch Active;
thread_local constinit ThreadState *CurrentThread
    __attribute__((tls_model("initial-exec"))) = nullptr;
bool UseTsc = false;

namespace {

// TSC -> ns (the identity until calibrated).
TickScale Scale;

std::mutex RegistryMutex;
std::vector<ThreadState *> &registry() {
  static auto *R = new std::vector<ThreadState *>(); // never destroyed:
  return *R; // threads may outlive static destructors
}
std::atomic<std::uint32_t> NextIndex{0};
/// The last registered thread; each points at the one before it.
std::atomic<ThreadState *> LastRegistered{nullptr};

std::vector<EventSink *> &sinks() {
  static auto *S = new std::vector<EventSink *>(); // never destroyed, as
  return *S;                                       // the registry
}
std::size_t BufferEvents = 16384;
/// OTTER_FLUSH_INTERVAL in now()'s units (0: off).
std::uint64_t FlushInterval = 0;

} // namespace

/// The sink that takes the buffers themselves (EventSink::adopt), if any.
EventSink *Adopter = nullptr;

void setSinks(EventSink **Sinks, std::size_t N) {
  sinks().assign(Sinks, Sinks + N);
  Adopter = nullptr;
  for (EventSink *S : sinks())
    if (!Adopter && S->adoptsBuffers())
      Adopter = S;
}

void setBufferEvents(std::size_t N) { BufferEvents = N; }

ThreadState *registerThread(std::uint32_t Type) {
  if (CurrentThread)
    return CurrentThread;
  auto *T = new (std::nothrow) ThreadState();
  if (!T)
    return nullptr;
  T->Index = NextIndex.fetch_add(1, std::memory_order_relaxed);
  T->Type = Type;
  T->Capacity = BufferEvents;
  T->Limit = T->Capacity;
  T->Buffer = static_cast<Event *>(std::malloc(sizeof(Event) * T->Capacity));
  if (!T->Buffer) {
    delete T;
    return nullptr;
  }
  T->FlushDue = nextFlushDue(now());
  {
    std::lock_guard<std::mutex> L(RegistryMutex);
    registry().push_back(T);
  }
  ThreadState *Prev = LastRegistered.load(std::memory_order_relaxed);
  do
    T->PrevRegistered = Prev;
  while (!LastRegistered.compare_exchange_weak(
      Prev, T, std::memory_order_seq_cst, std::memory_order_relaxed));
  CurrentThread = T;
  return T;
}

void initClock() {
#if defined(__x86_64__)
  // Invariant TSC: CPUID 0x80000007, EDX bit 8. Without it the counter may
  // stop or change rate: use the kernel's clock.
  unsigned Eax, Ebx, Ecx, Edx;
  __asm__ volatile("cpuid"
                   : "=a"(Eax), "=b"(Ebx), "=c"(Ecx), "=d"(Edx)
                   : "a"(0x80000000u), "c"(0));
  if (Eax < 0x80000007u)
    return;
  __asm__ volatile("cpuid"
                   : "=a"(Eax), "=b"(Ebx), "=c"(Ecx), "=d"(Edx)
                   : "a"(0x80000007u), "c"(0));
  if (!(Edx & (1u << 8)))
    return;
  // Calibrate over ~2 ms against CLOCK_MONOTONIC. Each end is the best of
  // a few (counter, clock, counter) readings: the one whose two counter
  // reads are closest was not preempted between them (on a loaded machine
  // a single pair can be milliseconds apart and skew every timestamp).
  auto sample = [](std::uint64_t &Tsc, std::uint64_t &Ns) {
    std::uint64_t Best = ~0ull;
    for (int I = 0; I < 8; ++I) {
      std::uint64_t A = __rdtsc(), N = monotonicNs(), B = __rdtsc();
      if (B >= A && B - A < Best) {
        Best = B - A;
        Tsc = A + (B - A) / 2;
        Ns = N;
      }
    }
    return Best != ~0ull;
  };
  std::uint64_t T0 = 0, N0 = 0, T1 = 0, N1 = 0;
  if (!sample(T0, N0))
    return;
  while (monotonicNs() - N0 < 2000000)
    ;
  if (!sample(T1, N1) || T1 <= T0 || N1 <= N0)
    return;
  const std::uint64_t Mult =
      (unsigned __int128)(N1 - N0) * (1ull << 32) / (T1 - T0);
  if (Mult == 0)
    return;
  Scale.TickBase = T1;
  Scale.NsBase = N1;
  Scale.Mult = Mult;
  UseTsc = true;
  openGate(GateNoTsc);
#endif
}

std::uint64_t toNs(std::uint64_t Raw) { return UseTsc ? Scale.toNs(Raw) : Raw; }

std::int64_t clockError(std::uint64_t &TraceNs) {
#if defined(__x86_64__)
  if (UseTsc) {
    // As initClock's samples: the (counter, clock, counter) reading whose
    // counter reads are closest was not preempted in between.
    std::uint64_t Best = ~0ull, Tsc = 0, Ns = 0;
    for (int I = 0; I < 16; ++I) {
      std::uint64_t A = __rdtsc(), N = monotonicNs(), B = __rdtsc();
      if (B >= A && B - A < Best) {
        Best = B - A;
        Tsc = A + (B - A) / 2;
        Ns = N;
      }
    }
    if (Best != ~0ull) {
      TraceNs = Scale.toNs(Tsc);
      return std::int64_t(Ns - TraceNs);
    }
  }
#endif
  TraceNs = monotonicNs();
  return 0;
}

const TickScale &tickScale() { return Scale; }

void setFlushInterval(std::uint64_t Ns) {
  // In ticks when the clock is the counter: Scale.Mult is ns per tick in
  // 32.32 fixed point.
  FlushInterval =
      UseTsc && Ns ? std::max<std::uint64_t>(
                         1, std::uint64_t((unsigned __int128)Ns << 32) /
                                Scale.Mult)
                   : Ns;
}

std::uint64_t nextFlushDue(std::uint64_t Now) {
  if (!FlushInterval || Now > ~std::uint64_t(0) - FlushInterval)
    return ~std::uint64_t(0);
  return Now + FlushInterval;
}

ThreadState *makeScratchThread(std::size_t Capacity) {
  auto *T = new (std::nothrow) ThreadState();
  if (!T)
    return nullptr;
  T->Index = ~std::uint32_t(0) >> 8; // no registered thread's
  T->Type = std::uint32_t(ThreadType::Other);
  T->Capacity = Capacity;
  T->Limit = Capacity; // never flushed, periodically or otherwise
  T->Buffer = static_cast<Event *>(std::malloc(sizeof(Event) * Capacity));
  if (!T->Buffer) {
    delete T;
    return nullptr;
  }
  return T;
}

void releaseScratchThread(ThreadState *T) {
  if (!T)
    return;
  for (TaskBlock *B = T->TaskBlocks; B;) {
    TaskBlock *Next = B->Next;
    std::free(B);
    B = Next;
  }
  std::free(T->Buffer);
  delete T;
}

namespace {
std::atomic<std::uint32_t> MeasuredRecordingCostNs{0};
} // namespace
void setRecordingCostNs(std::uint32_t Ns) {
  MeasuredRecordingCostNs.store(Ns, std::memory_order_relaxed);
}
std::uint32_t recordingCostNs() {
  return MeasuredRecordingCostNs.load(std::memory_order_relaxed);
}

TaskState *refillTasks(ThreadState *T) {
  auto *Block = static_cast<TaskBlock *>(std::malloc(sizeof(TaskBlock)));
  if (!Block)
    return nullptr;
  Block->Next = T->TaskBlocks;
  T->TaskBlocks = Block;
  T->TaskRecordsMade += TaskBatch;
  for (std::size_t I = 1; I < TaskBatch; ++I)
    freeTask(T, &Block->Records[I]);
  return &Block->Records[0];
}

namespace {
/// Read by every flush, written only by freezeFlushes (and in a forked
/// copy): a line the threads share read-only.
std::atomic<bool> FlushesFrozen{false};

/// The signals whose handler saves the run in a forked copy while the
/// process is healthy (trace/crash.h): blocked in a thread while it
/// flushes, so the handler never runs in a thread that holds a flush lock.
sigset_t terminationSignals() {
  sigset_t S;
  sigemptyset(&S);
  for (int Sig : {SIGTERM, SIGINT, SIGHUP, SIGXCPU})
    sigaddset(&S, Sig);
  return S;
}

void consumeLocked(ThreadState *T);

void flushLocked(ThreadState *T, bool Persist) {
  std::lock_guard<std::mutex> L(T->FlushLock);
  if (T->Count == 0 && !Persist)
    return;
  WriteGuard Guard; // sinks write files: never SIGXFSZ for the program
  if (T->Count)
    consumeLocked(T);
  if (Persist)
    for (EventSink *S : sinks())
      S->persist(*T);
}

/// The buffer to every sink. Called with T's FlushLock held.
void consumeLocked(ThreadState *T) {
  bool Ticks = UseTsc;
  if (UseTsc) {
    // The sinks that convert the counter's ticks as they go first (the
    // trace writer), then the others, after a pass converting the buffer.
    bool Others = false;
    for (EventSink *S : sinks())
      if (S == Adopter)
        continue;
      else if (S->takesTicks())
        S->consume(*T, T->Buffer, T->Count);
      else
        Others = true;
    if (Others) {
      ticksToNs(Scale, T->Buffer, T->Count);
      Ticks = false;
      for (EventSink *S : sinks())
        if (S != Adopter && !S->takesTicks())
          S->consume(*T, T->Buffer, T->Count);
    }
  } else {
    for (EventSink *S : sinks())
      if (S != Adopter)
        S->consume(*T, T->Buffer, T->Count);
  }
  // Last: it may keep the buffer and give the thread another.
  if (Adopter)
    T->Buffer = Adopter->adopt(*T, T->Buffer, T->Count, T->Capacity, Ticks);
  T->EventsRecorded += T->Count;
  T->Count = 0;
  ++T->Flushes;
}
} // namespace

bool flush(ThreadState *T, bool Persist) {
  // Two system calls per buffer of thousands of events.
  sigset_t Block = terminationSignals(), Saved;
  pthread_sigmask(SIG_BLOCK, &Block, &Saved);
  // Announce, then look (freezeFlushes sets, then looks at every thread's
  // flag): either the freezer sees this flush and waits for it, or this
  // flush sees the freeze and leaves the buffer for the copy. The sinks'
  // persist() is inside too: a copy never finds the trace's locks held.
  T->FlushUnderWay.store(1, std::memory_order_seq_cst);
  const bool Flushed = !FlushesFrozen.load(std::memory_order_seq_cst);
  if (Flushed)
    flushLocked(T, Persist);
  T->FlushUnderWay.store(0, std::memory_order_release);
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
  return Flushed;
}

void flushFull(ThreadState *T) {
  const std::uint64_t Begin = now();
  // Due (OTTER_FLUSH_INTERVAL): the buffer and what the sinks hold of the
  // thread go to disk, and the next deadline counts from here. A full
  // buffer before then only moves on to the sinks.
  const bool Due = Begin >= T->FlushDue;
  T->Limit = T->Capacity;
  if (!flush(T, Due)) { // flushes frozen: the buffer is as it was
    T->FlushDue = ~std::uint64_t(0);
    return;
  }
  if (Due)
    T->FlushDue = nextFlushDue(Begin);
  if (T->Count + 2 > T->Capacity)
    return;
  T->Buffer[T->Count++] = Event::toolBegin(Begin, ToolWork::Flush);
  T->Buffer[T->Count++] = Event::toolEnd(now(), ToolWork::Flush);
  recordThreadCpu(T);
}

void recordThreadCpu(ThreadState *T) {
  timespec Cpu{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &Cpu);
  rusage Use{};
  getrusage(RUSAGE_THREAD, &Use);
  cpu_set_t Set;
  CPU_ZERO(&Set);
  int Cpus = sched_getaffinity(0, sizeof Set, &Set) == 0 ? CPU_COUNT(&Set) : 0;
  Event &E = append(T);
  const std::uint64_t Time = E.Time;
  E = Event::threadCpu(
      Time,
      std::uint64_t(Cpu.tv_sec) * 1000000000ull + std::uint64_t(Cpu.tv_nsec),
      std::uint32_t(Use.ru_nivcsw), std::uint32_t(Use.ru_nvcsw),
      std::uint16_t(std::min(Cpus, 0xffff)));
}

bool freezeFlushes(unsigned DeadlineMs) {
  FlushesFrozen.store(true, std::memory_order_seq_cst);
  const timespec Tick = {0, 1000 * 1000};
  for (unsigned Waited = 0;; ++Waited) {
    // A thread registered after this walk began flushes only after its
    // registration, which follows the freeze: it sees the freeze.
    bool UnderWay = false;
    for (ThreadState *T = LastRegistered.load(std::memory_order_seq_cst); T;
         T = T->PrevRegistered)
      UnderWay |= T->FlushUnderWay.load(std::memory_order_seq_cst) != 0;
    if (!UnderWay)
      return true;
    if (Waited >= DeadlineMs)
      return false;
    nanosleep(&Tick, nullptr);
  }
}

void thawFlushesInChild() {
  for (ThreadState *T = LastRegistered.load(std::memory_order_relaxed); T;
       T = T->PrevRegistered)
    T->FlushUnderWay.store(0, std::memory_order_relaxed);
  FlushesFrozen.store(false, std::memory_order_relaxed);
}

void flushAll() {
  std::vector<ThreadState *> Snapshot;
  {
    std::lock_guard<std::mutex> L(RegistryMutex);
    Snapshot = registry();
  }
  for (ThreadState *T : Snapshot)
    flush(T);
}

std::size_t threadCount() {
  std::lock_guard<std::mutex> L(RegistryMutex);
  return registry().size();
}

ThreadState *threadAt(std::size_t I) {
  std::lock_guard<std::mutex> L(RegistryMutex);
  return I < registry().size() ? registry()[I] : nullptr;
}

TaskRecordCount taskRecords() {
  TaskRecordCount C;
  std::uint64_t Free = 0;
  std::lock_guard<std::mutex> L(RegistryMutex);
  for (ThreadState *T : registry()) {
    C.Made += T->TaskRecordsMade;
    for (TaskState *S = T->FreeTasks; S; S = S->NextFree)
      ++Free;
  }
  C.InUse = C.Made >= Free ? C.Made - Free : 0;
  return C;
}

} // namespace otter::recorder
