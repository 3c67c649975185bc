//===- otter/advice.cpp - Advice replayed with the change applied --------===//
//
// advise(): finds the problems that have a remedy in the replayable
// program, applies each remedy to a copy (advice_draft.cpp), replays it on
// the traced number of cores and keeps what gains (advice.h lists the
// kinds and when each is given); attachAdvice(): puts each advice on the
// finding of `otter diagnose` it answers.
//
//===----------------------------------------------------------------------===//
#include "advice.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace otter::advice {

using analysis::Advice;
using analysis::Finding;
using analysis::fmtNs;
using analysis::Kind;
using sim::argOf;
using sim::NoTask;
using sim::preOf;
using sim::Step;
using sim::stepOf;

namespace {

std::string fmtGain(double G) {
  char B[32];
  std::snprintf(B, sizeof B, "%.1f%%", 100 * G);
  return B;
}

/// The most frequent key of a count map (ties: the smallest key).
template <class K> K mostCommon(const std::map<K, std::uint64_t> &M) {
  K Best{};
  std::uint64_t N = 0;
  for (const auto &[Key, C] : M)
    if (C > N) {
      Best = Key;
      N = C;
    }
  return Best;
}

struct Advisor {
  const sim::Program &G;
  const analysis::Result &R;
  const sim::Options &O;
  const analysis::LabelFn &Label;
  unsigned Cores;
  Draft D0;
  std::uint64_t Before = 0;
  std::vector<Advice> Out;

  std::uint64_t replay(const Draft &D) const {
    sim::Program P = build(D);
    return sim::simulate(P, Cores, O).MakespanNs;
  }
  Advice make(const char *Kind, const char *Check, analysis::Kind K,
              std::uint32_t Site, std::uint64_t After) const {
    Advice A;
    A.Kind = Kind;
    A.Check = Check;
    A.K = K;
    std::uint64_t Code = Site < G.Sites.size() ? G.Sites[Site] : 0;
    SourceLabel L = Code ? Label(Code) : SourceLabel{};
    A.Where = Code ? analysis::sourceText(L) : "?";
    A.RegionId = L.RegionId;
    A.Cores = Cores;
    A.BeforeNs = Before;
    A.AfterNs = After;
    return A;
  }

