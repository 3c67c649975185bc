//===- otter/dot.h - Running Graphviz's dot ---------------------*- C++ -*-===//
//
// The one place `otter` runs Graphviz (`otter export --svg`, `otter
// picture`, the report's graph through picture::renderDot): fork + exec,
// never a shell, so file names go to dot as arguments.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_DOT_H
#define OTTER_UTILS_DOT_H

#include <string>

namespace otter {

/// Runs `dot -Tsvg Gv -o Svg`. False: Error says why, naming What (what
/// dot was asked to do: "render graph.gv"): "cannot run 'dot' (install
/// Graphviz) to <What>" when dot is missing, "dot failed to <What>".
bool runDot(const std::string &Gv, const std::string &Svg,
            const std::string &What, std::string &Error);

/// The SVG file beside a dot file: graph.gv -> graph.svg, x.dot -> x.dot.svg.
std::string svgBeside(const std::string &Gv);

} // namespace otter

#endif // OTTER_UTILS_DOT_H
