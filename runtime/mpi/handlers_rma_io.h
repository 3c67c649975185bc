//===- mpi/handlers_rma_io.h - One-sided, file and w-collective calls -*- C++
//-*-===//
//
// The handlers (see mpi/handlers.h) of one-sided communication (windows,
// fences, Put/Get/Accumulate...), MPI-IO reads and writes, the
// neighbourhood collectives and the w-collectives. A window is tracked as a
// communicator of its own (of its communicator's members, made as the K-th
// creation on it, so its key is the same on every rank): a fence is a
// collective instance on it, which the job graph matches across ranks like a
// barrier. An operation, a file access or a neighbourhood collective records
// the bytes it moves (MpiTransfer) inside its call.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_MPI_HANDLERS_RMA_IO_H
#define OTTER_MPI_HANDLERS_RMA_IO_H

#include "mpi/handlers_collective.h"

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <tuple>
#include <type_traits>

namespace otter::mpi::wrap {

namespace argscan {

template <std::size_t I, typename Tuple>
using At = std::tuple_element_t<I, Tuple>;

/// Bytes of the first (int count, MPI_Datatype) pair of the arguments; for
/// calls without a count (Fetch_and_op, Compare_and_swap), one element of
/// the first datatype; 0 if there is no datatype.
template <std::size_t I = 0, typename Tuple>
std::uint64_t firstBytes(const Tuple &T) {
  constexpr std::size_t N = std::tuple_size_v<Tuple>;
  if constexpr (I >= N) {
    return 0;
  } else if constexpr (I + 1 < N && std::is_same_v<At<I, Tuple>, int> &&
                       std::is_same_v<At<I + 1, Tuple>, MPI_Datatype>) {
    return bytesOf(std::get<I>(T), std::get<I + 1>(T));
  } else if constexpr (std::is_same_v<At<I, Tuple>, MPI_Datatype>) {
    return bytesOf(1, std::get<I>(T));
  } else {
    return firstBytes<I + 1>(T);
  }
}

/// The target rank of a one-sided operation: the int just before the
/// target displacement (MPI_Aint); -1 if there is none (file accesses).
template <std::size_t I = 0, typename Tuple> int targetRank(const Tuple &T) {
  constexpr std::size_t N = std::tuple_size_v<Tuple>;
  if constexpr (I + 1 >= N) {
    return -1;
  } else if constexpr (std::is_same_v<At<I, Tuple>, int> &&
                       std::is_same_v<At<I + 1, Tuple>, MPI_Aint>) {
    return std::get<I>(T);
  } else {
    return targetRank<I + 1>(T);
  }
}

/// The first argument of type H (a handle), or Null.
template <typename H, std::size_t I = 0, typename Tuple>
H firstOf(const Tuple &T, H Null) {
  if constexpr (I >= std::tuple_size_v<Tuple>)
    return Null;
  else if constexpr (std::is_same_v<At<I, Tuple>, H>)
    return std::get<I>(T);
  else
    return firstOf<H, I + 1>(T, Null);
}

} // namespace argscan

/// A one-sided operation or a file read or write: the call, then the bytes
/// it moved (the origin buffer's or the file access's count times its
/// datatype's size) and, for an operation, its window and target.
template <Function F, typename Fn, typename... A>
int transfer(Fn Pmpi, const void *Site, A... Args) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Args...);
  int Rc = Pmpi(Args...);
  if (Rc == MPI_SUCCESS) {
    const std::tuple<A...> T(Args...);
    int Target = argscan::targetRank(T);
    const CommInfo *W =
        comms::window(argscan::firstOf<MPI_Win>(T, MPI_WIN_NULL));
    std::uint32_t InWindow = Target >= 0 ? std::uint32_t(Target) : NoRank;
    C.record(transferEvent(W ? W->Index : 0, InWindow,
                           W ? W->worldRank(Target) : NoRank,
                           argscan::firstBytes(T)));
  }
  return C.end(Rc);
}

/// Win_create, Win_allocate(_shared), Win_create_dynamic: a collective call
/// on the communicator argument, the window returned through the last.
template <Function F, typename Fn, typename... A>
int winCreate(Fn Pmpi, const void *Site, A... Args) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Args...);
  MPI_Comm Comm =
      argscan::firstOf<MPI_Comm>(std::tuple<A...>(Args...), MPI_COMM_NULL);
  CommInfo *P = commOf(C, Comm);
  std::uint64_t K =
      P ? P->Creations.fetch_add(1, std::memory_order_relaxed) : 0;
  int Rc = Pmpi(Args...);
  MPI_Win *Win = lastOf(Args...);
  if (Rc == MPI_SUCCESS && Win)
    if (CommInfo *I = comms::createWindow(*Win, Comm, P, K)) {
      announce(C, *I, P ? P->Key : 0);
      // Named "MPI_Win N" (the process's N-th window: the same window on
      // every rank that makes its windows in the same order).
      static std::atomic<unsigned> Windows{0};
      char Name[32];
      std::snprintf(Name, sizeof Name, "MPI_Win %u",
                    Windows.fetch_add(1, std::memory_order_relaxed) + 1);
      if (std::uint32_t Id = otter_source_name(Name))
        C.record(commNameEvent(I->Index, I->Key, Id));
    }
  return C.end(Rc);
}

template <Function F, typename Fn>
int winFree(Fn Pmpi, const void *Site, MPI_Win *Win) {
  Call C(F, Site);
  if (C.On && Win) {
    if (CommInfo *I = comms::window(*Win))
      C.record(commFreeEvent(I->Index, I->Key));
    comms::removeWindow(*Win);
  }
  return C.end(Pmpi(Win));
}

