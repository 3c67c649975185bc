//===- path_condense.cpp - A critical path's repeats, condensed ----------===//
//
// See path_condense.h. Cost: for each block start and each period, one key
// compare rejects almost every period at once; a period that matches is
// compared step by step over its repeats.
//
//===----------------------------------------------------------------------===//
#include "path_condense.h"

#include <algorithm>

namespace otter {

namespace {
/// How many times Keys[I, I+P) repeats back to back from I (at least 1).
std::size_t repeatsAt(const std::vector<std::uint32_t> &Keys, std::size_t I,
                      std::size_t P) {
  std::size_t R = 1;
  while (I + (R + 1) * P <= Keys.size() &&
         std::equal(Keys.begin() + I, Keys.begin() + I + P,
                    Keys.begin() + I + R * P))
    ++R;
  return R;
}
} // namespace

std::vector<PathBlock> condensePath(const std::vector<std::uint32_t> &Keys,
                                    std::size_t MaxPeriod) {
  std::vector<PathBlock> Blocks;
  std::size_t I = 0;
  while (I < Keys.size()) {
    PathBlock Best{I, 1, 1};
    std::size_t Limit = std::min(MaxPeriod, (Keys.size() - I) / 2);
    for (std::size_t P = 1; P <= Limit; ++P) {
      if (Keys[I + P] != Keys[I]) // cannot start a repeat of period P
        continue;
      std::size_t R = repeatsAt(Keys, I, P);
      if (R >= 2 && R * P > Best.steps())
        Best = {I, P, R};
    }
    Blocks.push_back(Best);
    I += Best.steps();
  }
  return Blocks;
}

} // namespace otter
