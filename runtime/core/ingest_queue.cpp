//===- core/ingest_queue.cpp - Flushed buffers ingested aside ----------===//
#include "core/ingest_queue.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace otter {

/// One application thread's buffers. Full: pushed by the thread (Tail),
/// popped by the owner of the channel (Head); Empty: pushed by the
/// background thread, popped by the application thread.
struct IngestQueue::Channel {
  struct Slot {
    Event *Buf;
    std::size_t N;
    bool Ticks;
  };
  std::uint32_t Thread = 0;
  Slot Full[Ring];
  std::atomic<std::uint32_t> FullHead{0}, FullTail{0};
  Event *Empty[Ring];
  std::atomic<std::uint32_t> EmptyHead{0}, EmptyTail{0};
  /// Who ingests the channel's buffers now: none, the background thread
  /// (one chunk at a time), the application thread.
  std::atomic<int> Owner{0};
  /// Events of the buffer at FullHead already ingested (its first chunks,
  /// by the background thread); read and written only by the owner.
  std::size_t Done = 0;
  static constexpr int None = 0, Background = 1, Application = 2;
};

namespace {

void sleepUs(long Us) {
  const timespec T = {0, Us * 1000};
  nanosleep(&T, nullptr);
}

long futex(std::atomic<std::uint32_t> &Word, int Op, std::uint32_t Val,
           const timespec *Timeout) {
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t *>(&Word), Op, Val,
                 Timeout, nullptr, 0);
}

} // namespace

IngestQueue::IngestQueue(IngestFn F, const TickScale &S)
    : Fn(std::move(F)), Scale(S) {}

IngestQueue::~IngestQueue() {
  // The session never destroys its sinks; a test's queue is stopped first.
  if (HasWorker && Pid == getpid()) {
    Stop.store(true, std::memory_order_seq_cst);
    wake();
    pthread_join(Worker, nullptr);
  }
  for (auto &P : Channels)
    delete P.load();
}

bool IngestQueue::start() {
  // Under an address-space limit (ulimit -v) the program's own threads and
  // OTTER's must fit in it: no thread and no spare buffers then, the
  // flushes ingest as they did.
  rlimit AS;
  if (getrlimit(RLIMIT_AS, &AS) == 0 && AS.rlim_cur != RLIM_INFINITY)
    return false;
  // A small stack: the ingest does not recurse, and under an address-space
  // limit (ulimit -v) the default 8 MiB would be taken from the program
  // (libomp sizes its threads' stacks to what is left).
  pthread_attr_t Attr;
  if (pthread_attr_init(&Attr) != 0)
    return false;
  pthread_attr_setstacksize(&Attr, std::size_t(256) << 10);
  Pid = getpid();
  bool Ok = pthread_create(
                &Worker, &Attr,
                [](void *Q) -> void * {
                  static_cast<IngestQueue *>(Q)->run();
                  return nullptr;
                },
                this) == 0;
  pthread_attr_destroy(&Attr);
  if (Ok) {
    HasWorker = true;
    Running.store(true, std::memory_order_release);
    // Until the thread has its malloc arena (run(); it runs at the normal
    // priority until then): bounded, a thread that gets no CPU for 200 ms
    // only loses the guarantee.
    for (unsigned Waited = 0;
         Waited < 10000 && !HasArena.load(std::memory_order_acquire); ++Waited)
      sleepUs(20);
  }
  return Ok;
}

void IngestQueue::ingest(std::uint32_t Thread, Event *E, std::size_t N,
                         bool Ticks) {
  if (Ticks)
    ticksToNs(Scale, E, N);
  Fn(Thread, E, N);
}

IngestQueue::Channel *IngestQueue::channel(std::uint32_t Thread, std::size_t) {
  if (Thread >= MaxAsyncThreads)
    return nullptr;
  std::atomic<Channel *> &Slot = Channels[Thread];
  Channel *C = Slot.load(std::memory_order_acquire);
  if (!C) { // only this thread makes its channel
    C = new (std::nothrow) Channel();
    if (!C)
      return nullptr;
    C->Thread = Thread;
    Slot.store(C, std::memory_order_release);
  }
  return C;
}

