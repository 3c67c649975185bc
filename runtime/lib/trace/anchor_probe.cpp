//===- trace/anchor_probe.cpp - Open a damaged anchor file safely ---------===//
#include "trace/anchor_probe.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <mutex>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define OTTER_PROBE_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OTTER_PROBE_SANITIZED 1
#endif
#ifdef OTTER_PROBE_SANITIZED
extern "C" void __sanitizer_set_report_fd(void *Fd);
extern "C" void __sanitizer_set_death_callback(void (*Callback)(void));
#endif

namespace otter::trace {

namespace {

/// What OTF2 may take on top of what the copy has when it starts: an
/// anchor file is a few hundred bytes, but OTF2 believes its counts and
/// sizes (fuzzing found a 5 KB archive whose anchor makes it calloc
/// 2.9 GB; issue 14 saw 22.6 GB reserved).
constexpr std::uint64_t AnchorMemory = 512ull << 20;

/// Exit statuses of the copy.
enum : int {
  ProbeOpened = 0,
  ProbeFailed = 3,      // OTF2 said no: the caller's own open says why
  ProbeOutOfMemory = 4, // OTF2 said no because the limit was reached
  ProbeDied = 5,        // a sanitizer build's runtime ended the copy
};

bool OutOfMemory = false;
OTF2_ErrorCode noteMemoryErrors(void *, const char *, uint64_t, const char *,
                                OTF2_ErrorCode Code, const char *, va_list) {
  if (Code == OTF2_ERROR_MEM_FAULT || Code == OTF2_ERROR_MEM_ALLOC_FAILED ||
      Code == OTF2_ERROR_ENOMEM)
    OutOfMemory = true;
  return Code;
}

/// In the copy: its address space may grow by AnchorMemory, no more.
void limitAddressSpace() {
  int Fd = open("/proc/self/statm", O_RDONLY);
  if (Fd < 0)
    return;
  char Buf[64];
  ssize_t N = read(Fd, Buf, sizeof Buf - 1);
  close(Fd);
  if (N <= 0)
    return;
  Buf[N] = 0;
  std::uint64_t Pages = std::strtoull(Buf, nullptr, 10);
  long PageSize = sysconf(_SC_PAGESIZE);
  if (Pages == 0 || PageSize <= 0)
    return;
  rlimit L;
  L.rlim_cur = L.rlim_max = Pages * std::uint64_t(PageSize) + AnchorMemory;
  setrlimit(RLIMIT_AS, &L);
}

} // namespace

namespace {

/// An anchor file as it was when a probe opened it: the same file, size
/// and modification time need no second probe.
struct Opened {
  dev_t Dev;
  ino_t Ino;
  off_t Size;
  std::int64_t MTimeSec, MTimeNsec;
  bool operator==(const Opened &) const = default;
};
std::mutex OpenedMutex;
std::vector<Opened> OpenedAnchors; // guarded by OpenedMutex
std::atomic<unsigned> ProbesRun{0};

bool describe(const std::string &Anchor, Opened &O) {
  struct stat St;
  if (stat(Anchor.c_str(), &St) != 0)
    return false;
  O = {St.st_dev, St.st_ino, St.st_size, std::int64_t(St.st_mtim.tv_sec),
       std::int64_t(St.st_mtim.tv_nsec)};
  return true;
}

bool probe(const std::string &Anchor, std::string &Error, unsigned DeadlineMs,
           bool &OpenedIt);

} // namespace

unsigned anchorProbesRun() { return ProbesRun.load(); }

bool anchorOpensInTime(const std::string &Anchor, std::string &Error,
                       unsigned DeadlineMs) {
  // A job's utility opens each rank's archive more than once (definitions,
  // then events): one probe per anchor file, not per open.
  Opened Now;
  bool Known = describe(Anchor, Now);
  if (Known) {
    std::lock_guard<std::mutex> L(OpenedMutex);
    for (const Opened &O : OpenedAnchors)
      if (O == Now)
        return true;
  }
  bool OpenedIt = false;
  bool Ok = probe(Anchor, Error, DeadlineMs, OpenedIt);
  if (OpenedIt && Known) {
    std::lock_guard<std::mutex> L(OpenedMutex);
    OpenedAnchors.push_back(Now);
  }
  return Ok;
}

namespace {

bool probe(const std::string &Anchor, std::string &Error, unsigned DeadlineMs,
           bool &OpenedIt) {
  ProbesRun.fetch_add(1);
  pid_t Pid = fork();
  if (Pid < 0)
    return true; // no probe: open it directly, as before
  if (Pid == 0) {
    // The copy only tells whether OTF2 gets through the anchor; its
    // messages would repeat the caller's.
    int Null = open("/dev/null", O_WRONLY);
    if (Null >= 0) {
      dup2(Null, STDERR_FILENO);
#ifdef OTTER_PROBE_SANITIZED
      // A sanitizer build dies quietly too when the limit is reached (its
      // allocator does not return null): that is the probe's answer, not
      // a finding of the sanitizer run (whose reports go to files).
      __sanitizer_set_report_fd(reinterpret_cast<void *>(std::intptr_t(Null)));
      // ...and ends with this status only: not through a death callback
      // the copy inherited (libFuzzer's would save the input as a crash).
      __sanitizer_set_death_callback([] { _exit(ProbeDied); });
#endif
    }
    limitAddressSpace();
    OTF2_Error_RegisterCallback(noteMemoryErrors, nullptr);
    OTF2_Reader *R = OTF2_Reader_Open(Anchor.c_str());
    _exit(R ? ProbeOpened : OutOfMemory ? ProbeOutOfMemory : ProbeFailed);
  }
  // Polled from 0.1 ms, doubling to 5 ms: a sound anchor opens in well
  // under a millisecond, and a job reads hundreds.
  long TickNs = 100 * 1000;
  for (long WaitedNs = 0; WaitedNs < long(DeadlineMs) * 1000000;
       WaitedNs += TickNs, TickNs = std::min(TickNs * 2, 5L * 1000 * 1000)) {
    int Status = 0;
    pid_t Done = waitpid(Pid, &Status, WNOHANG);
    if (Done < 0 && errno != EINTR)
      return true;
    if (Done == Pid) {
      OpenedIt = WIFEXITED(Status) && WEXITSTATUS(Status) == ProbeOpened;
      if (WIFEXITED(Status) && (WEXITSTATUS(Status) == ProbeOpened ||
                                WEXITSTATUS(Status) == ProbeFailed))
        return true;
      // Out of memory, or OTF2 crashed on it: opening it here would do
      // the same to the caller.
      Error =
          "'" + Anchor + "' is damaged: OTF2 " +
          (WIFEXITED(Status) && WEXITSTATUS(Status) == ProbeOutOfMemory
               ? "would need more than " + std::to_string(AnchorMemory >> 20) +
                     " MiB of memory to read its anchor file (a corrupt "
                     "count in it)"
               : std::string("fails on its anchor file")) +
          "; the archive cannot be read";
      return false;
    }
    const timespec Tick = {0, TickNs};
    nanosleep(&Tick, nullptr);
  }
  kill(Pid, SIGKILL);
  while (waitpid(Pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  Error = "'" + Anchor + "' is damaged: OTF2 did not get through its anchor " +
          "file in " + std::to_string(DeadlineMs / 1000.0).substr(0, 3) +
          " s (a corrupt count in it); the archive cannot be read";
  return false;
}

} // namespace

} // namespace otter::trace
