//===- filter_rules.cpp - Filter files: grammar and matching --------------===//
//
// Compiled into the runtime (otter_runtime_core) and into the Clang plugin,
// so that both read a filter file the same way (otter/filter_rules.h).
// Plain C++ and libc only: the plugin is built without RTTI and may be built
// without exceptions, so nothing here throws on purpose.
//
//===----------------------------------------------------------------------===//
#include "otter/filter_rules.h"
#include "otter/printable.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fnmatch.h>

namespace otter::filter_rules {

namespace {

struct KindName {
  const char *Name;
  const char *Aliases;
};
constexpr KindName KindNames[] = {
#define OTTER_FILTER_KIND(Kind, Name, Aliases) {Name, Aliases},
#include "otter/constructs.def"
};
static_assert(std::size(KindNames) == std::size_t(ConstructKind::Count));

bool globMatches(const std::string &Glob, std::string_view Text, int Flags) {
  std::string T(Text); // fnmatch wants NUL-terminated strings
  return fnmatch(Glob.c_str(), T.c_str(), Flags) == 0;
}

bool kindMatches(const std::string &Glob, ConstructKind K) {
  const KindName &N = KindNames[std::size_t(K)];
  if (globMatches(Glob, N.Name, 0))
    return true;
  std::string_view A = N.Aliases;
  while (!A.empty()) {
    std::size_t E = A.find(' ');
    if (globMatches(Glob, A.substr(0, E), 0))
      return true;
    if (E == std::string_view::npos)
      break;
    A.remove_prefix(E + 1);
  }
  return false;
}

/// The last rule of field F matching by Match decides.
template <class MatchFn>
bool decide(const std::vector<Rule> &Rules, Field F, MatchFn &&Match) {
  for (auto It = Rules.rbegin(); It != Rules.rend(); ++It)
    if (It->What == F && Match(It->Glob))
      return It->Exclude;
  return false;
}

bool isSpace(char C) {
  return C == ' ' || C == '\t' || C == '\r' || C == '\v' || C == '\f';
}

/// What a token is called in a message: quoted, made printable
/// (otter/printable.h: a binary file given as a filter must not write raw
/// bytes to the terminal), cut after 40 characters (one line).
std::string shown(std::string_view T) { return "'" + printable(T, 40) + "'"; }

} // namespace

const char *constructKindName(ConstructKind K) {
  return std::size_t(K) < std::size(KindNames) ? KindNames[std::size_t(K)].Name
                                               : "?";
}

const char *constructKindAliases(ConstructKind K) {
  return std::size_t(K) < std::size(KindNames)
             ? KindNames[std::size_t(K)].Aliases
             : "";
}

std::string constructKindList() {
  std::string L;
  for (const KindName &N : KindNames)
    L += (L.empty() ? "" : ", ") + std::string(N.Name);
  return L;
}

bool RuleSet::has(Field F) const {
  for (const Rule &R : Rules)
    if (R.What == F)
      return true;
  return false;
}

bool RuleSet::fileExcluded(std::string_view File) const {
  return decide(Rules, Field::File,
                [&](const std::string &G) { return fileMatches(G, File); });
}

bool RuleSet::functionExcluded(std::string_view Function) const {
  return decide(Rules, Field::Function, [&](const std::string &G) {
    return globMatches(G, Function, 0);
  });
}

bool RuleSet::kindExcluded(ConstructKind K) const {
  return decide(Rules, Field::Kind,
                [&](const std::string &G) { return kindMatches(G, K); });
}

std::string RuleSet::text() const {
  static const char *const FieldNames[] = {"file", "function", "kind"};
  std::string T;
  for (const Rule &R : Rules) {
    if (!T.empty())
      T += "; ";
    T += R.Exclude ? "exclude " : "include ";
    T += FieldNames[unsigned(R.What)];
    T += ' ';
    T += R.Glob;
  }
  return T;
}

bool fileMatches(std::string_view Glob, std::string_view Path) {
  std::string G(Glob);
  if (globMatches(G, Path, FNM_PATHNAME))
    return true;
  for (std::size_t I = 0; I < Path.size(); ++I)
    if (Path[I] == '/' && I + 1 < Path.size() &&
        globMatches(G, Path.substr(I + 1), FNM_PATHNAME))
      return true;
  return false;
}

bool parse(std::string_view Text, std::string_view Name, RuleSet &Out,
           std::string &Error) {
  Out = RuleSet();
  Out.Source = std::string(Name);
  std::vector<Rule> Rules;
  unsigned LineNo = 0;
  auto fail = [&](const std::string &Found, const std::string &Expected) {
    Error = std::string(Name) + ":" + std::to_string(LineNo) + ": found " +
            Found + "; expected " + Expected;
    return false;
  };
  while (!Text.empty() || LineNo == 0) {
    ++LineNo;
    std::size_t NL = Text.find('\n');
    std::string_view Line = Text.substr(0, NL);
    Text.remove_prefix(NL == std::string_view::npos ? Text.size() : NL + 1);
    // Tokens, up to a '#' that starts a token.
    std::vector<std::string_view> Tok;
    std::size_t I = 0;
    while (I < Line.size()) {
      while (I < Line.size() && isSpace(Line[I]))
        ++I;
      if (I == Line.size() || Line[I] == '#')
        break;
      std::size_t B = I;
      while (I < Line.size() && !isSpace(Line[I]))
        ++I;
      Tok.push_back(Line.substr(B, I - B));
    }
    if (Tok.empty())
      continue;
    Rule R;
    R.Line = LineNo;
    if (Tok[0] == "include")
      R.Exclude = false;
    else if (Tok[0] != "exclude")
      return fail(shown(Tok[0]), "'include' or 'exclude' to start a rule");
    if (Tok.size() < 2)
      return fail("end of line after " + shown(Tok[0]),
                  "'file', 'function' or 'kind'");
    if (Tok[1] == "file")
      R.What = Field::File;
    else if (Tok[1] == "function")
      R.What = Field::Function;
    else if (Tok[1] == "kind")
      R.What = Field::Kind;
    else
      return fail(shown(Tok[1]), "'file', 'function' or 'kind'");
    if (Tok.size() < 3)
      return fail("end of line after " +
                      shown(std::string(Tok[0]) + " " + std::string(Tok[1])),
                  "a glob pattern");
    if (Tok.size() > 3)
      return fail(shown(Tok[3]) + " after the pattern",
                  "end of line (one pattern per rule, without spaces)");
    R.Glob = std::string(Tok[2]);
    if (R.What == Field::Kind) {
      bool Any = false;
      for (std::size_t K = 0; K < std::size_t(ConstructKind::Count); ++K)
        Any |= kindMatches(R.Glob, ConstructKind(K));
      if (!Any)
        return fail("kind " + shown(R.Glob) + ", which names no construct",
                    "one of " + constructKindList());
    }
    Rules.push_back(std::move(R));
  }
  Out.Rules = std::move(Rules);
  return true;
}

bool parseFile(const std::string &Path, RuleSet &Out, std::string &Error) {
  Out = RuleSet();
  std::FILE *F = std::fopen(Path.c_str(), "rb");
  if (!F) {
    Error = Path + ": cannot read the filter file: " + std::strerror(errno);
    return false;
  }
  std::string Text;
  char Buf[4096];
  std::size_t N;
  bool TooBig = false;
  while ((N = std::fread(Buf, 1, sizeof Buf, F)) > 0) {
    Text.append(Buf, N);
    if (Text.size() > (std::size_t(1) << 20)) {
      TooBig = true;
      break;
    }
  }
  int ReadErrno = std::ferror(F) ? errno : 0;
  bool ReadError = std::ferror(F);
  std::fclose(F);
  if (ReadError || TooBig) {
    Error = Path + ": cannot read the filter file: " +
            (TooBig      ? std::string("larger than 1 MiB")
             : ReadErrno ? std::string(std::strerror(ReadErrno))
                         : std::string("read error"));
    return false;
  }
  return parse(Text, Path, Out, Error);
}

} // namespace otter::filter_rules
