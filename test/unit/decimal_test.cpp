// Unit tests for graph/decimal.h, the tables' number formatting: the same
// text as std::to_chars for every digit count and its edges, and the
// counter's text across carries.
#include "graph/decimal.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace otter;

namespace {

std::string viaToChars(std::uint64_t V) {
  char B[32];
  return std::string(B, std::to_chars(B, B + sizeof B, V).ptr);
}

std::string viaPut(std::uint64_t V) {
  char B[64];
  return std::string(B, decimal::put(B, V));
}

std::string viaPut32(std::uint32_t V) {
  char B[64];
  return std::string(B, decimal::put(B, V));
}

} // namespace

TEST(Decimal, PutMatchesToCharsAtEveryLength) {
  std::vector<std::uint64_t> Values = {
      0, std::numeric_limits<std::uint64_t>::max(),
      std::numeric_limits<std::uint32_t>::max(),
      std::uint64_t(std::numeric_limits<std::uint32_t>::max()) + 1};
  // 10^k - 1, 10^k, 10^k + 1 and a value with no zero digits per length.
  std::uint64_t P = 1;
  for (int K = 0; K < 20; ++K, P *= 10) {
    Values.push_back(P - 1);
    Values.push_back(P);
    Values.push_back(P + 1);
    Values.push_back(P + P / 3 * 2 + 7);
  }
  std::mt19937_64 R(42);
  for (int I = 0; I < 100000; ++I)
    Values.push_back(R() >> (R() % 64));
  for (std::uint64_t V : Values) {
    EXPECT_EQ(viaPut(V), viaToChars(V)) << V;
    if (V <= std::numeric_limits<std::uint32_t>::max()) {
      EXPECT_EQ(viaPut32(std::uint32_t(V)), viaToChars(V)) << V;
    }
  }
}

TEST(Decimal, CounterCountsInText) {
  decimal::DecimalCounter C;
  for (std::uint64_t V = 0; V < 100500; ++V, C.next()) {
    ASSERT_EQ(C.value(), V);
    ASSERT_EQ(std::string(C.text(), C.size()), viaToChars(V));
  }
  for (std::uint64_t Start :
       {std::uint64_t(999999999), std::uint64_t(4294967295),
        std::uint64_t(9999999999999999998u)}) {
    C.set(Start);
    for (int I = 0; I < 3; ++I, C.next())
      ASSERT_EQ(std::string(C.text(), C.size()), viaToChars(Start + I));
  }
  // copy(): the text, and what follows it may be overwritten.
  C.set(1234567);
  char B[64];
  char *E = C.copy(B);
  EXPECT_EQ(std::string(B, E), "1234567");
}
