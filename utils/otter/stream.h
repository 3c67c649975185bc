//===- otter/stream.h - One pass of an input through the analysis -*- C++ -*-===//
//
// What every `otter` command that analyses does first: stream the input's
// events, time ordered, into an Analyzer (and whatever else wants the same
// pass), with a progress bar, and refuse an input with no events; and the
// label resolver the reports and exporters share. Source is one process's
// archive (input.h) or a whole MPI job (job.h): anything with
// streamOrdered(), path() and label().
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_STREAM_H
#define OTTER_UTILS_STREAM_H

#include "analysis.h"
#include "input.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace otter::cli {

/// One pass: every run of events to Also (if set), then to A; R is A's
/// result. False: Error says why in one line.
template <class Source>
bool analyseStream(Source &In, analysis::Analyzer &A, analysis::Result &R,
                   std::string &Error,
                   const ArchiveInput::EventFn &Also = {}) {
  Progress Bar("reading events");
  std::uint64_t N = 0;
  bool Ok = In.streamOrdered(
      [&](std::uint32_t Th, const Event *E, std::size_t K) {
        if (Also)
          Also(Th, E, K);
        A.add(Th, E, K);
        N += K;
        Bar.tick(K);
      },
      Error);
  Bar.done();
  if (!Ok)
    return false;
  // No events (an archive of a run that traced nothing, or another tool's):
  // an error, not a report of zeros that would look like a measurement.
  if (N == 0) {
    Error = "'" + In.path() + "': the trace has no events";
    return false;
  }
  R = A.finish();
  return true;
}

/// The input's labels, memoised per code address.
template <class Source> struct LabelCache {
  Source &In;
  std::unordered_map<std::uint64_t, SourceLabel> Cache;
  analysis::LabelFn fn() {
    return [this](std::uint64_t Code) {
      auto It = Cache.find(Code);
      if (It == Cache.end())
        It = Cache.emplace(Code, In.label(Code)).first;
      return It->second;
    };
  }
};

} // namespace otter::cli

#endif // OTTER_UTILS_STREAM_H
