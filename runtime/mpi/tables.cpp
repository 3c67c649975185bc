//===- mpi/tables.cpp - Communicators and requests the wrappers track -----===//
#include "mpi/tables.h"

#include <algorithm>
#include <mutex>
#include <new>
#include <vector>

namespace otter::mpi {

// --- Communicators ----------------------------------------------------------

namespace {

constexpr std::size_t CommSlots = 4096; // live communicators at once
constexpr std::size_t MaxComms = 65536; // indices (16 bits in events)

struct CommSlot {
  std::atomic<std::uint64_t> Key{0}; // 0 empty, 1 removed, else bits + 2
  std::atomic<CommInfo *> Info{nullptr};
};

CommSlot CommTable[CommSlots];
CommInfo *ByIndex[MaxComms]; // guarded by CommMutex
std::mutex CommMutex;
std::uint32_t NextIndex = 3; // 1 WORLD, 2 SELF
std::uint64_t Unknown = 0;   // communicators made by calls not wrapped
std::atomic<bool> Ready{false};
std::uint64_t WorldBits = 0;
CommInfo *World = nullptr;
MPI_Group WorldGroup;
std::uint32_t WorldRankValue = 0, WorldSizeValue = 0;

inline std::size_t commHash(std::uint64_t Bits) {
  return std::size_t((Bits * 0x9E3779B97F4A7C15ull) >> 52) & (CommSlots - 1);
}

/// Takes a free index; CommMutex held. 0 when all 65535 are live.
std::uint16_t takeIndex(CommInfo *I) {
  for (std::size_t Tries = 0; Tries < MaxComms; ++Tries) {
    std::uint32_t X = NextIndex++;
    if (NextIndex >= MaxComms)
      NextIndex = 3; // reuse only after a full round: old events stay clear
    if (X >= 3 && !ByIndex[X]) {
      ByIndex[X] = I;
      return std::uint16_t(X);
    }
  }
  return 0;
}

/// Puts I under C's handle; CommMutex held.
void publish(std::uint64_t Bits, CommInfo *I) {
  std::size_t H = commHash(Bits);
  for (std::size_t P = 0; P < CommSlots; ++P) {
    CommSlot &S = CommTable[(H + P) & (CommSlots - 1)];
    std::uint64_t K = S.Key.load(std::memory_order_relaxed);
    if (K == 0 || K == 1) {
      S.Info.store(I, std::memory_order_relaxed);
      S.Key.store(Bits + 2, std::memory_order_release);
      return;
    }
  }
  // More than 4096 live communicators: I stays reachable by index only;
  // lookups of C register it again (as unknown).
}

/// The entry published under Bits; null if none.
CommInfo *probe(std::uint64_t Bits) {
  std::size_t H = commHash(Bits);
  for (std::size_t P = 0; P < CommSlots; ++P) {
    CommSlot &S = CommTable[(H + P) & (CommSlots - 1)];
    std::uint64_t K = S.Key.load(std::memory_order_acquire);
    if (K == Bits + 2)
      return S.Info.load(std::memory_order_relaxed);
    if (K == 0)
      break;
  }
  return nullptr;
}

/// Fills I's size, own rank and world ranks from MPI (local calls only).
/// Returns the lowest world rank of the local group.
std::uint32_t describe(MPI_Comm C, CommInfo &I) {
  int Inter = 0, Size = 0, Own = 0;
  PMPI_Comm_test_inter(C, &Inter);
  PMPI_Comm_rank(C, &Own);
  I.OwnRank = std::uint32_t(Own);
  MPI_Group Local, Peers;
  PMPI_Comm_group(C, &Local);
  if (Inter)
    PMPI_Comm_remote_group(C, &Peers);
  else
    Peers = Local;
  PMPI_Group_size(Peers, &Size);
  I.Size = std::uint32_t(Size);
  std::vector<int> Ranks(static_cast<std::size_t>(Size)),
      World(static_cast<std::size_t>(Size));
  for (int R = 0; R < Size; ++R)
    Ranks[std::size_t(R)] = R;
  PMPI_Group_translate_ranks(Peers, Size, Ranks.data(), WorldGroup,
                             World.data());
  bool Identity = !Inter && Size == int(WorldSizeValue);
  I.WorldOf = new (std::nothrow) std::uint32_t[std::size_t(Size) + 1];
  for (int R = 0; R < Size; ++R) {
    int W = World[std::size_t(R)];
    std::uint32_t V = W == MPI_UNDEFINED || W < 0 ? NoRank : std::uint32_t(W);
    Identity = Identity && V == std::uint32_t(R);
    if (I.WorldOf)
      I.WorldOf[R] = V;
  }
  if (Identity || !I.WorldOf) {
    delete[] I.WorldOf;
    I.WorldOf = nullptr;
  }
  std::uint32_t Leader = NoRank;
  if (Inter) {
    int LocalSize = 0;
    PMPI_Group_size(Local, &LocalSize);
    std::vector<int> LR(static_cast<std::size_t>(LocalSize)),
        LW(static_cast<std::size_t>(LocalSize));
    for (int R = 0; R < LocalSize; ++R)
      LR[std::size_t(R)] = R;
    PMPI_Group_translate_ranks(Local, LocalSize, LR.data(), WorldGroup,
                               LW.data());
    for (int W : LW)
      if (W >= 0 && W != MPI_UNDEFINED)
        Leader = std::min(Leader, std::uint32_t(W));
    PMPI_Group_free(&Peers);
  } else {
    for (std::uint32_t R = 0; R < I.Size; ++R)
      Leader = std::min(Leader, I.worldRank(int(R)));
  }
  PMPI_Group_free(&Local);
  return Leader;
}

} // namespace

namespace comms {

bool initialise() {
  std::lock_guard<std::mutex> L(CommMutex);
  if (Ready.load(std::memory_order_relaxed))
    return true;
  int Initialised = 0, Finalised = 0;
  PMPI_Initialized(&Initialised);
  PMPI_Finalized(&Finalised);
  if (!Initialised || Finalised)
    return false;
  int Rank = 0, Size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &Size);
  WorldRankValue = std::uint32_t(Rank);
  WorldSizeValue = std::uint32_t(Size);
  PMPI_Comm_group(MPI_COMM_WORLD, &WorldGroup);
  World = new CommInfo();
  World->Index = 1;
  World->Key = WorldKey;
  World->Size = WorldSizeValue;
  World->OwnRank = WorldRankValue;
  ByIndex[1] = World;
  WorldBits = handleBits(MPI_COMM_WORLD);
  publish(WorldBits, World);
  auto *Self = new CommInfo();
  Self->Index = 2;
  Self->Key = commSelfKey(WorldRankValue);
  Self->Size = 1;
  Self->OwnRank = 0;
  Self->WorldOf = new std::uint32_t[1]{WorldRankValue};
  ByIndex[2] = Self;
  publish(handleBits(MPI_COMM_SELF), Self);
  Ready.store(true, std::memory_order_release);
  return true;
}

bool ready() { return Ready.load(std::memory_order_acquire); }
std::uint32_t worldRank() { return WorldRankValue; }
std::uint32_t worldSize() { return WorldSizeValue; }

CommInfo *lookup(MPI_Comm C, bool &Fresh) {
  Fresh = false;
  std::uint64_t Bits = handleBits(C);
  if (Bits == WorldBits && World) [[likely]]
    return World;
  if (CommInfo *Known = probe(Bits))
    return Known;
  if (C == MPI_COMM_NULL || !ready())
    return nullptr;
  // Made by a call OTTER does not wrap (or one of more than 4096 live).
  auto *I = new (std::nothrow) CommInfo();
  if (!I)
    return nullptr;
  std::uint32_t Leader = describe(C, *I);
  (void)Leader;
  std::lock_guard<std::mutex> L(CommMutex);
  I->Key = mixKey(3, ++Unknown, WorldRankValue); // this process only
  I->Index = takeIndex(I);
  publish(Bits, I);
  Fresh = true;
  return I;
}

namespace {
/// A communicator described from Members' group, published under Bits.
CommInfo *made(MPI_Comm Members, std::uint64_t Bits, const CommInfo *Parent,
               std::uint64_t K) {
  auto *I = new (std::nothrow) CommInfo();
  if (!I)
    return nullptr;
  std::uint32_t Leader = describe(Members, *I);
  I->Key = mixKey(Parent ? Parent->Key : 0, K, Leader);
  std::lock_guard<std::mutex> L(CommMutex);
  I->Index = takeIndex(I);
  publish(Bits, I);
  return I;
}
} // namespace

CommInfo *create(MPI_Comm C, const CommInfo *Parent, std::uint64_t K) {
  if (C == MPI_COMM_NULL || !ready())
    return nullptr;
  return made(C, handleBits(C), Parent, K);
}

CommInfo *createWindow(MPI_Win W, MPI_Comm Comm, const CommInfo *Parent,
                       std::uint64_t K) {
  if (W == MPI_WIN_NULL || Comm == MPI_COMM_NULL || !ready())
    return nullptr;
  // Windows and communicators share the table: their handles are distinct
  // objects (Open MPI: pointers; MPICH: ints whose kind bits differ).
  return made(Comm, handleBits(W), Parent, K);
}

namespace {
void forget(std::uint64_t Bits) {
  std::lock_guard<std::mutex> L(CommMutex);
  std::size_t H = commHash(Bits);
  for (std::size_t P = 0; P < CommSlots; ++P) {
    CommSlot &S = CommTable[(H + P) & (CommSlots - 1)];
    std::uint64_t Key = S.Key.load(std::memory_order_relaxed);
    if (Key == 0)
      return;
    if (Key != Bits + 2)
      continue;
    CommInfo *I = S.Info.load(std::memory_order_relaxed);
    S.Key.store(1, std::memory_order_release);
    // The entry itself stays: requests on the communicator may still
    // complete (MPI allows freeing it before), and they point to it.
    if (I)
      ByIndex[I->Index] = nullptr;
    return;
  }
}
} // namespace

CommInfo *window(MPI_Win W) {
  return W == MPI_WIN_NULL ? nullptr : probe(handleBits(W));
}

void removeWindow(MPI_Win W) {
  if (W != MPI_WIN_NULL)
    forget(handleBits(W));
}

void remove(MPI_Comm C) {
  std::uint64_t Bits = handleBits(C);
  if (Bits != WorldBits)
    forget(Bits);
}

Members membersOf(const CommInfo &I) {
  Members M;
  M.Count = I.Size;
  M.WorldRanks = I.WorldOf;
  return M;
}

} // namespace comms