/// MPI_Win_fence: a barrier of the window's members (a collective instance
/// on the window), as its synchronisation is.
template <Function F, typename Fn>
int winFence(Fn Pmpi, const void *Site, int Assert, MPI_Win Win) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Assert, Win);
  CommInfo *I = comms::window(Win);
  if (!I)
    return C.end(Pmpi(Assert, Win));
  return collective(C, I, CollectiveOp::Barrier, -1, 0, 0, nullptr,
                    [&] { return Pmpi(Assert, Win); });
}

/// How many neighbours Comm's topology has this rank send to: 2 per
/// dimension of a Cartesian one (MPI sends to both, even off the edge),
/// the rank's neighbours in a graph, its out-degree in a distributed
/// graph; 0 without a topology.
inline int outDegree(MPI_Comm Comm) {
  int Kind = MPI_UNDEFINED, N = 0, In = 0, Weighted = 0, Rank = 0;
  if (Comm == MPI_COMM_NULL || PMPI_Topo_test(Comm, &Kind) != MPI_SUCCESS)
    return 0;
  if (Kind == MPI_CART)
    return PMPI_Cartdim_get(Comm, &N) == MPI_SUCCESS ? 2 * N : 0;
  if (Kind == MPI_GRAPH)
    return PMPI_Comm_rank(Comm, &Rank) == MPI_SUCCESS &&
                   PMPI_Graph_neighbors_count(Comm, Rank, &N) == MPI_SUCCESS
               ? N
               : 0;
  if (Kind == MPI_DIST_GRAPH)
    return PMPI_Dist_graph_neighbors_count(Comm, &In, &N, &Weighted) ==
                   MPI_SUCCESS
               ? N
               : 0;
  return 0;
}

namespace argscan {
/// The bytes a neighbourhood collective sends to Degree neighbours: one
/// count of one type to each, a count per neighbour of one type (the
/// v-form), or a count and a type per neighbour (the w-form).
inline std::uint64_t sentBytes(int Count, MPI_Datatype T, int Degree) {
  return bytesOf(Count, T) * std::uint64_t(Degree > 0 ? Degree : 0);
}
inline std::uint64_t sentBytes(const int *Counts, MPI_Datatype T, int Degree) {
  std::uint64_t B = 0;
  for (int I = 0; Counts && I < Degree; ++I)
    B += bytesOf(Counts[I], T);
  return B;
}
inline std::uint64_t sentBytes(const int *Counts, const MPI_Datatype *Ts,
                               int Degree) {
  std::uint64_t B = 0;
  for (int I = 0; Counts && Ts && I < Degree; ++I)
    B += bytesOf(Counts[I], Ts[I]);
  return B;
}
} // namespace argscan

/// A neighbourhood collective (MPI_Neighbor_* and MPI_Ineighbor_*): the
/// call, then the bytes it sends to its topology's neighbours
/// (MpiTransfer on its communicator, no single peer). The send count (or
/// counts) is the second argument; the send type(s) the third, or the
/// fourth after the displacements of the alltoallv and alltoallw forms.
template <Function F, typename Fn, typename... A>
int neighbor(Fn Pmpi, const void *Site, A... Args) {
  Call C(F, Site);
  if (!C.On) [[unlikely]]
    return Pmpi(Args...);
  const std::tuple<A...> T(Args...);
  const MPI_Comm Comm = argscan::firstOf<MPI_Comm>(T, MPI_COMM_NULL);
  CommInfo *I = commOf(C, Comm);
  const int Rc = Pmpi(Args...);
  if (Rc == MPI_SUCCESS) {
    constexpr std::size_t TypeArg =
        std::is_same_v<argscan::At<2, std::tuple<A...>>, MPI_Datatype> ? 2 : 3;
    C.record(
        transferEvent(I ? I->Index : 0, NoRank, NoRank,
                      argscan::sentBytes(std::get<1>(T), std::get<TypeArg>(T),
                                         outDegree(Comm))));
  }
  return C.end(Rc);
}

/// Alltoallw / Ialltoallw: a datatype per peer.
template <Function F, typename Fn, typename... R>
int alltoallw(Fn Pmpi, const void *Site, const void *SendBuf,
              const int *SendCounts, const int *SendDispls,
              const MPI_Datatype *SendTypes, void *RecvBuf,
              const int *RecvCounts, const int *RecvDispls,
              const MPI_Datatype *RecvTypes, MPI_Comm Comm, R... Req) {
  Call C(F, Site);
  auto Run = [&] {
    return Pmpi(SendBuf, SendCounts, SendDispls, SendTypes, RecvBuf, RecvCounts,
                RecvDispls, RecvTypes, Comm, Req...);
  };
  if (!C.On) [[unlikely]]
    return Run();
  CommInfo *I = commOf(C, Comm);
  auto sum = [&](const int *Counts, const MPI_Datatype *Types) {
    std::uint64_t B = 0;
    for (std::uint32_t P = 0; Counts && Types && P < sizeOf(I); ++P)
      B += bytesOf(Counts[P], Types[P]);
    return B;
  };
  std::uint64_t Received = sum(RecvCounts, RecvTypes);
  std::uint64_t Sent =
      SendBuf == MPI_IN_PLACE ? Received : sum(SendCounts, SendTypes);
  return collective(C, I, CollectiveOp::Alltoallw, -1, Sent, Received,
                    requestOf(Req...), Run);
}

} // namespace otter::mpi::wrap

#endif // OTTER_MPI_HANDLERS_RMA_IO_H
