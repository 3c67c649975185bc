//===- graph/builder_store.h - What the builder collects, per thread -*- C++
//-*-===//
//
// Private to the graph builder (builder.cpp walks it, builder_ingest.cpp
// fills it): the compact records each event is reduced to as it arrives,
// the store of one thread's records (GraphBuilder::Store) and the table of
// per-thread stores (GraphBuilder::Shards) that build() merges.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_BUILDER_STORE_H
#define OTTER_GRAPH_BUILDER_STORE_H

#include "graph/builder.h"
#include "graph/mpi_graph.h"
#include "graph/rules.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace otter {
namespace builder_detail {

constexpr std::uint32_t NoIndex = ~std::uint32_t(0);
constexpr std::uint16_t NoThreadIndex = 0xffff;

//===----------------------------------------------------------------------===//
// Ingest: what addEvents keeps.
//
// The walk needs, per task, what it is (flags, creation code, thread) and its
// strand: the events that make nodes, in its own program order. So each
// event is reduced as it arrives:
//  - task ids become dense indices (rules::TaskIndex); a task's attributes go
//  to its
//    TaskIn record at once (TaskCreate: flags and code of the new task;
//    ImplicitTaskBegin: flags and thread; TaskSchedule: only the thread);
//  - events that can make a node, or that the dependence rules read, become
//    a 16-byte Rec (task, seq, kind, sub, thread, one 32-bit payload), code
//    addresses an index into a table of distinct codes, thread indices an
//    index into a table of distinct threads; the rare wide payloads (a
//    dependence's address, a mutex's wait id, cancel flags) go to a side
//    table;
//  - what the walk never reads is dropped: the end of a taskwait or barrier
//    (only a taskgroup's end makes a node), reductions, cancels the task did
//    not activate, schedule events once they gave the thread, timestamps
//    (no output has times: they belong to the trace).
// Storage is paged (no reallocation copying the whole store as it grows)
// and released page by page once build() has indexed it.
//===----------------------------------------------------------------------===//

/// A vector in fixed-size pages: growing never copies, and pages can be
/// released while a pass walks it front to back.
template <class T, unsigned Shift = 12> class PagedVec {
public:
  static constexpr std::size_t PageSize = std::size_t(1) << Shift;
  std::size_t size() const { return N; }
  T &operator[](std::size_t I) { return Pages[I >> Shift][I & (PageSize - 1)]; }
  const T &operator[](std::size_t I) const {
    return Pages[I >> Shift][I & (PageSize - 1)];
  }
  T &push_back(const T &V) {
    if ((N >> Shift) == Pages.size())
      Pages.emplace_back(new T[PageSize]);
    T &R = (*this)[N++];
    R = V;
    return R;
  }
  /// Frees the page holding element I (which must not be read again).
  void releasePageOf(std::size_t I) { Pages[I >> Shift].reset(); }
  /// Page P's elements (PageSize of them, fewer in the last page): for
  /// passes over every element, without the page lookup per element.
  std::size_t pages() const { return Pages.size(); }
  const T *page(std::size_t P) const { return Pages[P].get(); }
  std::size_t pageSize(std::size_t P) const {
    return std::min(PageSize, N - (P << Shift));
  }
  void clear() {
    Pages.clear();
    Pages.shrink_to_fit();
    N = 0;
  }

private:
  std::vector<std::unique_ptr<T[]>> Pages;
  std::size_t N = 0;
};

/// One strand event, as the walk reads it (8 bytes).
struct Item {
  std::uint8_t Kind;     // EventKind
  std::uint8_t Sub;      // Event::Sub, 255 if it does not fit (no valid value)
  std::uint16_t Thread;  // index into Store::ThreadIds
  std::uint32_t Payload; // TaskCreate: task index; ParallelBegin: parallel
                         // index; TaskDependence, Mutex*, Cancel: index
                         // into Store::Wide; others: code index
  EventKind kind() const { return static_cast<EventKind>(Kind); }
};
static_assert(sizeof(Item) == 8);

/// An item as collected: with its task and position in the task's order.
struct Rec {
  std::uint32_t Task;
  std::uint32_t Seq;
  Item It;
};
static_assert(sizeof(Rec) == 16);

/// Payloads that do not fit an Item.
struct Wide {
  std::uint64_t A = 0;    // dependence address, mutex wait id, bytes moved
  std::uint32_t Code = 0; // code index
  std::uint32_t Aux = 0;  // cancel flags
};

/// What the events said about one task, while collecting.
struct TaskIn {
  std::uint64_t SchedPrior = 0; // key of the schedule event that gave
  std::uint32_t SchedSeq = 0;   // Thread (see TaskSchedule below)
  std::uint32_t Code = 0;       // code index
  std::uint32_t Flags = 0;
  /// From ImplicitTaskBegin (Implicit), else from TaskSchedule (HasSched).
  std::uint16_t Thread = NoThreadIndex;
  std::uint8_t Bits = 0;
  /// The task's records (Rec) in this store, up to 254; 255: more, the
  /// count is in Store::ManyRecs. (In what was padding: counted as they
  /// are collected, they need no pass of their own at the end.)
  std::uint8_t Recs = 0;
  static constexpr std::uint8_t Known = 1, HasSched = 2, Implicit = 4,
                                InLeague = 8; // a team's initial task
};
static_assert(sizeof(TaskIn) == 24); // one per task, in every thread's
                                     // store that names it

struct RootIn {
  std::uint64_t Time = 0;
  TaskId Id = 0;
};

struct ParallelIn {
  std::uint32_t Code = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> Members; // (index in
                                                                // team, task)
};

/// What the shards share: the MPI calls. Their ingest pairs each call's
/// begin and end per thread and numbers the calls for the whole stream;
/// they are rare and each costs microseconds in the program, so they are
/// collected under one lock of their own.
struct MpiShared {
  std::mutex Mutex;
  MpiIngest Mpi;
  std::vector<std::uint64_t> CallCodes; // call index -> code address
};

/// What an Item's Payload indexes (see Item).
enum class PayloadOf { Task, Parallel, Wide, MpiCall, Code };
inline PayloadOf payloadOf(EventKind K) {
  switch (K) {
  case EventKind::TaskCreate:
    return PayloadOf::Task;
  case EventKind::ParallelBegin:
    return PayloadOf::Parallel;
  case EventKind::TaskDependence:
  case EventKind::MutexAcquired:
  case EventKind::MutexReleased:
  case EventKind::Cancel:
  case EventKind::PhaseBegin:
  case EventKind::PhaseEnd:
  case EventKind::Mark:
  case EventKind::TaskLabel:
  case EventKind::TargetDataOpBegin:
    return PayloadOf::Wide;
  case EventKind::MpiCallBegin:
    return PayloadOf::MpiCall;
  default:
    return PayloadOf::Code;
  }
}

} // namespace builder_detail

