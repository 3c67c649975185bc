//===- otter/command_input.h - One archive or an MPI job, analysed -*- C++ -*-===//
//
// What the analysing commands (summary, parallelism, diagnose, export) read:
// one process's archive or a whole MPI job (every rank's archive as one
// stream, job.h), opened by openInput with the warnings every command
// gives, and the one streaming pass of the analysis over it.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_COMMAND_INPUT_H
#define OTTER_UTILS_COMMAND_INPUT_H

#include "analysis.h"
#include "input.h"
#include "job.h"
#include "report.h" // analysis::LabelFn, which stream.h uses
#include "stream.h"

#include <memory>
#include <string>
#include <vector>

namespace otter::cli {

/// One process's archive, or an MPI job.
struct Input {
  std::unique_ptr<ArchiveInput> Archive;
  std::unique_ptr<JobInput> Job;
  std::string Path;
  bool streamOrdered(const ArchiveInput::EventFn &Fn, std::string &Error) {
    return Job ? Job->streamOrdered(Fn, Error)
               : Archive->streamOrdered(Fn, Error);
  }
  SourceLabel label(std::uint64_t Code) const {
    return Job ? Job->label(Code) : Archive->label(Code);
  }
  /// The name table of the annotations (otter/otter.h).
  const std::vector<std::string> &names() const {
    return Job ? Job->names() : Archive->names();
  }
  const std::string &path() const { return Path; }
  std::uint64_t recordingCostNs() const {
    return Job ? Job->recordingCostNs() : Archive->recordingCostNs();
  }
};

/// Opens Path as an MPI job (its directory or merged archive) or one
/// process's archive (openArchive), warning on stderr as every command
/// does. False: Error.
bool openInput(const std::string &Path, Input &In, std::string &Error);

/// Streams the input through an Analyzer (with an optional observer);
/// Phase: only what is inside that phase (docs/utils.md, "One phase").
bool analyse(Input &In, analysis::Observer *Obs, analysis::Result &R,
             std::string &Error, const std::string &Phase = {});

/// The reports' and exporters' label resolver: the input's labels,
/// memoised per code address.
using Labels = LabelCache<Input>;

} // namespace otter::cli

#endif // OTTER_UTILS_COMMAND_INPUT_H