// --- Requests ---------------------------------------------------------------

namespace requests {

struct Claim {
  // 0 empty, 1 removed, 2 being filled, else (bits + 4) << 1 | claimed
  std::atomic<std::uint64_t> Key{0};
  Posted P;
};

namespace {

constexpr std::size_t Slots = 1 << 14;
constexpr std::size_t MaxProbes = 64;
Claim Table[Slots];
// Requests that found no slot within MaxProbes (thousands outstanding).
std::mutex OverflowMutex;
std::vector<Claim *> Overflow;
std::atomic<bool> OverflowUsed{false};

inline std::uint64_t enc(std::uint64_t Bits, bool Claimed) {
  return ((Bits + 4) << 1) | (Claimed ? 1 : 0);
}
inline std::size_t hashOf(std::uint64_t Bits) {
  return std::size_t((Bits * 0x9E3779B97F4A7C15ull) >> 50) & (Slots - 1);
}
inline bool inTable(const Claim *C) { return C >= Table && C < Table + Slots; }

} // namespace

namespace {
void insertBits(std::uint64_t Bits, const Posted &P) {
  std::size_t H = hashOf(Bits);
  for (std::size_t I = 0; I < MaxProbes; ++I) {
    Claim &S = Table[(H + I) & (Slots - 1)];
    std::uint64_t K = S.Key.load(std::memory_order_relaxed);
    if ((K == 0 || K == 1) &&
        S.Key.compare_exchange_strong(K, 2, std::memory_order_acquire)) {
      S.P = P;
      S.Key.store(enc(Bits, false), std::memory_order_release);
      return;
    }
  }
  auto *C = new (std::nothrow) Claim();
  if (!C)
    return;
  C->P = P;
  C->Key.store(enc(Bits, false), std::memory_order_relaxed);
  std::lock_guard<std::mutex> L(OverflowMutex);
  Overflow.push_back(C);
  OverflowUsed.store(true, std::memory_order_release);
}

Claim *claimBits(std::uint64_t Bits) {
  std::uint64_t Want = enc(Bits, false);
  std::size_t H = hashOf(Bits);
  for (std::size_t I = 0; I < MaxProbes; ++I) {
    Claim &S = Table[(H + I) & (Slots - 1)];
    std::uint64_t K = S.Key.load(std::memory_order_acquire);
    if (K == Want && S.Key.compare_exchange_strong(K, enc(Bits, true),
                                                   std::memory_order_acquire))
      return &S;
    if (K == 0)
      break;
  }
  if (!OverflowUsed.load(std::memory_order_acquire))
    return nullptr;
  std::lock_guard<std::mutex> L(OverflowMutex);
  for (Claim *C : Overflow) {
    std::uint64_t K = Want;
    if (C->Key.compare_exchange_strong(K, enc(Bits, true)))
      return C;
  }
  return nullptr;
}

/// A matched message's key: a handle with bit 61 set, which no request
/// handle has (a pointer below 2^47, or MPICH's 32-bit handles).
std::uint64_t matchedKey(MPI_Message M) {
  return handleBits(M) | (std::uint64_t(1) << 61);
}
} // namespace

void insert(MPI_Request R, const Posted &P) { insertBits(handleBits(R), P); }

Claim *claim(MPI_Request R) {
  if (R == MPI_REQUEST_NULL)
    return nullptr;
  return claimBits(handleBits(R));
}

void rememberMatched(MPI_Message M, const CommInfo *I) {
  if (M == MPI_MESSAGE_NULL || M == MPI_MESSAGE_NO_PROC)
    return;
  Posted P;
  P.What = Posted::Recv;
  P.Comm = I;
  insertBits(matchedKey(M), P);
}

const CommInfo *takeMatched(MPI_Message M) {
  if (M == MPI_MESSAGE_NULL || M == MPI_MESSAGE_NO_PROC)
    return nullptr;
  Claim *C = claimBits(matchedKey(M));
  if (!C)
    return nullptr;
  const CommInfo *I = C->P.Comm;
  release(C);
  return I;
}

const Posted &posted(const Claim *C) { return C->P; }
Posted &postedToChange(Claim *C) { return C->P; }

void release(Claim *C) {
  if (inTable(C)) {
    C->Key.store(1, std::memory_order_release);
    return;
  }
  std::lock_guard<std::mutex> L(OverflowMutex);
  Overflow.erase(std::remove(Overflow.begin(), Overflow.end(), C),
                 Overflow.end());
  delete C;
}

void unclaim(Claim *C) {
  std::uint64_t K = C->Key.load(std::memory_order_relaxed);
  C->Key.store(K & ~std::uint64_t(1), std::memory_order_release);
}

std::uint32_t newId() {
  static std::atomic<std::uint32_t> Threads{0};
  thread_local std::uint32_t Thread = 0, Counter = 0;
  if (!Thread) [[unlikely]]
    Thread = (Threads.fetch_add(1, std::memory_order_relaxed) % 1023) + 1;
  Counter = (Counter + 1) & 0x3fffff;
  if (!Counter)
    Counter = 1;
  return Thread << 22 | Counter;
}

} // namespace requests

} // namespace otter::mpi
