//===- core/sinks.h - The runtime's sinks: registry, life cycle -*- C++ -*-===//
//
// What a traced run writes is a list of sinks, each made by its factory in
// the registry (sinks.cpp) when the configuration asks for it: today the
// task graph (graph_sink.cpp: the builder, then the graph files of
// OTTER_GRAPH_FORMAT) and the OTF2 trace (trace_sink.cpp). The session
// (session.cpp) knows none of them: it makes the wanted ones at start, hands
// them to the recorder (any number), and drives them through the steps of
// the end of the run below, in registry order.
//
// Adding an output that consumes events: a file with its RunSink and its
// factory, and one row in sinks.cpp. (A file format written from the task
// graph is a row of graph/outputs.h instead.)
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_SINKS_H
#define OTTER_CORE_SINKS_H

#include "core/config.h"
#include "core/sink.h"
#include "otter/label.h"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace otter {

/// What the sinks share at the end of the run, and what they tell the
/// session about it.
struct FinishContext {
  const Config &Cfg;
  /// The MPI job's size as MPI_Init reported it (0: not known).
  int WorldSize = 0;
  /// One line on stderr: Level is "", "warning: " or "error: ".
  std::function<void(const char *Level, const std::string &Text)> Message;

  // Filled by the sinks, for the run's one-line summary
  // ("wrote DIR/ (FILES): N threads DETAILS").
  bool Wrote = false;             // something was written
  std::vector<std::string> Files; // files written into Cfg.OutputDir
  std::string Details;            // ", 3 parallel regions, ..."
  /// Files written into Cfg.OutputDir that the summary line leaves out
  /// (an MPI rank's mpi.csv): the manifest lists them with Files.
  std::vector<std::string> Unlisted;
};

/// An output of a traced run: consumes the flushed buffers while the
/// program runs, writes its files at the end. The end of a run is, in
/// order: every buffer flushed; close() of every sink; the output directory
/// made (if that fails, nothing else is done); write() of every sink; the
/// summary line; afterSummary() of every sink; with OTTER_VERBOSE, the
/// number of events and report() of every sink. A step a sink does not
/// need it leaves alone. Nothing here may throw into the application or
/// end it: a failure is one line through Message.
class RunSink : public EventSink {
public:
  /// Stops taking events; finishes what needs no output directory of the
  /// run (the trace archive, which made its own at start).
  virtual void close(FinishContext &) {}
  /// Writes its files into Cfg.OutputDir, which exists now.
  virtual void write(FinishContext &) {}
  /// After the summary line (e.g. the MPI job's archive, assembled by the
  /// last rank to close its own, says so after the rank's summary).
  virtual void afterSummary(FinishContext &) {}
  /// omp_control_tool flush while the program runs: the buffers were
  /// flushed (every thread's if Every, else thread Own's); make what was
  /// consumed so far readable on disk, if this output can.
  virtual void flushNow(std::uint32_t /*Own*/, bool /*Every*/) {}
  /// Before the session forks a copy of the process to save the run in it
  /// (from a signal handler: async-signal-safe): stop the sink's own
  /// threads between two steps, as the copy will not have them.
  virtual void beforeFork() {}
  /// OTTER_VERBOSE details, after the event count.
  virtual void report(FinishContext &) {}
  /// True if saveOnCrash() saves something: the session then installs the
  /// crash handlers (trace/crash.h).
  virtual bool savesOnCrash() const { return false; }
  /// In a forked copy of a crashing process, every buffer flushed: save
  /// what can be saved quickly (no graph: building it takes long).
  virtual void saveOnCrash(FinishContext &) {}
};

/// One row of the registry.
struct SinkSpec {
  const char *Name; // for messages: "graph", "trace"
  /// Whether the configuration asks for it.
  bool (*Wanted)(const Config &Cfg);
  /// Makes it at tool start. Null: it cannot run, and Why (if not empty) is
  /// the one-line error to print; the program runs on without it.
  std::unique_ptr<RunSink> (*Make)(const Config &Cfg, std::string &Why);
};

/// Every sink the runtime has, in the order they are driven.
std::span<const SinkSpec> sinkRegistry();

/// The label of a code address in this process (the site index), for
/// sinks that name code addresses.
SourceLabel describeCode(std::uint64_t Code);

/// mkdir -p Path. Returns "" or the reason it is not a writable directory.
std::string makeDirectories(const std::string &Path);

} // namespace otter

#endif // OTTER_CORE_SINKS_H
