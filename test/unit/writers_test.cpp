// Unit tests for the graph writers: CSV quoting, the canonical text form,
// Graphviz output (full and aggregated), the node limits of the graph files
// (compressed tables) and the file writer's error reporting.
#include "graph/writers.h"
#include "otter/events.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unistd.h>
#include <zstd.h>

using namespace otter;

namespace {

Graph sampleGraph() {
  Graph G;
  G.Labels.push_back(SourceLabel{});
  SourceLabel L;
  L.File = "dir/a,b.c";
  L.Line = 12;
  L.Col = 3;
  L.Function = "say \"hi\"";
  L.RegionId = 0xabc;
  L.Directive = "task";
  L.Location = "prog+0x10";
  L.Quality = LabelQuality::Exact;
  G.Labels.push_back(L);
  SourceLabel A;
  A.Location = "prog+0x20";
  A.Function = "main+0x5";
  A.Quality = LabelQuality::Approximate;
  G.Labels.push_back(A);
  Node Init{.Kind = NodeKind::InitialTask,
            .Thread = 0,
            .Parent = NoNode,
            .Label = 0,
            .Flags = TaskInitial};
  Node Task{.Kind = NodeKind::Task,
            .Thread = 1,
            .Parent = 0,
            .Label = 1,
            .Flags = TaskUntied | TaskFinal};
  Node Wait{.Kind = NodeKind::Taskwait, .Thread = 0, .Parent = 0, .Label = 2};
  G.Nodes = {Init, Task, Wait};
  G.Edges = {{0, 1, EdgeKind::Create},
             {0, 2, EdgeKind::Scope},
             {1, 2, EdgeKind::Sync}};
  return G;
}

} // namespace

