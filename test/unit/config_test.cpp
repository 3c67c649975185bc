// Unit tests for the OTTER_* environment parsing: defaults, valid values,
// and the one-line warning + default for every invalid value.
#include "core/config.h"

#include <gtest/gtest.h>

#include <csignal>
#include <map>
#include <string>
#include <vector>

using namespace otter;

namespace {

struct Env {
  std::map<std::string, std::string> Vars;
  std::vector<std::string> Warnings;
  Config read() {
    return readConfig(
        [this](const char *N) -> const char * {
          auto It = Vars.find(N);
          return It == Vars.end() ? nullptr : It->second.c_str();
        },
        [this](const std::string &W) { Warnings.push_back(W); }, "prog", 42, 7);
  }
};

} // namespace

TEST(Config, Defaults) {
  Env E;
  Config C = E.read();
  EXPECT_EQ(C.OutputDir, "otter-prog-42");
  EXPECT_TRUE(C.Formats.Dot);
  EXPECT_TRUE(C.Formats.Csv);
  EXPECT_FALSE(C.Formats.Canonical);
  EXPECT_TRUE(C.Trace);
  EXPECT_FALSE(C.Verbose);
  EXPECT_TRUE(E.Warnings.empty());
}

TEST(Config, ValidValues) {
  Env E;
  E.Vars = {{"OTTER_OUTPUT_DIR", "/tmp/x"},
            {"OTTER_GRAPH_FORMAT", " canon , dot"},
            {"OTTER_TRACE", "off"},
            {"OTTER_VERBOSE", "YES"},
            {"OTTER_BUFFER_EVENTS", "4096"}};
  Config C = E.read();
  EXPECT_EQ(C.OutputDir, "/tmp/x");
  EXPECT_TRUE(C.Formats.Dot);
  EXPECT_FALSE(C.Formats.Csv);
  EXPECT_TRUE(C.Formats.Canonical);
  EXPECT_FALSE(C.Trace);
  EXPECT_TRUE(C.Verbose);
  EXPECT_EQ(C.BufferEvents, 4096u);
  EXPECT_TRUE(E.Warnings.empty());
}

TEST(Config, NoneDisablesGraphFiles) {
  Env E;
  E.Vars = {{"OTTER_GRAPH_FORMAT", "none"}};
  EXPECT_FALSE(E.read().Formats.any());
  EXPECT_TRUE(E.Warnings.empty());
}

TEST(Config, InvalidValuesWarnOnceEachAndKeepDefaults) {
  Env E;
  E.Vars = {{"OTTER_GRAPH_FORMAT", "dot,xml"},
            {"OTTER_TRACE", "maybe"},
            {"OTTER_VERBOSE", ""},
            {"OTTER_BUFFER_EVENTS", "12"},
            {"OTTER_OUTPUT_DIR", ""}};
  Config C = E.read();
  EXPECT_TRUE(C.Formats.Dot);
  EXPECT_TRUE(C.Formats.Csv);
  EXPECT_TRUE(C.Trace);
  EXPECT_FALSE(C.Verbose);
  EXPECT_EQ(C.BufferEvents, 16384u);
  EXPECT_EQ(C.OutputDir, "otter-prog-42");
  ASSERT_EQ(E.Warnings.size(), 5u);
  for (const std::string &W : E.Warnings) {
    EXPECT_EQ(W.find('\n'), std::string::npos) << W;
    EXPECT_NE(W.find("OTTER_"), std::string::npos) << W;
  }
  EXPECT_NE(E.Warnings[0].find("use 1 or 0"), std::string::npos);
  EXPECT_NE(E.Warnings[2].find("'xml' is unknown"), std::string::npos);
}

TEST(Config, BufferEventsRejectsTrailingJunkAndOverflow) {
  for (const char *Bad : {"4096k", "-5", "99999999999999999999", "1e6"}) {
    Env E;
    E.Vars = {{"OTTER_BUFFER_EVENTS", Bad}};
    EXPECT_EQ(E.read().BufferEvents, 16384u) << Bad;
    EXPECT_EQ(E.Warnings.size(), 1u) << Bad;
  }
}

