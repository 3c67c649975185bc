//===- filter_rules_test.cpp - Filter files: grammar, matching, errors ----===//
//
// otter/filter_rules.h alone (the parser the plugin and the runtime share):
// the grammar, later rules winning per field, file globs against recorded
// paths and their suffixes, kind names and aliases, every error message;
// and core/filter_file.h, which compiles kind rules into the filter stage.
//
//===----------------------------------------------------------------------===//
#include "core/filter_file.h"
#include "otter/filter_rules.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace otter;
using namespace otter::filter_rules;

namespace {

RuleSet parsed(std::string_view Text) {
  RuleSet S;
  std::string Error;
  EXPECT_TRUE(parse(Text, "f.txt", S, Error)) << Error;
  return S;
}

std::string errorOf(std::string_view Text) {
  RuleSet S;
  std::string Error;
  EXPECT_FALSE(parse(Text, "f.txt", S, Error));
  EXPECT_TRUE(S.empty());
  EXPECT_EQ(Error.find('\n'), std::string::npos) << Error;
  return Error;
}

} // namespace

TEST(FilterRules, GrammarCommentsAndBlankLines) {
  RuleSet S = parsed("# a filter\n"
                     "\n"
                     "   \t\n"
                     "exclude function solver_*   # the solver\n"
                     "include\tfile  src/hot.c\r\n"
                     "exclude kind taskwait");
  ASSERT_EQ(S.Rules.size(), 3u);
  EXPECT_TRUE(S.Rules[0].Exclude);
  EXPECT_EQ(S.Rules[0].What, Field::Function);
  EXPECT_EQ(S.Rules[0].Glob, "solver_*");
  EXPECT_EQ(S.Rules[0].Line, 4u);
  EXPECT_FALSE(S.Rules[1].Exclude);
  EXPECT_EQ(S.Rules[1].What, Field::File);
  EXPECT_EQ(S.Rules[1].Glob, "src/hot.c");
  EXPECT_EQ(S.Rules[2].What, Field::Kind);
  EXPECT_EQ(S.Rules[2].Line, 6u);
  EXPECT_EQ(S.Source, "f.txt");
  EXPECT_EQ(S.text(), "exclude function solver_*; include file src/hot.c; "
                      "exclude kind taskwait");
  EXPECT_TRUE(parsed("").empty());
  EXPECT_TRUE(parsed("# only a comment\n\n").empty());
}

TEST(FilterRules, EverythingIncludedByDefault) {
  RuleSet S = parsed("exclude function other\n");
  EXPECT_FALSE(S.functionExcluded("main"));
  EXPECT_FALSE(S.fileExcluded("a.c"));
  for (std::size_t K = 0; K < std::size_t(ConstructKind::Count); ++K)
    EXPECT_FALSE(S.kindExcluded(ConstructKind(K)));
  EXPECT_TRUE(S.functionExcluded("other"));
}

TEST(FilterRules, LaterRulesWinPerField) {
  RuleSet S = parsed("exclude file *\n"
                     "include file src/hot.c\n"
                     "exclude function *\n"
                     "include function solve\n"
                     "exclude function solve\n");
  EXPECT_TRUE(S.fileExcluded("/p/src/cold.c"));
  EXPECT_FALSE(S.fileExcluded("/p/src/hot.c"));
  EXPECT_TRUE(S.functionExcluded("solve")); // the last rule
  EXPECT_TRUE(S.functionExcluded("main"));
  RuleSet T = parsed("exclude kind task*\ninclude kind taskwait\n");
  EXPECT_TRUE(T.kindExcluded(ConstructKind::Task));
  EXPECT_TRUE(T.kindExcluded(ConstructKind::Taskgroup));
  EXPECT_TRUE(T.kindExcluded(ConstructKind::Taskloop));
  EXPECT_FALSE(T.kindExcluded(ConstructKind::Taskwait));
  // Fields are decided apart: an included kind does not save a construct
  // whose function is excluded.
  RuleSet U = parsed("exclude function f\ninclude kind *\n");
  EXPECT_TRUE(U.excludes("a.c", "f"));
  EXPECT_FALSE(U.excludes("a.c", "g"));
  EXPECT_FALSE(U.excludes("", "")); // nothing known: nothing matched
}

