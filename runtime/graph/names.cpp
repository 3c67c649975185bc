//===- graph/names.cpp - Names of event, node, edge kinds and flags ------===//
//
// The spellings used in every output file and in the docs. Changing one is a
// format change: update docs/graph.md and the tests.
//
//===----------------------------------------------------------------------===//
#include "graph/graph.h"
#include "otter/events.h"
#include "otter/mpi.h"

namespace otter {

const char *eventKindName(EventKind K) {
  switch (K) {
  case EventKind::None: return "none";
  case EventKind::ThreadBegin: return "thread_begin";
  case EventKind::ThreadEnd: return "thread_end";
  case EventKind::ParallelBegin: return "parallel_begin";
  case EventKind::ParallelEnd: return "parallel_end";
  case EventKind::ImplicitTaskBegin: return "implicit_task_begin";
  case EventKind::ImplicitTaskEnd: return "implicit_task_end";
  case EventKind::TaskCreate: return "task_create";
  case EventKind::TaskDependence: return "task_dependence";
  case EventKind::TaskSchedule: return "task_schedule";
  case EventKind::SyncBegin: return "sync_begin";
  case EventKind::SyncEnd: return "sync_end";
  case EventKind::SyncWaitBegin: return "sync_wait_begin";
  case EventKind::SyncWaitEnd: return "sync_wait_end";
  case EventKind::WorkBegin: return "work_begin";
  case EventKind::WorkEnd: return "work_end";
  case EventKind::MaskedBegin: return "masked_begin";
  case EventKind::MaskedEnd: return "masked_end";
  case EventKind::MutexAcquire: return "mutex_acquire";
  case EventKind::MutexAcquired: return "mutex_acquired";
  case EventKind::MutexReleased: return "mutex_released";
  case EventKind::NestLockBegin: return "nest_lock_begin";
  case EventKind::NestLockEnd: return "nest_lock_end";
  case EventKind::Cancel: return "cancel";
  case EventKind::TaskDependencePair: return "task_dependence_pair";
  case EventKind::Dispatch: return "dispatch";
  case EventKind::Flush: return "flush";
  case EventKind::MpiCallBegin:
    return "mpi_call_begin";
  case EventKind::MpiCallEnd:
    return "mpi_call_end";
  case EventKind::MpiSend:
    return "mpi_send";
  case EventKind::MpiIsend:
    return "mpi_isend";
  case EventKind::MpiIsendComplete:
    return "mpi_isend_complete";
  case EventKind::MpiIrecvRequest:
    return "mpi_irecv_request";
  case EventKind::MpiRecv:
    return "mpi_recv";
  case EventKind::MpiIrecv:
    return "mpi_irecv";
  case EventKind::MpiRequestTest:
    return "mpi_request_test";
  case EventKind::MpiRequestCancelled:
    return "mpi_request_cancelled";
  case EventKind::MpiCollectiveBegin:
    return "mpi_collective_begin";
  case EventKind::MpiCollectiveEnd:
    return "mpi_collective_end";
  case EventKind::MpiCommCreate:
    return "mpi_comm_create";
  case EventKind::MpiCommMembers:
    return "mpi_comm_members";
  case EventKind::MpiCommFree:
    return "mpi_comm_free";
  case EventKind::MpiInit:
    return "mpi_init";
  case EventKind::MpiClockOffset:
    return "mpi_clock_offset";
  }
  return "unknown";
}

const char *labelQualityName(LabelQuality Q) {
  switch (Q) {
  case LabelQuality::Exact: return "exact";
  case LabelQuality::Fallback: return "fallback";
  case LabelQuality::Approximate: return "approximate";
  case LabelQuality::Unknown: return "unknown";
  }
  return "unknown";
}

const char *nodeKindName(NodeKind K) {
  switch (K) {
  case NodeKind::InitialTask: return "initial_task";
  case NodeKind::ImplicitTask: return "implicit_task";
  case NodeKind::Task: return "task";
  case NodeKind::ParallelBegin: return "parallel_begin";
  case NodeKind::ParallelEnd: return "parallel_end";
  case NodeKind::LoopBegin: return "loop_begin";
  case NodeKind::LoopEnd: return "loop_end";
  case NodeKind::SectionsBegin: return "sections_begin";
  case NodeKind::SectionsEnd: return "sections_end";
  case NodeKind::SingleBegin: return "single_begin";
  case NodeKind::SingleEnd: return "single_end";
  case NodeKind::MaskedBegin: return "masked_begin";
  case NodeKind::MaskedEnd: return "masked_end";
  case NodeKind::TaskloopBegin: return "taskloop_begin";
  case NodeKind::TaskloopEnd: return "taskloop_end";
  case NodeKind::TaskgroupBegin: return "taskgroup_begin";
  case NodeKind::TaskgroupEnd: return "taskgroup_end";
  case NodeKind::Taskwait: return "taskwait";
  case NodeKind::Barrier: return "barrier";
  case NodeKind::BarrierImplicit: return "barrier_implicit";
  case NodeKind::CriticalBegin: return "critical_begin";
  case NodeKind::CriticalEnd: return "critical_end";
  case NodeKind::LockBegin: return "lock_begin";
  case NodeKind::LockEnd: return "lock_end";
  case NodeKind::NestLockBegin: return "nest_lock_begin";
  case NodeKind::NestLockEnd: return "nest_lock_end";
  case NodeKind::OrderedBegin: return "ordered_begin";
  case NodeKind::OrderedEnd: return "ordered_end";
  case NodeKind::Cancel: return "cancel";
  case NodeKind::WorkshareBegin: return "workshare_begin";
  case NodeKind::WorkshareEnd: return "workshare_end";
  case NodeKind::MpiCall:
    return "mpi";
  case NodeKind::Count: break;
  }
  return "unknown";
}

const char *edgeKindName(EdgeKind K) {
  switch (K) {
  case EdgeKind::Create: return "create";
  case EdgeKind::Sync: return "sync";
  case EdgeKind::Dependence: return "dependence";
  case EdgeKind::Scope: return "scope";
  case EdgeKind::Count: break;
  }
  return "unknown";
}

std::string taskFlagsText(std::uint32_t Flags) {
  std::string S;
  auto add = [&](std::uint32_t Bit, const char *Name) {
    if (Flags & Bit) {
      if (!S.empty())
        S += '|';
      S += Name;
    }
  };
  add(TaskUntied, "untied");
  add(TaskUndeferred, "undeferred");
  add(TaskFinal, "final");
  add(TaskMergeable, "mergeable");
  add(TaskIncluded, "included");
  add(TaskHasDependences, "has_dependences");
  return S;
}

std::string nodeFlagsText(const Node &N) {
  if (N.Kind == NodeKind::MpiCall)
    return mpi::functionName(mpi::Function(N.Flags));
  std::string S;
  auto add = [&](const char *F) {
    if (!S.empty())
      S += '|';
    S += F;
  };
  if (N.Flags & NodeSingleExecutor)
    add("executor");
  if (N.Flags & NodeCancelParallel)
    add("parallel");
  if (N.Flags & NodeCancelSections)
    add("sections");
  if (N.Flags & NodeCancelLoop)
    add("loop");
  if (N.Flags & NodeCancelTaskgroup)
    add("taskgroup");
  return S;
}

} // namespace otter
