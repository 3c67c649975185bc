//===- mpi/handlers_collective.h - Collective and communicator calls -*- C++
//-*-===//
//
// The handlers (see mpi/handlers.h) of collective operations, blocking and
// non-blocking, and of the calls that make and free communicators.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_MPI_HANDLERS_COLLECTIVE_H
#define OTTER_MPI_HANDLERS_COLLECTIVE_H

#include "mpi/handlers.h"

namespace otter::mpi::wrap {

// --- Collectives ----------------------------------------------------------
//
// Bytes are what this rank's buffers send and receive (root: the whole
// gathered or scattered buffer); MPI_IN_PLACE counts as the other side.

/// Records the collective around Run(): MpiCollectiveBegin (the instance
/// number on the communicator), then for a blocking one MpiCollectiveEnd;
/// a non-blocking one (Req) is completed by its Wait/Test.
template <typename RunFn>
int collective(Call &C, CommInfo *I, CollectiveOp Op, int Root,
               std::uint64_t Sent, std::uint64_t Received, MPI_Request *Req,
               RunFn Run) {
  std::uint64_t Instance =
      I ? I->Collectives.fetch_add(1, std::memory_order_relaxed) : 0;
  std::uint16_t Comm = I ? I->Index : 0;
  std::uint32_t Request = Req ? requests::newId() : 0;
  std::uint32_t RootInComm = Root >= 0 ? std::uint32_t(Root) : NoRank;
  C.record(collectiveBegin(Comm, Op, Instance, RootInComm,
                           I ? I->worldRank(Root) : NoRank, Request));
  int Rc = Run();
  if (!Req)
    C.record(collectiveEnd(Comm, Op, RootInComm, Sent, Received, 0));
  else if (Rc == MPI_SUCCESS) {
    Posted P;
    P.What = Posted::Collective;
    P.Comm = I;
    P.Op = Op;
    P.M.Comm = Comm;
    P.M.Request = Request;
    P.Sent = Sent;
    P.Received = Received;
    P.Root = RootInComm;
    requests::insert(*Req, P);
  }
  return C.end(Rc);
}

inline bool isRoot(const CommInfo *I, int Root) {
  return I && Root >= 0 && std::uint32_t(Root) == I->OwnRank;
}
inline std::uint32_t sizeOf(const CommInfo *I) { return I ? I->Size : 0; }

#define OTTER_COLLECTIVE_PROLOGUE(...)                                         \
  Call C(F, Site);                                                             \
  if (!C.On) [[unlikely]]                                                      \
    return Pmpi(__VA_ARGS__, Req...);                                          \
  CommInfo *I = commOf(C, Comm);                                               \
  auto Run = [&] { return Pmpi(__VA_ARGS__, Req...); };

template <Function F, typename Fn, typename... R>
int barrier(Fn Pmpi, const void *Site, MPI_Comm Comm, R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(Comm)
  return collective(C, I, CollectiveOp::Barrier, -1, 0, 0, requestOf(Req...),
                    Run);
}

template <Function F, typename Fn, typename... R>
int bcast(Fn Pmpi, const void *Site, void *Buf, int Count, MPI_Datatype T,
          int Root, MPI_Comm Comm, R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(Buf, Count, T, Root, Comm)
  std::uint64_t B = bytesOf(Count, T);
  bool Me = isRoot(I, Root);
  return collective(C, I, CollectiveOp::Bcast, Root, Me ? B : 0, Me ? 0 : B,
                    requestOf(Req...), Run);
}

template <Function F, typename Fn, typename... R>
int reduce(Fn Pmpi, const void *Site, const void *SendBuf, void *RecvBuf,
           int Count, MPI_Datatype T, MPI_Op Op, int Root, MPI_Comm Comm,
           R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, RecvBuf, Count, T, Op, Root, Comm)
  std::uint64_t B = bytesOf(Count, T);
  return collective(C, I, CollectiveOp::Reduce, Root, B,
                    isRoot(I, Root) ? B : 0, requestOf(Req...), Run);
}

