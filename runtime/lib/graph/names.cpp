//===- graph/names.cpp - Names of node and edge kinds, labels and flags -===//
//
// The spellings used in every output file and in the docs (event kinds
// are named by their row in otter/event_kinds.def). Changing one is a
// format change: update docs/graph.md and the tests.
//
//===----------------------------------------------------------------------===//
#include "graph/graph.h"
#include "otter/events.h"
#include "otter/mpi.h"

#include <stdexcept>
#include <string>

namespace otter {

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
  case NodeKind::Pause: return "pause";
  case NodeKind::Resume: return "resume";
  case NodeKind::PhaseBegin: return "phase_begin";
  case NodeKind::PhaseEnd: return "phase_end";
  case NodeKind::Mark: return "mark";
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
  if (N.Flags & NodeReacquire)
    add("reacquire");
  return S;
}

// The graph's size limits (graph.h): one line each, as the runtime and
// otter-graph print them after "building the graph failed: ".
void throwNodeLimit() {
  throw std::length_error("more than 1,073,741,824 nodes, the graph's limit "
                          "(docs/graph.md, \"Limits\")");
}

void throwThreadLimit(std::uint32_t Thread) {
  throw std::length_error("thread number " + std::to_string(Thread) +
                          " is past 65,534, the graph's limit "
                          "(docs/graph.md, \"Limits\")");
}

} // namespace otter
