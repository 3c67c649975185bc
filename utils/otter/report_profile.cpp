//===- otter/report_profile.cpp - The report's profile section -----------===//
//
// `otter report` on a run that was sampled too (OTTER_SAMPLE with the
// trace on, docs/sampling.md): the section "Sampled profile" with what
// `otter profile` prints -- the header's totals and blame, the top
// constructs and functions by inclusive / exclusive time split by OpenMP
// state class, with the blamed column -- and the flame graph `otter
// profile --svg` draws, inline. Absent when the run has no samples.
//
//===----------------------------------------------------------------------===//
#include "picture.h"
#include "profile.h"
#include "report_sections.h"

#include <cstdio>
#include <sstream>
#include <unistd.h>

namespace otter::html {

namespace {

using profile::Profile;
using profile::Row;

std::string msText(std::uint64_t Ns) {
  char B[32];
  std::snprintf(B, sizeof B, "%.1f", double(Ns) / 1e6);
  return B;
}

std::string cell(std::uint64_t Ns) {
  return "<td class=\"n\" data-v=\"" + std::to_string(Ns) + "\">" +
         msText(Ns) + "</td>";
}

void rowsTable(const std::vector<Row> &Rows, std::size_t Top,
               const char *What, const char *Id, std::ostream &OS) {
  OS << "<table class=\"sort\" id=\"" << Id << "\"><thead><tr><th>" << What
     << "</th><th class=\"n\">incl ms</th><th class=\"n\">excl ms</th><th "
        "class=\"n\">blamed ms</th>";
  for (unsigned C = 0; C < StateClassCount; ++C)
    OS << "<th class=\"n\">" << stateClassName(StateClass(C)) << "</th>";
  OS << "</tr></thead><tbody>\n";
  for (std::size_t I = 0; I < Rows.size() && I < Top; ++I) {
    const Row &R = Rows[I];
    OS << "<tr><td>" << picture::xmlEscape(R.Name);
    if (!R.Location.empty())
      OS << " <span class=\"muted\">(" << picture::xmlEscape(R.Location)
         << ")</span>";
    OS << "</td>" << cell(R.InclusiveNs) << cell(R.ExclusiveNs)
       << cell(R.BlamedNs);
    for (unsigned C = 0; C < StateClassCount; ++C)
      OS << cell(R.ByClass[C]);
    OS << "</tr>\n";
  }
  OS << "</tbody></table>";
  if (Rows.size() > Top)
    OS << "<div class=\"muted\">" << Rows.size() - Top
       << " more rows (otter profile --top 0)</div>";
}

} // namespace

std::string profileSection(const Profile &P, const std::string &Dir) {
  constexpr std::size_t Top = 20;
  std::ostringstream OS;
  OS << "<section id=\"profile\"><h2>Sampled profile</h2><div>" << P.Samples
     << " samples of " << P.Threads << " threads"
     << (P.Ranks ? " of " + std::to_string(P.Ranks) + " ranks" : "") << ", "
     << msText(P.TotalNs) << " ms sampled:";
  for (unsigned C = 0; C < StateClassCount; ++C)
    if (P.ByClass[C])
      OS << " " << stateClassName(StateClass(C)) << " "
         << msText(P.ByClass[C]) << " ms";
  // Where the samples came from: samples.csv, else the archive's samples
  // (commands_profile.cpp reads them in that order).
  const bool Csv = access((Dir + "/samples.csv").c_str(), F_OK) == 0;
  OS << " (" << picture::xmlEscape(Dir)
     << (P.Ranks ? ": its ranks' samples, merged"
         : Csv   ? "/samples.csv"
                 : "/trace/traces.otf2, its samples")
     << "; otter profile prints the same).</div>";
  if (P.MpiNs)
    OS << "<div id=\"profile-mpi\">in MPI calls: " << msText(P.MpiNs)
       << " ms (the samples whose path holds an MPI function; OpenMP has no "
          "MPI state: they count in the state of the code around the "
          "call)</div>";
  if (const std::string Note = coarseSamplesNote(P); !Note.empty())
    OS << "<div>" << picture::xmlEscape(Note) << "</div>";
  if (P.IdleNs)
    OS << "<div>blame: " << msText(P.BlamedNs) << " of the workers' "
       << msText(P.IdleNs)
       << " ms idle blamed on what the primary thread ran then</div>";
  for (const auto &[C, Whom] :
       {std::pair{StateClass::Barrier, "the late arrivers' work"},
        std::pair{StateClass::Lock, "the holders' code"},
        std::pair{StateClass::Taskwait, "the awaited tasks' code"}})
    if (P.WaitNs[unsigned(C)])
      OS << "<div>blame: " << msText(P.WaitBlamedNs[unsigned(C)]) << " of "
         << msText(P.WaitNs[unsigned(C)]) << " ms " << stateClassName(C)
         << " waiting blamed on " << Whom << "</div>";
  OS << "<h3>Per construct</h3>";
  rowsTable(P.Constructs, Top, "construct", "profile-constructs", OS);
  OS << "<h3>Per function</h3>";
  rowsTable(P.Functions, Top, "function (definition)", "profile-functions",
            OS);
  OS << "<div class=\"muted\">incl: the samples whose user-model call path "
        "holds the row; excl: of those, where it is the innermost "
        "(construct: no construct inside it; function: the frame that "
        "ran); blamed: other threads' idle or waiting time charged to it "
        "(blame shifting); work .. other: incl split by the thread's "
        "OpenMP state class (docs/sampling.md).</div>";
  std::string Svg = profile::flameGraphSvg(P, "flame graph");
  if (Svg.rfind("<?xml", 0) == 0)
    Svg.erase(0, Svg.find('\n') + 1);
  OS << "<h3>Flame graph</h3><div id=\"flame-graph\" "
        "style=\"overflow-x:auto\">"
     << Svg << "</div></section>\n";
  return OS.str();
}

} // namespace otter::html
