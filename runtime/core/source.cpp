//===- core/source.cpp - libotter.so's API for other event sources --------===//
//
// Implements include/otter/source.h: how the MPI wrapper library (or any
// other source outside OMPT) records into the calling thread's buffer, with
// its events attributed to the task the thread executes. Compiled into
// libotter.so itself (not a static library: those are hidden by
// --exclude-libs), and the only functions it exports besides
// ompt_start_tool.
//
//===----------------------------------------------------------------------===//
#include "otter/source.h"
#include "core/filter.h"
#include "core/names.h"
#include "core/recorder.h"
#include "core/samples.h"
#include "core/session.h"
#include "ompt/sampler.h"
#include "ompt/tool.h"
#include "otter/events.h"

#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace otter;

namespace {
// Without an OpenMP runtime there are no tasks: the thread that started
// recording gets an initial task of its own, so that the MPI calls of a
// program without OpenMP still form a graph. Other threads record with no
// task.
TaskState SourceInitialTask;
std::atomic<ThreadState *> SourceInitialThread{nullptr};

void makeInitialTask(ThreadState *T) {
  SourceInitialTask.Id = recorder::newId(T);
  SourceInitialTask.Seq = 0;
  SourceInitialTask.Flags = TaskInitial;
  Event &E = recorder::append(T);
  E = Event::implicitTaskBegin(E.Time, SourceInitialTask.Id, 0, 1, 0,
                               TaskInitial); // a team of one
  E.Seq = SourceInitialTask.Seq++;
  SourceInitialThread.store(T, std::memory_order_release);
}
} // namespace

extern "C" {

int otter_source_version(void) { return OTTER_SOURCE_VERSION; }

int otter_source_start(void) {
  static std::mutex M;
  std::lock_guard<std::mutex> L(M);
  if (!session::started()) {
    // An OpenMP runtime that has not initialised yet (it does so at the
    // program's first OpenMP call): initialise it now, so that the tool
    // starts through OMPT and MPI calls belong to the initial task. The
    // program would initialise it anyway; it makes no threads.
    using MaxThreadsFn = int (*)();
    if (auto F = reinterpret_cast<MaxThreadsFn>(
            dlsym(RTLD_DEFAULT, "omp_get_max_threads")))
      (void)F();
  }
  if (!session::started()) {
    // No OpenMP runtime started the tool (libomp starts it before main
    // when there is one): a program with MPI and no OpenMP.
    if (!session::start())
      return 0;
    recorder::Active.store(true, std::memory_order_release);
    if (ThreadState *T = recorder::thisThread())
      makeInitialTask(T);
    // Without libomp nobody calls the tool's finalize: finish at exit,
    // before the session's own exit handler (atexit runs in reverse).
    std::atexit([] { session::finish(); });
  }
  if (!recorder::Active.load(std::memory_order_acquire))
    return 0;
  return recorder::thisThread() != nullptr;
}

uint32_t otter_source_name(const char *Name) { return names::intern(Name); }

int otter_source_context_get(otter_source_context *Ctx) {
  if (!recorder::Active.load(std::memory_order_relaxed)) [[unlikely]]
    return 0;
  ThreadState *T = recorder::thisThread();
  if (!T) [[unlikely]]
    return 0;
  Ctx->thread = T;
  Ctx->task = ompt::currentTaskOfThread();
  if (!Ctx->task && T == SourceInitialThread.load(std::memory_order_relaxed))
      [[unlikely]]
    Ctx->task = &SourceInitialTask;
  return 1;
}

void otter_source_record(const otter_source_context *Ctx,
                         const otter_event *Payload) {
  if (!recorder::Active.load(std::memory_order_relaxed)) [[unlikely]]
    return;
  // The filter stage (core/filter.h), as for the OMPT events.
  if (filter::engaged() &&
      !filter::admit(Payload->Kind, Payload->Sub, Payload->Code)) [[unlikely]]
    return;
  auto *T = static_cast<ThreadState *>(Ctx->thread);
  auto *S = static_cast<TaskState *>(Ctx->task);
  Event &E = recorder::append(T);
  E.Kind = Payload->Kind;
  E.Task = S ? S->Id : 0;
  E.Seq = S ? S->Seq++ : 0;
  E.A = Payload->A;
  E.Code = Payload->Code;
  E.Aux = Payload->Aux;
  E.Sub = Payload->Sub;
  E.Extra = Payload->Extra;
}

void otter_source_set_rank(int Rank, int Size) {
  session::noteRank(Rank, Size);
}

volatile uintptr_t *otter_source_sample_resume(void) {
  SampleThread *S = ompt::sampler::currentThread();
  return S ? S->Resume : nullptr;
}

int64_t otter_source_clock_error(uint64_t *TraceNs) {
  return recorder::clockError(*TraceNs);
}

void otter_source_finish_now(void) {
  recorder::Active.store(false, std::memory_order_release);
  session::finishNow();
}

} // extern "C"
