//===- graph/builder_index.cpp - The walk's arrays, per task --------------===//
//
// Walker::index turns what addEvents collected (graph/builder_store.h: each
// task's attributes, every record in arrival order) into the walk's arrays:
// per task its description and bits, and its strand's items grouped by
// task (a counting sort from the counts the ingest kept). For a big graph
// the task loop runs on a thread of its own beside the record scatter
// (Walker::indexTasks, Walker::scatterRecs); the collected records are
// released as they are read. docs/graph.md, "How the files are made".
//
//===----------------------------------------------------------------------===//
#include "graph/builder_walk.h"

#include <array>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

namespace otter::walk {

/// How often (in records read) index() gives freed records back: ~1 M
/// records (16 MiB), 512 K tasks (12 MiB), a few calls of malloc_trim for
/// millions of tasks.
constexpr std::size_t GiveBackEvery = std::size_t(1) << 20;
constexpr std::size_t GiveBackTasksEvery = std::size_t(1) << 19;
static_assert(GiveBackEvery % PagedVec<Rec>::PageSize == 0 &&
              GiveBackTasksEvery % PagedVec<TaskIn>::PageSize == 0);

namespace {

/// What a record's item adds to Walker::run's reservation and decisions
/// (ItemTally), by kind: bits 0-1 the nodes it can make (a parallel begin
/// three: its begin, end and barrier), bit 2 data given to a node after it
/// is made (a name; a target construct's bytes, added by its transfers),
/// bit 3 a creation.
constexpr std::uint8_t CompletesNodeLater = 4, CreatesTask = 8;
constexpr std::array<std::uint8_t, 256> KindTally = [] {
  std::array<std::uint8_t, 256> A{};
  for (unsigned K = 0; K < 256; ++K) {
    auto E = static_cast<EventKind>(K);
    A[K] = E == EventKind::ParallelBegin                                  ? 3
           : E == EventKind::TaskCreate || E == EventKind::TaskDependence ? 0
                                                                          : 1;
    if (E == EventKind::TaskLabel || E == EventKind::PhaseBegin ||
        E == EventKind::PhaseEnd || E == EventKind::Mark ||
        E == EventKind::TargetBegin || E == EventKind::TargetDataOpBegin)
      A[K] |= CompletesNodeLater;
    if (E == EventKind::TaskCreate)
      A[K] |= CreatesTask;
  }
  return A;
}();

} // namespace

/// Task T is created, begun as a team member or started as a root (the
/// tasks form a tree only if each is, once).
void Walker::claim(std::uint32_t T) {
  if (T >= Bits.size()) {
    Tally.Tree = false;
    return;
  }
  std::uint64_t &W = Claims[T >> 6], Bit = std::uint64_t(1) << (T & 63);
  Tally.Tree &= !(W & Bit);
  W |= Bit;
}

/// Maps the pages of [P, P + Bytes) that are not yet (as writes to them
/// would, but without a fault each): so that a thread with time to spare
/// takes the faults of an array another thread is about to write. A no-op
/// where the kernel cannot (before Linux 5.14).
static void prefault(void *P, std::size_t Bytes) {
#ifdef MADV_POPULATE_WRITE
  if (Bytes)
    madvise(P, Bytes, MADV_POPULATE_WRITE);
#else
  (void)P, (void)Bytes;
#endif
}

/// What index()'s two threads share when it splits: how far the count
/// pass has read the collected tasks (the task loop releases a page only
/// once it has), and the scatter's requests to give freed records back,
/// which the task loop's thread serves once its loop is done (so that the
/// scatter, the longer part, does not wait for malloc_trim).
///
/// Half of the scatter's time is page faults: the first writes to Items
/// and to the tasks' last Seq (whose first read maps the zero page, so
/// that each of its pages faults twice). Once the scatter is half done,
/// the task loop's thread (its loop done) maps what is left of both at
/// once (prefault): from then on, all of Items beside what is left of the
/// records takes less memory than the records did at the start (8 bytes
/// an item against 16 a record), so the peak does not rise; earlier it
/// did (both mapped before the scatter: +20 MiB on fib 30).
struct Walker::IndexShare {
  std::atomic<std::size_t> CountedPages{0};
  std::mutex Mutex;
  std::condition_variable Wake;
  std::size_t Wanted = 0, Served = 0; // give-backs asked for, made
  bool Done = false;                  // the scatter is done
  bool HalfScattered = false;
  Item *Items = nullptr; // prefaulted once HalfScattered, if not null
  std::size_t ItemsBytes = 0;
  std::uint32_t *LastSeq = nullptr; // with Items
  std::size_t LastSeqBytes = 0;

