//===- graph/builder_walk.h - The builder's walk: state and steps -*- C++
//-*-===//
//
// The walk that turns the collected events into the graph (graph/
// builder.cpp says how) is one class, Walker, whose work is in three
// files: graph/builder_index.cpp indexes what addEvents collected,
// graph/builder_signature.cpp computes every task's and team's signature
// (the first pass, which orders a team's implicit tasks independently of
// the schedule), and graph/builder.cpp emits the nodes and edges (the
// second pass) and drives them. This header
// holds the walk's state and the small helpers both passes use.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_BUILDER_WALK_H
#define OTTER_GRAPH_BUILDER_WALK_H

#include "graph/builder.h"
#include "graph/builder_store.h"
#include "graph/node_feed.h"
#include "graph/rules.h"
#include "otter/event_info.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <malloc.h>
// Under a sanitizer, malloc is the sanitizer's: glibc's malloc_trim then
// works on arenas no thread attached to, and with several builders at once
// (otter-graph on an MPI job) glibc aborts at thread exit
// ("__malloc_arena_thread_freeres: a->attached_threads > 0").
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OTTER_SANITIZED_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define OTTER_SANITIZED_MALLOC 1
#endif
#endif
#ifndef OTTER_SANITIZED_MALLOC
#define OTTER_SANITIZED_MALLOC 0
#endif
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <sys/mman.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace otter::walk {

using rules::isBarrier;

/// For the walk's per-task and per-node helpers: the compiler left several
/// out of line, and their calls cost more than their work.
#define OTTER_WALK_INLINE [[gnu::always_inline]] inline

// ompt_cancel_flag_t bits (Cancel events' Aux).
constexpr std::uint32_t CancelParallel = 0x1, CancelSections = 0x2,
                        CancelLoop = 0x4, CancelTaskgroup = 0x8,
                        CancelActivated = 0x10;

/// What a cancel node cancels, as node flags (the raw OMPT bits would
/// collide with NodeSingleExecutor).
inline std::uint32_t cancelNodeFlags(std::uint32_t Aux) {
  std::uint32_t F = 0;
  if (Aux & CancelParallel)
    F |= NodeCancelParallel;
  if (Aux & CancelSections)
    F |= NodeCancelSections;
  if (Aux & CancelLoop)
    F |= NodeCancelLoop;
  if (Aux & CancelTaskgroup)
    F |= NodeCancelTaskgroup;
  return F;
}

/// The end of a worksharing construct that every member of a team
/// encounters (not a taskloop, which belongs to one task).
template <class Ev> bool isTeamWorkEnd(const Ev &E) {
  return static_cast<EventKind>(E.Kind) == EventKind::WorkEnd &&
         rules::isTeamWork(static_cast<WorkKind>(E.Sub));
}

inline std::uint64_t mix(std::uint64_t H, std::uint64_t V) {
  // splitmix64-style combination: order sensitive, well distributed.
  H ^= V + 0x9e3779b97f4a7c15ULL + (H << 6) + (H >> 2);
  H ^= H >> 31;
  H *= 0xbf58476d1ce4e5b9ULL;
  H ^= H >> 27;
  return H;
}

inline std::uint64_t hashString(const std::string &S) {
  std::uint64_t H = 0xcbf29ce484222325ULL;
  for (unsigned char C : S) {
    H ^= C;
    H *= 0x100000001b3ULL;
  }
  return H;
}

/// An allocator that maps its storage directly from the system (page
/// aligned, not from malloc's heap), so that parts of one big array can be
/// given back while the rest is in use (BlockRelease). For big arrays only:
/// each allocation takes whole pages.
template <class T> struct MappedAlloc {
  using value_type = T;
  MappedAlloc() = default;
  template <class U> MappedAlloc(const MappedAlloc<U> &) {}
  T *allocate(std::size_t N) {
    void *P = mmap(nullptr, N * sizeof(T), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (P == MAP_FAILED)
      throw std::bad_alloc();
    return static_cast<T *>(P);
  }
  void deallocate(T *P, std::size_t N) { munmap(P, N * sizeof(T)); }
  /// resize() leaves elements as the mapping made them (zero) without
  /// writing them: a page is touched (costs memory) only once written.
  template <class U> void construct(U *P) { ::new (static_cast<void *>(P)) U; }
  template <class U, class... A> void construct(U *P, A &&...Args) {
    ::new (static_cast<void *>(P)) U(std::forward<A>(Args)...);
  }
  bool operator==(const MappedAlloc &) const { return true; }
};

/// Gives the pages malloc holds free back to the system. Freed records
/// (the ingest's pages are below malloc's mmap threshold) otherwise stay
/// resident while the walk's arrays, mapped anew, grow beside them.
inline void giveBackFreed() {
#if defined(__GLIBC__) && !OTTER_SANITIZED_MALLOC
  malloc_trim(0);
#endif
}

/// Gives parts of one of the walk's big arrays (from MappedAlloc, so page
/// aligned) back to the system as the walk goes, instead of at its end:
/// the peak memory of graph mode is at the end of the walk, when the graph
/// is complete. Each element has a number of users (the tasks that read it:
/// an item's task, a task's own entries); a block of elements is released
/// once none of its elements has a user left. Walker::run uses it only when
/// the tasks form a tree (each created, begun as a team member or started
/// as a root once): then nothing reads an emitted task's entries again; a
/// corrupt stream keeps them all.
class BlockRelease {
public:
  static constexpr std::size_t BlockBytes = 64 * 1024; // whole pages
  /// For tests: overwrite a released block with 0xff bytes (a kind no
  /// event has, out-of-range indices) instead of giving it back, so that
  /// a read of a released element shows in the graph or crashes, not
  /// reads 0.
  static inline bool Poison = false;

  /// Array Base of N elements of Size bytes, each with Users users.
  void start(void *Base, std::size_t N, std::size_t Size, std::uint32_t Users) {
    if (!std::has_single_bit(Size) || Size > BlockBytes)
      throw std::logic_error("BlockRelease: element size not a power of two");
    this->Base = static_cast<char *>(Base);
    Bytes = N * Size;
    PerBlock = BlockBytes / Size;
    Shift = unsigned(std::countr_zero(PerBlock));
    Left.assign((N + PerBlock - 1) / PerBlock, std::uint32_t(PerBlock * Users));
    if (N % PerBlock)
      Left.back() = std::uint32_t(N % PerBlock * Users);
  }
  /// Element I has one user fewer than start() said (never released if
  /// its block has none left otherwise: call before the walk).
  void unuse(std::size_t I) { --Left[I >> Shift]; }
  /// Elements [B, E) have lost one user each.
  OTTER_WALK_INLINE void done(std::size_t B, std::size_t E) {
    if (!Base || B >= E)
      return;
    // Called per task, three times: the common case (one block) inline,
    // the rest (a block released, a range over two) out of line.
    std::size_t Block = B >> Shift;
    if (Block == (E - 1) >> Shift) [[likely]] {
      if ((Left[Block] -= std::uint32_t(E - B)) == 0) [[unlikely]]
        release(Block);
      return;
    }
    doneBlocks(B, E);
  }
  void disable() { Base = nullptr; }

private:
  [[gnu::noinline]] void doneBlocks(std::size_t B, std::size_t E) {
    while (B < E) {
      std::size_t Block = B >> Shift;
      std::size_t End = std::min(E, (Block + 1) << Shift);
      if ((Left[Block] -= std::uint32_t(End - B)) == 0)
        release(Block);
      B = End;
    }
  }
  [[gnu::noinline]] void release(std::size_t Block) {
    // Only this block's own bytes: the kernel rounds the length up to a
    // page, which stays inside the array's mapping (never past it).
    char *P = Base + Block * BlockBytes;
    std::size_t Len =
        std::min(Bytes, (Block + 1) * BlockBytes) - Block * BlockBytes;
    if (Poison)
      std::memset(P, 0xff, Len);
    else
      madvise(P, Len, MADV_DONTNEED);
  }

  char *Base = nullptr;
  std::size_t Bytes = 0, PerBlock = 1;
  unsigned Shift = 0;              // PerBlock == 1 << Shift
  std::vector<std::uint32_t> Left; // per block: users left
};

//===----------------------------------------------------------------------===//
// The walk.
//===----------------------------------------------------------------------===//

struct TeamCtx;
struct TaskgroupFrame;

/// What a task is, interned: few distinct (code, flags, thread) triples.
struct TaskDesc {
  std::uint32_t Code = 0; // code index
  std::uint32_t Flags = 0;
  std::uint32_t Thread = NoThread;
  bool operator==(const TaskDesc &) const = default;
};
struct TaskDescHash {
  std::size_t operator()(const TaskDesc &D) const {
    return mix(mix(D.Code, D.Flags), D.Thread);
  }
};

// Per-task walk state bits.
constexpr std::uint8_t Known = 1, Visited = 2, Synced = 4, HashDone = 8;

struct ParallelInfo {
  std::uint32_t Code = 0;
  std::vector<std::uint32_t> Members; // task indices
  bool HashDone = false;
  std::uint64_t Hash = 0;
};

struct TeamCtx {
  NodeId TeamNode = NoNode;           // parent of team-wide nodes
  std::vector<std::uint32_t> Pending; // tasks waited for by next barrier
};

struct TaskgroupFrame {
  std::vector<std::uint32_t> Members;
};

struct RootInfo {
  std::uint32_t Task;
  std::uint64_t Time;
  TaskId Id;
};

class Walker {
public:
  Walker(GraphBuilder::Store &In, GraphBuilder::Resolver &Resolve, Graph &Out)
      : In(In), Resolve(Resolve), G(Out) {}

  void run(const GraphBuilder::Hooks &H);

  /// index() splits its work over two threads from this many tasks on
  /// (builder_index.cpp); tests change it, NoIndexThread makes the
  /// thread's creation fail, and GiveBackPagesForTests (if not 0) has the
  /// scatter give freed records back every so many pages of records
  /// instead of every 256. ParallelIndexes counts the splits made.
  static inline std::size_t ParallelIndexTasks = 100000;
  static inline bool NoIndexThread = false;
  static inline std::size_t GiveBackPagesForTests = 0;
  static inline std::atomic<std::size_t> ParallelIndexes{0};

private:
  GraphBuilder::Store &In; // what addEvents collected
  GraphBuilder::Resolver &Resolve;

  // Per task (dense index), structure of arrays. Desc and ItemBegin are
  // released as the walk goes (Release), like Items.
  template <class T> using Array = std::vector<T, MappedAlloc<T>>;
  Array<std::uint32_t> Desc;           // index into Descs
  Array<std::uint32_t> ItemBegin;      // task's items: [Begin[T], Begin[T+1])
  std::vector<std::uint32_t> Frontier; // last node of the task's strand
  Array<std::uint8_t> Bits;
  std::vector<std::uint64_t> Hashes; // signatures, made on first use
  std::size_t Hashed = 0;            // signatures made since allocation
  std::vector<TaskDesc> Descs;
  /// All strands, grouped by task, program order.
  Array<Item> Items;
  /// What releases Items, Desc and ItemBegin as tasks are emitted.
  struct {
    BlockRelease Items, Desc, ItemBegin;
  } Release;
  std::vector<ParallelInfo> Parallels;
  std::vector<RootInfo> Roots;
  std::vector<std::pair<std::uint32_t, std::uint64_t>>
      Labels; // per code
              // index: (label index, hash)
  Graph &G;
  /// Another thread reads the nodes as they are made (graph/node_feed.h).
  NodeFeed *Feed = nullptr;

  void index();
  struct IndexShare;
  void indexTasks(IndexShare *Share);
  std::size_t scatterRecs(bool Counted, bool Unordered, std::uint32_t *Seqs,
                          IndexShare *Share, std::uint32_t *Aside);
  /// What run() needs from the items, tallied as index() places them:
  /// nodes they can make, whether some complete a node after it is made
  /// (a name, a target construct's bytes), whether the tasks
  /// form a tree (claim: each task created, begun as a team member or
  /// started as a root once; Claims, a bit per task, says which were).
  struct {
    std::size_t Nodes = 0;
    bool CompletedLater = false, Tree = true;
  } Tally;
  Array<std::uint64_t> Claims;
  void claim(std::uint32_t T);
  void releaseWalkState();
  void startRelease(bool Tree);
  /// Task T was emitted: its items and entries are not read again.
  void taskDone(std::uint32_t T) {
    taskDone(T, ItemBegin[T], ItemBegin[T + 1]);
  }
  /// The same, T's items [B, E) known.
  OTTER_WALK_INLINE void taskDone(std::size_t T, std::uint32_t B,
                                  std::uint32_t E) {
    // (T as a size_t: the compiler then knows that [T, T + 1) is one
    // element in one block, and done() folds to a decrement.)
    Release.Items.done(B, E);
    Release.Desc.done(T, T + 1);
    Release.ItemBegin.done(T, T + 2); // T's entry and its end
  }
  const Item &ev(std::uint32_t Pos) const { return Items[Pos]; }
  std::uint32_t threadOf(std::uint32_t Pos) const {
    return In.ThreadIds[Items[Pos].Thread];
  }
  const TaskDesc &desc(std::uint32_t T) const { return Descs[Desc[T]]; }
  /// Code index of an item's event.
  std::uint32_t codeOf(const Item &E) const {
    switch (payloadOf(E.kind())) {
    case PayloadOf::Task:
      return desc(E.Payload).Code;
    case PayloadOf::Parallel:
      return Parallels[E.Payload].Code;
    case PayloadOf::Wide:
      return In.Wides[E.Payload].Code;
    case PayloadOf::MpiCall:
      return In.MpiCodes[E.Payload];
    case PayloadOf::Code:
      break;
    }
    return E.Payload;
  }
  OTTER_WALK_INLINE std::pair<std::uint32_t, std::uint64_t>
  label(std::uint32_t Code) {
    // Per node: the lookup inline, the first use of a code out of line.
    if (Code == 0)
      return {0, 0};
    const auto &Slot = Labels[Code];
    if (Slot.first != NoIndex) [[likely]]
      return Slot;
    return newLabel(Code);
  }
  std::pair<std::uint32_t, std::uint64_t> newLabel(std::uint32_t Code);
  /// T's strand into Out (builder.cpp); true if T has dependences.
  bool strand(std::uint32_t T, std::vector<std::uint32_t> &Out) const;
  struct Strand;
  /// A target construct's begin or end, a transfer or a kernel submission
  /// in strand S (builder.cpp; rules.h, rule 8).
  void targetItem(Strand &S, std::uint32_t Pos);
  OTTER_WALK_INLINE bool strandOf(std::uint32_t T, std::uint32_t B,
                                  std::uint32_t E, Strand &S) const;

  std::uint64_t taskHash(std::uint32_t T);
  std::uint64_t parallelHash(std::uint32_t P);
  std::uint64_t itemHash(std::uint64_t H, std::uint32_t Pos);
  std::vector<std::size_t>
  phaseEnds(const std::vector<std::uint32_t> &Items) const;
  std::vector<std::uint64_t> segmentHashes(std::uint32_t TI);

  OTTER_WALK_INLINE NodeId addNode(NodeKind K, NodeId Parent,
                                   std::uint32_t Thread, std::uint32_t Code,
                                   std::uint32_t Flags = 0);
  void feedNodes(std::size_t Final);
  OTTER_WALK_INLINE void addEdge(NodeId S, NodeId T, EdgeKind K) {
    if (S != NoNode && T != NoNode && S != T) {
      // Made aside and stored whole: made in place, its bit-fields were
      // read from the fresh memory first, which faulted every page of the
      // edges twice (the zero page, then the copy on write) and stalled.
      const Edge E(S, T, K);
      G.Edges.push_back(E);
    }
  }
  void warn(std::string W) {
    if (G.Warnings.size() < 100)
      G.Warnings.push_back(std::move(W));
    ++G.Stats.Warnings;
  }
  /// Appends to a list of tasks waiting for a sync; when the list is full,
  /// first drops those already synced (syncAll skips them anyway). On fib
  /// the team's list would otherwise hold every task of the program.
  OTTER_WALK_INLINE void pushPending(std::vector<std::uint32_t> &L,
                                     std::uint32_t T) {
    if (L.size() == L.capacity()) [[unlikely]]
      makeRoom(L);
    L.push_back(T);
  }
  [[gnu::noinline]] void makeRoom(std::vector<std::uint32_t> &L) {
    if (L.size() < 64)
      return; // push_back grows it
    L.erase(std::remove_if(L.begin(), L.end(),
                           [&](std::uint32_t X) { return Bits[X] & Synced; }),
            L.end());
    if (L.size() > L.capacity() / 2)
      L.reserve(L.capacity() * 2); // amortised: grow, as push_back would
  }

  // Emission.
  struct Strand {
    std::uint32_t Task;
    NodeId Node = NoNode; // parent of the nodes this strand makes
    TaskgroupFrame *InheritedGroup = nullptr; // innermost enclosing taskgroup
    std::vector<std::uint32_t> Items;         // order positions, normalised
    /// Instead of Items, the walk's items [First, First + Count) as they
    /// are: an explicit task's strand that needs no reordering (the common
    /// case: no copy per task). Its dependences stay in it, and make no
    /// node (runStrand passes them by); Direct strands never stop at a
    /// phase's end (StopAt), which counts Items' positions.
    bool Direct = false;
    std::uint32_t First = 0, Count = 0;
    std::size_t size() const { return Direct ? Count : Items.size(); }
    std::uint32_t at(std::size_t I) const {
      return Direct ? First + std::uint32_t(I) : Items[I];
    }
    std::size_t Pos = 0;
    NodeId Cursor = NoNode;
    std::vector<std::unique_ptr<TaskgroupFrame>> Groups;
    std::vector<std::uint32_t> PendingChildren;
    /// Undeferred and included children (if(0), final): the creator resumes
    /// only when they complete, so its next node follows their ends.
    std::vector<std::uint32_t> Joins;
    rules::DependenceRules Deps; // among this strand's children
    bool Ended = false;
    /// A team's initial task under host teams: the teams construct's code,
    /// which the team's own region (OMPT reports it with none) inherits.
    std::uint32_t LeagueCode = 0;
    /// The open target construct's node that its transfers' bytes go to
    /// (rules.h, rule 8), and its code (its kernels' label); NoNode, 0:
    /// none open.
    NodeId TargetNode = NoNode;
    std::uint32_t TargetCode = 0;

    /// As a new strand of task T, keeping the lists' storage (StrandPool).
    OTTER_WALK_INLINE void reset(std::uint32_t T) {
      Task = T;
      Node = Cursor = NoNode;
      InheritedGroup = nullptr;
      Items.clear();
      Direct = false;
      Pos = 0;
      Groups.clear();
      PendingChildren.clear();
      Joins.clear();
      if (!Deps.empty()) // (clearing an empty map still clears its buckets)
        Deps.clear();
      Ended = false;
      LeagueCode = 0;
      TargetNode = NoNode;
      TargetCode = 0;
    }
    /// Drops storage that one unusual task grew, so that the pool keeps
    /// only what is typical (a few elements per list).
    OTTER_WALK_INLINE void trim() {
      constexpr std::size_t Keep = 1024;
      if (Items.capacity() > Keep)
        std::vector<std::uint32_t>().swap(Items);
      if (PendingChildren.capacity() > Keep)
        std::vector<std::uint32_t>().swap(PendingChildren);
      if (Joins.capacity() > Keep)
        std::vector<std::uint32_t>().swap(Joins);
      if (!Deps.empty() || Groups.capacity() > Keep) {
        decltype(Groups)().swap(Groups);
        Deps = rules::DependenceRules();
      }
    }
  };
  /// The strands of explicit tasks being emitted, one per depth of
  /// emitTask's recursion, reused: making and freeing a strand's lists per
  /// task was a third of the walk's instructions (malloc, free).
  std::vector<std::unique_ptr<Strand>> StrandPool;
  std::size_t StrandDepth = 0;
  /// The strand at the next depth, reset for task T; given back when the
  /// lease ends (also when the walk throws).
  struct StrandLease {
    Walker &W;
    Strand &S;
    OTTER_WALK_INLINE explicit StrandLease(Walker &W, std::uint32_t T)
        : W(W), S(W.nextStrand()) {
      S.reset(T);
    }
    OTTER_WALK_INLINE ~StrandLease() {
      S.trim();
      --W.StrandDepth;
    }
    StrandLease(const StrandLease &) = delete;
    StrandLease &operator=(const StrandLease &) = delete;
  };
  OTTER_WALK_INLINE Strand &nextStrand() {
    if (StrandDepth == StrandPool.size()) [[unlikely]]
      StrandPool.push_back(std::make_unique<Strand>());
    return *StrandPool[StrandDepth++];
  }
  /// Runs S until its next barrier (returns the order position of the
  /// barrier's SyncBegin) or its end (returns ~0u).
  std::uint32_t runStrand(Strand &S, TeamCtx &Team,
                          std::size_t StopAt = ~std::size_t(0));
  /// The node of S's item at Pos, of kind K, next in S's strand.
  NodeId step(Strand &S, std::uint32_t Pos, NodeKind K,
              std::uint32_t Flags = 0);
  void emitTask(std::uint32_t Child, Strand &Creator, TeamCtx &Team,
                std::uint32_t CreatePos);
  NodeId emitTeam(std::uint32_t P, Strand &Encounter, std::uint32_t Pos);
  NodeId teamBarrier(const std::vector<std::size_t> &Order,
                     const std::vector<std::uint32_t> &Stops,
                     std::uint32_t PCode, NodeId Begin, bool &EndBarrier);
  OTTER_WALK_INLINE void joinInto(Strand &S, NodeId Next);
  void emitRoot(std::uint32_t T);
  OTTER_WALK_INLINE void syncAll(std::vector<std::uint32_t> &Waited,
                                 NodeId Sync);
  void addDependences(Strand &Creator, std::uint32_t Child, NodeId ChildNode);
};

} // namespace otter::walk

#endif // OTTER_GRAPH_BUILDER_WALK_H
