//===- otter/env.h - OTTER's environment variables ----------------*- C++ -*-===//
//
// Every environment variable the runtime reads, in one place, with its
// allowed values and default. README.md ("Tracing your own program")
// documents the same table for users; runtime/core/config.cpp reads them.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_ENV_H
#define OTTER_ENV_H

namespace otter::env {

/// Directory for all output. Default: ./otter-<program>-<pid>
inline constexpr const char *OutputDir = "OTTER_OUTPUT_DIR";
/// Comma list of graph files to write: dot, csv, canon (graph.txt), all, none.
/// Default: dot,csv
inline constexpr const char *GraphFormat = "OTTER_GRAPH_FORMAT";
/// graph.gv above this many nodes is the aggregated graph (one node per
/// construct); 0: always the full graph. Default: 5000
inline constexpr const char *DotMaxNodes = "OTTER_DOT_MAX_NODES";
/// nodes.csv (and mpi.csv) of a graph of more nodes is written
/// zstd-compressed (nodes.csv.zst); 0: never. Default: 1000000
inline constexpr const char *CsvZstdNodes = "OTTER_CSV_ZSTD_NODES";
/// graph.csv of a graph of more nodes is written zstd-compressed
/// (graph.csv.zst); 0: never. Default: 0
inline constexpr const char *CsvZstdEdges = "OTTER_CSV_ZSTD_EDGES";
/// 1 to write the OTF2 trace into <output>/trace, 0 not to. Default: 1
inline constexpr const char *Trace = "OTTER_TRACE";
/// 1 for a report of callbacks, label resolution and timings on stderr.
inline constexpr const char *Verbose = "OTTER_VERBOSE";
/// Events per thread buffer before it is flushed (1024 .. 16777216).
/// Default: 16384
inline constexpr const char *BufferEvents = "OTTER_BUFFER_EVENTS";

/// The trace's size limit in bytes, with an optional K, M, G or T suffix
/// (powers of 1024); 0: no limit. Past it recording stops (docs/trace.md).
/// Default: the smaller of 10 GiB and half the free space of the output
/// directory's file system at start.
inline constexpr const char *MaxTraceSize = "OTTER_MAX_TRACE_SIZE";
/// Seconds (a decimal number) after which a thread's next event puts its
/// events so far on disk, so that a process killed by SIGKILL keeps all but
/// its last seconds (docs/trace.md); 0: only full buffers and the end.
/// Default: 5
inline constexpr const char *FlushInterval = "OTTER_FLUSH_INTERVAL";

/// 1: approximate labels get file:line from debug info (llvm-symbolizer),
/// 0 not to. Default: 0
inline constexpr const char *Symbolize = "OTTER_SYMBOLIZE";
/// The symbolizer to run for OTTER_SYMBOLIZE (default llvm-symbolizer-19).
inline constexpr const char *Symbolizer = "OTTER_SYMBOLIZER";

/// A filter file (docs/filter.md): what not to record. Default: none.
inline constexpr const char *Filter = "OTTER_FILTER";

/// "paused": the run starts with recording paused, until the program calls
/// omp_control_tool(omp_control_tool_start, ...); "recording" (default).
inline constexpr const char *Start = "OTTER_START";

/// Sampling (docs/sampling.md): samples per second per thread; 0 (the
/// default) or unset: no sampling.
inline constexpr const char *Sample = "OTTER_SAMPLE";
/// The clock sampling counts: "cpu" (the thread's CPU time, the default)
/// or "wall" (elapsed time: sleeping and blocked threads are sampled too).
inline constexpr const char *SampleClock = "OTTER_SAMPLE_CLOCK";
/// The signal the sampling timers send: "urg" (SIGURG, the default) or N
/// for the real-time signal SIGRTMIN+N (0 .. the last real-time signal).
inline constexpr const char *SampleSignal = "OTTER_SAMPLE_SIGNAL";
/// Whether the samples are written to samples.csv too (1, the default) or
/// only into the OTF2 archive (0): docs/sampling.md.
inline constexpr const char *SampleCsv = "OTTER_SAMPLE_CSV";

/// MPI clock offsets (runtime/mpi/clock_sync.h): 1 always measure, 0 never;
/// default: only when ranks run on more than one host.
inline constexpr const char *MpiClockSync = "OTTER_MPI_CLOCK_SYNC";

/// Every OTTER_* variable that OTTER's own programs and scripts read: the
/// runtime's above, the compiler wrappers' (utils/wrappers/otter-clang.in)
/// and the build and test scripts' (scripts/). Any other OTTER_* variable in
/// a traced program's environment is a typo the run warns about once.
inline constexpr const char *RuntimeVariables[] = {
    OutputDir, GraphFormat, DotMaxNodes, CsvZstdNodes, CsvZstdEdges,
    Trace,     Verbose,     BufferEvents, Symbolize,  Symbolizer,
    Filter,    Start,       MpiClockSync, MaxTraceSize, Sample,
    SampleClock, SampleSignal, SampleCsv, FlushInterval};
inline constexpr const char *ToolVariables[] = {
    "OTTER_CC",           "OTTER_CXX",           "OTTER_PLUGIN",
    "OTTER_PLUGIN_ARGS",  "OTTER_BUILD_DIR",     "OTTER_SKIP_APT",
    "OTTER_TEST_SANITIZERS", "OTTER_ASAN_BUILD_DIR", "OTTER_TSAN_BUILD_DIR",
    "OTTER_FUZZ_BUILD_DIR", "OTTER_FUZZ_SECONDS",  "OTTER_TEST_DISK_BYTES",
    "OTTER_RUN_CHECK"};

/// The process's rank in an MPI job, from the launcher (first one set).
/// With a rank, everything of the process goes to <output>/rank-<N>/ and
/// the default output directory is named after the job, not the process.
inline constexpr const char *RankVariables[] = {
    "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
/// The job's number of ranks, from the launcher (first one set).
inline constexpr const char *SizeVariables[] = {"OMPI_COMM_WORLD_SIZE",
                                                "PMI_SIZE", "SLURM_NTASKS"};
/// An id shared by every rank of the job (first one set; else the parent
/// process id, which all ranks on one host share under mpirun).
inline constexpr const char *JobIdVariables[] = {
    "OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE", "SLURM_JOB_ID"};

} // namespace otter::env

#endif // OTTER_ENV_H
