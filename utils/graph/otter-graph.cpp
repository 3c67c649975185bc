//===- graph/otter-graph.cpp - Task graph from an OTTER OTF2 trace --------===//
//
// otter-graph <archive dir | traces.otf2 | output dir | MPI job dir> [-o DIR]
//             [--format csv,dot,canon,all]
//
// Reads the events and labels back from the trace (trace/reader.h) and runs
// the runtime's own graph builder and writers on them, so the files equal
// the ones the runtime wrote at exit. That equality is what the tests check
// (%check-rebuild in test/lit), and what `otter graph` and `otter export
// --format dot|csv` rely on: they call the same function (rebuild.h) in
// their own process. Given an MPI job's directory (or its merged archive),
// rebuilds every rank's graph from the rank's own archive and writes the
// job's graph (job_graph.h), which only this tool writes (docs/mpi.md
// says why the runtime does not).
//
//===----------------------------------------------------------------------===//
#include "rebuild.h"
#include "otter/printable.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>

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
    "  -o DIR         output directory (created, with any missing parent,\n"
    "                 if missing; default: .)\n";

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
         "                 An MPI job's nodes.csv and graph.csv: both " +
         std::to_string(GraphFormats::DefaultJobCsvZstd) +
         " by default\n"
         "                 (unless either option is given)\n"
         "  -h, --help     this text\n"
         "  --version      OTTER's version\n";
}

int fail(const std::string &Msg) {
  std::fprintf(stderr, "otter: error: %s\n", printable(Msg).c_str());
  return 1;
}

/// A wrong command line: status 2, as for every OTTER tool (1: the input or
/// the output failed).
int usageError(const std::string &Msg) {
  fail(Msg);
  return 2;
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
        Formats.CsvZstdGiven |= A != "--dot-max-nodes";
      } else if (!parseGraphFormatOption(V, Formats, Error)) {
        return usageError(Error);
      }
      continue;
    }
    if (A.rfind("--format=", 0) == 0) {
      std::string Error;
      if (!parseGraphFormatOption(A.substr(9), Formats, Error))
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

  return rebuildGraphFiles(Input, OutDir, Formats, "otter-graph");
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
