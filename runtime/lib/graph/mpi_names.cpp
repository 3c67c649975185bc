//===- graph/mpi_names.cpp - Names of the MPI functions OTTER records -----===//
#include "otter/mpi.h"

namespace otter::mpi {

const char *functionName(Function F) {
  switch (F) {
  case Function::None:
    break;
#define OTTER_MPI_FUNCTION(Name, Value, ...)                                   \
  case Function::Name:                                                         \
    return "MPI_" #Name;
#define OTTER_MPI_COUNTED(Name, Value)                                         \
  case Function::Name:                                                         \
    return "MPI_" #Name;
#include "otter/mpi_functions.def"
  }
  return "MPI_?";
}

} // namespace otter::mpi
