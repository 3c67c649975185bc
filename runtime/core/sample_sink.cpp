//===- core/sample_sink.cpp - The samples of the run ----------------------===//
//
// OTTER_SAMPLE=<Hz>: the samples go to $OTTER_OUTPUT_DIR/samples.csv
// (unless OTTER_SAMPLE_CSV=0: the OTF2 archive has them too,
// trace_sink.cpp), with the code mappings of the process in modules.csv and
// the rate in sampling.csv, so that `otter profile` symbolizes the
// addresses after the run (never in the handler). While the program runs,
// the drainer appends what it drained every OTTER_FLUSH_INTERVAL (a run
// killed with SIGKILL keeps its samples up to then); at the end every
// sampled thread's timer is deleted, its ring drained (core/samples.h) and
// the rest appended. docs/sampling.md has the columns.
// The run may end in a forked copy of the process (a termination signal,
// exit() inside a parallel region, a crash: core/session.cpp), where the
// drainer thread does not exist: it is paused before the fork between two
// drains (beforeFork), and the copy neither waits for it nor takes a lock
// it may hold.
//
//===----------------------------------------------------------------------===//
#include "core/recorder.h"
#include "core/samples.h"
#include "core/sinks.h"
#include "otter/sample_states.h"

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <thread>
#include <unistd.h>

namespace otter {

namespace {

/// Appends to samples.csv (made, with its header, when Fresh) the samples
/// drained since the last append (SampleThread::CsvCursor). Written counts
/// the rows.
bool appendSamples(const std::string &Path, bool Fresh,
                   std::uint64_t &Written) {
  std::FILE *F = std::fopen(Path.c_str(), Fresh ? "w" : "a");
  if (!F)
    return false;
  if (Fresh)
    std::fputs("thread,time_ns,state,class,wait_id,task,exit_frame,enter_frame,"
               "weight,truncated,runtime_skipped,region,region_kind,stack\n",
               F);
  bool Good = true;
  for (SampleThread *S : samples::threads()) {
    std::lock_guard<std::mutex> L(S->DrainLock);
    std::size_t Cursor = S->CsvCursor;
    samples::forEachDrained(
        S->Drained, Cursor,
        [&](const samples::DrainedSample &X, std::size_t End) {
          std::fprintf(F,
                       "%" PRIu32 ",%" PRIu64 ",0x%" PRIx32 ",%s,%" PRIu64
                       ",%" PRIu64 ",0x%" PRIx64 ",0x%" PRIx64 ",%" PRIu64
                       ",%d,%d,0x%" PRIx64 ",%s,",
                       S->ThreadIndex, recorder::toNs(X.Time), X.State,
                       stateClassName(stateClassOf(X.State)), X.WaitId, X.Task,
                       X.ExitFrame, X.EnterFrame, X.Weight,
                       (X.Flags & SampleTruncated) ? 1 : 0,
                       (X.Flags & SampleRuntimeSkipped) ? 1 : 0, X.Region,
                       !X.Region                          ? ""
                       : (X.Flags & SampleRegionImplicit) ? "parallel"
                                                          : "task");
          for (unsigned K = 0; K < X.Depth; ++K)
            std::fprintf(F, "%s0x%" PRIx64, K ? ";" : "", X.Frames[K]);
          std::fputc('\n', F);
          ++Written;
          Cursor = End;
        });
    // On disk before the cursor moves: a later append never repeats them.
    Good = std::fflush(F) == 0 && Good;
    if (Good)
      S->CsvCursor = Cursor;
  }
  return std::fclose(F) == 0 && Good;
}

/// The executable mappings of the process: start,end,offset,path. Written
/// aside and renamed into place (a run killed meanwhile leaves the last
/// whole one).
bool writeModules(const std::string &Path) {
  std::FILE *In = std::fopen("/proc/self/maps", "r");
  if (!In)
    return false;
  const std::string Aside = Path + ".part";
  std::FILE *F = std::fopen(Aside.c_str(), "w");
  if (!F) {
    std::fclose(In);
    return false;
  }
  std::fputs("start,end,offset,path\n", F);
  char Line[4096];
  while (std::fgets(Line, sizeof Line, In)) {
    unsigned long long Start, End, Offset;
    char Perms[8] = {}, Name[4096] = {};
    int N = std::sscanf(Line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &Start,
                        &End, Perms, &Offset, Name);
    if (N < 4 || Perms[2] != 'x')
      continue;
    const char *P = Name;
    while (*P == ' ')
      ++P;
    std::fprintf(F, "0x%llx,0x%llx,0x%llx,%s\n", Start, End, Offset, P);
  }
  std::fclose(In);
  return std::fclose(F) == 0 && std::rename(Aside.c_str(), Path.c_str()) == 0;
}

/// The sampling's settings, for `otter profile` (a sample's weight is in
/// timer periods): rate_hz,clock,signal.
bool writeSettings(const std::string &Path, bool Wall) {
  std::FILE *F = std::fopen(Path.c_str(), "w");
  if (!F)
    return false;
  std::fprintf(F, "rate_hz,clock,signal\n%u,%s,%d\n", samples::rate(),
               Wall ? "wall" : "cpu", samples::signal());
  return std::fclose(F) == 0;
}

/// Drains every ring every DrainPeriod while the program runs, so that a
/// thread that runs longer than its ring lasts (RingSlots samples) loses
/// none: the consumer side only (core/sample_ring.h), under each ring's
/// drain lock; the handlers never wait for it. Every OTTER_FLUSH_INTERVAL
/// (unless 0 or OTTER_SAMPLE_CSV=0) it also appends the samples drained
/// since to samples.csv, with modules.csv and sampling.csv beside it.
class SampleSink final : public RunSink {
public:
  static constexpr std::chrono::milliseconds DrainPeriod{250};
  explicit SampleSink(const Config &Cfg)
      : Owner(::getpid()), Dir(Cfg.OutputDir), Wall(Cfg.SampleWall),
        StreamEvery(Cfg.SampleCsv ? Cfg.FlushIntervalNs : 0) {
    try {
      Drainer = std::thread([this] { drainLoop(); });
    } catch (...) { // no thread: the rings are drained at thread end only
    }
  }
  ~SampleSink() override { stopDrainer(); }

