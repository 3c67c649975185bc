//===- phase_test.cpp - --phase, and names in diagnose and export -------===//
//
// PhaseRestriction (utils/otter/phase.h) on hand-made streams: which events
// are inside, what is synthesized, and the analysis of the result (work and
// span computed by hand in the comments, times in ns); task labels, phases
// and marks in diagnose and the Perfetto export.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "export.h"
#include "phase.h"
#include "report.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace otter;
using namespace otter::analysis;

namespace {

constexpr TaskId Init = 1, A = 11, B = 12, C = 13, Par = 2, I0 = 3, I1 = 4;
constexpr std::uint16_t Solve = 1, Other = 2;

struct Stream {
  std::vector<std::pair<std::uint32_t, Event>> Ev;
  void at(std::uint32_t Th, std::uint64_t T, Event E) {
    E.Time = T;
    Ev.push_back({Th, E});
  }
  void sched(std::uint32_t Th, std::uint64_t T, TaskId Prior, TaskId Next,
             bool Complete) {
    at(Th, T,
       Event::taskSchedule(
           0, Prior,
           Complete ? ScheduleStatus::Complete : ScheduleStatus::Switch, Next));
  }
  /// The restricted stream, event by event, and its analysis.
  std::vector<std::pair<std::uint32_t, Event>> restrict(
      PhaseRestriction &P) const {
    std::vector<std::pair<std::uint32_t, Event>> Out;
    std::vector<Event> Buf;
    for (const auto &[Th, E] : Ev) {
      Buf.clear();
      P.add(&E, 1, Buf);
      for (const Event &X : Buf)
        Out.push_back({Th, X});
    }
    return Out;
  }
  Result analyse(std::uint32_t Name, std::uint64_t *Occurrences = nullptr) {
    PhaseRestriction P(Name);
    Analyzer An;
    for (const auto &[Th, E] : restrict(P))
      An.add(Th, E);
    if (Occurrences)
      *Occurrences = P.occurrences();
    return An.finish();
  }
};

// The initial task: phase "solve" twice; a task A created inside, a task B
// created between the two occurrences (outside).
//   0 begin; 10 solve; 20 create A; 30 -> A; 60 A done -> Init; 70 end
//   100 create B; 110 -> B; 150 B done; 200 solve; 250 end; 300 end of Init
// Inside: Init 10..30, 60..70, 200..250 (80), A 30..60 (30): work 110.
// Span: Init's path, its occurrences in program order: 80 (A's path is
// 10 + 30 = 40, and nothing waits for it).
Stream twoOccurrences() {
  Stream S;
  S.at(0, 0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
  S.at(0, 10, Event::phaseBegin(0, Init, Solve, 0));
  S.at(0, 20, Event::taskCreate(0, Init, A, TaskExplicit, 0x100));
  S.sched(0, 30, Init, A, false);
  S.sched(0, 60, A, Init, true);
  S.at(0, 70, Event::phaseEnd(0, Init, Solve, 0));
  S.at(0, 100, Event::taskCreate(0, Init, B, TaskExplicit, 0x200));
  S.sched(0, 110, Init, B, false);
  S.sched(0, 150, B, Init, true);
  S.at(0, 200, Event::phaseBegin(0, Init, Solve, 0));
  S.at(0, 250, Event::phaseEnd(0, Init, Solve, 0));
  S.at(0, 300, Event::implicitTaskEnd(0, Init));
  return S;
}

TEST(PhaseTest, OccurrencesOfOneTaskFollowEachOther) {
  Stream S = twoOccurrences();
  std::uint64_t N = 0;
  Result R = S.analyse(Solve, &N);
  EXPECT_EQ(N, 2u);
  EXPECT_EQ(R.WorkNs, 110u);
  EXPECT_EQ(R.SpanNs, 80u);
  EXPECT_EQ(R.ExplicitTasks, 1u); // A, not B
  ASSERT_EQ(R.Phases.size(), 1u);
  EXPECT_EQ(R.Phases[0].Instances, 2u);
  EXPECT_EQ(R.Phases[0].TotalNs, 110u); // 60 + 50
  for (const ConstructStats &C : R.Constructs)
    EXPECT_NE(C.Code, 0x200u) << "task B is outside the phase";
}

TEST(PhaseTest, WhatIsInsideAndWhatIsSynthesized) {
  Stream S = twoOccurrences();
  PhaseRestriction P(Solve);
  auto Out = S.restrict(P);
  std::vector<std::pair<EventKind, std::uint64_t>> Got;
  for (const auto &[Th, E] : Out)
    Got.push_back({E.Kind, E.Time});
  std::vector<std::pair<EventKind, std::uint64_t>> Want = {
      {EventKind::ImplicitTaskBegin, 10}, // Init as a root
      {EventKind::PhaseBegin, 10},
      {EventKind::TaskCreate, 20},
      {EventKind::TaskSchedule, 30},
      {EventKind::TaskSchedule, 60},
      {EventKind::PhaseEnd, 70},
      {EventKind::TaskSchedule, 70},  // suspended
      {EventKind::TaskSchedule, 200}, // resumed
      {EventKind::PhaseBegin, 200},
      {EventKind::PhaseEnd, 250},
      {EventKind::TaskSchedule, 250},
      {EventKind::ImplicitTaskEnd, 300}, // its real end
  };
  EXPECT_EQ(Got, Want);
  EXPECT_EQ(Out[0].second.implicitFlags(), TaskInitial);
  EXPECT_EQ(Out[6].second.prior(), Init);
  EXPECT_EQ(Out[6].second.next(), 0u);
  EXPECT_EQ(Out[7].second.next(), Init);
}

// A phase around a parallel region of two threads: the region, its
// implicit tasks and a task created in one of them are inside; a phase of
// another name outside is not; a task created by the initial task after
// the phase is not.
//   Init: 0 begin, 10 solve, 20 fork, 100 join, 110 end of solve,
//         120 create C, 130 -> C, 170 C done, 200 end
//   I0 (thread 0): 20..100; creates A at 40, runs it 50..80 (30)
//   I1 (thread 1): 20..90; "other" phase 30..40 (inside too: I1 is)
// Work: Init 10..20 + 100..110 (20), I0 20..50 + 80..100 (50), A 30,
// I1 70: 170.
TEST(PhaseTest, RegionsAndTasksCreatedInsideAreWhollyInside) {
  Stream S;
  S.at(0, 0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
  S.at(0, 10, Event::phaseBegin(0, Init, Solve, 0));
  S.at(0, 20, Event::parallelBegin(0, Init, Par, 2, 0, 0x500));
  S.at(0, 20, Event::implicitTaskBegin(0, I0, Par, 2, 0, TaskImplicit));
  S.at(1, 20, Event::implicitTaskBegin(0, I1, Par, 2, 1, TaskImplicit));
  S.at(1, 30, Event::phaseBegin(0, I1, Other, 0));
  S.at(0, 40, Event::taskCreate(0, I0, A, TaskExplicit, 0x100));
  S.at(1, 40, Event::phaseEnd(0, I1, Other, 0));
  S.sched(0, 50, I0, A, false);
  S.sched(0, 80, A, I0, true);
  S.at(1, 90, Event::implicitTaskEnd(0, I1));
  S.at(0, 100, Event::implicitTaskEnd(0, I0));
  S.at(0, 100, Event::parallelEnd(0, Init, Par, 0x500));
  S.at(0, 110, Event::phaseEnd(0, Init, Solve, 0));
  S.at(0, 120, Event::taskCreate(0, Init, C, TaskExplicit, 0x300));
  S.sched(0, 130, Init, C, false);
  S.sched(0, 170, C, Init, true);
  S.at(0, 200, Event::implicitTaskEnd(0, Init));
  std::uint64_t N = 0;
  Result R = S.analyse(Solve, &N);
  EXPECT_EQ(N, 1u);
  EXPECT_EQ(R.WorkNs, 170u);
  EXPECT_EQ(R.ExplicitTasks, 1u);
  EXPECT_EQ(R.ParallelRegions, 1u);
  EXPECT_EQ(R.Phases.size(), 2u); // solve and other
  // The phase "other" alone: I1 from 30 to 40.
  Result O = S.analyse(Other, &N);
  EXPECT_EQ(N, 1u);
  EXPECT_EQ(O.WorkNs, 10u);
  EXPECT_EQ(O.ParallelRegions, 0u);
}

TEST(PhaseTest, UnknownPhase) {
  Stream S = twoOccurrences();
  PhaseRestriction P(~0u);
  EXPECT_TRUE(S.restrict(P).empty());
  EXPECT_EQ(P.occurrences(), 0u);
  std::vector<std::string> Names = {"", "solve", "odd"};
  EXPECT_EQ(phaseNameId("solve", Names), 1u);
  EXPECT_EQ(phaseNameId("nope", Names), ~0u);
  EXPECT_EQ(unknownPhaseError("odd", P.phasesSeen(), Names),
            "no phase 'odd' in the trace; its phases: solve");
  EXPECT_EQ(unknownPhaseError("x", {}, Names),
            "no phase 'x' in the trace; it has no phases (otter_phase_begin, "
            "otter/otter.h)");
}

} // namespace

namespace {

// Task labels (otter_task_label) in diagnose and the Perfetto export: two
// tasks of one construct, labelled "odd" and "even", far cheaper than their
// creation (1000 ns each: the creator's next event comes 1000 ns later),
// so the construct is too_fine; a phase and a mark around them.
//   0 begin; 500 phase; 1000 create A; 2000 create B; 2500 mark;
//   3000 -> A, 3001 label, 3010 A done; 4000 -> B, 4001 label, 4010 B done;
//   4500 phase end; 5000 end
constexpr std::uint16_t Odd = 2, Even = 3, Ready = 4;
Stream labelled() {
  Stream S;
  S.at(0, 0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial));
  S.at(0, 500, Event::phaseBegin(0, Init, Solve, 0));
  S.at(0, 1000, Event::taskCreate(0, Init, A, TaskExplicit, 0x100));
  S.at(0, 2000, Event::taskCreate(0, Init, B, TaskExplicit, 0x100));
  S.at(0, 2500, Event::mark(0, Init, Ready, 0));
  S.sched(0, 3000, Init, A, false);
  S.at(0, 3001, Event::taskLabel(0, A, Odd));
  S.sched(0, 3010, A, Init, true);
  S.sched(0, 4000, Init, B, false);
  S.at(0, 4001, Event::taskLabel(0, B, Even));
  S.sched(0, 4010, B, Init, true);
  S.at(0, 4500, Event::phaseEnd(0, Init, Solve, 0));
  S.at(0, 5000, Event::implicitTaskEnd(0, Init));
  return S;
}
const std::vector<std::string> LabelNames = {"", "solve", "odd", "even",
                                             "ready"};
SourceLabel noLabel(std::uint64_t) { return SourceLabel{}; }

TEST(NamesTest, DiagnoseNamesTheLabelledTasks) {
  Analyzer An;
  for (const auto &[Th, E] : labelled().Ev)
    An.add(Th, E);
  Result R = An.finish();
  std::vector<Finding> F = diagnose(R, noLabel, LabelNames);
  const Finding *Fine = nullptr;
  for (const Finding &X : F)
    if (X.Check == "too_fine")
      Fine = &X;
  ASSERT_NE(Fine, nullptr);
  // By count, then name.
  std::vector<std::pair<std::string, std::uint64_t>> Want = {{"even", 1},
                                                             {"odd", 1}};
  EXPECT_EQ(Fine->TaskLabels, Want);
  std::ostringstream Text, Json;
  printFindings(R, F, false, Text);
  printFindings(R, F, true, Json);
  EXPECT_NE(Text.str().find("   tasks:     \"even\" (1), \"odd\" (1)\n"),
            std::string::npos)
      << Text.str();
  EXPECT_NE(Json.str().find("\"task_labels\":[{\"name\":\"even\",\"tasks\":1},"
                            "{\"name\":\"odd\",\"tasks\":1}]"),
            std::string::npos)
      << Json.str();
  // Without labels nothing is added (outputs unchanged).
  Stream Plain = twoOccurrences();
  Analyzer P;
  for (const auto &[Th, E] : Plain.Ev)
    P.add(Th, E);
  Result RP = P.finish();
  std::ostringstream PJ;
  printFindings(RP, diagnose(RP, noLabel), true, PJ);
  EXPECT_EQ(PJ.str().find("task_labels"), std::string::npos);
}

TEST(NamesTest, PerfettoShowsPhasesMarksAndLabels) {
  std::ostringstream OS;
  PerfettoWriter W(OS, noLabel);
  W.setNames(LabelNames);
  Analyzer An;
  An.setObserver(&W);
  for (const auto &[Th, E] : labelled().Ev)
    An.add(Th, E);
  Result R = An.finish();
  W.finish(R.Threads);
  std::string J = OS.str();
  EXPECT_NE(J.find("{\"name\":\"phase solve\",\"cat\":\"phase\",\"ph\":\"X\","
                   "\"ts\":0.500,\"dur\":4.000,\"pid\":1,\"tid\":0}"),
            std::string::npos)
      << J;
  EXPECT_NE(J.find("{\"name\":\"mark ready\",\"cat\":\"mark\",\"ph\":\"i\","
                   "\"s\":\"t\",\"ts\":2.500,\"pid\":1,\"tid\":0}"),
            std::string::npos)
      << J;
  EXPECT_NE(J.find("[odd]\",\"cat\":\"task\""), std::string::npos) << J;
  EXPECT_NE(J.find("\"exec_ns\":10,\"label\":\"odd\"}"), std::string::npos)
      << J;
  EXPECT_NE(J.find("\"exec_ns\":10,\"label\":\"even\"}"), std::string::npos)
      << J;
}

} // namespace
