//===- mpi/wrappers.cpp - The MPI_* functions of lib/libotter-mpi.so ------===//
//
// Defines every function listed in otter/mpi_functions.def: each calls its
// handler (mpi/handlers.h) with the PMPI entry point and its own return
// address, which is the user's call site (the plugin brackets MPI_* calls
// like OpenMP runtime calls, so the site index labels it exactly). Only
// these functions are exported; the program's calls reach them because the
// library is preloaded (otter-run) or linked before the MPI library.
//
//===----------------------------------------------------------------------===//
#include "mpi/handlers.h"

#define OTTER_EXPORT __attribute__((visibility("default")))
#define OTTER_ARGS(...) __VA_OPT__(, ) __VA_ARGS__
#define OTTER_MPI_FUNCTION(Name, Value, Handler, Params, Args)                 \
  extern "C" OTTER_EXPORT int MPI_##Name Params {                              \
    return otter::mpi::wrap::Handler<otter::mpi::Function::Name>(              \
        &PMPI_##Name, __builtin_return_address(0) OTTER_ARGS Args);            \
  }
#include "otter/mpi_functions.def"
