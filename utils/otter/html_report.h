//===- otter/html_report.h - One self-contained HTML report ----*- C++ -*-===//
//
// `otter report`: one HTML file a user opens offline and sends to a
// colleague: the run's overview, time per construct and source line,
// parallelism and the critical path, diagnostics with their evidence, the
// scalability plot, the graph picture and per-thread timelines of a
// window. No network, no external script or style: inline SVG, CSS and a
// few lines of JS. It summarises and never embeds every event: tables are
// cut at their top rows, the timeline is binned, so its size is bounded
// whatever the trace's length (docs/utils.md gives the bounds).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_HTML_REPORT_H
#define OTTER_UTILS_HTML_REPORT_H

#include "analysis.h"
#include "report.h"
#include "report_timeline.h"
#include "simulate.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace otter::html {

struct ReportInput {
  std::string Archive;
  std::string Phase; // --phase: the report of that phase only
  const analysis::Result *R = nullptr;
  /// The labels of the tables: files relative to RelativeTo when it is not
  /// empty (the directory the constructs share; said under the title).
  analysis::LabelFn Label;
  std::string RelativeTo;
  /// The trace's name table (task labels, phases); may be null.
  const std::vector<std::string> *Names = nullptr;
  const sim::Prediction *Scaling = nullptr; // may be null
  std::string GraphSvg;                     // may be empty
  std::string GraphNote;                    // why there is none, or which
  bool GraphFull = false;                   // the full graph, not aggregated
  const Timeline *Times = nullptr;
  /// An MPI job: its ranks' section (HTML, after the overview), and what
  /// the scalability section's numbers are (replaces the single run's
  /// note when not empty).
  std::string JobHtml, ScalingNote;
  /// An MPI job: its MPI wait states (mpi_waits.h, as `otter diagnose`
  /// finds them), ranked with the other findings.
  std::vector<analysis::Finding> MpiFindings;
  /// The section "Sampled profile" (report_sections.h, profileSection)
  /// when the run has samples; empty: none.
  std::string ProfileHtml;
  /// diagnose's advice (advice.h), put on its findings.
  std::vector<analysis::Advice> Advice;
};

/// Writes the report.
void writeReport(const ReportInput &In, std::ostream &OS);

/// The report of a run (or MPI job) sampled without a trace: its sampled
/// profile section alone (ProfileHtml, report_sections.h), under a note
/// that says why there is nothing else.
void writeProfileReport(const std::string &Archive,
                        const std::string &ProfileHtml, std::ostream &OS);

} // namespace otter::html

#endif
