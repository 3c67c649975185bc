//===- graph/rebuild.cpp - The task graph's files from a trace ------------===//
//
// rebuild.h: otter-graph's work, shared with `otter graph`.
//
//===----------------------------------------------------------------------===//
#include "rebuild.h"

#include "graph/builder.h"
#include "job_graph.h"
#include "job_input.h"
#include "trace/reader.h"
#include "otter/printable.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <sys/stat.h>
#include <thread>

namespace otter {

namespace {

int fail(const std::string &Msg) {
  std::fprintf(stderr, "otter: error: %s\n", printable(Msg).c_str());
  return 1;
}

/// The job's graph from its ranks' archives.
int rebuildJob(const job::Layout &L, const std::string &OutDir,
               const GraphFormats &Formats, const char *Tool) {
  JobGraph J;
  std::vector<job::RankStatus> Status;
  std::string Error;
  unsigned Threads = std::max(1u, std::thread::hardware_concurrency());
  if (!job::rebuildJobGraph(L, Threads, J, Status, Error))
    return fail(Error);
  for (const std::string &N : job::rankNotes(Status))
    std::fprintf(stderr, "%s: warning: %s\n", Tool, N.c_str());
  for (const std::string &W : J.Warnings)
    std::fprintf(stderr, "%s: warning: %s\n", Tool, W.c_str());
  // A job's tables compressed by default from a few thousand nodes
  // (outputs.h, DefaultJobCsvZstd), unless the user set the limits.
  GraphFormats JobFormats = Formats;
  if (!Formats.CsvZstdGiven)
    JobFormats.CsvZstdNodes = JobFormats.CsvZstdEdges =
        GraphFormats::DefaultJobCsvZstd;
  if (!makeDirectories(OutDir, Error) ||
      !writeJobGraphFiles(J, OutDir, JobFormats, Error))
    return fail(Error);
  if (Formats.Dot && Formats.dotAggregated(J.nodeCount()))
    std::fprintf(stderr,
                 "%s: the job's graph.gv is aggregated, one node per rank and "
                 "construct (%zu nodes > --dot-max-nodes %zu; 0: the full "
                 "graph)\n",
                 Tool, std::size_t(J.nodeCount()), Formats.DotMaxNodes);
  return 0;
}

} // namespace

void warnArchiveState(const char *Tool, const std::string &Path,
                      bool Complete, std::uint64_t CutAtLimit,
                      const char *What) {
  if (!Complete)
    std::fprintf(stderr,
                 "%s: warning: the trace in '%s' was not closed (the program "
                 "is still running, was killed, or the disk filled up): %s "
                 "covers the events each thread had written\n",
                 Tool, Path.c_str(), What);
  if (CutAtLimit)
    std::fprintf(stderr,
                 "%s: warning: the trace in '%s' was cut at its size limit "
                 "(OTTER_MAX_TRACE_SIZE=%llu): the program ran on, %s covers "
                 "the run up to that point\n",
                 Tool, Path.c_str(), (unsigned long long)CutAtLimit, What);
}

bool makeDirectories(const std::string &Dir, std::string &Error) {
  // Each prefix ending before a '/', then Dir itself.
  for (std::size_t I = 1; I <= Dir.size(); ++I) {
    if (I < Dir.size() && Dir[I] != '/')
      continue;
    std::string Part = Dir.substr(0, I);
    if (mkdir(Part.c_str(), 0777) == 0 || errno == EEXIST)
      continue;
    Error = "cannot create output directory '" + Part +
            "': " + std::strerror(errno);
    return false;
  }
  struct stat St;
  if (stat(Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode)) {
    Error = "cannot create output directory '" + Dir +
            "': a file of that name is in the way";
    return false;
  }
  return true;
}

bool parseGraphFormatOption(const std::string &List, GraphFormats &F,
                            std::string &Error) {
  std::string Bad;
  // "none" writes nothing, so it is no choice on a command line.
  if (parseGraphFormats(List, /*AllowNone=*/false, F, Bad))
    return true;
  Error = "bad --format '" + List + "'" +
          (Bad.empty() ? ": an empty name" : ": '" + Bad + "' is unknown") +
          " (use a comma list of " + graphFormatNames(false) + ")";
  return false;
}

int rebuildGraphFiles(const std::string &Input, const std::string &OutDir,
                      const GraphFormats &Formats, const char *Tool) {
  std::string Error;
  job::Layout Job;
  if (job::findJob(Input, Job))
    return rebuildJob(Job, OutDir, Formats, Tool);
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
  warnArchiveState(Tool, Input, R.complete(), R.cutAtLimit(), "the graph");
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
  if (!makeDirectories(OutDir, Error) ||
      !writeGraphFiles(G, OutDir, Formats, Error))
    return fail(Error);
  if (Formats.Dot && Formats.dotAggregated(G.Nodes.size()))
    std::fprintf(stderr,
                 "%s: graph.gv is aggregated, one node per construct "
                 "(%zu nodes > --dot-max-nodes %zu; 0: the full graph)\n",
                 Tool, G.Nodes.size(), Formats.DotMaxNodes);
  return 0;
}

} // namespace otter
