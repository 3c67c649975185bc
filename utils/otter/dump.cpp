//===- otter/dump.cpp - `otter dump`: the raw event stream as text -------===//
//
// Field values are printed by the field's format in the event table
// (FieldFormat, otter/event_info.h): numbers in decimal, addresses and keys
// in hex, OMPT's enumerations by OMPT's own names (ompt_sync_region_taskwait
// is `taskwait`), flag sets as names joined by `|`, code addresses as the
// source construct's file:line:col. A value an enumeration does not define
// is printed as its number: a dump shows what was recorded, whatever it is.
//
//===----------------------------------------------------------------------===//
#include "dump.h"
#include "otter/constructs.h"
#include "otter/mpi.h"
#include "trace/codec.h"

#include <cinttypes>
#include <cstdio>
#include <sstream>

namespace otter::dump {

namespace {

/// Name I of a table of names, or the number if there is none.
template <std::size_t N>
std::string named(const char *const (&Names)[N], std::uint64_t I) {
  if (I < N && Names[I])
    return Names[I];
  return std::to_string(I);
}
/// A name from a table's name function, or the number if there is none.
std::string nameOrNumber(const char *Name, std::uint64_t I) {
  return Name ? Name : std::to_string(I);
}

/// The flags of V as names joined by '|', unknown bits as one hex number.
struct Flag {
  std::uint64_t Bit;
  const char *Name;
};
template <std::size_t N>
std::string flagsText(const Flag (&Flags)[N], std::uint64_t V) {
  if (!V)
    return "0";
  std::string S;
  for (const Flag &F : Flags)
    if (V & F.Bit) {
      S += S.empty() ? "" : "|";
      S += F.Name;
      V &= ~F.Bit;
    }
  if (V) {
    char B[24];
    std::snprintf(B, sizeof B, "0x%" PRIx64, V);
    S += S.empty() ? "" : "|";
    S += B;
  }
  return S;
}

std::string hex(std::uint64_t V) {
  char B[24];
  std::snprintf(B, sizeof B, "0x%" PRIx64, V);
  return B;
}

// OMPT's names for its enumerations' values (omp-tools.h, without the
// ompt_<type>_ prefix); index = value.
const char *const ThreadTypes[] = {nullptr, "initial", "worker", "other"};
const char *const Statuses[] = {
    nullptr,         "complete",     "yield",  "cancel",           "detach",
    "early_fulfill", "late_fulfill", "switch", "taskwait_complete"};
const char *const DependenceTypes[] = {
    nullptr,         "in",     "out",  "inout",
    "mutexinoutset", "source", "sink", "inoutset"};
const char *const DispatchKinds[] = {nullptr,          "iteration",
                                     "section",        "ws_loop_chunk",
                                     "taskloop_chunk", "distribute_chunk"};
const char *const ClockPoints[] = {"init", "finalize"};
const char *const ControlCommands[] = {nullptr, "start", "pause", "flush",
                                       "end"};
const char *const ToolWorks[] = {nullptr, "flush"};
const char *const TargetKinds[] = {nullptr,
                                   "target",
                                   "enter_data",
                                   "exit_data",
                                   "update",
                                   nullptr,
                                   nullptr,
                                   nullptr,
                                   nullptr,
                                   "target_nowait",
                                   "enter_data_nowait",
                                   "exit_data_nowait",
                                   "update_nowait"};
const char *const DataOpKinds[] = {nullptr,
                                   "alloc",
                                   "transfer_to_device",
                                   "transfer_from_device",
                                   "delete",
                                   "associate",
                                   "disassociate",
                                   nullptr,
                                   nullptr,
                                   nullptr,
                                   nullptr,
                                   nullptr,
                                   nullptr,
                                   nullptr,
                                   nullptr,
                                   nullptr,
                                   nullptr,
                                   "alloc_async",
                                   "transfer_to_device_async",
                                   "transfer_from_device_async",
                                   "delete_async"};
const Flag TaskFlagNames[] = {{TaskInitial, "initial"},
                              {TaskImplicit, "implicit"},
                              {TaskExplicit, "explicit"},
                              {TaskTarget, "target"},
                              {TaskTaskwait, "taskwait"},
                              {TaskUndeferred, "undeferred"},
                              {TaskUntied, "untied"},
                              {TaskFinal, "final"},
                              {TaskMergeable, "mergeable"},
                              {TaskMerged, "merged"},
                              {TaskHasDependences, "has_dependences"},
                              {TaskIncluded, "included"}};
// ompt_cancel_flag_t.
const Flag CancelFlagNames[] = {{0x1, "parallel"},       {0x2, "sections"},
                                {0x4, "loop"},           {0x8, "taskgroup"},
                                {0x10, "activated"},     {0x20, "detected"},
                                {0x40, "discarded_task"}};

std::string codeText(std::uint64_t Code, const LabelFn &Label) {
  if (!Code)
    return "-";
  SourceLabel L = Label ? Label(Code) : SourceLabel{};
  if (!L.File.empty() && L.Line)
    return L.File + ":" + std::to_string(L.Line) + ":" + std::to_string(L.Col);
  if (!L.Location.empty())
    return L.Location;
  return hex(Code);
}

/// JSON: a field printed as a number stays one, the rest are strings.
bool isNumber(FieldFormat F) {
  return F == FieldFormat::Dec || F == FieldFormat::Signed ||
         F == FieldFormat::Id;
}

} // namespace

std::string fieldText(const FieldInfo &F, const Event &E,
                      const LabelFn &Label) {
  const std::uint64_t V = F.Get(E);
  switch (F.Format) {
  case FieldFormat::Dec:
  case FieldFormat::Id:
    return std::to_string(V);
  case FieldFormat::Signed:
    return std::to_string(std::int64_t(V));
  case FieldFormat::Hex:
    return hex(V);
  case FieldFormat::Code:
    return codeText(V, Label);
  case FieldFormat::ThreadType:
    return named(ThreadTypes, V);
  case FieldFormat::ParallelFlags:
    return V == 1 ? "league" : V == 0 ? "team" : std::to_string(V);
  case FieldFormat::TaskFlags:
    return flagsText(TaskFlagNames, V);
  case FieldFormat::ScheduleStatus:
    return named(Statuses, V);
  case FieldFormat::DependenceType:
    return named(DependenceTypes, V);
  case FieldFormat::SyncKind:
    return nameOrNumber(constructs::omptSyncName(V), V);
  case FieldFormat::WorkKind:
    return nameOrNumber(constructs::omptWorkName(V), V);
  case FieldFormat::MutexKind:
    return nameOrNumber(constructs::omptMutexName(V), V);
  case FieldFormat::CancelFlags:
    return flagsText(CancelFlagNames, V);
  case FieldFormat::DispatchKind:
    return named(DispatchKinds, V);
  case FieldFormat::MpiFunction:
    return mpi::functionName(mpi::Function(V));
  case FieldFormat::MpiCollectiveOp:
    if (const char *N = V < 256 ? mpi::collectiveOpName(mpi::CollectiveOp(V))
                                : nullptr)
      return N;
    return std::to_string(V);
  case FieldFormat::Rank:
    return V == mpi::NoRank ? "none" : std::to_string(V);
  case FieldFormat::Tag:
    return V == mpi::AnyTag ? "any" : std::to_string(V);
  case FieldFormat::ClockPoint:
    return named(ClockPoints, V);
  case FieldFormat::ControlCommand:
    return named(ControlCommands, V);
  case FieldFormat::ToolWork:
    return named(ToolWorks, V);
  case FieldFormat::TargetKind:
    return named(TargetKinds, V);
  case FieldFormat::DataOpKind:
    return named(DataOpKinds, V);
  case FieldFormat::Name: // the Printer gives the string when it has it
    return "#" + std::to_string(V);
  }
  return std::to_string(V);
}

bool parseKinds(const std::string &List, Options &O, std::string &Error) {
  O.Kinds.assign(KindSlots, false);
  std::stringstream SS(List);
  std::string Name;
  bool Any = false;
  while (std::getline(SS, Name, ',')) {
    if (Name.empty())
      continue;
    bool Found = false;
    for (std::size_t V = 1; V < KindSlots; ++V)
      if (kindInfo(EventKind(V)).Kind != EventKind::None &&
          Name == kindInfo(EventKind(V)).Name) {
        O.Kinds[V] = Found = Any = true;
      }
    if (!Found) {
      Error = "unknown event kind '" + Name + "' (see 'otter dump --kinds')";
      return false;
    }
  }
  if (!Any) {
    Error = "--kind needs at least one event kind";
    return false;
  }
  return true;
}

Printer::Printer(std::ostream &OS, LabelFn Label, Options O)
    : OS(OS), Label(std::move(Label)), O(std::move(O)) {}

void Printer::thread(std::uint32_t T) {
  Thread = T;
  if (!O.Json)
    OS << "thread " << T << '\n';
}

void Printer::event(const Event &E) {
  if (!O.Kinds.empty() &&
      (std::size_t(E.Kind) >= O.Kinds.size() || !O.Kinds[std::size_t(E.Kind)]))
    return;
  ++Printed;
  const KindInfo &I = kindInfo(E.Kind);
  if (O.Json) {
    OS << "{\"thread\":" << Thread;
    if (O.Time)
      OS << ",\"time\":" << E.Time;
    OS << ",\"kind\":" << jsonString(eventKindName(E.Kind));
    for (const FieldInfo *const *F = I.Fields; F && *F; ++F) {
      std::string V = text(**F, E);
      OS << ',' << jsonString((*F)->Label) << ':'
         << (isNumber((*F)->Format) ? V : jsonString(V));
    }
    OS << "}\n";
    return;
  }
  if (O.Time)
    OS << E.Time << ' ';
  OS << eventKindName(E.Kind);
  if (I.Kind == EventKind::None) // not a kind: what it carries, raw
    OS << " value=" << unsigned(E.Kind) << " task=" << E.Task << " a=" << E.A
       << " code=" << hex(E.Code) << " aux=" << E.Aux << " sub=" << E.Sub
       << " extra=" << E.Extra;
  for (const FieldInfo *const *F = I.Fields; F && *F; ++F)
    OS << ' ' << (*F)->Label << '=' << text(**F, E);
  OS << '\n';
}

std::string Printer::text(const FieldInfo &F, const Event &E) const {
  std::uint64_t V = F.Get(E);
  if (F.Format == FieldFormat::Name && V && V < O.Names.size())
    return '"' + O.Names[V] + '"';
  return fieldText(F, E, Label);
}

void listKinds(std::ostream &OS) {
  static const char *const Records[] = {"-",
                                        "Enter",
                                        "Leave",
                                        "Fork",
                                        "Join",
                                        "ThreadTaskCreate",
                                        "ThreadTaskSwitch",
                                        "Parameter",
                                        "MPI",
                                        "Parameter otter:event"};
  static const char *const Classes[] = {
      "thread", "implicit_task", "parallel",   "sync",       "sync_wait",
      "work",   "masked",        "mutex_wait", "mutex_held", "nest_lock",
      "task",   "site",          "mpi_call",   "phase",      "target"};
  static_assert(sizeof Classes / sizeof *Classes ==
                std::size_t(trace::RegionClass::Count));
  static const char *const Roles[] = {"none", "thread",     "task",
                                      "node", "dependence", "mpi"};
  for (std::size_t V = 1; V < KindSlots; ++V) {
    const KindInfo &I = kindInfo(EventKind(V));
    if (I.Kind == EventKind::None)
      continue;
    OS << I.Name << ':';
    for (const FieldInfo *const *F = I.Fields; *F; ++F)
      OS << ' ' << (*F)->Label;
    OS << " [" << Records[std::size_t(I.Record)];
    if (I.Record == Otf2Record::Enter || I.Record == Otf2Record::Leave)
      OS << ' ' << Classes[std::size_t(I.Class)];
    if (I.Record == Otf2Record::Param)
      OS << ' ' << trace::ParamNames[I.Param];
    OS << "; graph: " << Roles[std::size_t(I.Graph)] << "]\n";
  }
}

} // namespace otter::dump
