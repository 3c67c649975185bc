//===- mpi/handlers.h - What each wrapped MPI call records -------*- C++
//-*-===//
//
// One function template per shape of MPI call (send, receive, persistent
// and matched receives, completion; collectives and communicator creation
// are in mpi/handlers_collective.h). wrappers.cpp instantiates one per
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

#include <atomic>
#include <cstdint>
#include <vector>

namespace otter::mpi::wrap {

/// MPI calls of this thread under way in the wrappers (wrappers.cpp). An
/// MPI call made inside another one -- by an MPI library that implements a
/// call with others through their MPI_ names, or by a callback the library
/// runs (an error handler, an attribute's delete function) -- goes straight
/// to its PMPI entry point: recording it would nest a call inside a call,
/// and count the library's work as the program's. Initial-exec: the
/// library is loaded at start (preloaded or linked), and the access is one
/// load.
extern thread_local unsigned CallDepth
    __attribute__((tls_model("initial-exec")));
struct InCall {
  InCall() { ++CallDepth; }
  ~InCall() { --CallDepth; }
  InCall(const InCall &) = delete;
  InCall &operator=(const InCall &) = delete;
};

/// The sampling handler's resume point while the thread is in this
/// wrapped call (otter/source.h, otter_source_sample_resume): the MPI
/// library's code has no frame pointers, so a sample taken inside it goes
/// on at the wrapper's frame, into the program's caller, with the wrapper
/// (MPI_<name>) as a frame of its path. One thread-local load and a
/// branch when the thread is not sampled.
struct SampleResume {
  volatile std::uintptr_t *Slot;
  [[gnu::always_inline]] SampleResume(const void *Frame, const void *Entry)
      : Slot(otter_source_sample_resume()) {
    if (Slot) [[unlikely]] {
      Slot[1] = reinterpret_cast<std::uintptr_t>(Entry) + 1;
      std::atomic_signal_fence(std::memory_order_seq_cst);
      Slot[0] = reinterpret_cast<std::uintptr_t>(Frame);
    }
  }
  ~SampleResume() {
    if (Slot) [[unlikely]]
      Slot[0] = 0;
  }
  SampleResume(const SampleResume &) = delete;
  SampleResume &operator=(const SampleResume &) = delete;
};

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
/// Before MPI_Finalize: clock offsets, and the counts of untraced calls.
void beforeFinalize(Call &C);
/// The first value of mpi_functions.def's OTTER_MPI_COUNTED rows.
inline constexpr unsigned FirstCounted = 200;
/// Calls so far of a counted function (wrappers.cpp; 0 if F is not one, or
/// on a machine where counting is not built).
std::uint64_t untracedCalls(Function F);

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

/// Isend/Irecv (posted now: recorded with a request id of its own) and
/// their persistent *_init forms (tracked, inactive: MPI_Start posts them).
template <Function F, bool Persistent, typename Fn, typename BufT>
int postMessage(Fn Pmpi, const void *Site, Posted::Kind What, BufT Buf,
                int Count, MPI_Datatype T, int Peer, int Tag, MPI_Comm Comm,
                MPI_Request *Request) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Buf, Count, T, Peer, Tag, Comm, Request);
  CommInfo *I = commOf(C, Comm);
  Posted P;
  P.What = What;
  P.Comm = I;
  P.M = messageWith(I, Peer, Tag, bytesOf(Count, T));
  P.Persistent = Persistent;
  if (!Persistent) {
    P.M.Request = requests::newId();
    C.record(message(What == Posted::Send ? EventKind::MpiIsend
                                          : EventKind::MpiIrecvRequest,
                     P.M));
  }
  int Rc = Pmpi(Buf, Count, T, Peer, Tag, Comm, Request);
  if (Rc == MPI_SUCCESS)
    requests::insert(*Request, P);
  return C.end(Rc);
}

template <Function F, typename Fn>
int isend(Fn Pmpi, const void *Site, const void *Buf, int Count, MPI_Datatype T,
          int Dest, int Tag, MPI_Comm Comm, MPI_Request *Request) {
  return postMessage<F, false>(Pmpi, Site, Posted::Send, Buf, Count, T, Dest,
                               Tag, Comm, Request);
}

template <Function F, typename Fn>
int irecv(Fn Pmpi, const void *Site, void *Buf, int Count, MPI_Datatype T,
          int Source, int Tag, MPI_Comm Comm, MPI_Request *Request) {
  return postMessage<F, false>(Pmpi, Site, Posted::Recv, Buf, Count, T, Source,
                               Tag, Comm, Request);
}

// --- Matched probe and receive ----------------------------------------------

template <Function F, typename Fn>
int mprobe(Fn Pmpi, const void *Site, int Source, int Tag, MPI_Comm Comm,
           MPI_Message *Msg, MPI_Status *Status) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Source, Tag, Comm, Msg, Status);
  CommInfo *I = commOf(C, Comm);
  int Rc = Pmpi(Source, Tag, Comm, Msg, Status);
  if (Rc == MPI_SUCCESS)
    requests::rememberMatched(*Msg, I);
  return C.end(Rc);
}

