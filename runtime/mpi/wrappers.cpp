//===- mpi/wrappers.cpp - The MPI_* functions of lib/libotter-mpi.so ------===//
//
// Defines every function listed in otter/mpi_functions.def: each calls its
// handler (mpi/handlers.h) with the PMPI entry point and its own return
// address, which is the user's call site (the plugin brackets MPI_* calls
// like OpenMP runtime calls, so the site index labels it exactly). Only
// these functions are exported; the program's calls reach them because the
// library is preloaded (otter-run) or linked before the MPI library. A call
// made inside another wrapped call is not recorded (CallDepth, handlers.h).
// Fortran programs have entry points of their own (fortran.cpp).
//
// The functions listed as OTTER_MPI_COUNTED are defined too, on x86-64, as
// a jump to their PMPI entry point that counts the call first: two
// instructions, no prototype needed, every argument passed on untouched.
// MPI_Finalize records the counts (handlers.cpp). PMPI_* is a weak
// reference: an MPI library without the function (an older standard)
// still loads; a program cannot call a function its MPI library lacks.
//
//===----------------------------------------------------------------------===//
#include "mpi/handlers.h"
#include "mpi/handlers_collective.h"
#include "mpi/handlers_rma_io.h"

namespace otter::mpi::wrap {
thread_local constinit unsigned CallDepth
    __attribute__((tls_model("initial-exec"))) = 0;
} // namespace otter::mpi::wrap
using otter::mpi::wrap::CallDepth;
using otter::mpi::wrap::InCall;

#define OTTER_EXPORT __attribute__((visibility("default")))
#define OTTER_ARGS(...) __VA_OPT__(, ) __VA_ARGS__
#define OTTER_MPI_FUNCTION(Name, Value, Handler, Params, Args)                 \
  extern "C" OTTER_EXPORT int MPI_##Name Params {                              \
    if (CallDepth) [[unlikely]]                                                \
      return PMPI_##Name Args;                                                 \
    InCall Guard;                                                              \
    otter::mpi::wrap::SampleResume Resume(                                     \
        __builtin_frame_address(0),                                            \
        reinterpret_cast<const void *>(&MPI_##Name));                          \
    return otter::mpi::wrap::Handler<otter::mpi::Function::Name>(              \
        &PMPI_##Name, __builtin_return_address(0) OTTER_ARGS Args);            \
  }
#include "otter/mpi_functions.def"

namespace otter::mpi::wrap {

namespace {
constexpr unsigned countedEnd() {
  unsigned End = FirstCounted;
#define OTTER_MPI_COUNTED(Name, Value)                                         \
  static_assert(Value >= FirstCounted);                                        \
  End = Value + 1 > End ? Value + 1 : End;
#include "otter/mpi_functions.def"
  return End;
}
} // namespace

} // namespace otter::mpi::wrap

/// Calls of each counted function (index: its value - FirstCounted); only
/// the jumps below write it (lock inc), MPI_Finalize reads it.
extern "C" {
__attribute__((visibility("hidden"), used)) std::uint64_t
    otter_mpi_untraced_counts[otter::mpi::wrap::countedEnd() -
                              otter::mpi::wrap::FirstCounted];
}

#if defined(__x86_64__) && defined(__ELF__)
#define OTTER_MPI_COUNTED(Name, Value)                                         \
  asm(".text\n"                                                                \
      ".globl MPI_" #Name "\n"                                                 \
      ".type MPI_" #Name ", @function\n"                                       \
      ".weak PMPI_" #Name "\n"                                                 \
      ".p2align 4\n"                                                           \
      "MPI_" #Name ":\n"                                                       \
      "  lock incq otter_mpi_untraced_counts+8*(" #Value "-200)(%rip)\n"       \
      "  jmp PMPI_" #Name "@PLT\n"                                             \
      ".size MPI_" #Name ", .-MPI_" #Name "\n");
#include "otter/mpi_functions.def"
static_assert(otter::mpi::wrap::FirstCounted == 200,
              "the jumps above compute the index with 200");
#endif

std::uint64_t otter::mpi::wrap::untracedCalls(Function F) {
  unsigned V = unsigned(F);
  if (V < FirstCounted || V >= countedEnd())
    return 0;
  return __atomic_load_n(&otter_mpi_untraced_counts[V - FirstCounted],
                         __ATOMIC_RELAXED);
}
