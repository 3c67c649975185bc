//===- mpi/handlers.cpp - Out-of-line parts of the MPI handlers -----------===//
#include "mpi/handlers.h"
#include "mpi/clock_sync.h"

#include <unistd.h>

namespace otter::mpi::wrap {

CommInfo *commOf(Call &C, MPI_Comm Comm) {
  bool Fresh;
  CommInfo *I = comms::lookup(Comm, Fresh);
  if (Fresh && I) [[unlikely]]
    announce(C, *I, 0);
  return I;
}

void announce(Call &C, const CommInfo &I, std::uint64_t ParentKey) {
  C.record(commCreateEvent(I.Index, I.Key, ParentKey, I.Size, I.OwnRank));
  Members M = comms::membersOf(I);
  if (!M.WorldRanks)
    return; // world ranks 0 .. size-1
  for (std::uint32_t First = 0; First < M.Count; First += 4) {
    unsigned N = M.Count - First < 4 ? M.Count - First : 4;
    C.record(commMembersEvent(I.Index, First, M.WorldRanks + First, N));
  }
}

std::uint64_t bytesOf(long long Count, MPI_Datatype T) {
  if (Count <= 0 || T == MPI_DATATYPE_NULL)
    return 0;
  int Size = 0;
  if (PMPI_Type_size(T, &Size) != MPI_SUCCESS || Size <= 0)
    return 0;
  return std::uint64_t(Count) * std::uint64_t(Size);
}

std::uint64_t sumOf(const int *Counts, std::uint32_t N) {
  std::uint64_t Sum = 0;
  if (Counts)
    for (std::uint32_t I = 0; I < N; ++I)
      Sum += Counts[I] > 0 ? std::uint64_t(Counts[I]) : 0;
  return Sum;
}

Message messageWith(const CommInfo *I, int Peer, int Tag, std::uint64_t Bytes) {
  Message M;
  M.Comm = I ? I->Index : 0;
  M.Bytes = Bytes;
  M.PeerInComm = Peer >= 0 ? std::uint32_t(Peer) : NoRank;
  M.PeerWorld = I ? I->worldRank(Peer) : NoRank;
  M.Tag = Tag >= 0 ? std::uint32_t(Tag) : AnyTag;
  return M;
}

void received(Call &C, EventKind K, const CommInfo *I, const MPI_Status *St,
              std::uint32_t Request) {
  MPI_Count Bytes = 0;
  if (PMPI_Get_elements_x(St, MPI_BYTE, &Bytes) != MPI_SUCCESS ||
      Bytes == MPI_UNDEFINED || Bytes < 0)
    Bytes = 0;
  Message M = messageWith(I, St->MPI_SOURCE, St->MPI_TAG, std::uint64_t(Bytes));
  M.Request = Request;
  C.record(message(K, M));
}

void completed(Call &C, const Posted &P, const MPI_Status *St) {
  int Cancelled = 0;
  if (P.What != Posted::Collective)
    PMPI_Test_cancelled(St, &Cancelled);
  if (Cancelled) {
    C.record(
        requestEvent(EventKind::MpiRequestCancelled, P.M.Comm, P.M.Request));
    return;
  }
  switch (P.What) {
  case Posted::Send:
    C.record(message(EventKind::MpiIsendComplete, P.M));
    break;
  case Posted::Recv:
    received(C, EventKind::MpiIrecv, P.Comm, St, P.M.Request);
    break;
  case Posted::Collective:
    C.record(
        collectiveEnd(P.M.Comm, P.Op, P.Root, P.Sent, P.Received, P.M.Request));
    break;
  }
}

// Scratch arrays for completion calls over many requests: per thread, grown
// when needed (an allocation only when a thread's largest call so far grows).
requests::Claim **claimArray(int N, requests::Claim **Inline, int InlineN) {
  if (N <= InlineN)
    return Inline;
  thread_local std::vector<requests::Claim *> Scratch;
  if (Scratch.size() < std::size_t(N))
    Scratch.resize(std::size_t(N));
  return Scratch.data();
}

MPI_Status *statusArray(int N, MPI_Status *Inline, int InlineN) {
  if (N <= InlineN)
    return Inline;
  thread_local std::vector<MPI_Status> Scratch;
  if (Scratch.size() < std::size_t(N))
    Scratch.resize(std::size_t(N));
  return Scratch.data();
}

namespace {
std::uint64_t hostId() {
  char Host[256] = "";
  gethostname(Host, sizeof Host - 1);
  std::uint64_t H = 0xcbf29ce484222325ull;
  for (const char *P = Host; *P; ++P) {
    H ^= std::uint8_t(*P);
    H *= 0x100000001b3ull;
  }
  return H;
}
} // namespace

void afterInit(Call &C, int Rc) {
  if (Rc != MPI_SUCCESS || !comms::initialise())
    return;
  otter_source_set_rank(int(comms::worldRank()), int(comms::worldSize()));
  if (!C.On)
    return;
  int Level = MPI_THREAD_SINGLE;
  PMPI_Query_thread(&Level);
  std::uint64_t Host = hostId();
  C.record(initEvent(comms::worldRank(), comms::worldSize(),
                     std::uint16_t(Level), Host));
  announce(C, *comms::lookup(MPI_COMM_WORLD), 0);
  announce(C, *comms::lookup(MPI_COMM_SELF), 0);
  clock_sync::atInit(C, Host);
}

void beforeFinalize(Call &C) {
  clock_sync::atFinalize(C);
  static constexpr Function Counted[] = {
#define OTTER_MPI_COUNTED(Name, Value) Function::Name,
#include "otter/mpi_functions.def"
  };
  for (Function F : Counted)
    if (std::uint64_t N = untracedCalls(F))
      C.record(untracedCallsEvent(F, N));
}

} // namespace otter::mpi::wrap
