//===- trace/reader.h - Events and labels back from an OTTER OTF2 trace ---===//
//
// Streams an OTTER OTF2 archive back into otter::Event records (the exact
// stream the runtime recorded, see codec.h) through OTF2's reader API,
// location by location, in batches; keeps only the definitions (regions,
// code addresses and their labels) in memory.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_READER_H
#define OTTER_TRACE_READER_H

#include "otter/events.h"
#include "otter/label.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace otter::trace {

class TraceReader {
public:
  TraceReader();
  ~TraceReader();

  /// Opens an archive: its directory, the directory above it (the runtime's
  /// output directory, containing trace/), or the .otf2 anchor file. Reads
  /// the definitions. False: Error is a one-line reason.
  bool open(const std::string &Path, std::string &Error);

  using Sink = std::function<void(std::uint32_t Thread, const Event *Events,
                                  std::size_t N)>;
  /// Streams every location's events to Fn, in batches, each location in
  /// recorded order. False: Error says why.
  bool readEvents(const Sink &Fn, std::string &Error);

  /// Like readEvents, but decodes only the given locations (thread
  /// indices as passed to Sink; see locations()), in the order given; OTF2
  /// does not even open the other event files. One reader per thread, each
  /// reading its own location, costs one decode of the archive in total
  /// (readEvents in each would cost one per thread). Unknown locations:
  /// false with Error. Can be called again on the same reader.
  bool readLocations(const std::vector<std::uint32_t> &Threads,
                     const Sink &Fn, std::string &Error);

  /// How many locations the last readEvents/readLocations could not read
  /// whole (a damaged or missing thread file: one warning on stderr each,
  /// and the other locations are read; the call fails only when every
  /// location given was damaged).
  std::size_t damagedLocations() const;

  /// The locations (thread indices) in the archive, in definition order.
  std::vector<std::uint32_t> locations() const;

  /// False if the archive was not closed by the runtime (the program was
  /// killed; see trace/writer_disk.cpp): its events stop, per thread, at
  /// the last chunk that reached the disk.
  bool complete() const;

  /// Non-zero when the run's trace was cut at its size limit
  /// (OTTER_MAX_TRACE_SIZE): the limit in bytes; the run went on, but
  /// nothing after that point was recorded.
  std::uint64_t cutAtLimit() const;

  /// OTTER's cost of recording one event, in ns, as the run measured it at
  /// start (codec.h, RecordingCostProperty); 0: not measured.
  std::uint32_t recordingCostNs() const;

  /// What the run did not record (docs/filter.md), one line; empty:
  /// nothing was filtered.
  const std::string &filter() const;
  /// The run's name table (annotations: phase, label and mark names by id;
  /// index 0 is "").
  const std::vector<std::string> &names() const;

  /// The label the runtime recorded for a code address.
  SourceLabel label(std::uint64_t Code) const;
  std::size_t locationCount() const;
  std::uint64_t eventCount() const;

  struct Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace otter::trace

#endif // OTTER_TRACE_READER_H
