//===- core/samples.cpp - Sampling: per-thread rings, timers, output -----===//
#include "core/samples.h"

#include <csignal>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace otter::samples {

namespace {
unsigned Hz = 0;
bool WallClock = false;
int Signo = 0;
void *Handler = nullptr;
std::mutex RegistryLock;
std::vector<SampleThread *> &registry() {
  static auto *R = new std::vector<SampleThread *>; // outlives exit
  return *R;
}
bool Stopped = false; // under RegistryLock

void stackBounds(SampleThread *S) {
  pthread_attr_t A;
  if (pthread_getattr_np(pthread_self(), &A) != 0)
    return;
  void *Addr = nullptr;
  std::size_t Size = 0;
  if (pthread_attr_getstack(&A, &Addr, &Size) == 0) {
    S->StackLow = reinterpret_cast<std::uintptr_t>(Addr);
    S->StackHigh = S->StackLow + Size;
  }
  pthread_attr_destroy(&A);
}

bool startTimer(SampleThread *S) {
  sigevent Ev{};
  Ev.sigev_notify = SIGEV_THREAD_ID;
  Ev.sigev_signo = Signo;
  Ev._sigev_un._tid = pid_t(syscall(SYS_gettid));
  clockid_t Clock = WallClock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
  if (timer_create(Clock, &Ev, &S->Timer) != 0)
    return false;
  const long Period = long(1000000000ull / Hz);
  itimerspec Spec{};
  Spec.it_interval.tv_sec = Period / 1000000000;
  Spec.it_interval.tv_nsec = Period % 1000000000;
  Spec.it_value = Spec.it_interval;
  if (timer_settime(S->Timer, 0, &Spec, nullptr) != 0) {
    timer_delete(S->Timer);
    return false;
  }
  S->HasTimer = true;
  return true;
}

void stopTimer(SampleThread *S) {
  S->Live.store(false, std::memory_order_release);
  if (S->HasTimer) {
    timer_delete(S->Timer);
    S->HasTimer = false;
  }
}
} // namespace

void configure(unsigned Rate, bool Wall, int Signal) {
  Hz = Rate;
  WallClock = Wall;
  Signo = Signal;
}
unsigned rate() { return Hz; }
void setHandler(void *H) { Handler = H; }
bool handlerReplaced() {
  struct sigaction Now {};
  if (!Handler || sigaction(Signo, nullptr, &Now) != 0)
    return false;
  return !(Now.sa_flags & SA_SIGINFO) ||
         reinterpret_cast<void *>(Now.sa_sigaction) != Handler;
}
int signal() { return Signo; }

SampleThread *startThread(std::uint32_t ThreadIndex, SampleThread *&Current) {
  if (!Hz || Current)
    return nullptr;
  auto *S = new (std::nothrow) SampleThread();
  if (!S)
    return nullptr;
  S->SlotBytes = RingSlots * sizeof(Sample);
  void *Map = mmap(nullptr, S->SlotBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Map == MAP_FAILED) {
    delete S;
    return nullptr;
  }
  S->Slots = static_cast<Sample *>(Map);
  S->Ring.reset(S->Slots, RingSlots);
  S->ThreadIndex = ThreadIndex;
  stackBounds(S);
  {
    std::lock_guard<std::mutex> L(RegistryLock);
    if (Stopped) {
      munmap(Map, S->SlotBytes);
      delete S;
      return nullptr;
    }
    registry().push_back(S);
    // Published before the first signal can come.
    Current = S;
    S->Live.store(true, std::memory_order_release);
    if (!startTimer(S)) {
      S->Live.store(false, std::memory_order_release);
      Current = nullptr;
    }
  }
  return Current ? S : nullptr;
}

void drain(SampleThread *S) {
  std::lock_guard<std::mutex> L(S->DrainLock);
  S->Ring.drain([&](const Sample &X) {
    const unsigned Depth =
        X.Depth > Sample::MaxFrames ? Sample::MaxFrames : X.Depth;
    S->Drained.push_back(X.Time);
    S->Drained.push_back(std::uint64_t(X.State) |
                         std::uint64_t(Depth) << 32 |
                         std::uint64_t(X.Flags) << 48);
    S->Drained.push_back(X.WaitId);
    S->Drained.push_back(X.Task);
    S->Drained.push_back(X.ExitFrame);
    S->Drained.push_back(X.EnterFrame);
    S->Drained.push_back(X.Weight);
    S->Drained.push_back(X.Region);
    S->Drained.insert(S->Drained.end(), X.Frames, X.Frames + Depth);
    ++S->Count;
  });
}

void endThread(SampleThread *&Current) {
  SampleThread *S = Current;
  if (!S)
    return;
  {
    std::lock_guard<std::mutex> L(RegistryLock);
    stopTimer(S);
  }
  Current = nullptr; // no later signal on this thread reads the ring
  try {
    drain(S);
  } catch (...) { // out of memory: the samples stay in the ring
    return;
  }
  // Short-lived threads keep no mapping: the ring is empty and unused now.
  std::lock_guard<std::mutex> L(S->DrainLock);
  munmap(S->Slots, S->SlotBytes);
  S->Slots = nullptr;
  S->Ring.reset(nullptr, 0);
}

void stopAll() {
  std::vector<SampleThread *> All;
  {
    std::lock_guard<std::mutex> L(RegistryLock);
    Stopped = true;
    for (SampleThread *S : registry())
      stopTimer(S);
    All = registry();
  }
  for (SampleThread *S : All)
    drain(S);
}

std::vector<SampleThread *> threads() {
  std::lock_guard<std::mutex> L(RegistryLock);
  return registry();
}

SampleThread *find(std::uint32_t ThreadIndex) {
  std::lock_guard<std::mutex> L(RegistryLock);
  for (SampleThread *S : registry())
    if (S->ThreadIndex == ThreadIndex)
      return S;
  return nullptr;
}

std::uint64_t dropped() {
  std::uint64_t N = 0;
  for (SampleThread *S : threads())
    N += S->Ring.dropped();
  return N;
}

} // namespace otter::samples