TEST(FilterRules, FileGlobsMatchThePathAndItsSuffixes) {
  EXPECT_TRUE(fileMatches("src/hot.c", "/home/me/proj/src/hot.c"));
  EXPECT_TRUE(fileMatches("hot.c", "/home/me/proj/src/hot.c"));
  EXPECT_TRUE(fileMatches("hot.c", "hot.c"));
  EXPECT_TRUE(fileMatches("src/hot.c", "./src/hot.c"));
  EXPECT_TRUE(fileMatches("/home/*/proj/src/*.c", "/home/me/proj/src/hot.c"));
  EXPECT_TRUE(fileMatches("*.h", "/usr/include/x/y.h"));
  EXPECT_TRUE(fileMatches("*", "/a/b.c"));
  EXPECT_FALSE(fileMatches("ot.c", "/p/src/hot.c"));        // whole components
  EXPECT_FALSE(fileMatches("src/*.c", "/p/src/sub/hot.c")); // '*' not '/'
  EXPECT_TRUE(fileMatches("src/*/*.c", "/p/src/sub/hot.c"));
  EXPECT_FALSE(fileMatches("hot.cc", "hot.c"));
  EXPECT_TRUE(fileMatches("h?t.[ch]", "src/hot.c"));
}

TEST(FilterRules, FunctionGlobs) {
  RuleSet S = parsed("exclude function ns::*\nexclude function *(lambda*\n");
  EXPECT_TRUE(S.functionExcluded("ns::Solver::run"));
  EXPECT_TRUE(S.functionExcluded("main::(lambda at line 5:3)"));
  EXPECT_FALSE(S.functionExcluded("main"));
  EXPECT_FALSE(S.functionExcluded("other::ns::f"));
}

TEST(FilterRules, KindNamesAndAliases) {
  EXPECT_TRUE(parsed("exclude kind for\n").kindExcluded(ConstructKind::Loop));
  EXPECT_TRUE(parsed("exclude kind do\n").kindExcluded(ConstructKind::Loop));
  EXPECT_TRUE(
      parsed("exclude kind master\n").kindExcluded(ConstructKind::Masked));
  RuleSet B = parsed("exclude kind barrier*\n");
  EXPECT_TRUE(B.kindExcluded(ConstructKind::Barrier));
  EXPECT_TRUE(B.kindExcluded(ConstructKind::BarrierImplicit));
  RuleSet E = parsed("exclude kind barrier\n");
  EXPECT_TRUE(E.kindExcluded(ConstructKind::Barrier));
  EXPECT_FALSE(E.kindExcluded(ConstructKind::BarrierImplicit));
  for (std::size_t K = 0; K < std::size_t(ConstructKind::Count); ++K) {
    std::string Name = constructKindName(ConstructKind(K));
    EXPECT_TRUE(
        parsed("exclude kind " + Name + "\n").kindExcluded(ConstructKind(K)))
        << Name;
  }
}

TEST(FilterRules, EveryErrorNamesFileLineFoundAndExpected) {
  EXPECT_EQ(errorOf("# ok\nexclud kind task\n"),
            "f.txt:2: found 'exclud'; expected 'include' or 'exclude' to "
            "start a rule");
  EXPECT_EQ(errorOf("exclude\n"),
            "f.txt:1: found end of line after 'exclude'; expected 'file', "
            "'function' or 'kind'");
  EXPECT_EQ(errorOf("\n\ninclude funtion f\n"),
            "f.txt:3: found 'funtion'; expected 'file', 'function' or 'kind'");
  EXPECT_EQ(errorOf("exclude kind # no pattern\n"),
            "f.txt:1: found end of line after 'exclude kind'; expected a glob "
            "pattern");
  EXPECT_EQ(errorOf("exclude file a.c b.c\n"),
            "f.txt:1: found 'b.c' after the pattern; expected end of line (one "
            "pattern per rule, without spaces)");
  EXPECT_EQ(errorOf("exclude kind tsk\n"),
            "f.txt:1: found kind 'tsk', which names no construct; expected one "
            "of " +
                constructKindList());
  EXPECT_NE(constructKindList().find("parallel, task, taskwait"),
            std::string::npos);
  // Control characters never break the one line.
  std::string Bad = errorOf(std::string("\x01\x02 kind x\n"));
  EXPECT_EQ(Bad.rfind("f.txt:1: found '?"
                      "?'",
                      0),
            0u)
      << Bad;
  // Bytes that are not UTF-8 text (a binary file) are shown as '?';
  // well-formed UTF-8 is shown as it is; a long token is cut.
  EXPECT_EQ(errorOf(std::string("\x7f" "ELF\xd0" "a\xff\xc3 x\n")),
            "f.txt:1: found '?ELF?a?" "?'; expected 'include' or 'exclude' to "
            "start a rule");
  EXPECT_EQ(errorOf("exclud\xc3\xa9 x\n"),
            "f.txt:1: found 'exclud\xc3\xa9'; expected 'include' or 'exclude' "
            "to start a rule");
  EXPECT_EQ(errorOf(std::string(50, 'a') + "\n"),
            "f.txt:1: found '" + std::string(40, 'a') +
                "...'; expected 'include' or 'exclude' to start a rule");
  // Only the first error is reported; a later good line does not help.
  EXPECT_EQ(errorOf("exclude kind task\nbad\nexclude kind taskwait\n")
                .rfind("f.txt:2:", 0),
            0u);
}

