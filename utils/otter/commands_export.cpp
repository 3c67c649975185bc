//===- otter/commands_export.cpp - graph, export --------------------------===//
//
// The commands that write files:
//  - `graph` and the full-graph exports (`export --format dot|csv`) rebuild
//    the task graph with the runtime's own builder and writers, in this
//    process (graph/rebuild.h, what otter-graph runs), so their files are
//    the runtime's byte for byte;
//  - the Perfetto trace, the state timeline and the aggregated graph are
//    observers of the one streaming pass of the analysis (analysis.h).
// Where -o puts them: commands.h.
//
//===----------------------------------------------------------------------===//
#include "command_input.h"
#include "commands.h"

#include "dot.h"
#include "export.h"
#include "rebuild.h"
#include "state_timeline.h"
#include "otter/printable.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <unistd.h>

namespace otter::cli {

using namespace otter::analysis;

namespace {

/// graph's --dot-max-nodes, --csv-zstd-nodes, --csv-zstd-edges: as
/// otter-graph's. -1: go on; else a usage error's status.
int graphThresholds(const Options &O, GraphFormats &F) {
  struct Threshold {
    const char *Name;
    const std::string &Text;
    std::size_t &Into;
  } Ts[] = {{"--dot-max-nodes", O.DotMaxNodes, F.DotMaxNodes},
            {"--csv-zstd-nodes", O.CsvZstdNodes, F.CsvZstdNodes},
            {"--csv-zstd-edges", O.CsvZstdEdges, F.CsvZstdEdges}};
  for (Threshold &T : Ts) {
    if (T.Text.empty())
      continue;
    char *End = nullptr;
    errno = 0;
    unsigned long long N = std::strtoull(T.Text.c_str(), &End, 10);
    if (*End || errno || T.Text[0] == '-')
      return usage(std::string("bad ") + T.Name + " '" + T.Text +
                   "' (use a whole number of nodes, 0 for no limit)");
    T.Into = std::size_t(N);
    F.CsvZstdGiven |= &T.Into != &F.DotMaxNodes;
  }
  return -1;
}

/// The dot file rendered beside itself (--svg); its name added to Files.
bool renderBeside(const std::string &Gv, std::vector<std::string> &Files,
                  std::string &Error) {
  std::string Svg = svgBeside(Gv);
  if (!runDot(Gv, Svg, "render " + Gv, Error))
    return false;
  Files.push_back(Svg);
  return true;
}

/// The full graph's graph.gv as one file, Path: rebuilt into Path's
/// directory when its name is graph.gv, else into a directory of its own
/// beside it and moved.
int fullGraphDot(const std::string &Input, const std::string &Path) {
  std::size_t Slash = Path.rfind('/');
  std::string Dir = Slash == std::string::npos ? "."
                    : Slash == 0                ? "/"
                                                : Path.substr(0, Slash);
  std::string Name = Slash == std::string::npos ? Path : Path.substr(Slash + 1);
  GraphFormats F;
  F.Csv = false;
  if (Name == "graph.gv")
    return rebuildGraphFiles(Input, Dir, F, "otter");
  std::string Error;
  if (!makeDirectories(Dir, Error))
    return fail(Error);
  std::string Temp = Dir + "/.otter-graph-XXXXXX";
  if (!mkdtemp(Temp.data()))
    return fail("cannot write into '" + Dir + "': " + std::strerror(errno));
  int Rc = rebuildGraphFiles(Input, Temp, F, "otter");
  std::string Written = Temp + "/graph.gv";
  if (Rc == 0 && std::rename(Written.c_str(), Path.c_str()) != 0)
    Rc = fail("cannot write '" + Path + "': " + std::strerror(errno));
  std::remove(Written.c_str());
  rmdir(Temp.c_str());
  return Rc;
}

/// `export --format dot|csv` without --aggregate: the full graph.
int exportFullGraph(const Options &O, std::vector<std::string> &Files) {
  std::string Error;
  if (O.Format == "dot") {
    std::string Out = outputFile(O.Output, "graph.gv");
    if (int Rc = fullGraphDot(O.Inputs[0], Out); Rc != 0)
      return Rc;
    Files.push_back(Out);
    if (O.Svg && !renderBeside(Out, Files, Error))
      return fail(Error);
    return 0;
  }
  std::string Dir = O.Output.empty() ? "." : O.Output;
  GraphFormats F;
  F.Dot = false;
  if (int Rc = rebuildGraphFiles(O.Inputs[0], Dir, F, "otter"); Rc != 0)
    return Rc;
  Files.push_back(Dir + "/nodes.csv");
  Files.push_back(Dir + "/graph.csv");
  return 0;
}

/// `otter export --format states`: the per-thread state timeline
/// (state_timeline.h), CSV or (--json) JSON, into -o FILE (- : stdout).
int exportStates(Input &In, const Options &O, std::vector<std::string> &Files) {
  StateTimeline T;
  Result R;
  std::string Error;
  if (!analyse(In, &T, R, Error, O.Phase))
    return fail(Error);
  Labels L{In, {}};
  bool Stdout = O.Output == "-";
  std::string Out = outputFile(O.Output, O.Json ? "states.json" : "states.csv");
  std::ofstream File;
  if (!Stdout && !openOutputFile(Out, File, Error))
    return fail(Error);
  std::ostream &OS = Stdout ? std::cout : File;
  if (O.Json)
    T.writeJson(OS, L.fn(), In.names());
  else
    T.writeCsv(OS, L.fn(), In.names());
  if (!OS.flush())
    return fail("error writing '" + Out + "'");
  if (!Stdout)
    Files.push_back(Out);
  return 0;
}

/// `otter export --format perfetto`: the Chrome trace-event JSON.
int exportPerfetto(Input &In, const Options &O,
                   std::vector<std::string> &Files) {
  Labels L{In, {}};
  std::string Out = outputFile(O.Output, "otter.perfetto.json");
  std::string Error;
  std::ofstream OS;
  if (!openOutputFile(Out, OS, Error))
    return fail(Error);
  PerfettoWriter W(OS, L.fn());
  W.setNames(In.names());
  if (In.Job)
    perfettoRanks(*In.Job, W);
  Result R;
  if (!analyse(In, &W, R, Error, O.Phase)) {
    // The JSON is streamed as the trace is read: after a failed read it is
    // cut off mid-document, so it is removed rather than left to mislead.
    OS.close();
    std::remove(Out.c_str());
    return fail(Error);
  }
  if (In.Job)
    perfettoMessages(*In.Job, W);
  W.finish(R.Threads);
  OS.flush();
  if (!OS)
    return fail("error writing '" + Out + "'");
  Files.push_back(Out);
  return 0;
}

/// `export --format dot|csv --aggregate`: one node per source construct.
int exportAggregate(Input &In, const Options &O,
                    std::vector<std::string> &Files) {
  Labels L{In, {}};
  AggregateGraph A;
  A.setNames(In.names());
  Result R;
  std::string Error;
  if (!analyse(In, &A, R, Error, O.Phase))
    return fail(Error);
  if (O.Format == "dot") {
    std::string Out = outputFile(O.Output, "aggregate.gv");
    std::ofstream OS;
    if (!openOutputFile(Out, OS, Error))
      return fail(Error);
    A.writeDot(R, L.fn(), OS);
    if (!OS.flush())
      return fail("error writing '" + Out + "'");
    Files.push_back(Out);
    if (O.Svg && !renderBeside(Out, Files, Error))
      return fail(Error);
    return 0;
  }
  std::string Dir;
  if (!outputDirectory(O.Output, Dir, Error))
    return fail(Error);
  std::ofstream N(Dir + "/aggregate_nodes.csv"),
      E(Dir + "/aggregate_edges.csv");
  if (!N || !E)
    return fail("cannot write into '" + Dir + "': " + std::strerror(errno));
  A.writeCsv(R, L.fn(), N, E);
  if (!N.flush() || !E.flush())
    return fail("error writing into '" + Dir + "'");
  Files.push_back(Dir + "/aggregate_nodes.csv");
  Files.push_back(Dir + "/aggregate_edges.csv");
  return 0;
}

/// export's option combinations. -1: go on; else a usage error's status.
int checkExportOptions(const Options &O) {
  if (O.Format.empty())
    return usage("export needs --format perfetto, states, dot or csv");
  bool Graph = O.Format == "dot" || O.Format == "csv";
  if (!Graph && O.Format != "perfetto" && O.Format != "states")
    return usage("unknown export format '" + O.Format +
                 "' (expected perfetto, states, dot or csv)");
  if (!O.Phase.empty() && Graph && !O.Aggregate)
    return usage("--phase applies to --format perfetto, states and "
                 "--aggregate (the full graph is the whole run's)");
  if (!Graph && (O.Aggregate || O.Svg))
    return usage("--aggregate and --svg apply to --format dot/csv");
  if (O.Svg && O.Format != "dot")
    return usage("--svg needs --format dot");
  return -1;
}

} // namespace

int cmdGraph(const Options &O) {
  if (int Rc = oneArchive(O.Inputs.size()); Rc >= 0)
    return Rc;
  std::string Fmt = O.Format.empty() ? "dot,csv" : O.Format;
  GraphFormats F;
  std::string Error;
  if (!parseGraphFormatOption(Fmt, F, Error)) {
    // As otter-graph says it: the line names the valid formats.
    std::fprintf(stderr, "otter: error: %s\n", printable(Error).c_str());
    return 2;
  }
  if (int Rc = graphThresholds(O, F); Rc >= 0)
    return Rc;
  std::string Dir = O.Output.empty() ? "." : O.Output;
  // What is printed so far comes out before the rebuild's warnings.
  std::fflush(stdout);
  if (int Rc = rebuildGraphFiles(O.Inputs[0], Dir, F, "otter"); Rc != 0)
    return Rc;
  // The files written for F, as writeGraphFiles names them.
  std::vector<std::string> Files;
  if (F.Csv) {
    Files.push_back(Dir + "/nodes.csv");
    Files.push_back(Dir + "/graph.csv");
  }
  if (F.Dot)
    Files.push_back(Dir + "/graph.gv");
  if (F.Canonical)
    Files.push_back(Dir + "/graph.txt");
  printWritten(O.Json, Files);
  return 0;
}

int cmdExport(const Options &O) {
  if (int Rc = oneArchive(O.Inputs.size()); Rc >= 0)
    return Rc;
  if (int Rc = checkExportOptions(O); Rc >= 0)
    return Rc;
  std::vector<std::string> Files;
  int Rc = 0;
  if (!O.Aggregate && (O.Format == "dot" || O.Format == "csv")) {
    // The full graph's rebuild opens the input itself.
    Rc = exportFullGraph(O, Files);
  } else {
    Input In;
    std::string Error;
    if (!openInput(O.Inputs[0], In, Error))
      return fail(Error);
    Rc = O.Format == "states"     ? exportStates(In, O, Files)
         : O.Format == "perfetto" ? exportPerfetto(In, O, Files)
                                  : exportAggregate(In, O, Files);
  }
  if (Rc != 0 || Files.empty())
    return Rc;
  printWritten(O.Json, Files);
  return 0;
}

} // namespace otter::cli
