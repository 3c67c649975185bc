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
#include <string>
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

/// A repeated block's Period steps, each with its Ns and Instances summed
/// over the repeats (the rest of each step as its first repeat's); TotalNs:
/// the block's time. Step: any step type with those two fields.
template <class Step>
std::vector<Step> blockTotals(const std::vector<Step> &Path, const PathBlock &B,
                              std::uint64_t &TotalNs) {
  std::vector<Step> Sum(Path.begin() + std::ptrdiff_t(B.First),
                        Path.begin() + std::ptrdiff_t(B.First + B.Period));
  TotalNs = 0;
  for (Step &S : Sum)
    S.Ns = S.Instances = 0;
  for (std::size_t I = 0; I < B.steps(); ++I) {
    Sum[I % B.Period].Ns += Path[B.First + I].Ns;
    Sum[I % B.Period].Instances += Path[B.First + I].Instances;
    TotalNs += Path[B.First + I].Ns;
  }
  return Sum;
}

/// The heading of a repeated block's rows: "20 times, 6 steps each:".
inline std::string blockHeading(const PathBlock &B) {
  return std::to_string(B.Repeats) + " times, " + std::to_string(B.Period) +
         " step" + (B.Period > 1 ? "s" : "") + " each:";
}

} // namespace otter

#endif