TEST(Writers, NodesCsvQuotesFieldsThatNeedIt) {
  std::ostringstream OS;
  writeNodesCsv(sampleGraph(), OS);
  std::string S = OS.str();
  EXPECT_EQ(S.substr(0, S.find('\n')),
            "id,kind,parent,thread,file,line,col,function,region_id,flags,"
            "directive,location,label_quality,name,bytes_to,bytes_from");
  EXPECT_NE(S.find("1,task,0,1,\"dir/a,b.c\",12,3,\"say \"\"hi\"\"\","
                   "0x0000000000000abc,untied|final,task,prog+0x10,exact,,,\n"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("0,initial_task,,0,,,,,,,,,,,,\n"), std::string::npos) << S;
  EXPECT_NE(S.find("2,taskwait,0,0,,,,main+0x5,0x0000000000000000,,,"
                   "prog+0x20,approximate,,,\n"),
            std::string::npos)
      << S;
}

/// A target construct's node has its bytes to and from the device in
/// nodes.csv's last two columns, graph.txt and graph.gv; other nodes none.
TEST(Writers, TargetBytesInEveryFormat) {
  Graph G = sampleGraph();
  G.Nodes[2].Kind = NodeKind::TargetUpdate;
  G.NodeBytes[2] = TargetBytes{8000, 4};
  std::ostringstream Csv, Txt, Dot;
  writeNodesCsv(G, Csv);
  writeCanonical(G, Txt);
  writeDot(G, Dot);
  EXPECT_NE(Csv.str().find("2,target_update,0,0,,,,main+0x5,"
                           "0x0000000000000000,,,prog+0x20,approximate,,"
                           "8000,4\n"),
            std::string::npos)
      << Csv.str();
  EXPECT_NE(Csv.str().find("0,initial_task,,0,,,,,,,,,,,,\n"),
            std::string::npos);
  EXPECT_NE(Txt.str().find("n2 target_update parent=n0 at=~main+0x5 "
                           "bytes_to=8000 bytes_from=4\n"),
            std::string::npos)
      << Txt.str();
  EXPECT_NE(Dot.str().find("\\n8000 B to, 4 B from device\", bytes_to=8000, "
                           "bytes_from=4, shape=cylinder"),
            std::string::npos)
      << Dot.str();
}

TEST(Writers, EdgesCsv) {
  std::ostringstream OS;
  writeEdgesCsv(sampleGraph(), OS);
  EXPECT_EQ(OS.str(), "source,target,kind\n0,1,create\n0,2,scope\n1,2,sync\n");
}

TEST(Writers, CanonicalHasNoThreadsOrAddresses) {
  std::ostringstream OS;
  writeCanonical(sampleGraph(), OS);
  EXPECT_EQ(OS.str(), "# otter canonical graph v1: 3 nodes, 3 edges\n"
                      "n0 initial_task parent=- at=?\n"
                      "  -> n1 create\n"
                      "  -> n2 scope\n"
                      "n1 task parent=n0 at=dir/a,b.c:12:3 flags=untied|final\n"
                      "  -> n2 sync\n"
                      "n2 taskwait parent=n0 at=~main+0x5\n");
}

TEST(Writers, DotEscapesAndStylesEveryEdgeKind) {
  std::ostringstream OS;
  writeDot(sampleGraph(), OS);
  std::string S = OS.str();
  EXPECT_EQ(S.rfind("digraph otter {", 0), 0u);
  EXPECT_NE(S.find("n1 [label=\"task\\ndir/a,b.c:12:3\\n[untied|final]\""),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("n1 -> n2 [color=\"#d95f02\", style=dashed]"),
            std::string::npos);
  EXPECT_EQ(S.back(), '\n');
}

/// The legend lists the node kinds and edge kinds the graph has, no other.
TEST(Writers, DotLegendListsTheKindsPresent) {
  std::ostringstream OS;
  writeDot(sampleGraph(), OS);
  std::string S = OS.str();
  std::size_t L = S.find("  legend [shape=none");
  ASSERT_NE(L, std::string::npos) << S;
  std::string Legend = S.substr(L, S.find('\n', L) - L);
  // Initial task and task have styles of their own; taskwait its own.
  for (const char *Want :
       {">box</TD><TD ALIGN=\"LEFT\">initial_task</TD>",
        ">ellipse</TD><TD ALIGN=\"LEFT\">task</TD>",
        ">octagon</TD><TD ALIGN=\"LEFT\">taskwait</TD>",
        ">create</FONT>: the creating task", ">sync</FONT> (dashed)",
        ">scope</FONT>: program order"})
    EXPECT_NE(Legend.find(Want), std::string::npos) << Want << "\n" << Legend;
  for (const char *Absent : {"barrier", "parallel_begin", ">dependence<"})
    EXPECT_EQ(Legend.find(Absent), std::string::npos) << Absent << "\n"
                                                      << Legend;
  // Nothing of it is called critical (the OpenMP construct's name).
  EXPECT_EQ(Legend.find("critical"), std::string::npos) << Legend;
  EXPECT_EQ(S.substr(S.size() - 2), "}\n");
}

TEST(Writers, FileWriterReportsUnwritableDirectory) {
  std::string Error;
  EXPECT_FALSE(writeGraphFiles(sampleGraph(), "/nonexistent/otter-dir",
                               GraphFormats{}, Error));
  EXPECT_NE(Error.find("/nonexistent/otter-dir/nodes.csv"), std::string::npos)
      << Error;
  EXPECT_EQ(Error.find('\n'), std::string::npos);
}

namespace {
/// A fib-like graph: one initial task creating Tasks tasks labelled alike,
/// each synced into one taskwait.
Graph manyTasks(std::uint32_t Tasks) {
  Graph G = sampleGraph();
  G.Nodes.resize(2); // initial task, the first task (label 1)
  G.Edges = {{0, 1, EdgeKind::Create}};
  for (std::uint32_t I = 1; I < Tasks; ++I) {
    G.Nodes.push_back({.Kind = NodeKind::Task,
                       .Thread = 0,
                       .Parent = 0,
                       .Label = 1,
                       .Flags = 0});
    G.Edges.push_back({0, NodeId(G.Nodes.size() - 1), EdgeKind::Create});
  }
  NodeId Wait = NodeId(G.Nodes.size());
  G.Nodes.push_back(
      {.Kind = NodeKind::Taskwait, .Thread = 0, .Parent = 0, .Label = 2});
  for (NodeId T = 1; T < Wait; ++T)
    G.Edges.push_back({T, Wait, EdgeKind::Sync});
  G.Edges.push_back({0, Wait, EdgeKind::Scope});
  return G;
}
} // namespace

TEST(Writers, AggregatedDotHasOneNodePerConstructWithCounts) {
  Graph G = manyTasks(1234);
  std::ostringstream OS;
  writeAggregatedDot(G, OS, 100);
  std::string S = OS.str();
  EXPECT_EQ(S.rfind("// otter aggregated task graph: 1,236 nodes and 2,469 "
                    "edges, more than OTTER_DOT_MAX_NODES=100",
                    0),
            0u)
      << S;
  // Three constructs: the initial task, the task, the taskwait.
  EXPECT_NE(S.find("c0 [label=\"initial_task\\n\u00d71\""), std::string::npos)
      << S;
  EXPECT_NE(S.find("c1 [label=\"task\\ndir/a,b.c:12:3\\n\u00d71,234\""),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("c2 [label=\"taskwait\\n~main+0x5\\n\u00d71\""),
            std::string::npos)
      << S;
  EXPECT_EQ(S.find("c3 ["), std::string::npos) << S;
  EXPECT_NE(S.find("c0 -> c1 [color=\"#1b9e77\", penwidth=6.0, "
                   "label=\"1,234\"]"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("c1 -> c2 [color=\"#d95f02\", style=dashed, penwidth=6.0, "
                   "label=\"1,234\"]"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("c0 -> c2 [color=\"#555555\", penwidth=1.0, label=\"1\"]"),
            std::string::npos)
      << S;
}

/// So many constructs that the edges are counted in a hash map, not the
/// dense table (more than 512): the same file as the dense table would make.
TEST(Writers, AggregatedDotOfManyConstructs) {
  Graph G = sampleGraph();
  G.Nodes.resize(1); // the initial task
  G.Edges.clear();
  for (std::uint32_t I = 0; I < 600; ++I) {
    SourceLabel L;
    L.Location = "prog+" + std::to_string(I);
    G.Labels.push_back(L);
    NodeId N = NodeId(G.Nodes.size());
    for (int Twice = 0; Twice < 2; ++Twice)
      G.Nodes.push_back({.Kind = NodeKind::Task,
                         .Thread = 0,
                         .Parent = 0,
                         .Label = std::uint32_t(G.Labels.size() - 1)});
    G.Edges.push_back({0, N, EdgeKind::Create});
    G.Edges.push_back({0, N + 1, EdgeKind::Create});
    G.Edges.push_back({N, N + 1, EdgeKind::Dependence});
  }
  std::sort(G.Edges.begin(), G.Edges.end());
  std::ostringstream OS;
  writeAggregatedDot(G, OS, 100);
  std::string S = OS.str();
  EXPECT_NE(S.find("1,201 nodes in 601 constructs"), std::string::npos) << S;
  EXPECT_NE(S.find("c600 [label=\"task\\n~prog+599\\n\u00d72\""),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("c0 -> c600 [color=\"#1b9e77\", penwidth=2.5, "
                   "label=\"2\"]"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("c600 -> c600 [color=\"#7570b3\", penwidth=2, "
                   "penwidth=1.0, label=\"1\"]"),
            std::string::npos)
      << S;
  // Edges in the order of their first edge: c0's, then the dependences.
  EXPECT_LT(S.find("c0 -> c600 "), S.find("c1 -> c1 ")) << S;
}

/// Kinds that share a style share a legend row; the aggregated graph.gv's
/// legend says what its counts are.
TEST(Writers, AggregatedDotHasALegend) {
  Graph G = manyTasks(10);
  G.Nodes.push_back({.Kind = NodeKind::ParallelBegin, .Parent = 0});
  G.Nodes.push_back({.Kind = NodeKind::ParallelEnd, .Parent = 0});
  std::ostringstream OS;
  writeAggregatedDot(G, OS, 5);
  std::string S = OS.str();
  EXPECT_NE(S.find(">trapezium</TD><TD ALIGN=\"LEFT\">parallel_begin, "
                   "parallel_end</TD>"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("one node per construct"), std::string::npos) << S;
  EXPECT_NE(S.find(">create</FONT>: the creating task"), std::string::npos)
      << S;
}

TEST(Writers, GraphFilesFollowTheNodeLimits) {
  char Tmpl[] = "/tmp/otter-writers-XXXXXX";
  ASSERT_NE(mkdtemp(Tmpl), nullptr);
  std::string Dir = Tmpl;
  Graph G = manyTasks(50);
  GraphFormats F;
  F.DotMaxNodes = 10;
  // By default only nodes.csv is compressed (outputs.h says why).
  EXPECT_EQ(F.CsvZstdEdges, 0u);
  EXPECT_EQ(graphFormatFiles(F, 2000000), "nodes.csv.zst graph.csv graph.gv");
  F.CsvZstdNodes = 10;
  EXPECT_EQ(graphFormatFiles(F, G.Nodes.size()),
            "nodes.csv.zst graph.csv graph.gv");
  F.CsvZstdEdges = 20;
  std::string Error;
  ASSERT_TRUE(writeGraphFiles(G, Dir, F, Error)) << Error;
  EXPECT_EQ(graphFormatFiles(F, G.Nodes.size()),
            "nodes.csv.zst graph.csv.zst graph.gv");
  EXPECT_EQ(graphFormatFiles(F, 20), "nodes.csv.zst graph.csv graph.gv");
  EXPECT_EQ(graphFormatFiles(F, 10), "nodes.csv graph.csv graph.gv");
  EXPECT_EQ(csvFiles(F, 20, " and "), "nodes.csv.zst and graph.csv");
  // The compressed table decompresses to exactly the plain one.
  std::ifstream Z(Dir + "/nodes.csv.zst", std::ios::binary);
  std::string Packed((std::istreambuf_iterator<char>(Z)),
                     std::istreambuf_iterator<char>());
  unsigned long long Size =
      ZSTD_getFrameContentSize(Packed.data(), Packed.size());
  std::string Plain(Size == ZSTD_CONTENTSIZE_UNKNOWN ? 1 << 20 : Size, '\0');
  std::size_t Got = ZSTD_decompress(Plain.data(), Plain.size(), Packed.data(),
                                    Packed.size());
  ASSERT_FALSE(ZSTD_isError(Got)) << ZSTD_getErrorName(Got);
  Plain.resize(Got);
  std::ostringstream Want;
  writeNodesCsv(G, Want);
  EXPECT_EQ(Plain, Want.str());
  std::ifstream Gv(Dir + "/graph.gv");
  std::string First;
  std::getline(Gv, First);
  EXPECT_EQ(First.rfind("// otter aggregated task graph", 0), 0u) << First;
  {
    std::ifstream Edges(Dir + "/graph.csv.zst", std::ios::binary);
    EXPECT_TRUE(Edges.good());
  }
  // Below the limits: the plain files, the full graph.
  F.DotMaxNodes = F.CsvZstdNodes = F.CsvZstdEdges = 0;
  ASSERT_TRUE(writeGraphFiles(G, Dir, F, Error)) << Error;
  std::ifstream Csv(Dir + "/nodes.csv");
  std::string Text((std::istreambuf_iterator<char>(Csv)),
                   std::istreambuf_iterator<char>());
  EXPECT_EQ(Text, Want.str());
  std::ifstream Full(Dir + "/graph.gv");
  std::getline(Full, First);
  EXPECT_EQ(First, "digraph otter {");
  for (const char *Name : {"nodes.csv", "graph.csv", "graph.gv",
                           "nodes.csv.zst", "graph.csv.zst"})
    std::remove((Dir + "/" + Name).c_str());
  rmdir(Dir.c_str());
}

namespace {
/// A .zst file's text, and how many frames it has.
std::string readZst(const std::string &Path, int &Frames) {
  std::ifstream Z(Path, std::ios::binary);
  std::string Packed((std::istreambuf_iterator<char>(Z)),
                     std::istreambuf_iterator<char>());
  Frames = 0;
  for (std::size_t At = 0; At < Packed.size(); ++Frames) {
    std::size_t N =
        ZSTD_findFrameCompressedSize(Packed.data() + At, Packed.size() - At);
    if (ZSTD_isError(N))
      return "bad frame";
    At += N;
  }
  ZSTD_DCtx *D = ZSTD_createDCtx();
  std::string Plain, Chunk(1 << 16, '\0');
  ZSTD_inBuffer In{Packed.data(), Packed.size(), 0};
  while (In.pos < In.size) {
    ZSTD_outBuffer Out{Chunk.data(), Chunk.size(), 0};
    std::size_t R = ZSTD_decompressStream(D, &Out, &In);
    if (ZSTD_isError(R))
      break;
    Plain.append(Chunk.data(), Out.pos);
  }
  ZSTD_freeDCtx(D);
  return Plain;
}
} // namespace

TEST(Writers, BigGraphTablesAreOneFrameEachWithGraphGvBeside) {
  // Over 100,000 nodes and edges: the nodes' table on a thread of its own,
  // the edges' compressed by libzstd's threads, graph.gv written beside
  // them. Each table is still one zstd frame (readers that stop after the
  // first frame see all of it) with exactly the plain table's text.
  char Tmpl[] = "/tmp/otter-writers-XXXXXX";
  ASSERT_NE(mkdtemp(Tmpl), nullptr);
  std::string Dir = Tmpl;
  Graph G = manyTasks(150000);
  GraphFormats F;
  F.CsvZstdNodes = F.CsvZstdEdges = 1000;
  std::string Error;
  ASSERT_TRUE(writeGraphFiles(G, Dir, F, Error)) << Error;
  std::ostringstream Nodes, Edges, Gv;
  writeNodesCsv(G, Nodes);
  writeEdgesCsv(G, Edges);
  writeAggregatedDot(G, Gv, F.DotMaxNodes);
  int Frames = 0;
  EXPECT_EQ(readZst(Dir + "/graph.csv.zst", Frames), Edges.str());
  EXPECT_EQ(Frames, 1);
  EXPECT_EQ(readZst(Dir + "/nodes.csv.zst", Frames), Nodes.str());
  EXPECT_EQ(Frames, 1);
  std::ifstream In(Dir + "/graph.gv");
  std::string Text((std::istreambuf_iterator<char>(In)),
                   std::istreambuf_iterator<char>());
  EXPECT_EQ(Text, Gv.str());
  for (const char *Name : {"nodes.csv.zst", "graph.csv.zst", "graph.gv"})
    std::remove((Dir + "/" + Name).c_str());
  rmdir(Dir.c_str());
}