TEST(Config, MaxTraceSizeTakesSuffixesAndZero) {
  const std::pair<const char *, std::uint64_t> Good[] = {
      {"0", 0},           {"2M", 2ull << 20}, {"2m", 2ull << 20},
      {"512K", 512ull << 10}, {"10G", 10ull << 30}, {"1T", 1ull << 40},
      {"123", 123}};
  for (auto [Text, Bytes] : Good) {
    Env E;
    E.Vars = {{"OTTER_MAX_TRACE_SIZE", Text}};
    Config C = E.read();
    EXPECT_TRUE(C.MaxTraceSet) << Text;
    EXPECT_EQ(C.MaxTraceBytes, Bytes) << Text;
    EXPECT_TRUE(E.Warnings.empty()) << Text;
  }
  for (const char *Bad : {"", "2X", "-1", "M", "1.5G", "99999999999T",
                          "99999999999999999999"}) {
    Env E;
    E.Vars = {{"OTTER_MAX_TRACE_SIZE", Bad}};
    Config C = E.read();
    EXPECT_FALSE(C.MaxTraceSet) << Bad;
    EXPECT_EQ(E.Warnings.size(), 1u) << Bad;
  }
  Env E;
  EXPECT_FALSE(E.read().MaxTraceSet); // the default: measured at start
}

TEST(Config, FlushIntervalTakesDecimalSecondsAndZero) {
  const std::pair<const char *, std::uint64_t> Good[] = {
      {"0", 0},
      {"1", 1000000000ull},
      {" 2.5 ", 2500000000ull},
      {"0.001", 1000000ull},
      {".5", 500000000ull},
      {"3.", 3000000000ull},
      {"0.0000000019", 1ull}, // past the nanosecond: ignored
      {"86400", 86400000000000ull}};
  for (auto [Text, Ns] : Good) {
    Env E;
    E.Vars = {{"OTTER_FLUSH_INTERVAL", Text}};
    EXPECT_EQ(E.read().FlushIntervalNs, Ns) << Text;
    EXPECT_TRUE(E.Warnings.empty()) << Text;
  }
  for (const char *Bad : {"", ".", "-1", "5s", "1e3", "1.2.3", "86400.5",
                          "99999999999999999999", "five"}) {
    Env E;
    E.Vars = {{"OTTER_FLUSH_INTERVAL", Bad}};
    EXPECT_EQ(E.read().FlushIntervalNs, DefaultFlushIntervalNs) << Bad;
    ASSERT_EQ(E.Warnings.size(), 1u) << Bad;
    EXPECT_EQ(E.Warnings[0], std::string("OTTER_FLUSH_INTERVAL='") + Bad +
                                 "' is not valid (use seconds, e.g. 5 or 0.5, "
                                 "up to 86400; 0 to flush only full "
                                 "buffers); using the default 5");
  }
  Env E;
  EXPECT_EQ(E.read().FlushIntervalNs, 5000000000ull);
}

TEST(Config, MaxTraceSizeDefaultIsAtMostTheFixedSize) {
  EXPECT_LE(defaultMaxTraceBytes("."), MaxTraceFixedBytes);
  EXPECT_EQ(defaultMaxTraceBytes("/nonexistent/dir"), MaxTraceFixedBytes);
}

TEST(Config, NoRankMeansOneProcess) {
  Env E;
  Config C = E.read();
  EXPECT_EQ(C.Rank, -1);
  EXPECT_TRUE(C.JobDir.empty());
}

TEST(Config, MpiRankGoesToItsOwnDirectoryInTheJobs) {
  Env E;
  E.Vars = {{"OMPI_COMM_WORLD_RANK", "3"},
            {"OMPI_COMM_WORLD_SIZE", "4"},
            {"OMPI_MCA_ess_base_jobid", "1644101633"},
            {"PMIX_NAMESPACE", "other"}};
  Config C = E.read();
  EXPECT_EQ(C.Rank, 3);
  EXPECT_EQ(C.WorldSize, 4);
  // The same on every rank: named after the job, not the process.
  EXPECT_EQ(C.JobDir, "otter-prog-job1644101633");
  EXPECT_EQ(C.OutputDir, "otter-prog-job1644101633/rank-3");
  EXPECT_TRUE(E.Warnings.empty());
}

TEST(Config, MpiRankInTheGivenOutputDirectory) {
  Env E;
  E.Vars = {{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}, {"OTTER_OUTPUT_DIR", "o"}};
  Config C = E.read();
  EXPECT_EQ(C.JobDir, "o");
  EXPECT_EQ(C.OutputDir, "o/rank-0");
  EXPECT_EQ(C.WorldSize, 2);
}

TEST(Config, JobIdIsSanitisedAndFallsBackToTheParentProcess) {
  Env E;
  E.Vars = {{"PMIX_RANK", "1"}, {"PMIX_NAMESPACE", "prterun-h/1@2,x"}};
  EXPECT_EQ(E.read().JobDir, "otter-prog-jobprterun-h_1_2_x");
  Env F;
  F.Vars = {{"SLURM_PROCID", "5"}};
  EXPECT_EQ(F.read().OutputDir, "otter-prog-job7/rank-5");
}

