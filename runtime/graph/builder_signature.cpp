//===- graph/builder_signature.cpp - The walk's first pass ---------------===//
//
// Walker::index turns what addEvents collected into the walk's arrays; the
// signatures (itemHash, taskHash, segmentHashes, parallelHash) hash every
// task's subtree and every team, so that the second pass (graph/
// builder.cpp) can put a team's implicit tasks in an order that does not
// depend on which thread happened to execute the single, the dynamic chunk
// or the section (docs/graph.md, "Canonical order").
//
//===----------------------------------------------------------------------===//
#include "graph/builder_walk.h"

namespace otter::walk {

/// How often (in records read) index() gives freed records back: ~1 M
/// records (16 MiB), 512 K tasks (12 MiB), a few calls of malloc_trim for
/// millions of tasks.
constexpr std::size_t GiveBackEvery = std::size_t(1) << 20;
constexpr std::size_t GiveBackTasksEvery = std::size_t(1) << 19;
static_assert(GiveBackEvery % PagedVec<Rec>::PageSize == 0 &&
              GiveBackTasksEvery % PagedVec<TaskIn>::PageSize == 0);

/// Turns what addEvents collected into the walk's arrays, releasing the
/// collected records as it goes (they are the bulk of the memory).
void Walker::index() {
  std::size_t NT = In.Tasks.size();
  // Not touched until written (MappedAlloc: zero): their pages grow as the
  // collected tasks' are released.
  Desc.resize(NT);
  Bits.resize(NT);
  // The records per task, as the ingest counted them (TaskIn::Recs), kept
  // past the tasks' release (1 byte per task) when they can be trusted
  // (Store::MaybeUnordered: else the count pass below checks the order).
  bool Counted = !In.MaybeUnordered;
  std::vector<std::uint8_t, MappedAlloc<std::uint8_t>> Counts(Counted ? NT : 0);
  std::unordered_map<TaskDesc, std::uint32_t, TaskDescHash> DescIndex;
  constexpr std::size_t RecentSize = 64;
  std::uint32_t Recent[RecentSize];
  std::fill(std::begin(Recent), std::end(Recent), NoIndex);
  for (std::size_t T = 0; T < NT; ++T) {
    const TaskIn &X = In.Tasks[T];
    // An implicit-task begin gives the thread; else the schedule events.
    std::uint16_t Th = (X.Bits & (TaskIn::Implicit | TaskIn::HasSched))
                           ? X.Thread
                           : NoThreadIndex;
    TaskDesc D{X.Code, X.Flags,
               Th == NoThreadIndex ? NoThread : In.ThreadIds[Th]};
    // Few distinct descriptions, met again and again (fib: its two
    // creation sites in turn): a small cache before the table.
    std::uint32_t &Cached =
        Recent[(D.Code * 0x9e3779b1u ^ D.Flags ^ D.Thread) & (RecentSize - 1)];
    if (Cached == NoIndex || !(Descs[Cached] == D)) {
      auto [It, New] = DescIndex.try_emplace(D, (std::uint32_t)Descs.size());
      if (New)
        Descs.push_back(D);
      Cached = It->second;
    }
    Desc[T] = Cached;
    if (Counted)
      Counts[T] = X.Recs;
    if (X.Bits & TaskIn::Known) {
      Bits[T] = Known;
      if ((X.Flags & TaskInitial) && !(X.Bits & TaskIn::InLeague)) {
        auto R = In.Roots.find((std::uint32_t)T);
        RootIn RI = R != In.Roots.end() ? R->second : RootIn{};
        Roots.push_back({(std::uint32_t)T, RI.Time, RI.Id});
      }
    }
    // The collected records are released as they are read, and given back
    // every 12 MiB or so, so that they are not resident beside the walk's
    // arrays (the peak of graph mode used to be here).
    if (((T + 1) & (PagedVec<TaskIn>::PageSize - 1)) == 0) {
      In.Tasks.releasePageOf(T);
      if (((T + 1) & (GiveBackTasksEvery - 1)) == 0)
        giveBackFreed();
    }
  }
  In.Tasks.clear();
  In.Ids.clear();
  In.Roots = {};
  In.InitialIndex = {};
  giveBackFreed();

  // Group the records by task (a counting sort: stable, so a task's records
  // keep their arrival order), then order each task's by Seq. One thread's
  // records of a task arrive in its order; only a task whose records came
  // from several threads (an untied task that moved, a merge of shards)
  // may need sorting. Where that cannot be (Store::MaybeUnordered false),
  // the ingest's counts place the records and the scatter checks the
  // order; else a count pass checks it, and the sequence numbers are kept
  // only if some task needs them.
  std::size_t NR = In.Recs.size();
  if (NR >= NoIndex)
    throw std::length_error("too many events");
  // Where each task's records go: from the ingest's counts if it kept
  // them and they add up; else a count pass that also checks the order.
  bool Unordered = false;
  if (Counted) {
    ItemBegin.resize(NT + 1);
    std::size_t Sum = 0;
    for (std::size_t T = 0; T < NT && Sum <= NR; ++T) {
      ItemBegin[T] = std::uint32_t(Sum);
      if (Counts[T] < 255) {
        Sum += Counts[T];
      } else {
        auto It = In.ManyRecs.find(std::uint32_t(T));
        Sum += It != In.ManyRecs.end() ? It->second : NR + 1;
      }
    }
    ItemBegin[NT] = std::uint32_t(Sum);
    Counted = Sum == NR; // else (never seen) counted again below
  }
  decltype(Counts)().swap(Counts);
  In.ManyRecs = {};
  // Both passes go page by page (PagedVec::page): no page lookup per
  // record.
  if (!Counted) {
    struct CountLast {
      std::uint32_t Count, LastSeq;
    };
    std::vector<CountLast, MappedAlloc<CountLast>> Tally(NT); // zero
    for (std::size_t Pg = 0; Pg < In.Recs.pages(); ++Pg) {
      const Rec *R = In.Recs.page(Pg);
      for (std::size_t I = 0, N = In.Recs.pageSize(Pg); I < N; ++I) {
        CountLast &C = Tally[R[I].Task];
        ++C.Count;
        Unordered |= R[I].Seq < C.LastSeq;
        C.LastSeq = R[I].Seq;
      }
    }
    ItemBegin.resize(NT + 1);
    std::uint32_t Sum = 0;
    for (std::size_t T = 0; T < NT; ++T) {
      ItemBegin[T] = Sum;
      Sum += Tally[T].Count;
    }
    ItemBegin[NT] = Sum;
  }
  Items.resize(NR); // not touched until written (MappedAlloc)
  std::vector<std::uint32_t, MappedAlloc<std::uint32_t>> Seqs(Unordered ? NR
                                                                        : 0);
  std::size_t OutOfOrder = 0; // records found out of order too late
  {
    struct NextLast {
      std::uint32_t Next, LastSeq;
    };
    std::vector<NextLast, MappedAlloc<NextLast>> Next(Counted ? NT : 0);
    std::vector<std::uint32_t, MappedAlloc<std::uint32_t>> NextOnly(
        Counted ? 0 : NT);
    for (std::size_t T = 0; T < NT; ++T)
      (Counted ? Next[T].Next : NextOnly[T]) = ItemBegin[T];
    Item *ItemsOut = Items.data();
    std::uint32_t *SeqsOut = Seqs.data();
    constexpr std::size_t PagesPerGiveBack =
        GiveBackEvery / PagedVec<Rec>::PageSize;
    for (std::size_t Pg = 0; Pg < In.Recs.pages(); ++Pg) {
      const Rec *R = In.Recs.page(Pg);
      std::size_t N = In.Recs.pageSize(Pg);
      if (Unordered) {
        for (std::size_t I = 0; I < N; ++I) {
          std::uint32_t P = NextOnly[R[I].Task]++;
          ItemsOut[P] = R[I].It;
          SeqsOut[P] = R[I].Seq;
        }
      } else if (Counted) {
        // The order is checked as the records are placed (nothing to sort
        // them by then: never seen, but said, not hidden).
        for (std::size_t I = 0; I < N; ++I) {
          NextLast &X = Next[R[I].Task];
          ItemsOut[X.Next++] = R[I].It;
          OutOfOrder += R[I].Seq < X.LastSeq;
          X.LastSeq = R[I].Seq;
        }
      } else {
        for (std::size_t I = 0; I < N; ++I)
          ItemsOut[NextOnly[R[I].Task]++] = R[I].It;
      }
      In.Recs.releasePageOf(Pg * PagedVec<Rec>::PageSize);
      if ((Pg + 1) % PagesPerGiveBack == 0)
        giveBackFreed();
    }
  }
  In.Recs.clear();
  if (OutOfOrder)
    warn(std::to_string(OutOfOrder) +
         " event(s) arrived out of their task's order; the graph follows "
         "the arrival order");
  if (Unordered) {
    std::vector<std::pair<std::uint32_t, Item>> Tmp;
    for (std::size_t T = 0; T < NT; ++T) {
      std::uint32_t B = ItemBegin[T], E = ItemBegin[T + 1];
      if (std::is_sorted(Seqs.begin() + B, Seqs.begin() + E))
        continue;
      Tmp.clear();
      for (std::uint32_t I = B; I < E; ++I)
        Tmp.emplace_back(Seqs[I], Items[I]);
      std::stable_sort(
          Tmp.begin(), Tmp.end(),
          [](const auto &X, const auto &Y) { return X.first < Y.first; });
      for (std::uint32_t I = B; I < E; ++I)
        Items[I] = Tmp[I - B].second;
    }
    decltype(Seqs)().swap(Seqs);
  }
#if defined(__GLIBC__) && !OTTER_SANITIZED_MALLOC
  malloc_trim(0); // give the released pages back before the graph grows
#endif

  // libomp 19 reports a critical's release with the return address of
  // thread 0 (OMPT_LOAD_RETURN_ADDRESS(0) in __kmpc_end_critical): null or
  // some other code on every other thread, so it depends on who ran the
  // task. A critical_end takes the code of its critical_begin instead.
  // (Every mutex event has a wide payload: none, no pass.)
  std::vector<std::pair<std::uint64_t, std::uint32_t>> OpenCriticals;
  for (std::size_t T = 0; T < (In.Wides.empty() ? 0 : NT); ++T) {
    OpenCriticals.clear();
    for (std::uint32_t I = ItemBegin[T]; I < ItemBegin[T + 1]; ++I) {
      const Item &E = Items[I];
      if (E.Sub != std::uint8_t(MutexKind::Critical))
        continue;
      if (E.kind() == EventKind::MutexAcquired) {
        OpenCriticals.emplace_back(In.Wides[E.Payload].A,
                                   In.Wides[E.Payload].Code);
      } else if (E.kind() == EventKind::MutexReleased) {
        Wide &W = In.Wides[E.Payload];
        for (std::size_t J = OpenCriticals.size(); J-- > 0;)
          if (OpenCriticals[J].first == W.A) {
            W.Code = OpenCriticals[J].second;
            OpenCriticals.erase(OpenCriticals.begin() + J);
            break;
          }
      }
    }
  }

  Parallels.resize(In.Parallels.size());
  for (std::size_t P = 0; P < In.Parallels.size(); ++P) {
    auto &M = In.Parallels[P].Members;
    std::stable_sort(M.begin(), M.end(), [](const auto &X, const auto &Y) {
      return X.first < Y.first;
    });
    Parallels[P].Code = In.Parallels[P].Code;
    for (const auto &X : M)
      Parallels[P].Members.push_back(X.second);
  }
  In.Parallels = {};
  Labels.assign(In.Codes.size(), {NoIndex, 0});
  Frontier.assign(NT, NoNode);
}

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
  std::vector<std::uint32_t> Items;
  strand(TI, Items);
  for (std::uint32_t Pos : Items)
    H = itemHash(H, Pos);
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
