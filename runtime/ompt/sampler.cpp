//===- ompt/sampler.cpp - The sampling signal handler (OMPT) --------------===//
//
// The handler is async-signal-safe: it takes no lock, allocates nothing and
// calls only the OMPT inquiry functions the specification declares
// async-signal-safe (ompt_get_state, ompt_get_task_info). It keeps errno.
// It finds its thread's ring through an initial-exec thread-local pointer
// (no call into the dynamic linker) and unwinds by frame pointers only
// (no libunwind: its module lookup takes a lock the interrupted thread may
// hold), reading no word outside the interrupted stack, [sp, stack top).
//
//===----------------------------------------------------------------------===//
#include "ompt/sampler.h"
#include "core/recorder.h"
#include "core/samples.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <ucontext.h>

namespace otter::ompt::sampler {

thread_local constinit TaskWait Waiting
    __attribute__((tls_model("initial-exec"))) = {nullptr, 0};
RegionSlot Regions[RegionSlots];
bool Sampling = false;

namespace {

thread_local constinit SampleThread *Current
    __attribute__((tls_model("initial-exec"))) = nullptr;
ompt_get_state_t GetState = nullptr;
ompt_get_task_info_t GetTaskInfo = nullptr;
bool Installed = false;
/// Sampling alone: a region's data holds its code address (parallel begin
/// below), not an id.
bool RegionDataIsCode = false;

/// The code address of the region whose data (its value, the flag bit of
/// a filtered region cleared) is Value: 0 if its slot was taken since.
std::uint64_t regionCode(std::uint64_t Value) {
  if (RegionDataIsCode)
    return Value;
  const std::uint64_t Id = Value & ~(std::uint64_t(1) << 63);
  const RegionSlot &S = Regions[Id % RegionSlots];
  const std::uint64_t Before = S.Id.load(std::memory_order_acquire);
  const std::uint64_t Code = S.Code.load(std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_acquire);
  return Before == Id && S.Id.load(std::memory_order_relaxed) == Id ? Code
                                                                    : 0;
}

/// The construct of the current task (Sample::Region): a task's creation
/// (its record, with the trace on) or its parallel region's fork.
void noteConstruct(int Flags, const ompt_data_t *Task,
                   const ompt_data_t *Parallel, Sample &X) {
  X.Region = 0;
  if (Flags & ompt_task_implicit) {
    if (Parallel && Parallel->value)
      X.Region = regionCode(Parallel->value);
    if (X.Region)
      X.Flags |= SampleRegionImplicit;
  } else if ((Flags & ompt_task_explicit) && Task && Task->ptr) {
    X.Region = static_cast<const TaskState *>(Task->ptr)->Code;
  }
}

/// The enter frame of the task at Level or, with Outer, of the first
/// enclosing task from Level on whose enter frame lies above Fp: the frame
/// of the runtime entry its code called (libomp's entry points keep a
/// frame pointer), so the frame chain goes on from there into the user's
/// code, past the runtime's frames (which have none). 0: none. Level is
/// left at the next task to look at.
std::uintptr_t enterFrame(int &Level, std::uintptr_t Fp, bool Outer) {
  constexpr int MaxLevels = 16;
  for (; GetTaskInfo && Level < MaxLevels; ++Level) {
    int Flags = 0, ThreadNum = 0;
    ompt_data_t *Task = nullptr, *Parallel = nullptr;
    ompt_frame_t *F = nullptr;
    if (GetTaskInfo(Level, &Flags, &Task, &F, &Parallel, &ThreadNum) != 2)
      return 0;
    const auto E = reinterpret_cast<std::uintptr_t>(F ? F->enter_frame.ptr
                                                      : nullptr);
    const bool FramePointer =
        F && (F->enter_frame_flags & 0x30) == ompt_frame_framepointer;
    if (E && FramePointer && E > Fp) {
      ++Level;
      return E;
    }
    if (!Outer)
      return 0;
  }
  return 0;
}

/// Frame-pointer unwind of the interrupted context into X.Frames: the
/// interrupted instruction, then the return addresses of the frame chain,
/// reading no word outside [sp, the stack's top). Where the chain breaks
/// (code without frame pointers: libomp), it goes on at the enter frame of
/// the next enclosing task above it (SampleRuntimeSkipped: runtime frames
/// left out), as the OMPT frames allow.
__attribute__((no_sanitize("address", "undefined", "thread"))) void
unwind(const SampleThread &S, const void *Context, Sample &X) {
  X.Depth = 0;
#if defined(__x86_64__)
  const auto *U = static_cast<const ucontext_t *>(Context);
  std::uintptr_t Pc = std::uintptr_t(U->uc_mcontext.gregs[REG_RIP]);
  std::uintptr_t Fp = std::uintptr_t(U->uc_mcontext.gregs[REG_RBP]);
  std::uintptr_t Sp = std::uintptr_t(U->uc_mcontext.gregs[REG_RSP]);
  X.Frames[X.Depth++] = Pc;
  // F <= StackHigh - 16, not F + 16 <= StackHigh: a frame register that
  // holds no frame (code built without frame pointers uses it for data)
  // may be near 2^64, where F + 16 wraps round.
  auto Valid = [&](std::uintptr_t F) {
    return F >= Sp && F >= S.StackLow && S.StackHigh >= 16 &&
           F <= S.StackHigh - 16 && !(F & 7);
  };
  int Level = 0;
  // In the runtime on behalf of the current task (its enter frame is set):
  // the user's frames start there.
  if (std::uintptr_t E = enterFrame(Level, Sp - 1, false); E && Valid(E)) {
    Fp = E;
    X.Flags |= SampleRuntimeSkipped;
  }
  Level = 1;
  // Inside an MPI call (otter_source_sample_resume): on at the wrapper's
  // frame at once, with the wrapper's address as the next frame. The MPI
  // library's code between has no frame pointers (its chain would be
  // words of data) and OTTER's own frames there are not the program's.
  // When the interrupted code is the wrapper's own (its frame is the
  // frame register's), the address is already the wrapper's.
  if (const std::uintptr_t Resume = S.Resume[0], ResumePc = S.Resume[1];
      Resume && ResumePc && Valid(Resume) && (!Valid(Fp) || Fp <= Resume)) {
    if (Fp != Resume)
      X.Frames[X.Depth++] = ResumePc;
    Fp = Resume;
  }
  for (int Jumps = 0; Jumps < 8;) {
    if (!Valid(Fp)) {
      // The chain broke: on at an enclosing task's enter frame above it.
      const std::uintptr_t E = enterFrame(Level, Sp, true);
      if (!E || !Valid(E))
        return;
      Fp = E;
      X.Flags |= SampleRuntimeSkipped;
      ++Jumps;
      continue;
    }
    const auto *Frame = reinterpret_cast<const std::uintptr_t *>(Fp);
    const std::uintptr_t Next = Frame[0], Ret = Frame[1];
    if (!Ret)
      return;
    if (X.Depth == Sample::MaxFrames) {
      X.Flags |= SampleTruncated;
      return;
    }
    X.Frames[X.Depth++] = Ret;
    Sp = Fp + 16;
    Fp = Next > Fp ? Next : 0; // callers' frames are above
  }
#else
  (void)S;
  (void)Context;
#endif
}

void onSignal(int, siginfo_t *Info, void *Context) {
  // SIGURG sent by the kernel (a socket's urgent data) is no tick; the
  // program had no handler for it (install()), so it is ignored as before.
  if (Info && Info->si_code == SI_KERNEL)
    return;
  const int SavedErrno = errno;
  SampleThread *S = Current;
  if (S && S->Live.load(std::memory_order_acquire)) {
    if (Sample *X = S->Ring.claim()) {
      X->Time = recorder::now();
      X->Flags = 0;
      // A timer's tick carries its overrun (another sender's signal, e.g.
      // raise(), has the sender's uid in that place).
      X->Weight = 1 + std::uint32_t(Info && Info->si_code == SI_TIMER &&
                                            Info->si_overrun > 0
                                        ? Info->si_overrun
                                        : 0);
      ompt_wait_id_t Wait = 0;
      X->State = GetState ? std::uint32_t(GetState(&Wait)) : 0x102;
      X->WaitId = Wait;
      X->Task = X->ExitFrame = X->EnterFrame = 0;
      int Flags = 0, ThreadNum = 0;
      ompt_data_t *Task = nullptr, *Parallel = nullptr;
      ompt_frame_t *Frame = nullptr;
      if (GetTaskInfo &&
          GetTaskInfo(0, &Flags, &Task, &Frame, &Parallel, &ThreadNum) == 2) {
        if (Task && Task->ptr) {
          const auto *TS = static_cast<const TaskState *>(Task->ptr);
          X->Task = TS->Id;
        }
        if (Task && Task == Waiting.Task &&
            X->State <= ompt_state_work_reduction)
            X->State = Waiting.Kind == ompt_sync_region_taskgroup
                           ? ompt_state_wait_taskgroup
                           : ompt_state_wait_taskwait;
        if (Frame) {
          X->ExitFrame = std::uint64_t(Frame->exit_frame.ptr);
          X->EnterFrame = std::uint64_t(Frame->enter_frame.ptr);
        }
        noteConstruct(Flags, Task, Parallel, *X);
      } else {
        X->Region = 0;
      }
      unwind(*S, Context, *X);
      S->Ring.publish();
    }
  }
  errno = SavedErrno;
}

} // namespace

bool install(ompt_function_lookup_t Lookup) {
  const int Signo = samples::signal();
  if (!samples::rate() || Installed)
    return Installed;
  auto Off = [&](const char *Why) {
    std::fprintf(stderr, "otter: warning: %s; not sampling\n", Why);
    samples::configure(0, false, 0);
    return false;
  };
  if (Signo != SIGURG && (Signo < SIGRTMIN || Signo > SIGRTMAX))
    return Off("OTTER_SAMPLE_SIGNAL names no real-time signal of this "
               "system (SIGRTMIN+N must not pass SIGRTMAX)");
  struct sigaction Old {};
  if (sigaction(Signo, nullptr, &Old) != 0 ||
      (Old.sa_flags & SA_SIGINFO) || Old.sa_handler != SIG_DFL)
    return Off("the sampling signal (OTTER_SAMPLE_SIGNAL) has a handler of "
               "the program's; choose one it does not use with "
               "OTTER_SAMPLE_SIGNAL=N (SIGRTMIN+N)");
  GetState = reinterpret_cast<ompt_get_state_t>(Lookup("ompt_get_state"));
  GetTaskInfo =
      reinterpret_cast<ompt_get_task_info_t>(Lookup("ompt_get_task_info"));
  struct sigaction Act {};
  Act.sa_sigaction = onSignal;
  Act.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&Act.sa_mask);
  if (sigaction(Signo, &Act, nullptr) != 0)
    return Off("cannot install the sampling signal's handler");
  samples::setHandler(reinterpret_cast<void *>(onSignal));
  Installed = true;
  Sampling = true;
  return true;
}

