//===- core/filter.cpp - The filter stage between adapters and buffers ----===//
//
// The decision of admit() in a few loads: paused, the event's group, its
// kind and sub-kind, then its code address in a table of the answers given
// so far (open addressing, lock-free reads; filled under a mutex, once per
// distinct address; a map behind it when the table is full).
//
//===----------------------------------------------------------------------===//
#include "core/filter.h"
#include "core/recorder.h"
#include "otter/event_info.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

namespace otter {

namespace {

constexpr const char *GroupNames[] = {
    "threads", "parallel", "tasks",  "dependences", "sync",    "worksharing",
    "masked",  "mutex",    "cancel", "mpi",         "control", "target",
    "other"};
static_assert(std::size(GroupNames) == std::size_t(EventGroup::Count));

/// The group of each kind: its row's Group column in otter/event_kinds.def.
constexpr EventGroup groupOfKind(EventKind K) { return kindInfo(K).Group; }

/// Every kind has a group of its own (Other is for values that are no kind).
constexpr bool everyKindGrouped() {
  for (std::size_t K = 1; K <= std::size_t(EventKind::LastKind); ++K)
    if (kindInfo(EventKind(K)).Kind != EventKind::None &&
        groupOfKind(EventKind(K)) >= EventGroup::Other)
      return false;
  return true;
}
static_assert(everyKindGrouped(), "event_kinds.def: a kind has no group");

// The groups of the callbacks that make them (ompt/tool.cpp's table).
static_assert(groupOfKind(EventKind::ThreadEnd) == EventGroup::Threads);
static_assert(groupOfKind(EventKind::ParallelEnd) == EventGroup::Parallel);
static_assert(groupOfKind(EventKind::ImplicitTaskBegin) ==
              EventGroup::Parallel);
static_assert(groupOfKind(EventKind::TaskCreate) == EventGroup::Tasks);
static_assert(groupOfKind(EventKind::TaskSchedule) == EventGroup::Tasks);
static_assert(groupOfKind(EventKind::TaskDependence) ==
              EventGroup::Dependences);
static_assert(groupOfKind(EventKind::TaskDependencePair) ==
              EventGroup::Dependences);
static_assert(groupOfKind(EventKind::SyncWaitEnd) == EventGroup::Sync);
static_assert(groupOfKind(EventKind::Flush) == EventGroup::Sync);
static_assert(groupOfKind(EventKind::WorkBegin) == EventGroup::Worksharing);
static_assert(groupOfKind(EventKind::Dispatch) == EventGroup::Worksharing);
static_assert(groupOfKind(EventKind::MaskedEnd) == EventGroup::Masked);
static_assert(groupOfKind(EventKind::MutexReleased) == EventGroup::Mutex);
static_assert(groupOfKind(EventKind::NestLockEnd) == EventGroup::Mutex);
static_assert(groupOfKind(EventKind::Cancel) == EventGroup::Cancel);
static_assert(groupOfKind(EventKind::MpiCallBegin) == EventGroup::Mpi);
static_assert(groupOfKind(EventKind::MpiSend) == EventGroup::Mpi);
static_assert(groupOfKind(EventKind::ToolControl) == EventGroup::Control);

constexpr auto KindGroups = [] {
  std::array<EventGroup, EventKindCount> A{};
  for (std::size_t K = 0; K < EventKindCount; ++K)
    A[K] = groupOfKind(EventKind(K));
  return A;
}();

/// The answers of Rules::DropCode so far.
class CodeAnswers {
public:
  static constexpr std::size_t Slots = 4096, MaxProbe = 16;

  /// Whether Code is dropped; asks Rule the first time.
  bool drop(std::uint64_t Code,
            const std::function<bool(std::uint64_t)> &Rule) {
    std::size_t H = hash(Code);
    for (std::size_t P = 0; P < MaxProbe; ++P) {
      const Slot &S = Table[(H + P) & (Slots - 1)];
      std::uint64_t C = S.Code.load(std::memory_order_acquire);
      if (C == Code)
        return S.Drop.load(std::memory_order_relaxed);
      if (C == 0)
        break;
    }
    return ask(Code, Rule);
  }

private:
  struct Slot {
    std::atomic<std::uint64_t> Code{0};
    std::atomic<bool> Drop{false};
  };

  static std::size_t hash(std::uint64_t Code) {
    return std::size_t((Code * 0x9e3779b97f4a7c15ull) >> 40);
  }

  bool ask(std::uint64_t Code, const std::function<bool(std::uint64_t)> &Rule) {
    std::lock_guard<std::mutex> L(M);
    auto It = Overflow.find(Code);
    if (It != Overflow.end())
      return It->second;
    std::size_t H = hash(Code);
    for (std::size_t P = 0; P < MaxProbe; ++P) {
      Slot &S = Table[(H + P) & (Slots - 1)];
      std::uint64_t C = S.Code.load(std::memory_order_relaxed);
      if (C == Code) // another thread asked first
        return S.Drop.load(std::memory_order_relaxed);
      if (C == 0) {
        bool D = answer(Code, Rule);
        S.Drop.store(D, std::memory_order_relaxed);
        S.Code.store(Code, std::memory_order_release); // publishes Drop
        return D;
      }
    }
    bool D = answer(Code, Rule);
    try {
      Overflow.emplace(Code, D);
    } catch (...) { // out of memory: asked again next time
    }
    return D;
  }

  /// The rule's answer; a rule that fails (out of memory) keeps the event.
  static bool answer(std::uint64_t Code,
                     const std::function<bool(std::uint64_t)> &Rule) {
    try {
      return Rule(Code);
    } catch (...) {
      return false;
    }
  }