  void consume(const ThreadInfo &, const Event *, std::size_t) override {}

  /// Async-signal-safe: the drainer stops before its next drain, and this
  /// waits (up to a second) for the one under way, so that the copy finds
  /// no ring's drain lock held.
  void beforeFork() override {
    Frozen.store(true);
    timespec Start, Now, Pause{0, 1000000};
    ::clock_gettime(CLOCK_MONOTONIC, &Start);
    while (Draining.load()) {
      ::nanosleep(&Pause, nullptr);
      ::clock_gettime(CLOCK_MONOTONIC, &Now);
      if (Now.tv_sec - Start.tv_sec >= 1)
        break;
    }
  }

  void close(FinishContext &) override {
    stopDrainer();
    samples::stopAll();
  }

  void write(FinishContext &C) override { writeFiles(C, false); }

  bool savesOnCrash() const override { return true; }

  /// A crashing run's samples, as at its end (the trace sink saves the
  /// trace first, if there is one).
  void saveOnCrash(FinishContext &C) override {
    stopDrainer();
    samples::stopAll();
    writeFiles(C, true);
  }

  void writeFiles(FinishContext &C, bool Crashed) {
    if (!samples::rate()) // sampling could not start (it said why)
      return;
    if (Crashed && !makeDirectories(C.Cfg.OutputDir).empty())
      return;
    if (samples::handlerReplaced())
      C.Message("warning: ",
                "the program installed a handler of its own for the "
                "sampling signal, " +
                    sampleSignalName(C.Cfg.SampleSignal) +
                    ": the samples after that went to the program; choose "
                    "a signal it does not use with OTTER_SAMPLE_SIGNAL");
    const std::string Dir = C.Cfg.OutputDir;
    const bool Csv = C.Cfg.SampleCsv;
    std::uint64_t N = StreamedRows; // appended while the program ran
    if ((Csv && !appendSamples(Dir + "/samples.csv", !Streamed, N)) ||
        !writeModules(Dir + "/modules.csv") ||
        !writeSettings(Dir + "/sampling.csv", C.Cfg.SampleWall)) {
      C.Message("error: ", "cannot write " + Dir +
                               (Csv ? "/samples.csv: " : "/modules.csv: ") +
                               std::strerror(errno));
      return;
    }
    if (Crashed) {
      if (Csv) // else the trace sink says where they are
        C.Message("", "the program crashed; saved " + std::to_string(N) +
                          " samples in " + Dir + "/samples.csv");
      return;
    }
    if (!Csv) // the archive's (trace_sink.cpp): counted as drained
      for (SampleThread *S : samples::threads())
        N += S->Count;
    C.Wrote = true;
    if (Csv)
      C.Files.push_back("samples.csv");
    C.Unlisted.push_back("modules.csv");
    C.Unlisted.push_back("sampling.csv");
    C.Details +=
        ", " + std::to_string(N) + " samples" + (Csv ? "" : " (in trace/)");
  }

