// Unit tests for the graph writers: CSV quoting, the canonical text form,
// Graphviz output and the file writer's error reporting.
#include "graph/writers.h"
#include "otter/events.h"

#include <gtest/gtest.h>

#include <sstream>

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
  Node Init{.Kind = NodeKind::InitialTask, .Parent = NoNode, .Thread = 0,
            .Label = 0, .Flags = TaskInitial};
  Node Task{.Kind = NodeKind::Task, .Parent = 0, .Thread = 1, .Label = 1,
            .Flags = TaskUntied | TaskFinal};
  Node Wait{.Kind = NodeKind::Taskwait, .Parent = 0, .Thread = 0, .Label = 2};
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
            "directive,location,label_quality");
  EXPECT_NE(S.find("1,task,0,1,\"dir/a,b.c\",12,3,\"say \"\"hi\"\"\","
                   "0x0000000000000abc,untied|final,task,prog+0x10,exact\n"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("0,initial_task,,0,,,,,,,,,\n"), std::string::npos) << S;
  EXPECT_NE(S.find("2,taskwait,0,0,,,,main+0x5,0x0000000000000000,,,"
                   "prog+0x20,approximate\n"),
            std::string::npos)
      << S;
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

TEST(Writers, FileWriterReportsUnwritableDirectory) {
  std::string Error;
  EXPECT_FALSE(writeGraphFiles(sampleGraph(), "/nonexistent/otter-dir",
                               GraphFormats{}, Error));
  EXPECT_NE(Error.find("/nonexistent/otter-dir/nodes.csv"), std::string::npos)
      << Error;
  EXPECT_EQ(Error.find('\n'), std::string::npos);
}