  void waitCounted(std::size_t Pages) {
    while (CountedPages.load(std::memory_order_acquire) < Pages)
      std::this_thread::yield(); // (the count pass is the faster)
  }
  void askGiveBack(bool Half) {
    {
      std::lock_guard<std::mutex> L(Mutex);
      ++Wanted;
      HalfScattered |= Half;
    }
    Wake.notify_one();
  }
  void serveGiveBacks() {
    std::unique_lock<std::mutex> L(Mutex);
    for (;;) {
      Wake.wait(L, [&] { return Wanted != Served || Done; });
      if (Wanted == Served)
        return;
      Served = Wanted;
      Item *Prefault = HalfScattered && !Done ? Items : nullptr;
      if (Prefault)
        Items = nullptr; // once
      L.unlock();
      giveBackFreed();
      if (Prefault) {
        prefault(Prefault, ItemsBytes);
        prefault(LastSeq, LastSeqBytes);
      }
      L.lock();
    }
  }
  void finish() {
    CountedPages.store(~std::size_t(0), std::memory_order_release);
    {
      std::lock_guard<std::mutex> L(Mutex);
      Done = true;
    }
    Wake.notify_one();
  }
};

/// The task loop of index(): each task's description, bits and root entry,
/// releasing the collected tasks as it goes (once the count pass read
/// them: Share, when on a thread of its own).
void Walker::indexTasks(IndexShare *Share) {
  std::size_t NT = In.Tasks.size();
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
      if (Share)
        Share->waitCounted(T / PagedVec<TaskIn>::PageSize + 1);
      In.Tasks.releasePageOf(T);
      if (((T + 1) & (GiveBackTasksEvery - 1)) == 0)
        giveBackFreed();
    }
  }
  if (Share)
    Share->waitCounted(~std::size_t(0));
  In.Tasks.clear();
  In.Ids.clear();
  In.Roots = {};
  In.InitialIndex = {};
  giveBackFreed();
  Frontier.assign(NT, NoNode);
}

