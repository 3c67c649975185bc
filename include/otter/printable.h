//===- otter/printable.h - Text safe to print on a terminal ------*- C++ -*-===//
//
// OTTER's messages quote what users gave it (a variable's value, a filter
// file's token, a path): a binary file or an escape sequence in them must
// not write raw bytes to the terminal nor break the message's one line.
// Header-only: the plugin, the runtime and the utilities share it.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_PRINTABLE_H
#define OTTER_PRINTABLE_H

#include <cstddef>
#include <string>
#include <string_view>

namespace otter {

/// The length of the well-formed UTF-8 sequence starting at T[I], or 0
/// when the bytes there are not one (a stray continuation byte, a lead
/// byte that cannot start a sequence, a sequence cut short).
inline std::size_t utf8SequenceAt(std::string_view T, std::size_t I) {
  unsigned char Lead = T[I];
  std::size_t Length = Lead >= 0xc2 && Lead <= 0xdf   ? 2
                       : Lead >= 0xe0 && Lead <= 0xef ? 3
                       : Lead >= 0xf0 && Lead <= 0xf4 ? 4
                                                      : 0;
  if (Length == 0 || I + Length > T.size())
    return 0;
  for (std::size_t K = 1; K < Length; ++K)
    if (((unsigned char)T[I + K] & 0xc0) != 0x80)
      return 0;
  return Length;
}

/// T with control characters (newlines and tabs included) and bytes that
/// are not UTF-8 text shown as '?', cut after MaxChars characters with
/// "..." appended. Well-formed UTF-8 (a name with accents) is kept.
inline std::string printable(std::string_view T,
                             std::size_t MaxChars = std::string_view::npos) {
  std::string S;
  std::size_t Shown = 0, I = 0;
  for (; I < T.size() && Shown < MaxChars; ++Shown) {
    unsigned char C = T[I];
    if (C < 0x80) {
      S += C < 0x20 || C == 0x7f ? '?' : char(C);
      ++I;
    } else if (std::size_t Length = utf8SequenceAt(T, I)) {
      S.append(T.substr(I, Length));
      I += Length;
    } else {
      S += '?';
      ++I;
    }
  }
  if (I < T.size())
    S += "...";
  return S;
}

} // namespace otter

#endif // OTTER_PRINTABLE_H
