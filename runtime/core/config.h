//===- core/config.h - Runtime settings from the environment ------*- C++ -*-===//
//
// Parses OTTER_* variables once at tool start. An invalid value never stops
// the program: it gets a one-line warning naming the variable and the
// allowed values, and the default is used.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_CONFIG_H
#define OTTER_CORE_CONFIG_H

#include "graph/outputs.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace otter {

/// OTTER_SAMPLE's largest rate, and OTTER_SAMPLE_SIGNAL's largest N (glibc
/// on Linux: SIGRTMIN 34 .. SIGRTMAX 64; the sampler checks the signal
/// exists at start).
inline constexpr long MaxSampleHz = 100000;
inline constexpr long MaxSampleSignal = 30;
/// Config::SampleSignal for SIGURG, the default: its default action is to
/// ignore it, so a tick still pending when the program calls exec (kernels
/// before 6.13 keep a deleted timer's queued signal) or arriving while
/// the handler is gone cannot kill the program; a real-time signal's
/// would. Debuggers pass it silently too (gdb stops at real-time ones).
inline constexpr int SampleSignalUrgent = -1;
/// The signal number of a Config::SampleSignal, and its name
/// ("SIGURG", "SIGRTMIN+4").
int sampleSignalNumber(int Setting);
std::string sampleSignalName(int Setting);

/// OTTER_FLUSH_INTERVAL's default and largest value, in ns.
inline constexpr std::uint64_t DefaultFlushIntervalNs = 5000000000ull;
inline constexpr std::uint64_t MaxFlushIntervalNs = 86400000000000ull;

struct Config {
  std::string OutputDir; // resolved: default filled in; rank-<N>/ of an MPI job
  /// MPI job (a rank variable was set; env.h): the job's directory, which
  /// OutputDir is inside, and the rank and size the launcher gave.
  std::string JobDir;
  int Rank = -1;
  int WorldSize = 0;
  GraphFormats Formats;
  bool Trace = true;
  bool Verbose = false;
  std::size_t BufferEvents = 16384;
  /// OTTER_SYMBOLIZE / OTTER_SYMBOLIZER: approximate labels get file:line
  /// from debug info by running Symbolizer (site_index.h).
  bool Symbolize = false;
  std::string Symbolizer = "llvm-symbolizer-19";
  /// OTTER_FILTER: the filter file to read at start (core/filter_file.h);
  /// empty: none.
  std::string FilterFile;
  /// What the run filters, one line ("" : nothing): not read from the
  /// environment but set by the session at start (core/filter_file.h), for
  /// the outputs to say.
  std::string FilterText;
  /// OTTER_START=paused: recording starts paused (omp_control_tool).
  bool StartPaused = false;
  /// OTTER_MAX_TRACE_SIZE in bytes (0: no limit), if set; else the
  /// default, defaultMaxTraceBytes() of the trace's directory.
  bool MaxTraceSet = false;
  std::uint64_t MaxTraceBytes = 0;
  /// OTTER_FLUSH_INTERVAL in ns: a thread's next event after this long
  /// since its last periodic flush puts its events on disk (0: never;
  /// core/recorder.h).
  std::uint64_t FlushIntervalNs = DefaultFlushIntervalNs;
  /// OTTER_SAMPLE: samples per second per thread (0: no sampling), the
  /// clock they count (OTTER_SAMPLE_CLOCK) and the signal
  /// (OTTER_SAMPLE_SIGNAL): SampleSignalUrgent, or N for SIGRTMIN+N;
  /// ompt/sampler.h.
  unsigned SampleHz = 0;
  bool SampleWall = false;
  int SampleSignal = SampleSignalUrgent;
  /// OTTER_SAMPLE_CSV: the samples in samples.csv as well as in the OTF2
  /// archive (a samples-only one with OTTER_TRACE=0).
  bool SampleCsv = true;
};

/// Reads the configuration. `Getenv` is injectable for tests; `Warn`
/// receives each one-line warning (without trailing newline).
Config readConfig(const std::function<const char *(const char *)> &Getenv,
                  const std::function<void(const std::string &)> &Warn,
                  const std::string &ProgramName, long Pid, long ParentPid = 0);

/// The job's directory name part made from a launcher's job id: anything
/// but letters, digits, '.', '_' and '-' becomes '_'.
std::string sanitizeJobId(const std::string &Id);

/// One warning for each OTTER_* variable of \p Environment ("NAME=value"
/// strings, null-terminated: environ) that no part of OTTER reads (a typo
/// such as OTTER_OUTPUTDIR), naming the nearest variable it knows.
void warnUnknownVariables(char *const *Environment,
                          const std::function<void(const std::string &)> &Warn);

/// OTTER_MAX_TRACE_SIZE's default for a trace written into Dir (which
/// exists): the smaller of MaxTraceFixedBytes and half the free space of
/// its file system now (the fixed size when that cannot be measured).
inline constexpr std::uint64_t MaxTraceFixedBytes = 10ull << 30;
std::uint64_t defaultMaxTraceBytes(const std::string &Dir);
/// Parses a size: a whole number of bytes with an optional K, M, G or T
/// suffix (powers of 1024). False if Text is not one.
bool parseSize(const std::string &Text, std::uint64_t &Out);
/// Parses a duration in seconds, a decimal number ("5", "0.5"; no sign, no
/// exponent) up to MaxFlushIntervalNs, into ns (digits past the nanosecond
/// are ignored). False if Text is not one.
bool parseSeconds(const std::string &Text, std::uint64_t &Ns);
/// Parses a boolean setting ("0/1/true/false/yes/no/on/off"); returns false
/// if Text is not one of them.
bool parseBool(const std::string &Text, bool &Out);

} // namespace otter

#endif // OTTER_CORE_CONFIG_H
