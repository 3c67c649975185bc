//===- otter/command_table.cpp - Every `otter` command, one row each ------===//
//
// The table commands.h describes: per command its name, its line in
// `otter --help`, its usage and help text and the options it takes. Adding
// a command: a row here, its run function (declared in commands.h) and
// its section in docs/utils.md; the parser, `otter --help`, `otter help
// CMD` and test/unit/command_table_test.cpp pick it up from the row.
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include <array>

namespace otter::cli {

namespace {

// Option rows, by what they set.
constexpr OptionSpec flag(const char *Name, bool Options::*F) {
  return {Name, nullptr, F, nullptr, nullptr, nullptr};
}
constexpr OptionSpec value(const char *Name, std::string Options::*V,
                           const char *Needs, const char *Alias = nullptr) {
  return {Name, Alias, nullptr, V, nullptr, Needs};
}
constexpr OptionSpec count(const char *Name, std::size_t Options::*C,
                           const char *Needs) {
  return {Name, nullptr, nullptr, nullptr, C, Needs};
}

constexpr OptionSpec Json = flag("--json", &Options::Json);
constexpr OptionSpec Phase =
    value("--phase", &Options::Phase, "a phase name");
constexpr OptionSpec Top = count("--top", &Options::Top, "a number");
// -o: a directory for a command that writes several files, a file for one
// that writes one (commands.h).
constexpr OptionSpec OutputDir =
    value("--output", &Options::Output, "a directory", "-o");
constexpr OptionSpec OutputFile =
    value("--output", &Options::Output, "a file name", "-o");
constexpr OptionSpec OutputPath =
    value("--output", &Options::Output, "a file or directory name", "-o");

constexpr std::array GraphOptions{
    Json,
    OutputDir,
    value("--format", &Options::Format, "a comma list of formats", "-f"),
    value("--dot-max-nodes", &Options::DotMaxNodes, "a number of nodes"),
    value("--csv-zstd-nodes", &Options::CsvZstdNodes, "a number of nodes"),
    value("--csv-zstd-edges", &Options::CsvZstdEdges, "a number of nodes"),
};
constexpr std::array SummaryOptions{
    Json, Top, Phase,
    value("--by", &Options::By, "'construct' or 'phase'")};
constexpr std::array ParallelismOptions{Json, Top, Phase,
                                        flag("--full", &Options::Full)};
constexpr std::array DiagnoseOptions{Json, Phase,
                                     flag("--no-advice", &Options::NoAdvice)};
constexpr std::array ExportOptions{
    Json,
    OutputPath,
    Phase,
    value("--format", &Options::Format, "a format", "-f"),
    flag("--aggregate", &Options::Aggregate),
    flag("--svg", &Options::Svg),
};
constexpr std::array DumpOptions{
    Json,
    flag("--no-time", &Options::NoTime),
    flag("--kinds", &Options::ListKinds),
    value("--kind", &Options::Kinds, "a comma list of kinds"),
    value("--thread", &Options::Threads, "a comma list of threads"),
};
constexpr std::array SimulateOptions{
    Json,
    Phase,
    flag("--ideal", &Options::Ideal),
    value("--cores", &Options::Cores, "a list"),
    value("--svg", &Options::SvgFile, "a file name"),
    value("--dispatch-ns", &Options::DispatchNs, "a time in ns"),
};
constexpr std::array PictureOptions{Json, OutputFile, Phase,
                                    flag("--full", &Options::Full),
                                    flag("--aggregate", &Options::Aggregate)};
constexpr std::array ReportOptions{
    Json,
    OutputFile,
    Phase,
    value("--cores", &Options::Cores, "a list"),
    value("--window", &Options::Window, "FROM:TO (ms)"),
    flag("--no-simulate", &Options::NoSimulate),
};
constexpr std::array DiffOptions{Json, Top, Phase};
constexpr std::array ProfileOptions{
    Json, Top,
    value("--format", &Options::Format, "'table' or 'folded'", "-f"),
    value("--svg", &Options::SvgFile, "a file name")};

constexpr std::array EstimateOptions{
    Json, Top, OutputFile, value("--scale", &Options::Scale, "a number"),
    value("--max-size", &Options::MaxSize, "a size")};

const Command Commands[] = {
    {"graph",
     "write the task graph (nodes.csv, graph.csv, graph.gv, graph.txt)",
     "usage: otter graph [--format dot,csv,canon|all] [-o DIR] [--json] "
     "<archive>\n",
     "Rebuilds the task graph from the trace and writes it into DIR (default:\n"
     "the current directory; created, with any missing parent, if missing):\n"
     "nodes.csv + graph.csv (csv), graph.gv (dot), graph.txt (canon). Default\n"
     "formats: dot,csv. Same files as the runtime writes at exit, and as\n"
     "otter-graph writes (docs/graph.md). --dot-max-nodes N, --csv-zstd-nodes\n"
     "N, --csv-zstd-edges N: as otter-graph's (otter-graph --help).\n",
     GraphOptions, cmdGraph},
    {"summary", "run time, threads, construct counts, per-construct profile",
     "usage: otter summary [--top N] [--by construct|phase] [--phase NAME]\n"
     "                     [--json] <archive>\n",
     "Run time, threads, instance counts per construct kind, and a profile "
     "per\n"
     "source construct (region id, kind, file:line, instances, total/mean/max\n"
     "time, share of run time), sorted by total time. --top N: first N rows\n"
     "(default 30; 0 = all; --json always lists all). Then the program's\n"
     "phases (otter_phase_begin/end: instances, time begin to end), task\n"
     "labels (tasks per otter_task_label) and marks, if it has any.\n"
     "--by phase: the phase table alone.\n"
     "--phase NAME: only what happened inside that phase (every occurrence;\n"
     "the tasks and regions it created wholly); also for parallelism,\n"
     "diagnose and export (docs/utils.md, \"One phase\").\n",
     SummaryOptions, cmdSummary},
    {"parallelism",
     "work, span, parallelism, burdened parallelism, critical path",
     "usage: otter parallelism [--top N] [--full] [--phase NAME] [--json] "
     "<archive>\n",
     "Work (time tasks spend executing their own code), span (longest path\n"
     "through the task graph weighted by execution time), parallelism =\n"
     "work/span, burdened span (the longest path when every task pays the\n"
     "measured scheduling cost and every parallel region its fork and join\n"
     "time) and burdened parallelism, per parallel region too, and the\n"
     "critical path as a list of source constructs, each step with its\n"
     "tasks' label (otter_task_label) if the program names them. A program\n"
     "with phases (otter_phase_begin/end) gets a row per phase: each phase\n"
     "analysed alone, as with --phase NAME (one process's trace).\n"
     "A run of critical-path steps repeated back to back (a time-step loop,\n"
     "a recursion alternating between two tasks) is shown once, with the\n"
     "number of repeats and its totals; --full lists every step. --top N:\n"
     "the first N rows of the path (default 30, 0: all).\n"
     "An MPI job: the path has a rank per step, and its critical-path\n"
     "profile follows: per call path its time on the path, share, mean per\n"
     "rank and imbalance (docs/mpi.md, \"The utilities on a job\").\n",
     ParallelismOptions, cmdParallelism},
    {"diagnose",
     "performance problems per source construct, ranked by time lost",
     "usage: otter diagnose [--phase NAME] [--no-advice] [--json] "
     "<archive>\n",
     "Checks each source construct for: tasks too fine, low parallel benefit,\n"
     "imbalance among sibling tasks and among the threads of a team, time\n"
     "waiting at barriers/taskwaits/taskgroups, lock and critical contention;\n"
     "on an MPI job also each MPI call site for late sender, late receiver\n"
     "and wait at collective (Scalasca's wait states). Each finding shows its\n"
     "threshold and evidence; ranked by estimated thread time lost. Advice:\n"
     "what to change where (a recursion cut-off, fused parallel regions,\n"
     "dependences, a taskwait), with the run time predicted by replaying the\n"
     "program with the change applied on the traced number of cores\n"
     "(--no-advice: none).\n",
     DiagnoseOptions, cmdDiagnose},
    {"export",
     "Perfetto trace (--format perfetto), per-thread state\n"
     "timeline (states), task graph (dot, csv), aggregate\n"
     "graph per source construct (--aggregate)",
     "usage: otter export --format perfetto|states|dot|csv [--aggregate]\n"
     "                    [--svg] [--phase NAME] [-o PATH] [--json] "
     "<archive>\n",
     "perfetto: Chrome trace-event JSON (open in ui.perfetto.dev): a track "
     "per\n"
     "  thread, a slice per task and construct, flow arrows for creation and\n"
     "  dependence edges; an MPI job: a process per rank, a slice per MPI\n"
     "  call, an arrow per message. Default -o otter.perfetto.json.\n"
     "states: each thread's state timeline, one row per interval: CSV\n"
     "  thread,start_ns,end_ns,state,construct,region_id,task,label (state:\n"
     "  running, waiting, scheduling, idle, tool; construct: what a waiting\n"
     "  task waits in); --json: the same as JSON, with per-thread totals.\n"
     "  Default -o states.csv (states.json); -o - writes to stdout.\n"
     "dot, csv: the full task graph, as 'otter graph' (dot: -o FILE, default\n"
     "  graph.gv; csv: -o DIR, default .), or with --aggregate one node per\n"
     "  source construct (instances, total time, its tasks' most common label\n"
     "  and how many labels they have) and edges with counts (dot: -o FILE,\n"
     "  default aggregate.gv; csv: -o DIR). --svg also renders the dot file\n"
     "  with Graphviz, beside it (FILE.svg).\n"
     "-o: a FILE for the formats that write one file (an existing directory,\n"
     "  or a name ending in '/': the default name inside it), a DIR for csv;\n"
     "  missing directories are created.\n"
     "--phase NAME (perfetto, states, --aggregate): only what happened inside\n"
     "  that phase; the full graph (dot, csv) is always the whole run's.\n",
     ExportOptions, cmdExport},
    {"dump", "the raw event stream, one event per line",
     "usage: otter dump [--no-time] [--kind K1,K2,...] [--thread N,...]\n"
     "                  [--json] <archive>\n"
     "       otter dump --kinds\n",
     "The events the runtime recorded, one per line: thread by thread in\n"
     "ascending order (a line 'thread N' before each), each thread's events\n"
     "in the order it recorded them (a sync region's wait folded into it is\n"
     "shown as its own event, as OMPT reported it). A line: the time (ns,\n"
     "CLOCK_MONOTONIC), the kind's name, then its fields as label=value, e.g.\n"
     "  123 task_create creator=1099511627777 child=1099511627778\n"
     "      flags=explicit|untied code=prog.c:12:3\n"
     "Ids are decimal, code addresses their source file:line:col, OMPT's\n"
     "enumerations by OMPT's names. --no-time: without the time (output that\n"
     "does not change from run to run); --kind: only these kinds; --thread:\n"
     "only these threads; --json: one JSON object per event. --kinds lists\n"
     "every kind with its fields (docs/trace.md).\n",
     DumpOptions, cmdDump},
    {"simulate",
     "predicted time on 1..256 cores: the tasks replayed\n"
     "by a work-first scheduler, beside the bounds",
     "usage: otter simulate [--cores LIST] [--ideal] [--dispatch-ns NS]\n"
     "                      [--svg FILE] [--phase NAME] [--json] <archive>\n",
     "Replays the measured tasks (execution times, creations, dependences,\n"
     "taskwaits, taskgroups, barriers, teams) on simulated cores with a "
     "greedy\n"
     "work-first scheduler like libomp's (a core runs its own newest task,\n"
     "steals the oldest of another core otherwise), every task paying the\n"
     "measured scheduling cost and every parallel region its fork and join\n"
     "time, and prints per core count the predicted time, speed-up and\n"
     "efficiency beside the bounds work/P, span and burdened span.\n"
     "  --cores LIST  core counts: 1,2,8 or 1-256 (powers of two; default)\n"
     "  --ideal       no scheduling, fork or join cost\n"
     "  --dispatch-ns NS  the cost of starting a deferred task (default: the\n"
     "                scheduling cost measured in the trace, the 25th\n"
     "                percentile of its dispatch latencies, as otter\n"
     "                parallelism prints it; a trace with no deferred task,\n"
     "                such as a run on one thread, 3000)\n"
     "  --svg FILE    also write the scalability plot (missing directories\n"
     "                are created)\n"
     "  --phase NAME  replay only what happened inside that phase of the\n"
     "                program (otter_phase_begin; docs/utils.md \"One "
     "phase\")\n"
     "  --json        {\"points\":[{\"cores\":P,\"predicted_ns\":...},...], "
     "bounds}\n"
     "A run on one thread has its tasks serialized (its team has one thread):\n"
     "on more cores they are replayed as deferred, unless final or created\n"
     "at a construct with an if clause.\n"
     "An MPI job (its directory or archive): each rank replayed alone on P\n"
     "cores, its MPI calls as long as they took; the job's time on P cores\n"
     "per rank is its slowest rank's.\n",
     SimulateOptions, cmdSimulate},
    {"picture", "the task graph as SVG (aggregated when too big to read)",
     "usage: otter picture [-o FILE] [--full|--aggregate] [--phase NAME]\n"
     "                     [--json] <archive>\n",
     "Draws the task graph as SVG (default -o graph.svg; an existing\n"
     "directory: graph.svg inside it; missing directories are created), laid\n"
     "out by Graphviz, with a legend: the full graph (the one `otter graph`\n"
     "writes) when its picture stays within 20,000 pt tall and wide and 2 MB,\n"
     "else the aggregated graph: one node per source construct (instances,\n"
     "total time, shaded by its share of the run), edges with counts, the\n"
     "constructs and steps of the critical path in red. It says which graph\n"
     "it drew and why. --full, --aggregate: choose. --phase NAME: the\n"
     "aggregated graph of what happened inside that phase of the program.\n"
     "An MPI job (its directory or archive): the aggregated graph of every\n"
     "rank (the job's full graph, with its messages, is otter-graph's).\n",
     PictureOptions, cmdPicture},
    {"report", "one self-contained HTML report of the run",
     "usage: otter report [-o FILE] [--cores LIST] [--window FROM:TO]\n"
     "                    [--no-simulate] [--phase NAME] [--json] <archive>\n",
     "Writes one self-contained HTML file (default -o report.html; an\n"
     "existing directory: report.html inside it; missing directories are\n"
     "created; no network, no external script): the run's overview and key\n"
     "numbers (as otter parallelism), time per construct and source line (as\n"
     "otter summary), per-region parallelism and the critical path,\n"
     "diagnostics with their evidence (as otter diagnose), the scalability\n"
     "plot and table (as otter simulate, --cores), the task graph (as otter\n"
     "picture) and per-thread timelines of a window, binned.\n"
     "  --window FROM:TO  in ms from the run's first event (default: all)\n"
     "  --no-simulate     leave out the scalability section (faster)\n"
     "  --phase NAME      the report of what happened inside that phase of\n"
     "                    the program (the graph aggregated)\n"
     "An MPI job (its directory or archive): one page for the job as one\n"
     "program, with a section per rank; scalability as otter simulate's.\n"
     "A run or job sampled without a trace (otter-run --sample): its sampled\n"
     "profile alone (as otter profile), the page saying why.\n",
     ReportOptions, cmdReport},
    {"diff", "two runs compared per construct (otter diff A B)",
     "usage: otter diff [--top N] [--phase NAME] [--json] <archive A> <archive "
     "B>\n",
     "Compares two traces of one program (before and after a change, 2\n"
     "against 4 threads): the totals (run time, work, span, burdened span,\n"
     "parallelism), and per source construct its time, instances, work,\n"
     "time on the critical path (span) and waiting in A and in B, sorted by\n"
     "impact (the largest change of time, span or waiting); constructs only\n"
     "in one run apart. Constructs match by the plugin's region id, else by\n"
     "kind and file:line, else by kind and location. --top N: first N rows\n"
     "(default 30; 0 = all; --json always lists all). --phase NAME: both\n"
     "runs restricted to that phase of the program (it must occur in both).\n"
     "Two sampled runs (OTTER_SAMPLE) of which one at least has no trace:\n"
     "their profiles compared, as otter profile A B. An MPI job on either\n"
     "side: per construct over all its ranks (counts and times summed).\n",
     DiffOptions, cmdDiff},
    {"profile",
     "time per construct and function from the samples (OTTER_SAMPLE)",
     "usage: otter profile [--top N] [--format table|folded] [--svg FILE]\n"
     "                     [--json] <dir> [<dir B>]\n",
     "The samples of a run with OTTER_SAMPLE=<Hz> (DIR/samples.csv, DIR the\n"
     "run's output directory or its trace; without samples.csv, the samples\n"
     "in its trace; docs/sampling.md), symbolized with llvm-symbolizer-19 "
     "(OTTER_SYMBOLIZER\n"
     "names another), each on its user-model call path: the OpenMP runtime's\n"
     "frames removed, an outlined region or task shown as its construct\n"
     "(\"task chol.c:28\"; the plugin's site table names its kind). Prints "
     "the\n"
     "time per construct and per function, inclusive and exclusive, split by\n"
     "the thread's OpenMP state class (work, barrier, taskwait, lock, idle,\n"
     "overhead, other); every column is defined in the header line. --top N:\n"
     "first N rows per table (default 30; 0 = all). --format folded: the\n"
     "collapsed stacks of flame-graph tools, 'frame;frame;frame COUNT'\n"
     "(COUNT: timer periods). --svg FILE: also a flame graph of them drawn by\n"
     "OTTER, a self-contained SVG. --json: the tables as JSON.\n"
     "An MPI job's directory: its ranks' profiles merged (each rank's blame\n"
     "within the rank; the header says how many ranks).\n"
     "Two directories: their profiles compared per construct and function\n"
     "(inclusive and exclusive time in A, in B and B - A, the largest\n"
     "change first).\n",
     ProfileOptions, cmdProfile},
    {"estimate",
     "predicted trace size and overhead per construct; a filter to fit",
     "usage: otter estimate [--scale X] [--max-size SIZE] [-o FILE] [--top N]\n"
     "                      [--json] <archive>\n",
     "Like scorep-score: from a traced run (even a short or filtered one; a\n"
     "run sampled alone has no event counts), the events of each source\n"
     "construct, their share and their bytes in the trace (the archive's\n"
     "measured bytes per event), and the trace size and OTTER's recording\n"
     "time predicted for a run X times as long (--scale X, default 1: the\n"
     "run's own; e.g. the full run's time over the traced run's). The\n"
     "constants are named in the header (the run's measured cost per event,\n"
     "else docs/performance.md's). --max-size SIZE (bytes, K, M, G, T):\n"
     "writes a filter file (docs/filter.md; -o FILE, default otter.filter)\n"
     "that leaves out the functions whose constructs make the most events\n"
     "until the predicted size fits; exit status 1 if it cannot (events no\n"
     "function rule names). --top N: first N rows (default 30; 0 = all).\n"
     "--json: the same as one JSON object.\n",
     EstimateOptions, cmdEstimate},
};

} // namespace

std::span<const Command> commandTable() { return Commands; }

const Command *findCommand(const std::string &Name) {
  for (const Command &C : Commands)
    if (Name == C.Name)
      return &C;
  return nullptr;
}

} // namespace otter::cli
