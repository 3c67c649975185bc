//===- otter/phase.cpp - An analysis restricted to one phase -------------===//
//
// The stream transform of phase.h; what is inside is defined there and in
// docs/utils.md ("One phase").
//
//===----------------------------------------------------------------------===//
#include "phase.h"

namespace otter::analysis {

bool PhaseRestriction::inside(TaskId T) const {
  auto It = Tasks.find(T);
  return It != Tasks.end() && (It->second.Open || It->second.Inherited);
}

void PhaseRestriction::add(const Event *In, std::size_t N,
                           std::vector<Event> &Out) {
  for (std::size_t I = 0; I < N; ++I)
    one(In[I], Out);
}

/// A root's real end (its implicit task's end, or its completion): the
/// analysis ends the task it began at the root's first occurrence.
void PhaseRestriction::endRoot(const Event &E, TaskId T,
                               std::vector<Event> &Out) {
  Out.push_back(Event::implicitTaskEnd(E.Time, T));
}

void PhaseRestriction::one(const Event &E, std::vector<Event> &Out) {
  switch (E.Kind) {
  case EventKind::PhaseBegin: {
    Seen.insert(E.name());
    if (E.name() != Name) {
      if (inside(E.task()))
        Out.push_back(E);
      return;
    }
    TaskSt &S = Tasks[E.task()];
    if (!S.Open && !S.Inherited) {
      ++Occurrences;
      if (!S.Root) {
        // A root: a task of its own (an initial task) for the analysis.
        S.Root = true;
        Out.push_back(
            Event::implicitTaskBegin(E.Time, E.task(), 0, 1, 0, TaskInitial));
      } else {
        // Its next occurrence: resumed where its last one ended.
        Out.push_back(
            Event::taskSchedule(E.Time, 0, ScheduleStatus::Switch, E.task()));
      }
    }
    ++S.Open;
    Out.push_back(E);
    return;
  }
  case EventKind::PhaseEnd: {
    auto It = Tasks.find(E.task());
    if (It == Tasks.end())
      return;
    TaskSt &S = It->second;
    if (S.Open || S.Inherited)
      Out.push_back(E);
    if (E.name() != Name || !S.Open)
      return;
    if (--S.Open == 0 && !S.Inherited && S.Root)
      // Outside again: suspended (its time until the next begin is not
      // the phase's).
      Out.push_back(
          Event::taskSchedule(E.Time, E.task(), ScheduleStatus::Switch, 0));
    return;
  }
  case EventKind::TaskCreate:
    if (!inside(E.creator()))
      return;
    Tasks[E.child()].Inherited = true;
    Out.push_back(E);
    return;
  case EventKind::ParallelBegin:
    if (!inside(E.task()))
      return;
    Regions.insert(E.parallel());
    Out.push_back(E);
    return;
  case EventKind::ParallelEnd:
    if (!inside(E.task()))
      return;
    Regions.erase(E.parallel());
    Out.push_back(E);
    return;
  case EventKind::ImplicitTaskBegin:
    if (!E.parallel() || !Regions.count(E.parallel()))
      return;
    Tasks[E.task()].Inherited = true;
    Out.push_back(E);
    return;
  case EventKind::ImplicitTaskEnd: {
    auto It = Tasks.find(E.task());
    if (It == Tasks.end())
      return;
    if (It->second.Root || It->second.Open || It->second.Inherited)
      Out.push_back(E); // a root's real end ends it, open or suspended
    Tasks.erase(It);
    return;
  }
  case EventKind::TaskSchedule: {
    TaskId Prior = E.prior(), Next = E.next();
    auto It = Tasks.find(Prior);
    bool Done = E.status() == ScheduleStatus::Complete ||
                E.status() == ScheduleStatus::Cancel;
    bool PriorRoot = It != Tasks.end() && It->second.Root;
    bool PriorIn = inside(Prior), NextIn = inside(Next);
    if (Done && PriorRoot) {
      // A root (an explicit task) completes: the analysis ends the task
      // it began for it; the switch goes on from no task.
      endRoot(E, Prior, Out);
      PriorIn = false;
    }
    if (PriorIn && NextIn)
      Out.push_back(E);
    else if (PriorIn || NextIn)
      Out.push_back(Event::taskSchedule(E.Time, PriorIn ? Prior : 0, E.status(),
                                        NextIn ? Next : 0));
    if (Done && It != Tasks.end())
      Tasks.erase(It);
    return;
  }
  default:
    // Everything else belongs to the task it names (its Task field).
    if (E.Task && inside(E.Task))
      Out.push_back(E);
    return;
  }
}

std::uint32_t phaseNameId(const std::string &Phase,
                          const std::vector<std::string> &Names) {
  for (std::size_t I = 1; I < Names.size(); ++I)
    if (Names[I] == Phase)
      return std::uint32_t(I);
  return ~0u;
}

std::string unknownPhaseError(const std::string &Phase,
                              const std::set<std::uint32_t> &Seen,
                              const std::vector<std::string> &Names) {
  std::set<std::string> Listed; // sorted, each once
  for (std::uint32_t N : Seen)
    Listed.insert(N < Names.size() ? Names[N] : "#" + std::to_string(N));
  std::string S = "no phase '" + Phase + "' in the trace; ";
  if (Listed.empty())
    return S + "it has no phases (otter_phase_begin, otter/otter.h)";
  S += "its phases: ";
  bool First = true;
  for (const std::string &L : Listed) {
    S += (First ? "" : ", ") + L;
    First = false;
  }
  return S;
}

} // namespace otter::analysis
