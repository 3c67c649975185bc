//===- graph/outputs.h - Graph files by name; the output-list parser -*- C++ -*-===//
//
// The one place that knows which files OTTER writes from a task graph and
// under which names users ask for them (OTTER_GRAPH_FORMAT, otter-graph
// --format, otter graph --format), and the one parser of such comma lists.
// The runtime and otter-graph both use it, so they accept the same names
// and say the same thing about a wrong one.
//
// Adding a graph file format: its writer (graph/writers.h), a flag in
// GraphFormats and a row in graphOutputs() (outputs.cpp). Event sinks of
// the runtime (the graph builder, the OTF2 trace) are in core/sinks.h.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_OUTPUTS_H
#define OTTER_GRAPH_OUTPUTS_H

#include <cstddef>
#include <functional>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace otter {

struct Graph;
struct NodesTable;
class NodeFeed; // graph/node_feed.h

/// Which graph files to write: one flag per row of graphOutputs(). The
/// defaults are the runtime's (OTTER_GRAPH_FORMAT unset: dot,csv).
struct GraphFormats {
  bool Dot = true;
  bool Csv = true;
  bool Canonical = false;
  /// graph.gv for a graph of more nodes is the aggregated one (one node per
  /// construct, writers.h): Graphviz lays out a few thousand nodes, not
  /// millions. 0: always the full graph (OTTER_DOT_MAX_NODES).
  std::size_t DotMaxNodes = DefaultDotMaxNodes;
  static constexpr std::size_t DefaultDotMaxNodes = 5000;
  /// nodes.csv (and mpi.csv) of a graph of more nodes is written
  /// zstd-compressed, nodes.csv.zst (zstd_file.h says why); 0: never
  /// (OTTER_CSV_ZSTD_NODES).
  std::size_t CsvZstdNodes = DefaultCsvZstdNodes;
  static constexpr std::size_t DefaultCsvZstdNodes = 1000000;
  /// graph.csv of a graph of more nodes is written zstd-compressed,
  /// graph.csv.zst; 0: never, the default (OTTER_CSV_ZSTD_EDGES). Not by
  /// default because it does not pay at exit: its rows are numbers, which
  /// zstd takes 3x longer per byte for a third of the ratio (fib 30: 144 MB
  /// to 21.7 MB for 0.24 CPU-s, against nodes.csv's 455 MB to 21.6 MB for
  /// 0.29), and plain it is smaller than the trace of the same run (54
  /// bytes per task against 77), while nodes.csv plain would be 2.2x the
  /// trace (docs/performance-notes.md, "Default outputs at scale").
  std::size_t CsvZstdEdges = DefaultCsvZstdEdges;
  static constexpr std::size_t DefaultCsvZstdEdges = 0;
  /// An MPI job's graph (otter-graph JOB): both tables compressed above
  /// this many nodes unless the user set the limits (CsvZstdGiven). A
  /// job's tables repeat every rank's constructs: compressed, they are ~50x
  /// smaller; plain, about twice the job's trace (docs/graph.md).
  static constexpr std::size_t DefaultJobCsvZstd = 5000;
  bool CsvZstdGiven = false; // --csv-zstd-nodes or --csv-zstd-edges given
  bool nodesCsvCompressed(std::size_t N) const {
    return CsvZstdNodes && N > CsvZstdNodes;
  }
  bool edgesCsvCompressed(std::size_t N) const {
    return CsvZstdEdges && N > CsvZstdEdges;
  }
  bool any() const { return Dot || Csv || Canonical; }
  /// Whether graph.gv of a graph of N nodes is aggregated.
  bool dotAggregated(std::size_t N) const {
    return DotMaxNodes && N > DotMaxNodes;
  }
};

/// One graph output format.
struct GraphOutput {
  std::string_view Name;    // the name users give: "dot"
  std::string_view Aliases; // also accepted, space separated: "gv"
  std::string_view Files;   // what it writes, space separated, as listed in
                            // the runtime's "wrote" line
  bool GraphFormats::*Flag; // its flag
  /// Writes its files into Dir (which exists). False: Error says why, in
  /// one line.
  /// Early: see writeGraphFiles.
  bool (*Write)(const Graph &G, const std::string &Dir, const GraphFormats &F,
                std::string &Error, NodesTable *Early);
};

/// Every graph output, in the order they are written and listed.
std::span<const GraphOutput> graphOutputs();

/// A name an output list may give (the parser knows nothing else of it).
struct OutputChoice {
  std::string_view Name;
  std::string_view Aliases; // space separated
};

