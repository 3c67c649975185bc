//===- core/session.cpp - One traced run: start, sinks, finish ------------===//
#include "core/session.h"
#include "core/config.h"
#include "core/filter.h"
#include "core/filter_file.h"
#include "core/manifest.h"
#include "core/memory_room.h"
#include "core/recorder.h"
#include "core/samples.h"
#include "core/sinks.h"
#include "core/write_guard.h"
#include "otter/env.h"
#include "otter/printable.h"
#include "sites/site_index.h"
#include "trace/crash.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <exception>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

extern char *program_invocation_short_name; // glibc

namespace otter::session {

namespace {

// Session state lives on the heap and is never destroyed: libomp may call
// ompt_start_tool before this library's static constructors have run, and
// tool finalize after its static destructors have.
struct State {
  Config Cfg;
  const char *RuntimeVersion = "";
  std::vector<std::string> Callbacks; // the registration, for OTTER_VERBOSE
  std::atomic<bool> Finished{false};
  std::atomic<bool> RankNoted{false};
  std::atomic<bool> Exiting{false}; // exit() has begun (our atexit handler)
  std::atomic<bool> Paused{false};  // libomp finalized us before exit
  int WorldSize = 0; // from MPI_Init, else the launcher's environment
  bool Started = false;
  /// The outputs of the run (core/sinks.h), in registry order.
  std::vector<std::unique_ptr<RunSink>> Sinks;
};
State &state() {
  static State *S = new State();
  return *S;
}

/// The program's stdout and stderr go to one file (`prog > log 2>&1`) and
/// its last output did not end a line: the end-of-run lines would be glued
/// to it (`x=99otter: wrote ...`). Start them on a fresh line. MayFlush:
/// this is the program's own process at its end (not a forked copy, whose
/// flush would write the parent's buffered output a second time), so its
/// stdout can be flushed first to keep the file in the order it was written.
void startOnFreshLine(bool MayFlush) {
  struct stat Out, Err;
  if (fstat(STDOUT_FILENO, &Out) != 0 || fstat(STDERR_FILENO, &Err) != 0 ||
      Out.st_dev != Err.st_dev || Out.st_ino != Err.st_ino)
    return;
  char Last = '\n';
  bool Known = false;
  if (MayFlush) {
    // glibc's FILE is public: the byte before the write pointer is the
    // last one the program gave stdio and stdio has not written yet.
    if (stdout->_IO_write_ptr > stdout->_IO_write_base) {
      Last = stdout->_IO_write_ptr[-1];
      Known = true;
    }
    std::fflush(stdout);
  }
  if (!Known && S_ISREG(Out.st_mode)) {
    off_t End = lseek(STDOUT_FILENO, 0, SEEK_CUR);
    Known = End > 0 && pread(STDOUT_FILENO, &Last, 1, End - 1) == 1;
  }
  if (Known && Last != '\n')
    std::fputc('\n', stderr);
}

void message(const char *Level, const std::string &Text) {
  // Text quotes the user's values and paths: printed safely, one line.
  std::fprintf(stderr, "otter: %s%s\n", Level, printable(Text).c_str());
}

FinishContext finishContext() {
  FinishContext C{state().Cfg, state().WorldSize, message, false, {}, {}, {}};
  return C;
}

/// Runs in a child of a crashing process (trace/crash.h): the sinks save
/// what they can (the trace).
/// Before a copy of the process saves the run while other threads run: they
/// stop recording, and no flush is left half done (recorder.h).
void stopWritingBeforeFork() {
  recorder::Active.store(false);
  recorder::freezeFlushes(2000);
  for (auto &S : state().Sinks)
    S->beforeFork();
}

void saveOnCrash() {
  recorder::thawFlushesInChild();
  WriteGuard Guard;
  recorder::Active.store(false, std::memory_order_release);
  // Out of memory in the copy (a crash under ulimit -v): no "terminate
  // called" from it; what was saved stays.
  try {
    recorder::flushAll();
    FinishContext C = finishContext();
    for (auto &S : state().Sinks)
      S->saveOnCrash(C);
  } catch (...) {
  }
}

void finishImpl();

/// A termination signal (SIGTERM, SIGINT, ...) the program leaves at its
/// default: in a forked copy, everything is written as at exit, then the
/// signal ends the program as it would have.
void finishOnSignal() {
  recorder::thawFlushesInChild();
  startOnFreshLine(false);
  const char *Name = sigabbrev_np(trace::signalBeingHandled());
  // In an MPI job rank 0 says it for every rank (each writes its own).
  if (state().Cfg.Rank <= 0 || state().Cfg.Verbose)
    message("", std::string("the program was ended by SIG") +
                    (Name ? Name : "?") + "; writing what was recorded");
  try {
    finishImpl();
  } catch (...) {
  }
}

/// The end of the run: the sinks' steps in the order core/sinks.h gives.
void finishImpl() {
  const Config &Cfg = state().Cfg;
  WriteGuard::checkLimit(); // the program may have set one since start
  WriteGuard Guard;
  std::vector<std::unique_ptr<RunSink>> &Sinks = state().Sinks;
  recorder::Active.store(false, std::memory_order_release);
  recorder::flushAll();
  FinishContext C = finishContext();
  for (auto &S : Sinks)
    S->close(C);
  std::string Dir = Cfg.OutputDir;
  std::string Why = makeDirectories(Dir);
  if (!Why.empty()) {
    message("error: ", "cannot write to output directory '" + Dir + "': " +
                           Why + " (set OTTER_OUTPUT_DIR to a writable "
                                 "directory); nothing was written");
    return;
  }
  for (auto &S : Sinks)
    S->write(C);
  std::vector<std::string> Listed = C.Files;
  Listed.insert(Listed.end(), C.Unlisted.begin(), C.Unlisted.end());
  if (std::string Why; !writeRunManifest(Dir, Listed, Why))
    message("warning: ", "cannot write " + Dir + "/" + ManifestName + ": " +
                             Why + " (the next run into this directory will "
                                   "not remove this run's files)");
  // Nothing written (the errors above said why): no "wrote" line. In an
  // MPI job only rank 0 says it (thousands of ranks would repeat it).
  if (C.Wrote && (Cfg.Rank <= 0 || Cfg.Verbose)) {
    std::string Summary = "wrote " + Dir + "/";
    std::string Files;
    for (const std::string &F : C.Files)
      Files += (Files.empty() ? "" : " ") + F;
    if (!Files.empty())
      Summary += " (" + Files + ")";
    Summary += ": " + std::to_string(recorder::threadCount()) + " threads";
    message("", Summary + C.Details);
  }
  for (auto &S : Sinks)
    S->afterSummary(C);
  if (Cfg.Verbose) {
    std::uint64_t Events = 0;
    for (std::size_t I = 0; I < recorder::threadCount(); ++I)
      if (ThreadState *T = recorder::threadAt(I))
        Events += T->EventsRecorded;
    message("", "recorded " + std::to_string(Events) + " events");
    for (auto &S : Sinks)
      S->report(C);
    SiteIndexStats SI = siteIndexStats();
    message("", "stack walks out of libomp: " + std::to_string(SI.Walks) +
                    ", " + std::to_string(SI.Walks - SI.WalksFound) +
                    " found no instrumented call site");
    recorder::TaskRecordCount TR = recorder::taskRecords();
    message("", "task records: " + std::to_string(TR.Made) + " made, " +
                    std::to_string(TR.InUse) + " still in use at the end");
  }
}

} // namespace

bool started() { return state().Started; }
bool samplingAlone() {
  const Config &C = state().Cfg;
  return C.SampleHz > 0 && !C.Trace && !C.Formats.any();
}

void noteRank(int Rank, int Size) {
  State &St = state();
  if (St.RankNoted.exchange(true))
    return;
  St.WorldSize = Size;
  const Config &Cfg = St.Cfg;
  if (Cfg.Rank >= 0 &&
      (Cfg.Rank != Rank || (Cfg.WorldSize && Cfg.WorldSize != Size)))
    message("warning: ", "MPI_Init says rank " + std::to_string(Rank) + " of " +
                             std::to_string(Size) +
                             ", the launcher's environment said rank " +
                             std::to_string(Cfg.Rank) + " of " +
                             std::to_string(Cfg.WorldSize) + "; writing to " +
                             Cfg.OutputDir);
  else if (Cfg.Rank < 0 && Size > 1 && Rank == 0)
    message("warning: ", "an MPI job of " + std::to_string(Size) +
                             " ranks, but no launcher variable said so at "
                             "start (OMPI_COMM_WORLD_RANK, PMIX_RANK, "
                             "PMI_RANK): ranks may write over each other in " +
                             Cfg.OutputDir + "; run them with otter-run");
}

void noteRuntime(const char *Version) {
  state().RuntimeVersion = Version ? Version : "";
}

void noteCallbacks(std::vector<std::string> Report,
                   const std::vector<std::string> &Warnings) {
  for (const std::string &W : Warnings)
    message("warning: ", W);
  state().Callbacks = std::move(Report);
}

namespace {
void onExit(); // below

/// The run's filter (core/filter_file.h): OTTER_FILTER and the plugin's
/// compile-time filters, installed before any thread records. A bad filter
/// file is a warning; the run goes on unfiltered.
void startFilter(Config &Cfg) {
  SiteFilters SF = siteFilters();
  filter::RunFilter F = filter::readRunFilter(
      Cfg.FilterFile, SF.Texts, SF.Sites, siteIndexStats().Modules > 0,
      [](std::uint64_t Code) {
        return describeCodeAddress(reinterpret_cast<const void *>(Code));
      },
      codeIsFilteredSite);
  for (const std::string &W : F.Warnings)
    message("warning: ", W);
  Cfg.FilterText = F.Text;
  if (!F.R.empty())
    filter::install(std::move(F.R));
  if (Cfg.Verbose && !F.Text.empty())
    message("", "filtered: " + F.Text);
}

/// libomp dlclose()s the tool library when it shuts down before exit
/// (omp_pause_resource(omp_pause_hard)), holding its own lock: unloading
/// would run our atexit handler there, which calls back into libomp and
/// waits on that lock forever, and a runtime that starts again would find
/// our state gone. Keep the library loaded for the life of the process.
void pinThisLibrary() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&pinThisLibrary), &Info) &&
      Info.dli_fname)
    dlopen(Info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}
} // namespace