  void report(FinishContext &C) override {
    C.Message("", "sampling: " + std::to_string(samples::rate()) +
                      " Hz, signal " + std::to_string(samples::signal()) +
                      ", " + std::to_string(samples::threads().size()) +
                      " threads sampled, " +
                      std::to_string(samples::dropped()) +
                      " samples dropped (a ring was full)");
  }

private:
  void drainLoop() {
    std::unique_lock<std::mutex> L(M);
    auto NextStream = std::chrono::steady_clock::now() +
                      std::chrono::nanoseconds(StreamEvery);
    while (!Stop) {
      Wake.wait_for(L, DrainPeriod, [this] { return Stop; });
      if (Stop)
        break;
      L.unlock();
      for (SampleThread *S : samples::threads()) {
        // Draining first, then Frozen (beforeFork: Frozen, then Draining),
        // both sequentially consistent: a fork never finds a drain begun
        // after its freeze.
        Draining.store(true);
        if (!Frozen.load())
          try {
            samples::drain(S);
          } catch (...) { // out of memory: the samples wait in the ring
          }
        Draining.store(false);
      }
      if (StreamEvery && std::chrono::steady_clock::now() >= NextStream) {
        stream();
        NextStream = std::chrono::steady_clock::now() +
                     std::chrono::nanoseconds(StreamEvery);
      }
      L.lock();
    }
  }
  /// samples.csv so far, and the files needed to read it. A failure stops
  /// the streaming: the end writes the whole file and says why if it
  /// fails again.
  void stream() {
    Draining.store(true);
    if (!Frozen.load()) {
      const std::string Csv = Dir + "/samples.csv";
      const bool Fresh = !Streamed;
      const bool Appended = appendSamples(Csv, Fresh, StreamedRows);
      // Begun once the file is there (with its header): the end appends.
      Streamed = Streamed || ::access(Csv.c_str(), F_OK) == 0;
      if (!Appended || (Fresh && !writeSettings(Dir + "/sampling.csv", Wall)) ||
          !writeModules(Dir + "/modules.csv"))
        StreamEvery = 0; // what is on disk stays; the end adds the rest
    }
    Draining.store(false);
  }
  void stopDrainer() {
    if (::getpid() != Owner) {
      // A forked copy: the thread is not there (joining it would wait for
      // ever), and it may have held M when the copy was made.
      if (Drainer.joinable())
        Drainer.detach();
      return;
    }
    {
      std::lock_guard<std::mutex> L(M);
      Stop = true;
    }
    Wake.notify_all();
    if (Drainer.joinable())
      Drainer.join();
  }

  const pid_t Owner; // the process that made the drainer
  const std::string Dir;
  const bool Wall;
  // Streaming (drainer only until it is stopped): every StreamEvery ns
  // (0: not), whether samples.csv was begun and its rows so far.
  std::uint64_t StreamEvery;
  bool Streamed = false;
  std::uint64_t StreamedRows = 0;
  std::mutex M;
  std::condition_variable Wake;
  bool Stop = false;
  std::atomic<bool> Frozen{false}, Draining{false};
  std::thread Drainer;
};

} // namespace

std::unique_ptr<RunSink> makeSampleSink(const Config &Cfg, std::string &) {
  return std::make_unique<SampleSink>(Cfg);
}

} // namespace otter
