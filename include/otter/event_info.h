//===- otter/event_info.h - The event table, as data ------------*- C++ -*-===//
//
// otter/event_kinds.def as constexpr data, for the code that treats kinds
// generically: each kind's name, payload fields (label, format, value), the
// OTF2 record that stores it (runtime/lib/trace/codec.h) and its role in the
// graph. Lookups are constexpr and inline: the trace writer's per-kind
// encoders fold them away (see TraceWriter::Impl::encode).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_EVENT_INFO_H
#define OTTER_EVENT_INFO_H

#include "otter/events.h"

#include <cstddef>
#include <cstdint>

namespace otter {

namespace trace {
/// Region classes: what an Enter/Leave of a region of that class means.
/// Stored in the region's canonical name as "otter:<class>:<sub>": append
/// only, never renumber.
enum class RegionClass : std::uint8_t {
  Thread = 0,   // ThreadBegin / ThreadEnd, sub = thread type
  ImplicitTask, // ImplicitTaskBegin / End, sub = 1 initial, 0 implicit
  Parallel,     // decoration around ThreadFork/ThreadJoin
  Sync,         // SyncBegin / SyncEnd, sub = SyncKind
  SyncWait,     // SyncWaitBegin / SyncWaitEnd
  Work,         // WorkBegin / WorkEnd, sub = WorkKind
  Masked,       // MaskedBegin / MaskedEnd
  MutexWait,    // MutexAcquire / MutexAcquired, sub = MutexKind
  MutexHeld,    // (decoration) / MutexReleased
  NestLock,     // NestLockBegin / NestLockEnd
  Task,         // never entered: the task construct of TaskCreate sites
  Site,         // never entered: any other code address
  MpiCall,      // MpiCallBegin / MpiCallEnd, sub = otter::mpi::Function
  Phase,        // PhaseBegin / PhaseEnd, sub = the phase's name id
  Target,       // decoration around a target construct (TargetBegin /
                // TargetEnd) on its host thread, sub = TargetKind
  Count
};

/// Parameter definitions (ref = enum value) for the instantaneous events
/// that OTF2 has no native record for; the parameter's value is the
/// Event's A. The parameter rows of otter/event_kinds.def.
enum Param : std::uint32_t {
#define OTTER_TRACE_PARAM(P, Name) Param##P,
#include "otter/event_kinds.def"
  ParamCount
};
} // namespace trace

/// Groups of events, by the callbacks (or sources) that make them: what
/// OTTER_EVENTS selects kinds by (docs/env.md; event_kinds.def, Group;
/// names in core/filter.cpp).
enum class EventGroup : std::uint8_t {
  Threads,     // thread_begin, thread_end
  Parallel,    // parallel_begin, parallel_end, implicit_task
  Tasks,       // task_create, task_schedule
  Dependences, // dependences, task_dependence
  Sync,        // sync_region, sync_region_wait (barriers, taskwait,
               // taskgroup)
  Worksharing, // work (loops, sections, single, taskloop, ...)
  Masked,      // masked
  Mutex,       // mutex_acquire, mutex_acquired, mutex_released, nest_lock
               // (critical, locks, ordered, atomic)
  Cancel,      // cancel
  Mpi,         // the MPI wrapper library (otter/source.h)
  Control,     // control_tool (omp_control_tool: pause, start, flush, end;
               // the program's annotations, otter/otter.h)
  Target,      // target_emi, target_data_op_emi, target_submit_emi,
               // device_initialize, device_load (offload: docs/offload.md)
  Other,       // a kind whose OTF2 record names no group (none today)
  Count
};

/// The OTF2 record an event is stored as (event_kinds.def, Record).
enum class Otf2Record : std::uint8_t {
  None, // not a kind
  Enter,
  Leave,
  Fork,
  Join,
  Create,
  Switch,
  Param,
  Mpi,
  Generic, // the otter:event parameter (value: the kind), fields as attributes
};

/// What the graph builder reads an event for (event_kinds.def, Graph).
enum class GraphRole : std::uint8_t {
  None,
  Thread,
  Task,
  Node,
  Dependence,
  Mpi
};

/// How `otter dump` prints a field (utils/otter/dump.cpp).
enum class FieldFormat : std::uint8_t {
  Dec,
  Signed,
  Hex,
  Id,   // a task or parallel id
  Code, // a code address: its source label
  ThreadType,
  ParallelFlags,
  TaskFlags,
  ScheduleStatus,
  DependenceType,
  SyncKind,
  WorkKind,
  MutexKind,
  CancelFlags,
  DispatchKind,
  MpiFunction,
  MpiCollectiveOp,
  Rank, // NoRank: none
  Tag,  // AnyTag: any
  ClockPoint,
  ControlCommand,
  ToolWork,
  Name, // a name id: its string where the name table is known
  TargetKind,
  DataOpKind,
};

/// A payload field of one or more kinds.
struct FieldInfo {
  const char *Name;  // Event's accessor
  const char *Label; // in `otter dump` and docs/trace.md
  FieldFormat Format;
  std::uint64_t (*Get)(const Event &); // the value, widened (signed: cast)
};

namespace detail {
#define OTTER_EVENT_FIELD(Name, Label, Slot, Type, Format)                     \
  inline constexpr FieldInfo Field_##Name = {                                  \
      #Name, Label, FieldFormat::Format,                                       \
      [](const Event &E) { return std::uint64_t(E.Name()); }};
#include "otter/event_kinds.def"

#define OTTER_EVENT_FIELD_REF(Name) &Field_##Name,
#define OTTER_EVENT(Kind, Value, Ctor, Name, Record, Graph, Group, ...)        \
  inline constexpr const FieldInfo *Fields_##Kind[] = {OTTER_PP_FOR_EACH(      \
      OTTER_EVENT_FIELD_REF __VA_OPT__(, ) __VA_ARGS__) nullptr};
