//===- otter/report.cpp - Reports of the `otter` command -----------------===//
//
// summary, parallelism and diagnose as text and JSON (docs/utils.md has the
// definitions and the thresholds). Every sort starts from a deterministic
// order (the analysis', or a map's), so one trace gives the same report
// every time, ties included.
//
//===----------------------------------------------------------------------===//
#include "report.h"
#include "path_condense.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

namespace otter::analysis {

std::string jsonString(const std::string &S) {
  std::string O = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"':
      O += "\\\"";
      break;
    case '\\':
      O += "\\\\";
      break;
    case '\n':
      O += "\\n";
      break;
    case '\t':
      O += "\\t";
      break;
    default:
      if (C < 0x20) {
        char B[8];
        std::snprintf(B, sizeof B, "\\u%04x", C);
        O += B;
      } else
        O += char(C);
    }
  }
  return O + "\"";
}

std::string fmtNs(double Ns) {
  char B[32];
  if (Ns >= 1e9)
    std::snprintf(B, sizeof B, "%.3f s", Ns / 1e9);
  else if (Ns >= 1e6)
    std::snprintf(B, sizeof B, "%.3f ms", Ns / 1e6);
  else if (Ns >= 1e3)
    std::snprintf(B, sizeof B, "%.2f us", Ns / 1e3);
  else
    std::snprintf(B, sizeof B, "%.0f ns", Ns);
  return B;
}

static std::string fmt(const char *F, double X) {
  char B[64];
  std::snprintf(B, sizeof B, F, X);
  return B;
}

std::string sourceText(const SourceLabel &L) {
  if (L.Line && !L.File.empty())
    return approximateMark(L) + L.File + ":" + std::to_string(L.Line);
  if (!L.Location.empty())
    return "~" + L.Location;
  return "?";
}
std::string Construct::where() const {
  if (S.K == Kind::Initial && codeAddress(S.Code) == 0)
    return "(program)";
  return S.Device ? sourceText(L) + " (device)" : sourceText(L);
}

namespace {
/// Merges S, another code address of D's source construct, into D.
void mergeInto(ConstructStats &D, const ConstructStats &S) {
  D.Instances += S.Instances;
  D.TotalNs += S.TotalNs;
  D.Device = D.Device && S.Device;
  D.MaxNs = std::max(D.MaxNs, S.MaxNs);
  D.WaitNs += S.WaitNs;
  D.Contended += S.Contended;
  D.RegionWorkNs += S.RegionWorkNs;
  D.RegionSpanNs += S.RegionSpanNs;
  D.RegionWallNs += S.RegionWallNs;
  D.RegionThreadNs += S.RegionThreadNs;
  D.RegionBusyNs += S.RegionBusyNs;
  D.RegionForkNs += S.RegionForkNs;
  D.RegionJoinNs += S.RegionJoinNs;
  D.RegionBSpanNs += S.RegionBSpanNs;
  D.RegionBTasks += S.RegionBTasks;
  D.TeamImbInstances += S.TeamImbInstances;
  D.TeamImbLostNs += S.TeamImbLostNs;
  D.TeamImbWorstRatio = std::max(D.TeamImbWorstRatio, S.TeamImbWorstRatio);
  D.SibGroups += S.SibGroups;
  D.SibLostNs += S.SibLostNs;
  D.SibWorstRatio = std::max(D.SibWorstRatio, S.SibWorstRatio);
  for (const auto &[Name, N] : S.TaskLabels)
    D.TaskLabels[Name] += N;
  if (!S.Hist.empty()) {
    if (D.Hist.empty())
      D.Hist.assign(HistBuckets, 0);
    for (unsigned I = 0; I < HistBuckets && I < S.Hist.size(); ++I)
      D.Hist[I] += S.Hist[I];
  }
}
} // namespace

