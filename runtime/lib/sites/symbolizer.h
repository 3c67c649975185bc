//===- sites/symbolizer.h - file:line of code addresses from debug info -*- C++ -*-===//
//
// OTTER_SYMBOLIZE=1: approximate labels (code built without the plugin) get
// a file and line from the program's debug info, through one llvm-symbolizer
// process kept for the whole run and asked one address at a time (its
// interactive mode): the debug info is read once, not once per address, so
// the cost lands on the run once rather than at every new call site
// (docs/plugin.md, "Without the plugin").
//
// The caller serialises calls (site_index.cpp holds its mutex). A
// symbolizer that cannot be started, dies or does not answer within a few
// seconds is given up for the rest of the run: labels then stay
// module+offset, and the program never waits on it again.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_SITES_SYMBOLIZER_H
#define OTTER_SITES_SYMBOLIZER_H

#include <cstdint>
#include <string>

namespace otter {

class Symbolizer {
public:
  explicit Symbolizer(std::string Tool) : Tool(std::move(Tool)) {}
  ~Symbolizer();
  Symbolizer(const Symbolizer &) = delete;
  Symbolizer &operator=(const Symbolizer &) = delete;

  /// The source line of the instruction at \p Offset in \p Module (an
  /// offset relative to the module's load address). False when unknown.
  bool lookup(const std::string &Module, std::uintptr_t Offset,
              std::string &File, std::uint32_t &Line);

private:
  bool start();
  void stop();
  bool ask(const std::string &Query, std::string &Answer);

  std::string Tool;
  int Fd = -1;  // our end of the socket pair (the child's stdin and stdout)
  int Pid = -1; // the symbolizer process
  bool GaveUp = false;
};

/// llvm-symbolizer's answer for one address: a "function\nfile:line:col\n"
/// pair per frame, the innermost inlined frame first; the file and line of
/// the innermost frame outside OTTER's annotation header (otter/otter.h).
bool parseSymbolizerFrames(const std::string &Out, std::string &File,
                           std::uint32_t &Line);

} // namespace otter

#endif