/// The record scatter of index(): the records grouped by task into Items
/// (a counting sort: stable, so a task's records keep their arrival
/// order), releasing the collected records as it goes, and the items
/// tallied for Walker::run (Tally, Claims) on the way. Counted: ItemBegin
/// holds each task's start one entry on (ItemBegin[T + 1]: the scatter's
/// cursor, which ends at the next task's start), and the order is checked
/// (returns the records found out of order); else ItemBegin is in place,
/// and Unordered keeps the records' Seq beside (Seqs) for the sort. The
/// freed records are given back here, or by the task loop's thread
/// (Share).
std::size_t Walker::scatterRecs(bool Counted, bool Unordered,
                                std::uint32_t *SeqsOut, IndexShare *Share,
                                std::uint32_t *Aside) {
  std::size_t OutOfOrder = 0; // records found out of order too late
  if (!Counted)
    std::copy(ItemBegin.begin(), ItemBegin.end() - 1, Aside);
  std::uint32_t *Next = Counted ? ItemBegin.data() + 1 : Aside;
  Item *ItemsOut = Items.data();
  std::size_t Nodes = 0;
  std::uint8_t Seen = 0; // KindTally's bits met
  // Every record passes here once: what Walker::run needs from the items
  // is tallied on the way instead of in a pass of its own.
  auto tally = [&](const Item &It) {
    std::uint8_t K = KindTally[It.Kind];
    Nodes += K & 3;
    Seen |= K;
    if (K & CreatesTask)
      claim(It.Payload);
  };
  const std::size_t PagesPerGiveBack =
      GiveBackPagesForTests ? GiveBackPagesForTests
                            : GiveBackEvery / PagedVec<Rec>::PageSize;
  for (std::size_t Pg = 0; Pg < In.Recs.pages(); ++Pg) {
    const Rec *R = In.Recs.page(Pg);
    std::size_t N = In.Recs.pageSize(Pg);
    if (Unordered) {
      for (std::size_t I = 0; I < N; ++I) {
        std::uint32_t P = Next[R[I].Task]++;
        ItemsOut[P] = R[I].It;
        SeqsOut[P] = R[I].Seq;
        tally(R[I].It);
      }
    } else if (Counted) {
      // The order is checked as the records are placed (nothing to sort
      // them by then: never seen, but said, not hidden).
      std::uint32_t *LastSeq = Aside;
      for (std::size_t I = 0; I < N; ++I) {
        std::uint32_t T = R[I].Task;
        ItemsOut[Next[T]++] = R[I].It;
        OutOfOrder += R[I].Seq < LastSeq[T];
        LastSeq[T] = R[I].Seq;
        tally(R[I].It);
      }
    } else {
      for (std::size_t I = 0; I < N; ++I) {
        ItemsOut[Next[R[I].Task]++] = R[I].It;
        tally(R[I].It);
      }
    }
    In.Recs.releasePageOf(Pg * PagedVec<Rec>::PageSize);
    if ((Pg + 1) % PagesPerGiveBack == 0) {
      if (Share)
        Share->askGiveBack(2 * (Pg + 1) >= In.Recs.pages());
      else
        giveBackFreed();
    }
  }
  In.Recs.clear();
  Tally.Nodes = Nodes;
  Tally.CompletedLater = Seen & CompletesNodeLater;
  return OutOfOrder;
}

/// Each task's items (ItemBegin[T] .. ItemBegin[T+1]) in order of their
/// sequence numbers (Seqs, beside Items), where they are not already.
static void sortBySeq(auto &Items, const auto &ItemBegin, const auto &Seqs,
                      std::size_t NT) {
  std::vector<std::pair<std::uint32_t, Item>> Tmp;
  for (std::size_t T = 0; T < NT; ++T) {
    std::uint32_t B = ItemBegin[T], E = ItemBegin[T + 1];
    if (std::is_sorted(Seqs.begin() + B, Seqs.begin() + E))
      continue;
    Tmp.clear();
    for (std::uint32_t I = B; I < E; ++I)
      Tmp.emplace_back(Seqs[I], Items[I]);
    std::stable_sort(Tmp.begin(), Tmp.end(), [](const auto &X, const auto &Y) {
      return X.first < Y.first;
    });
    for (std::uint32_t I = B; I < E; ++I)
      Items[I] = Tmp[I - B].second;
  }
}

