//===- otter/filter_rules.h - Filter files: grammar and matching -*- C++
//-*-===//
//
// The one parser of OTTER's filter files (docs/filter.md), shared by the
// Clang plugin (-fplugin-arg-otter-filter=FILE) and the runtime
// (OTTER_FILTER=FILE); compiled into both from include/otter/filter_rules.cpp.
// parse() does no I/O, so tests and fuzzers call it on any text.
//
//   # a comment; blank lines are fine
//   exclude function solver_*
//   exclude kind taskwait
//   exclude file *
//   include file src/hot.c
//
// One rule per line: include|exclude file|function|kind GLOB (fnmatch(3)).
// Everything is included by default. Each field (file, function, kind) is
// decided by the last rule of that field that matches: later rules win. A
// construct is filtered when its directive's file, its enclosing function
// or its kind is excluded.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_FILTER_RULES_H
#define OTTER_FILTER_RULES_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace otter::filter_rules {

enum class Field : std::uint8_t { File, Function, Kind };

struct Rule {
  bool Exclude = true;
  Field What = Field::File;
  std::string Glob;
  unsigned Line = 0; // in the file, from 1
};

/// The construct kinds a `kind` rule names: the names OTTER prints for graph
/// nodes, without _begin/_end (docs/filter.md has the list). A glob matches
/// a kind when it matches its name or one of its aliases ("for" and "do"
/// for loop, "master" for masked). Rows: otter/constructs.def.
enum class ConstructKind : std::uint8_t {
#define OTTER_FILTER_KIND(Kind, Name, Aliases) Kind,
#include "otter/constructs.def"
  Count
};
/// "barrier_implicit", ...
const char *constructKindName(ConstructKind K);
/// Space separated aliases ("" if none).
const char *constructKindAliases(ConstructKind K);
/// Every name, comma separated, for messages.
std::string constructKindList();

class RuleSet {
public:
  std::vector<Rule> Rules;
  /// Where the rules came from (the path given), for messages and headers.
  std::string Source;

  bool empty() const { return Rules.empty(); }
  /// Whether any rule of this field exists.
  bool has(Field F) const;

  /// The last rule of its field that matches decides; none: included.
  bool fileExcluded(std::string_view File) const;
  bool functionExcluded(std::string_view Function) const;
  bool kindExcluded(ConstructKind K) const;
  /// A directive is filtered when any of the three is excluded (an empty
  /// File or Function is not matched against file or function rules).
  bool excludes(std::string_view File, std::string_view Function) const {
    return (!File.empty() && fileExcluded(File)) ||
           (!Function.empty() && functionExcluded(Function));
  }

  /// The rules as one line, for graph headers and trace properties:
  /// "exclude function solver_*; exclude kind taskwait".
  std::string text() const;
};

/// Parses Text (the contents of the file named Name). False: Error is one
/// line, "NAME:LINE: found '...'; expected ...", and Out is left empty.
bool parse(std::string_view Text, std::string_view Name, RuleSet &Out,
           std::string &Error);

/// Reads and parses the file Path (Error names it when it cannot be read).
bool parseFile(const std::string &Path, RuleSet &Out, std::string &Error);

/// Whether a file glob matches Path: the whole path as recorded, or one of
/// its suffixes that start after a '/' ("src/hot.c" and "hot.c" of
/// "/home/me/proj/src/hot.c"). '*' and '?' do not match '/' (FNM_PATHNAME).
bool fileMatches(std::string_view Glob, std::string_view Path);

} // namespace otter::filter_rules

#endif // OTTER_FILTER_RULES_H