bool start() {
  State &St = state();
  Config &Cfg = St.Cfg;
  // Started already by another event source (the MPI wrappers, in a
  // program whose OpenMP runtime starts late): one session. Finished: an
  // OpenMP runtime starting during exit gets no tool.
  if (St.Started) {
    St.Paused.store(false); // libomp starting again after a hard pause
    return !St.Finished.load();
  }
  try {
    warnUnknownVariables(environ, [](const std::string &W) {
      message("warning: ", W);
    });
    Cfg = readConfig([](const char *N) { return std::getenv(N); },
                     [](const std::string &W) { message("warning: ", W); },
                     program_invocation_short_name, (long)getpid(),
                     (long)getppid());
    // An output directory that cannot be made or written: one line, and
    // no tracing (every output would fail the same way at the end).
    if (std::string Why = makeDirectories(Cfg.OutputDir); !Why.empty()) {
      message("error: ", "cannot write to output directory '" +
                             Cfg.OutputDir + "': " + Why +
                             " (set OTTER_OUTPUT_DIR to a writable "
                             "directory); not tracing");
      St.Started = true;
      St.Finished.store(true);
      return false;
    }
    // The directory is this run's now: the previous run's files go.
    removePreviousRunFiles(Cfg.OutputDir);
    recorder::initClock();
    WriteGuard::checkLimit();
    memory::checkLimit();
    // Under ulimit -v every thread's buffer is taken from the program's
    // room: a smaller one, unless the user chose (core/memory_room.h).
    if (memory::limited() && !std::getenv(env::BufferEvents))
      Cfg.BufferEvents = memory::LimitedBufferEvents;
    recorder::setBufferEvents(Cfg.BufferEvents);
    // Periodic flushes put the trace on disk: nothing to do without one.
    recorder::setFlushInterval(Cfg.Trace ? Cfg.FlushIntervalNs : 0);
    samples::configure(Cfg.SampleHz, Cfg.SampleWall,
                       sampleSignalNumber(Cfg.SampleSignal));
    initSiteIndex(SiteIndexOptions{Cfg.Symbolize, Cfg.Symbolizer});
    startFilter(Cfg);
    std::vector<EventSink *> Consumers;
    bool SaveOnCrash = false;
    for (const SinkSpec &Spec : sinkRegistry()) {
      if (!Spec.Wanted(Cfg))
        continue;
      std::string Why;
      if (std::unique_ptr<RunSink> S = Spec.Make(Cfg, Why)) {
        Consumers.push_back(S.get());
        SaveOnCrash |= S->savesOnCrash();
        St.Sinks.push_back(std::move(S));
      } else if (!Why.empty()) {
        message("error: ", Why);
      }
    }
    recorder::setSinks(Consumers.data(), Consumers.size());
    if (Cfg.StartPaused) // until omp_control_tool(omp_control_tool_start)
      filter::setPaused(true);
    if (SaveOnCrash)
      trace::installCrashHandlers(saveOnCrash);
    trace::installTerminationHandlers(finishOnSignal, 600);
    // An MPI rank: mpirun ends the other ranks' process groups once the
    // first has ended; each rank's writing must survive that.
    trace::setTerminationWriterDetached(Cfg.Rank >= 0);
    trace::setBeforeFork(stopWritingBeforeFork);
    // A child made by fork() shares the parent's output directory: it must
    // not record, nor write over the parent's files when it exits.
    pthread_atfork(nullptr, nullptr, [] {
      recorder::Active.store(false, std::memory_order_relaxed);
      state().Finished.store(true);
    });
    St.Started = true;
    pinThisLibrary();
    std::atexit(onExit);
    return true;
  } catch (...) {
    message("error: ", "could not start (out of memory?); not tracing");
    return false;
  }
}

