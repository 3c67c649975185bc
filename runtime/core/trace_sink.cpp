//===- core/trace_sink.cpp - The OTF2 trace of the run --------------------===//
//
// OTTER_TRACE=1: every flushed buffer goes into the OTF2 archive
// $OTTER_OUTPUT_DIR/trace (trace/writer.h) as the program runs; the archive
// is closed at the end, or saved from a crashing process; an MPI rank's
// closing may assemble the job's archive (trace/merge.h). With OTTER_SAMPLE,
// each thread's samples drained so far go into its location with its
// buffer, merged in time order (trace/writer_samples.cpp), and the rest at
// the end. A thread's periodic flush (OTTER_FLUSH_INTERVAL) puts its
// location's events on disk (persist).
//
// Sampling without the trace (OTTER_SAMPLE with OTTER_TRACE=0): the same
// archive holds the samples alone (WriterOptions::SamplesOnly), made at the
// end (or in a crashing process's copy), as samples.csv is, from the rings
// drained then: nothing is on disk before, no event reaches it, and the
// recording of events is as without it (sampling alone records none).
// docs/sampling.md.
//
//===----------------------------------------------------------------------===//
#include "core/manifest.h"
#include "core/memory_room.h"
#include "core/names.h"
#include "core/recorder.h"
#include "core/samples.h"
#include "core/sinks.h"
#include "trace/merge.h"
#include "trace/writer.h"

#include <cinttypes>
#include <cstdio>
#include <cxxabi.h>
#include <cstdlib>
#include <dlfcn.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

namespace otter {

namespace {

/// The trace reached OTTER_MAX_TRACE_SIZE (trace/writer.h, OnFull): recording
/// stops for the rest of the run, with one line; what was recorded is
/// written at the end as always (the graph too). Called once, by the thread
/// whose buffer crossed the limit.
void traceFull(std::uint64_t MaxBytes) {
  recorder::Active.store(false, std::memory_order_release);
  std::fprintf(stderr,
               "otter: the trace reached its size limit (%llu bytes, "
               "OTTER_MAX_TRACE_SIZE): recording stopped here; what was "
               "recorded is written at exit (set OTTER_MAX_TRACE_SIZE to a "
               "larger size, e.g. 20G, or to 0 for no limit)\n",
               (unsigned long long)MaxBytes);
}

/// The name of the function holding a sampled code address, for its
/// region in the trace: the dynamic symbol table's (demangled), else
/// module+0xoffset, else "" (the writer then names it by its address).
/// Looked up one byte before it: most frames are return addresses. At a
/// buffer flush, never in the signal handler.
std::string frameName(std::uint64_t Address) {
  Dl_info I{};
  if (!Address || !dladdr(reinterpret_cast<void *>(Address - 1), &I))
    return "";
  if (I.dli_sname) {
    int Status = 0;
    char *D = abi::__cxa_demangle(I.dli_sname, nullptr, nullptr, &Status);
    std::string Name = D && Status == 0 ? D : I.dli_sname;
    std::free(D);
    return Name;
  }
  if (!I.dli_fname)
    return "";
  std::string Module = I.dli_fname;
  Module = Module.substr(Module.rfind('/') + 1);
  char Off[32];
  std::snprintf(Off, sizeof Off, "+0x%" PRIx64,
                Address - reinterpret_cast<std::uint64_t>(I.dli_fbase));
  return Module + Off;
}

class TraceSink final : public RunSink {
public:
  TraceSink(std::unique_ptr<trace::TraceWriter> W, bool Sampling,
            bool SamplesOnly)
      : W(std::move(W)), Sampling(Sampling), SamplesOnly(SamplesOnly) {}

  void consume(const ThreadInfo &T, const Event *Events,
               std::size_t N) override {
    if (SamplesOnly) // the events are another sink's (the graph's)
      return;
    SampleThread *S = Sampling ? samples::find(T.Index) : nullptr;
    if (!S || !writeSamples(S, T, Events, N, false))
      W->consume(T, Events, N);
  }
  bool takesTicks() const override { return !SamplesOnly && W->takesTicks(); }

