//===- otter/env.h - OTTER's environment variables ----------------*- C++ -*-===//
//
// Every environment variable the runtime reads, in one place, with its
// allowed values and default. docs/usage.md documents the same table.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_ENV_H
#define OTTER_ENV_H

namespace otter::env {

/// Directory for all output. Default: ./otter-<program>-<pid>
inline constexpr const char *OutputDir = "OTTER_OUTPUT_DIR";
/// Comma list of graph files to write: dot, csv, canon (graph.txt), all, none.
/// Default: dot,csv
inline constexpr const char *GraphFormat = "OTTER_GRAPH_FORMAT";
/// 1 to write the OTF2 trace into <output>/trace, 0 not to. Default: 1
inline constexpr const char *Trace = "OTTER_TRACE";
/// 1 for a report of callbacks, label resolution and timings on stderr.
inline constexpr const char *Verbose = "OTTER_VERBOSE";
/// Events per thread buffer before it is flushed (1024 .. 16777216).
/// Default: 16384
inline constexpr const char *BufferEvents = "OTTER_BUFFER_EVENTS";

/// 1: approximate labels get file:line from debug info (llvm-symbolizer).
inline constexpr const char *Symbolize = "OTTER_SYMBOLIZE";
/// The symbolizer to run for OTTER_SYMBOLIZE (default llvm-symbolizer-19).
inline constexpr const char *Symbolizer = "OTTER_SYMBOLIZER";

} // namespace otter::env

#endif // OTTER_ENV_H
