//===- otter/report_sections.cpp - The report's annotation sections ------===//
//
// The numbers are the analysis Result's, as `otter summary` and `otter
// diagnose` print them; each table row keeps its exact value in data-v
// (sorting) and the page's JSON block lists the same (html_report.cpp).
// The graph viewer's script works on the SVG Graphviz wrote: its viewBox
// is the whole graph, so fitting is setting it to the box's proportions
// around that, zooming and panning are changing it.
//
//===----------------------------------------------------------------------===//
#include "report_sections.h"

#include "picture.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace otter::html {

using namespace otter::analysis;
using picture::xmlEscape;

namespace {

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

void writePhases(const Result &R, const std::vector<std::string> &Names,
                 std::ostream &OS) {
  double Run = double(R.runNs());
  OS << "<section id=\"phases\"><h2>Phases (" << R.Phases.size() << ")</h2>";
  if (R.Phases.empty()) {
    OS << "<div class=\"muted\">The program marks no phases "
          "(otter_phase_begin / otter_phase_end, otter/otter.h).</div>"
          "</section>\n";
    return;
  }
  OS << "<table class=\"sort\" id=\"phase-table\"><thead><tr><th>phase</th>"
        "<th class=\"n\">instances</th><th class=\"n\">total</th><th "
        "class=\"n\">mean</th><th class=\"n\">max</th><th class=\"n\">share "
        "of run</th></tr></thead><tbody>\n";
  for (const PhaseStats &P : R.Phases) {
    double Mean = P.Instances ? double(P.TotalNs) / P.Instances : 0;
    OS << "<tr data-phase=\"" << xmlEscape(nameText(Names, P.Name))
       << "\" data-ns=\"" << P.TotalNs << "\"><td>"
       << xmlEscape(nameText(Names, P.Name)) << "</td>"
       << numCell(std::to_string(P.Instances), double(P.Instances))
       << numCell(fmtNs(double(P.TotalNs)), double(P.TotalNs))
       << numCell(fmtNs(Mean), Mean)
       << numCell(fmtNs(double(P.MaxNs)), double(P.MaxNs))
       << numCell(fmt("%.1f%%", Run > 0 ? 100 * P.TotalNs / Run : 0),
                  Run > 0 ? 1000 * P.TotalNs / Run : 0)
       << "</tr>\n";
  }
  OS << "</tbody></table><div class=\"muted\">An instance: a begin and its "
        "end in one task, timed begin to end; nested instances count each "
        "(otter summary --by phase). Each phase analysed alone: otter "
        "parallelism, or otter report --phase NAME.</div></section>\n";
}

void writeTaskLabels(const Result &R, const std::vector<Construct> &Cs,
                     const std::vector<std::string> &Names, std::ostream &OS) {
  std::vector<LabelStats> Labels = sortedLabels(R.TaskLabels, Names);
  OS << "<section id=\"task-labels\"><h2>Task labels (" << Labels.size()
     << ")</h2>";
  if (Labels.empty()) {
    OS << "<div class=\"muted\">The program labels no tasks "
          "(otter_task_label, otter/otter.h).</div></section>\n";
    return;
  }
  // The constructs whose tasks carry each label.
  std::map<std::uint32_t, std::vector<std::string>> Where;
  for (const Construct &C : Cs)
    for (const auto &[Name, N] : C.S.TaskLabels)
      Where[Name].push_back(C.where() + " (" + std::to_string(N) + ")");
  OS << "<table class=\"sort\" id=\"label-table\"><thead><tr><th>label</th>"
        "<th class=\"n\">tasks</th><th>task constructs (tasks)</th></tr>"
        "</thead><tbody>\n";
  for (const LabelStats &L : Labels) {
    std::string W;
    for (const std::string &X : Where[L.Name])
      W += (W.empty() ? "" : ", ") + X;
    OS << "<tr data-label=\"" << xmlEscape(nameText(Names, L.Name)) << "\"><td>"
       << xmlEscape(nameText(Names, L.Name)) << "</td>"
       << numCell(std::to_string(L.Tasks), double(L.Tasks)) << "<td>"
       << xmlEscape(W) << "</td></tr>\n";
  }
  OS << "</tbody></table><div class=\"muted\">A task's label is the last "
        "otter_task_label it called.</div></section>\n";
}

void writeMarks(const Result &R, const std::vector<std::string> &Names,
                const Timeline *Times, std::ostream &OS) {
  OS << "<section id=\"marks\"><h2>Marks (" << R.Marks << ")</h2>";
  if (!R.Marks) {
    OS << "<div class=\"muted\">The program sets no marks (otter_mark, "
          "otter/otter.h).</div></section>\n";
    return;
  }
  if (!Times) {
    OS << "</section>\n";
    return;
  }
  OS << "<table class=\"sort\" id=\"mark-names\"><thead><tr><th>mark</th>"
        "<th class=\"n\">times set</th></tr></thead><tbody>\n";
  for (const auto &[Name, N] : Times->marksByName())
    OS << "<tr data-mark=\"" << xmlEscape(nameText(Names, Name)) << "\"><td>"
       << xmlEscape(nameText(Names, Name)) << "</td>"
       << numCell(std::to_string(N), double(N)) << "</tr>\n";
  OS << "</tbody></table>";
  // Each mark in time order (the first MaxMarks the analysis met).
  std::vector<Timeline::Mark> Ms = Times->marks();
  std::stable_sort(Ms.begin(), Ms.end(),
                   [](const auto &A, const auto &B) { return A.Ns < B.Ns; });
  constexpr std::size_t Shown = 200;
  OS << "<table class=\"sort\" id=\"mark-table\"><thead><tr><th class=\"n\">"
        "time</th><th class=\"n\">thread</th><th>mark</th></tr></thead>"
        "<tbody>\n";
  for (std::size_t I = 0; I < Ms.size() && I < Shown; ++I)
    OS << "<tr>"
       << numCell(fmt("%.3f ms", double(Ms[I].Ns) / 1e6), double(Ms[I].Ns))
       << numCell(std::to_string(Ms[I].Thread), Ms[I].Thread) << "<td>"
       << xmlEscape(nameText(Names, Ms[I].Name)) << "</td></tr>\n";
  OS << "</tbody></table><div class=\"muted\">Time from the run's first "
        "event.";
  if (R.Marks > std::min<std::uint64_t>(Ms.size(), Shown))
    OS << " The first " << std::min(Ms.size(), Shown) << " of " << R.Marks
       << " (otter dump lists all).";
  OS << "</div></section>\n";
}

} // namespace