TEST(Config, BadRankVariableIsIgnored) {
  Env E;
  E.Vars = {{"OMPI_COMM_WORLD_RANK", "x"}, {"PMI_RANK", "2"}};
  EXPECT_EQ(E.read().Rank, 2);
  Env F;
  F.Vars = {{"OMPI_COMM_WORLD_RANK", "-1"}};
  EXPECT_EQ(F.read().Rank, -1);
}

TEST(Config, SymbolizeIsABooleanSettingWithItsTool) {
  Env E;
  Config C = E.read();
  EXPECT_FALSE(C.Symbolize);
  EXPECT_EQ(C.Symbolizer, "llvm-symbolizer-19");
  Env F;
  F.Vars = {{"OTTER_SYMBOLIZE", "yes"}, {"OTTER_SYMBOLIZER", "/opt/sym"}};
  C = F.read();
  EXPECT_TRUE(C.Symbolize);
  EXPECT_EQ(C.Symbolizer, "/opt/sym");
  EXPECT_TRUE(F.Warnings.empty());
  // Read like every other boolean: a bad value warns and keeps 0 (site
  // index used to take anything but "0" as on).
  Env G;
  G.Vars = {{"OTTER_SYMBOLIZE", "2"}, {"OTTER_SYMBOLIZER", ""}};
  C = G.read();
  EXPECT_FALSE(C.Symbolize);
  EXPECT_EQ(C.Symbolizer, "llvm-symbolizer-19");
  ASSERT_EQ(G.Warnings.size(), 1u);
  EXPECT_NE(G.Warnings[0].find("OTTER_SYMBOLIZE='2'"), std::string::npos);
}

TEST(Config, GraphFileNodeLimits) {
  Env E;
  Config C = E.read();
  EXPECT_EQ(C.Formats.DotMaxNodes, GraphFormats::DefaultDotMaxNodes);
  EXPECT_EQ(C.Formats.CsvZstdNodes, GraphFormats::DefaultCsvZstdNodes);
  EXPECT_EQ(C.Formats.CsvZstdEdges, 0u); // graph.csv: plain by default
  EXPECT_FALSE(C.Formats.edgesCsvCompressed(100000000));
  E.Vars = {{"OTTER_DOT_MAX_NODES", "0"}, {"OTTER_CSV_ZSTD_NODES", "250"},
            {"OTTER_CSV_ZSTD_EDGES", "300"}, {"OTTER_GRAPH_FORMAT", "csv"}};
  C = E.read();
  EXPECT_EQ(C.Formats.DotMaxNodes, 0u);
  EXPECT_FALSE(C.Formats.dotAggregated(100000000));
  EXPECT_EQ(C.Formats.CsvZstdNodes, 250u);
  EXPECT_TRUE(C.Formats.nodesCsvCompressed(251));
  EXPECT_FALSE(C.Formats.nodesCsvCompressed(250));
  EXPECT_EQ(C.Formats.CsvZstdEdges, 300u);
  EXPECT_TRUE(C.Formats.edgesCsvCompressed(301));
  EXPECT_FALSE(C.Formats.edgesCsvCompressed(300));
  EXPECT_TRUE(E.Warnings.empty());
  for (const char *Bad : {"-1", "lots", "12k", ""}) {
    Env B;
    B.Vars = {{"OTTER_DOT_MAX_NODES", Bad}};
    EXPECT_EQ(B.read().Formats.DotMaxNodes, GraphFormats::DefaultDotMaxNodes)
        << Bad;
    ASSERT_EQ(B.Warnings.size(), 1u) << Bad;
    EXPECT_NE(B.Warnings[0].find("OTTER_DOT_MAX_NODES='"), std::string::npos)
        << B.Warnings[0];
  }
}

TEST(Config, StartAcceptsAnyCase) {
  Env E;
  E.Vars = {{"OTTER_START", " PAUSED "}};
  EXPECT_TRUE(E.read().StartPaused);
  EXPECT_TRUE(E.Warnings.empty());
  Env R;
  R.Vars = {{"OTTER_START", "Recording"}};
  EXPECT_FALSE(R.read().StartPaused);
  EXPECT_TRUE(R.Warnings.empty());
}