template <Function F, typename Fn, typename... R>
int allreduce(Fn Pmpi, const void *Site, const void *SendBuf, void *RecvBuf,
              int Count, MPI_Datatype T, MPI_Op Op, MPI_Comm Comm, R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, RecvBuf, Count, T, Op, Comm)
  std::uint64_t B = bytesOf(Count, T);
  return collective(C, I, CollectiveOp::Allreduce, -1, B, B, requestOf(Req...),
                    Run);
}

template <Function F, typename Fn, typename... R>
int scan(Fn Pmpi, const void *Site, const void *SendBuf, void *RecvBuf,
         int Count, MPI_Datatype T, MPI_Op Op, MPI_Comm Comm, R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, RecvBuf, Count, T, Op, Comm)
  std::uint64_t B = bytesOf(Count, T);
  bool Ex = F == Function::Exscan || F == Function::Iexscan;
  return collective(C, I, Ex ? CollectiveOp::Exscan : CollectiveOp::Scan, -1, B,
                    B, requestOf(Req...), Run);
}

template <Function F, typename Fn, typename... R>
int reduceScatter(Fn Pmpi, const void *Site, const void *SendBuf, void *RecvBuf,
                  const int *RecvCounts, MPI_Datatype T, MPI_Op Op,
                  MPI_Comm Comm, R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, RecvBuf, RecvCounts, T, Op, Comm)
  std::uint64_t Mine =
      I && I->OwnRank < I->Size ? bytesOf(RecvCounts[I->OwnRank], T) : 0;
  return collective(C, I, CollectiveOp::ReduceScatter, -1,
                    sumOf(RecvCounts, sizeOf(I)) * bytesOf(1, T), Mine,
                    requestOf(Req...), Run);
}

template <Function F, typename Fn, typename... R>
int reduceScatterBlock(Fn Pmpi, const void *Site, const void *SendBuf,
                       void *RecvBuf, int RecvCount, MPI_Datatype T, MPI_Op Op,
                       MPI_Comm Comm, R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, RecvBuf, RecvCount, T, Op, Comm)
  std::uint64_t B = bytesOf(RecvCount, T);
  return collective(C, I, CollectiveOp::ReduceScatterBlock, -1, B * sizeOf(I),
                    B, requestOf(Req...), Run);
}

template <Function F, typename Fn, typename... R>
int gather(Fn Pmpi, const void *Site, const void *SendBuf, int SendCount,
           MPI_Datatype SendType, void *RecvBuf, int RecvCount,
           MPI_Datatype RecvType, int Root, MPI_Comm Comm, R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, SendCount, SendType, RecvBuf, RecvCount,
                            RecvType, Root, Comm)
  bool Me = isRoot(I, Root);
  std::uint64_t Each = bytesOf(RecvCount, RecvType);
  std::uint64_t Sent =
      SendBuf == MPI_IN_PLACE ? Each : bytesOf(SendCount, SendType);
  return collective(C, I, CollectiveOp::Gather, Root, Sent,
                    Me ? Each * sizeOf(I) : 0, requestOf(Req...), Run);
}

template <Function F, typename Fn, typename... R>
int gatherv(Fn Pmpi, const void *Site, const void *SendBuf, int SendCount,
            MPI_Datatype SendType, void *RecvBuf, const int *RecvCounts,
            const int *Displs, MPI_Datatype RecvType, int Root, MPI_Comm Comm,
            R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, SendCount, SendType, RecvBuf, RecvCounts,
                            Displs, RecvType, Root, Comm)
  bool Me = isRoot(I, Root);
  std::uint64_t All =
      Me ? sumOf(RecvCounts, sizeOf(I)) * bytesOf(1, RecvType) : 0;
  std::uint64_t Sent = SendBuf == MPI_IN_PLACE && Me && I->OwnRank < I->Size
                           ? bytesOf(RecvCounts[I->OwnRank], RecvType)
                           : bytesOf(SendCount, SendType);
  return collective(C, I, CollectiveOp::Gatherv, Root, Sent, All,
                    requestOf(Req...), Run);
}

