//===- core/filter_file.cpp - Filter files into the filter stage ----------===//
//
// Construct kinds (otter/filter_rules.h) to the event kinds and sub-kinds
// that record them, and file/function rules to a code-address rule over
// the site index's labels.
//
// Tasks and parallel regions are not dropped here event by event: refusing
// a task's creation (or a region's begin) makes the adapter refuse every
// event inside it, as the graph has no node to hang them on
// (ompt/tool.cpp, TaskFiltered).
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

void dropKind(Rules &R, ConstructKind C) {
  switch (C) {
  case ConstructKind::Parallel:
    drop(R, EventKind::ParallelBegin, All); // and its extent (tool.cpp)
    drop(R, EventKind::ParallelEnd, All);
    break;
  case ConstructKind::Task:
    drop(R, EventKind::TaskCreate, All); // and its extent (tool.cpp)
    break;
  case ConstructKind::Taskwait:
    dropSync(R, bit(SyncKind::Taskwait));
    break;
  case ConstructKind::Taskgroup:
    dropSync(R, bit(SyncKind::Taskgroup));
    break;
  case ConstructKind::Barrier:
    dropSync(R, bit(SyncKind::Barrier) | bit(SyncKind::BarrierExplicit));
    break;
  case ConstructKind::BarrierImplicit:
    dropSync(R, bit(SyncKind::BarrierImplicit) |
                    bit(SyncKind::BarrierImplementation) |
                    bit(SyncKind::BarrierImplicitWorkshare) |
                    bit(SyncKind::BarrierImplicitParallel) |
                    bit(SyncKind::BarrierTeams));
    break;
  case ConstructKind::Reduction:
    dropSync(R, bit(SyncKind::Reduction));
    break;
  case ConstructKind::Loop:
    dropWork(R,
             bit(WorkKind::Loop) | bit(WorkKind::LoopStatic) |
                 bit(WorkKind::LoopDynamic) | bit(WorkKind::LoopGuided) |
                 bit(WorkKind::LoopOther),
             bit(DispatchKind::Iteration) | bit(DispatchKind::WsLoopChunk));
    break;
  case ConstructKind::Sections:
    dropWork(R, bit(WorkKind::Sections), bit(DispatchKind::Section));
    break;
  case ConstructKind::Single:
    dropWork(R, bit(WorkKind::SingleExecutor) | bit(WorkKind::SingleOther));
    break;
  case ConstructKind::Workshare:
    dropWork(R, bit(WorkKind::Workshare));
    break;
  case ConstructKind::Distribute:
    dropWork(R, bit(WorkKind::Distribute), bit(DispatchKind::DistributeChunk));
    break;
  case ConstructKind::Taskloop:
    dropWork(R, bit(WorkKind::Taskloop), bit(DispatchKind::TaskloopChunk));
    break;
  case ConstructKind::Scope:
    dropWork(R, bit(WorkKind::Scope));
    break;
  case ConstructKind::Masked:
    drop(R, EventKind::MaskedBegin, All);
    drop(R, EventKind::MaskedEnd, All);
    break;
  case ConstructKind::Critical:
    dropMutex(R, bit(MutexKind::Critical));
    break;
  case ConstructKind::Atomic:
    dropMutex(R, bit(MutexKind::Atomic));
    break;
  case ConstructKind::Ordered:
    dropMutex(R, bit(MutexKind::Ordered));
    break;
  case ConstructKind::Lock:
    dropMutex(R, bit(MutexKind::Lock) | bit(MutexKind::TestLock));
    break;
  case ConstructKind::NestLock:
    dropMutex(R, bit(MutexKind::NestLock) | bit(MutexKind::TestNestLock));
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
  case ConstructKind::Count:
    break;
  }
}

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