void writeAnnotationSections(const Result &R, const std::vector<Construct> &Cs,
                             const std::vector<std::string> &Names,
                             const Timeline *Times, std::ostream &OS) {
  writePhases(R, Names, OS);
  writeTaskLabels(R, Cs, Names, OS);
  writeMarks(R, Names, Times, OS);
}

void writeFinding(const Finding &X, std::ostream &OS) {
  OS << "<div class=\"finding\" data-check=\"" << xmlEscape(X.Check)
     << "\" data-ns=\"" << X.LostNs << "\"><b>" << xmlEscape(X.Check)
     << "</b>: " << kindName(X.K) << " at " << xmlEscape(X.Where)
     << " &mdash; est. " << xmlEscape(fmtNs(double(X.LostNs)))
     << " thread time lost<br><span class=\"muted\">threshold:</span> "
     << xmlEscape(X.Threshold) << "<br><span class=\"muted\">evidence:"
     << "</span> " << xmlEscape(X.Evidence);
  if (!X.TaskLabels.empty()) {
    // The construct's tasks by otter_task_label, as diagnose prints them.
    OS << "<br><span class=\"muted\">tasks:</span> ";
    for (std::size_t J = 0; J < X.TaskLabels.size(); ++J)
      OS << (J ? ", &quot;" : "&quot;") << xmlEscape(X.TaskLabels[J].first)
         << "&quot; (" << X.TaskLabels[J].second << ")";
  }
  if (const Advice &A = X.Remedy; !A.Kind.empty()) {
    // What to change and the gain the replay predicts (advice.h), as
    // diagnose prints it.
    OS << "<div class=\"advice\" data-advice=\"" << xmlEscape(A.Kind)
       << "\" data-before-ns=\"" << A.BeforeNs << "\" data-after-ns=\""
       << A.AfterNs << "\"><span class=\"muted\">advice:</span> "
       << xmlEscape(A.Change) << " at " << xmlEscape(A.Where)
       << "<br><span class=\"muted\">predicted on " << A.Cores
       << " core(s):</span> " << xmlEscape(fmtNs(double(A.BeforeNs)))
       << " &rarr; " << xmlEscape(fmtNs(double(A.AfterNs))) << " ("
       << fmt("%.1f%%", 100 * A.gain()) << " less)<br><span "
       << "class=\"muted\">replayed:</span> " << xmlEscape(A.Transformation)
       << "<br><span class=\"muted\">why:</span> " << xmlEscape(A.Evidence)
       << "</div>";
  }
  if (!X.Ranks.empty()) {
    // The wait state's time lost per rank (MPI wait states only).
    OS << "<br><span class=\"muted\">ranks:</span> ";
    for (std::size_t J = 0; J < X.Ranks.size(); ++J)
      OS << (J ? ", " : "") << "<span class=\"rank-lost\" data-rank=\""
         << X.Ranks[J].first << "\" data-ns=\"" << X.Ranks[J].second
         << "\">rank " << X.Ranks[J].first << " "
         << xmlEscape(fmtNs(double(X.Ranks[J].second))) << "</span>";
  }
  OS << "</div>\n";
}