template <Function F, typename Fn, typename... R>
int scatter(Fn Pmpi, const void *Site, const void *SendBuf, int SendCount,
            MPI_Datatype SendType, void *RecvBuf, int RecvCount,
            MPI_Datatype RecvType, int Root, MPI_Comm Comm, R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, SendCount, SendType, RecvBuf, RecvCount,
                            RecvType, Root, Comm)
  bool Me = isRoot(I, Root);
  std::uint64_t Each = bytesOf(SendCount, SendType);
  std::uint64_t Received =
      RecvBuf == MPI_IN_PLACE ? Each : bytesOf(RecvCount, RecvType);
  return collective(C, I, CollectiveOp::Scatter, Root,
                    Me ? Each * sizeOf(I) : 0, Received, requestOf(Req...),
                    Run);
}

template <Function F, typename Fn, typename... R>
int scatterv(Fn Pmpi, const void *Site, const void *SendBuf,
             const int *SendCounts, const int *Displs, MPI_Datatype SendType,
             void *RecvBuf, int RecvCount, MPI_Datatype RecvType, int Root,
             MPI_Comm Comm, R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, SendCounts, Displs, SendType, RecvBuf,
                            RecvCount, RecvType, Root, Comm)
  bool Me = isRoot(I, Root);
  std::uint64_t All =
      Me ? sumOf(SendCounts, sizeOf(I)) * bytesOf(1, SendType) : 0;
  std::uint64_t Received = RecvBuf == MPI_IN_PLACE && Me && I->OwnRank < I->Size
                               ? bytesOf(SendCounts[I->OwnRank], SendType)
                               : bytesOf(RecvCount, RecvType);
  return collective(C, I, CollectiveOp::Scatterv, Root, All, Received,
                    requestOf(Req...), Run);
}

template <Function F, typename Fn, typename... R>
int allgather(Fn Pmpi, const void *Site, const void *SendBuf, int SendCount,
              MPI_Datatype SendType, void *RecvBuf, int RecvCount,
              MPI_Datatype RecvType, MPI_Comm Comm, R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, SendCount, SendType, RecvBuf, RecvCount,
                            RecvType, Comm)
  std::uint64_t Each = bytesOf(RecvCount, RecvType);
  std::uint64_t Sent =
      SendBuf == MPI_IN_PLACE ? Each : bytesOf(SendCount, SendType);
  bool All2All = F == Function::Alltoall || F == Function::Ialltoall;
  return collective(C, I,
                    All2All ? CollectiveOp::Alltoall : CollectiveOp::Allgather,
                    -1, All2All ? Sent * sizeOf(I) : Sent, Each * sizeOf(I),
                    requestOf(Req...), Run);
}
template <Function F, typename Fn, typename... R>
int alltoall(Fn Pmpi, const void *Site, const void *SendBuf, int SendCount,
             MPI_Datatype SendType, void *RecvBuf, int RecvCount,
             MPI_Datatype RecvType, MPI_Comm Comm, R... Req) {
  return allgather<F>(Pmpi, Site, SendBuf, SendCount, SendType, RecvBuf,
                      RecvCount, RecvType, Comm, Req...);
}

