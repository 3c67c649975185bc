//===- sites/symbolizer.cpp - file:line of code addresses from debug info -===//
//
// One llvm-symbolizer process for the run (symbolizer.h). It is started
// with posix_spawn, not fork: this runs where libomp holds its own locks (a
// buffer flushed from a callback, the tool's finalize), and fork() would run
// libomp's atfork handler, which waits for those locks forever; glibc's
// posix_spawn runs no atfork handler. It talks over a socket pair, not
// pipes, so that a symbolizer that died gets us EPIPE from send(...,
// MSG_NOSIGNAL) instead of a SIGPIPE in the program.
//
//===----------------------------------------------------------------------===//
#include "sites/symbolizer.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

namespace otter {

namespace {
/// How long one answer may take (the first one reads the debug info).
constexpr int AnswerTimeoutMs = 10000;

std::string hexOffset(std::uintptr_t V) {
  static const char Digits[] = "0123456789abcdef";
  std::string S;
  do {
    S.insert(S.begin(), Digits[V & 15]);
    V >>= 4;
  } while (V);
  return "0x" + S;
}

long long nowMs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (long long)T.tv_sec * 1000 + T.tv_nsec / 1000000;
}
} // namespace

Symbolizer::~Symbolizer() { stop(); }

bool Symbolizer::start() {
  int Pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Pair) != 0)
    return false;
  char *Argv[] = {const_cast<char *>(Tool.c_str()),
                  const_cast<char *>("--relative-address"), nullptr};
  posix_spawn_file_actions_t Actions;
  pid_t Child = -1;
  bool Spawned = false;
  if (posix_spawn_file_actions_init(&Actions) == 0) {
    // dup2 clears close-on-exec on the copies: the child keeps 0 and 1.
    Spawned = posix_spawn_file_actions_adddup2(&Actions, Pair[1], 0) == 0 &&
              posix_spawn_file_actions_adddup2(&Actions, Pair[1], 1) == 0 &&
              posix_spawnp(&Child, Tool.c_str(), &Actions, nullptr, Argv,
                           environ) == 0;
    posix_spawn_file_actions_destroy(&Actions);
  }
  close(Pair[1]);
  if (!Spawned) {
    close(Pair[0]);
    return false;
  }
  Fd = Pair[0];
  Pid = Child;
  return true;
}

void Symbolizer::stop() {
  if (Fd >= 0) {
    close(Fd); // end of input: the symbolizer exits
    Fd = -1;
  }
  if (Pid > 0) {
    // It exits at end of input at once; one that does not is ended.
    int Status = 0;
    for (int I = 0; I < 100 && waitpid(Pid, &Status, WNOHANG) == 0; ++I) {
      timespec Ten{0, 10 * 1000 * 1000};
      nanosleep(&Ten, nullptr);
      if (I == 99) {
        kill(Pid, SIGKILL);
        while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
        }
      }
    }
    Pid = -1;
  }
}

/// One query line out, one answer (ending with an empty line) back.
bool Symbolizer::ask(const std::string &Query, std::string &Answer) {
  std::size_t Sent = 0;
  while (Sent < Query.size()) {
    ssize_t N = send(Fd, Query.data() + Sent, Query.size() - Sent,
                     MSG_NOSIGNAL);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Sent += static_cast<std::size_t>(N);
  }
  long long Deadline = nowMs() + AnswerTimeoutMs;
  char Buf[512];
  while (Answer.size() < 2 ||
         Answer.compare(Answer.size() - 2, 2, "\n\n") != 0) {
    long long Left = Deadline - nowMs();
    if (Left <= 0)
      return false;
    pollfd P{Fd, POLLIN, 0};
    int R = poll(&P, 1, static_cast<int>(Left));
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      return false;
    ssize_t N = recv(Fd, Buf, sizeof Buf, 0);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Answer.append(Buf, static_cast<std::size_t>(N));
  }
  return true;
}

bool Symbolizer::lookup(const std::string &Module, std::uintptr_t Offset,
                        std::string &File, std::uint32_t &Line) {
  if (GaveUp || Tool.empty())
    return false;
  if (Fd < 0 && !start()) {
    GaveUp = true;
    return false;
  }
  // A module path with a quote or a line break cannot be put on the line.
  if (Module.find_first_of("\"\n") != std::string::npos)
    return false;
  std::string Answer;
  if (!ask("\"" + Module + "\" " + hexOffset(Offset) + "\n", Answer)) {
    GaveUp = true; // died, or too slow: never wait on it again
    stop();
    return false;
  }
  return parseSymbolizerFrames(Answer, File, Line);
}

/// llvm-symbolizer's answer for one address: a "function\nfile:line:col\n"
/// pair per frame, the innermost inlined frame first. The innermost frame
/// is the call's line, except in OTTER's annotation header (otter/otter.h),
/// whose always-inline functions call omp_control_tool for their caller:
/// there the first frame outside the header is.
bool parseSymbolizerFrames(const std::string &Out, std::string &File,
                           std::uint32_t &Line) {
  bool Found = false;
  std::size_t Pos = 0;
  while (Pos < Out.size()) {
    std::size_t FnEnd = Out.find('\n', Pos);
    if (FnEnd == std::string::npos)
      break;
    std::size_t LocEnd = Out.find('\n', FnEnd + 1);
    std::string Loc = Out.substr(FnEnd + 1, LocEnd == std::string::npos
                                                ? std::string::npos
                                                : LocEnd - FnEnd - 1);
    Pos = LocEnd == std::string::npos ? Out.size() : LocEnd + 1;
    std::size_t C2 = Loc.rfind(':');
    std::size_t C1 = C2 == std::string::npos || C2 == 0
                         ? std::string::npos
                         : Loc.rfind(':', C2 - 1);
    if (C1 == std::string::npos)
      break; // the blank line after the last frame
    std::string F = Loc.substr(0, C1);
    auto L = static_cast<std::uint32_t>(
        std::strtoul(Loc.c_str() + C1 + 1, nullptr, 10));
    if (F == "??" || L == 0)
      break;
    if (!Found || File.ends_with("otter/otter.h")) {
      File = F;
      Line = L;
      Found = true;
    }
    if (!File.ends_with("otter/otter.h"))
      break;
  }
  return Found;
}

} // namespace otter
