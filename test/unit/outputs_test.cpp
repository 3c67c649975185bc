//===- outputs_test.cpp - Output names and the one output-list parser -----===//
//
// graph/outputs.h: the parser the runtime (OTTER_GRAPH_FORMAT) and
// otter-graph (--format) share, on a synthetic table of names and on the
// graph outputs' own table; the graph output registry itself.
//
//===----------------------------------------------------------------------===//
#include "graph/outputs.h"
#include "graph/graph.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

using namespace otter;

namespace {

const OutputChoice Choices[] = {{"alpha", "a first"}, {"beta", ""},
                                {"gamma", "g"}};

std::vector<bool> parse(std::string_view List, bool AllowNone,
                        std::string *BadOut = nullptr) {
  std::vector<bool> On = {true, false, true}; // must stay on failure
  std::string Bad = "unset";
  bool Ok = parseOutputList(List, Choices, AllowNone, On, Bad);
  if (BadOut)
    *BadOut = Ok ? "" : Bad;
  if (!Ok) {
    EXPECT_EQ(On, (std::vector<bool>{true, false, true})) << List;
  }
  return Ok ? On : std::vector<bool>{};
}

} // namespace

TEST(OutputList, NamesAliasesCaseAndBlanks) {
  EXPECT_EQ(parse("alpha", false), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(parse(" BETA , g", false), (std::vector<bool>{false, true, true}));
  EXPECT_EQ(parse("first,A", false), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(parse("gamma,gamma", false),
            (std::vector<bool>{false, false, true}));
}

TEST(OutputList, AllAndNone) {
  EXPECT_EQ(parse("all", false), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(parse("beta,ALL", false), (std::vector<bool>{true, true, true}));
  EXPECT_EQ(parse("none", true), (std::vector<bool>{false, false, false}));
  // none adds nothing: with other names, only those.
  EXPECT_EQ(parse("none,beta", true), (std::vector<bool>{false, true, false}));
  std::string Bad;
  EXPECT_TRUE(parse("none", false, &Bad).empty());
  EXPECT_EQ(Bad, "none");
}

TEST(OutputList, TheFirstWrongItemIsReported) {
  std::string Bad;
  EXPECT_TRUE(parse("alpha,Delta,epsilon", false, &Bad).empty());
  EXPECT_EQ(Bad, "delta");
  EXPECT_TRUE(parse("alpha,,beta", true, &Bad).empty());
  EXPECT_EQ(Bad, "");
  EXPECT_TRUE(parse("", true, &Bad).empty());
  EXPECT_EQ(Bad, "");
  // An alias's part is no alias.
  EXPECT_TRUE(parse("fir", false, &Bad).empty());
  EXPECT_EQ(Bad, "fir");
}

TEST(OutputList, NamesForMessages) {
  EXPECT_EQ(outputListNames(Choices, false), "alpha, beta, gamma, all");
  EXPECT_EQ(outputListNames(Choices, true), "alpha, beta, gamma, all, none");
}

TEST(GraphOutputs, EveryNameIsDistinctAndHasItsOwnFlag) {
  std::set<std::string> Names = {"all", "none"};
  std::vector<bool GraphFormats::*> Flags;
  for (const GraphOutput &O : graphOutputs()) {
    EXPECT_TRUE(Names.insert(std::string(O.Name)).second) << O.Name;
    std::string_view A = O.Aliases;
    while (!A.empty()) {
      std::size_t Sp = A.find(' ');
      EXPECT_TRUE(Names.insert(std::string(A.substr(0, Sp))).second);
      A = Sp == std::string_view::npos ? "" : A.substr(Sp + 1);
    }
    for (bool GraphFormats::*F : Flags)
      EXPECT_NE(F, O.Flag) << O.Name;
    Flags.push_back(O.Flag);
    EXPECT_FALSE(O.Files.empty()) << O.Name;
    EXPECT_NE(O.Write, nullptr) << O.Name;
  }
  EXPECT_EQ(Flags.size(), 3u); // Dot, Csv, Canonical
}

TEST(GraphOutputs, TheRuntimesAndOtterGraphsNames) {
  GraphFormats F;
  std::string Bad;
  ASSERT_TRUE(parseGraphFormats("gv", false, F, Bad));
  EXPECT_TRUE(F.Dot);
  EXPECT_FALSE(F.Csv);
  EXPECT_FALSE(F.Canonical);
  ASSERT_TRUE(parseGraphFormats("canonical,csv", false, F, Bad));
  EXPECT_FALSE(F.Dot);
  EXPECT_TRUE(F.Csv);
  EXPECT_TRUE(F.Canonical);
  ASSERT_TRUE(parseGraphFormats("all", false, F, Bad));
  EXPECT_TRUE(F.Dot && F.Csv && F.Canonical);
  ASSERT_TRUE(parseGraphFormats("none", true, F, Bad));
  EXPECT_FALSE(F.any());
  EXPECT_FALSE(parseGraphFormats("svg", true, F, Bad));
  EXPECT_EQ(Bad, "svg");
  EXPECT_EQ(graphFormatNames(true), "csv, dot, canon, all, none");
  EXPECT_EQ(graphFormatFiles(GraphFormats{}), "nodes.csv graph.csv graph.gv");
  EXPECT_EQ(graphFormatFiles(GraphFormats{true, true, true}),
            "nodes.csv graph.csv graph.gv graph.txt");
  EXPECT_EQ(graphFormatFiles(GraphFormats{false, false, true}), "graph.txt");
}

TEST(GraphOutputs, WriteGraphFilesWritesWhatIsSelectedAndNothingElse) {
  std::string Dir = ::testing::TempDir() + "otter-outputs-" +
                    std::to_string(::getpid());
  std::filesystem::remove_all(Dir);
  std::filesystem::create_directories(Dir);
  Graph G;
  std::string Error;
  ASSERT_TRUE(writeGraphFiles(G, Dir, GraphFormats{false, true, true}, Error))
      << Error;
  std::set<std::string> Files;
  for (const auto &E : std::filesystem::directory_iterator(Dir))
    Files.insert(E.path().filename().string());
  EXPECT_EQ(Files, (std::set<std::string>{"nodes.csv", "graph.csv",
                                          "graph.txt"}));
  std::filesystem::remove_all(Dir);
}
