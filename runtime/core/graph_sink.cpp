//===- core/graph_sink.cpp - The task graph: builder, then graph files ----===//
//
// Feeds every flushed buffer to the graph builder while the program runs
// (no lock: each thread's buffers go to a store of its own, merged at the
// end), on a background thread of its own for the first few threads
// (core/ingest_queue.h); at the end builds the graph and writes the files
// OTTER_GRAPH_FORMAT names (graph/outputs.h).
//
//===----------------------------------------------------------------------===//
#include "core/ingest_queue.h"
#include "core/memory_room.h"
#include "core/names.h"
#include "core/recorder.h"
#include "core/sinks.h"
#include "graph/builder.h"
#include "graph/outputs.h"

#include <atomic>
#include <exception>

namespace otter {

namespace {

class GraphSink final : public RunSink {
public:
  GraphSink()
      : Builder(describeCode),
        Queue([this](std::uint32_t Thread, const Event *E,
                     std::size_t N) { add(Thread, E, N); },
              recorder::tickScale()) {
    Queue.start();
  }

  void consume(const ThreadInfo &T, const Event *Events,
               std::size_t N) override {
    add(T.Index, Events, N);
  }
  bool adoptsBuffers() const override { return true; }
  Event *adopt(const ThreadInfo &T, Event *Buffer, std::size_t N,
               std::size_t Capacity, bool Ticks) override {
    return Queue.adopt(T.Index, Buffer, N, Capacity, Ticks);
  }
  void beforeFork() override { Queue.freeze(1000); }

  void close(FinishContext &) override {
    // Every buffer was flushed: what the background thread has not
    // ingested yet is ingested here.
    if (!Queue.stop())
      Lost = true;
  }

  void write(FinishContext &C) override {
    if (Lost) {
      C.Message("error: ", "graph events were lost when the run was saved "
                           "in a copy of the process; the graph was not "
                           "written");
      return;
    }
    if (OutOfMemory) {
      C.Message("error: ",
                std::string("ran out of memory collecting graph events") +
                    (NoRoom.load() ? " (under ulimit -v OTTER leaves the "
                                     "program an eighth of the limit, at "
                                     "least 8 MiB)"
                                   : "") +
                    "; the graph was not written");
      return;
    }
    // The nodes' table is written (startNodesTable) while the builder sorts
    // the edges: on a big graph the two take about as long, and the
    // program's threads are idle at exit.
    NodesTable Nodes;
    runWithLargeStack([&] {
      try {
        GraphBuilder::Hooks H;
        // On a graph whose nodes are final when made, the nodes' table is
        // written while the walk makes them; else once they are all made.
        H.WalkStarts = [&](Graph &G, std::size_t MaxNodes) {
          return startNodesStream(G, C.Cfg.OutputDir, C.Cfg.Formats, Nodes,
                                  MaxNodes);
        };
        H.NodesDone = [&](Graph &G) {
          G.Filtered = C.Cfg.FilterText;
          G.Names = names::snapshot(); // the annotations' strings
          startNodesTable(G, C.Cfg.OutputDir, C.Cfg.Formats, Nodes);
        };
        Builder.build(G, H);
        Built = true;
      } catch (const std::exception &E) {
        C.Message("error: ",
                  std::string("building the graph failed: ") + E.what());
      }
    });
    if (!Built) {
      Nodes.discard();
      return;
    }
    std::string Error, Written;
    if (!writeGraphFiles(G, C.Cfg.OutputDir, C.Cfg.Formats, Error, &Nodes,
                         &Written))
      C.Message("error: ", Error + " (check OTTER_OUTPUT_DIR)");
    // What was written is said and listed even when another file failed.
    if (!Written.empty()) {
      C.Wrote = true;
      C.Files.push_back(Written);
      if (!G.Mpi.empty() && C.Cfg.Formats.Csv) // with the tables
        C.Unlisted.push_back(
            C.Cfg.Formats.nodesCsvCompressed(G.Nodes.size()) ? "mpi.csv.zst"
                                                             : "mpi.csv");
      // In an MPI job one line for the job, as for the "wrote" line: rank
      // 0's, naming the rule every rank applies (each its own graph).
      bool Job = C.Cfg.Rank >= 0;
      if (Written.find("graph.gv") != std::string::npos &&
          C.Cfg.Formats.Dot && C.Cfg.Formats.dotAggregated(G.Nodes.size()) &&
          (C.Cfg.Rank <= 0 || C.Cfg.Verbose))
        C.Message("", std::string(Job ? "rank-0/graph.gv" : "graph.gv") +
                          " is aggregated, one node per construct (" +
                          std::to_string(G.Nodes.size()) +
                          " nodes > OTTER_DOT_MAX_NODES=" +
                          std::to_string(C.Cfg.Formats.DotMaxNodes) + ")" +
                          (Job ? ", as is every rank's above that many "
                                 "nodes; the full graphs are in "
                               : "; the full graph is in ") +
                          csvFiles(C.Cfg.Formats, G.Nodes.size(), " and "));
    }
    C.Details += ", " + std::to_string(G.Stats.ParallelRegions) +
                 " parallel regions, " + std::to_string(G.Stats.Tasks) +
                 " tasks, " + std::to_string(G.Nodes.size()) + " nodes, " +
                 std::to_string(G.Edges.size()) + " edges";
    if (C.Cfg.Verbose)
      for (const std::string &W : G.Warnings)
        C.Message("warning: ", W);
  }

  void report(FinishContext &C) override {
    if (!Built)
      return;
    std::size_t Counts[4] = {0, 0, 0, 0};
    for (std::size_t I = 1; I < G.Labels.size(); ++I)
      ++Counts[std::size_t(G.Labels[I].Quality)];
    // Fallback: exact labels that traces before 2026-11-25 told apart
    // because a stack walk found them (include/otter/label.h).
    C.Message("", "code addresses: " + std::to_string(Counts[0] + Counts[1]) +
                      " exact, " + std::to_string(Counts[2]) +
                      " approximate, " +
                      std::to_string(Counts[3]) + " unresolved");
  }

private:
  void add(std::uint32_t Thread, const Event *Events, std::size_t N) {
    // Out of memory once: the graph will not be written, nothing more is
    // kept. Under an address-space limit, the program's room first (core/
    // memory_room.h; what a buffer can add, at most: ~64 B an event).
    if (OutOfMemory.load(std::memory_order_relaxed))
      return;
    if (!memory::roomFor(std::uint64_t(N) * 64)) {
      NoRoom.store(true, std::memory_order_relaxed);
      OutOfMemory.store(true, std::memory_order_relaxed);
      return;
    }
    try {
      Builder.addEvents(Thread, Events, N); // the thread's own store
    } catch (...) {
      OutOfMemory.store(true, std::memory_order_relaxed); // the program
                                                          // runs on
    }
  }

  GraphBuilder Builder;
  IngestQueue Queue;
  bool Lost = false;
  std::atomic<bool> OutOfMemory = false, NoRoom = false;
  Graph G;
  bool Built = false;
};

} // namespace

std::unique_ptr<RunSink> makeGraphSink(const Config &, std::string &) {
  return std::make_unique<GraphSink>();
}

} // namespace otter
