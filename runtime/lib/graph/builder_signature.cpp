//===- graph/builder_signature.cpp - The walk's first pass ---------------===//
//
// The signatures (itemHash, taskHash, segmentHashes, parallelHash) hash
// every task's subtree and every team, so that the second pass (graph/
// builder.cpp) can put a team's implicit tasks in an order that does not
// depend on which thread happened to execute the single, the dynamic chunk
// or the section (docs/graph.md, "Canonical order"). The arrays they read
// are made by Walker::index (graph/builder_index.cpp).
//
//===----------------------------------------------------------------------===//
#include "graph/builder_walk.h"

namespace otter::walk {

std::uint64_t Walker::itemHash(std::uint64_t H, std::uint32_t Pos) {
  const Item &E = ev(Pos);
  H = mix(H, (std::uint64_t(E.kind()) << 16) | E.Sub);
  // Not a barrier's code: libomp gives it on the team's primary thread
  // only (workers report none at the end of a parallel region), and the
  // signature must not depend on which member is the primary (e.g. when
  // it is the one that executed a single).
  if (!(E.kind() == EventKind::SyncBegin &&
        isBarrier(static_cast<SyncKind>(E.Sub))))
    H = mix(H, label(codeOf(E)).second);
  if (E.kind() == EventKind::Cancel)
    H = mix(H, cancelNodeFlags(In.Wides[E.Payload].Aux));
  if (E.kind() == EventKind::TaskCreate) {
    std::uint32_t C = E.Payload;
    for (std::uint32_t D = ItemBegin[C]; D < ItemBegin[C + 1]; ++D)
      if (ev(D).kind() == EventKind::TaskDependence)
        H = mix(H, ev(D).Sub);
    H = mix(H, taskHash(C));
  } else if (E.kind() == EventKind::ParallelBegin) {
    H = mix(H, parallelHash(E.Payload));
  }
  return H;
}

std::uint64_t Walker::taskHash(std::uint32_t TI) {
  // Made only for teams of more than one member (emitTeam), so a memo of
  // 8 bytes per task exists only when some team needs it.
  if (Hashes.empty())
    Hashes.assign(Bits.size(), 0);
  if (Bits[TI] & HashDone)
    return Hashes[TI];
  Bits[TI] |= HashDone; // guards against cycles in corrupt input
  ++Hashed;
  std::uint64_t H =
      mix(0x6f74746572ULL, desc(TI).Flags & ~(TaskUndeferred | TaskIncluded));
  H = mix(H, label(desc(TI).Code).second);
  // The strand in place when libomp's order needs no adjusting (as emitTask
  // reads it), else as strand() makes it: no list made per task.
  std::uint32_t B = ItemBegin[TI], E = ItemBegin[TI + 1];
  bool InOrder = true;
  for (std::uint32_t I = B; I < E && InOrder; ++I)
    InOrder = !rules::startsLibompReorder({ev(I).kind(), ev(I).Sub});
  if (InOrder) {
    for (std::uint32_t I = B; I < E; ++I)
      if (ev(I).kind() != EventKind::TaskDependence)
        H = itemHash(H, I);
  } else {
    std::vector<std::uint32_t> Order;
    strand(TI, Order);
    for (std::uint32_t Pos : Order)
      H = itemHash(H, Pos);
  }
  Hashes[TI] = H;
  return H;
}

/// Where a team member's strand is cut into phases: after the end of every
/// worksharing construct (every member of a team encounters the same ones,
/// in the same order) and after every barrier (with the ends of the
/// constructs that the barrier closes, which strand() put after it).
/// Returns the exclusive end index of each phase in Items; the last phase
/// ends at Items.size() and may be empty.
std::vector<std::size_t>
Walker::phaseEnds(const std::vector<std::uint32_t> &Items) const {
  std::vector<std::size_t> Ends;
  for (std::size_t I = 0; I < Items.size(); ++I) {
    const Item &E = ev(Items[I]);
    bool Cut = false;
    if (E.kind() == EventKind::SyncBegin &&
        isBarrier(static_cast<SyncKind>(E.Sub))) {
      while (I + 1 < Items.size() && isTeamWorkEnd(ev(Items[I + 1])))
        ++I;
      Cut = true;
    } else if (isTeamWorkEnd(E)) {
      Cut = true;
    }
    if (Cut)
      Ends.push_back(I + 1);
  }
  Ends.push_back(Items.size());
  return Ends;
}

/// Signatures of a team member's phases (see phaseEnds).
std::vector<std::uint64_t> Walker::segmentHashes(std::uint32_t TI) {
  std::vector<std::uint32_t> Items;
  strand(TI, Items);
  std::vector<std::uint64_t> Out;
  std::size_t Begin = 0;
  for (std::size_t End : phaseEnds(Items)) {
    std::uint64_t H = 0x7365676dULL;
    for (std::size_t I = Begin; I < End; ++I)
      H = itemHash(H, Items[I]);
    Out.push_back(H);
    Begin = End;
  }
  return Out;
}

std::uint64_t Walker::parallelHash(std::uint32_t PI) {
  ParallelInfo &P = Parallels[PI];
  if (P.HashDone)
    return P.Hash;
  P.HashDone = true;
  // Per phase, the multiset of what the members did: the same whichever
  // member did which part (see emitTeam).
  std::vector<std::vector<std::uint64_t>> Segs;
  std::size_t Phases = 0;
  for (std::uint32_t M : P.Members) {
    Segs.push_back(segmentHashes(M));
    Phases = std::max(Phases, Segs.back().size());
  }
  std::uint64_t H = mix(0x706172ULL, label(P.Code).second);
  H = mix(H, P.Members.size());
  for (std::size_t Ph = 0; Ph < Phases; ++Ph) {
    std::vector<std::uint64_t> Column;
    for (const auto &S : Segs)
      Column.push_back(Ph < S.size() ? S[Ph] : 0);
    std::sort(Column.begin(), Column.end());
    for (std::uint64_t X : Column)
      H = mix(H, X);
  }
  P.Hash = H;
  return H;
}

} // namespace otter::walk