// (A private header: the builder's two files use these names unqualified.)
using namespace builder_detail;

/// What the events of one thread said (a shard: see GraphBuilder::Shards),
/// or, once build() merged the shards, of all of them.
struct GraphBuilder::Store {
  rules::TaskIndex Ids;
  PagedVec<TaskIn> Tasks;
  PagedVec<Rec> Recs;
  std::vector<Wide> Wides;
  std::unordered_map<std::uint32_t, RootIn> Roots; // tasks with TaskInitial
  /// Initial tasks' index in their league (host teams: the team number),
  /// until a teams barrier says which league they belong to.
  std::unordered_map<std::uint32_t, std::uint16_t> InitialIndex;
  /// The league (host teams) this thread began last, until the next
  /// implicit task's begin or parallel region: the initial task that
  /// begins right after it is its first team's (0: none).
  ParallelId OpenLeague = 0;
  std::unordered_map<ParallelId, std::uint32_t> ParallelIndex;
  std::vector<ParallelIn> Parallels;
  std::vector<ParallelId> ParallelIds; // parallel index -> id
  std::vector<std::uint64_t> Codes{0}; // code index -> address (0: none)
  std::unordered_map<std::uint64_t, std::uint32_t> CodeIndex{{0, 0}};
  std::vector<std::uint32_t> ThreadIds; // thread index -> thread
  std::unordered_map<std::uint32_t, std::uint16_t> ThreadIndex;
  std::size_t Events = 0;      // graph events seen
  /// Records per task of the tasks with more than 254 (TaskIn::Recs).
  std::unordered_map<std::uint32_t, std::uint32_t> ManyRecs;
  /// Some task's records may be out of its order (Seq) here, so that
  /// Walker::index must check: set where records come from several
  /// threads (a task in more than one merged store, the overflow store)
  /// and for an MPI call's record (made at the call's end). One thread's
  /// records of a task otherwise arrive in the task's order.
  bool MaybeUnordered = false;
  MpiShared *Shared = nullptr; // while collecting: the shards' MPI calls
  MpiIngest Mpi;               // once merged: the MPI calls (graph/mpi_graph.h)
  std::vector<std::uint32_t> MpiCodes; // once merged: call -> code index

