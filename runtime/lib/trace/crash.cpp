//===- trace/crash.cpp - Save the trace when the application crashes -----===//
#include "trace/crash.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <sys/wait.h>
#include <unistd.h>

extern "C" pid_t _Fork(void); // glibc >= 2.34, async-signal-safe

namespace otter::trace {

namespace {

// Faults: the process may be damaged; only the trace is saved.
constexpr int Faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
// Terminations: a healthy process told to end. SIGTERM is how a launcher
// ends the other ranks of an MPI job when one fails (MPI_Abort, a crash),
// and how batch systems end a job at its limit (SIGXCPU for a CPU limit).
constexpr int Terminations[] = {SIGTERM, SIGINT, SIGHUP, SIGXCPU};
constexpr unsigned NumSignals =
    sizeof(Faults) / sizeof(Faults[0]) +
    sizeof(Terminations) / sizeof(Terminations[0]);
constexpr int Signals[NumSignals] = {SIGSEGV, SIGBUS, SIGILL,  SIGFPE, SIGABRT,
                                     SIGTERM, SIGINT, SIGHUP, SIGXCPU};
struct sigaction Old[NumSignals];
bool Installed[NumSignals];
void (*SaveFn)() = nullptr;
void (*EndFn)() = nullptr;
void (*BeforeForkFn)() = nullptr;
unsigned Timeout = 10, EndTimeout = 600;
std::atomic<bool> EndDetached{false}; // setTerminationWriterDetached
std::atomic<bool> Saving{false};
volatile sig_atomic_t Handling = 0;
// The process's own end (setEndWriting): 0 not begun, 1 writing, 2 done.
// While it writes, a termination signal is held (HeldSignal) instead of
// served by a forked copy: the copy would find the writer's locks held by
// the writing thread, which it does not have, and wait for them until its
// alarm, the process with it.
std::atomic<int> EndState{0};
std::atomic<int> HeldSignal{0};
// When the first signal's handling began (CLOCK_MONOTONIC, ns): the same
// termination signal again within DuplicateNs is the same request, not a
// second one (`timeout` sends its signal to the program and then to the
// program's process group, which holds the program again).
std::atomic<std::int64_t> FirstNs{0};
constexpr std::int64_t DuplicateNs = 500 * 1000 * 1000;

std::int64_t monotonicNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return std::int64_t(T.tv_sec) * 1000000000 + T.tv_nsec;
}

void restore(int Sig) {
  for (unsigned I = 0; I < NumSignals; ++I)
    if (Signals[I] == Sig && Installed[I])
      sigaction(Sig, &Old[I], nullptr);
}

bool isTermination(int Sig) {
  for (int T : Terminations)
    if (T == Sig)
      return true;
  return false;
}

void say(const char *Text) {
  ssize_t R = write(STDERR_FILENO, Text, __builtin_strlen(Text));
  (void)R;
}

} // namespace

bool runInChild(void (*Fn)(), unsigned TimeoutSeconds, bool Detach) {
  pid_t Child = _Fork();
  if (Child == 0) {
    // Child: only this thread exists. Default dispositions, so a crash
    // while saving just ends the child; the alarm ends a deadlock. The
    // termination signal being handled keeps its handler: a repeat of it
    // (onCrash) does not end the writing, a later one does.
    for (int S : Signals)
      if (!(S == Handling && isTermination(S)))
        signal(S, SIG_DFL);
    if (Detach)
      setsid(); // out of reach of a kill of this process's group

    alarm(TimeoutSeconds);
    Fn();
    _exit(0);
  }
  if (Child < 0)
    return false;
  timespec Step = {0, 5 * 1000 * 1000};
  int Status = 0;
  unsigned Waited = 0;
  for (;;) {
    pid_t R = waitpid(Child, &Status, WNOHANG);
    if (R == Child)
      break;
    if (R < 0 && errno != EINTR)
      return false;
    if (Waited++ >= TimeoutSeconds * 200) {
      kill(Child, SIGKILL);
      waitpid(Child, &Status, 0);
      return false;
    }
    nanosleep(&Step, nullptr);
  }
  return WIFEXITED(Status) && WEXITSTATUS(Status) == 0;
}

