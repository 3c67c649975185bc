// Unit and property tests of the critical path's condensation
// (utils/otter/path_condense.h): the blocks expand back to the path, every
// block's repeats are really equal, and no two neighbouring blocks could
// have been one (checked against a brute force on random paths).
#include "path_condense.h"

#include <gtest/gtest.h>

#include <random>

using namespace otter;

namespace {
std::vector<std::uint32_t> expand(const std::vector<std::uint32_t> &Keys,
                                  const std::vector<PathBlock> &Blocks) {
  std::vector<std::uint32_t> Out;
  for (const PathBlock &B : Blocks)
    for (std::size_t R = 0; R < B.Repeats; ++R)
      for (std::size_t S = 0; S < B.Period; ++S)
        Out.push_back(Keys[B.First + S]);
  return Out;
}
} // namespace

TEST(PathCondense, AlternatingRecursionIsOneBlock) {
  // initial, implicit, (task 11, task 13) x 5, implicit, initial
  std::vector<std::uint32_t> Keys = {0, 1, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 1, 0};
  std::vector<PathBlock> B = condensePath(Keys);
  ASSERT_EQ(B.size(), 5u);
  EXPECT_EQ(B[2].First, 2u);
  EXPECT_EQ(B[2].Period, 2u);
  EXPECT_EQ(B[2].Repeats, 5u);
  EXPECT_EQ(B[4].First, 13u);
}

TEST(PathCondense, TimeStepLoopWithALongPeriod) {
  std::vector<std::uint32_t> Keys = {100};
  for (int Step = 0; Step < 1000; ++Step)
    for (std::uint32_t K = 0; K < 40; ++K)
      Keys.push_back(K);
  Keys.push_back(100);
  std::vector<PathBlock> B = condensePath(Keys);
  ASSERT_EQ(B.size(), 3u);
  EXPECT_EQ(B[1].Period, 40u);
  EXPECT_EQ(B[1].Repeats, 1000u);
}

TEST(PathCondense, NoRepeatsLeavesEveryStep) {
  std::vector<std::uint32_t> Keys = {1, 2, 3, 4, 5};
  EXPECT_EQ(condensePath(Keys).size(), 5u);
  EXPECT_TRUE(condensePath({}).empty());
}

TEST(PathCondense, RandomPathsExpandBackAndAreMaximalAtEachStart) {
  std::mt19937 Rng(7);
  for (int Trial = 0; Trial < 500; ++Trial) {
    std::vector<std::uint32_t> Keys;
    std::size_t N = Rng() % 60;
    // Few distinct keys, with planted repeats, so that blocks happen.
    while (Keys.size() < N) {
      std::size_t P = 1 + Rng() % 4, R = 1 + Rng() % 4;
      std::vector<std::uint32_t> Unit;
      for (std::size_t I = 0; I < P; ++I)
        Unit.push_back(Rng() % 3);
      for (std::size_t I = 0; I < R; ++I)
        Keys.insert(Keys.end(), Unit.begin(), Unit.end());
    }
    std::vector<PathBlock> Blocks = condensePath(Keys, 8);
    ASSERT_EQ(expand(Keys, Blocks), Keys) << "trial " << Trial;
    std::size_t Next = 0;
    for (const PathBlock &B : Blocks) {
      ASSERT_EQ(B.First, Next);
      Next += B.steps();
      // Brute force: no period up to 8 covers more steps from B.First.
      for (std::size_t P = 1; P <= 8; ++P) {
        std::size_t R = 0;
        while (B.First + (R + 1) * P <= Keys.size() &&
               std::equal(Keys.begin() + B.First, Keys.begin() + B.First + P,
                          Keys.begin() + B.First + R * P))
          ++R;
        if (R >= 2) {
          EXPECT_LE(R * P, B.steps()) << "trial " << Trial << " at " << B.First;
        }
      }
    }
  }
}
