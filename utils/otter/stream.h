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
#include "phase.h"

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
  A.setRecordingCost(In.recordingCostNs());
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

/// A source cut down to one phase (--phase, phase.h): what the analyses
/// (and the replay's recorder) of that phase read.
template <class Source> struct PhaseSource {
  Source &In;
  analysis::PhaseRestriction &P;
  std::vector<Event> Buf;
  bool streamOrdered(const ArchiveInput::EventFn &Fn, std::string &Error) {
    return In.streamOrdered(
        [&](std::uint32_t Th, const Event *E, std::size_t N) {
          Buf.clear();
          P.add(E, N, Buf);
          if (!Buf.empty())
            Fn(Th, Buf.data(), Buf.size());
        },
        Error);
  }
  SourceLabel label(std::uint64_t Code) const { return In.label(Code); }
  const std::string &path() const { return In.path(); }
  std::uint64_t recordingCostNs() const { return In.recordingCostNs(); }
};

/// After a pass restricted to Phase: false with the one-line error (listing
/// the trace's phases) if it never occurred, else notes on stderr how
/// often it did ("otter: phase 'solve': 2 occurrences"). Ok: the pass's.
bool phaseOccurred(const std::string &Phase,
                   const analysis::PhaseRestriction &P,
                   const std::vector<std::string> &Names, bool Ok,
                   std::string &Error);

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
