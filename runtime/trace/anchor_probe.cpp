//===- trace/anchor_probe.cpp - Open a damaged anchor file safely ---------===//
#include "trace/anchor_probe.h"

#include <otf2/otf2.h>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace otter::trace {

bool anchorOpensInTime(const std::string &Anchor, std::string &Error,
                       unsigned DeadlineMs) {
  pid_t Pid = fork();
  if (Pid < 0)
    return true; // no probe: open it directly, as before
  if (Pid == 0) {
    // The copy only tells whether OTF2 gets through the anchor; its
    // messages would repeat the caller's.
    int Null = open("/dev/null", O_WRONLY);
    if (Null >= 0)
      dup2(Null, STDERR_FILENO);
    OTF2_Reader *R = OTF2_Reader_Open(Anchor.c_str());
    _exit(R ? 0 : 1);
  }
  const timespec Tick = {0, 5 * 1000 * 1000};
  for (unsigned Waited = 0; Waited < DeadlineMs; Waited += 5) {
    int Status = 0;
    pid_t Done = waitpid(Pid, &Status, WNOHANG);
    if (Done == Pid || (Done < 0 && errno != EINTR))
      return true;
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

} // namespace otter::trace