void writeGraphViewer(const std::string &Svg, const std::string &Id,
                      std::ostream &OS) {
  OS << "<div class=\"gtools\"><button type=\"button\" data-zoom=\"in\">+"
        "</button><button type=\"button\" data-zoom=\"out\">&minus;</button>"
        "<button type=\"button\" data-zoom=\"fit\">fit</button> <span "
        "class=\"muted\">wheel: zoom, drag: move</span></div><div "
        "class=\"gview\" id=\""
     << Id << "\">" << picture::inlineSvg(Svg) << "</div>";
}

const char *GraphViewerStyle = R"(
.gview{height:70vh;min-height:240px;border:1px solid #ddd;overflow:hidden;
cursor:grab;user-select:none;touch-action:none}.gview svg{display:block}
.gtools{margin:4px 0}.gtools button{min-width:2.2em;margin-right:4px}
)";

// Each .gview box: its SVG's viewBox (Graphviz's: the whole graph), with a
// margin of 1.5% (the browser's font may set a label a few pixels wider
// than Graphviz measured it: 9 px past the box's edge in one run), widened
// to the box's proportions is the fitted view; the box is as tall as the
// fitted graph needs, at most 70% of the window. After fitting, the box's
// and the graph's places on the page are written into data-box and
// data-graph (left,top,width,height in px), where a test reads them.
const char *GraphViewerScript = R"(
(function(){
document.querySelectorAll('.gview').forEach(function(box){
var svg=box.querySelector('svg');if(!svg||!svg.viewBox||!svg.viewBox.baseVal)
return;var b=svg.viewBox.baseVal,m=Math.max(8,0.015*Math.max(b.width,
b.height)),full={x:b.x-m,y:b.y-m,w:b.width+2*m,h:b.height+2*m};
if(!(b.width>0&&b.height>0))return;
var natW=svg.width.baseVal.value||full.w,natH=svg.height.baseVal.value||full.h;
var bw=box.clientWidth;box.style.height=Math.round(Math.max(240,Math.min(
natH*Math.min(1,bw/natW)+2,window.innerHeight*0.7)))+'px';
svg.setAttribute('width','100%');svg.setAttribute('height','100%');
svg.setAttribute('preserveAspectRatio','xMidYMid meet');var v={};
function show(){svg.setAttribute('viewBox',[v.x,v.y,v.w,v.h].join(' '));}
function fit(){var a=box.clientWidth/box.clientHeight;v={x:full.x,y:full.y,
w:full.w,h:full.h};if(v.w/v.h>a){v.h=v.w/a;v.y-=(v.h-full.h)/2;}else{
v.w=v.h*a;v.x-=(v.w-full.w)/2;}show();}
function zoom(f,px,py){var s=box.clientWidth/v.w;
if(v.w/f>full.w*4||v.w/f<full.w/400)return;var ux=v.x+px/s,uy=v.y+py/s;
v.w/=f;v.h/=f;v.x=ux-px/(s*f);v.y=uy-py/(s*f);show();}
fit();
box.addEventListener('wheel',function(e){e.preventDefault();var r=
box.getBoundingClientRect();zoom(e.deltaY<0?1.25:0.8,e.clientX-r.left,
e.clientY-r.top);},{passive:false});
var drag=null;box.addEventListener('mousedown',function(e){drag={x:e.clientX,
y:e.clientY};box.style.cursor='grabbing';e.preventDefault();});
window.addEventListener('mousemove',function(e){if(!drag)return;var s=
box.clientWidth/v.w;v.x-=(e.clientX-drag.x)/s;v.y-=(e.clientY-drag.y)/s;
drag={x:e.clientX,y:e.clientY};show();});
window.addEventListener('mouseup',function(){drag=null;box.style.cursor='';});
var tools=box.previousElementSibling;if(tools)tools.querySelectorAll(
'button').forEach(function(t){t.addEventListener('click',function(){
var z=t.getAttribute('data-zoom');if(z==='fit')fit();else zoom(z==='in'?
1.25:0.8,box.clientWidth/2,box.clientHeight/2);});});
function rect(r){return [r.left,r.top,r.width,r.height].map(Math.round).join(',');}
var g=svg.querySelector('g');box.setAttribute('data-box',rect(
box.getBoundingClientRect()));if(g)box.setAttribute('data-graph',rect(
g.getBoundingClientRect()));box.setAttribute('data-fitted','1');});
})();
)";

} // namespace otter::html