/// Ingests C's queued buffers on the calling thread, in order, once the
/// background thread is not ingesting one. Reuse: the caller is C's thread,
/// which will want empty buffers again (the empty ring's producer is whoever
/// owns the channel); else they are freed. False: the background thread was
/// lost holding one (a forked copy).
bool IngestQueue::drain(Channel &C, bool Reuse) {
  for (unsigned Waited = 0;; ++Waited) {
    int Z = Channel::None;
    if (C.Owner.compare_exchange_strong(Z, Channel::Application,
                                        std::memory_order_acq_rel))
      break;
    // The background thread ingests one chunk: wait for it, unless this
    // is a copy of the process, where it does not run (the fork caught it
    // inside the chunk: the events it has half ingested are lost).
    if (Pid != getpid()) {
      Lost.store(true);
      return false;
    }
    sleepUs(Waited < 100 ? 20 : 1000);
  }
  std::uint32_t Head = C.FullHead.load(std::memory_order_relaxed);
  std::uint32_t Tail = C.FullTail.load(std::memory_order_acquire);
  for (; Head != Tail; ++Head) {
    Channel::Slot S = C.Full[Head % Ring];
    // The background thread may have ingested its first chunks.
    ingest(C.Thread, S.Buf + C.Done, S.N - C.Done, S.Ticks);
    C.Done = 0;
    C.FullHead.store(Head + 1, std::memory_order_release);
    std::uint32_t ET = C.EmptyTail.load(std::memory_order_relaxed);
    if (Reuse && ET - C.EmptyHead.load(std::memory_order_acquire) < Ring) {
      C.Empty[ET % Ring] = S.Buf;
      C.EmptyTail.store(ET + 1, std::memory_order_release);
    } else {
      std::free(S.Buf);
    }
  }
  C.Owner.store(Channel::None, std::memory_order_release);
  return true;
}

Event *IngestQueue::adopt(std::uint32_t Thread, Event *Buffer, std::size_t N,
                          std::size_t Capacity, bool Ticks) {
  Channel *C = channel(Thread, Capacity);
  bool Async = C && Running.load(std::memory_order_acquire) &&
               !Stop.load(std::memory_order_relaxed) && Pid == getpid();
  if (!Async) {
    // At once, after what the channel still holds (in a copy of the
    // process, or once stopped).
    if (C &&
        C->FullHead.load(std::memory_order_acquire) !=
            C->FullTail.load(std::memory_order_acquire) &&
        !drain(*C, false))
      return Buffer; // lost: the graph will not be written
    ingest(Thread, Buffer, N, Ticks);
    return Buffer;
  }
  std::uint32_t Tail = C->FullTail.load(std::memory_order_relaxed);
  if (Tail - C->FullHead.load(std::memory_order_acquire) >= Ring) {
    // The background thread is behind: this thread ingests its own.
    drain(*C, true);
    ingest(Thread, Buffer, N, Ticks);
    return Buffer;
  }
  // An empty buffer to record into: one that came back, else a new one.
  Event *Next = nullptr;
  std::uint32_t EH = C->EmptyHead.load(std::memory_order_relaxed);
  if (EH != C->EmptyTail.load(std::memory_order_acquire)) {
    Next = C->Empty[EH % Ring];
    C->EmptyHead.store(EH + 1, std::memory_order_release);
  } else {
    Next = static_cast<Event *>(std::malloc(sizeof(Event) * Capacity));
    if (!Next) { // no memory for a second buffer: ingest it at once
      drain(*C, true);
      ingest(Thread, Buffer, N, Ticks);
      return Buffer;
    }
  }
  C->Full[Tail % Ring] = {Buffer, N, Ticks};
  C->FullTail.store(Tail + 1, std::memory_order_seq_cst);
  wake();
  return Next;
}

/// After a push (seq_cst), or to stop: wakes the background thread if it
/// sleeps (it says so, seq_cst, then looks at every channel once more).
/// While it works, a flush only reads Sleeping: no line the flushes of two
/// threads both write.
void IngestQueue::wake() {
  if (!Sleeping.load(std::memory_order_seq_cst))
    return;
  Work.fetch_add(1, std::memory_order_seq_cst);
  futex(Work, FUTEX_WAKE_PRIVATE, 1, nullptr);
}