GroupedConstructs::GroupedConstructs(const Result &R, LabelFn L)
    : Label(std::move(L)), Groups(std::size_t(Kind::Count), 0) {
  // One source construct has several code addresses (each runtime call
  // site of a directive, each MPI rank's): grouped by SourceConstructs.
  for (const ConstructStats &S : R.Constructs) {
    SourceLabel SL = S.Code ? Label(S.Code) : SourceLabel{};
    std::uint32_t G =
        Groups.add(unsigned(S.K), Ids.identity(SL, codeAddress(S.Code)));
    if (G == Nodes.size()) {
      Nodes.push_back({S, SL});
      continue;
    }
    mergeInto(Nodes[G].S, S);
  }
  std::vector<std::size_t> Order(Nodes.size());
  for (std::size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(),
                   [&](std::size_t A, std::size_t B) {
                     return Nodes[A].S.TotalNs > Nodes[B].S.TotalNs;
                   });
  std::vector<Construct> Sorted;
  Sorted.reserve(Nodes.size());
  NodeOfGroup.resize(Nodes.size());
  for (std::size_t I = 0; I < Order.size(); ++I) {
    NodeOfGroup[Order[I]] = I;
    Sorted.push_back(std::move(Nodes[Order[I]]));
  }
  Nodes = std::move(Sorted);
}

std::size_t GroupedConstructs::find(Kind K, std::uint64_t Code) const {
  SourceLabel SL = Code ? Label(Code) : SourceLabel{};
  std::uint64_t Id = Ids.find(SL, codeAddress(Code));
  std::uint32_t G = Id == ~std::uint64_t(0) ? ConstructGroups::None
                                            : Groups.find(unsigned(K), Id);
  return G == ConstructGroups::None ? std::string::npos : NodeOfGroup[G];
}

std::vector<Construct> groupConstructs(const Result &R, const LabelFn &Label) {
  return GroupedConstructs(R, Label).Nodes;
}

static const char *kindLabel(Kind K) { return kindName(K); }

std::string nameText(const std::vector<std::string> &Names, std::uint32_t N) {
  return N < Names.size() ? Names[N] : "#" + std::to_string(N);
}

/// Task labels by count, then name (name ids follow the run's timing).
std::vector<LabelStats> sortedLabels(std::vector<LabelStats> L,
                                     const std::vector<std::string> &Names) {
  std::sort(L.begin(), L.end(), [&](const LabelStats &A, const LabelStats &B) {
    if (A.Tasks != B.Tasks)
      return A.Tasks > B.Tasks;
    return nameText(Names, A.Name) < nameText(Names, B.Name);
  });
  return L;
}

namespace {
/// The program's phases and task labels (otter/otter.h): text.
void printAnnotations(const Result &R, const std::vector<std::string> &Names,
                      std::ostream &OS, bool Always) {
  double Run = double(R.runNs());
  char B[512];
  if (!R.Phases.empty() || Always) {
    std::snprintf(B, sizeof B, "%-28s %10s %12s %12s %12s %7s\n", "phase",
                  "instances", "total", "mean", "max", "share");
    OS << B;
    for (const PhaseStats &P : R.Phases) {
      std::snprintf(
          B, sizeof B, "%-28s %10" PRIu64 " %12s %12s %12s %6.1f%%\n",
          nameText(Names, P.Name).c_str(), P.Instances,
          fmtNs(double(P.TotalNs)).c_str(),
          fmtNs(P.Instances ? double(P.TotalNs) / P.Instances : 0).c_str(),
          fmtNs(double(P.MaxNs)).c_str(),
          Run > 0 ? 100.0 * P.TotalNs / Run : 0.0);
      OS << B;
    }
  }
  if (!R.TaskLabels.empty()) {
    OS << "task labels ";
    for (const LabelStats &L : sortedLabels(R.TaskLabels, Names))
      OS << " \"" << nameText(Names, L.Name) << "\"=" << L.Tasks;
    OS << "\n";
  }
  if (R.Marks)
    OS << "marks        " << R.Marks << "\n";
}

/// The same as JSON members (after others: a leading comma).
void printAnnotationsJson(const Result &R,
                          const std::vector<std::string> &Names,
                          std::ostream &OS) {
  double Run = double(R.runNs());
  OS << ",\"phases\":[";
  for (std::size_t I = 0; I < R.Phases.size(); ++I) {
    const PhaseStats &P = R.Phases[I];
    OS << (I ? "," : "") << "{\"name\":" << jsonString(nameText(Names, P.Name))
       << ",\"instances\":" << P.Instances << ",\"total_ns\":" << P.TotalNs
       << ",\"max_ns\":" << P.MaxNs
       << ",\"share\":" << fmt("%.6f", Run > 0 ? P.TotalNs / Run : 0) << "}";
  }
  OS << "],\"task_labels\":[";
  std::vector<LabelStats> Labels = sortedLabels(R.TaskLabels, Names);
  for (std::size_t I = 0; I < Labels.size(); ++I)
    OS << (I ? "," : "")
       << "{\"name\":" << jsonString(nameText(Names, Labels[I].Name))
       << ",\"tasks\":" << Labels[I].Tasks << "}";
  OS << "],\"marks\":" << R.Marks;
}
} // namespace

