//===- graph/decimal.h - Decimal text of the graph tables' numbers -*- C++
//-*-===//
//
// The tables of a big graph (nodes.csv, graph.csv) are millions of rows of
// numbers, and formatting them was most of the time of writing the rows:
// std::to_chars counts the digits in a loop, then makes two digits per
// step, each step waiting for the previous division. Here a number is split
// into groups of four digits, each copied from a table of all of them, and
// the digit count is a few comparisons (node ids have 6 or 7 digits in such
// a graph: the branches are mostly predicted): 2.4x faster than to_chars on
// random node ids. The text is the same as std::to_chars' (a unit test
// compares them).
//
// DecimalCounter is the text of a number that goes up by one, row after
// row (nodes.csv's ids): incremented in place, usually in its last digit.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_DECIMAL_H
#define OTTER_GRAPH_DECIMAL_H

#include <cstdint>
#include <cstring>

namespace otter::decimal {

/// "0000" "0001" ... "9999": four digits per load (40 KB, which stays
/// cached while a table is written; a quarter faster than a table of
/// pairs, whose digits need twice the divisions).
struct Quads {
  char Text[4 * 10000];
  constexpr Quads() : Text{} {
    for (unsigned I = 0; I < 10000; ++I) {
      Text[4 * I] = char('0' + I / 1000);
      Text[4 * I + 1] = char('0' + I / 100 % 10);
      Text[4 * I + 2] = char('0' + I / 10 % 10);
      Text[4 * I + 3] = char('0' + I % 10);
    }
  }
};
inline constexpr Quads Quad;

/// Four digits of V < 10,000 at P (leading zeros).
inline void put4(char *P, std::uint32_t V) {
  std::memcpy(P, Quad.Text + 4 * V, 4);
}
/// Eight digits of V < 100,000,000 at P (leading zeros).
inline void put8(char *P, std::uint32_t V) {
  put4(P, V / 10000);
  put4(P + 4, V % 10000);
}
/// V < 10,000 at P, without leading zeros; returns its end.
[[gnu::always_inline]] inline char *putSmall(char *P, std::uint32_t V) {
  if (V < 100) {
    if (V < 10) {
      *P = char('0' + V);
      return P + 1;
    }
    std::memcpy(P, Quad.Text + 4 * V + 2, 2);
    return P + 2;
  }
  if (V < 1000) {
    std::memcpy(P, Quad.Text + 4 * V + 1, 3);
    return P + 3;
  }
  put4(P, V);
  return P + 4;
}

/// The longest text put() makes (2^64 - 1).
inline constexpr unsigned MaxLen = 20;

/// V's decimal text at P (no terminator); returns its end. Inline: a
/// call costs as much as the digits.
[[gnu::always_inline]] inline char *put(char *P, std::uint32_t V) {
  if (V < 10000)
    return putSmall(P, V);
  if (V < 100000000) {
    P = putSmall(P, V / 10000);
    put4(P, V % 10000);
    return P + 4;
  }
  // Nine or ten digits: the leading one or two, then eight.
  P = putSmall(P, V / 100000000);
  put8(P, V % 100000000);
  return P + 8;
}

/// The same for any uint64_t.
inline char *put(char *P, std::uint64_t V) {
  if (V <= 0xffffffffu)
    return put(P, std::uint32_t(V));
  // Up to twelve digits before the last eight (2^64 has twenty).
  char *E = put(P, V / 100000000);
  put8(E, std::uint32_t(V % 100000000));
  return E + 8;
}

/// How many bytes DecimalCounter::copy() writes (at least).
inline constexpr unsigned CounterCopy = 32;

/// The text of a number that goes up by one at a time: set() it, read
/// text()/size() or copy() it, next() to add one.
class DecimalCounter {
public:
  explicit DecimalCounter(std::uint64_t V = 0) { set(V); }
  void set(std::uint64_t V) {
    char T[MaxLen];
    Len = unsigned(put(T, V) - T);
    std::memcpy(Buf + Width - Len, T, Len);
    Value = V;
  }
  std::uint64_t value() const { return Value; }
  /// Writes the text at P, and up to CounterCopy bytes past it (a copy of
  /// fixed size: cheaper than an exact one); returns the text's end.
  char *copy(char *P) const {
    std::memcpy(P, text(), CounterCopy);
    return P + Len;
  }
  const char *text() const { return Buf + Width - Len; }
  unsigned size() const { return Len; }
  void next() {
    ++Value;
    char *P = Buf + Width - 1;
    while (*P == '9') { // 9 -> 0, carry left
      *P = '0';
      if (P == Buf + Width - Len) { // all nines: one digit more
        ++Len;
        *--P = '1';
        return;
      }
      --P;
    }
    ++*P;
  }

private:
  static constexpr unsigned Width = MaxLen;
  // The text ends at Buf + Width; the rest is room for copy()'s overshoot.
  char Buf[Width + CounterCopy] = {};
  unsigned Len = 0;
  std::uint64_t Value = 0;
};

} // namespace otter::decimal

#endif // OTTER_GRAPH_DECIMAL_H