/// libomp 19 reports a critical's release with the return address of
/// thread 0 (OMPT_LOAD_RETURN_ADDRESS(0) in __kmpc_end_critical): null or
/// some other code on every other thread, so it depends on who ran the
/// task. A critical_end takes the code of its critical_begin instead.
/// (Every mutex event has a wide payload: none, no pass.)
static void criticalEndsTakeBeginCodes(auto &Wides, const auto &Items,
                                       const auto &ItemBegin, std::size_t NT) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> OpenCriticals;
  for (std::size_t T = 0; T < (Wides.empty() ? 0 : NT); ++T) {
    OpenCriticals.clear();
    for (std::uint32_t I = ItemBegin[T]; I < ItemBegin[T + 1]; ++I) {
      const Item &E = Items[I];
      if (E.Sub != std::uint8_t(MutexKind::Critical))
        continue;
      if (E.kind() == EventKind::MutexAcquired) {
        OpenCriticals.emplace_back(Wides[E.Payload].A, Wides[E.Payload].Code);
      } else if (E.kind() == EventKind::MutexReleased) {
        Wide &W = Wides[E.Payload];
        for (std::size_t J = OpenCriticals.size(); J-- > 0;)
          if (OpenCriticals[J].first == W.A) {
            W.Code = OpenCriticals[J].second;
            OpenCriticals.erase(OpenCriticals.begin() + J);
            break;
          }
      }
    }
  }
}

/// Each parallel region's code and members (implicit tasks), in the order
/// of their index in the team.
static void membersInOrder(auto &From, auto &To) {
  To.resize(From.size());
  for (std::size_t P = 0; P < From.size(); ++P) {
    auto &M = From[P].Members;
    std::stable_sort(M.begin(), M.end(), [](const auto &X, const auto &Y) {
      return X.first < Y.first;
    });
    To[P].Code = From[P].Code;
    for (const auto &X : M)
      To[P].Members.push_back(X.second);
  }
}

