//===- otter/dump.h - `otter dump`: the raw event stream as text --*- C++
//-*-===//
//
// One line per event, as the trace reader gives them back (the events the
// runtime recorded, a folded sync event as its pair): the kind's name, then
// each field of its row in otter/event_kinds.def as label=value, in the
// row's order. Like LLVM's OMPT tests print the raw callbacks, so that tests
// can FileCheck what the adapter recorded, not only the graph made of it.
// Nothing here reads OTF2: the command (main.cpp) streams the archive into a
// Printer, one thread after another; unit tests feed it events directly.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_DUMP_H
#define OTTER_UTILS_DUMP_H

#include "otter/event_info.h"
#include "otter/events.h"
#include "report.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace otter::dump {

using analysis::jsonString;
using analysis::LabelFn;

struct Options {
  bool Time = true;  // print each event's time (ns, CLOCK_MONOTONIC)
  bool Json = false; // one JSON object per line instead of text
  /// The kinds printed, by value (empty: all).
  std::vector<bool> Kinds;
  /// The run's name table (annotations, otter/otter.h): name fields are
  /// printed as their string, quoted.
  std::vector<std::string> Names;
};

/// Parses a comma list of kind names (eventKindName) into O.Kinds. False:
/// Error names the first unknown one.
bool parseKinds(const std::string &List, Options &O, std::string &Error);

/// A field's value as `otter dump` prints it (Label resolves code addresses
/// to their source labels).
std::string fieldText(const FieldInfo &F, const Event &E, const LabelFn &Label);

/// Prints the events of one thread after another.
class Printer {
public:
  Printer(std::ostream &OS, LabelFn Label, Options O);
  /// The events that follow are thread Thread's (a line `thread N`).
  void thread(std::uint32_t Thread);
  void event(const Event &E);
  std::uint64_t printed() const { return Printed; }

private:
  std::string text(const FieldInfo &F, const Event &E) const;
  std::ostream &OS;
  LabelFn Label;
  Options O;
  std::uint32_t Thread = 0;
  std::uint64_t Printed = 0;
};

/// Every kind: its name, record, graph role and fields (`otter dump
/// --kinds`; docs/trace.md lists the same).
void listKinds(std::ostream &OS);

} // namespace otter::dump

#endif
