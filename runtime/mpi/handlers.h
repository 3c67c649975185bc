//===- mpi/handlers.h - What each wrapped MPI call records -------*- C++
//-*-===//
//
// One function template per shape of MPI call (send, receive, completion,
// collective, communicator creation ...). wrappers.cpp instantiates one per
// line of otter/mpi_functions.def, with the PMPI function to call and the
// user's call site (the wrapper's return address). Every handler records
//   MpiCallBegin, <what the call did>, MpiCallEnd
// into the calling thread's buffer through libotter.so (otter/source.h),
// attributed to the task the thread executes; the payloads are built by
// otter/mpi.h's constructors only. When nothing is recorded (tracing off),
// a handler is one call into libotter.so and the PMPI call.
//
// Hot-path rules as for the OMPT callbacks: no lock, no allocation in the
// common case (a Waitall of more than 32 requests uses a thread's own
// growing array; a communicator never seen before is described once).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_MPI_HANDLERS_H
#define OTTER_MPI_HANDLERS_H

#include "mpi/tables.h"
#include "otter/source.h"

#include <cstdint>
#include <vector>

namespace otter::mpi::wrap {

/// One wrapped call being recorded.
struct Call {
  otter_source_context Ctx;
  bool On;
  Function F;
  std::uint64_t Site;
  Call(Function Fn, const void *Where)
      : On(otter_source_context_get(&Ctx) != 0), F(Fn),
        Site(reinterpret_cast<std::uint64_t>(Where)) {
    if (On) [[likely]]
      record(callBegin(F, Site));
  }
  void record(const Event &E) { otter_source_record(&Ctx, &E); }
  int end(int Rc) {
    if (On)
      record(callEnd(F, Site, Rc));
    return Rc;
  }
};

// --- Helpers (handlers.cpp) ---------------------------------------------

/// The communicator's entry; records its MpiCommCreate if it was never
/// seen (made by a call OTTER does not wrap).
CommInfo *commOf(Call &C, MPI_Comm Comm);
/// MpiCommCreate (+ MpiCommMembers) for I.
void announce(Call &C, const CommInfo &I, std::uint64_t ParentKey);
std::uint64_t bytesOf(long long Count, MPI_Datatype T);
std::uint64_t sumOf(const int *Counts, std::uint32_t N);
/// A message to or from Peer (a rank in Comm, or a wildcard).
Message messageWith(const CommInfo *I, int Peer, int Tag, std::uint64_t Bytes);
/// The receive described by a status (source, tag, bytes received).
void received(Call &C, EventKind K, const CommInfo *I, const MPI_Status *St,
              std::uint32_t Request);
/// Records the completion of a tracked request (St: its status).
void completed(Call &C, const Posted &P, const MPI_Status *St);
/// A thread's scratch arrays for completion calls over many requests.
requests::Claim **claimArray(int N, requests::Claim **Inline, int InlineN);
MPI_Status *statusArray(int N, MPI_Status *Inline, int InlineN);
/// After MPI_Init(_thread): tables, rank, the MpiInit event, WORLD, SELF.
void afterInit(Call &C, int Rc);
/// Before MPI_Finalize: clock offsets (when ranks are on several hosts).
void beforeFinalize(Call &C);

inline MPI_Request *requestOf() { return nullptr; }
inline MPI_Request *requestOf(MPI_Request *R) { return R; }

// --- Start and end ------------------------------------------------------

template <Function F, typename Fn>
int init(Fn Pmpi, const void *Site, int *Argc, char ***Argv) {
  otter_source_start(); // a program without OpenMP starts recording here
  Call C(F, Site);
  int Rc = Pmpi(Argc, Argv);
  afterInit(C, Rc);
  return C.end(Rc);
}

template <Function F, typename Fn>
int initThread(Fn Pmpi, const void *Site, int *Argc, char ***Argv, int Required,
               int *Provided) {
  otter_source_start();
  Call C(F, Site);
  int Rc = Pmpi(Argc, Argv, Required, Provided);
  afterInit(C, Rc);
  return C.end(Rc);
}

template <Function F, typename Fn> int finalize(Fn Pmpi, const void *Site) {
  Call C(F, Site);
  if (C.On)
    beforeFinalize(C);
  return C.end(Pmpi());
}

template <Function F, typename Fn>
int abort(Fn Pmpi, const void *Site, MPI_Comm Comm, int Code) {
  {
    Call C(F, Site);
    // MPI_Abort does not return and the launcher kills the other ranks:
    // write this rank's trace and graph now, the call included (its end is
    // the moment it is made).
    if (C.On) {
      C.end(Code);
      otter_source_finish_now();
    }
  }
  return Pmpi(Comm, Code);
}

/// Calls recorded as a region only (probe, cancel).
template <Function F, typename Fn, typename... A>
int plain(Fn Pmpi, const void *Site, A... Args) {
  Call C(F, Site);
  return C.end(Pmpi(Args...));
}

// --- Point-to-point -----------------------------------------------------

template <Function F, typename Fn>
int send(Fn Pmpi, const void *Site, const void *Buf, int Count, MPI_Datatype T,
         int Dest, int Tag, MPI_Comm Comm) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Buf, Count, T, Dest, Tag, Comm);
  C.record(message(EventKind::MpiSend,
                   messageWith(commOf(C, Comm), Dest, Tag, bytesOf(Count, T))));
  return C.end(Pmpi(Buf, Count, T, Dest, Tag, Comm));
}