void printSummary(const Result &R, const LabelFn &Label, bool Json,
                  std::ostream &OS, std::size_t Top,
                  const std::vector<std::string> &Names, bool ByPhase) {
  if (ByPhase) {
    if (Json) {
      OS << "{\"run_ns\":" << R.runNs();
      printAnnotationsJson(R, Names, OS);
      OS << "}\n";
    } else {
      OS << "run time     " << fmtNs(double(R.runNs())) << "\n\n";
      printAnnotations(R, Names, OS, true);
    }
    return;
  }
  std::vector<Construct> Cs = groupConstructs(R, Label);
  std::uint64_t Counts[std::size_t(Kind::Count)] = {};
  for (const Construct &C : Cs)
    Counts[std::size_t(C.S.K)] += C.S.Instances;
  double Run = double(R.runNs());
  double ThreadNs = double(threadTimeNs(R));
  if (Json) {
    OS << "{\"run_ns\":" << R.runNs() << ",\"thread_ns\":" << threadTimeNs(R);
    toolTimeJson(R, OS);
    idleThreadsJson(R, Label, OS);
    OS << ",\"threads\":" << R.Threads
       << ",\"events\":" << R.Events << ",\"explicit_tasks\":"
       << R.ExplicitTasks << ",\"parallel_regions\":" << R.ParallelRegions
       << ",\"counts\":{";
    bool First = true;
    for (std::size_t K = 0; K < std::size_t(Kind::Count); ++K) {
      if (!Counts[K])
        continue;
      OS << (First ? "" : ",") << jsonString(kindName(Kind(K))) << ":"
         << Counts[K];
      First = false;
    }
    OS << "},\"constructs\":[";
    First = true;
    for (const Construct &C : Cs) {
      OS << (First ? "" : ",") << "{\"region_id\":" << C.L.RegionId
         << ",\"kind\":" << jsonString(kindLabel(C.S.K))
         << ",\"file\":" << jsonString(C.L.File) << ",\"line\":" << C.L.Line
         << ",\"where\":" << jsonString(C.where())
         << ",\"instances\":" << C.S.Instances
         << ",\"total_ns\":" << C.S.TotalNs << ",\"mean_ns\":"
         << (C.S.Instances ? C.S.TotalNs / C.S.Instances : 0)
         << ",\"max_ns\":" << C.S.MaxNs << ",\"wait_ns\":" << C.S.WaitNs
         << ",\"inclusive_ns\":" << C.S.TotalNs
         << ",\"exclusive_ns\":" << exclusiveNs(C.S) << ",\"share\":"
         << fmt("%.6f", ThreadNs > 0 ? exclusiveNs(C.S) / ThreadNs : 0)
         << (C.S.Device ? ",\"device\":true" : "") << "}";
      First = false;
    }
    OS << "]";
    offloadJson(R, Label, OS);
    printAnnotationsJson(R, Names, OS);
    OS << ",\"warnings\":[";
    for (std::size_t I = 0; I < R.Warnings.size(); ++I)
      OS << (I ? "," : "") << jsonString(R.Warnings[I]);
    OS << "]}\n";
    return;
  }
  OS << "run time     " << fmtNs(Run) << "\n";
  OS << "threads      " << R.Threads << "\n";
  OS << "events       " << R.Events << "\n";
  OS << "constructs  ";
  for (std::size_t K = 0; K < std::size_t(Kind::Count); ++K)
    if (Counts[K])
      OS << " " << kindName(Kind(K)) << "=" << Counts[K];
  OS << "\n\n";
  char B[512];
  std::snprintf(B, sizeof B,
                "%-18s %-16s %-28s %10s %12s %12s %12s %12s %7s\n",
                "region_id", "kind", "where", "instances", "inclusive",
                "exclusive", "mean", "max", "share");
  OS << B;
  std::size_t N = 0;
  for (const Construct &C : Cs) {
    if (Top && N++ >= Top)
      break;
    // Region ids in hex here, as otter-sites prints them; in JSON a number.
    std::snprintf(
        B, sizeof B,
        "%-18" PRIx64 " %-16s %-28s %10" PRIu64 " %12s %12s %12s %12s %6.1f%%\n",
        C.L.RegionId, kindLabel(C.S.K), C.where().c_str(), C.S.Instances,
        fmtNs(double(C.S.TotalNs)).c_str(),
        fmtNs(double(exclusiveNs(C.S))).c_str(),
        fmtNs(C.S.Instances ? double(C.S.TotalNs) / C.S.Instances : 0).c_str(),
        fmtNs(double(C.S.MaxNs)).c_str(),
        ThreadNs > 0 ? 100.0 * exclusiveNs(C.S) / ThreadNs : 0.0);
    OS << B;
  }
  OS << "\ninclusive: every instance's time (tasks: execution; regions, "
        "worksharing, syncs: begin to end;\n  locks: holding), summed over "
        "instances and threads, nested instances each counted\n"
        "exclusive: thread time the state timeline charges to the construct "
        "alone (tasks: their own\n  code; syncs, locks, MPI, target "
        "constructs: waiting; 0 for constructs that\n  only enclose others)\n"
        "share:     exclusive / thread time ("
     << fmtNs(ThreadNs) << ": every thread, first event to last)\n";
  if (std::any_of(Cs.begin(), Cs.end(),
                  [](const Construct &C) { return C.S.Device; }))
    OS << "(device):  a device's work, not the host program's: with host "
          "offload, the kernels'\n  threads and libomp's hidden helper team "
          "(docs/offload.md); not diagnosed\n";
  printToolTime(R, OS);
  printIdleThreads(R, Label, OS);
  printOffload(R, Label, OS);
  if (!R.Phases.empty() || !R.TaskLabels.empty() || R.Marks) {
    OS << "\n";
    printAnnotations(R, Names, OS, false);
  }
  for (const std::string &W : R.Warnings)
    OS << "warning: " << W << "\n";
}

