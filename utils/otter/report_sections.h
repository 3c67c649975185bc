//===- otter/report_sections.h - More report sections ---------*- C++ -*-===//
//
// Sections of `otter report` (html_report.h) that carry what the other
// subcommands print beside the analysis: the program's phases (as `otter
// summary --by phase`), its task labels and marks (otter/otter.h), the
// diagnostics with every field a finding has (as `otter diagnose`), and the
// task graph in a box that opens fitted to it, with zoom and pan, and a
// sampled run's profile and flame graph.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_REPORT_SECTIONS_H
#define OTTER_UTILS_REPORT_SECTIONS_H

#include "analysis.h"
#include "report.h"
#include "report_timeline.h"

#include <ostream>
#include <string>
#include <vector>

namespace otter::profile {
struct Profile;
}

namespace otter::html {

/// Sections "Phases", "Task labels" and "Marks", each present whether or
/// not the program has any (then saying so and how to add them). Times:
/// the marks (may be null).
void writeAnnotationSections(const analysis::Result &R,
                             const std::vector<analysis::Construct> &Cs,
                             const std::vector<std::string> &Names,
                             const Timeline *Times, std::ostream &OS);

/// One diagnostic finding as a block: check, construct, time lost, the
/// threshold, the evidence, its tasks' labels, its advice (what to change
/// and the predicted gain), ranks.
void writeFinding(const analysis::Finding &X, std::ostream &OS);

/// The graph section's picture: the SVG in a box the page's script fits
/// it into (then zoom with the wheel or buttons, pan by dragging). Id:
/// the box's id (graph-full, graph-aggregate).
void writeGraphViewer(const std::string &Svg, const std::string &Id,
                      std::ostream &OS);

/// The section "Sampled profile" of a run with samples: the tables of
/// `otter profile` (top 20 rows each) and its flame graph, inline
/// (report_profile.cpp). Dir: the run directory, named in it.
std::string profileSection(const profile::Profile &P, const std::string &Dir);

/// The styles and the script of the graph viewer (inline, no network).
extern const char *GraphViewerStyle;
extern const char *GraphViewerScript;

} // namespace otter::html

#endif // OTTER_UTILS_REPORT_SECTIONS_H