template <Function F, typename Fn>
int recv(Fn Pmpi, const void *Site, void *Buf, int Count, MPI_Datatype T,
         int Source, int Tag, MPI_Comm Comm, MPI_Status *Status) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Buf, Count, T, Source, Tag, Comm, Status);
  MPI_Status Local;
  MPI_Status *St = Status == MPI_STATUS_IGNORE ? &Local : Status;
  CommInfo *I = commOf(C, Comm);
  int Rc = Pmpi(Buf, Count, T, Source, Tag, Comm, St);
  if (Rc == MPI_SUCCESS)
    received(C, EventKind::MpiRecv, I, St, 0);
  return C.end(Rc);
}

template <Function F, typename Fn>
int sendrecv(Fn Pmpi, const void *Site, const void *SendBuf, int SendCount,
             MPI_Datatype SendType, int Dest, int SendTag, void *RecvBuf,
             int RecvCount, MPI_Datatype RecvType, int Source, int RecvTag,
             MPI_Comm Comm, MPI_Status *Status) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(SendBuf, SendCount, SendType, Dest, SendTag, RecvBuf, RecvCount,
                RecvType, Source, RecvTag, Comm, Status);
  MPI_Status Local;
  MPI_Status *St = Status == MPI_STATUS_IGNORE ? &Local : Status;
  CommInfo *I = commOf(C, Comm);
  C.record(
      message(EventKind::MpiSend,
              messageWith(I, Dest, SendTag, bytesOf(SendCount, SendType))));
  int Rc = Pmpi(SendBuf, SendCount, SendType, Dest, SendTag, RecvBuf, RecvCount,
                RecvType, Source, RecvTag, Comm, St);
  if (Rc == MPI_SUCCESS)
    received(C, EventKind::MpiRecv, I, St, 0);
  return C.end(Rc);
}

template <Function F, typename Fn>
int sendrecvReplace(Fn Pmpi, const void *Site, void *Buf, int Count,
                    MPI_Datatype T, int Dest, int SendTag, int Source,
                    int RecvTag, MPI_Comm Comm, MPI_Status *Status) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Buf, Count, T, Dest, SendTag, Source, RecvTag, Comm, Status);
  MPI_Status Local;
  MPI_Status *St = Status == MPI_STATUS_IGNORE ? &Local : Status;
  CommInfo *I = commOf(C, Comm);
  C.record(message(EventKind::MpiSend,
                   messageWith(I, Dest, SendTag, bytesOf(Count, T))));
  int Rc = Pmpi(Buf, Count, T, Dest, SendTag, Source, RecvTag, Comm, St);
  if (Rc == MPI_SUCCESS)
    received(C, EventKind::MpiRecv, I, St, 0);
  return C.end(Rc);
}

template <Function F, typename Fn>
int isend(Fn Pmpi, const void *Site, const void *Buf, int Count, MPI_Datatype T,
          int Dest, int Tag, MPI_Comm Comm, MPI_Request *Request) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Buf, Count, T, Dest, Tag, Comm, Request);
  CommInfo *I = commOf(C, Comm);
  Posted P;
  P.What = Posted::Send;
  P.Comm = I;
  P.M = messageWith(I, Dest, Tag, bytesOf(Count, T));
  P.M.Request = requests::newId();
  C.record(message(EventKind::MpiIsend, P.M));
  int Rc = Pmpi(Buf, Count, T, Dest, Tag, Comm, Request);
  if (Rc == MPI_SUCCESS)
    requests::insert(*Request, P);
  return C.end(Rc);
}