std::string schedulingCostDefinition() {
  return "the " + fmt("%.0f", SchedulingCostPercentile * 100) +
         "th percentile of the deferred tasks' dispatch latency (from the "
         "thread's previous event, the task's creation or its last "
         "predecessor's end, whichever is last, to its start; docs/utils.md)";
}

std::vector<Finding> diagnose(const Result &R, const LabelFn &Label,
                              const std::vector<std::string> &Names) {
  std::vector<Finding> F;
  std::vector<Construct> Cs = groupConstructs(R, Label);
  // Losses are judged against the run's thread time (run time x threads):
  // a finding must matter at the scale of the whole run.
  double ThreadTime = double(R.runNs()) * std::max<std::uint32_t>(R.Threads, 1);
  double Cost = R.burdenNs();
  auto add = [&](const char *Check, const Construct &C, double Lost,
                 std::string Th, std::string Ev) {
    Finding X;
    X.Check = Check;
    X.K = C.S.K;
    X.Where = C.where();
    X.RegionId = C.L.RegionId;
    X.LostNs = std::uint64_t(std::max(0.0, Lost));
    X.Threshold = std::move(Th);
    X.Evidence = std::move(Ev);
    // The program's names of the construct's tasks (otter_task_label).
    std::vector<LabelStats> L;
    for (const auto &[Name, N] : C.S.TaskLabels)
      L.push_back({Name, N});
    for (const LabelStats &S : sortedLabels(std::move(L), Names))
      X.TaskLabels.push_back({nameText(Names, S.Name), S.Tasks});
    F.push_back(std::move(X));
  };
  for (const Construct &C : Cs) {
    const ConstructStats &S = C.S;
    // A device's work (host offload's kernel threads): no advice for the
    // host program; its target construct has the findings.
    if (S.Device)
      continue;
    if (S.K == Kind::Task && S.Instances >= 2 && Cost > 0) {
      double Med = double(S.medianNs());
      // The loss estimate: every instance paid the creation+scheduling cost.
      if (Med < FineGrainFactor * Cost)
        add("too_fine", C, double(S.Instances) * Cost,
            "median task time < " + fmt("%.0f", FineGrainFactor) +
                " x creation+scheduling cost (" + fmtNs(Cost) + ") = " +
                fmtNs(FineGrainFactor * Cost),
            std::to_string(S.Instances) + " tasks, median " + fmtNs(Med) +
                ", mean " + fmtNs(double(S.TotalNs) / S.Instances) +
                "; cost measured: creation " + fmtNs(R.CreateCostNs) +
                ", scheduling " + fmtNs(R.ScheduleCostNs));
    }
    if (S.K == Kind::Parallel && S.RegionSpanNs && S.RegionThreadNs &&
        S.RegionThreadNs > S.RegionWallNs) {
      double P = double(S.RegionWorkNs) / double(S.RegionSpanNs);
      // The team's mean size over its instances (thread time / wall time).
      double Threads = double(S.RegionThreadNs) / double(S.RegionWallNs);
      double Idle = double(S.RegionThreadNs) - double(S.RegionBusyNs);
      if (P < LowBenefitParallelism && Threads > 1.5 &&
          Idle > MinLostShare * ThreadTime)
        add("low_parallel_benefit", C, Idle,
            "parallelism (work/span) < " + fmt("%.1f", LowBenefitParallelism) +
                " in a team of more than one thread",
            "work " + fmtNs(double(S.RegionWorkNs)) + ", span " +
                fmtNs(double(S.RegionSpanNs)) + ", parallelism " +
                fmt("%.2f", P) + " with " + fmt("%.1f", Threads) +
                " threads; idle thread time " + fmtNs(Idle));
    }
    if (S.K == Kind::Task && S.SibGroups &&
        S.SibWorstRatio >= SiblingImbalanceRatio &&
        double(S.SibLostNs) > MinLostShare * ThreadTime)
      add("sibling_imbalance", C, double(S.SibLostNs),
          "max/mean task time among siblings >= " +
              fmt("%.2f", SiblingImbalanceRatio) + " and loss >= " +
              fmt("%.0f", MinLostShare * 100) + "% of thread time",
          std::to_string(S.SibGroups) +
              " sibling group(s), worst max/mean " +
              fmt("%.2f", S.SibWorstRatio) + ", sum of (max - mean) " +
              fmtNs(double(S.SibLostNs)));
    if ((S.K == Kind::Parallel || S.K == Kind::Loop) && S.TeamImbInstances &&
        S.TeamImbWorstRatio >= ImbalanceRatio &&
        double(S.TeamImbLostNs) > MinLostShare * ThreadTime)
      add("thread_imbalance", C, double(S.TeamImbLostNs),
          "max/mean busy time among the team's threads >= " +
              fmt("%.2f", ImbalanceRatio) + " and loss >= " +
              fmt("%.0f", MinLostShare * 100) + "% of thread time",
          std::to_string(S.TeamImbInstances) +
              " instance(s), worst max/mean " +
              fmt("%.2f", S.TeamImbWorstRatio) +
              ", thread time lost waiting for the slowest " +
              fmtNs(double(S.TeamImbLostNs)));
    if ((S.K == Kind::Taskwait || S.K == Kind::Taskgroup ||
         S.K == Kind::Barrier || S.K == Kind::ImplicitBarrier) &&
        double(S.WaitNs) > WaitShare * ThreadTime)
      add("sync_wait", C, double(S.WaitNs),
          "waiting > " + fmt("%.0f", WaitShare * 100) + "% of thread time (" +
              fmtNs(WaitShare * ThreadTime) + ")",
          std::to_string(S.Instances) + " instance(s), " +
              fmtNs(double(S.WaitNs)) + " waiting (" +
              fmt("%.1f", 100.0 * S.WaitNs / ThreadTime) +
              "% of thread time)");
    if ((S.K == Kind::Critical || S.K == Kind::Lock ||
         S.K == Kind::NestLock || S.K == Kind::Ordered) &&
        S.Contended && double(S.WaitNs) > ContentionShare * ThreadTime)
      add("contention", C, double(S.WaitNs),
          "time acquiring > " + fmt("%.0f", ContentionShare * 100) +
              "% of thread time (" + fmtNs(ContentionShare * ThreadTime) +
              ")",
          std::to_string(S.Contended) + " of " +
              std::to_string(S.Instances) + " acquisitions waited (> 1 us), " +
              fmtNs(double(S.WaitNs)) + " acquiring, " +
              fmtNs(double(S.TotalNs)) + " held");
  }
  addIdleThreads(R, Label, F);
  addOffloadFindings(R, Label, F);
  // Time the OS took away looks like waiting and imbalance: say so there.
  if (addDescheduled(R, F))
    for (Finding &X : F)
      if (X.Check == "thread_imbalance" || X.Check == "sibling_imbalance" ||
          X.Check == "sync_wait")
        X.Evidence += "; the OS took time away from this run (see the "
                      "descheduled finding): part of this may be its doing";
  std::stable_sort(F.begin(), F.end(), [](const Finding &A, const Finding &B) {
    return A.LostNs > B.LostNs;
  });
  return F;
}

