//===- otter/mpi.h - MPI events: functions, payload layout, accessors -*- C++
//-*-===//
//
// What the MPI wrapper library (runtime/mpi/) records, in OTTER's fixed
// 48-byte Event (otter/events.h), and how every consumer reads it back: the
// typed constructors below are the only writers of the payload fields of an
// MPI event, the accessors the only readers. Nothing here knows about MPI's
// own headers (MPI_Comm, MPI_Request are the wrapper library's business), so
// the builder, the trace writer and reader, and the utils use it MPI-free.
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

/// The MPI functions the wrapper library records, as MpiCallBegin/End Sub.
/// Values are stored in traces: append only, never renumber. The list (and
/// each function's handler) is runtime/mpi/wrappers.spec; names come from
/// functionName().
enum class Function : std::uint16_t {
  None = 0,
#define OTTER_MPI_FUNCTION(Name, Value, ...) Name = Value,
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

// --- Payload layout -------------------------------------------------------
//
//  kind                 Sub        A          Code               Aux Extra
//  MpiCallBegin/End     Function   End: rc    call site          -          -
//  MpiSend, MpiIsend,   comm index bytes      request<<32 |      tag peer rank
//  MpiIsendComplete,                          peer world rank               in
//  comm MpiRecv, MpiIrecv, MpiIrecvRequest      (posted values: source/tag may
//  be NoRank/AnyTag,
//                        bytes = the receive buffer's size)
//  MpiRequestTest,      comm index 0          request<<32        -          -
//  MpiRequestCancelled
//  MpiCollectiveBegin   comm index instance   request<<32 | op   root rank root
//  world
//                                                                 in comm rank
//  MpiCollectiveEnd     comm index op<<56 |   bytes received     root rank
//  request
//                                  bytes sent                    in comm
//  MpiCommCreate        comm index CommKey    parent CommKey     size       own
//  rank MpiCommMembers       comm index 2 ranks    2 ranks            first idx
//  count 1..4 MpiCommFree          comm index CommKey    -                  - -
//  MpiInit              thread lvl world size host id            world rank -
//  MpiClockOffset       0 init,    offset ns  local time (ns)    round trip -
//                       1 finalize (signed: add to local time to read rank 0's)
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
/// True for the kinds whose Code field is a code address (the others use
/// it for payload).
inline bool codeIsAddress(EventKind K) {
  return K < EventKind::MpiCallBegin || K == EventKind::MpiCallBegin ||
         K == EventKind::MpiCallEnd;
}
inline bool isMpi(EventKind K) {
  return K >= EventKind::MpiCallBegin && K <= EventKind::MpiClockOffset;
}

namespace detail {
inline Event blank(EventKind K) {
  Event E{};
  E.Kind = K;
  return E;
}
} // namespace detail

inline Event callBegin(Function F, std::uint64_t Site) {
  Event E = detail::blank(EventKind::MpiCallBegin);
  E.Sub = std::uint16_t(F);
  E.Code = Site;
  return E;
}
inline Event callEnd(Function F, std::uint64_t Site, int ReturnCode) {
  Event E = detail::blank(EventKind::MpiCallEnd);
  E.Sub = std::uint16_t(F);
  E.Code = Site;
  E.A = std::uint64_t(std::uint32_t(ReturnCode));
  return E;
}
inline Event message(EventKind K, const Message &M) {
  Event E = detail::blank(K);
  E.Sub = M.Comm;
  E.A = M.Bytes;
  E.Code = std::uint64_t(M.Request) << 32 | M.PeerWorld;
  E.Aux = M.Tag;
  E.Extra = M.PeerInComm;
  return E;
}
inline Event requestEvent(EventKind K, std::uint16_t Comm,
                          std::uint32_t Request) {
  Event E = detail::blank(K);
  E.Sub = Comm;
  E.Code = std::uint64_t(Request) << 32;
  return E;
}
inline Event collectiveBegin(std::uint16_t Comm, CollectiveOp Op,
                             std::uint64_t Instance, std::uint32_t RootInComm,
                             std::uint32_t RootWorld, std::uint32_t Request) {
  Event E = detail::blank(EventKind::MpiCollectiveBegin);
  E.Sub = Comm;
  E.A = Instance;
  E.Code = std::uint64_t(Request) << 32 | std::uint64_t(Op);
  E.Aux = RootInComm;
  E.Extra = RootWorld;
  return E;
}
inline constexpr std::uint64_t SentMask = (std::uint64_t(1) << 56) - 1;
inline Event collectiveEnd(std::uint16_t Comm, CollectiveOp Op,
                           std::uint32_t RootInComm, std::uint64_t BytesSent,
                           std::uint64_t BytesReceived, std::uint32_t Request) {
  Event E = detail::blank(EventKind::MpiCollectiveEnd);
  E.Sub = Comm;
  E.A = std::uint64_t(Op) << 56 | (BytesSent & SentMask);
  E.Code = BytesReceived;
  E.Aux = RootInComm;
  E.Extra = Request;
  return E;
}
inline Event commCreateEvent(std::uint16_t Comm, std::uint64_t Key,
                             std::uint64_t ParentKey, std::uint32_t Size,
                             std::uint32_t OwnRank) {
  Event E = detail::blank(EventKind::MpiCommCreate);
  E.Sub = Comm;
  E.A = Key;
  E.Code = ParentKey;
  E.Aux = Size;
  E.Extra = OwnRank;
  return E;
}
/// Up to four members (world ranks) of a communicator, from index First.
inline Event commMembersEvent(std::uint16_t Comm, std::uint32_t First,
                              const std::uint32_t *Ranks, unsigned Count) {
  Event E = detail::blank(EventKind::MpiCommMembers);
  std::uint32_t R[4] = {NoRank, NoRank, NoRank, NoRank};
  for (unsigned I = 0; I < Count && I < 4; ++I)
    R[I] = Ranks[I];
  E.Sub = Comm;
  E.A = std::uint64_t(R[1]) << 32 | R[0];
  E.Code = std::uint64_t(R[3]) << 32 | R[2];
  E.Aux = First;
  E.Extra = Count < 4 ? Count : 4;
  return E;
}
inline Event commFreeEvent(std::uint16_t Comm, std::uint64_t Key) {
  Event E = detail::blank(EventKind::MpiCommFree);
  E.Sub = Comm;
  E.A = Key;
  return E;
}
inline Event initEvent(std::uint32_t WorldRank, std::uint32_t WorldSize,
                       std::uint16_t ThreadLevel, std::uint64_t HostId) {
  Event E = detail::blank(EventKind::MpiInit);
  E.Sub = ThreadLevel;
  E.A = WorldSize;
  E.Code = HostId;
  E.Aux = WorldRank;
  return E;
}

inline Event clockOffsetEvent(std::uint16_t Which, std::uint64_t LocalNs,
                              std::int64_t OffsetNs,
                              std::uint64_t RoundTripNs) {
  Event E = detail::blank(EventKind::MpiClockOffset);
  E.Sub = Which;
  E.A = std::uint64_t(OffsetNs);
  E.Code = LocalNs;
  E.Aux =
      RoundTripNs > 0xffffffffull ? 0xffffffffu : std::uint32_t(RoundTripNs);
  return E;
}

// --- Accessors --------------------------------------------------------------

inline Function function(const Event &E) { return Function(E.Sub); }
inline std::uint16_t comm(const Event &E) { return E.Sub; }
inline Message messageOf(const Event &E) {
  Message M;
  M.Comm = E.Sub;
  M.Bytes = E.A;
  M.Request = std::uint32_t(E.Code >> 32);
  M.PeerWorld = std::uint32_t(E.Code);
  M.Tag = E.Aux;
  M.PeerInComm = E.Extra;
  return M;
}
/// The request of a message, request, or collective event (0: none).
inline std::uint32_t request(const Event &E) {
  if (E.Kind == EventKind::MpiCollectiveEnd)
    return E.Extra;
  return std::uint32_t(E.Code >> 32);
}
inline CollectiveOp collectiveOp(const Event &E) {
  return E.Kind == EventKind::MpiCollectiveEnd ? CollectiveOp(E.A >> 56)
                                               : CollectiveOp(E.Code & 0xff);
}
inline std::uint64_t collectiveInstance(const Event &E) { return E.A; }
/// MpiCollectiveBegin and End.
inline std::uint32_t rootInComm(const Event &E) { return E.Aux; }
/// MpiCollectiveBegin.
inline std::uint32_t rootWorld(const Event &E) { return E.Extra; }
inline std::uint64_t bytesSent(const Event &E) { return E.A & SentMask; }
inline std::uint64_t bytesReceived(const Event &E) { return E.Code; }
inline std::uint64_t commKey(const Event &E) { return E.A; }
inline std::uint64_t parentKey(const Event &E) { return E.Code; }
inline std::uint32_t commSize(const Event &E) { return E.Aux; }
inline std::uint32_t ownRank(const Event &E) { return E.Extra; }
/// Members listed by an MpiCommMembers event, into Out[4]; returns count.
inline unsigned members(const Event &E, std::uint32_t &First,
                        std::uint32_t Out[4]) {
  First = E.Aux;
  Out[0] = std::uint32_t(E.A);
  Out[1] = std::uint32_t(E.A >> 32);
  Out[2] = std::uint32_t(E.Code);
  Out[3] = std::uint32_t(E.Code >> 32);
  return E.Extra < 4 ? E.Extra : 4;
}
inline std::uint32_t worldRank(const Event &E) { return E.Aux; }
inline std::uint32_t worldSize(const Event &E) { return std::uint32_t(E.A); }
inline std::int64_t clockOffset(const Event &E) { return std::int64_t(E.A); }
inline std::uint64_t clockOffsetTime(const Event &E) { return E.Code; }
inline int returnCode(const Event &E) { return int(std::uint32_t(E.A)); }

} // namespace otter::mpi

#endif // OTTER_MPI_H
