//===- graph/rebuild.h - The task graph's files from a trace ---*- C++ -*-===//
//
// What otter-graph does, as a function: read an OTTER trace (or an MPI
// job's ranks' traces) back and write the task graph's files with the
// runtime's own builder and writers, so they equal the ones the runtime
// wrote at exit. otter-graph's main and `otter graph` / `otter export
// --format dot|csv` call it in their own process.
//
// Also the one text of the warnings about an archive's state (not closed,
// cut at its size limit), which every tool that opens an archive prints.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_GRAPH_REBUILD_H
#define OTTER_UTILS_GRAPH_REBUILD_H

#include "graph/outputs.h"

#include <cstdint>
#include <string>

namespace otter {

/// The warnings on stderr about an archive that was not closed (killed,
/// disk full) or was cut at OTTER_MAX_TRACE_SIZE, one line each, as
/// "<Tool>: warning: ...". What: what covers the events written ("what
/// follows", "the graph").
void warnArchiveState(const char *Tool, const std::string &Path,
                      bool Complete, std::uint64_t CutAtLimit,
                      const char *What);

/// Creates Dir and every missing directory above it (mkdir -p). False:
/// Error names the directory and the reason.
bool makeDirectories(const std::string &Dir, std::string &Error);

/// otter-graph's --format: the runtime's own parser (graph/outputs.h), with
/// the one-line error a command line gets.
bool parseGraphFormatOption(const std::string &List, GraphFormats &F,
                            std::string &Error);

/// Rebuilds the task graph of Input (an archive, its anchor, an output
/// directory or an MPI job's directory) and writes the files Formats
/// selects into OutDir, created (with its parents) once the trace has
/// been read. Errors: one line "otter: error: ..." on stderr; warnings:
/// "<Tool>: warning: ...". Returns the exit status (0, or 1: the input or
/// the output failed).
int rebuildGraphFiles(const std::string &Input, const std::string &OutDir,
                      const GraphFormats &Formats, const char *Tool);

} // namespace otter

#endif // OTTER_UTILS_GRAPH_REBUILD_H
