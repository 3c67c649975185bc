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
#include "simulate.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace otter::html {

/// Per-thread timelines of a window, binned: what each thread did in each
/// bin (explicit tasks, by the construct with most time there; waiting in a
/// taskwait, taskgroup or barrier; its implicit task's own code; nothing).
/// An analysis observer, streaming: a window given in advance has fixed
/// bins; the whole run (not known until the end) starts with 1 us bins
/// and doubles their width, merging pairs, whenever an interval ends past
/// the last: memory is Bins per thread, whatever the trace's length.
class Timeline final : public analysis::Observer {
public:
  /// Window in ns from the run's first event; To == 0: the whole run.
  Timeline(std::uint64_t From, std::uint64_t To, unsigned Bins);
  /// The run's first event (before any interval).
  void setOrigin(std::uint64_t T);
  void task(std::uint32_t Thread, std::uint64_t Id, std::uint64_t Code,
            std::uint64_t Start, std::uint64_t End,
            std::uint64_t ExecNs) override;
  void construct(std::uint32_t Thread, analysis::Kind K, std::uint64_t Code,
                 std::uint64_t Start, std::uint64_t End) override;
  void flow(bool, std::uint32_t, std::uint64_t, std::uint64_t) override {}
  void constructEdge(std::uint64_t, analysis::Kind, std::uint64_t,
                     analysis::Kind, const char *) override {}

  struct Bin {
    double TaskNs = 0, SyncNs = 0, ImplicitNs = 0;
    std::uint64_t TopCode = 0; // the task construct with most time here
    double TopNs = 0;
  };
  std::uint64_t origin() const { return Origin; }
  /// The window, relative to the origin, and the bin width.
  std::uint64_t windowStart() const { return Start; }
  std::uint64_t windowEnd() const { return Start + Width * NBins; }
  std::uint64_t binWidth() const { return Width; }
  const std::vector<std::vector<Bin>> &bins() const { return Threads; }
  /// Cuts the whole-run window at the run's end (relative).
  void finish(std::uint64_t RunNs);

private:
  void add(std::uint32_t Thread, std::uint64_t S, std::uint64_t E, int Class,
           std::uint64_t Code);
  void grow(std::uint64_t Until);
  std::uint64_t Origin = 0, Start = 0, Width = 1000;
  unsigned NBins;
  bool Fixed;
  std::vector<std::vector<Bin>> Threads;
};

struct ReportInput {
  std::string Archive;
  std::string Phase; // --phase: the report of that phase only
  const analysis::Result *R = nullptr;
  analysis::LabelFn Label;
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
};

/// Writes the report.
void writeReport(const ReportInput &In, std::ostream &OS);

} // namespace otter::html

#endif
