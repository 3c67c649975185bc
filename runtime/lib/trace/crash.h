//===- trace/crash.h - Save the trace when the application crashes -*- C++
//-*-===//
//
// Handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT that save
// what can be saved and then let the signal do what it would have done without
// the tool (same exit status, same core dump). The saving (flush buffers,
// write definitions, close the archive) is not async-signal-safe, so it runs
// in a child made with _Fork (async-signal-safe, no atfork handlers) from the
// handler: the crashed process only forks, waits a bounded time and
// re-raises. If the child deadlocks (a lock held by a thread that no longer
// exists in it) it is killed after the timeout; the application's fate is
// unchanged either way.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_CRASH_H
#define OTTER_TRACE_CRASH_H

namespace otter::trace {

/// Installs the handlers once. Save runs in the child; it must not return
/// control to application code (the child _exits after it).
void installCrashHandlers(void (*Save)(), unsigned TimeoutSeconds = 10);

/// Handlers for the signals that end a healthy process: SIGTERM (mpirun
/// ending the other ranks, batch systems at a time limit), SIGINT (Ctrl-C),
/// SIGHUP, SIGXCPU -- only those the program leaves at their default action
/// when this is called: a program that handles a signal keeps it. The
/// process is intact, so End (in a forked child, as Save) may write
/// everything, the graph included; a second signal during it (Ctrl-C again)
/// ends the child and the program at once. Then the signal takes its
/// default course: same status as without the tool.
void installTerminationHandlers(void (*End)(), unsigned TimeoutSeconds);
/// Detached: End's child leaves the process group and session (setsid) so
/// that a launcher killing the whole group once one process has ended
/// (mpirun after its first rank ends by the signal) does not end the
/// writing half done; the child then finishes even if this process is
/// killed. For an MPI rank; a terminal's second Ctrl-C no longer skips it.
void setTerminationWriterDetached(bool Detached);

/// Runs in the signal handler just before the fork (async-signal-safe
/// code only): the caller's chance to bring its threads' writing to a stop,
/// so that the copy finds no lock held by a thread it does not have.
void setBeforeFork(void (*Fn)());

/// The process's own end writes everything (Writing: from its start to
/// its finish). A termination signal arriving meanwhile is held, not served
/// by End in a forked copy -- the copy would wait forever for the writer's
/// locks, held by the writing thread it does not have -- and delivered,
/// with the disposition the program had, by setEndWriting(false); a second
/// one, or one after the end, takes its course at once.
void setEndWriting(bool Writing);
/// The signal being handled (0: none), for End's message.
int signalBeingHandled();

/// Runs Fn in a _Fork'ed child (a frozen copy of this process, so threads
/// still running here cannot race with it) and waits for it at most
/// TimeoutSeconds. Async-signal-safe in the parent. True if the child
/// exited normally.
bool runInChild(void (*Fn)(), unsigned TimeoutSeconds, bool Detach = false);

} // namespace otter::trace

#endif
