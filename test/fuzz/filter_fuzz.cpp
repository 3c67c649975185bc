//===- filter_fuzz.cpp - Fuzz target: the filter-file parser --------------===//
//
// libFuzzer target for include/otter/filter_rules.h (runtime/
// filter_rules.cpp), the one parser of filter files, which the runtime
// (OTTER_FILTER) and the Clang plugin (-fplugin-arg-otter-filter) read from
// wherever the user points them. The input is the file's text. Besides "no
// crash", it checks what parse() promises: an error is one non-empty line
// naming the file and leaves the rules empty; parsed rules print as one
// line. Then the rules are matched against paths, functions and every
// construct kind, with text taken from the input (fnmatch on hostile
// globs).
//
//===----------------------------------------------------------------------===//
#include "otter/filter_rules.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fr = otter::filter_rules;

namespace {
[[noreturn]] void fail() { __builtin_trap(); }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  fr::RuleSet Set;
  std::string Error;
  if (!fr::parse(Text, "fuzz.filter", Set, Error)) {
    if (Error.empty() || Error.find('\n') != std::string::npos ||
        Error.rfind("fuzz.filter:", 0) != 0 || !Set.empty())
      fail();
    return 0;
  }
  if (Set.text().find('\n') != std::string::npos)
    fail();
  // Match against subjects made from the input: its lines, and fixed paths.
  std::string_view Rest = Text;
  for (int I = 0; I < 8 && !Rest.empty(); ++I) {
    std::size_t Nl = Rest.find('\n');
    std::string Subject(Rest.substr(0, Nl));
    Rest =
        Nl == std::string_view::npos ? std::string_view() : Rest.substr(Nl + 1);
    (void)Set.excludes(Subject, Subject);
    for (const fr::Rule &R : Set.Rules)
      (void)fr::fileMatches(R.Glob, Subject);
  }
  (void)Set.excludes("/home/me/proj/src/hot.c", "solver_step");
  for (unsigned K = 0; K < unsigned(fr::ConstructKind::Count); ++K)
    (void)Set.kindExcluded(fr::ConstructKind(K));
  return 0;
}
