//===- otter/state_timeline.cpp - Collect and write the state timeline ---===//
//
// The intervals come from the analysis (analysis.cpp, chargeTime), already
// merged where neighbours agree; this file only keeps and prints them. A
// row names its task by the task construct's source line and, when the
// program named the task (otter_task_label), that name in brackets, as the
// Perfetto export does.
//
//===----------------------------------------------------------------------===//
#include "state_timeline.h"

namespace otter::analysis {

std::uint64_t StateTotals::sumNs() const {
  std::uint64_t S = 0;
  for (std::uint64_t N : Ns)
    S += N;
  return S;
}

StateTotals sumStates(const std::vector<StateInterval> &Intervals) {
  StateTotals T;
  if (Intervals.empty())
    return T;
  T.First = Intervals.front().Start;
  T.Last = Intervals.back().End;
  for (const StateInterval &I : Intervals) {
    T.Ns[std::size_t(I.State)] += I.ns();
    if (I.State == ThreadState::Waiting)
      T.WaitingBy[I.Construct] += I.ns();
  }
  return T;
}

void StateTimeline::state(std::uint32_t Thread, const StateInterval &I) {
  if (Thread >= Threads.size())
    Threads.resize(Thread + 1);
  Threads[Thread].push_back(I);
}

StateTimeline::Columns
StateTimeline::columns(const StateInterval &I, const LabelFn &Label,
                       const std::vector<std::string> &Names) const {
  Columns C;
  if (I.State == ThreadState::Idle || !I.Task)
    return C;
  C.Construct = kindName(I.Construct);
  SourceLabel L = I.Code ? Label(I.Code) : SourceLabel{};
  C.RegionId = std::to_string(L.RegionId);
  C.Task = std::to_string(I.Task);
  if (I.TaskKind == Kind::Initial && codeAddress(I.TaskCode) == 0)
    C.Label = "(program)";
  else
    C.Label = sourceText(I.TaskCode ? Label(I.TaskCode) : SourceLabel{});
  auto It = TaskNames.find(I.Task);
  if (It != TaskNames.end())
    C.Label += " [" + nameText(Names, It->second) + "]";
  return C;
}

namespace {
/// A CSV field, quoted when it holds a comma, a quote or a line break.
std::string csvField(const std::string &S) {
  if (S.find_first_of(",\"\n\r") == std::string::npos)
    return S;
  std::string O = "\"";
  for (char C : S) {
    if (C == '"')
      O += '"';
    O += C;
  }
  return O + "\"";
}
} // namespace

void StateTimeline::writeCsv(std::ostream &OS, const LabelFn &Label,
                             const std::vector<std::string> &Names) const {
  OS << "thread,start_ns,end_ns,state,construct,region_id,task,label\n";
  for (std::size_t Th = 0; Th < Threads.size(); ++Th)
    for (const StateInterval &I : Threads[Th]) {
      Columns C = columns(I, Label, Names);
      OS << Th << ',' << I.Start << ',' << I.End << ',' << stateName(I.State)
         << ',' << C.Construct << ',' << C.RegionId << ',' << C.Task << ','
         << csvField(C.Label) << '\n';
    }
}

void StateTimeline::writeJson(std::ostream &OS, const LabelFn &Label,
                              const std::vector<std::string> &Names) const {
  OS << "{\"intervals\":[";
  bool First = true;
  for (std::size_t Th = 0; Th < Threads.size(); ++Th)
    for (const StateInterval &I : Threads[Th]) {
      Columns C = columns(I, Label, Names);
      auto orNull = [](const std::string &S, bool Quote) {
        return S.empty() ? std::string("null") : Quote ? jsonString(S) : S;
      };
      OS << (First ? "" : ",") << "\n{\"thread\":" << Th
         << ",\"start_ns\":" << I.Start << ",\"end_ns\":" << I.End
         << ",\"state\":\"" << stateName(I.State)
         << "\",\"construct\":" << orNull(C.Construct, true)
         << ",\"region_id\":" << orNull(C.RegionId, false)
         << ",\"task\":" << orNull(C.Task, false)
         << ",\"label\":" << orNull(C.Label, true) << "}";
      First = false;
    }
  OS << "],\n\"threads\":[";
  First = true;
  for (std::size_t Th = 0; Th < Threads.size(); ++Th) {
    if (Threads[Th].empty())
      continue;
    StateTotals T = sumStates(Threads[Th]);
    OS << (First ? "" : ",") << "\n{\"thread\":" << Th
       << ",\"first_ns\":" << T.First << ",\"last_ns\":" << T.Last
       << ",\"wall_ns\":" << T.wallNs();
    for (unsigned S = 0; S < ThreadStateCount; ++S)
      OS << ",\"" << stateName(ThreadState(S)) << "_ns\":" << T.Ns[S];
    OS << ",\"waiting_by\":{";
    bool FirstK = true;
    for (const auto &[K, Ns] : T.WaitingBy) {
      OS << (FirstK ? "" : ",") << jsonString(kindName(K)) << ":" << Ns;
      FirstK = false;
    }
    OS << "}}";
    First = false;
  }
  OS << "]}\n";
}

} // namespace otter::analysis
