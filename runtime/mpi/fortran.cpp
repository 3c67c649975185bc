//===- mpi/fortran.cpp - Fortran MPI entry points of lib/libotter-mpi.so --===//
//
// Open MPI's Fortran bindings (mpi_send_ and its other manglings, in
// libmpi_mpifh: what `use mpi` and `include 'mpif.h'` programs call) go to
// PMPI_Send directly, never through MPI_Send, so a Fortran program's calls
// would pass the C wrappers by. This file defines the Fortran entry points
// of the calls most programs make (below; docs/mpi.md has the list): each
// converts the handles to C (MPI_*_f2c) for the same handler the C wrapper
// uses, and performs the call through the MPI library's own Fortran PMPI
// entry point (pmpi_send_), so the Fortran semantics -- sentinels such as
// MPI_IN_PLACE and MPI_BOTTOM, the status layout, the error code in ierr --
// stay the library's. The call site is the Fortran caller's return address.
// The library's pmpi_* are weak references: a program without Fortran MPI
// never calls these entry points, and the library still loads.
//
//===----------------------------------------------------------------------===//
#include "mpi/handlers.h"
#include "mpi/handlers_collective.h"

#include <vector>

using otter::mpi::Function;
using otter::mpi::wrap::CallDepth;
using otter::mpi::wrap::InCall;
namespace wrap = otter::mpi::wrap;

namespace {

/// A Fortran status's size in MPI_Fint (MPI_STATUS_SIZE).
constexpr std::size_t FStatusSize =
    (sizeof(MPI_Status) + sizeof(MPI_Fint) - 1) / sizeof(MPI_Fint);

using FInt = MPI_Fint;

/// The Fortran status to pass on: the caller's, or Own when the caller
/// ignores it but the handler wants the C status (St) to read the message.
FInt *statusFor(FInt *Caller, MPI_Status *St, FInt *Own) {
  return Caller == MPI_F_STATUS_IGNORE && St != MPI_STATUS_IGNORE ? Own
                                                                  : Caller;
}

void toC(const FInt *F, MPI_Status *St, int Rc) {
  if ((Rc == MPI_SUCCESS || Rc == MPI_ERR_IN_STATUS) &&
      St != MPI_STATUS_IGNORE && F != MPI_F_STATUS_IGNORE)
    MPI_Status_f2c(F, St);
}

} // namespace

