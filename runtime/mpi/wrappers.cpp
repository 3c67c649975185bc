//===- mpi/wrappers.cpp - The MPI_* functions of lib/libotter-mpi.so ------===//
//
// Defines every function listed in otter/mpi_functions.def: each calls its
// handler (mpi/handlers.h) with the PMPI entry point and its own return
// address, which is the user's call site (the plugin brackets MPI_* calls
// like OpenMP runtime calls, so the site index labels it exactly). Only
// these functions are exported; the program's calls reach them because the
// library is preloaded (otter-run) or linked before the MPI library. A call
// made inside another wrapped call is not recorded (CallDepth below).
//
//===----------------------------------------------------------------------===//
#include "mpi/handlers.h"

namespace {
/// MPI calls of this thread under way in the wrappers. An MPI call made
/// inside another one -- by an MPI library that implements a call with
/// others through their MPI_ names, or by a callback the library runs (an
/// error handler, an attribute's delete function) -- goes straight to its
/// PMPI entry point: recording it would nest a call inside a call, and
/// count the library's work as the program's. Initial-exec: the library is
/// loaded at start (preloaded or linked), and the access is one load.
thread_local constinit unsigned CallDepth
    __attribute__((tls_model("initial-exec"))) = 0;
struct InCall {
  InCall() { ++CallDepth; }
  ~InCall() { --CallDepth; }
  InCall(const InCall &) = delete;
  InCall &operator=(const InCall &) = delete;
};
} // namespace

#define OTTER_EXPORT __attribute__((visibility("default")))
#define OTTER_ARGS(...) __VA_OPT__(, ) __VA_ARGS__
#define OTTER_MPI_FUNCTION(Name, Value, Handler, Params, Args)                 \
  extern "C" OTTER_EXPORT int MPI_##Name Params {                              \
    if (CallDepth) [[unlikely]]                                                \
      return PMPI_##Name Args;                                                 \
    InCall Guard;                                                              \
    return otter::mpi::wrap::Handler<otter::mpi::Function::Name>(              \
        &PMPI_##Name, __builtin_return_address(0) OTTER_ARGS Args);            \
  }
#include "otter/mpi_functions.def"