namespace {
/// exit() while threads may still run (e.g. called inside a parallel
/// region: libomp then never calls the tool's finalize). Finish in a forked
/// copy of the process, where no other thread can touch the buffers.
void finishInChild() {
  recorder::thawFlushesInChild();
  startOnFreshLine(false);
  try {
    finishImpl();
  } catch (...) {
  }
}
void onExit() {
  State &St = state();
  St.Exiting.store(true);
  // libomp already finalized us (a hard pause it never came back from, or
  // it was unloaded): no thread of it runs, and asking it anything now
  // would start it again. Finish here.
  if (St.Paused.load()) {
    message("warning: ",
            "the OpenMP runtime shut its tool interface down before exit "
            "(omp_pause_resource with omp_pause_hard?) and libomp never "
            "starts it again: OpenMP events after that point were not "
            "recorded; everything before it is written");
    finish();
    return;
  }
  // A normal exit (main returns, or exit() outside any parallel region):
  // libomp calls the tool's finalize after this handler, once its threads
  // have delivered their last events; finishing here would race with them.
  using InParallelFn = int (*)();
  static auto InParallel = reinterpret_cast<InParallelFn>(
      dlsym(RTLD_DEFAULT, "omp_in_parallel"));
  if (InParallel && !InParallel())
    return;
  if (!St.Started || St.Finished.exchange(true))
    return;
  // The deadline only guards against a deadlock in the copy (a lock held by
  // a thread that does not exist there); building a large graph takes time.
  stopWritingBeforeFork();
  trace::runInChild(finishInChild, 600);
}
} // namespace

