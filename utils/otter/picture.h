//===- otter/picture.h - SVG pictures: scalability and the graph -*- C++
//-*-===//
//
// Pictures for `otter simulate --svg`, `otter picture` and the HTML report:
//  - the scalability plot, written here as SVG (a few lines and labels: no
//    library needed, and the same file opens in a browser, an editor or
//    the report);
//  - the task graph, laid out by Graphviz `dot` (a layered layout with
//    edge routing is what keeps a graph readable; Graphviz is one of
//    OTTER's Debian dependencies, scripts/setup.sh). Below PictureFullLimit
//    tasks the full graph (the graph builder's, as graph.gv), beyond it the
//    aggregated graph: one node per source construct, edges with counts,
//    the critical path's constructs and steps highlighted.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_PICTURE_H
#define OTTER_UTILS_PICTURE_H

#include "analysis.h"
#include "export.h"
#include "report.h"
#include "simulate.h"

#include <string>

namespace otter::picture {

/// Up to this many tasks (explicit and implicit) the picture is the full
/// graph; beyond, the aggregated one.
inline constexpr std::uint64_t PictureFullLimit = 300;

/// The scalability plot: predicted time per core count (log-log), the
/// bounds work/P, span and burdened span, the measured run as a point.
std::string scalabilitySvg(const sim::Prediction &P);

/// The aggregated graph in dot: one node per source construct (kind,
/// file:line, instances, total time; shaded by its share of the run),
/// edges with counts; the constructs on the critical path in red with
/// their time on it, consecutive ones joined by red edges.
std::string aggregateDot(const analysis::AggregateGraph &A,
                         const analysis::Result &R,
                         const analysis::LabelFn &Label);

/// Runs `dot -Tsvg` on Dot. False: Error says why (no Graphviz, dot failed).
bool renderDot(const std::string &Dot, std::string &Svg, std::string &Error);

/// Svg without its XML prolog and DOCTYPE: to inline into HTML.
std::string inlineSvg(const std::string &Svg);

std::string xmlEscape(const std::string &S);

} // namespace otter::picture

#endif