#include "otter/event_kinds.def"
#undef OTTER_EVENT_FIELD_REF
} // namespace detail

/// Everything the table says about one kind.
struct KindInfo {
  EventKind Kind = EventKind::None;
  const char *Name = "unknown";
  Otf2Record Record = Otf2Record::None;
  trace::RegionClass Class = trace::RegionClass::Count; // Enter, Leave
  bool SubInRegion = false;               // Enter, Leave: the region's sub
                                          // is the event's Sub
  trace::Param Param = trace::ParamEvent; // Param
  GraphRole Graph = GraphRole::None;
  EventGroup Group = EventGroup::Other;
  const FieldInfo *const *Fields = nullptr; // null-terminated, in the
                                            // constructor's order
};

/// Kind values fit in this many slots (the trace codec's tables).
inline constexpr std::size_t KindSlots = 64;
static_assert(std::size_t(EventKind::LastKind) < KindSlots);

namespace detail {
#define REC_ENTER(C, S)                                                        \
  Otf2Record::Enter, trace::RegionClass::C, S, trace::ParamEvent
#define REC_LEAVE(C, S)                                                        \
  Otf2Record::Leave, trace::RegionClass::C, S, trace::ParamEvent
#define REC_PLAIN(R)                                                           \
  Otf2Record::R, trace::RegionClass::Count, false, trace::ParamEvent
#define REC_FORK REC_PLAIN(Fork)
#define REC_JOIN REC_PLAIN(Join)
#define REC_CREATE REC_PLAIN(Create)
#define REC_SWITCH REC_PLAIN(Switch)
#define REC_MPI REC_PLAIN(Mpi)
#define REC_GENERIC REC_PLAIN(Generic)
#define REC_PARAM(P)                                                           \
  Otf2Record::Param, trace::RegionClass::Count, false, trace::Param##P
#define SUB_IN_REGION true
#define NO_SUB false
struct KindTable {
  KindInfo Info[KindSlots];
  bool Valid = true; // every value below KindSlots, none twice
  constexpr KindTable() {
#define OTTER_EVENT(K, Value, Ctor, Name, Record, Graph, Group, ...)           \
  if (Value <= 0 || Value >= KindSlots || Info[Value].Kind != EventKind::None) \
    Valid = false;                                                             \
  else                                                                         \
    Info[Value] = {EventKind::K,     Name,                                     \
                   Record,           GraphRole::Graph,                         \
                   EventGroup::Group, Fields_##K};
#include "otter/event_kinds.def"
  }
};
#undef REC_ENTER
#undef REC_LEAVE
#undef REC_PLAIN
#undef REC_FORK
#undef REC_JOIN
#undef REC_CREATE
#undef REC_SWITCH
#undef REC_MPI
#undef REC_GENERIC
#undef REC_PARAM
#undef SUB_IN_REGION
#undef NO_SUB
inline constexpr KindTable Kinds;
static_assert(Kinds.Valid, "event_kinds.def: a value is 0, >= KindSlots or "
                           "used twice");
} // namespace detail

/// The row of kind K (a blank "unknown" one for a value that is no kind).
constexpr const KindInfo &kindInfo(EventKind K) {
  return detail::Kinds.Info[std::size_t(K) < KindSlots ? std::size_t(K) : 0];
}

/// "task_create", ...; "unknown" for a value that is no kind.
constexpr const char *eventKindName(EventKind K) {
  return K == EventKind::None ? "none" : kindInfo(K).Name;
}

/// The kinds whose Code is a code address (not MPI payload: otter/mpi.h).
constexpr bool codeIsAddress(EventKind K) {
  return kindInfo(K).Record != Otf2Record::Mpi;
}

namespace detail {
/// The table inverted, for the trace reader: the kind of each region class's
/// Enter and Leave, and of each parameter.
struct RecordKinds {
  EventKind Region[std::size_t(trace::RegionClass::Count)][2] = {};
  EventKind Param[trace::ParamCount] = {};
  bool Valid = true; // no two kinds share a record
  constexpr RecordKinds() {
    auto claim = [&](EventKind &Slot, EventKind K) {
      if (Slot != EventKind::None)
        Valid = false;
      Slot = K;
    };
    for (const KindInfo &I : Kinds.Info) {
      if (I.Record == Otf2Record::Enter || I.Record == Otf2Record::Leave) {
        if (I.Class >= trace::RegionClass::Count)
          Valid = false;
        else
          claim(Region[std::size_t(I.Class)][I.Record == Otf2Record::Enter],
                I.Kind);
      }
      if (I.Record == Otf2Record::Param) {
        if (I.Param == trace::ParamEvent || I.Param >= trace::ParamCount)
          Valid = false;
        else
          claim(Param[I.Param], I.Kind);
      }
    }
  }
};
inline constexpr RecordKinds ByRecord;
static_assert(ByRecord.Valid, "event_kinds.def: two kinds share an OTF2 "
                              "region class and direction, or a parameter");
} // namespace detail

/// The kind an Enter (or Leave) of a region of class C stands for; None for
/// a decoration.
constexpr EventKind regionKind(trace::RegionClass C, bool Enter) {
  return std::size_t(C) < std::size_t(trace::RegionClass::Count)
             ? detail::ByRecord.Region[std::size_t(C)][Enter]
             : EventKind::None;
}

/// The kind a parameter event of P stands for (None for ParamEvent: its
/// value is the kind).
constexpr EventKind paramKind(trace::Param P) {
  return P < trace::ParamCount ? detail::ByRecord.Param[P] : EventKind::None;
}

} // namespace otter

#endif // OTTER_EVENT_INFO_H