/// Turns what addEvents collected into the walk's arrays, releasing the
/// collected records as it goes (they are the bulk of the memory). Two
/// parts, independent once each task's place in Items is known: the task
/// loop (indexTasks) and the record scatter (scatterRecs); for a big
/// stream whose counts the ingest kept, they run on two threads (this one
/// counts, then scatters).
void Walker::index() {
  std::size_t NT = In.Tasks.size(), NR = In.Recs.size();
  if (NR >= NoIndex)
    throw std::length_error("too many events");
  // Not touched until written (MappedAlloc: zero): their pages grow as the
  // collected tasks' and records' are released.
  Desc.resize(NT);
  Bits.resize(NT);
  Items.resize(NR);
  Claims.resize((NT + 63) / 64);
  Tally = {};

  // The task loop on a thread of its own: no array is written by both
  // (Bits and Claims are apart for this), and each releases its own part
  // of the collected store. Ended (joined) however this function ends.
  bool Counted = !In.MaybeUnordered;
  bool Split = Counted && NT >= ParallelIndexTasks && !NoIndexThread;
  // The scatter's: Counted, each task's last Seq; else each task's cursor.
  // In huge pages where the system has them: its first read of each page
  // mapped the zero page, so that every 4 KiB faulted twice (fib 30: the
  // builder's thread 49 -> 34 ms of CPU in the index with huge pages, the
  // other 49 -> 43). Read and written all over, and freed whole after the
  // scatter: no more memory in 2 MiB pages than in 4 KiB.
  Array<std::uint32_t> Aside(NT);
#ifdef MADV_HUGEPAGE
  if (NT)
    madvise(Aside.data(), NT * sizeof(std::uint32_t), MADV_HUGEPAGE);
#endif
  IndexShare Share;
  std::exception_ptr TasksFailed;
  struct Join {
    IndexShare &Share;
    std::thread Th;
    ~Join() {
      if (Th.joinable()) {
        Share.finish();
        Th.join();
      }
    }
  } Tasks{Share, {}};
  if (Split) {
    Share.Items = Items.data();
    Share.ItemsBytes = Items.size() * sizeof(Item);
    Share.LastSeq = Aside.data();
    Share.LastSeqBytes = Aside.size() * sizeof(std::uint32_t);
    try {
      Tasks.Th = std::thread([&] {
        try {
          indexTasks(&Share);
        } catch (...) {
          TasksFailed = std::current_exception();
        }
        Share.serveGiveBacks();
      });
      ++ParallelIndexes;
    } catch (const std::system_error &) { // no thread: one after the other
      Split = false;
    }
  }

  // Group the records by task, then order each task's by Seq. One thread's
  // records of a task arrive in its order; only a task whose records came
  // from several threads (an untied task that moved, a merge of shards)
  // may need sorting. Where that cannot be (Store::MaybeUnordered false),
  // the ingest's counts (TaskIn::Recs, ManyRecs) place the records and the
  // scatter checks the order; else a count pass checks it, and the
  // sequence numbers are kept only if some task needs them.
  if (Counted) {
    // Each task's start, one entry on (see scatterRecs), page by page
    // (PagedVec::page: no page lookup per task).
    ItemBegin.resize(NT + 1);
    ItemBegin[0] = 0;
    std::size_t Sum = 0;
    for (std::size_t Pg = 0; Pg < In.Tasks.pages() && Sum <= NR; ++Pg) {
      const TaskIn *X = In.Tasks.page(Pg);
      std::size_t T0 = Pg * PagedVec<TaskIn>::PageSize;
      for (std::size_t I = 0, N = In.Tasks.pageSize(Pg); I < N; ++I) {
        ItemBegin[T0 + I + 1] = std::uint32_t(Sum);
        if (X[I].Recs < 255) {
          Sum += X[I].Recs;
        } else {
          auto It = In.ManyRecs.find(std::uint32_t(T0 + I));
          Sum += It != In.ManyRecs.end() ? It->second : NR + 1;
        }
      }
      Share.CountedPages.store(Pg + 1, std::memory_order_release);
    }
    Counted = Sum == NR; // else (never seen) counted again below
  }
  Share.CountedPages.store(~std::size_t(0), std::memory_order_release);
  In.ManyRecs = {};
  if (!Split)
    indexTasks(nullptr);
  bool Unordered = false;
  if (!Counted) {
    struct CountLast {
      std::uint32_t Count, LastSeq;
    };
    std::vector<CountLast, MappedAlloc<CountLast>> Count(NT); // zero
    for (std::size_t Pg = 0; Pg < In.Recs.pages(); ++Pg) {
      const Rec *R = In.Recs.page(Pg);
      for (std::size_t I = 0, N = In.Recs.pageSize(Pg); I < N; ++I) {
        CountLast &C = Count[R[I].Task];
        ++C.Count;
        Unordered |= R[I].Seq < C.LastSeq;
        C.LastSeq = R[I].Seq;
      }
    }
    ItemBegin.resize(NT + 1);
    std::uint32_t Sum = 0;
    for (std::size_t T = 0; T < NT; ++T) {
      ItemBegin[T] = Sum;
      Sum += Count[T].Count;
    }
    ItemBegin[NT] = Sum;
  }
  std::vector<std::uint32_t, MappedAlloc<std::uint32_t>> Seqs(Unordered ? NR
                                                                        : 0);
  std::size_t OutOfOrder =
      scatterRecs(Counted, Unordered, Seqs.data(), Split ? &Share : nullptr,
                  Aside.data());
  if (Tasks.Th.joinable()) {
    Share.finish();
    Tasks.Th.join();
  }
  decltype(Aside)().swap(Aside);
  if (TasksFailed)
    std::rethrow_exception(TasksFailed);
  if (OutOfOrder)
    warn(std::to_string(OutOfOrder) +
         " event(s) arrived out of their task's order; the graph follows "
         "the arrival order");
  if (Unordered) {
    sortBySeq(Items, ItemBegin, Seqs, NT);
    decltype(Seqs)().swap(Seqs);
  }
#if defined(__GLIBC__) && !OTTER_SANITIZED_MALLOC
  malloc_trim(0); // give the released pages back before the graph grows
#endif

  criticalEndsTakeBeginCodes(In.Wides, Items, ItemBegin, NT);

  membersInOrder(In.Parallels, Parallels);
  In.Parallels = {};
  Labels.assign(In.Codes.size(), {NoIndex, 0});
}

} // namespace otter::walk
