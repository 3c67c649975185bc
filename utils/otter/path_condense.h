//===- path_condense.h - A critical path's repeats, condensed -----*- C++ -*-===//
//
// A real program's critical path repeats itself: a time-step loop walks the
// same constructs in the same order thousands of times (LULESH: 18,969
// steps), a recursion alternates between its two task constructs. The
// condensed path shows each repeated run of steps once, with how many times
// it repeats and the totals over the repeats (`otter parallelism` and the
// report; --full lists every step).
//
// Steps are compared by a key per step (the caller's: kind, construct and
// task label). Greedy from the start: at each step, the period (1 to
// MaxPeriod steps) whose back-to-back repeats cover the most steps, if it
// repeats at least twice (on a tie the shorter period); else one step.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_PATH_CONDENSE_H
#define OTTER_UTILS_PATH_CONDENSE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace otter {

/// Steps [First, First + Period * Repeats) of the path: Period steps
/// repeated Repeats times (a single step: Period 1, Repeats 1).
struct PathBlock {
  std::size_t First = 0, Period = 1, Repeats = 1;
  std::size_t steps() const { return Period * Repeats; }
};

/// The blocks, in path order, covering every step exactly once.
std::vector<PathBlock> condensePath(const std::vector<std::uint32_t> &Keys,
                                    std::size_t MaxPeriod = 256);

} // namespace otter

#endif