namespace {
/// Whether the calling thread is in an active parallel region (other
/// threads may be recording), asked of the OpenMP runtime.
bool inActiveParallel() {
  using InParallelFn = int (*)();
  static auto InParallel =
      reinterpret_cast<InParallelFn>(dlsym(RTLD_DEFAULT, "omp_in_parallel"));
  return InParallel && InParallel();
}
} // namespace

void flushNow() {
  State &St = state();
  if (!St.Started || St.Finished.load())
    return;
  try {
    WriteGuard Guard;
    // Outside an active parallel region libomp's other threads wait for
    // work: their buffers can be flushed from here.
    bool Every = !inActiveParallel();
    ThreadState *T = recorder::thisThread();
    if (Every)
      recorder::flushAll();
    else if (T)
      recorder::flush(T);
    for (auto &S : St.Sinks)
      S->flushNow(T ? T->Index : 0, Every);
  } catch (...) {
  }
}

void endNow() {
  if (!inActiveParallel()) {
    finish();
    return;
  }
  finishNow();
}

void finishNow() {
  State &St = state();
  if (!St.Started || St.Finished.exchange(true))
    return;
  stopWritingBeforeFork();
  trace::runInChild(finishInChild, 600);
}

void runtimeFinalized() {
  State &St = state();
  if (St.Exiting.load() || !St.Started || St.Finished.load()) {
    finish();
    return;
  }
  // Before exit: libomp has joined its threads (their thread_end flushed
  // them); what the initial thread holds goes to the sinks now, so nothing
  // is lost if the process never returns to libomp.
  St.Paused.store(true);
  recorder::flushAll();
  if (St.Cfg.Verbose)
    message("", "the OpenMP runtime shut down before exit (omp_pause_"
                "resource?); tracing continues if it starts again");
}

// Called after callbacks are registered (Callbacks is complete) by finish()
// and start(); verbose details are printed once, at the end.
void finish() {
  State &St = state();
  if (!St.Started || St.Finished.exchange(true))
    return;
  startOnFreshLine(true);
  if (St.Cfg.Verbose) {
    message("", std::string("runtime: ") + St.RuntimeVersion);
    for (const std::string &L : St.Callbacks)
      message("", L);
  }
  trace::setEndWriting(true);
  try {
    finishImpl();
  } catch (...) {
    message("error: ", "failed while writing output (out of memory?)");
  }
  trace::setEndWriting(false); // delivers a termination signal held meanwhile
}

} // namespace otter::session