#define OTTER_EXPORT extern "C" __attribute__((visibility("default")))
/// Defines mpi_<name>_ and its other manglings (mpi_<name>, mpi_<name>__,
/// MPI_<NAME>) with Params; the body follows.
#define OTTER_FORTRAN(Lower, Upper, Params)                                    \
  OTTER_EXPORT void Lower##_ Params;                                           \
  OTTER_EXPORT void Lower Params __attribute__((alias(#Lower "_")));           \
  OTTER_EXPORT void Lower##__ Params __attribute__((alias(#Lower "_")));       \
  OTTER_EXPORT void Upper Params __attribute__((alias(#Lower "_")));           \
  void Lower##_ Params
/// The library's own entry point, and the pass-through of a nested call.
#define OTTER_PMPI(Lower, Params)                                              \
  extern "C" void p##Lower##_ Params __attribute__((weak));
#define OTTER_NESTED(Lower, ...)                                               \
  if (CallDepth || !p##Lower##_) [[unlikely]] {                                \
    if (p##Lower##_)                                                           \
      p##Lower##_(__VA_ARGS__);                                                \
    return;                                                                    \
  }                                                                            \
  InCall Guard;                                                                \
  wrap::SampleResume Resume(__builtin_frame_address(0),                        \
                            reinterpret_cast<const void *>(&Lower##_));        \
  const void *Site = __builtin_return_address(0);

// --- Start and end ----------------------------------------------------------

OTTER_PMPI(mpi_init, (FInt * ierr))
OTTER_FORTRAN(mpi_init, MPI_INIT, (FInt * ierr)) {
  OTTER_NESTED(mpi_init, ierr)
  int Argc = 0;
  char **Argv = nullptr;
  wrap::init<Function::Init>(
      [&](int *, char ***) {
        pmpi_init_(ierr);
        return int(*ierr);
      },
      Site, &Argc, &Argv);
}

OTTER_PMPI(mpi_init_thread, (FInt * required, FInt *provided, FInt *ierr))
OTTER_FORTRAN(mpi_init_thread, MPI_INIT_THREAD,
              (FInt * required, FInt *provided, FInt *ierr)) {
  OTTER_NESTED(mpi_init_thread, required, provided, ierr)
  int Argc = 0, Provided = 0;
  char **Argv = nullptr;
  wrap::initThread<Function::Init_thread>(
      [&](int *, char ***, int, int *) {
        pmpi_init_thread_(required, provided, ierr);
        return int(*ierr);
      },
      Site, &Argc, &Argv, int(*required), &Provided);
}

OTTER_PMPI(mpi_finalize, (FInt * ierr))
OTTER_FORTRAN(mpi_finalize, MPI_FINALIZE, (FInt * ierr)) {
  OTTER_NESTED(mpi_finalize, ierr)
  wrap::finalize<Function::Finalize>(
      [&] {
        pmpi_finalize_(ierr);
        return int(*ierr);
      },
      Site);
}

OTTER_PMPI(mpi_abort, (FInt * comm, FInt *code, FInt *ierr))
OTTER_FORTRAN(mpi_abort, MPI_ABORT, (FInt * comm, FInt *code, FInt *ierr)) {
  OTTER_NESTED(mpi_abort, comm, code, ierr)
  wrap::abort<Function::Abort>(
      [&](MPI_Comm, int) {
        pmpi_abort_(comm, code, ierr);
        return int(*ierr);
      },
      Site, MPI_Comm_f2c(*comm), int(*code));
}

// --- Point-to-point ---------------------------------------------------------

#define OTTER_FORTRAN_SEND(Lower, Upper, Name)                                 \
  OTTER_PMPI(Lower, (void *buf, FInt *count, FInt *type, FInt *dest,           \
                     FInt *tag, FInt *comm, FInt *ierr))                       \
  OTTER_FORTRAN(Lower, Upper,                                                  \
                (void *buf, FInt *count, FInt *type, FInt *dest, FInt *tag,    \
                 FInt *comm, FInt *ierr)) {                                    \
    OTTER_NESTED(Lower, buf, count, type, dest, tag, comm, ierr)               \
    wrap::send<Function::Name>(                                                \
        [&](const void *, int, MPI_Datatype, int, int, MPI_Comm) {             \
          p##Lower##_(buf, count, type, dest, tag, comm, ierr);                \
          return int(*ierr);                                                   \
        },                                                                     \
        Site, buf, int(*count), MPI_Type_f2c(*type), int(*dest), int(*tag),    \
        MPI_Comm_f2c(*comm));                                                  \
  }
OTTER_FORTRAN_SEND(mpi_send, MPI_SEND, Send)
OTTER_FORTRAN_SEND(mpi_ssend, MPI_SSEND, Ssend)
OTTER_FORTRAN_SEND(mpi_bsend, MPI_BSEND, Bsend)
OTTER_FORTRAN_SEND(mpi_rsend, MPI_RSEND, Rsend)

OTTER_PMPI(mpi_recv, (void *buf, FInt *count, FInt *type, FInt *source,
                      FInt *tag, FInt *comm, FInt *status, FInt *ierr))
OTTER_FORTRAN(mpi_recv, MPI_RECV,
              (void *buf, FInt *count, FInt *type, FInt *source, FInt *tag,
               FInt *comm, FInt *status, FInt *ierr)) {
  OTTER_NESTED(mpi_recv, buf, count, type, source, tag, comm, status, ierr)
  MPI_Status CStatus;
  wrap::recv<Function::Recv>(
      [&](void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *St) {
        FInt Own[FStatusSize];
        FInt *F = statusFor(status, St, Own);
        pmpi_recv_(buf, count, type, source, tag, comm, F, ierr);
        toC(F, St, int(*ierr));
        return int(*ierr);
      },
      Site, buf, int(*count), MPI_Type_f2c(*type), int(*source), int(*tag),
      MPI_Comm_f2c(*comm), &CStatus);
}

OTTER_PMPI(mpi_sendrecv,
           (void *sbuf, FInt *scount, FInt *stype, FInt *dest, FInt *stag,
            void *rbuf, FInt *rcount, FInt *rtype, FInt *source, FInt *rtag,
            FInt *comm, FInt *status, FInt *ierr))
OTTER_FORTRAN(mpi_sendrecv, MPI_SENDRECV,
              (void *sbuf, FInt *scount, FInt *stype, FInt *dest, FInt *stag,
               void *rbuf, FInt *rcount, FInt *rtype, FInt *source, FInt *rtag,
               FInt *comm, FInt *status, FInt *ierr)) {
  OTTER_NESTED(mpi_sendrecv, sbuf, scount, stype, dest, stag, rbuf, rcount,
               rtype, source, rtag, comm, status, ierr)
  MPI_Status CStatus;
  wrap::sendrecv<Function::Sendrecv>(
      [&](const void *, int, MPI_Datatype, int, int, void *, int, MPI_Datatype,
          int, int, MPI_Comm, MPI_Status *St) {
        FInt Own[FStatusSize];
        FInt *F = statusFor(status, St, Own);
        pmpi_sendrecv_(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
                       source, rtag, comm, F, ierr);
        toC(F, St, int(*ierr));
        return int(*ierr);
      },
      Site, sbuf, int(*scount), MPI_Type_f2c(*stype), int(*dest), int(*stag),
      rbuf, int(*rcount), MPI_Type_f2c(*rtype), int(*source), int(*rtag),
      MPI_Comm_f2c(*comm), &CStatus);
}

#define OTTER_FORTRAN_POST(Lower, Upper, Name, Handler)                        \
  OTTER_PMPI(Lower, (void *buf, FInt *count, FInt *type, FInt *peer,           \
                     FInt *tag, FInt *comm, FInt *request, FInt *ierr))        \
  OTTER_FORTRAN(Lower, Upper,                                                  \
                (void *buf, FInt *count, FInt *type, FInt *peer, FInt *tag,    \
                 FInt *comm, FInt *request, FInt *ierr)) {                     \
    OTTER_NESTED(Lower, buf, count, type, peer, tag, comm, request, ierr)      \
    MPI_Request CRequest = MPI_REQUEST_NULL;                                   \
    wrap::Handler<Function::Name>(                                             \
        [&](auto, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *R) {     \
          p##Lower##_(buf, count, type, peer, tag, comm, request, ierr);       \
          if (*ierr == MPI_SUCCESS)                                            \
            *R = MPI_Request_f2c(*request);                                    \
          return int(*ierr);                                                   \
        },                                                                     \
        Site, buf, int(*count), MPI_Type_f2c(*type), int(*peer), int(*tag),    \
        MPI_Comm_f2c(*comm), &CRequest);                                       \
  }
OTTER_FORTRAN_POST(mpi_isend, MPI_ISEND, Isend, isend)
OTTER_FORTRAN_POST(mpi_issend, MPI_ISSEND, Issend, isend)
OTTER_FORTRAN_POST(mpi_ibsend, MPI_IBSEND, Ibsend, isend)
OTTER_FORTRAN_POST(mpi_irsend, MPI_IRSEND, Irsend, isend)
OTTER_FORTRAN_POST(mpi_irecv, MPI_IRECV, Irecv, irecv)

OTTER_PMPI(mpi_wait, (FInt * request, FInt *status, FInt *ierr))
OTTER_FORTRAN(mpi_wait, MPI_WAIT, (FInt * request, FInt *status, FInt *ierr)) {
  OTTER_NESTED(mpi_wait, request, status, ierr)
  MPI_Request CRequest = MPI_Request_f2c(*request);
  MPI_Status CStatus;
  wrap::wait<Function::Wait>(
      [&](MPI_Request *R, MPI_Status *St) {
        FInt Own[FStatusSize];
        FInt *F = statusFor(status, St, Own);
        pmpi_wait_(request, F, ierr);
        *R = MPI_Request_f2c(*request);
        toC(F, St, int(*ierr));
        return int(*ierr);
      },
      Site, &CRequest,
      status == MPI_F_STATUS_IGNORE ? MPI_STATUS_IGNORE : &CStatus);
}

OTTER_PMPI(mpi_waitall,
           (FInt * count, FInt *requests, FInt *statuses, FInt *ierr))
OTTER_FORTRAN(mpi_waitall, MPI_WAITALL,
              (FInt * count, FInt *requests, FInt *statuses, FInt *ierr)) {
  OTTER_NESTED(mpi_waitall, count, requests, statuses, ierr)
  const int N = *count > 0 ? int(*count) : 0;
  // Up to 16 requests on the stack; more (rare) in a vector.
  MPI_Request InlineR[16];
  MPI_Status InlineS[16];
  std::vector<MPI_Request> ManyR;
  std::vector<MPI_Status> ManyS;
  MPI_Request *CRequests = InlineR;
  MPI_Status *CStatuses = InlineS;
  if (N > 16) {
    ManyR.resize(std::size_t(N));
    ManyS.resize(std::size_t(N));
    CRequests = ManyR.data();
    CStatuses = ManyS.data();
  }
  for (int I = 0; I < N; ++I)
    CRequests[I] = MPI_Request_f2c(requests[I]);
  const bool Ignored = statuses == MPI_F_STATUSES_IGNORE;
  wrap::waitall<Function::Waitall>(
      [&](int, MPI_Request *R, MPI_Status *St) {
        std::vector<FInt> Own;
        FInt *F = statuses;
        if (Ignored && St != MPI_STATUSES_IGNORE) {
          Own.resize(std::size_t(N) * FStatusSize);
          F = Own.data();
        }
        pmpi_waitall_(count, requests, F, ierr);
        for (int I = 0; I < N; ++I) {
          R[I] = MPI_Request_f2c(requests[I]);
          if (F != MPI_F_STATUSES_IGNORE)
            toC(F + std::size_t(I) * FStatusSize,
                St == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &St[I],
                int(*ierr));
        }
        return int(*ierr);
      },
      Site, N, CRequests, Ignored ? MPI_STATUSES_IGNORE : CStatuses);
}

// --- Collectives ------------------------------------------------------------
// (A Fortran MPI_IN_PLACE is not C's: such a call's bytes are counted as if
// the send buffer were a buffer of its own.)

OTTER_PMPI(mpi_barrier, (FInt * comm, FInt *ierr))
OTTER_FORTRAN(mpi_barrier, MPI_BARRIER, (FInt * comm, FInt *ierr)) {
  OTTER_NESTED(mpi_barrier, comm, ierr)
  wrap::barrier<Function::Barrier>(
      [&](MPI_Comm) {
        pmpi_barrier_(comm, ierr);
        return int(*ierr);
      },
      Site, MPI_Comm_f2c(*comm));
}

OTTER_PMPI(mpi_bcast, (void *buf, FInt *count, FInt *type, FInt *root,
                       FInt *comm, FInt *ierr))
OTTER_FORTRAN(mpi_bcast, MPI_BCAST,
              (void *buf, FInt *count, FInt *type, FInt *root, FInt *comm,
               FInt *ierr)) {
  OTTER_NESTED(mpi_bcast, buf, count, type, root, comm, ierr)
  wrap::bcast<Function::Bcast>(
      [&](void *, int, MPI_Datatype, int, MPI_Comm) {
        pmpi_bcast_(buf, count, type, root, comm, ierr);
        return int(*ierr);
      },
      Site, buf, int(*count), MPI_Type_f2c(*type), int(*root),
      MPI_Comm_f2c(*comm));
}

OTTER_PMPI(mpi_reduce, (void *sbuf, void *rbuf, FInt *count, FInt *type,
                        FInt *op, FInt *root, FInt *comm, FInt *ierr))
OTTER_FORTRAN(mpi_reduce, MPI_REDUCE,
              (void *sbuf, void *rbuf, FInt *count, FInt *type, FInt *op,
               FInt *root, FInt *comm, FInt *ierr)) {
  OTTER_NESTED(mpi_reduce, sbuf, rbuf, count, type, op, root, comm, ierr)
  wrap::reduce<Function::Reduce>(
      [&](const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm) {
        pmpi_reduce_(sbuf, rbuf, count, type, op, root, comm, ierr);
        return int(*ierr);
      },
      Site, sbuf, rbuf, int(*count), MPI_Type_f2c(*type), MPI_Op_f2c(*op),
      int(*root), MPI_Comm_f2c(*comm));
}

/// Allreduce, Scan and Exscan: the same arguments.
#define OTTER_FORTRAN_ALLREDUCE(Lower, Upper, Name, Handler)                   \
  OTTER_PMPI(Lower, (void *sbuf, void *rbuf, FInt *count, FInt *type,          \
                     FInt *op, FInt *comm, FInt *ierr))                        \
  OTTER_FORTRAN(Lower, Upper,                                                  \
                (void *sbuf, void *rbuf, FInt *count, FInt *type, FInt *op,    \
                 FInt *comm, FInt *ierr)) {                                    \
    OTTER_NESTED(Lower, sbuf, rbuf, count, type, op, comm, ierr)               \
    wrap::Handler<Function::Name>(                                             \
        [&](const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm) {       \
          p##Lower##_(sbuf, rbuf, count, type, op, comm, ierr);                \
          return int(*ierr);                                                   \
        },                                                                     \
        Site, sbuf, rbuf, int(*count), MPI_Type_f2c(*type), MPI_Op_f2c(*op),   \
        MPI_Comm_f2c(*comm));                                                  \
  }
OTTER_FORTRAN_ALLREDUCE(mpi_allreduce, MPI_ALLREDUCE, Allreduce, allreduce)
OTTER_FORTRAN_ALLREDUCE(mpi_scan, MPI_SCAN, Scan, scan)
OTTER_FORTRAN_ALLREDUCE(mpi_exscan, MPI_EXSCAN, Exscan, scan)

/// Allgather and Alltoall: the same arguments.
#define OTTER_FORTRAN_ALL(Lower, Upper, Name, Handler)                         \
  OTTER_PMPI(Lower, (void *sbuf, FInt *scount, FInt *stype, void *rbuf,        \
                     FInt *rcount, FInt *rtype, FInt *comm, FInt *ierr))       \
  OTTER_FORTRAN(Lower, Upper,                                                  \
                (void *sbuf, FInt *scount, FInt *stype, void *rbuf,            \
                 FInt *rcount, FInt *rtype, FInt *comm, FInt *ierr)) {         \
    OTTER_NESTED(Lower, sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr)  \
    wrap::Handler<Function::Name>(                                             \
        [&](const void *, int, MPI_Datatype, void *, int, MPI_Datatype,        \
            MPI_Comm) {                                                        \
          p##Lower##_(sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr);   \
          return int(*ierr);                                                   \
        },                                                                     \
        Site, sbuf, int(*scount), MPI_Type_f2c(*stype), rbuf, int(*rcount),    \
        MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm));                            \
  }
OTTER_FORTRAN_ALL(mpi_allgather, MPI_ALLGATHER, Allgather, allgather)
OTTER_FORTRAN_ALL(mpi_alltoall, MPI_ALLTOALL, Alltoall, alltoall)

#define OTTER_FORTRAN_ROOTED(Lower, Upper, Name, Handler)                      \
  OTTER_PMPI(Lower,                                                            \
             (void *sbuf, FInt *scount, FInt *stype, void *rbuf, FInt *rcount, \
              FInt *rtype, FInt *root, FInt *comm, FInt *ierr))                \
  OTTER_FORTRAN(Lower, Upper,                                                  \
                (void *sbuf, FInt *scount, FInt *stype, void *rbuf,            \
                 FInt *rcount, FInt *rtype, FInt *root, FInt *comm,            \
                 FInt *ierr)) {                                                \
    OTTER_NESTED(Lower, sbuf, scount, stype, rbuf, rcount, rtype, root, comm,  \
                 ierr)                                                         \
    wrap::Handler<Function::Name>(                                             \
        [&](const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int,   \
            MPI_Comm) {                                                        \
          p##Lower##_(sbuf, scount, stype, rbuf, rcount, rtype, root, comm,    \
                      ierr);                                                   \
          return int(*ierr);                                                   \
        },                                                                     \
        Site, sbuf, int(*scount), MPI_Type_f2c(*stype), rbuf, int(*rcount),    \
        MPI_Type_f2c(*rtype), int(*root), MPI_Comm_f2c(*comm));                \
  }
OTTER_FORTRAN_ROOTED(mpi_gather, MPI_GATHER, Gather, gather)
OTTER_FORTRAN_ROOTED(mpi_scatter, MPI_SCATTER, Scatter, scatter)

OTTER_PMPI(mpi_test, (FInt * request, FInt *flag, FInt *status, FInt *ierr))
OTTER_FORTRAN(mpi_test, MPI_TEST,
              (FInt * request, FInt *flag, FInt *status, FInt *ierr)) {
  OTTER_NESTED(mpi_test, request, flag, status, ierr)
  MPI_Request CRequest = MPI_Request_f2c(*request);
  MPI_Status CStatus;
  int CFlag = 0;
  wrap::test<Function::Test>(
      [&](MPI_Request *R, int *Flag, MPI_Status *St) {
        FInt Own[FStatusSize];
        FInt *F = statusFor(status, St, Own);
        pmpi_test_(request, flag, F, ierr);
        *R = MPI_Request_f2c(*request);
        *Flag = *flag ? 1 : 0; // a Fortran LOGICAL
        if (*Flag)
          toC(F, St, int(*ierr));
        return int(*ierr);
      },
      Site, &CRequest, &CFlag,
      status == MPI_F_STATUS_IGNORE ? MPI_STATUS_IGNORE : &CStatus);
}

// --- Communicators ----------------------------------------------------------
// Made by collective calls, so that messages on them match across the ranks
// (a communicator the wrappers never saw made has a key of this process
// only).

/// The handler's Pmpi for a creation call: makes the call, then gives the
/// handler the new communicator in C.
#define OTTER_FORTRAN_CREATE(Lower, Upper, Name, FParams, FArgs, CTypes,       \
                             CArgs)                                            \
  OTTER_PMPI(Lower, FParams)                                                   \
  OTTER_FORTRAN(Lower, Upper, FParams) {                                       \
    OTTER_NESTED(Lower, OTTER_UNPAREN FArgs)                                   \
    MPI_Comm CNew = MPI_COMM_NULL;                                             \
    wrap::commCreate<Function::Name>(                                          \
        [&](MPI_Comm, OTTER_UNPAREN CTypes, MPI_Comm *New) {                   \
          p##Lower##_ FArgs;                                                   \
          if (*ierr == MPI_SUCCESS)                                            \
            *New = MPI_Comm_f2c(*newcomm);                                     \
          return int(*ierr);                                                   \
        },                                                                     \
        Site, MPI_Comm_f2c(*comm), OTTER_UNPAREN CArgs, &CNew);                \
  }
#define OTTER_UNPAREN(...) __VA_ARGS__

OTTER_PMPI(mpi_comm_dup, (FInt * comm, FInt *newcomm, FInt *ierr))
OTTER_FORTRAN(mpi_comm_dup, MPI_COMM_DUP,
              (FInt * comm, FInt *newcomm, FInt *ierr)) {
  OTTER_NESTED(mpi_comm_dup, comm, newcomm, ierr)
  MPI_Comm CNew = MPI_COMM_NULL;
  wrap::commCreate<Function::Comm_dup>(
      [&](MPI_Comm, MPI_Comm *New) {
        pmpi_comm_dup_(comm, newcomm, ierr);
        if (*ierr == MPI_SUCCESS)
          *New = MPI_Comm_f2c(*newcomm);
        return int(*ierr);
      },
      Site, MPI_Comm_f2c(*comm), &CNew);
}

OTTER_FORTRAN_CREATE(mpi_comm_split, MPI_COMM_SPLIT, Comm_split,
                     (FInt * comm, FInt *color, FInt *key, FInt *newcomm,
                      FInt *ierr),
                     (comm, color, key, newcomm, ierr), (int, int),
                     (int(*color), int(*key)))
// The dimensions and periods (Fortran LOGICALs) go to the library as they
// are; the handler only needs the new communicator.
OTTER_FORTRAN_CREATE(mpi_cart_create, MPI_CART_CREATE, Cart_create,
                     (FInt * comm, FInt *ndims, FInt *dims, FInt *periods,
                      FInt *reorder, FInt *newcomm, FInt *ierr),
                     (comm, ndims, dims, periods, reorder, newcomm, ierr),
                     (int, const int *, const int *, int),
                     (int(*ndims), nullptr, nullptr, 0))
OTTER_FORTRAN_CREATE(mpi_comm_split_type, MPI_COMM_SPLIT_TYPE, Comm_split_type,
                     (FInt * comm, FInt *split_type, FInt *key, FInt *info,
                      FInt *newcomm, FInt *ierr),
                     (comm, split_type, key, info, newcomm, ierr),
                     (int, int, MPI_Info),
                     (int(*split_type), int(*key), MPI_Info_f2c(*info)))
OTTER_FORTRAN_CREATE(mpi_comm_create, MPI_COMM_CREATE, Comm_create,
                     (FInt * comm, FInt *group, FInt *newcomm, FInt *ierr),
                     (comm, group, newcomm, ierr), (MPI_Group),
                     (MPI_Group_f2c(*group)))
// The kept dimensions (Fortran LOGICALs) go to the library as they are.
OTTER_FORTRAN_CREATE(mpi_cart_sub, MPI_CART_SUB, Cart_sub,
                     (FInt * comm, FInt *remain_dims, FInt *newcomm,
                      FInt *ierr),
                     (comm, remain_dims, newcomm, ierr), (const int *),
                     (nullptr))

OTTER_PMPI(mpi_comm_free, (FInt * comm, FInt *ierr))
OTTER_FORTRAN(mpi_comm_free, MPI_COMM_FREE, (FInt * comm, FInt *ierr)) {
  OTTER_NESTED(mpi_comm_free, comm, ierr)
  MPI_Comm CComm = MPI_Comm_f2c(*comm);
  wrap::commFree<Function::Comm_free>(
      [&](MPI_Comm *C) {
        pmpi_comm_free_(comm, ierr);
        if (*ierr == MPI_SUCCESS)
          *C = MPI_COMM_NULL;
        return int(*ierr);
      },
      Site, &CComm);
}

// --- Collectives with a count per rank
// ----------------------------------------

namespace {
/// A Fortran array of counts or displacements as the handler reads it (for
/// the bytes only: the call gets the Fortran arrays as they are); none if
/// INTEGER is not C's int (-fdefault-integer-8).
const int *counts(const FInt *F) {
  if constexpr (sizeof(FInt) == sizeof(int))
    return reinterpret_cast<const int *>(F);
  else
    return nullptr;
}
} // namespace

OTTER_PMPI(mpi_allgatherv,
           (void *sbuf, FInt *scount, FInt *stype, void *rbuf, FInt *rcounts,
            FInt *displs, FInt *rtype, FInt *comm, FInt *ierr))
OTTER_FORTRAN(mpi_allgatherv, MPI_ALLGATHERV,
              (void *sbuf, FInt *scount, FInt *stype, void *rbuf, FInt *rcounts,
               FInt *displs, FInt *rtype, FInt *comm, FInt *ierr)) {
  OTTER_NESTED(mpi_allgatherv, sbuf, scount, stype, rbuf, rcounts, displs,
               rtype, comm, ierr)
  wrap::allgatherv<Function::Allgatherv>(
      [&](const void *, int, MPI_Datatype, void *, const int *, const int *,
          MPI_Datatype, MPI_Comm) {
        pmpi_allgatherv_(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                         comm, ierr);
        return int(*ierr);
      },
      Site, sbuf, int(*scount), MPI_Type_f2c(*stype), rbuf, counts(rcounts),
      counts(displs), MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm));
}

OTTER_PMPI(mpi_gatherv,
           (void *sbuf, FInt *scount, FInt *stype, void *rbuf, FInt *rcounts,
            FInt *displs, FInt *rtype, FInt *root, FInt *comm, FInt *ierr))
OTTER_FORTRAN(mpi_gatherv, MPI_GATHERV,
              (void *sbuf, FInt *scount, FInt *stype, void *rbuf, FInt *rcounts,
               FInt *displs, FInt *rtype, FInt *root, FInt *comm, FInt *ierr)) {
  OTTER_NESTED(mpi_gatherv, sbuf, scount, stype, rbuf, rcounts, displs, rtype,
               root, comm, ierr)
  wrap::gatherv<Function::Gatherv>(
      [&](const void *, int, MPI_Datatype, void *, const int *, const int *,
          MPI_Datatype, int, MPI_Comm) {
        pmpi_gatherv_(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root,
                      comm, ierr);
        return int(*ierr);
      },
      Site, sbuf, int(*scount), MPI_Type_f2c(*stype), rbuf, counts(rcounts),
      counts(displs), MPI_Type_f2c(*rtype), int(*root), MPI_Comm_f2c(*comm));
}

OTTER_PMPI(mpi_scatterv,
           (void *sbuf, FInt *scounts, FInt *displs, FInt *stype, void *rbuf,
            FInt *rcount, FInt *rtype, FInt *root, FInt *comm, FInt *ierr))
OTTER_FORTRAN(mpi_scatterv, MPI_SCATTERV,
              (void *sbuf, FInt *scounts, FInt *displs, FInt *stype, void *rbuf,
               FInt *rcount, FInt *rtype, FInt *root, FInt *comm, FInt *ierr)) {
  OTTER_NESTED(mpi_scatterv, sbuf, scounts, displs, stype, rbuf, rcount, rtype,
               root, comm, ierr)
  wrap::scatterv<Function::Scatterv>(
      [&](const void *, const int *, const int *, MPI_Datatype, void *, int,
          MPI_Datatype, int, MPI_Comm) {
        pmpi_scatterv_(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root,
                       comm, ierr);
        return int(*ierr);
      },
      Site, sbuf, counts(scounts), counts(displs), MPI_Type_f2c(*stype), rbuf,
      int(*rcount), MPI_Type_f2c(*rtype), int(*root), MPI_Comm_f2c(*comm));
}

OTTER_PMPI(mpi_alltoallv,
           (void *sbuf, FInt *scounts, FInt *sdispls, FInt *stype, void *rbuf,
            FInt *rcounts, FInt *rdispls, FInt *rtype, FInt *comm, FInt *ierr))
OTTER_FORTRAN(mpi_alltoallv, MPI_ALLTOALLV,
              (void *sbuf, FInt *scounts, FInt *sdispls, FInt *stype,
               void *rbuf, FInt *rcounts, FInt *rdispls, FInt *rtype,
               FInt *comm, FInt *ierr)) {
  OTTER_NESTED(mpi_alltoallv, sbuf, scounts, sdispls, stype, rbuf, rcounts,
               rdispls, rtype, comm, ierr)
  wrap::alltoallv<Function::Alltoallv>(
      [&](const void *, const int *, const int *, MPI_Datatype, void *,
          const int *, const int *, MPI_Datatype, MPI_Comm) {
        pmpi_alltoallv_(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
                        rtype, comm, ierr);
        return int(*ierr);
      },
      Site, sbuf, counts(scounts), counts(sdispls), MPI_Type_f2c(*stype), rbuf,
      counts(rcounts), counts(rdispls), MPI_Type_f2c(*rtype),
      MPI_Comm_f2c(*comm));
}
