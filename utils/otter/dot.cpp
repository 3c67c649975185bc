//===- otter/dot.cpp - Running Graphviz's dot -----------------------------===//
//
// dot.h.
//
//===----------------------------------------------------------------------===//
#include "dot.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace otter {

bool runDot(const std::string &Gv, const std::string &Svg,
            const std::string &What, std::string &Error) {
  // What was printed so far comes out before anything dot prints, and the
  // child does not flush the parent's buffers again.
  std::fflush(nullptr);
  pid_t Pid = fork();
  if (Pid < 0) {
    Error = std::string("cannot run dot: ") + std::strerror(errno);
    return false;
  }
  if (Pid == 0) {
    execlp("dot", "dot", "-Tsvg", Gv.c_str(), "-o", Svg.c_str(),
           (char *)nullptr);
    // 127 as a shell's "command not found": read below as "no Graphviz".
    // _exit: the child must not flush the parent's stdio buffers again.
    _exit(127);
  }
  int St = 0;
  while (waitpid(Pid, &St, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(St) || WEXITSTATUS(St) != 0) {
    Error = WIFEXITED(St) && WEXITSTATUS(St) == 127
                ? "cannot run 'dot' (install Graphviz) to " + What
                : "dot failed to " + What;
    return false;
  }
  return true;
}

std::string svgBeside(const std::string &Gv) {
  std::string Svg = Gv;
  if (Svg.size() > 3 && Svg.compare(Svg.size() - 3, 3, ".gv") == 0)
    Svg.resize(Svg.size() - 3);
  return Svg + ".svg";
}

} // namespace otter