/// The output-list parser: a comma list of the Choices' names or aliases
/// (case and blanks around an item do not matter), "all" (every choice) and,
/// if AllowNone, "none" (nothing; with other items, only those). On success
/// On[I] says whether Choices[I] was named. False: Bad is the first item
/// that names nothing ("" for an empty item) and On is unchanged.
bool parseOutputList(std::string_view List,
                     std::span<const OutputChoice> Choices, bool AllowNone,
                     std::vector<bool> &On, std::string &Bad);

/// "dot, csv, all, none": what a list may give, for messages and help.
std::string outputListNames(std::span<const OutputChoice> Choices,
                            bool AllowNone);

/// The two above over graphOutputs().
bool parseGraphFormats(std::string_view List, bool AllowNone, GraphFormats &F,
                       std::string &Bad);
std::string graphFormatNames(bool AllowNone);

/// The files F selects, space separated, in graphOutputs() order; for a
/// graph of Nodes nodes, the compressed tables' names (.zst) where F says.
std::string graphFormatFiles(const GraphFormats &F, std::size_t Nodes = 0);
/// The two tables' names for a graph of Nodes nodes (.zst where F
/// compresses them), Between them.
std::string csvFiles(const GraphFormats &F, std::size_t Nodes,
                     const char *Between);

/// Writes one output file with Fn. On failure: false, a one-line Error
/// naming the file and the system's reason (ENOSPC: disk full; EFBIG: a
/// file-size limit), and the cut file removed, since it would pass for the
/// whole graph.
bool writeOutputFile(const std::string &Path,
                     const std::function<void(std::ostream &)> &Fn,
                     std::string &Error);
/// The same into a zstd-compressed file (Path ends in .zst); Workers: as
/// ZstdFileBuf's (graph/zstd_file.h).
bool writeZstdOutputFile(const std::string &Path,
                         const std::function<void(std::ostream &)> &Fn,
                         std::string &Error, int Workers = 0);

/// The nodes' table written ahead of the other files (startNodesTable,
/// startNodesStream), on a thread of its own. Joined by writeGraphFiles, or
/// by the destructor.
struct NodesTable {
  /// startNodesStream's: the walk's nodes as they are made.
  std::unique_ptr<NodeFeed> Feed;
  std::thread Thread;
  bool Ok = true;
  /// startNodesStream guessed the graph's size wrong (the file name, .zst
  /// or not, depends on it): nothing was written, writeGraphFiles writes it.
  bool Redo = false;
  std::string Error;
  std::string Path; // the file it writes
  NodesTable();
  NodesTable(const NodesTable &) = delete;
  NodesTable &operator=(const NodesTable &) = delete;
  ~NodesTable();
  void join() {
    if (Thread.joinable())
      Thread.join();
  }
  /// Waits for it and removes what it wrote (the graph was not finished).
  void discard();
};

/// Starts writing the nodes' table into Dir on a thread of its own while
/// the builder's walk makes G's nodes (GraphBuilder::Hooks::WalkStarts,
/// which MaxNodes, the most nodes the walk can make, comes from), when F
/// selects the tables and the graph can be big enough for writeGraphFiles
/// to write them in two threads; returns the feed the walk must give the
/// nodes through, else null (nothing started). The file is the one
/// writeGraphFiles would write; if its name, which depends on the final
/// node count (F.nodesCsvCompressed), was guessed wrong, nothing is written and
/// writeGraphFiles writes it.
NodeFeed *startNodesStream(const Graph &G, const std::string &Dir,
                           const GraphFormats &F, NodesTable &T,
                           std::size_t MaxNodes);

/// Starts writing nodes.csv (nodes.csv.zst: as writeGraphFiles would) into
/// Dir on a thread of its own, when F selects the tables and G is big
/// enough that writeGraphFiles would write them in two threads anyway; else
/// nothing (writeGraphFiles writes it). G's nodes, labels and names must be
/// final and stay so until writeGraphFiles(..., &T) returns; its edges may
/// be sorted meanwhile (GraphBuilder::build's NodesDone): a graph of
/// millions of nodes has its nodes written while its edges are sorted.
void startNodesTable(const Graph &G, const std::string &Dir,
                     const GraphFormats &F, NodesTable &T);

/// Writes the selected files into Dir (which must exist). Every selected
/// output is attempted: one that fails (a full disk, a file size limit)
/// does not keep the others from being written. Returns false when any
/// failed, with Error naming each failure, "; "-separated, on one line.
/// Written (if given) gets the names of the files written, space-separated
/// ("nodes.csv graph.csv graph.gv"), whatever failed. Early: the nodes'
/// table if startNodesTable started it (it is waited for, and its error
/// reported, where the tables are written).
bool writeGraphFiles(const Graph &G, const std::string &Dir,
                     const GraphFormats &F, std::string &Error,
                     NodesTable *Early = nullptr,
                     std::string *Written = nullptr);

} // namespace otter

#endif // OTTER_GRAPH_OUTPUTS_H