namespace otter::analysis {

// The summary's exclusive time and thread time (report.h), here beside
// the report's other per-construct figures.
std::uint64_t exclusiveNs(const ConstructStats &S) {
  switch (S.K) {
  case Kind::Initial:
  case Kind::Implicit:
  case Kind::Task:
    return S.TotalNs; // execution time: the tasks' own code
  case Kind::Parallel:
  case Kind::Loop:
  case Kind::Sections:
  case Kind::Single:
  case Kind::Masked:
  case Kind::Taskloop:
  case Kind::Workshare:
    return 0;
  default:
    return S.WaitNs;
  }
}

void printToolTime(const Result &R, std::ostream &OS) {
  if (!R.ToolNs && !R.RecordingCostNs)
    return;
  OS << "OTTER:     " << fmtNs(double(R.ToolNs))
     << " of the thread time is OTTER's own, in no figure above:\n  "
     << fmtNs(double(R.ToolFlushNs)) << " writing out full event buffers; "
     << fmtNs(double(R.RecordingNs)) << " recording events";
  if (R.RecordingCostNs)
    OS << ": " << R.RecordingCostNs
       << " ns an event (measured at start),\n  taken out of each interval "
          "between two events where it is at least 5 % of it\n";
  else
    OS << " (its cost was not measured: nothing taken out)\n";
}

void toolTimeJson(const Result &R, std::ostream &OS) {
  OS << ",\"tool_ns\":" << R.ToolNs << ",\"tool_flush_ns\":" << R.ToolFlushNs
     << ",\"recording_ns\":" << R.RecordingNs
     << ",\"recording_cost_ns\":" << R.RecordingCostNs;
}

namespace {
std::string percent(double X) {
  char B[32];
  std::snprintf(B, sizeof B, "%.0f%%", 100 * X);
  return B;
}
} // namespace

bool addDescheduled(const Result &R, std::vector<Finding> &F) {
  if (!R.CpuWindowNs || !R.BusyNs ||
      double(R.DescheduledNs) < DescheduledShare * double(R.BusyNs))
    return false;
  Finding X;
  X.Check = "descheduled";
  X.K = Kind::Initial;
  X.Where = "the whole run";
  X.LostNs = R.DescheduledNs;
  X.Threshold = "the OS took at least " + percent(DescheduledShare) +
                " of the threads' running time away (CPU time below wall "
                "time, beyond what their waits, idle and OTTER's time "
                "explain)";
  X.Evidence =
      "at least " + fmtNs(double(R.DescheduledNs)) + " of " +
      fmtNs(double(R.BusyNs)) + " running time (" +
      percent(double(R.DescheduledNs) / double(R.BusyNs)) +
      ") off the CPU; " + std::to_string(R.InvoluntarySwitches) +
      " involuntary context switches; " + std::to_string(R.Threads) +
      (R.Threads == 1 ? " thread, " : " threads, ") +
      (R.Cpus ? std::to_string(R.Cpus) + (R.Cpus == 1 ? " CPU" : " CPUs") +
                   " allowed"
             : "CPUs unknown") +
      "; measured over " + fmtNs(double(R.CpuWindowNs)) +
      " of thread time. The machine ran other work or has fewer cores than "
      "threads: this run's waiting, imbalance and simulate figures include "
      "time the OS gave away. Measure again on an idle machine" +
      (R.Cpus && R.Threads > R.Cpus
           ? ", or with OMP_NUM_THREADS <= " + std::to_string(R.Cpus)
           : std::string()) +
      ".";
  F.push_back(std::move(X));
  return true;
}

std::uint64_t threadTimeNs(const Result &R) {
  std::uint64_t Sum = 0;
  for (const ThreadTime &T : R.PerThread)
    if (T.Seen && T.Last > T.First)
      Sum += T.Last - T.First;
  return Sum;
}

} // namespace otter::analysis