template <Function F, typename Fn>
int irecv(Fn Pmpi, const void *Site, void *Buf, int Count, MPI_Datatype T,
          int Source, int Tag, MPI_Comm Comm, MPI_Request *Request) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Buf, Count, T, Source, Tag, Comm, Request);
  CommInfo *I = commOf(C, Comm);
  Posted P;
  P.What = Posted::Recv;
  P.Comm = I;
  P.M = messageWith(I, Source, Tag, bytesOf(Count, T));
  P.M.Request = requests::newId();
  C.record(message(EventKind::MpiIrecvRequest, P.M));
  int Rc = Pmpi(Buf, Count, T, Source, Tag, Comm, Request);
  if (Rc == MPI_SUCCESS)
    requests::insert(*Request, P);
  return C.end(Rc);
}

template <Function F, typename Fn>
int requestFree(Fn Pmpi, const void *Site, MPI_Request *Request) {
  Call C(F, Site);
  if (C.On)
    if (requests::Claim *Cl = requests::claim(*Request))
      requests::release(Cl); // completes unobserved: forget it
  return C.end(Pmpi(Request));
}

// --- Completion ---------------------------------------------------------
//
// A completed request is one whose handle MPI set to MPI_REQUEST_NULL (true
// of every non-persistent request; persistent ones are not tracked).

/// Completions of N requests whose claims are Cl; StatusOf(i) gives the
/// status of request i (null: not completed by this call). Test*: the
/// ones still pending get an MpiRequestTest.
template <typename StatusFn>
void finishClaims(Call &C, int N, MPI_Request *Reqs, requests::Claim **Cl,
                  bool Testing, StatusFn StatusOf) {
  for (int I = 0; I < N; ++I) {
    if (!Cl[I])
      continue;
    const MPI_Status *St = StatusOf(I);
    if (St && Reqs[I] == MPI_REQUEST_NULL) {
      completed(C, requests::posted(Cl[I]), St);
      requests::release(Cl[I]);
    } else {
      if (Testing) {
        const Posted &P = requests::posted(Cl[I]);
        C.record(
            requestEvent(EventKind::MpiRequestTest, P.M.Comm, P.M.Request));
      }
      requests::unclaim(Cl[I]);
    }
  }
}

template <Function F, typename Fn>
int wait(Fn Pmpi, const void *Site, MPI_Request *Request, MPI_Status *Status) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Request, Status);
  requests::Claim *Cl = requests::claim(*Request);
  MPI_Status Local;
  MPI_Status *St = Cl && Status == MPI_STATUS_IGNORE ? &Local : Status;
  int Rc = Pmpi(Request, St);
  finishClaims(C, 1, Request, &Cl, false,
               [&](int) { return Rc == MPI_SUCCESS ? St : nullptr; });
  return C.end(Rc);
}

template <Function F, typename Fn>
int test(Fn Pmpi, const void *Site, MPI_Request *Request, int *Flag,
         MPI_Status *Status) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Request, Flag, Status);
  requests::Claim *Cl = requests::claim(*Request);
  MPI_Status Local;
  MPI_Status *St = Cl && Status == MPI_STATUS_IGNORE ? &Local : Status;
  int Rc = Pmpi(Request, Flag, St);
  finishClaims(C, 1, Request, &Cl, true,
               [&](int) { return Rc == MPI_SUCCESS && *Flag ? St : nullptr; });
  return C.end(Rc);
}

/// Claims for N requests (Inline when few); Any: some request is tracked.
struct ClaimSet {
  requests::Claim *Inline[32];
  requests::Claim **Cl;
  bool Any = false;
  ClaimSet(int N, MPI_Request *Reqs) {
    Cl = claimArray(N, Inline, 32);
    for (int I = 0; I < N; ++I) {
      Cl[I] = requests::claim(Reqs[I]);
      Any = Any || Cl[I];
    }
  }
};

template <Function F, typename Fn>
int waitall(Fn Pmpi, const void *Site, int N, MPI_Request *Reqs,
            MPI_Status *Statuses) {
  Call C(F, Site);
  if (!C.On || N <= 0) [[unlikely]]
    return C.end(Pmpi(N, Reqs, Statuses));
  ClaimSet S(N, Reqs);
  MPI_Status Inline[8];
  MPI_Status *Sts = S.Any && Statuses == MPI_STATUSES_IGNORE
                        ? statusArray(N, Inline, 8)
                        : Statuses;
  int Rc = Pmpi(N, Reqs, Sts);
  bool Ok = Rc == MPI_SUCCESS || Rc == MPI_ERR_IN_STATUS;
  finishClaims(C, N, Reqs, S.Cl, false,
               [&](int I) { return Ok ? &Sts[I] : nullptr; });
  return C.end(Rc);
}

