//===- trace/crash.cpp - Save the trace when the application crashes -----===//
#include "trace/crash.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <sys/wait.h>
#include <unistd.h>

extern "C" pid_t _Fork(void); // glibc >= 2.34, async-signal-safe

namespace otter::trace {

namespace {

// SIGTERM: how a launcher ends the other ranks of an MPI job when one
// fails (MPI_Abort, a crash), and how batch systems end a job at its limit.
constexpr int Signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM};
struct sigaction Old[sizeof(Signals) / sizeof(Signals[0])];
void (*SaveFn)() = nullptr;
unsigned Timeout = 10;
std::atomic<bool> Saving{false};

void restore(int Sig) {
  for (unsigned I = 0; I < sizeof(Signals) / sizeof(Signals[0]); ++I)
    if (Signals[I] == Sig)
      sigaction(Sig, &Old[I], nullptr);
}

} // namespace

bool runInChild(void (*Fn)(), unsigned TimeoutSeconds) {
  pid_t Child = _Fork();
  if (Child == 0) {
    // Child: only this thread exists. Default dispositions, so a crash
    // while saving just ends the child; the alarm ends a deadlock.
    for (int S : Signals)
      signal(S, SIG_DFL);
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
  if (!Saving.exchange(true) && SaveFn)
    runInChild(SaveFn, Timeout);
  // Re-deliver with the disposition the application had: the signal is
  // blocked while we run, so it arrives when this handler returns (and a
  // synchronous fault simply happens again).
  restore(Sig);
  errno = SavedErrno;
  raise(Sig);
}

} // namespace

void installCrashHandlers(void (*Save)(), unsigned TimeoutSeconds) {
  static std::atomic<bool> Installed{false};
  if (Installed.exchange(true))
    return;
  SaveFn = Save;
  Timeout = TimeoutSeconds;
  for (unsigned I = 0; I < sizeof(Signals) / sizeof(Signals[0]); ++I) {
    struct sigaction Cur;
    if (sigaction(Signals[I], nullptr, &Cur) != 0)
      continue;
    // Respect an application that ignores the signal.
    if (!(Cur.sa_flags & SA_SIGINFO) && Cur.sa_handler == SIG_IGN)
      continue;
    struct sigaction A = {};
    A.sa_sigaction = onCrash;
    A.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&A.sa_mask);
    sigaction(Signals[I], &A, &Old[I]);
  }
}

} // namespace otter::trace