template <Function F, typename Fn>
int improbe(Fn Pmpi, const void *Site, int Source, int Tag, MPI_Comm Comm,
            int *Flag, MPI_Message *Msg, MPI_Status *Status) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Source, Tag, Comm, Flag, Msg, Status);
  CommInfo *I = commOf(C, Comm);
  int Rc = Pmpi(Source, Tag, Comm, Flag, Msg, Status);
  if (Rc == MPI_SUCCESS && *Flag)
    requests::rememberMatched(*Msg, I);
  return C.end(Rc);
}

/// The message is matched already: the receive is complete when the call
/// returns, with the message's real source and tag.
template <Function F, typename Fn>
int mrecv(Fn Pmpi, const void *Site, void *Buf, int Count, MPI_Datatype T,
          MPI_Message *Msg, MPI_Status *Status) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Buf, Count, T, Msg, Status);
  bool NoProc = *Msg == MPI_MESSAGE_NO_PROC;
  const CommInfo *I = requests::takeMatched(*Msg);
  MPI_Status Local;
  MPI_Status *St = Status == MPI_STATUS_IGNORE ? &Local : Status;
  int Rc = Pmpi(Buf, Count, T, Msg, St);
  if (Rc == MPI_SUCCESS && !NoProc)
    received(C, EventKind::MpiRecv, I, St, 0);
  return C.end(Rc);
}

/// Posted as an MPI_Irecv from the matched source and tag would be (known
/// only when the message completes: the request carries wildcards).
template <Function F, typename Fn>
int imrecv(Fn Pmpi, const void *Site, void *Buf, int Count, MPI_Datatype T,
           MPI_Message *Msg, MPI_Request *Request) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Buf, Count, T, Msg, Request);
  bool NoProc = *Msg == MPI_MESSAGE_NO_PROC;
  const CommInfo *I = requests::takeMatched(*Msg);
  Posted P;
  P.What = Posted::Recv;
  P.Comm = I;
  P.M = messageWith(I, MPI_ANY_SOURCE, MPI_ANY_TAG, bytesOf(Count, T));
  P.M.Request = requests::newId();
  if (!NoProc)
    C.record(message(EventKind::MpiIrecvRequest, P.M));
  int Rc = Pmpi(Buf, Count, T, Msg, Request);
  if (Rc == MPI_SUCCESS && !NoProc)
    requests::insert(*Request, P);
  return C.end(Rc);
}

// --- Persistent requests ---------------------------------------------------

template <Function F, typename Fn>
int sendInit(Fn Pmpi, const void *Site, const void *Buf, int Count,
             MPI_Datatype T, int Dest, int Tag, MPI_Comm Comm,
             MPI_Request *Request) {
  return postMessage<F, true>(Pmpi, Site, Posted::Send, Buf, Count, T, Dest,
                              Tag, Comm, Request);
}

template <Function F, typename Fn>
int recvInit(Fn Pmpi, const void *Site, void *Buf, int Count, MPI_Datatype T,
             int Source, int Tag, MPI_Comm Comm, MPI_Request *Request) {
  return postMessage<F, true>(Pmpi, Site, Posted::Recv, Buf, Count, T, Source,
                              Tag, Comm, Request);
}

/// A persistent request's next instance: recorded as the Isend or the
/// Irecv it stands for, with a fresh request id (before the call: the
/// message may be matched as soon as it is started).
inline void startInstance(Call &C, MPI_Request R) {
  requests::Claim *Cl = requests::claim(R);
  if (!Cl)
    return;
  Posted &P = requests::postedToChange(Cl);
  if (P.Persistent && P.What != Posted::Collective) {
    P.M.Request = requests::newId();
    P.Active = true;
    C.record(message(P.What == Posted::Send ? EventKind::MpiIsend
                                            : EventKind::MpiIrecvRequest,
                     P.M));
  }
  requests::unclaim(Cl);
}

template <Function F, typename Fn>
int start(Fn Pmpi, const void *Site, MPI_Request *Request) {
  Call C(F, Site);
  if (C.On)
    startInstance(C, *Request);
  return C.end(Pmpi(Request));
}

template <Function F, typename Fn>
int startall(Fn Pmpi, const void *Site, int N, MPI_Request *Reqs) {
  Call C(F, Site);
  if (C.On)
    for (int I = 0; I < N; ++I)
      startInstance(C, Reqs[I]);
  return C.end(Pmpi(N, Reqs));
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
// A completed request is one whose handle MPI set to MPI_REQUEST_NULL; a
// persistent one keeps its handle: it completed when the call gave its
// status (and it was active: an inactive one returns at once, empty).

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
    Posted &P = requests::postedToChange(Cl[I]);
    bool Pending = !P.Persistent || P.Active; // a started instance
    bool Done = St && Pending &&
                (P.Persistent || Reqs[I] == MPI_REQUEST_NULL);
    if (Done)
      completed(C, P, St);
    else if (Testing && Pending)
      C.record(requestEvent(EventKind::MpiRequestTest, P.M.Comm, P.M.Request));
    if (Done && !P.Persistent) {
      requests::release(Cl[I]);
      continue;
    }
    P.Active = P.Active && !Done;
    requests::unclaim(Cl[I]);
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

} // namespace otter::mpi::wrap

#endif // OTTER_MPI_HANDLERS_H
