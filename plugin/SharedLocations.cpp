//===- plugin/SharedLocations.cpp - Directives sharing one location -------===//
//
// At -O0 without line tables (TUState::LateLocations with ResetIdents), the
// site pass places clang's __kmpc_* calls by the ";file;func;line;col;;"
// string of their ident_t, and then gives every ident_t clang's default back.
// Clang makes those strings and ident_t globals through OpenMPIRBuilder,
// which scans every global of the module for each new one: quadratic in the
// number of distinct locations, and the larger part of the plugin's -O0
// compile time (docs/performance-notes.md, "Where the -O0 excess is").
//
// So, before code generation, the directives of one function are put into
// groups whose members can never call an entry point of the same family
// (fork, barrier, loop, single, ...), and every member of a group is moved
// to the group's first location: one string per group instead of one per
// directive. The pass then tells a call at a group's location apart by its
// callee's family, of which exactly one member can make calls.
//
// The families each directive kind may call at its own location, with each
// clause it may carry, are listed here; a directive of any other kind, or
// with any other clause, keeps its own location, as does a directive that
// shares its position with another (macro expansions). An entry point of no
// family matches no member: no label, and a warning, never a wrong label.
// test/plugin/shared-locations.c compares every site's directive with
// a compile whose locations are not shared.
//
//===----------------------------------------------------------------------===//
#include "OtterState.h"

#include "clang/AST/OpenMPClause.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/StringSwitch.h"

namespace otter::plugin {

namespace {

enum EntryFamily : unsigned {
  Fork = 1u << 0,      // the parallel region itself
  Barrier = 1u << 1,   // explicit, implicit and cancellation barriers
  Reduce = 1u << 2,    // reduction entry points
  Critical = 1u << 3,  // critical sections (also reductions, lastprivate)
  Loop = 1u << 4,      // worksharing-loop scheduling
  Single = 1u << 5,    // single and copyprivate
  Task = 1u << 6,      // task creation, undeferred tasks
  Taskwait = 1u << 7,  // taskwait, with or without dependences
  Master = 1u << 8,    // master and masked
  Taskgroup = 1u << 9, // taskgroup begin and end
  Taskyield = 1u << 10,
  Flush = 1u << 11,
};

} // namespace

unsigned entryFamily(llvm::StringRef Callee) {
  if (!Callee.consume_front("__kmpc_"))
    return 0;
  if (Callee.starts_with("for_static_init_") || Callee == "for_static_fini" ||
      Callee.starts_with("dispatch_") || Callee == "doacross_fini")
    return Loop;
  return llvm::StringSwitch<unsigned>(Callee)
      .Cases("fork_call", "fork_call_if", "serialized_parallel",
             "end_serialized_parallel", Fork)
      .Cases("barrier", "cancel_barrier", Barrier)
      .Cases("reduce", "reduce_nowait", "end_reduce", "end_reduce_nowait",
             Reduce)
      .Cases("critical", "critical_with_hint", "end_critical", Critical)
      .Cases("single", "end_single", "copyprivate", Single)
      .Cases("omp_task", "omp_task_with_deps", "omp_task_begin_if0",
             "omp_task_complete_if0", "omp_wait_deps", Task)
      .Cases("omp_taskwait", "omp_taskwait_51", "omp_taskwait_deps_51",
             Taskwait)
      .Cases("master", "end_master", "masked", "end_masked", Master)
      .Cases("taskgroup", "end_taskgroup", Taskgroup)
      .Case("omp_taskyield", Taskyield)
      .Case("flush", Flush)
      .Default(0);
}

unsigned directiveFamilies(const clang::OMPExecutableDirective &E) {
  using namespace llvm::omp;
  using namespace clang;
  const OpenMPDirectiveKind K = E.getDirectiveKind();
  unsigned M = 0;
  switch (K) {
  case OMPD_parallel:
    M = Fork;
    break;
  case OMPD_for:
    M = Loop | Barrier;
    break;
  case OMPD_parallel_for:
    M = Fork | Loop | Barrier;
    break;
  case OMPD_single:
    M = Single | Barrier;
    break;
  case OMPD_task:
    M = Task;
    break;
  case OMPD_taskwait:
    M = Taskwait;
    break;
  case OMPD_critical:
    M = Critical;
    break;
  case OMPD_barrier:
    M = Barrier;
    break;
  case OMPD_master:
  case OMPD_masked:
    M = Master;
    break;
  case OMPD_taskgroup:
    M = Taskgroup;
    break;
  case OMPD_taskyield:
    M = Taskyield;
    break;
  case OMPD_flush:
    M = Flush;
    break;
  default:
    return 0;
  }
  bool HasIf = false, HasDepend = false;
  for (const clang::OMPClause *C : E.clauses()) {
    if (!C)
      continue;
    // Clang accepts each clause only on the directive kinds the OpenMP
    // standard allows it on; among the kinds above, each adds the families
    // given here, whatever the kind.
    switch (C->getClauseKind()) {
    // No runtime call at the directive's location, or only calls of the
    // directive's own families (schedule: loop; copyprivate: single; hint:
    // critical; ...) or calls that are never sites (isQuietEntry:
    // __kmpc_push_*, allocation, threadprivate, task reduction data).
    case OMPC_default:
    case OMPC_private:
    case OMPC_firstprivate:
    case OMPC_shared:
    case OMPC_allocate:
    case OMPC_num_threads:
    case OMPC_proc_bind:
    case OMPC_schedule:
    case OMPC_collapse:
    case OMPC_order:
    case OMPC_linear:
    case OMPC_ordered:
    case OMPC_copyprivate:
    case OMPC_final:
    case OMPC_untied:
    case OMPC_mergeable:
    case OMPC_priority:
    case OMPC_in_reduction:
    case OMPC_affinity:
    case OMPC_hint:
    case OMPC_filter:
    case OMPC_task_reduction:
    case OMPC_flush:
    case OMPC_acq_rel:
    case OMPC_acquire:
    case OMPC_release:
    case OMPC_seq_cst:
      break;
    case OMPC_nowait: // on taskwait (OpenMP 5.1) it makes a task: not listed
      if (K == OMPD_taskwait)
        return 0;
      break;
    case OMPC_if: // serialized parallel, undeferred task: same families
      HasIf = true;
      break;
    case OMPC_depend:
      HasDepend = true;
      break;
    case OMPC_copyin:
      M |= Barrier;
      break;
    case OMPC_reduction: {
      // inscan: a scan's buffers, barriers and master region.
      const auto *R = llvm::cast<clang::OMPReductionClause>(C);
      if (R->getModifier() == clang::OMPC_REDUCTION_inscan)
        return 0;
      M |= Reduce | Critical | Barrier;
      break;
    }
    case OMPC_lastprivate: // conditional: a critical section
      M |= Critical | Barrier;
      break;
    default: // detach, ...: not listed, not shared
      return 0;
    }
  }
  // An undeferred task with dependences first waits for them, by the entry
  // point taskwait with dependences uses in some versions.
  if (K == OMPD_task && HasIf && HasDepend)
    M |= Taskwait;
  return M;
}

} // namespace otter::plugin