  std::uint32_t task(TaskId Id) {
    std::uint32_t &S = Ids.cell(Id);
    if (S == NoIndex) {
      S = (std::uint32_t)Tasks.size();
      Tasks.push_back(TaskIn{});
    }
    return S;
  }
  std::uint32_t parallel(ParallelId Id) {
    auto [It, New] =
        ParallelIndex.try_emplace(Id, (std::uint32_t)Parallels.size());
    if (New) {
      Parallels.emplace_back();
      ParallelIds.push_back(Id);
    }
    return It->second;
  }
  std::uint32_t code(std::uint64_t C) {
    auto [It, New] = CodeIndex.try_emplace(C, (std::uint32_t)Codes.size());
    if (New)
      Codes.push_back(C);
    return It->second;
  }
  std::uint32_t wide(std::uint64_t A, std::uint64_t Code, std::uint32_t Aux) {
    Wides.push_back({A, code(Code), Aux});
    return (std::uint32_t)Wides.size() - 1;
  }
  std::uint16_t thread(std::uint32_t T) {
    auto [It, New] =
        ThreadIndex.try_emplace(T, (std::uint16_t)ThreadIds.size());
    if (New) {
      if (ThreadIds.size() >= NoThreadIndex)
        throw std::length_error("more than 65534 threads");
      ThreadIds.push_back(T);
    }
    return It->second;
  }
  /// Counts N more records of task T (TaskIn::Recs, ManyRecs).
  void countRecs(std::uint32_t T, std::uint32_t N = 1) {
    std::uint8_t &C = Tasks[T].Recs;
    if (C + N < 255) {
      C = std::uint8_t(C + N);
      return;
    }
    std::uint32_t &M = ManyRecs[T];
    if (C < 255)
      M = C;
    C = 255;
    M += N;
  }
  std::uint32_t recCount(std::uint32_t T) const {
    std::uint8_t C = Tasks[T].Recs;
    return C < 255 ? C : ManyRecs.at(T);
  }
  void add(std::uint32_t Thread, const Event *E, std::size_t N);
  void addOne(std::uint32_t Thread, std::uint16_t &Th, const Event &E);
  void implicitTaskBegin(std::uint16_t Th, const Event &E);
  void taskScheduled(std::uint16_t Th, const Event &E);
  void merge(Store &Src);
};

/// One store per thread, found without a lock: a table of 256 pages of 256
/// slots, each page made on first use (compare and swap). The threads past
/// the table's 65,536 (none in practice: the builder numbers at most 65,534
/// threads) share one store under a lock.
struct GraphBuilder::Shards {
  static constexpr std::uint32_t SlotBits = 8, Slots = 1u << SlotBits,
                                 Pages = 256;
  std::atomic<std::atomic<Store *> *> Table[Pages] = {};
  std::mutex OverflowMutex;
  std::unique_ptr<Store> Overflow;
  MpiShared Mpi;

  ~Shards() {
    for (auto &P : Table)
      if (std::atomic<Store *> *Page = P.load()) {
        for (std::uint32_t I = 0; I < Slots; ++I)
          delete Page[I].load();
        delete[] Page;
      }
  }
  /// Thread's store, made on first use; null past the table.
  Store *get(std::uint32_t Thread) {
    if (Thread >= Pages * Slots)
      return nullptr;
    std::atomic<std::atomic<Store *> *> &P = Table[Thread >> SlotBits];
    std::atomic<Store *> *Page = P.load(std::memory_order_acquire);
    if (!Page) {
      auto *New = new std::atomic<Store *>[Slots]();
      if (P.compare_exchange_strong(Page, New, std::memory_order_acq_rel))
        Page = New;
      else
        delete[] New; // another thread made it: Page is that one
    }
    std::atomic<Store *> &Slot = Page[Thread & (Slots - 1)];
    Store *S = Slot.load(std::memory_order_acquire);
    if (!S) {
      auto *New = new Store();
      New->Shared = &Mpi;
      if (Slot.compare_exchange_strong(S, New, std::memory_order_acq_rel))
        S = New;
      else
        delete New;
    }
    return S;
  }
  /// Every store made, in thread order (then the overflow's).
  template <class Fn> void forEach(Fn &&F) {
    for (auto &P : Table)
      if (std::atomic<Store *> *Page = P.load(std::memory_order_acquire))
        for (std::uint32_t I = 0; I < Slots; ++I)
          if (Store *S = Page[I].load(std::memory_order_acquire))
            F(*S);
    if (Overflow)
      F(*Overflow);
  }
};

/// Walks what the store collected into the graph Out (builder.cpp); see
/// GraphBuilder::build for the hooks (may be empty).
void walkStore(GraphBuilder::Store &In, GraphBuilder::Resolver &Resolve,
               Graph &Out, const GraphBuilder::Hooks &H);

} // namespace otter

#endif // OTTER_GRAPH_BUILDER_STORE_H