  Slot Table[Slots];
  std::mutex M;
  std::unordered_map<std::uint64_t, bool> Overflow;
};

struct State {
  filter::Rules R;
  /// Made with the first DropCode rule; never destroyed (callbacks may
  /// run after static destructors).
  CodeAnswers *Codes = nullptr;
};
State &state() {
  static State *S = new State();
  return *S;
}

/// The gap (filter.h, GapOpen): open from a pause until, after the start,
/// every gap task has completed. Pausing, starting and closing the gap take
/// GapMutex (rare); so does a thread's first gap count.
std::mutex GapMutex;
std::vector<filter::GapCount *> &gapCounts() {
  static auto *V = new std::vector<filter::GapCount *>(); // never destroyed
  return *V;
}

/// Engaged, and the recorder's gate with it, from the rules, Paused and
/// the gap.
void update() {
  bool E = filter::PausedFlag.load(std::memory_order_relaxed) ||
           filter::GapOpen.load(std::memory_order_relaxed) ||
           !state().R.empty();
  // Closing the gate first, opening it last: no fast path runs while
  // Engaged says admit() must be asked.
  if (E)
    recorder::closeGate(recorder::GateFiltering);
  filter::Engaged.store(E, std::memory_order_release);
  if (!E)
    recorder::openGate(recorder::GateFiltering);
}

} // namespace

const char *eventGroupName(EventGroup G) {
  return unsigned(G) < std::size(GroupNames) ? GroupNames[unsigned(G)] : "?";
}

std::string groupSetText(GroupSet S) {
  std::string T;
  for (unsigned G = 0; G < unsigned(EventGroup::Count); ++G)
    if (S & groupBit(EventGroup(G)))
      T += (T.empty() ? "" : ", ") + std::string(GroupNames[G]);
  return T;
}

EventGroup eventGroupOf(EventKind K) {
  return std::size_t(K) < EventKindCount ? KindGroups[std::size_t(K)]
                                         : EventGroup::Mpi;
}

namespace filter {

constinit std::atomic<bool> Engaged{false};
constinit std::atomic<bool> PausedFlag{false};
constinit std::atomic<bool> GapOpen{false};

bool Rules::empty() const {
  return !Groups && !DropCode &&
         std::all_of(Subs.begin(), Subs.end(),
                     [](std::uint32_t M) { return M == 0; });
}

void install(Rules R) {
  State &S = state();
  // Answers kept for earlier rules do not hold for these.
  CodeAnswers *Old = S.Codes;
  S.Codes = R.DropCode ? new CodeAnswers() : nullptr;
  delete Old; // no thread records while rules are installed
  S.R = std::move(R);
  update();
}

const Rules &rules() { return state().R; }

thread_local constinit GapCount *MyGapCount = nullptr;

GapCount *registerGapCount() {
  auto *G = new GapCount(); // never freed: a start may sum it after exit
  std::lock_guard<std::mutex> L(GapMutex);
  gapCounts().push_back(G);
  MyGapCount = G;
  return G;
}

void gapChildCreatedFirst() {
  registerGapCount();
  gapChildCreated();
}

void gapTaskDoneFirst() {
  registerGapCount();
  gapTaskDone();
}

namespace {
/// Closes the gap when recording is on and no gap task is left. Completions
/// first, then creations: a completion seen has its creation seen too (the
/// release of Done), so the sums can only err towards "some left".
void closeGapLocked() {
  if (!GapOpen.load(std::memory_order_relaxed) ||
      PausedFlag.load(std::memory_order_seq_cst))
    return;
  std::uint64_t Done = 0, Created = 0;
  for (const GapCount *G : gapCounts())
    Done += G->Done.load(std::memory_order_acquire);
  for (const GapCount *G : gapCounts())
    Created += G->Created.load(std::memory_order_seq_cst);
  if (Created != Done)
    return;
  GapOpen.store(false, std::memory_order_relaxed);
  update();
}
} // namespace

void closeGap() {
  std::lock_guard<std::mutex> L(GapMutex);
  closeGapLocked();
}

void setPaused(bool P) {
  std::lock_guard<std::mutex> L(GapMutex);
  if (P) {
    GapOpen.store(true, std::memory_order_relaxed);
    recorder::closeGate(recorder::GatePaused);
  }
  PausedFlag.store(P, std::memory_order_seq_cst);
  if (!P) {
    recorder::openGate(recorder::GatePaused);
    closeGapLocked();
  }
  update();
}

bool paused() { return filter::PausedFlag.load(std::memory_order_relaxed); }

bool admit(EventKind K, std::uint16_t Sub, std::uint64_t Code) {
  EventGroup G = eventGroupOf(K);
  if (filter::PausedFlag.load(std::memory_order_relaxed) &&
      G != EventGroup::Threads)
    return false;
  const State &S = state();
  if (S.R.Groups & groupBit(G))
    return false;
  if (std::size_t(K) < EventKindCount &&
      (S.R.Subs[std::size_t(K)] >> std::min<unsigned>(Sub, 31)) & 1)
    return false;
  if (Code && S.Codes && S.R.DropCode && codeIsAddress(K))
    return !S.Codes->drop(Code, S.R.DropCode);
  return true;
}

std::function<bool(std::uint64_t)>
dropRegions(std::function<SourceLabel(std::uint64_t)> Resolve,
            std::vector<std::uint64_t> RegionIds) {
  auto Ids = std::make_shared<std::unordered_set<std::uint64_t>>(
      RegionIds.begin(), RegionIds.end());
  return [Resolve = std::move(Resolve), Ids](std::uint64_t Code) {
    std::uint64_t Id = Resolve(Code).RegionId;
    return Id != 0 && Ids->count(Id) != 0;
  };
}

} // namespace filter
} // namespace otter
