//===- otter/html_report.cpp - One self-contained HTML report ------------===//
//
// The numbers are the other subcommands' (the same analysis Result, the
// same groupConstructs, diagnose and predict): each key number is also in
// a data-ns / data-value attribute with its exact value, and all of them in
// one JSON block (id "otter-data"), so a test (and a script) reads what a
// user sees. The page's only script makes tables sortable and sections
// foldable; a handler installed first writes any script error into the
// page (id "js-errors"), where the browser test looks for it.
//
//===----------------------------------------------------------------------===//
#include "html_report.h"

#include "advice.h"

#include "picture.h"
#include "report_sections.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace otter::html {

using namespace otter::analysis;
using picture::xmlEscape;

//===----------------------------------------------------------------------===//
// The page.
//===----------------------------------------------------------------------===//

namespace {

const char *Style = R"(
tr.repeat td{font-style:italic;border-top:1px solid #bbb}
tr.cross td{border-top:2px solid #1f618d}
tr.inner td:first-child{padding-left:1.5em}
body{font-family:Helvetica,Arial,sans-serif;margin:0 auto;max-width:1200px;
padding:0 16px 40px;color:#222;font-size:14px}
h1{font-size:22px;margin:18px 0 4px}h2{font-size:17px;margin:26px 0 8px;
border-bottom:1px solid #ccc;cursor:pointer}h2:before{content:"\25be  ";
color:#888}section.collapsed>:not(h2){display:none}
section.collapsed h2:before{content:"\25b8  "}
table{border-collapse:collapse;margin:6px 0}td,th{padding:3px 8px;
border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{background:#f4f4f4;cursor:pointer;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.key td{border:none;padding:2px 14px 2px 0}.key td.n{font-weight:bold}
.muted{color:#777}.finding{border-left:4px solid #c0392b;padding:4px 10px;
margin:8px 0;background:#fdf2f1}.finding b{color:#c0392b}
#js-errors{color:#c0392b;white-space:pre}.pic{overflow:auto;
max-height:900px;border:1px solid #eee}.pic svg{max-width:none}
.legend span{display:inline-block;margin-right:14px}
.sw{display:inline-block;width:12px;height:12px;margin-right:4px;
vertical-align:middle;border:1px solid #999}
)";

// Installed first: any script error is written into the page.
const char *ErrorScript = R"(
window.addEventListener('error',function(e){var d=document.getElementById(
'js-errors');if(d){d.hidden=false;d.textContent+=String(e.message)+'\n';}});
)";

const char *PageScript = R"(
(function(){
document.querySelectorAll('section>h2').forEach(function(h){
h.addEventListener('click',function(){h.parentNode.classList.toggle(
'collapsed');});});
document.querySelectorAll('table.sort').forEach(function(t){
t.querySelectorAll('th').forEach(function(th,i){th.addEventListener('click',
function(){var b=t.tBodies[0],r=Array.prototype.slice.call(b.rows),
d=th.dataset.dir==='a'?-1:1;th.dataset.dir=d>0?'a':'d';
r.sort(function(x,y){var p=x.cells[i],q=y.cells[i],
u=p.dataset.v!==undefined?+p.dataset.v:p.textContent,
v=q.dataset.v!==undefined?+q.dataset.v:q.textContent;
return (u<v?-1:u>v?1:0)*d;});r.forEach(function(x){b.appendChild(x);});});});});
document.body.setAttribute('data-ready','1');
// Time from the start of navigation to here: the page parsed and laid out.
document.body.setAttribute('data-load-ms',Math.round(performance.now()));
})();
)";

std::string fmt(const char *F, double X) {
  char B[64];
  std::snprintf(B, sizeof B, F, X);
  return B;
}

/// A number cell: shown as Text, sorted by V.
std::string numCell(const std::string &Text, double V) {
  return "<td class=\"n\" data-v=\"" + fmt("%.0f", V) + "\">" +
         xmlEscape(Text) + "</td>";
}

} // namespace

namespace {

/// The overview: the run's key figures, construct counts, warnings.
void writeOverview(const ReportInput &In, const std::vector<Construct> &Cs,
                   std::ostream &OS) {
  const Result &R = *In.R;
  double Run = double(R.runNs());
  std::uint64_t Counts[std::size_t(Kind::Count)] = {};
  for (const Construct &C : Cs)
    Counts[std::size_t(C.S.K)] += C.S.Instances;
  OS << "<section id=\"overview\"><h2>Overview</h2><table class=\"key\">";
  auto key = [&](const char *Id, const char *Name, const std::string &Text,
                 const std::string &Raw, const char *Note = "") {
    OS << "<tr><td>" << Name << "</td><td class=\"n\" id=\"" << Id
       << "\" data-value=\"" << Raw << "\">" << xmlEscape(Text)
       << "</td><td class=\"muted\">" << Note << "</td></tr>\n";
  };
  key("run_ns", "run time", fmtNs(Run), std::to_string(R.runNs()),
      "first to last event");
  key("threads", "threads", std::to_string(R.Threads),
      std::to_string(R.Threads));
  key("events", "events", std::to_string(R.Events), std::to_string(R.Events));
  const std::string ToolNote =
      "thread time that was OTTER's, in no other figure: " +
      fmtNs(double(R.ToolFlushNs)) + " writing out full event buffers, " +
      fmtNs(double(R.RecordingNs)) + " recording events" +
      (R.RecordingCostNs
           ? " (" + std::to_string(R.RecordingCostNs) + " ns an event)"
           : std::string());
  key("tool_ns", "OTTER's own time", fmtNs(double(R.ToolNs)),
      std::to_string(R.ToolNs), ToolNote.c_str());
  if (R.IdleThreadsNs) {
    const std::string IdleNote =
        "a team's other threads from its region's end to the next fork; "
        "mostly while the primary thread was " +
        (R.IdleCauses.empty()
             ? std::string("?")
             : idleCauseText(R, R.IdleCauses.front(), In.Label));
    key("idle_threads_ns", "OpenMP idle threads",
        fmtNs(double(R.IdleThreadsNs)), std::to_string(R.IdleThreadsNs),
        IdleNote.c_str());
  }
  key("explicit_tasks", "tasks", std::to_string(R.ExplicitTasks),
      std::to_string(R.ExplicitTasks), "explicit");
  key("parallel_regions", "parallel regions", std::to_string(R.ParallelRegions),
      std::to_string(R.ParallelRegions));
  key("work_ns", "work", fmtNs(double(R.WorkNs)), std::to_string(R.WorkNs),
      "time tasks spent executing their own code");
  const std::string SpanNote =
      R.devicePathNs()
          ? "longest path through the task graph; " +
                xmlEscape(fmtNs(double(R.devicePathNs()))) +
                " of it waiting for devices in target constructs (in the "
                "span, not in work)"
          : std::string("longest path through the task graph");
  key("span_ns", "span", fmtNs(double(R.SpanNs)), std::to_string(R.SpanNs),
      SpanNote.c_str());
  key("parallelism", "parallelism", fmt("%.2f", R.parallelism()),
      fmt("%.4f", R.parallelism()), "work / span");
  key("burdened_span_ns", "burdened span", fmtNs(R.burdenedSpanNs()),
      fmt("%.0f", R.burdenedSpanNs()),
      "each task pays the scheduling cost, each region its fork and join");
  key("burdened_parallelism", "burdened parallelism",
      fmt("%.2f", R.burdenedParallelism()),
      fmt("%.4f", R.burdenedParallelism()));
  // Per-task costs only where there are tasks to have measured them on.
  if (R.ExplicitTasks) {
    key("creation_cost_ns", "creation cost", fmtNs(R.CreateCostNs),
        fmt("%.0f", R.CreateCostNs), "median per task");
    key("scheduling_cost_ns", "scheduling cost", fmtNs(R.ScheduleCostNs),
        fmt("%.0f", R.ScheduleCostNs), schedulingCostDefinition().c_str());
  }
  OS << "</table><div>constructs:";
  for (std::size_t K = 0; K < std::size_t(Kind::Count); ++K)
    if (Counts[K])
      OS << " " << kindName(Kind(K)) << "=" << Counts[K];
  OS << "</div>";
  for (const std::string &W : R.Warnings)
    OS << "<div class=\"finding\">warning: " << xmlEscape(W) << "</div>";
  OS << "</section>\n";
}

/// Time per construct and source line (at most 100 rows).
void writeConstructTable(const Result &R, const std::vector<Construct> &Cs,
                         std::ostream &OS) {
  constexpr std::size_t TopRows = 100;
  OS << "<section id=\"constructs\"><h2>Time per construct and source "
        "line</h2><table class=\"sort\"><thead><tr><th>kind</th><th>where"
        "</th><th class=\"n\">instances</th><th class=\"n\">inclusive</th>"
        "<th class=\"n\">exclusive</th><th class=\"n\">mean</th><th "
        "class=\"n\">max</th><th class=\"n\">share</th></tr></thead>"
        "<tbody>\n";
  const double ThreadNs = double(threadTimeNs(R));
  for (std::size_t I = 0; I < Cs.size() && I < TopRows; ++I) {
    const Construct &C = Cs[I];
    double Mean = C.S.Instances ? double(C.S.TotalNs) / C.S.Instances : 0;
    double Excl = double(exclusiveNs(C.S));
    // An MPI call site's kind says which function: "mpi MPI_Bcast".
    OS << "<tr><td>" << kindText(C.S.K, C.S.MpiFunction) << "</td><td>"
       << xmlEscape(C.where())
       << "</td>" << numCell(std::to_string(C.S.Instances), C.S.Instances)
       << numCell(fmtNs(double(C.S.TotalNs)), double(C.S.TotalNs))
       << numCell(fmtNs(Excl), Excl) << numCell(fmtNs(Mean), Mean)
       << numCell(fmtNs(double(C.S.MaxNs)), double(C.S.MaxNs))
       << numCell(fmt("%.1f%%", ThreadNs > 0 ? 100 * Excl / ThreadNs : 0),
                  ThreadNs > 0 ? 1000 * Excl / ThreadNs : 0)
       << "</tr>\n";
  }
  OS << "</tbody></table>";
  if (Cs.size() > TopRows)
    OS << "<div class=\"muted\">" << Cs.size() - TopRows
       << " more constructs (otter summary --top 0)</div>";
  OS << "<div class=\"muted\">inclusive: every instance's time (a task's "
        "execution; a region's, worksharing or sync construct's begin to "
        "end; a lock's holding time), summed over instances and threads, "
        "nested instances each counted. exclusive: the thread time the "
        "state timeline charges to the construct alone (a task's own code; "
        "a sync's, lock's or MPI call's waiting; 0 for constructs that only "
        "enclose others). share: exclusive / thread time ("
     << fmtNs(ThreadNs)
     << ", every thread from its first event to its last; docs/utils.md).";
  if (std::any_of(Cs.begin(), Cs.end(),
                  [](const Construct &C) { return C.S.Device; }))
    OS << " (device): a device's work, not the host program's: with host "
          "offload, the kernels' threads and libomp's hidden helper team "
          "(docs/offload.md); not diagnosed.";
  OS << "</div></section>\n";
}

/// Parallelism per region and the critical path, condensed.
void writePathSection(const ReportInput &In, const std::vector<Construct> &Cs,
                      const std::vector<std::string> &Names, std::ostream &OS) {
  const Result &R = *In.R;
  OS << "<section id=\"paths\"><h2>Parallelism and critical path</h2>";
  std::vector<const Construct *> Regions;
  for (const Construct &C : Cs)
    if (C.S.K == Kind::Parallel)
      Regions.push_back(&C);
  if (!Regions.empty()) {
    OS << "<table class=\"sort\"><thead><tr><th>parallel region</th><th "
          "class=\"n\">instances</th><th class=\"n\">work</th><th class=\"n\">"
          "span</th><th class=\"n\">parallelism</th><th class=\"n\">fork+join"
          "</th><th class=\"n\">burdened span</th></tr></thead><tbody>\n";
    for (const Construct *C : Regions) {
      double P =
          C->S.RegionSpanNs ? double(C->S.RegionWorkNs) / C->S.RegionSpanNs : 0;
      OS << "<tr><td>" << xmlEscape(C->where()) << "</td>"
         << numCell(std::to_string(C->S.Instances), C->S.Instances)
         << numCell(fmtNs(double(C->S.RegionWorkNs)), double(C->S.RegionWorkNs))
         << numCell(fmtNs(double(C->S.RegionSpanNs)), double(C->S.RegionSpanNs))
         << numCell(fmt("%.2f", P), P * 1000)
         << numCell(fmtNs(double(C->S.RegionForkNs + C->S.RegionJoinNs)),
                    double(C->S.RegionForkNs + C->S.RegionJoinNs))
         << numCell(fmtNs(R.regionBurdenedSpanNs(C->S)),
                    R.regionBurdenedSpanNs(C->S))
         << "</tr>\n";
    }
    OS << "</tbody></table>";
  }
  constexpr std::size_t TopSteps = 100;
  // A column of the steps' task labels (otter_task_label) when the program
  // labelled any task on the path.
  bool Labelled = std::any_of(R.CriticalPath.begin(), R.CriticalPath.end(),
                              [](const PathStep &S) { return S.Label != 0; });
  // Condensed as `otter parallelism` prints it: a run of steps repeated
  // back to back is one row with its repeats and total, its steps under it
  // with their time and tasks summed over the repeats.
  std::vector<PathBlock> Blocks = condensedPath(R.CriticalPath, In.Label);
  // An MPI job: a rank column, and where the path crosses to another rank
  // (through a message or a collective) the row says so.
  bool Ranked = std::any_of(
      R.CriticalPath.begin(), R.CriticalPath.end(),
      [](const PathStep &S) { return codeRank(S.Code) >= 0; });
  std::size_t Crossings = 0;
  for (std::size_t I = 1; I < R.CriticalPath.size(); ++I)
    Crossings += codeRank(R.CriticalPath[I].Code) !=
                 codeRank(R.CriticalPath[I - 1].Code);
  OS << "<h3>Critical path (" << R.CriticalPath.size()
     << " steps, program order";
  if (Ranked)
    OS << ", crossing ranks " << Crossings << " times";
  if (Blocks.size() < R.CriticalPath.size())
    OS << "; a run of steps repeated back to back is shown once, with its "
          "totals over the repeats";
  OS << ")</h3><table id=\"critical-path\"><thead><tr>"
     << (Ranked ? "<th>rank</th>" : "") << "<th>kind</th><th>where</th>"
     << (Labelled ? "<th>task label</th>" : "")
     << "<th class=\"n\">on the path</th><th class=\"n\">share of "
        "span</th><th class=\"n\">tasks</th></tr></thead><tbody>\n";
  // An MPI step's kind names its function, as in the constructs table.
  std::map<std::uint64_t, std::uint16_t> FunctionAt = mpiFunctionsBySite(R);
  int PrevRank = -1;
  auto row = [&](const PathStep &S, bool Inner) {
    SourceLabel L = S.Code ? In.Label(S.Code) : SourceLabel{};
    std::string Where =
        S.K == Kind::Initial && !L.Line ? "(program)" : sourceText(L);
    int Rank = codeRank(S.Code);
    bool Crossing = Ranked && Rank != PrevRank && PrevRank >= 0;
    OS << "<tr" << (Inner ? " class=\"inner\"" : Crossing ? " class=\"cross\""
                                                            : "")
       << ">";
    if (Ranked)
      OS << "<td>" << (Crossing ? "&#8594; " : "")
         << (Rank >= 0 ? std::to_string(Rank) : "") << "</td>";
    PrevRank = Rank;
    auto F = FunctionAt.find(S.Code);
    OS << "<td>" << kindText(S.K, F != FunctionAt.end() ? F->second : 0)
       << "</td><td>" << xmlEscape(Where) << "</td>";
    if (Labelled)
      OS << "<td class=\"label\">"
         << (S.Label ? xmlEscape(nameText(Names, S.Label)) : "") << "</td>";
    OS << numCell(fmtNs(double(S.Ns)), double(S.Ns))
       << numCell(fmt("%.1f%%", R.SpanNs ? 100.0 * S.Ns / R.SpanNs : 0),
                  double(S.Ns))
       << numCell(std::to_string(S.Instances), double(S.Instances))
       << "</tr>\n";
  };
  std::size_t Rows = 0;
  for (const PathBlock &B : Blocks) {
    if (Rows++ >= TopSteps)
      break;
    if (B.Repeats == 1) {
      row(R.CriticalPath[B.First], false);
      continue;
    }
    std::uint64_t Ns = 0;
    for (std::size_t I = 0; I < B.steps(); ++I)
      Ns += R.CriticalPath[B.First + I].Ns;
    OS << "<tr class=\"repeat\"><td colspan=\""
       << (Labelled ? 3 : 2) + (Ranked ? 1 : 0)
       << "\">" << B.Repeats << " times, " << B.Period << " step"
       << (B.Period > 1 ? "s" : "") << " each (" << B.steps()
       << " steps)</td>" << numCell(fmtNs(double(Ns)), double(Ns))
       << numCell(fmt("%.1f%%", R.SpanNs ? 100.0 * Ns / R.SpanNs : 0),
                  double(Ns))
       << "<td></td></tr>\n";
    for (std::size_t I = 0; I < B.Period; ++I)
      row(pathBlockTotal(R.CriticalPath, B, I), true);
  }
  OS << "</tbody></table>";
  if (Blocks.size() > TopSteps)
    OS << "<div class=\"muted\">" << Blocks.size() - TopSteps
       << " more rows (otter parallelism --top 0)</div>";
  OS << "</section>\n";
}

/// The predicted scalability (otter simulate), if simulated.
void writeScalability(const ReportInput &In, std::ostream &OS) {
  OS << "<section id=\"scalability\"><h2>Scalability</h2>";
  if (In.Scaling) {
    const sim::Prediction &P = *In.Scaling;
    OS << "<div class=\"pic\">" << picture::scalabilitySvg(P) << "</div>"
       << "<table class=\"sort\" id=\"scaling\"><thead><tr><th class=\"n\">"
          "cores</th><th class=\"n\">predicted</th><th class=\"n\">speed-up"
          "</th><th class=\"n\">efficiency</th><th class=\"n\">work/P</th>"
          "</tr></thead><tbody>\n";
    for (const sim::Point &X : P.Points)
      if (P.applies(X))
      OS << "<tr>" << numCell(std::to_string(X.Cores), X.Cores)
         << "<td class=\"n\" data-v=\"" << X.PredictedNs << "\" data-ns=\""
         << X.PredictedNs << "\">" << xmlEscape(fmtNs(double(X.PredictedNs)))
         << "</td>" << numCell(fmt("%.2f", X.Speedup), X.Speedup * 1000)
         << numCell(fmt("%.1f%%", 100 * X.Efficiency), X.Efficiency * 1000)
         << numCell(fmtNs(X.WorkBoundNs), X.WorkBoundNs) << "</tr>\n";
    OS << "</tbody></table><div class=\"muted\">"
       << (In.ScalingNote.empty()
               ? "The measured tasks replayed on P cores by a work-first "
                 "scheduler with the overheads measured (otter simulate; "
                 "docs/utils.md)."
               : xmlEscape(In.ScalingNote))
       << " Measured: " << xmlEscape(fmtNs(double(P.MeasuredNs))) << " on "
       << P.MeasuredThreads << " thread(s).";
    if (P.Calibrated.Applied)
      OS << " Contention: " << xmlEscape(fmtNs(P.Calibrated.ContentionNs))
         << " per task dispatched: "
         << xmlEscape(sim::calibrationText(P.Calibrated)) << ".";
    if (!P.Limit.empty())
      OS << " Not predicted beyond " << P.ApplyCores
         << " core(s): " << xmlEscape(P.Limit) << ".";
    OS << "</div>";
  } else {
    OS << "<div class=\"muted\">not simulated (--no-simulate)</div>";
  }
  OS << "</section>\n";
}

/// The task graph's picture and its legend in words.
void writeGraphSection(const ReportInput &In, std::ostream &OS) {
  OS << "<section id=\"graph\"><h2>Task graph</h2><div class=\"muted\" "
        "id=\"graph-why\">"
     << xmlEscape(In.GraphNote) << "</div>";
  if (!In.GraphSvg.empty()) {
    // The legend is in the picture (its top); the same in words here,
    // legible whatever the zoom.
    OS << "<div class=\"muted\" id=\"graph-legend\">Legend: "
       << (In.GraphFull
               ? "a node per task or construct instance, its shape and colour "
                 "by kind (the picture's legend lists them); edges: green "
                 "creation, orange dashed synchronisation, purple dependence, "
                 "grey program order."
               : "a node per source construct (ellipse: task, trapezium: "
                 "parallel region, box: other), shaded by its share of the "
                 "run; edges with counts: green creation, purple dependence, "
                 "grey program order; red: on the critical path.")
       << "</div>";
    writeGraphViewer(In.GraphSvg,
                     In.GraphFull ? "graph-full" : "graph-aggregate", OS);
  }
  OS << "</section>\n";
}

/// The numbers, for scripts: a JSON block (F: the findings listed).
void writeDataJson(const ReportInput &In, const std::vector<Finding> &F,
                   std::ostream &OS) {
  const Result &R = *In.R;
  OS << "<script type=\"application/json\" id=\"otter-data\">{\"run_ns\":"
     << R.runNs() << ",\"threads\":" << R.Threads << ",\"work_ns\":" << R.WorkNs
     << ",\"span_ns\":" << R.SpanNs
     << ",\"parallelism\":" << fmt("%.4f", R.parallelism())
     << ",\"burdened_span_ns\":" << fmt("%.0f", R.burdenedSpanNs())
     << ",\"burdened_parallelism\":" << fmt("%.4f", R.burdenedParallelism())
     << ",\"findings\":" << F.size();
  toolTimeJson(R, OS);
  idleThreadsJson(R, In.Label, OS);
  if (In.Times && !In.Times->bins().empty()) {
    OS << ",";
    writeTimelineJson(*In.Times, OS);
  }
  if (!In.Phase.empty())
    OS << ",\"phase\":" << jsonString(In.Phase);
  if (!In.MpiFindings.empty()) {
    // The MPI wait states as `otter diagnose --json` lists them.
    OS << ",\"mpi_waits\":[";
    bool First = true;
    for (const Finding &X : F) {
      if (X.K != Kind::Mpi)
        continue;
      OS << (First ? "" : ",") << "{\"check\":" << jsonString(X.Check)
         << ",\"where\":" << jsonString(X.Where) << ",\"lost_ns\":" << X.LostNs
         << ",\"ranks\":[";
      for (std::size_t J = 0; J < X.Ranks.size(); ++J)
        OS << (J ? "," : "") << "{\"rank\":" << X.Ranks[J].first
           << ",\"lost_ns\":" << X.Ranks[J].second << "}";
      OS << "],\"threads\":[";
      for (std::size_t J = 0; J < X.Threads.size(); ++J)
        OS << (J ? "," : "") << "{\"rank\":" << X.Threads[J].Rank
           << ",\"thread\":" << X.Threads[J].Thread
           << ",\"lost_ns\":" << X.Threads[J].Ns << "}";
      OS << "]}";
      First = false;
    }
    OS << "]";
  }
  if (In.Scaling) {
    OS << ",\"points\":[";
    for (std::size_t I = 0; I < In.Scaling->Points.size(); ++I)
      OS << (I ? "," : "") << "{\"cores\":" << In.Scaling->Points[I].Cores
         << ",\"predicted_ns\":" << In.Scaling->Points[I].PredictedNs << "}";
    OS << "]";
  }
  OS << ",\"phases\":" << R.Phases.size()
     << ",\"task_labels\":" << R.TaskLabels.size() << ",\"marks\":" << R.Marks;
  OS << "}</script>\n";
}

} // namespace

void writeReport(const ReportInput &In, std::ostream &OS) {
  const Result &R = *In.R;
  std::vector<Construct> Cs = groupConstructs(R, In.Label);
  OS << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<meta name=\"viewport\" content=\"width=device-width\">"
     << "<title>OTTER report: " << xmlEscape(In.Archive) << "</title>"
     << "<style>" << Style << GraphViewerStyle << "</style><script>"
     << ErrorScript << "</script></head>\n<body>\n";
  OS << "<h1>OTTER report</h1><div class=\"muted\">" << xmlEscape(In.Archive)
     << "</div>\n";
  if (!In.RelativeTo.empty())
    OS << "<div class=\"muted\" id=\"paths\">Source paths relative to "
       << xmlEscape(In.RelativeTo) << "</div>\n";
  if (!In.Phase.empty())
    OS << "<div id=\"phase\">Phase <b>" << xmlEscape(In.Phase)
       << "</b> only: what happened inside it (docs/utils.md, \"One "
          "phase\").</div>\n";
  OS << "<div id=\"js-errors\" hidden></div>\n";

  writeOverview(In, Cs, OS);

  OS << In.JobHtml;

  writeConstructTable(R, Cs, OS);

  static const std::vector<std::string> NoNames;
  const std::vector<std::string> &Names = In.Names ? *In.Names : NoNames;
  writePathSection(In, Cs, Names, OS);

  // ---- diagnostics --------------------------------------------------------
  // A job's MPI wait states ranked with the other checks, as `otter
  // diagnose` ranks them on a job.
  std::vector<Finding> F = diagnose(R, In.Label, Names);
  F.insert(F.end(), In.MpiFindings.begin(), In.MpiFindings.end());
  advice::attachAdvice(F, In.Advice);
  std::stable_sort(F.begin(), F.end(), [](const Finding &A, const Finding &B) {
    return A.LostNs > B.LostNs;
  });
  OS << "<section id=\"diagnostics\"><h2>Diagnostics (" << F.size() << ")</h2>";
  if (F.empty())
    OS << "<div>no findings</div>";
  for (const Finding &X : F)
    writeFinding(X, OS);
  OS << "</section>\n";

  writeScalability(In, OS);
  writeGraphSection(In, OS);
  OS << In.ProfileHtml; // a sampled run's (report_profile.cpp)

  // ---- timelines (report_timeline.cpp) -----------------------------------
  writeTimelineSection(In.Times, Cs, In.Label, OS);

  // ---- phases, task labels, marks (report_sections.cpp) ------------------
  writeAnnotationSections(R, Cs, Names, In.Times, OS);

  writeDataJson(In, F, OS);
  OS << "<script>" << GraphViewerScript << PageScript
     << "</script>\n</body></html>\n";
}

void writeProfileReport(const std::string &Archive,
                        const std::string &ProfileHtml, std::ostream &OS) {
  OS << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<meta name=\"viewport\" content=\"width=device-width\">"
     << "<title>OTTER report: " << xmlEscape(Archive) << "</title>"
     << "<style>" << Style << "</style><script>" << ErrorScript
     << "</script></head>\n<body>\n";
  OS << "<h1>OTTER report</h1><div class=\"muted\">" << xmlEscape(Archive)
     << "</div>\n<div id=\"js-errors\" hidden></div>\n"
     << "<div id=\"samples-alone\">Sampled without a trace (OTTER_SAMPLE "
        "with OTTER_TRACE=0): the report holds the sampled profile alone. "
        "Trace the run (OTTER_TRACE=1, the default) for the task graph, "
        "the timelines, the critical path and the diagnostics.</div>\n";
  OS << ProfileHtml;
  OS << "<script>" << PageScript << "</script>\n</body></html>\n";
}

} // namespace otter::html
