//===- mpi/tables.h - Communicators and requests the wrappers track -*- C++
//-*-===//
//
// The MPI wrapper library's two shared tables, both read and written from
// any thread (MPI_THREAD_MULTIPLE) without a lock on the common path:
//
//  - Communicators: handle -> CommInfo (its index in the event stream, its
//    job-wide key, its members as world ranks, and its collective and
//    creation counters). Registered at creation (rare; a mutex there), read
//    lock-free on every call: WORLD is one compare, others one hash probe.
//  - Requests: handle -> what was posted (message, or collective), from the
//    Isend/Irecv/I<collective> that made it to the Wait/Test that completes
//    it, which may run on another thread (a persistent request: from its
//    *_init to its MPI_Request_free). Open addressing over atomic keys;
//    a completing call *claims* its requests before calling MPI (MPI may
//    hand a freed handle to another thread's new request the moment it
//    completes; a claimed slot is invisible to that thread's lookups) and
//    releases them afterwards. Probes are bounded: a full neighbourhood
//    sends the request to a small locked overflow list.
//
// Nothing here records events (mpi/handlers.h does).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_MPI_TABLES_H
#define OTTER_MPI_TABLES_H

#include "otter/mpi.h"

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <cstring>

namespace otter::mpi {

/// A handle (pointer in Open MPI, int in MPICH) as a number.
template <typename H> inline std::uint64_t handleBits(H Handle) {
  static_assert(sizeof(H) <= 8);
  std::uint64_t Bits = 0;
  std::memcpy(&Bits, &Handle, sizeof(H));
  return Bits;
}

struct CommInfo {
  std::uint16_t Index = 0;
  std::uint64_t Key = 0;
  std::uint32_t Size = 0;    // remote group's size for an intercommunicator
  std::uint32_t OwnRank = 0; // in the (local) group
  /// World rank of each rank of the (remote) group; null: the identity.
  std::uint32_t *WorldOf = nullptr;
  std::atomic<std::uint64_t> Collectives{0}; // instances so far
  std::atomic<std::uint64_t> Creations{0};   // dup/split/... calls so far

  std::uint32_t worldRank(int Rank) const {
    if (Rank < 0 || std::uint32_t(Rank) >= Size)
      return NoRank; // MPI_PROC_NULL, MPI_ANY_SOURCE, MPI_ROOT, bad
    return WorldOf ? WorldOf[Rank] : std::uint32_t(Rank);
  }
};

/// Member list of a communicator just made (world ranks, in rank order);
/// what MpiCommMembers events carry.
struct Members {
  std::uint32_t Count = 0;
  const std::uint32_t *WorldRanks = nullptr; // null: the identity
};

namespace comms {

/// Called once MPI is initialised: learns WORLD and SELF. False: MPI is
/// not initialised (nothing is tracked then).
bool initialise();
bool ready();
std::uint32_t worldRank();
std::uint32_t worldSize();

/// The communicator, registering one never seen (made by a call OTTER does
/// not wrap; its key is then not the same on other ranks). `Fresh` is set
/// when this call registered it (its MpiCommCreate is then due).
CommInfo *lookup(MPI_Comm C, bool &Fresh);
inline CommInfo *lookup(MPI_Comm C) {
  bool Fresh;
  return lookup(C, Fresh);
}
/// Registers a communicator made by a collective creation call on Parent
/// (the K-th such call there). Null if C is MPI_COMM_NULL.
CommInfo *create(MPI_Comm C, const CommInfo *Parent, std::uint64_t K);
/// Forgets C (before MPI_Comm_free).
void remove(MPI_Comm C);
/// A window made by a collective call on Comm (the K-th creation on its
/// communicator Parent): tracked as a communicator of its own, of Comm's
/// members, so its fences are collective instances. Null if W is
/// MPI_WIN_NULL.
CommInfo *createWindow(MPI_Win W, MPI_Comm Comm, const CommInfo *Parent,
                       std::uint64_t K);
/// The window's entry; null if it was not made by a wrapped call.
CommInfo *window(MPI_Win W);
/// Forgets W (before MPI_Win_free).
void removeWindow(MPI_Win W);
/// The members of I as world ranks (for MpiCommMembers).
Members membersOf(const CommInfo &I);

} // namespace comms

/// What a non-blocking call posted.
struct Posted {
  enum Kind : std::uint8_t { Send, Recv, Collective } What = Send;
  CollectiveOp Op = CollectiveOp::Barrier;
  const CommInfo *Comm = nullptr; // entries outlive MPI_Comm_free
  Message M; // Send/Recv: the message; Collective: Comm, Request
  std::uint64_t Sent = 0, Received = 0; // Collective
  std::uint32_t Root = NoRank;          // Collective: root in comm
  /// A persistent request (MPI_*_init): its entry lives until
  /// MPI_Request_free; Active between MPI_Start and its completion.
  bool Persistent = false, Active = false;
};

namespace requests {

/// A slot held by a completing call; null if the request is not tracked.
struct Claim;

void insert(MPI_Request R, const Posted &P);
/// Claims R's entry for a completing call (see above).
Claim *claim(MPI_Request R);
const Posted &posted(const Claim *C);
/// The claimed entry, to change (a persistent request's next instance).
Posted &postedToChange(Claim *C);
/// The request completed: forget it.
void release(Claim *C);
/// It did not complete: make it visible again.
void unclaim(Claim *C);

/// A message matched by MPI_Mprobe/Improbe, until the MPI_Mrecv/Imrecv
/// that receives it (on any thread) takes its communicator back.
void rememberMatched(MPI_Message M, const CommInfo *I);
/// The matched message's communicator (null: not remembered), forgotten.
const CommInfo *takeMatched(MPI_Message M);

/// A new request id for the calling thread (32 bits, see otter/mpi.h).
std::uint32_t newId();

} // namespace requests

} // namespace otter::mpi

#endif // OTTER_MPI_TABLES_H
