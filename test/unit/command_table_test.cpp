//===- command_table_test.cpp - Every `otter` command, by its table -------===//
//
// The promises of the command table (utils/otter/commands.h): every row has
// a name, a line for `otter --help`, a usage and a help text; every command
// is reachable as `otter CMD --help` and `otter help CMD` and listed by
// `otter --help`; an unknown option exits 2 with one line naming the option
// and the command; and where -o puts a command's output.
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace otter::cli;

namespace {

/// runOtter on Words (argv[0] added), its stdout and stderr captured.
struct Captured {
  int Status;
  std::string Out, Err;
};
Captured runCaptured(std::vector<std::string> Words) {
  Words.insert(Words.begin(), "otter");
  std::vector<char *> Argv;
  for (std::string &W : Words)
    Argv.push_back(W.data());
  Argv.push_back(nullptr);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int Status = runOtter(int(Words.size()), Argv.data());
  std::fflush(stdout);
  std::string Out = testing::internal::GetCapturedStdout();
  std::string Err = testing::internal::GetCapturedStderr();
  return {Status, Out, Err};
}

bool isDirectory(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

} // namespace

TEST(CommandTable, EveryRowIsComplete) {
  ASSERT_FALSE(commandTable().empty());
  std::set<std::string> Names;
  for (const Command &C : commandTable()) {
    SCOPED_TRACE(C.Name);
    ASSERT_TRUE(C.Name && *C.Name);
    EXPECT_TRUE(Names.insert(C.Name).second) << "named twice";
    ASSERT_TRUE(C.Summary && *C.Summary);
    ASSERT_TRUE(C.Usage && C.Help && *C.Help);
    EXPECT_EQ(std::string(C.Usage).rfind("usage: otter " +
                                             std::string(C.Name) + " ",
                                         0),
              0u);
    EXPECT_EQ(std::string(C.Usage).back(), '\n');
    EXPECT_EQ(std::string(C.Help).back(), '\n');
    EXPECT_NE(C.Run, nullptr);
    EXPECT_EQ(findCommand(C.Name), &C);
    std::set<std::string> Seen;
    bool Json = false;
    for (const OptionSpec &S : C.Accepts) {
      SCOPED_TRACE(S.Name);
      EXPECT_EQ(std::string(S.Name).rfind("--", 0), 0u);
      EXPECT_TRUE(Seen.insert(S.Name).second) << "an option twice";
      if (S.Alias) {
        EXPECT_TRUE(Seen.insert(S.Alias).second) << "an alias twice";
      }
      EXPECT_EQ(!!S.Flag + !!S.Value + !!S.Count, 1) << "sets one thing";
      EXPECT_EQ(S.Flag == nullptr, S.Needs != nullptr)
          << "a value's error says what it needs; a flag has none";
      // Every option the command takes is in its usage or its help.
      std::string Text = std::string(C.Usage) + C.Help;
      EXPECT_TRUE(Text.find(S.Name) != std::string::npos ||
                  (S.Alias && Text.find(S.Alias) != std::string::npos))
          << "not in the help";
      Json |= S.Flag == &Options::Json;
    }
    EXPECT_TRUE(Json) << "`otter --help` promises --json for every command";
  }
  EXPECT_EQ(findCommand("no-such-command"), nullptr);
}

TEST(CommandTable, EveryCommandIsReachable) {
  Captured Main = runCaptured({"--help"});
  EXPECT_EQ(Main.Status, 0);
  for (const Command &C : commandTable()) {
    SCOPED_TRACE(C.Name);
    EXPECT_NE(Main.Out.find("\n  " + std::string(C.Name) + " "),
              std::string::npos)
        << "not listed by otter --help";
    std::string Help = std::string(C.Usage) + C.Help;
    Captured AsOption = runCaptured({C.Name, "--help"});
    EXPECT_EQ(AsOption.Status, 0);
    EXPECT_EQ(AsOption.Out, Help);
    EXPECT_EQ(AsOption.Err, "");
    Captured AsCommand = runCaptured({"help", C.Name});
    EXPECT_EQ(AsCommand.Status, 0);
    EXPECT_EQ(AsCommand.Out, Help);
    Captured Short = runCaptured({C.Name, "-h"});
    EXPECT_EQ(Short.Out, Help);
    // Its run function is reached: without an archive it says so (exit 2).
    Captured Bare = runCaptured({C.Name});
    EXPECT_EQ(Bare.Status, 2);
    EXPECT_NE(Bare.Err.find("otter: error: "), std::string::npos);
    EXPECT_EQ(Bare.Out, "");
  }
  Captured Unknown = runCaptured({"help", "frobnicate"});
  EXPECT_EQ(Unknown.Status, 2);
  EXPECT_NE(Unknown.Err.find("unknown command 'frobnicate'"),
            std::string::npos);
}

TEST(CommandTable, UnknownOptionIsOneLineNamingOptionAndCommand) {
  for (const Command &C : commandTable()) {
    SCOPED_TRACE(C.Name);
    for (const char *Bad : {"--no-such-option", "-q", "--json=1"}) {
      Captured R = runCaptured({C.Name, Bad, "archive"});
      EXPECT_EQ(R.Status, 2);
      EXPECT_EQ(R.Out, "");
      ASSERT_FALSE(R.Err.empty());
      EXPECT_EQ(R.Err.find('\n'), R.Err.size() - 1) << "one line: " << R.Err;
      EXPECT_NE(R.Err.find("unknown option '" + std::string(Bad) + "' for '" +
                           C.Name + "'"),
                std::string::npos)
          << R.Err;
    }
  }
}

TEST(CommandTable, ParsesValuesOneWay) {
  const Command *Summary = findCommand("summary");
  ASSERT_NE(Summary, nullptr);
  auto parse = [&](const Command &C, std::vector<std::string> Words,
                   Options &O) {
    std::vector<char *> Argv;
    for (std::string &W : Words)
      Argv.push_back(W.data());
    testing::internal::CaptureStderr();
    int Rc = parseCommandLine(C, Argv, O);
    testing::internal::GetCapturedStderr();
    return Rc;
  };
  Options O;
  EXPECT_EQ(parse(*Summary, {"--top=5", "--json", "a", "--phase", "p"}, O),
            -1);
  EXPECT_EQ(O.Top, 5u);
  EXPECT_TRUE(O.Json);
  EXPECT_EQ(O.Phase, "p");
  EXPECT_EQ(O.Inputs, std::vector<std::string>{"a"});
  Options Bad;
  EXPECT_EQ(parse(*Summary, {"--top", "x", "a"}, Bad), 2);
  EXPECT_EQ(parse(*Summary, {"a", "--top"}, Bad), 2);
  EXPECT_EQ(parse(*Summary, {"--phase=", "a"}, Bad), 2);
  const Command *Report = findCommand("report");
  ASSERT_NE(Report, nullptr);
  Options R1, R2;
  EXPECT_EQ(parse(*Report, {"-o", "x.html", "a"}, R1), -1);
  EXPECT_EQ(parse(*Report, {"--output=x.html", "a"}, R2), -1);
  EXPECT_EQ(R1.Output, "x.html");
  EXPECT_EQ(R2.Output, "x.html");
}

TEST(CommandTable, OutputPaths) {
  char Base[] = "/tmp/otter-output-XXXXXX";
  ASSERT_NE(mkdtemp(Base), nullptr);
  std::string B = Base;
  // One file: as given; an existing directory or a trailing '/': the
  // default name inside it.
  EXPECT_EQ(outputFile("", "report.html"), "report.html");
  EXPECT_EQ(outputFile(B + "/r.html", "report.html"), B + "/r.html");
  EXPECT_EQ(outputFile(B, "report.html"), B + "/report.html");
  EXPECT_EQ(outputFile(B + "/new/", "report.html"), B + "/new/report.html");
  // A file's missing parents are created.
  std::string Error;
  std::string Nested = B + "/a/b/c/out.txt";
  ASSERT_TRUE(writeOutputText(Nested, "x", Error)) << Error;
  std::ifstream In(Nested);
  std::string Text;
  In >> Text;
  EXPECT_EQ(Text, "x");
  // A directory with its parents.
  std::string Dir;
  ASSERT_TRUE(outputDirectory(B + "/d/e/f", Dir, Error)) << Error;
  EXPECT_EQ(Dir, B + "/d/e/f");
  EXPECT_TRUE(isDirectory(Dir));
  // A file in the way of a directory: an error naming it.
  EXPECT_FALSE(outputDirectory(Nested + "/g", Dir, Error));
  EXPECT_NE(Error.find("cannot create output directory"), std::string::npos);
  std::string Cleanup = "rm -rf '" + B + "'";
  EXPECT_EQ(std::system(Cleanup.c_str()), 0);
}
