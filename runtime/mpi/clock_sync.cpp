//===- mpi/clock_sync.cpp - Clock offsets between hosts of a job ----------===//
#include "mpi/clock_sync.h"
#include "otter/env.h"
#include "otter/source.h"

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace otter::mpi::clock_sync {

namespace {

MPI_Comm Private = MPI_COMM_NULL; // ours: user traffic never mixes in
std::uint64_t Host = 0;
constexpr int Rounds = 10;
constexpr int Tag = 7117;

std::uint64_t nowNs() {
  timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return std::uint64_t(Ts.tv_sec) * 1000000000ull + std::uint64_t(Ts.tv_nsec);
}

/// OTTER_MPI_CLOCK_SYNC: 1 always measure, 0 never, unset: when needed.
int mode() {
  const char *V = std::getenv(env::MpiClockSync);
  if (V && std::strcmp(V, "1") == 0)
    return 1;
  if (V && std::strcmp(V, "0") == 0)
    return 0;
  return -1;
}

/// Rank 0's side of the offsets between hosts: ping-pongs with every rank
/// that needs them.
void measureAsRoot(const std::vector<std::uint64_t> &Hosts, int Mode) {
  for (int R = 1; R < int(Hosts.size()); ++R) {
    if (Mode != 1 && Hosts[std::size_t(R)] == Hosts[0])
      continue;
    std::uint64_t Best[3] = {0, ~0ull, 0}; // offset, round trip, remote
    for (int K = 0; K < Rounds; ++K) {
      std::uint64_t T0 = nowNs(), Remote = 0;
      PMPI_Send(&T0, 1, MPI_UINT64_T, R, Tag, Private);
      PMPI_Recv(&Remote, 1, MPI_UINT64_T, R, Tag, Private, MPI_STATUS_IGNORE);
      std::uint64_t T1 = nowNs();
      if (T1 - T0 < Best[1]) {
        // What to add to R's clock to read rank 0's.
        Best[0] = T0 + (T1 - T0) / 2 - Remote;
        Best[1] = T1 - T0;
        Best[2] = Remote;
      }
    }
    PMPI_Send(Best, 3, MPI_UINT64_T, R, Tag, Private);
  }
}

/// Another rank's side: its CLOCK_MONOTONIC's offset to rank 0's (0 on
/// rank 0's host unless OTTER_MPI_CLOCK_SYNC=1), and the best round trip.
std::int64_t hostOffset(const std::vector<std::uint64_t> &Hosts, int Rank,
                        int Mode, std::uint64_t &RoundTrip) {
  if (Mode != 1 && Hosts[std::size_t(Rank)] == Hosts[0])
    return 0;
  for (int K = 0; K < Rounds; ++K) {
    std::uint64_t T0 = 0;
    PMPI_Recv(&T0, 1, MPI_UINT64_T, 0, Tag, Private, MPI_STATUS_IGNORE);
    std::uint64_t Remote = nowNs();
    PMPI_Send(&Remote, 1, MPI_UINT64_T, 0, Tag, Private);
  }
  std::uint64_t Best[3] = {0, 0, 0};
  PMPI_Recv(Best, 3, MPI_UINT64_T, 0, Tag, Private, MPI_STATUS_IGNORE);
  RoundTrip = Best[1];
  return std::int64_t(Best[0]);
}

/// Every rank records what to add to its trace's clock to read rank 0's
/// CLOCK_MONOTONIC: its own clock error (the trace clock against its
/// host's CLOCK_MONOTONIC, measured locally) plus its host's offset.
void measure(wrap::Call &C, std::uint16_t Which) {
  int Mode = mode();
  if (Mode == 0)
    return;
  std::uint64_t TraceNs = 0, RoundTrip = 0;
  std::int64_t Offset = otter_source_clock_error(&TraceNs);
  int Rank = 0, Size = 0;
  if (Private != MPI_COMM_NULL &&
      PMPI_Comm_rank(Private, &Rank) == MPI_SUCCESS &&
      PMPI_Comm_size(Private, &Size) == MPI_SUCCESS) {
    std::vector<std::uint64_t> Hosts(static_cast<std::size_t>(Size), 0);
    if (PMPI_Allgather(&Host, 1, MPI_UINT64_T, Hosts.data(), 1, MPI_UINT64_T,
                       Private) == MPI_SUCCESS) {
      if (Rank == 0)
        measureAsRoot(Hosts, Mode);
      else
        Offset += hostOffset(Hosts, Rank, Mode, RoundTrip);
    }
  }
  if (C.On)
    C.record(clockOffsetEvent(Which, TraceNs, Offset, RoundTrip));
}

} // namespace

void atInit(wrap::Call &C, std::uint64_t HostId) {
  Host = HostId;
  if (mode() == 0 || PMPI_Comm_dup(MPI_COMM_WORLD, &Private) != MPI_SUCCESS)
    Private = MPI_COMM_NULL;
  measure(C, 0);
}

void atFinalize(wrap::Call &C) {
  measure(C, 1);
  if (Private != MPI_COMM_NULL)
    PMPI_Comm_free(&Private);
}

} // namespace otter::mpi::clock_sync