void IngestQueue::run() {
  // Take a malloc arena now, with the session at the program's first
  // OpenMP call, before any thread running OpenMP can have ended. glibc
  // gives a thread its arena at its first allocation, preferring the arena
  // of a thread that has ended; this thread's first one used to be its
  // first ingest, after the first pthread running OpenMP had ended, so it
  // took that thread's arena, over the memory libomp had freed there. But
  // libomp 19 still writes into that memory: a worker of the ended root
  // thread's team returns the root's freed task blocks to the root's
  // kmp_info_t (__kmp_fast_free, its "other" free list) when it next frees
  // a task of another root, after the root's kmp_info_t was freed. The
  // write landed in the shards' table made there (slot 167) and the merge
  // at exit crashed (docs/reliability.md, "pthreads.c"). The volatile
  // keeps the compiler from removing the pair.
  void *volatile First = std::malloc(64);
  std::free(First);
  HasArena.store(true, std::memory_order_release);
  // No signal handler runs here (the session's run in whichever thread the
  // program's signal hits, never ours), and only spare CPU time is used.
  sigset_t All;
  sigfillset(&All);
  pthread_sigmask(SIG_BLOCK, &All, nullptr);
  sched_param P{};
  if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &P) != 0)
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
  while (!Stop.load(std::memory_order_acquire)) {
    bool Did = false;
    for (auto &Slot : Channels) {
      Channel *C = Slot.load(std::memory_order_acquire);
      if (!C)
        continue;
      // One chunk per claim, so that an application thread whose ring is
      // full, or a freeze before a fork, waits for one chunk at most.
      while (C->FullHead.load(std::memory_order_acquire) !=
             C->FullTail.load(std::memory_order_acquire)) {
        // The gate first (fails once frozen), then the channel.
        std::uint32_t Open = 0;
        if (Stop.load(std::memory_order_acquire) ||
            !Gate.compare_exchange_strong(Open, Working,
                                          std::memory_order_seq_cst))
          break;
        int Z = Channel::None;
        if (!C->Owner.compare_exchange_strong(Z, Channel::Background,
                                              std::memory_order_acq_rel)) {
          Gate.fetch_and(~Working, std::memory_order_seq_cst);
          break; // its thread ingests its own
        }
        std::uint32_t Head = C->FullHead.load(std::memory_order_relaxed);
        if (Head != C->FullTail.load(std::memory_order_acquire)) {
          Channel::Slot S = C->Full[Head % Ring];
          std::size_t End = S.N - C->Done > Chunk ? C->Done + Chunk : S.N;
          ingest(C->Thread, S.Buf + C->Done, End - C->Done, S.Ticks);
          C->Done = End;
          if (End == S.N) {
            C->Done = 0;
            C->FullHead.store(Head + 1, std::memory_order_release);
            std::uint32_t ET = C->EmptyTail.load(std::memory_order_relaxed);
            if (ET - C->EmptyHead.load(std::memory_order_acquire) < Ring) {
              C->Empty[ET % Ring] = S.Buf;
              C->EmptyTail.store(ET + 1, std::memory_order_release);
            } else {
              std::free(S.Buf);
            }
          }
          Did = true;
        }
        C->Owner.store(Channel::None, std::memory_order_release);
        Gate.fetch_and(~Working, std::memory_order_seq_cst);
      }
    }
    if (Did)
      continue;
    // Nothing to do: sleep until a flush pushes a buffer (the flush wakes
    // this thread only while it sleeps) or, at most 50 ms, to look at Stop.
    std::uint32_t Seen = Work.load(std::memory_order_seq_cst);
    Sleeping.store(1, std::memory_order_seq_cst);
    bool Pending = false;
    if (!(Gate.load(std::memory_order_seq_cst) & Frozen))
      for (auto &Slot : Channels)
        if (Channel *C = Slot.load(std::memory_order_seq_cst))
          Pending |= C->FullHead.load(std::memory_order_seq_cst) !=
                     C->FullTail.load(std::memory_order_seq_cst);
    if (!Pending && !Stop.load(std::memory_order_seq_cst)) {
      const timespec T = {0, 50 * 1000 * 1000};
      futex(Work, FUTEX_WAIT_PRIVATE, Seen, &T);
    }
    Sleeping.store(0, std::memory_order_seq_cst);
  }
}

bool IngestQueue::stop() {
  if (HasWorker && Pid == getpid()) {
    Stop.store(true, std::memory_order_seq_cst);
    wake();
    pthread_join(Worker, nullptr);
    HasWorker = false;
  }
  Stop.store(true, std::memory_order_seq_cst);
  bool Ok = !Lost.load();
  for (auto &Slot : Channels)
    if (Channel *C = Slot.load(std::memory_order_acquire)) {
      Ok &= drain(*C, false);
      // The spare buffers (no later flush takes one: they ingest at once).
      for (std::uint32_t H = C->EmptyHead.load(); H != C->EmptyTail.load(); ++H)
        std::free(C->Empty[H % Ring]);
      C->EmptyHead.store(C->EmptyTail.load());
    }
  return Ok;
}

void IngestQueue::freeze(unsigned DeadlineMs) {
  // Closed: the background thread starts no chunk from now on. If it is
  // inside one, wait for its end (a chunk, not a whole buffer: a thread at
  // SCHED_IDLE on a busy machine runs in rare slices).
  if (!(Gate.fetch_or(Frozen, std::memory_order_seq_cst) & Working))
    return;
  for (unsigned Waited = 0; Waited <= DeadlineMs * 10; ++Waited) {
    if (!(Gate.load(std::memory_order_seq_cst) & Working))
      return;
    sleepUs(100);
  }
}

} // namespace otter
