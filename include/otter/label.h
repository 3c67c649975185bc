//===- otter/label.h - Source labels for graph nodes and trace regions ---===//
//
// What OTTER knows about the source construct behind a code address: exact
// (from the plugin's site table, also when libomp reported an address inside
// itself and the stack walk out of it reached an instrumented call site),
// approximate (symbol+offset from dladdr, plus file:line from debug info
// where present) or unknown. Produced by the runtime's site
// index, stored in the OTF2 definitions, consumed by the graph writers.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_LABEL_H
#define OTTER_LABEL_H

#include <cstdint>
#include <string>

namespace otter {

enum class LabelQuality : std::uint8_t {
  Exact = 0,       // plugin site table, call site inside a bracketed range
  Fallback = 1,    // read from older traces only: what a walk out of libomp
                   // found (now Exact: the walk stops at the bracketed call)
  Approximate = 2, // no plugin record: symbol+offset / debug info
  Unknown = 3,     // no address or nothing known about it
};

/// The spelling in every output (nodes.csv's label_quality, the trace).
inline const char *labelQualityName(LabelQuality Q) {
  switch (Q) {
  case LabelQuality::Exact: return "exact";
  case LabelQuality::Fallback: return "fallback";
  case LabelQuality::Approximate: return "approximate";
  case LabelQuality::Unknown: return "unknown";
  }
  return "unknown";
}

struct SourceLabel;
/// "~" before every label that is not the plugin's (docs/plugin.md): a
/// file:line from debug info (OTTER_SYMBOLIZE) is approximate too.
inline const char *approximateMark(const SourceLabel &L);

struct SourceLabel {
  std::string Directive; // plugin's directive kind, e.g. "parallel for"
  std::string File;
  std::uint32_t Line = 0;
  std::uint32_t Col = 0;
  std::string Function;
  std::string Clauses;
  /// Stable id of the source construct: the plugin's hash of file, line,
  /// column and kind; without the plugin a hash of module name and offset.
  std::uint64_t RegionId = 0;
  /// Always set when there was an address: "module+0xoffset" (ASLR-proof).
  std::string Location;
  LabelQuality Quality = LabelQuality::Unknown;
};

/// The label (Function) of libomp's hidden helper team, the threads that
/// run `nowait` target tasks and hidden helper tasks (sites/site_index.cpp
/// names it; the analyses keep it out of the program's work).
inline constexpr const char *HiddenHelperTeam = "libomp hidden helper team";

inline const char *approximateMark(const SourceLabel &L) {
  // Unknown: no address was resolved, so there is no file:line to mark.
  return L.Quality == LabelQuality::Approximate ? "~" : "";
}

} // namespace otter

#endif // OTTER_LABEL_H
