//===- graph/otter-graph.cpp - Task graph from an OTTER OTF2 trace --------===//
//
// otter-graph <archive dir | traces.otf2 | output dir | MPI job dir> [-o DIR]
//             [--format csv,dot,canon,all]
//
// Reads the events and labels back from the trace (trace/reader.h) and runs
// the runtime's own graph builder and writers on them, so the files equal
// the ones the runtime wrote at exit. That equality is what the tests check
// (%check-rebuild in test/lit), and what `otter graph` and `otter export
// --format dot|csv` rely on: they run this program rather than build the
// graph themselves. Given an MPI job's directory (or its merged archive),
// rebuilds every rank's graph from the rank's own archive and writes the
// job's graph (job_graph.h), which only this tool writes (docs/mpi.md
// says why the runtime does not).
//
//===----------------------------------------------------------------------===//
#include "graph/builder.h"
#include "job_graph.h"
#include "graph/outputs.h"
#include "job_input.h"
#include "trace/reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <sys/stat.h>
#include <thread>

using namespace otter;

namespace {

const char *UsageHead =
    "usage: otter-graph <trace> [-o DIR] [--format LIST] [--dot-max-nodes N]\n"
    "                   [--csv-zstd-nodes N] [--csv-zstd-edges N]\n"
    "\n"
    "Rebuilds the task graph from an OTTER OTF2 trace and writes the same\n"
    "files as the runtime: nodes.csv and graph.csv (csv), graph.gv (dot),\n"
    "graph.txt (canon); mpi.csv (csv) for a rank of an MPI job.\n"
    "\n"
    "Given an MPI job's output directory (the one holding rank-<N>/ and the\n"
    "job's archive trace/), or that job archive, it rebuilds every rank's\n"
    "graph from the rank's own archive and writes the job's graph: every\n"
    "rank's nodes (nodes.csv has rank and node columns), a message edge per\n"
    "message, one node per collective (csv: nodes.csv, graph.csv,\n"
    "messages.csv, collectives.csv; dot: graph.gv; canon: graph.txt).\n"
    "Sends or receives that found no partner, and ranks that were cut off\n"
    "or left nothing, are reported on stderr. The runtime writes only each\n"
    "rank's graph; the job's comes from here (docs/mpi.md).\n"
    "\n"
    "  <trace>        the archive directory (…/trace), its traces.otf2\n"
    "                 anchor file, the run's OTTER_OUTPUT_DIR, or an MPI\n"
    "                 job's output directory\n"
    "  -o DIR         output directory (created if missing; default: .)\n";

/// The format names come from graph/outputs.h, the list the runtime reads.
std::string usage() {
  return UsageHead +
         ("  --format LIST  comma list of " + graphFormatNames(false) +
          " (default: dot,csv)\n") +
         "  --dot-max-nodes N\n"
         "                 graph.gv of a graph of more nodes is the aggregated\n"
         "                 graph, one node per construct (default: " +
         std::to_string(GraphFormats::DefaultDotMaxNodes) +
         ", as the\n"
         "                 runtime's OTTER_DOT_MAX_NODES); 0: always the full "
         "graph\n"
         "  --csv-zstd-nodes N\n"
         "                 nodes.csv (and mpi.csv) of a graph of more nodes is\n"
         "                 written zstd-compressed, nodes.csv.zst (default: " +
         std::to_string(GraphFormats::DefaultCsvZstdNodes) +
         ",\n"
         "                 as OTTER_CSV_ZSTD_NODES); 0: never\n"
         "  --csv-zstd-edges N\n"
         "                 graph.csv of a graph of more nodes is written\n"
         "                 zstd-compressed, graph.csv.zst (default: 0, never,\n"
         "                 as OTTER_CSV_ZSTD_EDGES)\n"
         "  -h, --help     this text\n"
         "  --version      OTTER's version\n";
}

int fail(const std::string &Msg) {
  std::fprintf(stderr, "otter: error: %s\n", Msg.c_str());
  return 1;
}

/// A wrong command line: status 2, as for every OTTER tool (1: the input or
/// the output failed).
int usageError(const std::string &Msg) {
  fail(Msg);
  return 2;
}

/// --format: the runtime's own parser (graph/outputs.h), so both take the
/// same names; "none" writes nothing, so it is no choice here.
bool parseFormats(const std::string &List, GraphFormats &F,
                  std::string &Error) {
  std::string Bad;
  if (parseGraphFormats(List, /*AllowNone=*/false, F, Bad))
    return true;
  Error = "bad --format '" + List + "'" +
          (Bad.empty() ? ": an empty name" : ": '" + Bad + "' is unknown") +
          " (use a comma list of " + graphFormatNames(false) + ")";
  return false;
}

bool makeOutputDir(const std::string &OutDir, std::string &Error) {
  if (mkdir(OutDir.c_str(), 0777) != 0 && errno != EEXIST) {
    Error = "cannot create output directory '" + OutDir +
            "': " + std::strerror(errno);
    return false;
  }
  return true;
}

/// The job's graph from its ranks' archives.
int runJob(const job::Layout &L, const std::string &OutDir,
           const GraphFormats &Formats) {
  JobGraph J;
  std::vector<job::RankStatus> Status;
  std::string Error;
  unsigned Threads = std::max(1u, std::thread::hardware_concurrency());
  if (!job::rebuildJobGraph(L, Threads, J, Status, Error))
    return fail(Error);
  for (const std::string &N : job::rankNotes(Status))
    std::fprintf(stderr, "otter-graph: warning: %s\n", N.c_str());
  for (const std::string &W : J.Warnings)
    std::fprintf(stderr, "otter-graph: warning: %s\n", W.c_str());
  if (!makeOutputDir(OutDir, Error) ||
      !writeJobGraphFiles(J, OutDir, Formats, Error))
    return fail(Error);
  return 0;
}

int run(int Argc, char **Argv) {
  std::string Input, OutDir = ".";
  // Default dot,csv: the runtime's default OTTER_GRAPH_FORMAT, so without
  // options the files are those a run with default settings writes.
  GraphFormats Formats;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "-h" || A == "--help") {
      std::fputs(usage().c_str(), stdout);
      return 0;
    }
    if (A == "--version") {
      std::puts("otter-graph (OTTER " OTTER_VERSION_STRING ")");
      return 0;
    }
    if (A == "-o" || A == "--format" || A == "--dot-max-nodes" ||
        A == "--csv-zstd-nodes" || A == "--csv-zstd-edges") {
      if (I + 1 >= Argc)
        return usageError("option " + A + " needs a value (see --help)");
      std::string V = Argv[++I];
      std::string Error;
      if (A == "-o") {
        OutDir = V;
      } else if (A == "--dot-max-nodes" || A == "--csv-zstd-nodes" ||
                 A == "--csv-zstd-edges") {
        char *End = nullptr;
        errno = 0;
        long long N = std::strtoll(V.c_str(), &End, 10);
        if (V.empty() || *End || errno || N < 0)
          return usageError("bad " + A + " '" + V +
                      "' (use a whole number of nodes, 0 for no limit)");
        (A == "--dot-max-nodes"    ? Formats.DotMaxNodes
         : A == "--csv-zstd-nodes" ? Formats.CsvZstdNodes
                                   : Formats.CsvZstdEdges) = std::size_t(N);
      } else if (!parseFormats(V, Formats, Error)) {
        return usageError(Error);
      }
      continue;
    }
    if (A.rfind("--format=", 0) == 0) {
      std::string Error;
      if (!parseFormats(A.substr(9), Formats, Error))
        return usageError(Error);
      continue;
    }
    if (A.size() > 1 && A[0] == '-')
      return usageError("unknown option '" + A + "' (see --help)");
    if (!Input.empty())
      return usageError("more than one trace given (see --help)");
    Input = A;
  }
  if (Input.empty())
    return usageError("no trace given (usage: otter-graph <trace> [-o DIR] "
                "[--format LIST])");

  std::string Error;
  job::Layout Job;
  if (job::findJob(Input, Job))
    return runJob(Job, OutDir, Formats);
  trace::TraceReader R;
  if (!R.open(Input, Error))
    return fail(Error);
  GraphBuilder B([&R](std::uint64_t Code) { return R.label(Code); });
  std::uint64_t Events = 0;
  if (!R.readEvents(
          [&B, &Events](std::uint32_t Thread, const Event *E, std::size_t N) {
            Events += N;
            B.addEvents(Thread, E, N);
          },
          Error))
    return fail(Error);
  // No thread's events reached the disk (a disk full from the start): an
  // empty graph would pass for the program's.
  if (!Events)
    return fail("the trace in '" + Input +
                "' holds no events: the traced run could not write any (was "
                "the disk full?); no graph written");
  // A trace whose writer was killed still reads up to what each thread had
  // flushed: build that prefix, but say so, since the graph then ends early.
  if (!R.complete())
    std::fprintf(stderr,
                 "otter-graph: warning: the trace in '%s' was not closed (the "
                 "program is still running, or was killed?): the graph "
                 "covers the events each thread had written to disk\n",
                 Input.c_str());
  if (R.cutAtLimit())
    std::fprintf(stderr,
                 "otter-graph: warning: the trace in '%s' was cut at its size "
                 "limit (OTTER_MAX_TRACE_SIZE=%llu): the graph covers the run "
                 "up to that point\n",
                 Input.c_str(), (unsigned long long)R.cutAtLimit());
  Graph G;
  bool Built = false;
  // The builder recurses along task nesting (a deep recursion of tasks is a
  // deep recursion here): on a thread with a large stack, as in the runtime.
  runWithLargeStack([&] {
    try {
      G = B.build();
      G.Names = R.names(); // the annotations' strings
      Built = true;
    } catch (const std::exception &E) {
      Error = E.what();
    }
  });
  if (!Built)
    return fail("building the graph failed: " + Error);
  G.Filtered = R.filter(); // the header says what the run filtered
  // The output directory only now: a trace that does not read leaves no
  // empty directory behind.
  if (!makeOutputDir(OutDir, Error))
    return fail(Error);
  if (!writeGraphFiles(G, OutDir, Formats, Error))
    return fail(Error);
  if (Formats.Dot && Formats.dotAggregated(G.Nodes.size()))
    std::fprintf(stderr,
                 "otter-graph: graph.gv is aggregated, one node per construct "
                 "(%zu nodes > --dot-max-nodes %zu; 0: the full graph)\n",
                 G.Nodes.size(), Formats.DotMaxNodes);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  try {
    return run(Argc, Argv);
  } catch (const std::bad_alloc &) {
    return fail("out of memory");
  } catch (const std::exception &E) {
    return fail(E.what());
  }
}