TEST(FilterRules, ParseFile) {
  char Path[] = "/tmp/otter-filter-test-XXXXXX";
  int Fd = mkstemp(Path);
  ASSERT_GE(Fd, 0);
  close(Fd);
  { std::ofstream(Path) << "exclude kind taskwait\nwrong\n"; }
  RuleSet S;
  std::string Error;
  EXPECT_FALSE(parseFile(Path, S, Error));
  EXPECT_EQ(Error, std::string(Path) +
                       ":2: found 'wrong'; expected "
                       "'include' or 'exclude' to start a rule");
  { std::ofstream(Path) << "exclude kind taskwait\n"; }
  EXPECT_TRUE(parseFile(Path, S, Error)) << Error;
  EXPECT_EQ(S.Source, Path);
  EXPECT_EQ(S.Rules.size(), 1u);
  std::remove(Path);
  EXPECT_FALSE(parseFile(Path, S, Error));
  EXPECT_EQ(Error, std::string(Path) +
                       ": cannot read the filter file: No such file or "
                       "directory");
}

TEST(FilterFile, KindRulesIntoTheStage) {
  filter::Rules R;
  filter::addKindRules(parsed("exclude kind taskwait\nexclude kind mpi\n"), R);
  auto Sync = R.Subs[std::size_t(EventKind::SyncBegin)];
  EXPECT_EQ(Sync, 1u << unsigned(SyncKind::Taskwait));
  EXPECT_EQ(R.Subs[std::size_t(EventKind::SyncWaitEnd)], Sync);
  EXPECT_EQ(R.Subs[std::size_t(EventKind::WorkBegin)], 0u);
  EXPECT_EQ(R.Groups, groupBit(EventGroup::Mpi));
  filter::Rules L;
  filter::addKindRules(parsed("exclude kind for\n"), L);
  EXPECT_TRUE(L.Subs[std::size_t(EventKind::WorkBegin)] &
              (1u << unsigned(WorkKind::LoopStatic)));
  EXPECT_FALSE(L.Subs[std::size_t(EventKind::WorkBegin)] &
               (1u << unsigned(WorkKind::SingleExecutor)));
  filter::Rules N;
  filter::addKindRules(parsed("exclude kind *\ninclude kind *\n"), N);
  EXPECT_TRUE(N.empty());
}

// A compile-time filter record's kind rules apply by kind, as at run time
// (docs/filter.md): its file and function rules stay the call sites'.
TEST(FilterFile, CompileTimeKindRulesApplyByKind) {
  filter_rules::RuleSet K;
  ASSERT_TRUE(filter::compileKindRules(
      "/a: b/x.filter: exclude function solve*; exclude kind task*; "
      "include kind taskgroup",
      K));
  EXPECT_EQ(K.Source, "/a: b/x.filter");
  EXPECT_EQ(K.text(), "exclude kind task*; include kind taskgroup");
  EXPECT_FALSE(filter::compileKindRules("x.filter: exclude file a.c", K));
  EXPECT_FALSE(filter::compileKindRules("no rules here", K));
  filter::RunFilter F = filter::readRunFilter(
      "", {"x.filter: exclude kind barrier_implicit"}, 1, true,
      [](std::uint64_t) { return SourceLabel{}; },
      [](std::uint64_t) { return false; });
  filter::Rules R;
  filter::addKindRules(parsed("exclude kind barrier_implicit\n"), R);
  EXPECT_EQ(F.R.Subs, R.Subs);
  EXPECT_NE(F.R.Subs[std::size_t(EventKind::SyncBegin)] &
                (1u << unsigned(SyncKind::BarrierImplicitParallel)),
            0u);
  EXPECT_EQ(F.Text, "compile time x.filter: exclude kind barrier_implicit");
}

