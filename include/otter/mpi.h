//===- otter/mpi.h - MPI events: functions, payload layout, accessors -*- C++
//-*-===//
//
// What the MPI wrapper library (runtime/mpi/) records, in OTTER's fixed
// 48-byte Event (otter/events.h), and how every consumer reads it back: the
// fields are the MPI rows of otter/event_kinds.def, and the constructors and
// accessors below the wrapper library's vocabulary over them. Nothing here
// knows about MPI's own headers (MPI_Comm, MPI_Request are the wrapper
// library's business), so the builder, the trace writer and reader, and the
// utils use it MPI-free.
//
// Identities, all made without communication:
//  - Communicator: `CommIndex` (16 bits, the slot of the communicator in the
//    process's table; reused after MPI_Comm_free) names it inside one
//    process's stream; `CommKey` (64 bits) names it in the whole job: the
//    same communicator has the same key on every member. WORLD is 1; SELF
//    of world rank r is commSelfKey(r); a communicator made by a collective
//    creation call (dup, split, create, ...) is mixKey(parent key, k, leader)
//    where k counts the creation calls on the parent (every member makes
//    them in the same order: MPI requires it) and the leader is the lowest
//    world rank of the new communicator (it tells apart the communicators
//    one split makes). MpiCommCreate events bind an index to a key and list
//    the members (world ranks) in MpiCommMembers events.
//  - Request: 32 bits, unique among the requests outstanding in a process
//    (per-thread counter with the thread in the top bits; it wraps after
//    4 Mi requests of one thread, so match a completion to the latest post
//    with its id).
//  - Collective instance: the k-th collective (blocking or not, MPI
//    requires the same order on every member) on a communicator, counted
//    from 0 per CommKey; with the key it names the same operation on every
//    member (the job-wide node of the job graph).
//
// Ranks: every message event carries its peer both as a rank in the
// communicator and as a rank in MPI_COMM_WORLD (NoRank: none, e.g. a
// receive posted with MPI_ANY_SOURCE, or MPI_PROC_NULL).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_MPI_H
#define OTTER_MPI_H

#include "otter/event_info.h"
#include "otter/events.h"

#include <cstdint>