  void cutoffs();
  void fusion();
  void dependences();
  void taskwaits();
};

void Advisor::cutoffs() {
  std::vector<std::uint32_t> Site, Creator;
  taskSites(D0, Site, Creator);
  std::map<std::uint32_t, std::uint64_t> Tasks;
  for (std::uint32_t S : Site)
    if (S)
      ++Tasks[S];
  for (const std::vector<std::uint32_t> &Family : recursiveFamilies(D0)) {
    unsigned Max = recursionDepth(D0, Family);
    if (Max < 2)
      continue;
    // Every depth above the deepest; the best replay wins (ties: the
    // deeper cut-off, more parallelism left).
    std::uint64_t Best = ~0ull, BestRemoved = 0, N = 0;
    unsigned BestDepth = 0, Worse = 0;
    for (unsigned Depth = 0; Depth < Max; ++Depth) {
      Draft D = D0;
      std::uint64_t Removed = cutOff(D, Family, Depth, R.CreateCostNs);
      if (!Removed)
        continue;
      std::uint64_t T = replay(D);
      if (T <= Best) {
        Best = T;
        BestDepth = Depth;
        BestRemoved = Removed;
        Worse = 0;
      } else if (++Worse >= 3) {
        break; // past the best: deeper cut-offs only add tasks back
      }
    }
    if (Best == ~0ull || double(Best) > double(Before) * (1 - MinAdviceGain))
      continue;
    // Named by its construct with the most tasks; the others listed.
    std::uint32_t Main = Family[0];
    for (std::uint32_t S : Family) {
      N += Tasks[S];
      if (Tasks[S] > Tasks[Main])
        Main = S;
    }
    Advice A = make("cutoff", "recursive_grain", Kind::Task, Main, Best);
    std::string Others;
    for (std::uint32_t S : Family)
      if (S != Main)
        Others += (Others.empty() ? " (with " : ", ") +
                  make("", "", Kind::Task, S, 0).Where;
    if (!Others.empty())
      Others += ")";
    std::string D = std::to_string(BestDepth);
    A.Change = "create tasks only down to recursion depth " + D +
               " at the task construct" + Others +
               " (the outermost tasks are depth 0): a task at depth " + D +
               " makes its recursive calls as plain calls (pass the depth "
               "down; a task construct only while the new task's depth <= " +
               D + ", or final(depth >= " + D + ") on it)";
    A.Transformation =
        "cut-off at depth " + D + ": each task at depth " + D +
        " becomes one task with its subtree's summed work, less the "
        "creation cost (" +
        fmtNs(R.CreateCostNs) + ") of each of the " +
        std::to_string(BestRemoved) + " tasks removed";
    A.Evidence = std::to_string(N) + " tasks, recursion " +
                 std::to_string(Max + 1) + " levels deep; cut-offs at depth 0 "
                 "to " + std::to_string(Max - 1) + " replayed";
    Out.push_back(std::move(A));
  }
}

void Advisor::fusion() {
  std::vector<RegionRun> Runs = regionRuns(D0);
  if (Runs.empty())
    return;
  std::uint64_t Regions = 0, Overhead = 0, Work = 0;
  std::map<std::uint32_t, std::uint64_t> Sites;
  for (const RegionRun &Run : Runs) {
    const Draft::Task &E = D0.Tasks[Run.Task];
    for (std::uint32_t I : Run.ForkSteps) {
      const Draft::Team &Tm = D0.Teams[argOf(E.Steps[I])];
      ++Regions;
      Overhead += Tm.ForkNs + Tm.JoinNs;
      for (std::uint32_t M : Tm.Members)
        for (std::uint64_t W : D0.Tasks[M].Steps)
          Work += preOf(W);
      if (I < E.Sites.size())
        ++Sites[E.Sites[I]];
    }
  }
  Draft D = D0;
  std::uint64_t Removed = fuseRegions(D, Runs);
  std::uint64_t After = replay(D);
  if (!Removed || double(After) > double(Before) * (1 - MinAdviceGain))
    return;
  std::uint32_t Site = mostCommon(Sites);
  Advice A = make("fuse_regions", "region_overhead", Kind::Parallel, Site,
                  After);
  std::string Others;
  if (Sites.size() > 1)
    Others = " (and the regions of " + std::to_string(Sites.size() - 1) +
             " other construct(s) forked with it)";
  A.Change = "fuse the consecutive parallel regions at " + A.Where + Others +
             ": open one parallel region around the code that forks them "
             "(e.g. around the enclosing loop) and make each region's body a "
             "worksharing construct in it";
  A.Transformation =
      "fused regions: " + std::to_string(Runs.size()) +
      " run(s) of consecutive regions (" + std::to_string(Regions) +
      " regions) become " + std::to_string(Runs.size()) +
      " region(s) with one fork and one join each; every thread runs its "
      "parts of the regions in turn (their barriers kept), the code between "
      "them replicated";
  A.Evidence = std::to_string(Regions) + " regions forked back to back: " +
               fmtNs(double(Overhead) / double(Regions)) +
               " fork+join per region for " +
               fmtNs(double(Work) / double(Regions)) + " of work";
  Out.push_back(std::move(A));
}

void Advisor::dependences() {
  std::vector<std::uint32_t> Site, Creator;
  taskSites(D0, Site, Creator);
  std::vector<Edge> Chain = chainEdges(D0, MinChainTasks);
  if (!Chain.empty()) {
    Draft D = D0;
    removeEdges(D, Chain);
    std::uint64_t After = replay(D);
    std::map<std::uint32_t, std::uint64_t> Sites;
    for (const Edge &E : Chain)
      ++Sites[Site[E.second]];
    if (After < Before) {
      Advice A = make("dependences", "serialising_dependences", Kind::Task,
                      mostCommon(Sites), After);
      A.Change =
          "the tasks created at " + A.Where +
          " each depend on the one created before (an inout or out on the "
          "same location): they run one at a time; if they do not need each "
          "other's result, declare in for what they only read, or "
          "mutexinoutset/inoutset for updates in any order";
      A.Transformation = "chain edges removed: the " +
                         std::to_string(Chain.size()) +
                         " edges that link each task to the previous one";
      A.Evidence = std::to_string(Chain.size()) +
                   " dependence edges form chains of at least " +
                   std::to_string(MinChainTasks) + " sibling tasks";
      Out.push_back(std::move(A));
    }
  }
  std::vector<Edge> Implied = redundantEdges(D0);
  if (!Implied.empty()) {
    Draft D = D0;
    removeEdges(D, Implied);
    std::uint64_t After = replay(D);
    std::map<std::uint32_t, std::uint64_t> Sites;
    for (const Edge &E : Implied)
      ++Sites[Site[E.second]];
    Advice A = make("dependences", "redundant_dependences", Kind::Task,
                    mostCommon(Sites), std::min(After, Before));
    A.Change = std::to_string(Implied.size()) +
               " dependences of the tasks created at " + A.Where +
               " are implied by others (a before b before c makes a before "
               "c redundant): drop the depend items that only repeat an "
               "order already there; the runtime tracks each one";
    A.Transformation = "redundant edges removed: the " +
                       std::to_string(Implied.size()) +
                       " edges implied by a path of others";
    A.Evidence = std::to_string(Implied.size()) +
                 " dependence edges implied transitively";
    Out.push_back(std::move(A));
  }
}

void Advisor::taskwaits() {
  // Taskwait instances per site, and those that may go.
  std::map<std::uint32_t, std::uint64_t> All;
  for (const Draft::Task &K : D0.Tasks)
    for (std::size_t I = 0; I < K.Steps.size() && I < K.Sites.size(); ++I)
      if (stepOf(K.Steps[I]) == Step::Taskwait)
        ++All[K.Sites[I]];
  auto bySite = [&](const std::vector<StepRef> &V) {
    std::map<std::uint32_t, std::vector<StepRef>> M;
    for (StepRef X : V) {
      const Draft::Task &K = D0.Tasks[X.first];
      M[X.second < K.Sites.size() ? K.Sites[X.second] : 0].push_back(X);
    }
    return M;
  };
  auto Idle = bySite(idleTaskwaits(D0));
  auto Trailing = bySite(trailingTaskwaits(D0, TrailingTaskwaitNs));
  for (const auto &[Site, All0] : All) {
    if (!Site)
      continue;
    bool IsIdle = Idle.count(Site) && Idle[Site].size() == All0;
    bool IsTrailing = !IsIdle && Trailing.count(Site) &&
                      Trailing[Site].size() == All0;
    if (!IsIdle && !IsTrailing)
      continue;
    Draft D = D0;
    removeTaskwaits(D, IsIdle ? Idle[Site] : Trailing[Site]);
    std::uint64_t After = replay(D);
    if (IsTrailing ? After >= Before : After > Before)
      continue;
    Advice A = make("taskwait", "needless_taskwait", Kind::Taskwait, Site,
                    After);
    std::string N = std::to_string(All0);
    if (IsIdle) {
      A.Change = "remove the taskwait at " + A.Where +
                 ": whenever it is reached, every child it could wait for "
                 "has completed (none was created since the previous one, "
                 "or they ran undeferred)";
      A.Evidence = "all " + N + " instances had no deferred child to wait for";
    } else {
      A.Change = "the taskwait at " + A.Where +
                 " is the last thing its task does: it only delays the "
                 "task's end; remove it (where the results are needed, wait "
                 "for the whole tree there with a taskgroup)";
      A.Evidence = "all " + N +
                   " instances are followed by the task's end (or a barrier) "
                   "within " +
                   fmtNs(double(TrailingTaskwaitNs));
    }
    A.Transformation = "taskwait removed: its " + N + " instances";
    Out.push_back(std::move(A));
  }
}

} // namespace