void printDiagnose(const Result &R, const LabelFn &Label, bool Json,
                   std::ostream &OS, const std::vector<std::string> &Names) {
  printFindings(R, diagnose(R, Label, Names), Json, OS);
}

void printFindings(const Result &R, const std::vector<Finding> &F, bool Json,
                   std::ostream &OS) {
  if (Json) {
    OS << "{\"creation_cost_ns\":" << fmt("%.0f", R.CreateCostNs)
       << ",\"scheduling_cost_ns\":" << fmt("%.0f", R.ScheduleCostNs)
       << ",\"thread_time_ns\":" << R.runNs() * R.Threads
       << ",\"findings\":[";
    for (std::size_t I = 0; I < F.size(); ++I) {
      OS << (I ? "," : "") << "{\"check\":" << jsonString(F[I].Check)
         << ",\"kind\":" << jsonString(kindName(F[I].K))
         << ",\"where\":" << jsonString(F[I].Where)
         << ",\"region_id\":" << F[I].RegionId
         << ",\"lost_ns\":" << F[I].LostNs
         << ",\"threshold\":" << jsonString(F[I].Threshold)
         << ",\"evidence\":" << jsonString(F[I].Evidence);
      if (!F[I].TaskLabels.empty()) {
        OS << ",\"task_labels\":[";
        for (std::size_t J = 0; J < F[I].TaskLabels.size(); ++J)
          OS << (J ? "," : "")
             << "{\"name\":" << jsonString(F[I].TaskLabels[J].first)
             << ",\"tasks\":" << F[I].TaskLabels[J].second << "}";
        OS << "]";
      }
      if (!F[I].Ranks.empty()) {
        OS << ",\"ranks\":[";
        for (std::size_t J = 0; J < F[I].Ranks.size(); ++J)
          OS << (J ? "," : "") << "{\"rank\":" << F[I].Ranks[J].first
             << ",\"lost_ns\":" << F[I].Ranks[J].second << "}";
        OS << "]";
      }
      if (!F[I].Threads.empty()) {
        OS << ",\"threads\":[";
        for (std::size_t J = 0; J < F[I].Threads.size(); ++J)
          OS << (J ? "," : "") << "{\"rank\":" << F[I].Threads[J].Rank
             << ",\"thread\":" << F[I].Threads[J].Thread
             << ",\"lost_ns\":" << F[I].Threads[J].Ns << "}";
        OS << "]";
      }
      if (const Advice &A = F[I].Remedy; !A.Kind.empty())
        OS << ",\"advice\":{\"kind\":" << jsonString(A.Kind)
           << ",\"where\":" << jsonString(A.Where)
           << ",\"region_id\":" << A.RegionId
           << ",\"change\":" << jsonString(A.Change)
           << ",\"transformation\":" << jsonString(A.Transformation)
           << ",\"cores\":" << A.Cores
           << ",\"predicted_before_ns\":" << A.BeforeNs
           << ",\"predicted_after_ns\":" << A.AfterNs
           << ",\"gain\":" << fmt("%.4f", A.gain()) << "}";
      OS << "}";
    }
    OS << "]}\n";
    return;
  }
  // Per-task costs only where there are tasks to have measured them on.
  if (R.ExplicitTasks)
    OS << "creation+scheduling cost measured: " << fmtNs(R.CreateCostNs)
       << " + " << fmtNs(R.ScheduleCostNs) << " per task; ";
  OS << "thread time " << fmtNs(double(R.runNs()) * R.Threads) << "\n";
  if (F.empty()) {
    OS << "no findings\n";
    return;
  }
  std::size_t N = 0;
  for (const Finding &X : F) {
    OS << "\n" << ++N << ". " << X.Check << ": " << kindName(X.K) << " at "
       << X.Where << "  (est. " << fmtNs(double(X.LostNs))
       << " thread time lost)\n";
    OS << "   threshold: " << X.Threshold << "\n";
    OS << "   evidence:  " << X.Evidence << "\n";
    if (!X.TaskLabels.empty()) {
      OS << "   tasks:     ";
      for (std::size_t J = 0; J < X.TaskLabels.size(); ++J)
        OS << (J ? ", " : "") << '"' << X.TaskLabels[J].first << "\" ("
           << X.TaskLabels[J].second << ')';
      OS << "\n";
    }
    if (!X.Ranks.empty()) {
      OS << "   ranks:     ";
      for (std::size_t J = 0; J < X.Ranks.size(); ++J)
        OS << (J ? ", " : "") << "rank " << X.Ranks[J].first << " "
           << fmtNs(double(X.Ranks[J].second));
      OS << "\n";
    }
    if (!X.Threads.empty()) {
      // Only the ranks where more than one thread waited.
      OS << "   threads:   ";
      for (std::size_t J = 0; J < X.Threads.size(); ++J)
        OS << (J ? ", " : "") << "rank.thread " << X.Threads[J].Rank << "."
           << X.Threads[J].Thread << " " << fmtNs(double(X.Threads[J].Ns));
      OS << "\n";
    }
    if (const Advice &A = X.Remedy; !A.Kind.empty()) {
      OS << "   advice:    (" << A.Kind << ") at " << A.Where << ": "
         << A.Change << "\n";
      OS << "   replayed:  " << A.Transformation << "\n";
      OS << "   predicted: " << fmtNs(double(A.BeforeNs)) << " -> "
         << fmtNs(double(A.AfterNs)) << " on " << A.Cores
         << " core(s), gain " << fmt("%.1f", 100 * A.gain()) << "%\n";
    }
  }
}

} // namespace otter::analysis