  void close(FinishContext &C) override {
    if (SamplesOnly && !openAtEnd(C))
      return;
    if (Sampling) // every ring drained, the samples after each thread's
                  // last event written before the archive closes
      writeRemainingSamples();
    std::string Error;
    Wrote = W->close(Error);
    trace::WriterStats S = W->stats();
    if (!Wrote)
      C.Message("error: ", Error);
    else if (C.Cfg.Verbose && SamplesOnly)
      C.Message("", "wrote " + C.Cfg.OutputDir +
                        "/trace/ (OTF2, samples alone): " +
                        std::to_string(S.Samples) + " samples");
    else if (C.Cfg.Verbose)
      C.Message("", "wrote " + C.Cfg.OutputDir +
                        "/trace/ (OTF2): " + std::to_string(S.Events) +
                        " events, " + std::to_string(S.Regions) + " regions, " +
                        std::to_string(S.AttributeEvents) +
                        " events with attributes" +
                        (S.Samples ? ", " + std::to_string(S.Samples) +
                                         " samples"
                                   : std::string()));
    reportDropped(C, S);
    C.Wrote |= Wrote;
  }

  void afterSummary(FinishContext &C) override {
    if (Wrote)
      rankArchiveClosed(C);
  }

  void flushNow(std::uint32_t Own, bool Every) override {
    if (!SamplesOnly) // samples alone are written at the end
      W->flushToDisk(Own, Every);
  }
  void persist(const ThreadInfo &T) override {
    if (!SamplesOnly)
      W->persist(T.Index);
  }

  bool savesOnCrash() const override { return true; }

  void saveOnCrash(FinishContext &C) override {
    if (SamplesOnly) { // nothing else would be in it
      if (!openAtEnd(C))
        return;
      writeRemainingSamples();
    }
    std::string Error;
    if (!W->close(Error))
      return;
    C.Message("", std::string("the program crashed; saved the ") +
                      (SamplesOnly ? "samples" : "trace") + " in " +
                      C.Cfg.OutputDir + "/trace/");
    reportDropped(C, W->stats());
    rankArchiveClosed(C);
  }

private:
  /// Samples alone: the archive made now, if sampling ran (else none: it
  /// said why at start). False: not made (an error said why).
  bool openAtEnd(FinishContext &C) {
    if (!samples::rate())
      return false;
    const std::string Dir = C.Cfg.OutputDir + "/trace";
    std::string Why = makeDirectories(Dir);
    if (Why.empty() && W->open(Why))
      return true;
    C.Message("error: ", "cannot write the samples to '" + Dir + "': " + Why);
    return false;
  }

  /// The samples not in the archive yet, every ring drained first (the
  /// timers stopped): those after each thread's last event, or with
  /// samples alone all of them, a batch at a time.
  void writeRemainingSamples() {
    samples::stopAll();
    for (SampleThread *S : samples::threads()) {
      const ThreadInfo T{S->ThreadIndex, 0};
      std::size_t Before;
      do
        Before = S->TraceCursor;
      while (writeSamples(S, T, nullptr, 0, true, RestBatch) &&
             S->TraceCursor != Before);
    }
  }

  /// Samples written at a time when no event comes with them: bounds the
  /// memory of a long run's batch.
  static constexpr std::size_t RestBatch = 1 << 16;

  /// A buffer of thread T's events with its samples taken since the last
  /// one (S: its sampling state, drained first, so that every sample older
  /// than the buffer's last event is there). False: not written (out of
  /// memory), the caller writes the events alone.
  bool writeSamples(SampleThread *S, const ThreadInfo &T, const Event *Events,
                    std::size_t N, bool Rest,
                    std::size_t Most = ~std::size_t(0)) {
    try {
      samples::drain(S);
      std::lock_guard<std::mutex> L(S->DrainLock);
      std::vector<trace::TraceSample> Batch;
      std::vector<std::size_t> Ends; // each sample's end in D
      samples::forEachDrained(
          S->Drained, S->TraceCursor,
          [&](const samples::DrainedSample &Y, std::size_t End) {
            trace::TraceSample X;
            X.Time = Y.Time;
            X.State = Y.State;
            X.Depth = Y.Depth;
            X.Flags = Y.Flags;
            X.WaitId = Y.WaitId;
            X.Task = Y.Task;
            X.Weight = std::uint32_t(Y.Weight);
            X.Region = Y.Region;
            X.Frames = Y.Frames;
            Batch.push_back(X);
            Ends.push_back(End);
          },
          Most);
      const std::size_t Done =
          W->writeWithSamples(T, Events, N, Batch.data(), Batch.size(), Rest);
      if (Done)
        S->TraceCursor = Ends[Done - 1];
      return true;
    } catch (...) { // out of memory: the samples wait for the next buffer
      return false;
    }
  }