std::vector<Advice> advise(const sim::Program &G, const analysis::Result &R,
                           const sim::Options &O,
                           const analysis::LabelFn &Label, unsigned Cores) {
  if (G.StepSite.empty() || G.tasks() > AdviceTaskLimit || !G.tasks())
    return {};
  Advisor A{G, R, O, Label, std::max(1u, Cores), draftOf(G), 0, {}};
  A.Before = sim::simulate(G, A.Cores, O).MakespanNs;
  if (!A.Before)
    return {};
  A.cutoffs();
  A.fusion();
  A.dependences();
  A.taskwaits();
  if (O.ContentionNs > 0)
    for (Advice &X : A.Out)
      X.Transformation += "; every replay with the runtime's cost per task "
                          "dispatched calibrated to the run (" +
                          fmtNs(O.ContentionNs) + ", docs/utils.md)";
  return std::move(A.Out);
}

void attachAdvice(std::vector<Finding> &F, const std::vector<Advice> &A) {
  // The checks each kind of advice answers.
  auto answers = [](const Advice &X, const Finding &Y) {
    if (X.Where != Y.Where || !Y.Remedy.Kind.empty())
      return false;
    if (X.Kind == "cutoff")
      return Y.Check == "too_fine";
    if (X.Kind == "fuse_regions")
      return Y.Check == "low_parallel_benefit" || Y.Check == "sync_wait";
    if (X.Kind == "taskwait")
      return Y.Check == "sync_wait";
    return false;
  };
  for (const Advice &X : A) {
    auto It = std::find_if(F.begin(), F.end(),
                           [&](const Finding &Y) { return answers(X, Y); });
    if (It != F.end()) {
      It->Remedy = X;
      continue;
    }
    Finding Y;
    Y.Check = X.Check;
    Y.K = X.K;
    Y.Where = X.Where;
    Y.RegionId = X.RegionId;
    Y.LostNs = (X.BeforeNs - std::min(X.BeforeNs, X.AfterNs)) * X.Cores;
    Y.Threshold = X.Kind == "cutoff" || X.Kind == "fuse_regions"
                      ? "the change gains >= " + fmtGain(MinAdviceGain) +
                            " in the replay"
                      : "found in the program's structure";
    Y.Evidence = X.Evidence;
    Y.Remedy = X;
    F.push_back(std::move(Y));
  }
  std::stable_sort(F.begin(), F.end(), [](const Finding &X, const Finding &Y) {
    return X.LostNs > Y.LostNs;
  });
}

} // namespace otter::advice