template <Function F, typename Fn>
int testall(Fn Pmpi, const void *Site, int N, MPI_Request *Reqs, int *Flag,
            MPI_Status *Statuses) {
  Call C(F, Site);
  if (!C.On || N <= 0) [[unlikely]]
    return C.end(Pmpi(N, Reqs, Flag, Statuses));
  ClaimSet S(N, Reqs);
  MPI_Status Inline[8];
  MPI_Status *Sts = S.Any && Statuses == MPI_STATUSES_IGNORE
                        ? statusArray(N, Inline, 8)
                        : Statuses;
  int Rc = Pmpi(N, Reqs, Flag, Sts);
  bool Ok = (Rc == MPI_SUCCESS || Rc == MPI_ERR_IN_STATUS) && *Flag;
  finishClaims(C, N, Reqs, S.Cl, true,
               [&](int I) { return Ok ? &Sts[I] : nullptr; });
  return C.end(Rc);
}

template <Function F, typename Fn>
int waitany(Fn Pmpi, const void *Site, int N, MPI_Request *Reqs, int *Index,
            MPI_Status *Status) {
  Call C(F, Site);
  if (!C.On || N <= 0) [[unlikely]]
    return C.end(Pmpi(N, Reqs, Index, Status));
  ClaimSet S(N, Reqs);
  MPI_Status Local;
  MPI_Status *St = S.Any && Status == MPI_STATUS_IGNORE ? &Local : Status;
  int Rc = Pmpi(N, Reqs, Index, St);
  finishClaims(C, N, Reqs, S.Cl, false, [&](int I) {
    return Rc == MPI_SUCCESS && *Index == I ? St : nullptr;
  });
  return C.end(Rc);
}

template <Function F, typename Fn>
int testany(Fn Pmpi, const void *Site, int N, MPI_Request *Reqs, int *Index,
            int *Flag, MPI_Status *Status) {
  Call C(F, Site);
  if (!C.On || N <= 0) [[unlikely]]
    return C.end(Pmpi(N, Reqs, Index, Flag, Status));
  ClaimSet S(N, Reqs);
  MPI_Status Local;
  MPI_Status *St = S.Any && Status == MPI_STATUS_IGNORE ? &Local : Status;
  int Rc = Pmpi(N, Reqs, Index, Flag, St);
  finishClaims(C, N, Reqs, S.Cl, true, [&](int I) {
    return Rc == MPI_SUCCESS && *Flag && *Index == I ? St : nullptr;
  });
  return C.end(Rc);
}

/// Waitsome / Testsome: the completed ones are listed in Indices.
template <Function F, bool Testing, typename Fn>
int some(Fn Pmpi, const void *Site, int N, MPI_Request *Reqs, int *Outcount,
         int *Indices, MPI_Status *Statuses) {
  Call C(F, Site);
  if (!C.On || N <= 0) [[unlikely]]
    return C.end(Pmpi(N, Reqs, Outcount, Indices, Statuses));
  ClaimSet S(N, Reqs);
  MPI_Status Inline[8];
  MPI_Status *Sts = S.Any && Statuses == MPI_STATUSES_IGNORE
                        ? statusArray(N, Inline, 8)
                        : Statuses;
  int Rc = Pmpi(N, Reqs, Outcount, Indices, Sts);
  bool Ok = (Rc == MPI_SUCCESS || Rc == MPI_ERR_IN_STATUS) &&
            *Outcount != MPI_UNDEFINED;
  finishClaims(C, N, Reqs, S.Cl, Testing, [&](int I) -> const MPI_Status * {
    if (Ok)
      for (int J = 0; J < *Outcount; ++J)
        if (Indices[J] == I)
          return &Sts[J];
    return nullptr;
  });
  return C.end(Rc);
}
template <Function F, typename Fn>
int waitsome(Fn Pmpi, const void *Site, int N, MPI_Request *Reqs, int *Outcount,
             int *Indices, MPI_Status *Statuses) {
  return some<F, false>(Pmpi, Site, N, Reqs, Outcount, Indices, Statuses);
}
template <Function F, typename Fn>
int testsome(Fn Pmpi, const void *Site, int N, MPI_Request *Reqs, int *Outcount,
             int *Indices, MPI_Status *Statuses) {
  return some<F, true>(Pmpi, Site, N, Reqs, Outcount, Indices, Statuses);
}

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

} // namespace otter::mpi::wrap

#endif // OTTER_MPI_HANDLERS_H