  /// Buffers the writer lost to a lack of memory, said once.
  static void reportDropped(FinishContext &C, const trace::WriterStats &S) {
    if (S.DroppedEvents)
      C.Message("error: ", "ran out of memory writing the trace; " +
                               std::to_string(S.DroppedEvents) + " of " +
                               std::to_string(S.Events + S.DroppedEvents) +
                               " events are missing from it");
  }

  /// An MPI rank has closed its archive: the last one to do so assembles
  /// the job's archive (trace/merge.h).
  static void rankArchiveClosed(FinishContext &C) {
    const Config &Cfg = C.Cfg;
    if (Cfg.Rank < 0)
      return;
    trace::MergeResult R;
    std::string Error;
    int Size = C.WorldSize ? C.WorldSize : Cfg.WorldSize;
    if (trace::rankClosed(Cfg.JobDir, Cfg.Rank, Size, R, Error)) {
      // The assembling rank: the job's directory is this job's now.
      if (std::string Why;
          Size > 0 && !replaceJobManifest(Cfg.JobDir, Size, Why))
        C.Message("warning: ", "cannot write " + Cfg.JobDir + "/" +
                                   ManifestName + ": " + Why +
                                   " (the next run into this directory will "
                                   "not remove this job's files)");
      C.Message(
          "",
          "wrote " + Cfg.JobDir +
              "/trace/ (OTF2 archive of the job: " + std::to_string(R.Ranks) +
              " ranks, " + std::to_string(R.Locations) + " threads" +
              (R.IncompleteRanks ? ", " + std::to_string(R.IncompleteRanks) +
                                       " rank(s) cut off"
                                 : std::string()) +
              ")");
    } else if (!Error.empty())
      C.Message("error: ",
                Error + "; run otter-merge " + Cfg.JobDir + " to assemble it");
  }

  std::unique_ptr<trace::TraceWriter> W;
  bool Sampling = false; // OTTER_SAMPLE: samples go into the trace
  bool SamplesOnly = false; // OTTER_TRACE=0: nothing else does
  bool Wrote = false;
};

} // namespace

/// Creates $OTTER_OUTPUT_DIR/trace and the OTF2 archive in it; on failure
/// Why says why in one line (the program runs on untraced).
std::unique_ptr<RunSink> makeTraceSink(const Config &Cfg, std::string &Why) {
  const bool SamplesOnly = !Cfg.Trace; // sinks.cpp: sampling, then
  if (Cfg.Rank >= 0)                   // not closed its archive in this run
    trace::rankOpened(Cfg.JobDir, Cfg.Rank);
  std::string Dir = Cfg.OutputDir + "/trace";
  removeArchive(Dir); // a rerun replaces its trace, as its graph files
  if (!SamplesOnly)   // else made at the end
    Why = makeDirectories(Dir);
  if (Why.empty()) {
    trace::WriterOptions O;
    O.Dir = Dir;
    O.Creator = "OTTER (OpenMP Task Tracer)";
    O.Rank = Cfg.Rank;
    O.Ticks = recorder::tickScale(); // times converted as they are encoded
    O.RoomFor = memory::roomFor;
    if (!SamplesOnly) { // the events' filter, names, size limit and cost
      O.Filter = Cfg.FilterText;
      O.Names = names::snapshot;
      O.MaxBytes =
          Cfg.MaxTraceSet ? Cfg.MaxTraceBytes : defaultMaxTraceBytes(Dir);
      O.OnFull = traceFull;
      O.RecordingCostNs = recorder::recordingCostNs;
    }
    O.SampleHz = Cfg.SampleHz;
    O.FrameName = frameName;
    O.SamplesOnly = SamplesOnly;
    O.DirectRecords = !SamplesOnly; // OTF2's own calls write the samples
    auto W = std::make_unique<trace::TraceWriter>(O, describeCode);
    if (SamplesOnly || W->open(Why)) // samples alone: opened at the end
      return std::make_unique<TraceSink>(std::move(W), Cfg.SampleHz > 0,
                                         SamplesOnly);
  }
  Why = "cannot write the trace to '" + Dir + "': " + Why +
        " (set OTTER_OUTPUT_DIR to a writable directory, or OTTER_TRACE=0); "
        "not writing a trace";
  return nullptr;
}

} // namespace otter