TEST(FilterFile, ABadFileIsIgnoredWithOneWarning) {
  filter::RunFilter F = filter::readRunFilter(
      "/nonexistent/filter.txt", {}, 0, true,
      [](std::uint64_t) { return SourceLabel{}; },
      [](std::uint64_t) { return false; });
  EXPECT_TRUE(F.R.empty());
  EXPECT_EQ(F.Text, "");
  ASSERT_EQ(F.Warnings.size(), 1u);
  EXPECT_EQ(F.Warnings[0],
            "/nonexistent/filter.txt: cannot read the filter file: No such "
            "file or directory; the filter is ignored (tracing everything)");
}

TEST(FilterFile, FileAndFunctionRulesOverLabels) {
  char Path[] = "/tmp/otter-filter-test-XXXXXX";
  int Fd = mkstemp(Path);
  ASSERT_GE(Fd, 0);
  close(Fd);
  { std::ofstream(Path) << "exclude function solve*\n"; }
  auto Resolve = [](std::uint64_t Code) {
    SourceLabel L;
    L.File = "/p/a.c";
    L.Function = Code == 1 ? "solver" : "main";
    L.Quality = Code == 3 ? LabelQuality::Approximate : LabelQuality::Exact;
    if (Code == 3)
      L.Function = "solver"; // not the plugin's: never matched
    return L;
  };
  filter::RunFilter F = filter::readRunFilter(
      Path, {"x.filter: exclude kind task"}, 1, true, Resolve,
      [](std::uint64_t Code) { return Code == 4; });
  EXPECT_TRUE(F.Warnings.empty());
  ASSERT_TRUE(F.R.DropCode);
  EXPECT_TRUE(F.R.DropCode(1));
  EXPECT_FALSE(F.R.DropCode(2));
  EXPECT_FALSE(F.R.DropCode(3));
  EXPECT_TRUE(F.R.DropCode(4)); // filtered by the plugin
  EXPECT_EQ(F.Text, std::string("run time ") + Path +
                        ": exclude function solve* | compile time x.filter: "
                        "exclude kind task");
  // Without any plugin labels: said once, and only kind rules apply.
  filter::RunFilter G = filter::readRunFilter(
      Path, {}, 0, false, Resolve, [](std::uint64_t) { return false; });
  ASSERT_EQ(G.Warnings.size(), 1u);
  EXPECT_NE(G.Warnings[0].find("need the plugin's labels"), std::string::npos);
  EXPECT_FALSE(G.R.DropCode);
  std::remove(Path);
}

// Random texts from the grammar's words and some noise: parse() never
// fails silently, its error is one line naming the line it stopped at, and
// what it accepts comes back the same from its own text().
TEST(FilterRules, RandomTextsParseOrFailOnOneLine) {
  const char *Words[] = {"include", "exclude", "file", "function", "kind",
                         "task",    "*",       "#",    "a.c",      "f*",
                         "x y",     "\t",      "",     "kind*",    "\r"};
  std::uint64_t Seed = 12345;
  auto next = [&] {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return unsigned(Seed >> 33);
  };
  int Accepted = 0, Rejected = 0;
  for (int Round = 0; Round < 2000; ++Round) {
    std::string Text;
    unsigned Lines = next() % 5;
    for (unsigned L = 0; L < Lines; ++L) {
      unsigned N = next() % 5;
      for (unsigned W = 0; W < N; ++W)
        Text += std::string(Words[next() % std::size(Words)]) + " ";
      Text += '\n';
    }
    RuleSet S;
    std::string Error;
    if (parse(Text, "r.txt", S, Error)) {
      ++Accepted;
      // One rule per line at most, and the rules' own text reads back.
      EXPECT_LE(S.Rules.size(), Lines);
      std::string Again = S.text();
      for (char &C : Again)
        if (C == ';')
          C = '\n';
      RuleSet T;
      ASSERT_TRUE(parse(Again, "r.txt", T, Error)) << Error;
      EXPECT_EQ(T.text(), S.text());
    } else {
      ++Rejected;
      EXPECT_EQ(Error.find('\n'), std::string::npos) << Error;
      EXPECT_EQ(Error.rfind("r.txt:", 0), 0u) << Error;
      EXPECT_NE(Error.find("; expected "), std::string::npos) << Error;
      EXPECT_TRUE(S.empty());
    }
  }
  // Both outcomes happen (the generator is not degenerate).
  EXPECT_GT(Accepted, 100);
  EXPECT_GT(Rejected, 100);
}
