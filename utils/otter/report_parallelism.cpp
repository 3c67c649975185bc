//===- otter/report_parallelism.cpp - `otter parallelism` ----------------===//
//
// The parallelism report as text and JSON: work, span, the burdened span,
// the parallel regions and phases, the critical path (condensed: a run of
// steps repeated back to back shown once) and its top contributors
// (docs/utils.md has the definitions).
//
//===----------------------------------------------------------------------===//
#include "report.h"
#include "path_condense.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <tuple>

namespace otter::analysis {

static std::string fmt(const char *F, double X) {
  char B[64];
  std::snprintf(B, sizeof B, F, X);
  return B;
}

std::vector<PathBlock> condensedPath(const std::vector<PathStep> &Path,
                                     const LabelFn &Label) {
  // A step's rank is part of its key: in an MPI job the same construct on
  // two ranks is two steps, never one repeat.
  std::map<std::tuple<int, int, std::string, std::uint32_t>, std::uint32_t>
      Ids;
  std::vector<std::uint32_t> Keys;
  for (const PathStep &S : Path) {
    SourceLabel L = S.Code ? Label(S.Code) : SourceLabel{};
    std::string Where = L.RegionId ? std::to_string(L.RegionId) : sourceText(L);
    auto It = Ids.try_emplace({codeRank(S.Code), int(S.K), Where, S.Label},
                              std::uint32_t(Ids.size()))
                  .first;
    Keys.push_back(It->second);
  }
  return condensePath(Keys);
}

std::vector<PathBlock> pathBlocks(const Result &R, const LabelFn &Label,
                                  bool FullPath) {
  if (!FullPath)
    return condensedPath(R.CriticalPath, Label);
  std::vector<PathBlock> Blocks;
  for (std::size_t I = 0; I < R.CriticalPath.size(); ++I)
    Blocks.push_back({I, 1, 1});
  return Blocks;
}

std::string condensedNote(const std::vector<PathBlock> &Blocks,
                          std::size_t Steps) {
  return Blocks.size() < Steps
             ? "; a run of steps repeated back to back is shown once, with "
               "its totals over the repeats; --full lists every step"
             : "";
}

PathStep pathBlockTotal(const std::vector<PathStep> &Path, const PathBlock &B,
                        std::size_t Offset) {
  PathStep Sum = Path[B.First + Offset];
  Sum.Ns = Sum.Instances = 0;
  for (std::size_t R = 0; R < B.Repeats; ++R) {
    Sum.Ns += Path[B.First + R * B.Period + Offset].Ns;
    Sum.Instances += Path[B.First + R * B.Period + Offset].Instances;
  }
  return Sum;
}

namespace {

/// A step of the critical path, or a construct's total over the path.
struct Step {
  Kind K;
  SourceLabel L;
  std::uint64_t Ns, Instances;
  std::string Name; // its tasks' otter_task_label, if any
};

std::string where(const Step &S) {
  return S.K == Kind::Initial && S.L.Line == 0 ? std::string("(program)")
                                               : sourceText(S.L);
}

/// printParallelism's JSON object.
void printParallelismJson(const Result &R, const LabelFn &Label,
                          const std::vector<const Construct *> &Regions,
                          const std::vector<PhaseParallelism> &Phases,
                          const std::vector<Step> &Path,
                          const std::vector<Step> &Top5, std::ostream &OS) {
  OS << "{\"work_ns\":" << R.WorkNs << ",\"span_ns\":" << R.SpanNs
     << ",\"parallelism\":" << fmt("%.4f", R.parallelism())
     << ",\"device_path_ns\":" << R.devicePathNs()
     << ",\"burdened_span_ns\":" << fmt("%.0f", R.burdenedSpanNs())
     << ",\"burdened_parallelism\":" << fmt("%.4f", R.burdenedParallelism())
     << ",\"burden_ns\":" << fmt("%.0f", R.BurdenNs)
     << ",\"creation_cost_ns\":" << fmt("%.0f", R.CreateCostNs)
     << ",\"scheduling_cost_ns\":" << fmt("%.0f", R.ScheduleCostNs)
     << ",\"tasks_on_critical_path\":" << R.PathTasks
     << ",\"run_ns\":" << R.runNs() << ",\"threads\":" << R.Threads
     << ",\"regions\":[";
  for (std::size_t I = 0; I < Regions.size(); ++I) {
    const Construct &C = *Regions[I];
    OS << (I ? "," : "") << "{\"region_id\":" << C.L.RegionId
       << ",\"file\":" << jsonString(C.L.File) << ",\"line\":" << C.L.Line
       << ",\"instances\":" << C.S.Instances
       << ",\"work_ns\":" << C.S.RegionWorkNs
       << ",\"span_ns\":" << C.S.RegionSpanNs << ",\"parallelism\":"
       << fmt("%.4f", C.S.RegionSpanNs
                          ? double(C.S.RegionWorkNs) / C.S.RegionSpanNs
                          : 0)
       << ",\"wall_ns\":" << C.S.RegionWallNs
       << ",\"fork_ns\":" << C.S.RegionForkNs
       << ",\"join_ns\":" << C.S.RegionJoinNs
       << ",\"burdened_span_ns\":" << fmt("%.0f", R.regionBurdenedSpanNs(C.S))
       << "}";
  }
  OS << "]";
  if (!Phases.empty()) {
    OS << ",\"phases\":[";
    for (std::size_t I = 0; I < Phases.size(); ++I) {
      const PhaseParallelism &P = Phases[I];
      OS << (I ? "," : "") << "{\"name\":" << jsonString(P.Name)
         << ",\"occurrences\":" << P.Occurrences << ",\"work_ns\":" << P.WorkNs
         << ",\"span_ns\":" << P.SpanNs
         << ",\"parallelism\":" << fmt("%.4f", P.Parallelism)
         << ",\"burdened_span_ns\":" << fmt("%.0f", P.BurdenedSpanNs)
         << ",\"burdened_parallelism\":" << fmt("%.4f", P.BurdenedParallelism)
         << "}";
    }
    OS << "]";
  }
  // The condensed path: blocks of steps of critical_path (path_condense.h).
  OS << ",\"critical_path_blocks\":[";
  std::vector<PathBlock> Blocks = condensedPath(R.CriticalPath, Label);
  for (std::size_t I = 0; I < Blocks.size(); ++I) {
    std::uint64_t Ns = 0;
    for (std::size_t S = 0; S < Blocks[I].steps(); ++S)
      Ns += Path[Blocks[I].First + S].Ns;
    OS << (I ? "," : "") << "{\"first\":" << Blocks[I].First
       << ",\"period\":" << Blocks[I].Period
       << ",\"repeats\":" << Blocks[I].Repeats << ",\"ns\":" << Ns << "}";
  }
  OS << "]";
  OS << ",\"critical_path\":[";
  for (std::size_t I = 0; I < Path.size(); ++I)
    OS << (I ? "," : "") << "{\"kind\":" << jsonString(kindName(Path[I].K))
       << ",\"file\":" << jsonString(Path[I].L.File)
       << ",\"line\":" << Path[I].L.Line << ",\"ns\":" << Path[I].Ns
       << ",\"tasks\":" << Path[I].Instances
       << ",\"region_id\":" << Path[I].L.RegionId
       << (Path[I].Name.empty() ? "" : ",\"label\":" + jsonString(Path[I].Name))
       << "}";
  OS << "],\"top_contributors\":[";
  for (std::size_t I = 0; I < Top5.size(); ++I)
    OS << (I ? "," : "") << "{\"kind\":" << jsonString(kindName(Top5[I].K))
       << ",\"file\":" << jsonString(Top5[I].L.File)
       << ",\"line\":" << Top5[I].L.Line << ",\"ns\":" << Top5[I].Ns
       << ",\"tasks\":" << Top5[I].Instances
       << ",\"region_id\":" << Top5[I].L.RegionId << "}";
  OS << "]}\n";
}

/// printParallelism's critical path in text: one row per step, or per step
/// of a repeated run (its totals over the repeats, indented under the
/// run's own row); at most Top rows (0: all).
void printPathText(const Result &R, const LabelFn &Label,
                   const std::vector<Step> &Path, std::size_t Top,
                   bool FullPath, std::ostream &OS) {
  char B[512];
  auto row = [&](const Step &S, const char *Indent) {
    std::snprintf(B, sizeof B, "  %s%-16s %-28s %12s", Indent, kindName(S.K),
                  where(S).c_str(), fmtNs(double(S.Ns)).c_str());
    OS << B;
    if (S.Instances > 1)
      OS << "  (" << S.Instances << " tasks)";
    if (!S.Name.empty())
      OS << "  [" << S.Name << "]";
    OS << "\n";
  };
  std::vector<PathBlock> Blocks = pathBlocks(R, Label, FullPath);
  OS << "\ncritical path (" << Path.size() << " steps"
     << condensedNote(Blocks, Path.size()) << "):\n";
  printPathBlocks(Path, Blocks, Top, 45, row, OS);
}

} // namespace

void printParallelism(const Result &R, const LabelFn &Label, bool Json,
                      std::ostream &OS, std::size_t Top,
                      const std::vector<std::string> &Names,
                      const std::vector<PhaseParallelism> &Phases,
                      bool FullPath) {
  std::vector<Construct> Cs = groupConstructs(R, Label);
  std::vector<const Construct *> Regions;
  for (const Construct &C : Cs)
    if (C.S.K == Kind::Parallel)
      Regions.push_back(&C);
  // Critical path steps and top contributors by construct.
  std::vector<Step> Path;
  std::map<std::pair<int, std::string>, Step> Contrib;
  for (const PathStep &P : R.CriticalPath) {
    SourceLabel L = P.Code ? Label(P.Code) : SourceLabel{};
    Path.push_back({P.K, L, P.Ns, P.Instances,
                    P.Label ? nameText(Names, P.Label) : std::string()});
    std::string Key = L.RegionId ? std::to_string(L.RegionId) : sourceText(L);
    auto [It, New] =
        Contrib.try_emplace({int(P.K), Key}, Step{P.K, L, 0, 0, {}});
    It->second.Ns += P.Ns;
    It->second.Instances += P.Instances;
  }
  std::vector<Step> Top5;
  for (auto &[K, S] : Contrib)
    Top5.push_back(S);
  std::sort(Top5.begin(), Top5.end(),
            [](const Step &A, const Step &B) { return A.Ns > B.Ns; });
  if (Json) {
    printParallelismJson(R, Label, Regions, Phases, Path, Top5, OS);
    return;
  }
  char B[512];
  OS << "work                  " << fmtNs(double(R.WorkNs)) << "\n";
  OS << "span                  " << fmtNs(double(R.SpanNs));
  if (const std::uint64_t D = R.devicePathNs())
    OS << "  (" << fmtNs(double(D))
       << " of it waiting for devices in target constructs: in the span, "
          "not in work)";
  OS << "\n";
  std::snprintf(B, sizeof B, "parallelism           %.2f\n", R.parallelism());
  OS << B;
  if (R.ExplicitTasks)
    std::snprintf(B, sizeof B,
                  "burdened span         %s  (each task on the path pays %s "
                  "scheduling, each region its fork and join)\n",
                  fmtNs(R.burdenedSpanNs()).c_str(), fmtNs(R.BurdenNs).c_str());
  else
    std::snprintf(B, sizeof B,
                  "burdened span         %s  (each region on the path pays "
                  "its fork and join; no explicit tasks)\n",
                  fmtNs(R.burdenedSpanNs()).c_str());
  OS << B;
  std::snprintf(B, sizeof B, "burdened parallelism  %.2f\n",
                R.burdenedParallelism());
  OS << B;
  if (R.ExplicitTasks && R.ScheduleSamples)
    OS << "scheduling cost       " << fmtNs(R.ScheduleCostNs) << "  ("
       << schedulingCostDefinition() << ", over " << R.ScheduleSamples
       << " tasks)\n";
  OS << "threads               " << R.Threads << "  (run time "
     << fmtNs(double(R.runNs())) << ")\n";
  if (!Regions.empty()) {
    OS << "\nparallel regions:\n";
    std::snprintf(B, sizeof B, "  %-28s %9s %12s %12s %11s %12s %12s\n",
                  "where", "instances", "work", "span", "parallelism",
                  "fork+join", "burdened");
    OS << B;
    for (const Construct *C : Regions) {
      std::snprintf(
          B, sizeof B, "  %-28s %9" PRIu64 " %12s %12s %11.2f %12s %12s\n",
          C->where().c_str(), C->S.Instances,
          fmtNs(double(C->S.RegionWorkNs)).c_str(),
          fmtNs(double(C->S.RegionSpanNs)).c_str(),
          C->S.RegionSpanNs ? double(C->S.RegionWorkNs) / C->S.RegionSpanNs
                            : 0.0,
          fmtNs(double(C->S.RegionForkNs + C->S.RegionJoinNs)).c_str(),
          fmtNs(R.regionBurdenedSpanNs(C->S)).c_str());
      OS << B;
    }
  }
  if (!Phases.empty()) {
    // Each phase alone (--phase NAME), by its time as summary lists them.
    OS << "\nphases (each analysed alone, as --phase NAME):\n";
    std::snprintf(B, sizeof B, "  %-28s %11s %12s %12s %11s %12s\n", "phase",
                  "occurrences", "work", "span", "parallelism", "burdened");
    OS << B;
    for (const PhaseParallelism &P : Phases) {
      // burdened: the burdened span, as in the regions' table
      std::snprintf(
          B, sizeof B, "  %-28s %11" PRIu64 " %12s %12s %11.2f %12s\n",
          P.Name.c_str(), P.Occurrences, fmtNs(double(P.WorkNs)).c_str(),
          fmtNs(double(P.SpanNs)).c_str(), P.Parallelism,
          fmtNs(P.BurdenedSpanNs).c_str());
      OS << B;
    }
  }
  printPathText(R, Label, Path, Top, FullPath, OS);
  OS << "\ntop contributors to the critical path:\n";
  std::size_t N = 0;
  for (const Step &S : Top5) {
    if (N++ >= 10) // the text shows ten; the JSON lists them all
      break;
    std::snprintf(B, sizeof B, "  %-16s %-28s %12s %6.1f%%\n", kindName(S.K),
                  where(S).c_str(), fmtNs(double(S.Ns)).c_str(),
                  R.SpanNs ? 100.0 * S.Ns / R.SpanNs : 0.0);
    OS << B;
  }
  for (const std::string &W : R.Warnings)
    OS << "warning: " << W << "\n";
}

} // namespace otter::analysis