TEST(Config, UnknownVariablesWarnOnceEachWithTheNearestName) {
  std::vector<std::string> Warnings;
  char A[] = "OTTER_OUTPUTDIR=x", B[] = "OTTER_TRACE=0", C[] = "PATH=/bin",
       D[] = "OTTER_CC=clang", F[] = "OTTER_BOGUS_THING=1",
       G[] = "OTTER_GRAPH_FORMATS=dot";
  char *Environment[] = {A, B, C, D, F, G, nullptr};
  otter::warnUnknownVariables(
      Environment, [&](const std::string &W) { Warnings.push_back(W); });
  ASSERT_EQ(Warnings.size(), 3u);
  EXPECT_NE(Warnings[0].find("OTTER_OUTPUTDIR is not a variable OTTER reads "
                             "(did you mean OTTER_OUTPUT_DIR?)"),
            std::string::npos)
      << Warnings[0];
  EXPECT_EQ(Warnings[1].find("did you mean"), std::string::npos) << Warnings[1];
  EXPECT_NE(Warnings[2].find("did you mean OTTER_GRAPH_FORMAT?"),
            std::string::npos)
      << Warnings[2];
}

TEST(Config, EveryVariableReadIsKnown) {
  // Each OTTER_* name readConfig asks for must be in env::RuntimeVariables,
  // or setting it would be warned about as a typo.
  std::vector<std::string> Asked;
  otter::readConfig(
      [&](const char *Name) -> const char * {
        Asked.push_back(Name);
        return nullptr;
      },
      [](const std::string &) {}, "prog", 1);
  for (const std::string &Name : Asked) {
    if (Name.rfind("OTTER_", 0) != 0)
      continue; // the launchers' rank and job variables
    std::string Entry = Name + "=1";
    char *Environment[] = {Entry.data(), nullptr};
    std::vector<std::string> Warnings;
    otter::warnUnknownVariables(
        Environment, [&](const std::string &W) { Warnings.push_back(W); });
    EXPECT_TRUE(Warnings.empty()) << Name;
  }
  EXPECT_GE(Asked.size(), 10u);
}

TEST(Config, Sampling) {
  Env E;
  Config C = E.read();
  EXPECT_EQ(C.SampleHz, 0u); // off by default
  EXPECT_FALSE(C.SampleWall);
  EXPECT_EQ(C.SampleSignal, SampleSignalUrgent); // SIGURG
  EXPECT_EQ(sampleSignalNumber(C.SampleSignal), SIGURG);
  EXPECT_EQ(sampleSignalName(C.SampleSignal), "SIGURG");
  EXPECT_TRUE(C.SampleCsv); // samples.csv beside the archive's samples
  E.Vars = {{"OTTER_SAMPLE", "1000"},
            {"OTTER_SAMPLE_CLOCK", "WALL"},
            {"OTTER_SAMPLE_SIGNAL", "7"},
            {"OTTER_SAMPLE_CSV", "0"}};
  C = E.read();
  EXPECT_EQ(C.SampleHz, 1000u);
  EXPECT_FALSE(C.SampleCsv);
  EXPECT_TRUE(C.SampleWall);
  EXPECT_EQ(C.SampleSignal, 7);
  EXPECT_EQ(sampleSignalNumber(C.SampleSignal), SIGRTMIN + 7);
  EXPECT_EQ(sampleSignalName(C.SampleSignal), "SIGRTMIN+7");
  E.Vars = {{"OTTER_SAMPLE_SIGNAL", " SigUrg "}};
  EXPECT_EQ(E.read().SampleSignal, SampleSignalUrgent);
  E.Vars = {{"OTTER_SAMPLE_SIGNAL", "urg"}};
  EXPECT_EQ(E.read().SampleSignal, SampleSignalUrgent);
  EXPECT_TRUE(E.Warnings.empty());
}

TEST(Config, SamplingInvalidValuesWarnAndKeepDefaults) {
  Env E;
  E.Vars = {{"OTTER_SAMPLE", "fast"},
            {"OTTER_SAMPLE_CLOCK", "cycles"},
            {"OTTER_SAMPLE_SIGNAL", "99"}};
  Config C = E.read();
  EXPECT_EQ(C.SampleHz, 0u);
  EXPECT_FALSE(C.SampleWall);
  EXPECT_EQ(C.SampleSignal, SampleSignalUrgent);
  ASSERT_EQ(E.Warnings.size(), 3u);
  EXPECT_NE(E.Warnings[0].find("OTTER_SAMPLE='fast' is not valid"),
            std::string::npos)
      << E.Warnings[0];
  EXPECT_NE(E.Warnings[1].find("use cpu or wall"), std::string::npos);
  EXPECT_NE(E.Warnings[2].find("SIGRTMIN+N"), std::string::npos);
  E.Warnings.clear();
  E.Vars = {{"OTTER_SAMPLE", "100001"}}; // above the largest rate
  EXPECT_EQ(E.read().SampleHz, 0u);
  EXPECT_EQ(E.Warnings.size(), 1u);
}
