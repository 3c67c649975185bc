//===- core/filter_file.cpp - Filter files into the filter stage ----------===//
//
// Construct kinds (otter/filter_rules.h) to the event kinds and sub-kinds
// that record them, and file/function rules to a code-address rule over
// the site index's labels.
//
// Tasks and parallel regions are not dropped here event by event: refusing
// a task's creation (or a region's begin) makes the adapter refuse every
// event inside it, as the graph has no node to hang them on
// (ompt/adapter.h, TaskFiltered).
//
//===----------------------------------------------------------------------===//
#include "core/filter_file.h"

#include <memory>

namespace otter::filter {

namespace {

using filter_rules::ConstructKind;

constexpr std::uint32_t All = ~std::uint32_t(0);
constexpr std::uint32_t bit(auto Sub) {
  return std::uint32_t(1) << unsigned(Sub);
}

void drop(Rules &R, EventKind K, std::uint32_t Subs) {
  R.Subs[std::size_t(K)] |= Subs;
}
void dropSync(Rules &R, std::uint32_t Subs) {
  for (EventKind K : {EventKind::SyncBegin, EventKind::SyncEnd,
                      EventKind::SyncWaitBegin, EventKind::SyncWaitEnd})
    drop(R, K, Subs);
}
void dropWork(Rules &R, std::uint32_t Subs, std::uint32_t Dispatch = 0) {
  drop(R, EventKind::WorkBegin, Subs);
  drop(R, EventKind::WorkEnd, Subs);
  drop(R, EventKind::Dispatch, Dispatch);
}
void dropMutex(Rules &R, std::uint32_t Subs) {
  for (EventKind K : {EventKind::MutexAcquire, EventKind::MutexAcquired,
                      EventKind::MutexReleased})
    drop(R, K, Subs);
}

/// The sub-kinds of sync, worksharing and mutex events that kind C drops:
/// the sub-kind rows of otter/constructs.def whose Filter is C.
constexpr std::uint32_t syncSubs(ConstructKind C) {
  std::uint32_t Subs = 0;
#define OTTER_SYNC_KIND(Kind, Value, Ompt, Region, Construct, Filter)          \
  if (C == ConstructKind::Filter)                                              \
    Subs |= bit(SyncKind::Kind);
#include "otter/constructs.def"
  return Subs;
}
constexpr std::uint32_t workSubs(ConstructKind C) {
  std::uint32_t Subs = 0;
#define OTTER_WORK_KIND(Kind, Value, Ompt, Region, Construct, Filter)          \
  if (C == ConstructKind::Filter)                                              \
    Subs |= bit(WorkKind::Kind);
#include "otter/constructs.def"
  return Subs;
}
constexpr std::uint32_t mutexSubs(ConstructKind C) {
  std::uint32_t Subs = 0;
#define OTTER_MUTEX_KIND(Kind, Value, Ompt, Region, Construct, Filter)         \
  if (C == ConstructKind::Filter)                                              \
    Subs |= bit(MutexKind::Kind);
#include "otter/constructs.def"
  return Subs;
}

/// The dispatches (chunks, sections, iterations) of a worksharing kind.
constexpr std::uint32_t dispatchSubs(ConstructKind C) {
  switch (C) {
  case ConstructKind::Loop:
    return bit(DispatchKind::Iteration) | bit(DispatchKind::WsLoopChunk);
  case ConstructKind::Sections:
    return bit(DispatchKind::Section);
  case ConstructKind::Distribute:
    return bit(DispatchKind::DistributeChunk);
  case ConstructKind::Taskloop:
    return bit(DispatchKind::TaskloopChunk);
  default:
    return 0;
  }
}

void dropKind(Rules &R, ConstructKind C) {
  if (std::uint32_t Subs = syncSubs(C))
    dropSync(R, Subs);
  if (std::uint32_t Subs = workSubs(C))
    dropWork(R, Subs, dispatchSubs(C));
  if (std::uint32_t Subs = mutexSubs(C))
    dropMutex(R, Subs);
  // The kinds with events of their own.
  switch (C) {
  case ConstructKind::Parallel:
    drop(R, EventKind::ParallelBegin, All); // and its extent (tool.cpp)
    drop(R, EventKind::ParallelEnd, All);
    break;
  case ConstructKind::Task:
    drop(R, EventKind::TaskCreate, All); // and its extent (tool.cpp)
    break;
  case ConstructKind::Masked:
    drop(R, EventKind::MaskedBegin, All);
    drop(R, EventKind::MaskedEnd, All);
    break;
  case ConstructKind::NestLock:
    drop(R, EventKind::NestLockBegin, All);
    drop(R, EventKind::NestLockEnd, All);
    break;
  case ConstructKind::Cancel:
    drop(R, EventKind::Cancel, All);
    break;
  case ConstructKind::Flush:
    drop(R, EventKind::Flush, All);
    break;
  case ConstructKind::Mpi:
    R.Groups |= groupBit(EventGroup::Mpi);
    break;
  default:
    break;
  }
}

// Spot checks of the table's filter column against the kinds' meaning.
static_assert(syncSubs(ConstructKind::Barrier) ==
              (bit(SyncKind::Barrier) | bit(SyncKind::BarrierExplicit)));
static_assert(workSubs(ConstructKind::Loop) ==
              (bit(WorkKind::Loop) | bit(WorkKind::LoopStatic) |
               bit(WorkKind::LoopDynamic) | bit(WorkKind::LoopGuided) |
               bit(WorkKind::LoopOther)));
static_assert(mutexSubs(ConstructKind::Lock) ==
              (bit(MutexKind::Lock) | bit(MutexKind::TestLock)));

} // namespace

void addKindRules(const filter_rules::RuleSet &Set, Rules &R) {
  for (std::size_t K = 0; K < std::size_t(ConstructKind::Count); ++K)
    if (Set.kindExcluded(ConstructKind(K)))
      dropKind(R, ConstructKind(K));
}

std::function<bool(std::uint64_t)>
codeRule(const filter_rules::RuleSet &Set, bool UseSet,
         std::function<SourceLabel(std::uint64_t)> Resolve,
         std::function<bool(std::uint64_t)> FilteredSite,
         bool AnyFilteredSite) {
  bool Files = UseSet && (Set.has(filter_rules::Field::File) ||
                          Set.has(filter_rules::Field::Function));
  if (!Files && !AnyFilteredSite)
    return nullptr;
  auto Rules = std::make_shared<filter_rules::RuleSet>(Set);
  return [Rules, Files, AnyFilteredSite, Resolve = std::move(Resolve),
          FilteredSite = std::move(FilteredSite)](std::uint64_t Code) {
    if (AnyFilteredSite && FilteredSite(Code))
      return true;
    if (!Files)
      return false;
    SourceLabel L = Resolve(Code);
    if (L.Quality != LabelQuality::Exact && L.Quality != LabelQuality::Fallback)
      return false; // no directive: nothing to match
    return Rules->excludes(L.File, L.Function);
  };
}

bool compileKindRules(const std::string &Text, filter_rules::RuleSet &Out) {
  // "PATH: RULE; RULE": the rules start after the first ": " that a rule
  // follows (a path may hold ": " too); a glob holds no space, so "; "
  // separates rules.
  std::size_t At = 0;
  for (;; At += 2) {
    At = Text.find(": ", At);
    if (At == std::string::npos)
      return false;
    if (Text.compare(At + 2, 8, "exclude ") == 0 ||
        Text.compare(At + 2, 8, "include ") == 0)
      break;
  }
  std::string Lines;
  for (std::size_t I = At + 2; I < Text.size(); ++I) {
    if (Text.compare(I, 2, "; ") == 0) {
      Lines += '\n';
      ++I;
    } else {
      Lines += Text[I];
    }
  }
  filter_rules::RuleSet All;
  std::string Error;
  if (!filter_rules::parse(Lines, Text.substr(0, At), All, Error))
    return false;
  Out = filter_rules::RuleSet();
  Out.Source = All.Source;
  for (const filter_rules::Rule &R : All.Rules)
    if (R.What == filter_rules::Field::Kind)
      Out.Rules.push_back(R);
  return !Out.empty();
}

RunFilter readRunFilter(const std::string &FilterFile,
                        const std::vector<std::string> &CompileTexts,
                        std::size_t FilteredSites, bool PluginLabels,
                        std::function<SourceLabel(std::uint64_t)> Resolve,
                        std::function<bool(std::uint64_t)> FilteredSite) {
  RunFilter F;
  filter_rules::RuleSet Set;
  bool UseSet = false;
  if (!FilterFile.empty()) {
    std::string Error;
    if (!filter_rules::parseFile(FilterFile, Set, Error)) {
      F.Warnings.push_back(Error + "; the filter is ignored (tracing "
                                   "everything)");
      Set = filter_rules::RuleSet();
    } else {
      UseSet = true;
      if (!PluginLabels && (Set.has(filter_rules::Field::File) ||
                            Set.has(filter_rules::Field::Function)))
        F.Warnings.push_back(
            FilterFile +
            ": file and function rules need the plugin's labels, and no "
            "loaded object was built with it (-fplugin=otter.so); only kind "
            "rules apply");
    }
  }
  if (UseSet)
    addKindRules(Set, F.R);
  // A compile-time kind rule drops the kind's events as the same rule at
  // run time does: libomp reports some of a construct's events from another
  // construct's call site (the barrier inside a reduction's __kmpc_reduce,
  // the end-of-region barrier at the parallel's fork call) or with no
  // address at all (the other threads' end-of-region barriers, a
  // critical's release), which no filtered call site can drop.
  for (const std::string &T : CompileTexts)
    if (filter_rules::RuleSet Kinds; compileKindRules(T, Kinds))
      addKindRules(Kinds, F.R);
  F.R.DropCode = codeRule(Set, UseSet && PluginLabels, std::move(Resolve),
                          std::move(FilteredSite), FilteredSites > 0);
  if (UseSet)
    F.Text = "run time " + FilterFile + ": " +
             (Set.empty() ? std::string("no rules") : Set.text());
  for (const std::string &T : CompileTexts)
    F.Text += (F.Text.empty() ? "" : " | ") + std::string("compile time ") + T;
  return F;
}

} // namespace otter::filter
