//===- trace/sample_reader.h - The samples of an OTF2 archive ---*- C++ -*-===//
//
// The samples OTTER_SAMPLE wrote into the trace (trace/writer_samples.cpp,
// docs/trace.md "Samples"): every CallingContextSample record of the
// archive with its call path (the code addresses of its calling context
// and its parents: the otter:sample_address properties) and its
// attributes, and the sampling rate (the interrupt generator's period).
// For `otter profile` on an archive without samples.csv. The event
// reader (trace/reader.h) skips these records, and refuses an archive of
// samples alone (archiveHoldsSamplesOnly: sampling with OTTER_TRACE=0).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_SAMPLE_READER_H
#define OTTER_TRACE_SAMPLE_READER_H

#include <otf2/OTF2_Reader.h>

#include <cstdint>
#include <string>
#include <vector>

namespace otter::trace {

struct ArchiveSample {
  std::uint32_t Thread = 0; // the location
  std::uint64_t TimeNs = 0, WaitId = 0, Task = 0;
  std::uint64_t Region = 0; // samples.csv's region (Flags & 4: parallel)
  std::uint32_t State = 0, Weight = 1, Flags = 0;
  std::vector<std::uint64_t> Stack; // innermost first, as samples.csv
};

/// Reads the samples of the archive whose anchor is Anchor, thread by
/// thread, in time order. Hz: the rate (0: no interrupt generator). False:
/// Error says why (not an archive, damaged); an archive without samples
/// gives none and true.
bool readArchiveSamples(const std::string &Anchor,
                        std::vector<ArchiveSample> &Out, unsigned &Hz,
                        std::string &Error);

/// Whether the archive whose anchor is Anchor holds a run's samples alone
/// (sampling without the trace: codec.h, ContentProperty); false if it
/// holds events, or is not a readable archive.
bool archiveHoldsSamplesOnly(const std::string &Anchor);
/// The same for an archive open in R: true, with the one-line Error the
/// readers of events give for it (naming `otter profile`).
bool samplesOnlyArchive(OTF2_Reader *R, const std::string &Anchor,
                        std::string &Error);

} // namespace otter::trace

#endif // OTTER_TRACE_SAMPLE_READER_H