template <Function F, typename Fn, typename... R>
int allgatherv(Fn Pmpi, const void *Site, const void *SendBuf, int SendCount,
               MPI_Datatype SendType, void *RecvBuf, const int *RecvCounts,
               const int *Displs, MPI_Datatype RecvType, MPI_Comm Comm,
               R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, SendCount, SendType, RecvBuf, RecvCounts,
                            Displs, RecvType, Comm)
  std::uint64_t Sent = SendBuf == MPI_IN_PLACE && I && I->OwnRank < I->Size
                           ? bytesOf(RecvCounts[I->OwnRank], RecvType)
                           : bytesOf(SendCount, SendType);
  return collective(C, I, CollectiveOp::Allgatherv, -1, Sent,
                    sumOf(RecvCounts, sizeOf(I)) * bytesOf(1, RecvType),
                    requestOf(Req...), Run);
}

template <Function F, typename Fn, typename... R>
int alltoallv(Fn Pmpi, const void *Site, const void *SendBuf,
              const int *SendCounts, const int *SendDispls,
              MPI_Datatype SendType, void *RecvBuf, const int *RecvCounts,
              const int *RecvDispls, MPI_Datatype RecvType, MPI_Comm Comm,
              R... Req) {
  OTTER_COLLECTIVE_PROLOGUE(SendBuf, SendCounts, SendDispls, SendType, RecvBuf,
                            RecvCounts, RecvDispls, RecvType, Comm)
  std::uint64_t Received = sumOf(RecvCounts, sizeOf(I)) * bytesOf(1, RecvType);
  std::uint64_t Sent = SendBuf == MPI_IN_PLACE ? Received
                                               : sumOf(SendCounts, sizeOf(I)) *
                                                     bytesOf(1, SendType);
  return collective(C, I, CollectiveOp::Alltoallv, -1, Sent, Received,
                    requestOf(Req...), Run);
}

#undef OTTER_COLLECTIVE_PROLOGUE

// --- Communicators ------------------------------------------------------

template <typename T> T lastOf(T Last) { return Last; }
template <typename T, typename... Ts> auto lastOf(T, Ts... Rest) {
  return lastOf(Rest...);
}

/// Comm_dup, Comm_split, ...: a collective creation call on Parent, its
/// new communicator returned through the last argument.
template <Function F, typename Fn, typename... A>
int commCreate(Fn Pmpi, const void *Site, MPI_Comm Parent, A... Args) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Parent, Args...);
  CommInfo *P = commOf(C, Parent);
  // Every member of Parent makes the same creation calls in the same order
  // (MPI requires it), so the K-th is the same call everywhere.
  std::uint64_t K =
      P ? P->Creations.fetch_add(1, std::memory_order_relaxed) : 0;
  int Rc = Pmpi(Parent, Args...);
  MPI_Comm *New = lastOf(Args...);
  if (Rc == MPI_SUCCESS && *New != MPI_COMM_NULL)
    if (CommInfo *I = comms::create(*New, P, K))
      announce(C, *I, P ? P->Key : 0);
  return C.end(Rc);
}

template <Function F, typename Fn>
int commFree(Fn Pmpi, const void *Site, MPI_Comm *Comm) {
  Call C(F, Site);
  if (C.On) {
    if (CommInfo *I = comms::lookup(*Comm))
      C.record(commFreeEvent(I->Index, I->Key));
    // Before the call: once freed, MPI may give the handle to a
    // communicator another thread creates.
    comms::remove(*Comm);
  }
  return C.end(Pmpi(Comm));
}

/// Comm_set_name: the name goes into the run's name table (a lock, but a
/// rare, local call) and an MpiCommName event binds it to the communicator.
template <Function F, typename Fn>
int commSetName(Fn Pmpi, const void *Site, MPI_Comm Comm, const char *Name) {
  Call C(F, Site);
  int Rc = Pmpi(Comm, Name);
  if (C.On && Rc == MPI_SUCCESS && Name)
    if (CommInfo *I = commOf(C, Comm))
      if (std::uint32_t Id = otter_source_name(Name))
        C.record(commNameEvent(I->Index, I->Key, Id));
  return C.end(Rc);
}

} // namespace otter::mpi::wrap

#endif // OTTER_MPI_HANDLERS_COLLECTIVE_H