namespace {

void onCrash(int Sig, siginfo_t *, void *) {
  int SavedErrno = errno;
  if (isTermination(Sig) && EndState.load() != 0) {
    // Held while the end writes (its writer delivers it when done); a
    // second one, or one after the end, takes its course at once.
    int Expected = 0;
    if (EndState.load() == 1 &&
        HeldSignal.compare_exchange_strong(Expected, Sig)) {
      errno = SavedErrno;
      return;
    }
    restore(Sig);
    errno = SavedErrno;
    raise(Sig);
    return;
  }
  // The same termination signal again at once, on another thread or in
  // the writing copy: the request already being served.
  if (Saving.load() && Sig == Handling && isTermination(Sig) &&
      monotonicNs() - FirstNs.load() < DuplicateNs) {
    errno = SavedErrno;
    return;
  }
  Handling = Sig;
  if (!Saving.exchange(true)) {
    FirstNs.store(monotonicNs());
    if (isTermination(Sig) && EndFn) {
      if (Sig == SIGINT)
        say("\notter: interrupted: writing what was recorded (Ctrl-C again "
            "to skip)\n");
      // A second signal while the child writes ends the program (this
      // handler runs again, finds Saving set and re-raises) and, from a
      // terminal, the child too (same process group, default actions).
      struct sigaction Again = {};
      Again.sa_sigaction = onCrash;
      Again.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
      sigemptyset(&Again.sa_mask);
      sigaction(Sig, &Again, nullptr);
      if (BeforeForkFn)
        BeforeForkFn();
      runInChild(EndFn, EndTimeout, EndDetached.load());
    } else if (SaveFn) {
      if (BeforeForkFn)
        BeforeForkFn();
      runInChild(SaveFn, Timeout);
    }
  }
  // Re-deliver with the disposition the application had: the signal is
  // blocked while we run, so it arrives when this handler returns (and a
  // synchronous fault simply happens again).
  restore(Sig);
  errno = SavedErrno;
  raise(Sig);
}

} // namespace

namespace {
void install(const int *List, unsigned Count, bool OnlyDefault) {
  for (unsigned I = 0; I < NumSignals; ++I) {
    bool Listed = false;
    for (unsigned J = 0; J < Count; ++J)
      Listed |= List[J] == Signals[I];
    if (!Listed || Installed[I])
      continue;
    struct sigaction Cur;
    if (sigaction(Signals[I], nullptr, &Cur) != 0)
      continue;
    bool Custom = (Cur.sa_flags & SA_SIGINFO) || Cur.sa_handler != SIG_DFL;
    // Respect an application that ignores the signal; and one that handles
    // a termination signal itself: it decides whether the run ends.
    if ((!(Cur.sa_flags & SA_SIGINFO) && Cur.sa_handler == SIG_IGN) ||
        (OnlyDefault && Custom))
      continue;
    struct sigaction A = {};
    A.sa_sigaction = onCrash;
    A.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&A.sa_mask);
    if (sigaction(Signals[I], &A, &Old[I]) == 0)
      Installed[I] = true;
  }
}
} // namespace

void installCrashHandlers(void (*Save)(), unsigned TimeoutSeconds) {
  static std::atomic<bool> Done{false};
  if (Done.exchange(true))
    return;
  SaveFn = Save;
  Timeout = TimeoutSeconds;
  install(Faults, sizeof(Faults) / sizeof(Faults[0]), false);
}

void installTerminationHandlers(void (*End)(), unsigned TimeoutSeconds) {
  static std::atomic<bool> Done{false};
  if (Done.exchange(true))
    return;
  EndFn = End;
  EndTimeout = TimeoutSeconds;
  install(Terminations, sizeof(Terminations) / sizeof(Terminations[0]), true);
}

void setTerminationWriterDetached(bool Detached) { EndDetached = Detached; }

int signalBeingHandled() { return Handling; }

void setBeforeFork(void (*Fn)()) { BeforeForkFn = Fn; }

void setEndWriting(bool Writing) {
  if (Writing) {
    EndState.store(1);
    return;
  }
  EndState.store(2);
  if (int Sig = HeldSignal.exchange(0)) {
    restore(Sig);
    raise(Sig);
  }
}

} // namespace otter::trace
