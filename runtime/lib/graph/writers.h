//===- graph/writers.h - Task graph file formats -----------------*- C++ -*-===//
//
// Writers for the builder's graph: nodes.csv + graph.csv (tables), graph.gv
// (Graphviz) and graph.txt (canonical text: no threads, times or addresses
// that vary between runs, for diffing and FileCheck). Writers report I/O
// failure through their return value; they never throw or abort.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_WRITERS_H
#define OTTER_GRAPH_WRITERS_H

#include "graph/graph.h"
#include "graph/node_feed.h"
#include "graph/outputs.h" // GraphFormats, writeGraphFiles: by name

#include <ostream>
#include <string>
#include <vector>

namespace otter {

void writeNodesCsv(const Graph &G, std::ostream &OS);
/// The same, written while the builder's walk makes G's nodes: reads them
/// through Feed (graph/node_feed.h) as they become final, until the walk
/// ends. G must have no node names (GraphBuilder::Hooks::WalkStarts).
void writeNodesCsvFed(const Graph &G, NodeFeed &Feed, std::ostream &OS);
void writeEdgesCsv(const Graph &G, std::ostream &OS);
void writeDot(const Graph &G, std::ostream &OS);
/// graph.gv for a graph too big to lay out (more than MaxNodes nodes): one
/// node per construct -- node kind and source label -- with how many nodes
/// it stands for, one edge per (construct, construct, edge kind) with how
/// many edges it stands for; a comment first says so and how to get the
/// full graph.
void writeAggregatedDot(const Graph &G, std::ostream &OS, std::size_t MaxNodes);
void writeCanonical(const Graph &G, std::ostream &OS);

/// Short text for a node's source: "file:line:col" when known, else
/// "~symbol+0xoff" / "~module+0xoff" (approximate), else "?". With Dir, a
/// file under Dir is shown relative to it.
std::string nodeSourceText(const Graph &G, const Node &N,
                           const std::string &Dir = "");

/// The directory every absolute source path of Files shares ("" if none
/// but "/", or no path is absolute), with its trailing '/': the pictures
/// (graph.gv, otter picture, the report) show paths relative to it.
std::string commonDirectory(const std::vector<std::string> &Files);
/// File relative to Dir when it is under Dir, else File.
std::string relativePath(const std::string &File, const std::string &Dir);
/// commonDirectory of the files G's labels name.
std::string labelDirectory(const Graph &G);

// Pieces the job graph's writers (job_graph.h) share with these.
/// CSV field: quoted only when it must be (RFC 4180).
std::string csvField(const std::string &S);
/// Graphviz string contents: quotes and backslashes escaped.
std::string dotEscape(const std::string &S);
struct DotStyle {
  const char *Shape;
  const char *Color;
};
/// graph.gv's shape and colour of a node kind (the legend in docs/graph.md).
DotStyle dotStyleOf(NodeKind K);
/// graph.gv's attributes of an edge kind.
const char *dotEdgeStyle(EdgeKind K);
/// graph.gv's legend: a node named "legend" (a Graphviz HTML-like table)
/// with a row per style of the node kinds given (its shape and colour,
/// the kinds drawn so) and per edge kind given (its colour and what it
/// stands for), then Note (HTML-like text, may be empty).
std::string dotLegendNode(const std::vector<NodeKind> &Nodes,
                          const std::vector<EdgeKind> &Edges,
                          const std::string &Note);

} // namespace otter

#endif // OTTER_GRAPH_WRITERS_H