void threadBegin(std::uint32_t ThreadIndex) {
  if (Installed)
    samples::startThread(ThreadIndex, Current);
}

void threadEnd() {
  if (Installed)
    samples::endThread(Current);
}

SampleThread *currentThread() { return Current; }

namespace {
void onThreadBeginAlone(ompt_thread_t Type, ompt_data_t *) {
  if (ThreadState *T = recorder::registerThread(std::uint32_t(Type)))
    threadBegin(T->Index);
}
void onThreadEndAlone(ompt_data_t *) { threadEnd(); }
void onParallelBeginAlone(ompt_data_t *, const ompt_frame_t *,
                          ompt_data_t *Parallel, unsigned int, int,
                          const void *Codeptr) {
  Parallel->value = reinterpret_cast<std::uint64_t>(Codeptr);
}
void onSyncWaitAlone(ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint,
                     ompt_data_t *, ompt_data_t *Task, const void *) {
  noteWait(Task, Kind, Endpoint == ompt_scope_begin);
}
} // namespace

bool registerSamplingCallbacks(ompt_set_callback_t SetCallback) {
  auto Set = [&](ompt_callbacks_t Which, auto *F) {
    const ompt_set_result_t R =
        SetCallback(Which, reinterpret_cast<ompt_callback_t>(F));
    return R == ompt_set_always;
  };
  bool Ok = Set(ompt_callback_thread_begin, &onThreadBeginAlone);
  Ok &= Set(ompt_callback_thread_end, &onThreadEndAlone);
  // Without it a taskwait's samples are work (libomp's state).
  Set(ompt_callback_sync_region_wait, &onSyncWaitAlone);
  // The region's construct for its samples (a body tail-called from the
  // outlined function has no frame of it): once per region.
  RegionDataIsCode =
      Set(ompt_callback_parallel_begin, &onParallelBeginAlone);
  return Ok;
}

} // namespace otter::ompt::sampler
