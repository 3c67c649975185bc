/*===- otter/source.h - Event sources outside OMPT: libotter.so's C API ---===*
 *
 * The small internal interface through which an event source other than the
 * OMPT adapter -- today the MPI wrapper library lib/libotter-mpi.so
 * (runtime/mpi/) -- records into the same per-thread buffers, with the same
 * clock, as the OpenMP events, each event attributed to the task that the
 * calling thread executes (so MPI calls made inside OpenMP tasks on several
 * threads land in the right task's sequence). libotter.so exports these
 * functions; it does not depend on the source (libotter.so never links MPI):
 * the source library links libotter.so.
 *
 * Same discipline as the OMPT callbacks: no lock, no allocation in the common
 * case; a full buffer is flushed to the sinks by the thread that fills it.
 *
 * Internal: the ABI may change with any OTTER version. A source checks
 * otter_source_version() == OTTER_SOURCE_VERSION once, when it starts.
 *
 *===----------------------------------------------------------------------===*/
#ifndef OTTER_SOURCE_H
#define OTTER_SOURCE_H

#ifdef __cplusplus
#include <cstdint>
namespace otter {
struct Event;
}
typedef otter::Event otter_event;
extern "C" {
#else
#include <stdint.h>
typedef struct otter_event otter_event; /* otter::Event (otter/events.h) */
#endif

#define OTTER_SOURCE_VERSION 4

#if defined(__GNUC__)
#define OTTER_SOURCE_API __attribute__((visibility("default")))
#else
#define OTTER_SOURCE_API
#endif

/* Who records: the calling thread's state and the task it executes (NULL
 * when it executes none, e.g. a thread OpenMP does not know). Valid for the
 * calling thread only, until the task reaches a task scheduling point. */
typedef struct otter_source_context {
  void *thread;
  void *task;
} otter_source_context;

OTTER_SOURCE_API int otter_source_version(void);

/* Starts recording when no OpenMP runtime started the tool (a program that
 * uses MPI but no OpenMP, or was started without OMP_TOOL_LIBRARIES).
 * Idempotent and thread-safe. Returns 1 when events are being recorded. */
OTTER_SOURCE_API int otter_source_start(void);

/* Fills *ctx for the calling thread; 0 when nothing is recorded (tracing
 * off, not started, or already finished): then record nothing. */
OTTER_SOURCE_API int otter_source_context_get(otter_source_context *ctx);

/* Appends one event for ctx: its kind and payload from *payload (Kind, A,
 * Code, Aux, Sub, Extra); time, task and sequence number are filled in here
 * (the event takes the task's next number). */
OTTER_SOURCE_API void otter_source_record(const otter_source_context *ctx,
                                          const otter_event *payload);

/* The id of a string in the run's name table (the trace's OTTER::NAMES,
 * the name fields of events), adding it if new; 0 when name is NULL or the
 * table is full. Takes a lock: for rare calls only (a communicator's name),
 * never a hot path. */
OTTER_SOURCE_API uint32_t otter_source_name(const char *name);

/* The process's rank and the job's size in MPI_COMM_WORLD, as MPI_Init
 * reported them. The output directory was chosen from the launcher's
 * environment at start; a disagreement is reported once. */
OTTER_SOURCE_API void otter_source_set_rank(int rank, int size);

/* The process is about to end without returning (the source calls it
 * before MPI_Abort): writes everything recorded so far -- trace and graph --
 * as at exit, from a forked copy of the process so that threads still
 * running cannot disturb it. Later events are not recorded. */
OTTER_SOURCE_API void otter_source_finish_now(void);

/* How far the trace's clock is from this host's CLOCK_MONOTONIC now:
 * CLOCK_MONOTONIC minus the trace's time (ns), and the trace's time of the
 * sample in *trace_ns. The trace's clock is the time-stamp counter scaled
 * by a calibration over ~2 ms at start, so it drifts from CLOCK_MONOTONIC
 * by up to a few us/s, differently in every process: sampled at MPI_Init
 * and MPI_Finalize, the two errors put every rank of a host on its
 * CLOCK_MONOTONIC by linear interpolation (docs/mpi.md, "Clocks"). */
OTTER_SOURCE_API int64_t otter_source_clock_error(uint64_t *trace_ns);

/* The calling thread's resume point for the sampling handler's unwind
 * (OTTER_SAMPLE), NULL when the thread is not sampled: slot[1] an address
 * inside the source's entry function plus one (it names the function in a
 * sample's path), then slot[0] that function's frame (its frame pointer:
 * word 0 the caller's frame, word 1 the return address into the caller).
 * Set on entry, slot[0] cleared (0) on return; the handler runs on the same
 * thread, so plain stores in that order suffice. Where the frame chain
 * breaks inside the library the source calls (code without frame
 * pointers), the unwind goes on at slot[0] (docs/sampling.md, "MPI calls").
 * The slot stays valid for the whole run. Lock-free, one thread-local load:
 * for every call. */
OTTER_SOURCE_API volatile uintptr_t *otter_source_sample_resume(void);

#ifdef __cplusplus
}
#endif

#endif /* OTTER_SOURCE_H */