namespace otter::mpi {

inline constexpr std::uint32_t NoRank = 0xffffffffu;
inline constexpr std::uint32_t AnyTag = 0xffffffffu;
inline constexpr std::uint64_t WorldKey = 1;

/// Job-wide key of a communicator created by the K-th creation call on the
/// communicator with key Parent, whose lowest world rank is Leader.
constexpr std::uint64_t mixKey(std::uint64_t Parent, std::uint64_t K,
                               std::uint64_t Leader) {
  std::uint64_t H = 0xcbf29ce484222325ull;
  const std::uint64_t Values[3] = {Parent, K, Leader};
  for (std::uint64_t V : Values)
    for (int I = 0; I < 8; ++I) {
      H ^= (V >> (8 * I)) & 0xff;
      H *= 0x100000001b3ull;
    }
  return H < 16 ? H + 16 : H; // 0..15: reserved for predefined keys
}
constexpr std::uint64_t commSelfKey(std::uint32_t WorldRank) {
  return mixKey(2, 0, WorldRank);
}

/// The MPI functions the wrapper library records, as MpiCallBegin/End Sub,
/// and those it only counts (MpiUntracedCalls). Values are stored in
/// traces: append only, never renumber. The list (and each function's
/// handler) is otter/mpi_functions.def; names come from functionName().
enum class Function : std::uint16_t {
  None = 0,
#define OTTER_MPI_FUNCTION(Name, Value, ...) Name = Value,
#define OTTER_MPI_COUNTED(Name, Value) Name = Value,
#include "otter/mpi_functions.def"
};
const char *functionName(Function F); // "MPI_Send"; "MPI_?" if unknown

/// Collective operations: the values of OTF2's OTF2_CollectiveOp.
enum class CollectiveOp : std::uint8_t {
  Barrier = 0,
  Bcast = 1,
  Gather = 2,
  Gatherv = 3,
  Scatter = 4,
  Scatterv = 5,
  Allgather = 6,
  Allgatherv = 7,
  Alltoall = 8,
  Alltoallv = 9,
  Alltoallw = 10,
  Allreduce = 11,
  Reduce = 12,
  ReduceScatter = 13,
  Scan = 14,
  Exscan = 15,
  ReduceScatterBlock = 16,
};

/// The operation's name in OTTER's outputs ("allreduce"); null if unknown.
inline const char *collectiveOpName(CollectiveOp Op) {
  static constexpr const char *Names[] = {
      "barrier",   "bcast",          "gather",    "gatherv",
      "scatter",   "scatterv",       "allgather", "allgatherv",
      "alltoall",  "alltoallv",      "alltoallw", "allreduce",
      "reduce",    "reduce_scatter", "scan",      "exscan",
      "reduce_scatter_block"};
  return unsigned(Op) < sizeof Names / sizeof Names[0] ? Names[unsigned(Op)]
                                                       : nullptr;
}

// --- Payload ----------------------------------------------------------------
//
// Each MPI kind's fields are its row in otter/event_kinds.def (the table of
// every event kind: slots, constructors, accessors); the functions below are
// the wrapper library's vocabulary over them (a message's six fields as one
// struct, a request whatever the kind, ...). The task of an event is set
// where it is recorded (core/source.cpp): 0 here.
//
// Blocking point-to-point calls have request 0. Non-blocking collectives
// have a request; their MpiCollectiveBegin is recorded in the call that
// starts them, their MpiCollectiveEnd in the Wait/Test that completes them.

struct Message {
  std::uint16_t Comm = 0;
  std::uint64_t Bytes = 0;
  std::uint32_t Request = 0;
  std::uint32_t PeerWorld = NoRank;
  std::uint32_t PeerInComm = NoRank;
  std::uint32_t Tag = 0;
};

inline bool isMessage(EventKind K) {
  return K == EventKind::MpiSend || K == EventKind::MpiIsend ||
         K == EventKind::MpiIsendComplete || K == EventKind::MpiIrecvRequest ||
         K == EventKind::MpiRecv || K == EventKind::MpiIrecv;
}
/// The MPI kinds (the table's Graph column: Mpi).
inline bool isMpi(EventKind K) { return kindInfo(K).Graph == GraphRole::Mpi; }

inline Event callBegin(Function F, std::uint64_t Site) {
  return Event::mpiCallBegin(0, 0, F, Site);
}
inline Event callEnd(Function F, std::uint64_t Site, int ReturnCode) {
  return Event::mpiCallEnd(0, 0, F, Site, ReturnCode);
}
/// K: one of the message kinds (isMessage), which share their fields.
inline Event message(EventKind K, const Message &M) {
  Event E = Event::mpiSend(0, 0, M.Comm, M.PeerInComm, M.PeerWorld, M.Tag,
                           M.Bytes, M.Request);
  E.Kind = K;
  return E;
}
/// K: MpiRequestTest or MpiRequestCancelled.
inline Event requestEvent(EventKind K, std::uint16_t Comm,
                          std::uint32_t Request) {
  Event E = Event::mpiRequestTest(0, 0, Comm, Request);
  E.Kind = K;
  return E;
}
inline Event collectiveBegin(std::uint16_t Comm, CollectiveOp Op,
                             std::uint64_t Instance, std::uint32_t RootInComm,
                             std::uint32_t RootWorld, std::uint32_t Request) {
  return Event::mpiCollectiveBegin(0, 0, Comm, Op, Instance, RootInComm,
                                   RootWorld, Request);
}
/// What a collective's end can say of the bytes it sent (56 bits).
inline constexpr std::uint64_t SentMask = (std::uint64_t(1) << 56) - 1;
inline Event collectiveEnd(std::uint16_t Comm, CollectiveOp Op,
                           std::uint32_t RootInComm, std::uint64_t BytesSent,
                           std::uint64_t BytesReceived, std::uint32_t Request) {
  return Event::mpiCollectiveEnd(0, 0, Comm, Op, RootInComm,
                                 BytesSent & SentMask, BytesReceived, Request);
}
inline Event commCreateEvent(std::uint16_t Comm, std::uint64_t Key,
                             std::uint64_t ParentKey, std::uint32_t Size,
                             std::uint32_t OwnRank) {
  return Event::mpiCommCreate(0, 0, Comm, Key, ParentKey, Size, OwnRank);
}
/// Up to four members (world ranks) of a communicator, from index First.
inline Event commMembersEvent(std::uint16_t Comm, std::uint32_t First,
                              const std::uint32_t *Ranks, unsigned Count) {
  std::uint32_t R[4] = {NoRank, NoRank, NoRank, NoRank};
  for (unsigned I = 0; I < Count && I < 4; ++I)
    R[I] = Ranks[I];
  return Event::mpiCommMembers(0, 0, Comm, First, Count < 4 ? Count : 4, R[0],
                               R[1], R[2], R[3]);
}
inline Event commFreeEvent(std::uint16_t Comm, std::uint64_t Key) {
  return Event::mpiCommFree(0, 0, Comm, Key);
}
inline Event commNameEvent(std::uint16_t Comm, std::uint64_t Key,
                           std::uint32_t Name) {
  return Event::mpiCommName(0, 0, Comm, Key, Name);
}
/// Bytes moved by a one-sided operation (Comm: the window's index, peers:
/// the target) or a file read or write (Comm 0, peers NoRank).
inline Event transferEvent(std::uint16_t Comm, std::uint32_t PeerInComm,
                           std::uint32_t PeerWorld, std::uint64_t Bytes) {
  return Event::mpiTransfer(0, 0, Comm, PeerInComm, PeerWorld, Bytes);
}
inline Event initEvent(std::uint32_t WorldRank, std::uint32_t WorldSize,
                       std::uint16_t ThreadLevel, std::uint64_t HostId) {
  return Event::mpiInit(0, 0, WorldRank, WorldSize, ThreadLevel, HostId);
}
/// Which: 0 at MPI_Init, 1 at MPI_Finalize.
inline Event clockOffsetEvent(std::uint16_t Which, std::uint64_t LocalNs,
                              std::int64_t OffsetNs,
                              std::uint64_t RoundTripNs) {
  return Event::mpiClockOffset(
      0, 0, Which, LocalNs, OffsetNs,
      RoundTripNs > 0xffffffffull ? 0xffffffffu : std::uint32_t(RoundTripNs));
}

/// Calls of an MPI function counted but not traced (mpi_functions.def).
inline Event untracedCallsEvent(Function F, std::uint64_t Calls) {
  return Event::mpiUntracedCalls(0, 0, F, Calls);
}

// --- Accessors --------------------------------------------------------------

inline Function function(const Event &E) { return E.function(); }
inline std::uint16_t comm(const Event &E) { return E.comm(); }
inline Message messageOf(const Event &E) {
  Message M;
  M.Comm = E.comm();
  M.Bytes = E.bytes();
  M.Request = E.request();
  M.PeerWorld = E.peerWorld();
  M.Tag = E.tag();
  M.PeerInComm = E.peer();
  return M;
}
/// The request of a message, request, or collective event (0: none).
inline std::uint32_t request(const Event &E) {
  return E.Kind == EventKind::MpiCollectiveEnd ? E.endRequest() : E.request();
}
inline CollectiveOp collectiveOp(const Event &E) {
  return E.Kind == EventKind::MpiCollectiveEnd ? E.endOp() : E.op();
}
inline std::uint64_t collectiveInstance(const Event &E) { return E.instance(); }
/// MpiCollectiveBegin and End.
inline std::uint32_t rootInComm(const Event &E) { return E.root(); }
/// MpiCollectiveBegin.
inline std::uint32_t rootWorld(const Event &E) { return E.rootWorld(); }
inline std::uint64_t bytesSent(const Event &E) { return E.bytesSent(); }
inline std::uint64_t bytesReceived(const Event &E) { return E.bytesReceived(); }
inline std::uint64_t commKey(const Event &E) { return E.commKey(); }
inline std::uint64_t parentKey(const Event &E) { return E.parentKey(); }
inline std::uint32_t commSize(const Event &E) { return E.commSize(); }
inline std::uint32_t ownRank(const Event &E) { return E.ownRank(); }
/// Members listed by an MpiCommMembers event, into Out[4]; returns count.
inline unsigned members(const Event &E, std::uint32_t &First,
                        std::uint32_t Out[4]) {
  First = E.firstMember();
  Out[0] = E.member0();
  Out[1] = E.member1();
  Out[2] = E.member2();
  Out[3] = E.member3();
  return E.memberCount() < 4 ? E.memberCount() : 4;
}
inline std::uint32_t worldRank(const Event &E) { return E.worldRank(); }
inline std::uint32_t worldSize(const Event &E) { return E.worldSize(); }
inline std::int64_t clockOffset(const Event &E) { return E.clockOffset(); }
inline std::uint64_t clockOffsetTime(const Event &E) { return E.localTime(); }
inline int returnCode(const Event &E) { return E.returnCode(); }

} // namespace otter::mpi

#endif // OTTER_MPI_H
