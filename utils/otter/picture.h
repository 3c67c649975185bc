//===- otter/picture.h - SVG pictures: scalability and graph --*- C++ -*-===//
//
// Pictures for `otter simulate --svg`, `otter picture` and the HTML report:
//  - the scalability plot, written here as SVG (a few lines and labels: no
//    library needed, and the same file opens in a browser, an editor or
//    the report);
//  - the task graph, laid out by Graphviz `dot` (a layered layout with
//    edge routing is what keeps a graph readable; Graphviz is one of
//    OTTER's Debian dependencies, scripts/setup.sh). The full graph (the
//    graph builder's, as graph.gv) when its picture stays legible -- at most
//    MaxPicturePt tall and wide and MaxPictureBytes of SVG, estimated from
//    its node count and depth, then checked on the drawing -- else the
//    aggregated graph: one node per source construct, edges with counts,
//    the critical path's constructs and steps highlighted. Every graph
//    carries a legend of its node and edge kinds; long source paths are
//    shown relative to the directory the program's files share.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_PICTURE_H
#define OTTER_UTILS_PICTURE_H

#include "analysis.h"
#include "export.h"
#include "report.h"
#include "simulate.h"

#include "graph/graph.h"
#include "graph/writers.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace otter::picture {

/// The largest picture of a graph the tools write: taller or wider, or
/// more SVG, and the full graph gives way to the aggregated one.
inline constexpr double MaxPicturePt = 20000;
inline constexpr std::size_t MaxPictureBytes = 2000000;

/// The scalability plot: predicted time per core count (log-log), the
/// bounds work/P, span and burdened span, the measured run as a point.
std::string scalabilitySvg(const sim::Prediction &P);

/// The aggregated graph in dot: one node per source construct (kind,
/// file:line, instances, total time, its tasks' most common label; shaded
/// by its share of the run), edges with counts, a legend. WithPath: the
/// constructs on the critical path in red with their time on it,
/// consecutive ones joined by red edges. `otter export --format dot
/// --aggregate` writes it without the path.
std::string aggregateDot(const analysis::AggregateGraph &A,
                         const analysis::Result &R,
                         const analysis::LabelFn &Label, bool WithPath = true);

/// The directory the pictures show paths relative to: graph/writers.h's,
/// shared with graph.gv.
using otter::commonDirectory;
/// The directory the constructs of R share (Label's files): the one the
/// aggregated picture and the report's tables show paths relative to.
std::string constructDirectory(const analysis::Result &R,
                               const analysis::LabelFn &Label);
/// Label with File shown relative to Dir (when it starts with it).
analysis::LabelFn relativeLabels(analysis::LabelFn Label, std::string Dir);

/// Which graph to draw: the full one when legible (Auto), or as asked.
enum class GraphMode { Auto, Full, Aggregate };
/// The graph picture: its SVG, whether it is the full graph, and one
/// sentence saying which graph it is and why (for the user).
struct GraphPicture {
  std::string Svg;
  bool Full = false;
  std::string Why;
};
/// Builds the full graph (reads the trace again); false: Error says why.
using FullGraphFn = std::function<bool(Graph &G, std::string &Error)>;
/// Draws the graph picture: in Auto mode the full graph if the run's tasks
/// allow and its estimated then drawn picture is within the limits, else
/// the aggregated graph. False: Error says why (no Graphviz, dot failed).
bool drawGraph(const FullGraphFn &BuildFull, const analysis::Result &R,
               const analysis::AggregateGraph &Agg,
               const analysis::LabelFn &Label, GraphMode Mode,
               GraphPicture &Out, std::string &Error);

/// The size of an SVG Graphviz wrote: width and height in pt (0 if not
/// found).
std::pair<double, double> svgSizePt(const std::string &Svg);

/// Runs `dot -Tsvg` on Dot. False: Error says why (no Graphviz, dot failed).
bool renderDot(const std::string &Dot, std::string &Svg, std::string &Error);

/// Svg without its XML prolog and DOCTYPE: to inline into HTML.
std::string inlineSvg(const std::string &Svg);

std::string xmlEscape(const std::string &S);

} // namespace otter::picture

#endif
