//===- otter/diff.h - Two runs compared, per construct -----------*- C++
//-*-===//
//
// `otter diff A B`: what changed between two traces of one program (before
// and after a change, 2 against 4 threads). Per source construct: time,
// instances, work, time on the critical path and waiting, in A and in B,
// sorted by impact; constructs only in one run apart; the program's totals.
//
// Constructs are matched by the plugin's region id (stable across builds
// of one source: a directive's id), else by kind and file:line (a
// symbolized label, or one run built without the plugin), else by kind and
// the approximate location (module+offset: same binary only).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_DIFF_H
#define OTTER_UTILS_DIFF_H

#include "analysis.h"
#include "report.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace otter::diff {

/// One construct's figures in one run (docs/utils.md, `otter diff`).
struct Side {
  std::uint64_t TimeNs = 0, Count = 0, WorkNs = 0, SpanNs = 0, WaitNs = 0;
};

struct Row {
  analysis::Kind K = analysis::Kind::Task;
  std::string Where;
  std::uint64_t RegionIdA = 0, RegionIdB = 0;
  const char *Match = ""; // "region_id", "file:line", "location"
  bool InA = false, InB = false;
  Side A, B;
  std::uint64_t ImpactNs = 0; // the largest change of time, span, waiting
};

struct Totals {
  std::uint64_t RunNs = 0, WorkNs = 0, SpanNs = 0, Tasks = 0;
  std::uint32_t Threads = 0;
  double Parallelism = 0, BurdenedSpanNs = 0;
};

struct Result {
  Totals A, B;
  std::vector<Row> Rows;         // in both, by impact
  std::vector<Row> OnlyA, OnlyB; // by time
};

Result compare(const analysis::Result &A, const analysis::LabelFn &LA,
               const analysis::Result &B, const analysis::LabelFn &LB);

void print(const Result &D, bool Json, std::ostream &OS, std::size_t Top,
           const std::string &NameA, const std::string &NameB);

} // namespace otter::diff

#endif
