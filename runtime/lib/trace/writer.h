//===- trace/writer.h - OTF2 archive from flushed event buffers ---*- C++ -*-===//
//
// An EventSink that writes each flushed buffer into its thread's OTF2 event
// writer (see codec.h for the encoding), and the definitions (locations,
// regions per source construct, code addresses with their labels, clock
// properties) when the archive is closed -- and, while the program runs, at
// the chunk flushes, so that a run killed with SIGKILL still leaves an
// archive that reads (see "Surviving SIGKILL" in writer_disk.cpp). Nothing
// here runs on the hot path.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_WRITER_H
#define OTTER_TRACE_WRITER_H

#include "core/sink.h"
#include "otter/label.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace otter::trace {

struct WriterOptions {
  std::string Dir;          // the archive directory (…/trace)
  std::string Creator = "OTTER";
  /// OTF2 event chunk (one per location). 4 MiB is the size from which
  /// OTF2 writes a chunk to its file directly instead of copying it into a
  /// 4 MiB file buffer first (OTF2_FILE_BUFFER_SIZE in OTF2's file layer).
  std::uint64_t ChunkBytes = 4 << 20;
  /// Write the hot records (task create/switch/complete, region enter and
  /// leave) in place into OTF2's chunk (otf2_direct.h): the same bytes as
  /// OTF2's calls, at a fraction of the instructions. False (tests): OTF2's
  /// calls only.
  bool DirectRecords = true;
  /// The process's rank in an MPI job (-1: none), for the location group's
  /// name until an MpiInit event confirms it.
  std::int64_t Rank = -1;
  /// What the run filters (FilterProperty; empty: nothing).
  std::string Filter;
  /// The run's name table so far (annotations; index 0 is ""): stored in
  /// the anchor (codec.h, NamesProperty) and naming the phase regions.
  /// Null: none. Called with the writer's lock held: must not call back.
  std::function<std::vector<std::string>()> Names;
  /// The events' times are ticks of this scale, converted as each event is
  /// encoded (the default: they are ns). Not the identity: the writer takes
  /// the recorder's ticks (EventSink::takesTicks).
  TickScale Ticks;
  /// Whether the writer may take Bytes more memory for an event chunk now
  /// (null: always); no: as if memory had run out (the runtime's: leave
  /// the program room under ulimit -v, core/memory_room.h).
  bool (*RoomFor)(std::uint64_t Bytes) = nullptr;
  /// The trace's size limit (OTTER_MAX_TRACE_SIZE; 0: none): the bytes of
  /// event records written, counted after each consumed buffer. Past it the
  /// writer takes no more events, OnFull is called once (from the thread
  /// whose buffer crossed it: stop recording), the regions open are closed
  /// at close() as at any end, and the anchor says where it was cut
  /// (CutProperty, codec.h).
  std::uint64_t MaxBytes = 0;
  void (*OnFull)(std::uint64_t MaxBytes) = nullptr;
  /// OTTER's measured cost of recording one event in ns (0: not measured),
  /// asked when the anchor is written (RecordingCostProperty); null: none.
  std::uint32_t (*RecordingCostNs)() = nullptr;
  /// OTTER_SAMPLE's rate (0: no sampling): the interrupt generator of the
  /// samples written with writeWithSamples() (docs/trace.md, "Samples").
  unsigned SampleHz = 0;
  /// The function name of a sampled code address, for the region of its
  /// calling context (null, or "": the address in hex). Called off the
  /// hot path, once per address, with the writer's lock held.
  std::function<std::string(std::uint64_t Address)> FrameName;
  /// The archive will hold samples alone (sampling without the trace,
  /// writeWithSamples() with no events): the anchor says so
  /// (ContentProperty, codec.h), so that readers of events refuse it.
  bool SamplesOnly = false;
};

/// One sample of the sampling mode (core/samples.h) for the trace: Time in
/// the events' clock (ticks when the writer takesTicks()), Frames the code
/// addresses innermost first.
struct TraceSample {
  std::uint64_t Time = 0, WaitId = 0, Task = 0;
  std::uint64_t Region = 0; // the task's construct's code address (0: none)
  std::uint32_t State = 0, Weight = 1, Flags = 0, Depth = 0;
  const std::uint64_t *Frames = nullptr;
};

struct WriterStats {
  std::uint64_t Events = 0;      // Events consumed
  std::uint64_t Locations = 0;
  /// Locations whose hot records are written in place (otf2_direct.h).
  std::uint64_t DirectLocations = 0;
  std::uint64_t Regions = 0;
  std::uint64_t Codes = 0;
  std::uint64_t AttributeEvents = 0; // events that needed an attribute list
  /// Events lost because memory ran out while they were encoded (the
  /// application runs on; the session reports it once, at the end).
  std::uint64_t DroppedEvents = 0;
  /// CallingContextSample records written (writeWithSamples).
  std::uint64_t Samples = 0;
  /// The size limit (WriterOptions::MaxBytes) was reached: events after
  /// it were not written.
  bool Cut = false;
};

class TraceWriter final : public EventSink {
public:
  using Resolver = std::function<SourceLabel(std::uint64_t Code)>;
  TraceWriter(WriterOptions O, Resolver R);
  ~TraceWriter() override;

  /// Creates the archive. False: Error says why (one line).
  bool open(std::string &Error);
  void consume(const ThreadInfo &T, const Event *Events,
               std::size_t N) override;
  bool takesTicks() const override;
  /// Writes the definitions and closes the archive. Idempotent.
  bool close(std::string &Error);
  /// Writes the definitions so far into the anchor + global definition
  /// files (atomically replaced), so that a run killed later still reads up
  /// to the last event chunk written. The writer does this by itself at
  /// the chunk flushes that need it (new definitions, a location's first
  /// chunk, every 0.5 s); calling it is never needed for correctness.
  void checkpoint();
  /// Makes every event consumed so far readable from the archive while the
  /// program runs (omp_control_tool flush): OTF2's chunk in memory is
  /// copied to the event file, then checkpointed. Every: all locations (no
  /// thread is recording), else location Own only.
  void flushToDisk(std::uint32_t Own, bool Every);
  /// A thread's periodic flush (OTTER_FLUSH_INTERVAL): location Own's events
  /// consumed so far onto disk as flushToDisk's, checkpointed only when the
  /// checkpoint would miss something they need (new definitions, the
  /// location's first events) or is 0.5 s old. Called by Own's thread.
  void persist(std::uint32_t Own);
  WriterStats stats() const;
  /// consume() of a buffer with its thread's samples taken since the last
  /// call (oldest first): each sample is written as a CallingContextSample
  /// record just before the first event later than it, in the thread's
  /// location. Samples later than the buffer's last event are left for the
  /// next call unless Rest (the end of the run: every one written). Returns
  /// how many of Samples were written or dropped (the caller's next call
  /// starts after them). Off the hot path: a buffer flush.
  std::size_t writeWithSamples(const ThreadInfo &T, const Event *Events,
                               std::size_t N, const TraceSample *Samples,
                               std::size_t NS, bool Rest);

  /// For tests: encode and write one thread's events under location L.
  void write(std::uint32_t Location, std::uint32_t ThreadType,
             const Event *Events, std::size_t N);

  struct Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace otter::trace

#endif // OTTER_TRACE_WRITER_H
