//===- otter/input.h - Time-ordered events of an archive --------*- C++ -*-===//
//
// The analyses need every thread's events merged by timestamp. The trace
// reader (runtime/lib/trace/reader.h) streams one location after another, so
// this adapter runs one reader per location on its own thread, each
// decoding only its own location (TraceReader::readLocations: the archive
// is decoded once in total) into a small bounded queue, and merges the
// queues by time on the calling thread: memory stays bounded by the queues,
// whatever the trace's length.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_UTILS_INPUT_H
#define OTTER_UTILS_INPUT_H

#include "otter/events.h"
#include "otter/label.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace otter::cli {

class ArchiveInput {
public:
  ArchiveInput();
  ~ArchiveInput();
  /// Opens the archive (its directory, the output directory above it, or
  /// the .otf2 anchor). False: Error is a one-line reason.
  bool open(const std::string &Path, std::string &Error);
  std::size_t threads() const;
  /// False if the runtime did not close the archive (killed, disk full):
  /// it then holds what each thread had written.
  bool complete() const;
  /// What the run did not record (docs/filter.md); empty: nothing.
  const std::string &filter() const;
  /// Non-zero: the trace was cut at this size limit (OTTER_MAX_TRACE_SIZE).
  std::uint64_t cutAtLimit() const;
  /// OTTER's cost of recording one event as the run measured it (0: not
  /// measured): what the analyses take out (states.h, recordingCostIn).
  std::uint64_t recordingCostNs() const;
  /// A run of one thread's consecutive events.
  using EventFn = std::function<void(std::uint32_t Thread, const Event *E,
                                     std::size_t N)>;
  /// Every event, threads merged by time, in runs (one call per run of a
  /// thread's events that precede every other thread's next event). False:
  /// Error says why.
  bool streamOrdered(const EventFn &Fn, std::string &Error);
  /// Every event in the reader's own order (location by location), batched.
  bool streamRaw(const std::function<void(std::uint32_t, const Event *,
                                          std::size_t)> &Fn,
                 std::string &Error);
  /// The events of these locations, one after another in the order given,
  /// each in its recorded order, batched.
  bool streamLocations(const std::vector<std::uint32_t> &Threads,
                       const EventFn &Fn, std::string &Error);
  SourceLabel label(std::uint64_t Code) const;
  /// The run's name table (annotations, otter/otter.h); [0] is "".
  const std::vector<std::string> &names() const;
  const std::string &path() const { return Path; }
  /// The locations (thread indices) of the archive.
  std::vector<std::uint32_t> locations() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
  std::string Path;
};

/// One location of one archive, as a lane of streamLanes.
struct LaneSource {
  std::string Archive;    // what ArchiveInput::open takes
  std::uint32_t Location; // the thread index the reader gives
  /// Applied by the lane's reader to each batch before the merge (an MPI
  /// job: the rank's ids, thread numbers and clock); must keep the lane's
  /// events in time order. May be empty.
  std::function<void(std::uint32_t &Thread, Event *E, std::size_t N)> Transform;
};

/// Every event of the lanes, merged by time, in runs (as
/// ArchiveInput::streamOrdered, which is this over one archive's
/// locations): one reader thread per lane.
bool streamLanes(const std::vector<LaneSource> &Lanes,
                 const ArchiveInput::EventFn &Fn, std::string &Error);

/// A progress line on stderr, only when stderr is a terminal.
class Progress {
public:
  explicit Progress(const char *What);
  ~Progress();
  /// N more events read.
  void tick(std::uint64_t N) {
    std::uint64_t Old = Events;
    Events += N;
    // Redrawn once per 2^20 events: the check is a shift on the hot path.
    if (Enabled && (Old >> 20) != (Events >> 20))
      show(Events);
  }
  void done();

private:
  void show(std::uint64_t Events);
  const char *What;
  bool Enabled;
  bool Shown = false;
  std::uint64_t Start;
  std::uint64_t Events = 0;
};

} // namespace otter::cli

#endif
