//===- trace/writer_encode.cpp - Events to OTF2 records -------------------===//
//
// The trace writer's hot path: each event of a flushed buffer becomes its
// OTF2 record(s) in its thread's event writer (codec.h: the encoding; the
// hot records written in place, otf2_direct.h), with the code addresses
// and regions it names interned in the writer's tables. Keeps every
// location's Enter/Leave records nested ("Balanced regions" in
// writer_close.cpp). MPI events: writer_mpi.cpp. Part of the trace writer
// (writer_impl.h).
//
//===----------------------------------------------------------------------===//
#include "otter/mpi.h"
#include "trace/errors.h"
#include "trace/writer_impl.h"

#include <otf2/otf2.h>

#include <atomic>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace otter::trace {


// The code addresses and regions a location names, from its own cache (a
// miss: newCodeId, newRegion in writer_defs.cpp, under the writer's lock).
inline std::uint32_t TraceWriter::Impl::codeId(Location &L,
                                               std::uint64_t Code) {
  if (!Code)
    return 0;
  std::size_t S = mixSlot(Code);
  if (L.CodeKeys[S] == Code) [[likely]]
    return L.CodeVals[S];
  return newCodeId(L, Code);
}

inline std::uint32_t TraceWriter::Impl::region(Location &L, RegionClass C,
                                               std::uint16_t Sub,
                                               std::uint32_t Code) {
  std::uint64_t K = (std::uint64_t(Code) << 24) |
                    (std::uint64_t(C) << 16) | Sub;
  std::size_t S = mixSlot(K + 1);
  if (L.RegionKeys[S] == K + 1) [[likely]]
    return L.RegionVals[S];
  return newRegion(L, C, Sub, Code);
}

/// The body region of a task created at code address Code (a
/// TaskSchedule's Code, which the runtime sets to the next task's
/// construct; 0: unknown, the unnamed `task` region).
[[gnu::always_inline]] inline std::uint32_t
TraceWriter::Impl::taskBodyRegion(Location &L, std::uint64_t Code) {
  return region(L, RegionClass::Task, 0, codeId(L, Code));
}

void TraceWriter::consume(const ThreadInfo &T, const Event *Events,
                          std::size_t N) {
  write(T.Index, T.Type, Events, N);
}

/// encode() out of line, for the buffers written with samples
/// (writer_samples.cpp).
void TraceWriter::Impl::encodeOne(Location &L, const Event &E) {
  encode(L, E);
}

bool TraceWriter::takesTicks() const { return !P->Opt.Ticks.identity(); }

void TraceWriter::write(std::uint32_t Index, std::uint32_t Type,
                        const Event *Events, std::size_t N) {
  std::size_t Done = 0;
  try {
    // No lock shared with other threads here, but for a location's first
    // buffer and the first use of a code address or region.
    Location *L = Index < Impl::FastLocs
                      ? P->LocFast[Index].load(std::memory_order_acquire)
                      : nullptr;
    if (!L && !(L = P->location(Index, Type)))
      return;
    std::lock_guard<std::mutex> G(L->M);
    if (L->Closed || L->Failed)
      return; // (after a failed write: dropped, see writeFailed)
    if (P->Full.load(std::memory_order_relaxed)) [[unlikely]]
      return; // past the size limit (writer_disk.cpp, countBytes)
    // The OTF2 buffer's state in the location for this buffer's records
    // (otf2_direct.h), given back before the lock is released.
    struct Taken {
      Otf2Direct &D;
      ~Taken() { D.end(); }
    } Take{L->D};
    L->D.begin();
    if (N && L->MinT.load(std::memory_order_relaxed) == ~0ull)
      L->MinT.store(P->Opt.Ticks.toNs(Events[0].Time),
                    std::memory_order_relaxed);
    // The writer's state through a local pointer: the encoder's stores
    // would otherwise make the compiler reload it for every event.
    Impl *const I = P.get();
    L->BufEnd = Events + N;
    if (L->TryOpen && N) [[unlikely]] {
      // The last buffer ended with an omp_test_lock attempt: its outcome
      // is this buffer's first event (writer_close.cpp).
      L->TryOpen = false;
      I->testLockTried(*L, Events);
    }
    for (; Done < N; ++Done)
      I->encode(*L, Events[Done]);
    L->Events += N;
    if (I->Opt.MaxBytes)
      I->countBytes(*L);
  } catch (...) {
    // Out of memory (the tables of code addresses and regions grow, a new
    // location): the rest of this buffer is lost, the application runs on.
    // Counted, and reported once when the trace is closed (as the graph
    // sink reports its own).
    std::lock_guard<std::mutex> G(P->M);
    P->EventCount += Done;
    P->DroppedEvents += N - Done;
  }
}

/// OTF2 could not write a full chunk of this location out (the disk is
/// full, or the file system failed). The application must run on as if
/// nothing happened: the location takes no more events (each would retry
/// the failing write), and close() reports the trace incomplete. What was
/// written before stays readable (see "Surviving SIGKILL" in writer_disk.cpp).
[[gnu::noinline, gnu::cold]] void TraceWriter::Impl::writeFailed(Location &L) {
  L.Failed = true;
  std::lock_guard<std::mutex> G(M);
  if (WriteError.empty())
    WriteError = "thread " + std::to_string(L.Index) + ": " + lastOtf2Error();
  cutBackToDisk(L);
}

/// The location's attribute list holding the fields in Miss (a bit per
/// Attr): out of line, as it is rare.
[[gnu::noinline, gnu::cold]] OTF2_AttributeList *
TraceWriter::Impl::attributes(Location &L, unsigned Miss, const Event &Ev,
                              std::uint32_t Code) {
  OTF2_AttributeList *AL = L.Attrs;
  if (Miss & 1u << AttrTask)
    OTF2_AttributeList_AddUint64(AL, AttrTask, Ev.Task);
  if (Miss & 1u << AttrSeq)
    OTF2_AttributeList_AddUint32(AL, AttrSeq, Ev.Seq);
  if (Miss & 1u << AttrA)
    OTF2_AttributeList_AddUint64(AL, AttrA, Ev.A);
  if (Miss & 1u << AttrCode)
    OTF2_AttributeList_AddUint32(AL, AttrCode, Code);
  if (Miss & 1u << AttrAux)
    OTF2_AttributeList_AddUint32(AL, AttrAux, Ev.Aux);
  if (Miss & 1u << AttrSub)
    OTF2_AttributeList_AddUint32(AL, AttrSub, Ev.Sub);
  if (Miss & 1u << AttrExtra)
    OTF2_AttributeList_AddUint32(AL, AttrExtra, Ev.Extra);
  ++L.AttrEvents;
  return AL;
}

/// What encodeAs() writes for one event: its primary record and what it
/// carries, chosen by choosePrimary() and written by writePrimary().
struct TraceWriter::Impl::Primary {
  enum { Enter, Leave, Fork, Join, Create, Switch, Param } Record;
  std::uint32_t Region = 0, Th = 0, Gen = 0, ParamRef = 0;
  RegionClass RClass = RegionClass::Count; // Region's class and sub
  std::uint16_t RSub = 0;
  std::uint64_t ParamVal = 0;
  bool StartBody = false;
  // A task switch's records before its ThreadTaskSwitch, written with it
  // (Switch below): the Leave of the prior task's body region, its
  // ThreadTaskComplete.
  bool LeaveBody = false, SwitchComplete = false;
  std::uint32_t BodyRegion = 0, CTh = 0, CGen = 0;

  /// The event as the generic otter:event parameter (value: its kind).
  void asEventParam(EventKind K) {
    ParamRef = ParamEvent;
    ParamVal = std::uint64_t(K);
    Record = Param;
  }
};

/// Encodes one event as its primary OTF2 record (plus decorations), with
/// attributes for the fields the prediction gets wrong. `K` is `Ev.Kind`;
/// encode() calls this with constant kinds for the events of steady task
/// streams (create, schedule, taskwait), so that the compiler folds every
/// test of the kind here and in the Predictor away -- one source, a lean
/// instance per hot kind (the helpers below are inlined into it).
[[gnu::always_inline]] inline void
TraceWriter::Impl::encodeAs(Location &L, const Event &Ev, const EventKind K,
                            const int KnownStatus) {
  // A TaskSchedule's Code is no field of the kind (the predictor sees 0):
  // the runtime puts the next task's construct there, for its body region.
  const std::uint32_t Code =
      K == EventKind::TaskSchedule ? 0 : codeId(L, Ev.Code);
  // The time in ns (converted here, not in a pass of the recorder's over
  // the buffer). OTF2 refuses a timestamp older than the location's last
  // one (and drops the record): a counter read on another core may lag by
  // a few ticks.
  const std::uint64_t Time = Opt.Ticks.toNs(Ev.Time);
  const std::uint64_t Latest = L.LastT.load(std::memory_order_relaxed);
  const OTF2_TimeStamp T = Time > Latest ? Time : Latest;
  L.LastT.store(T, std::memory_order_relaxed);
  Native N;
  N.Kind = K;
  N.Time = Time;

  Primary P;
  choosePrimary(L, Ev, K, KnownStatus, Code, T, N, P);

  // Attributes for what the prediction gets wrong.
  OTF2_AttributeList *AL = nullptr;
  if (unsigned Miss = L.P.check(N, Ev, Code)) [[unlikely]]
    AL = attributes(L, Miss, Ev, Code);

  writePrimary(L, Ev, Code, T, AL, P);
  writeDecorations(L, Ev, K, Code, T, P);
}

//===----------------------------------------------------------------------===//
// Choosing the primary record.
//===----------------------------------------------------------------------===//

/// The primary record of Ev (kind K) into P, and what it carries natively
/// into N; opens or closes the region it enters or leaves on L's stack.
[[gnu::always_inline]] inline void TraceWriter::Impl::choosePrimary(
    Location &L, const Event &Ev, const EventKind K, const int KnownStatus,
    const std::uint32_t Code, const OTF2_TimeStamp T, Native &N,
    Primary &P) {
  // A Leave closes the innermost open region, or it is not written as one
  // (see "Balanced regions", writer_close.cpp): false then.
  auto leaveRegion = [&](RegionClass C) __attribute__((always_inline)) {
    if ((!L.Stack.empty() && L.Stack.back().Class == C) ||
        leaveMismatched(L, C, T)) [[likely]] {
      P.Region = L.Stack.back().Region;
      P.RSub = L.Stack.back().Sub;
      P.RClass = C;
      L.Stack.pop_back();
      return true;
    }
    return false;
  };
  // The event table (otter/event_kinds.def) gives the record; the cases
  // below add what some kinds need beyond it. K is a constant in the hot
  // encoders (see encode()): the lookups fold away.
  const KindInfo &Info = kindInfo(K);
  auto subFromRegion = [&]() __attribute__((always_inline)) {
    if (Info.SubInRegion) {
      N.HasSub = true;
      N.Sub = P.RSub;
    }
  };

  switch (Info.Record) {
  case Otf2Record::Enter: {
    std::uint16_t Sub = Ev.Sub;
    if (K == EventKind::ThreadBegin)
      L.Type = Ev.Sub;
    if (K == EventKind::ImplicitTaskBegin) {
      if (!(Ev.Extra & TaskInitial))
        viaOtf2(L, [&] {
          return OTF2_EvtWriter_ThreadTeamBegin(L.W, nullptr, T, TeamComm);
        });
      Sub = (Ev.Extra & TaskInitial) ? 1 : 0;
      if (L.RunN < Location::RunningCapacity)
        L.Running[L.RunN++] = Ev.Task;
    }
    // A nest lock the task already owns is acquired again with no
    // mutex_acquired (libomp reports nest_lock_begin instead), and a region
    // of its wait would never be left: that wait is a parameter, as is any
    // region past the open-region capacity (see "Balanced regions").
    if ((K == EventKind::MutexAcquire &&
         (Ev.Sub == std::uint16_t(MutexKind::NestLock) ||
          Ev.Sub == std::uint16_t(MutexKind::TestNestLock))) ||
        L.Stack.Size == Location::OpenStack::Capacity) [[unlikely]] {
      P.asEventParam(K);
      break;
    }
    enterRegion(L, Info.Class, Sub, Code, P);
    subFromRegion();
    P.Record = Primary::Enter;
    break;
  }
  case Otf2Record::Leave:
    if (K == EventKind::ImplicitTaskEnd && L.RunN &&
        L.Running[L.RunN - 1] == Ev.Task)
      --L.RunN;
    if (leaveRegion(Info.Class)) [[likely]] {
      subFromRegion();
      P.Record = Primary::Leave;
    } else {
      // No open region of its class to close: the event as a parameter
      // (read back the same), so that the location stays balanced.
      P.asEventParam(K);
    }
    break;
  case Otf2Record::Fork:
    N.HasAux = true;
    N.Aux = Ev.Aux;
    P.Record = Primary::Fork;
    break;
  case Otf2Record::Join:
    P.Record = Primary::Join;
    break;
  case Otf2Record::Create:
    N.HasA = true;
    N.A = idToPair(Ev.A, P.Th, P.Gen);
    if (Code && (Code >= L.TaskSiteNamed.size() || !L.TaskSiteNamed[Code])) {
      // Name the task construct (a region of role TASK) once per site.
      region(L, RegionClass::Task, 0, Code);
      if (Code >= L.TaskSiteNamed.size())
        L.TaskSiteNamed.resize(Code + 64, 0);
      L.TaskSiteNamed[Code] = 1;
    }
    P.Record = Primary::Create;
    break;
  case Otf2Record::Switch:
    chooseSwitch(L, Ev, KnownStatus, N, P);
    break;
  case Otf2Record::Param:
    P.ParamRef = Info.Param;
    P.ParamVal = Ev.A;
    N.HasA = true;
    N.A = Ev.A;
    P.Record = Primary::Param;
    break;
  default: // not a kind (MPI kinds go to encodeMpi)
    P.asEventParam(K);
    break;
  }
}

/// Enters a region of class C (sub Sub, at Code) on L's stack: P's region.
[[gnu::always_inline]] inline void
TraceWriter::Impl::enterRegion(Location &L, RegionClass C, std::uint16_t Sub,
                               std::uint32_t Code, Primary &P) {
  P.Region = region(L, C, Sub, Code);
  P.RClass = C;
  P.RSub = Sub;
  L.Stack.push({P.Region, C, Sub});
}

/// A task switch (ThreadTaskSwitch), with the task bodies it ends and
/// begins (see "Task bodies", writer_close.cpp).
[[gnu::always_inline]] inline void
TraceWriter::Impl::chooseSwitch(Location &L, const Event &Ev,
                                const int KnownStatus, Native &N, Primary &P) {
  // The schedule status: Ev.Sub, or a constant where encode() knows it
  // (a completion), which folds the tests below away.
  const std::uint16_t St =
      KnownStatus >= 0 ? std::uint16_t(KnownStatus) : Ev.Sub;
  bool Complete = St == std::uint16_t(ScheduleStatus::Complete) ||
                  St == std::uint16_t(ScheduleStatus::Cancel);
  // The prior task's body region ends when its body did, or when the
  // thread goes back to the task it was running before (an untied task's
  // part); the next task's begins when it starts here.
  const bool Resume = L.RunN >= 2 && L.Running[L.RunN - 2] == Ev.A;
  const bool BodyEnds = Complete ||
                        St == std::uint16_t(ScheduleStatus::Detach) ||
                        St == std::uint16_t(ScheduleStatus::EarlyFulfill);
  if ((BodyEnds || Resume) && L.RunN && L.Running[L.RunN - 1] == Ev.Task &&
      !L.Stack.empty() && L.Stack.back().Class == RegionClass::Task) {
    P.LeaveBody = true;
    P.BodyRegion = L.Stack.back().Region;
    L.Stack.pop_back();
    --L.RunN;
  }
  P.StartBody = !Resume &&
                (St == std::uint16_t(ScheduleStatus::Switch) ||
                 St == std::uint16_t(ScheduleStatus::Yield)) &&
                L.RunN < Location::RunningCapacity &&
                L.Stack.Size < Location::OpenStack::Capacity;
  if (Complete) {
    N.HasTask = true;
    N.Task = idToPair(Ev.Task, P.CTh, P.CGen);
    P.SwitchComplete = true;
  }
  N.HasA = true;
  N.A = idToPair(Ev.A, P.Th, P.Gen);
  N.HasSub = true;
  N.Sub = Complete ? 1 : 7;
  P.Record = Primary::Switch;
}

//===----------------------------------------------------------------------===//
// Writing the records.
//===----------------------------------------------------------------------===//

/// P's record, with the attribute list AL (null: none). A record fails
/// when OTF2 cannot write a full chunk out (disk full): see write() and
/// close().
[[gnu::always_inline]] inline void
TraceWriter::Impl::writePrimary(Location &L, const Event &Ev,
                                const std::uint32_t Code,
                                const OTF2_TimeStamp T, OTF2_AttributeList *AL,
                                const Primary &P) {
  OTF2_EvtWriter *W = L.W;
  OTF2_ErrorCode Status = OTF2_SUCCESS;
  switch (P.Record) {
  case Primary::Enter:
    Status = AL ? viaOtf2(L,
                          [&] {
                            return OTF2_EvtWriter_Enter(W, AL, T, P.Region);
                          })
                : writeEnter(L, T, P.Region);
    break;
  case Primary::Leave:
    Status = AL ? viaOtf2(L,
                          [&] {
                            return OTF2_EvtWriter_Leave(W, AL, T, P.Region);
                          })
                : writeLeave(L, T, P.Region);
    break;
  case Primary::Fork: {
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadFork(W, AL, T, OTF2_PARADIGM_OPENMP, Ev.Aux);
    });
    std::uint32_t R = region(L, RegionClass::Parallel, 0, Code);
    L.Stack.push({R, RegionClass::Parallel, 0});
    writeEnter(L, T, R);
    break;
  }
  case Primary::Join: {
    if ((!L.Stack.empty() && L.Stack.back().Class == RegionClass::Parallel) ||
        leaveMismatched(L, RegionClass::Parallel, T)) {
      writeLeave(L, T, L.Stack.back().Region);
      L.Stack.pop_back();
    }
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadJoin(W, AL, T, OTF2_PARADIGM_OPENMP);
    });
    break;
  }
  case Primary::Create:
    Status = AL ? viaOtf2(L,
                          [&] {
                            return OTF2_EvtWriter_ThreadTaskCreate(
                                W, AL, T, TeamComm, P.Th, P.Gen);
                          })
                : writeTask(L, Otf2Direct::TaskCreate, T, P.Th, P.Gen);
    break;
  case Primary::Switch:
    Status = writeSwitch(L, Ev, T, AL, P);
    break;
  case Primary::Param:
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_ParameterUnsignedInt(W, AL, T, P.ParamRef,
                                                 P.ParamVal);
    });
    break;
  }
  if (Status != OTF2_SUCCESS) [[unlikely]]
    writeFailed(L);
}

/// [Leave body] [ThreadTaskComplete] ThreadTaskSwitch [Enter body], all at
/// T: in place in one go when they can be (otf2_direct.h).
[[gnu::always_inline]] inline OTF2_ErrorCode
TraceWriter::Impl::writeSwitch(Location &L, const Event &Ev,
                               const OTF2_TimeStamp T, OTF2_AttributeList *AL,
                               const Primary &P) {
  OTF2_ErrorCode Status = OTF2_SUCCESS;
  const std::uint32_t R = P.StartBody ? taskBodyRegion(L, Ev.Code) : 0;
  unsigned char *C, *Pos = AL ? nullptr : L.D.open(T, C);
  if (Pos) [[likely]] {
    if (P.LeaveBody)
      Pos = Otf2Direct::putRegion(Pos, Otf2Direct::Leave, P.BodyRegion);
    if (P.SwitchComplete)
      Pos = Otf2Direct::putTask(Pos, Otf2Direct::TaskComplete, TeamComm, P.CTh,
                                P.CGen);
    Pos =
        Otf2Direct::putTask(Pos, Otf2Direct::TaskSwitch, TeamComm, P.Th, P.Gen);
    if (P.StartBody)
      Pos = Otf2Direct::putRegion(Pos, Otf2Direct::Enter, R);
    L.D.close(C, Pos, 1 + P.LeaveBody + P.SwitchComplete + P.StartBody);
  } else {
    if (P.LeaveBody)
      writeLeave(L, T, P.BodyRegion);
    if (P.SwitchComplete && writeTask(L, Otf2Direct::TaskComplete, T, P.CTh,
                                      P.CGen) != OTF2_SUCCESS) [[unlikely]]
      writeFailed(L);
    Status = AL ? viaOtf2(L,
                          [&] {
                            return OTF2_EvtWriter_ThreadTaskSwitch(
                                L.W, AL, T, TeamComm, P.Th, P.Gen);
                          })
                : writeTask(L, Otf2Direct::TaskSwitch, T, P.Th, P.Gen);
    if (P.StartBody)
      writeEnter(L, T, R);
  }
  if (P.StartBody) {
    L.Stack.push({R, RegionClass::Task, 0});
    L.Running[L.RunN++] = Ev.A;
  }
  return Status;
}

/// The records after the primary one: a team's end, a lock's acquisition
/// and the region of its holding, its release.
[[gnu::always_inline]] inline void
TraceWriter::Impl::writeDecorations(Location &L, const Event &Ev,
                                    const EventKind K, const std::uint32_t Code,
                                    const OTF2_TimeStamp T, Primary &P) {
  OTF2_EvtWriter *W = L.W;
  if (K == EventKind::ImplicitTaskEnd &&
      P.RClass == RegionClass::ImplicitTask && P.RSub == 0)
    viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadTeamEnd(W, nullptr, T, TeamComm);
    });
  if (K == EventKind::MutexAcquired) {
    viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadAcquireLock(
          W, nullptr, T, OTF2_PARADIGM_OPENMP,
          std::uint32_t(Ev.A ^ (Ev.A >> 32)), ++L.LockOrder);
    });
    enterRegion(L, RegionClass::MutexHeld, Ev.Sub, Code, P);
    writeEnter(L, T, P.Region);
  }
  if (K == EventKind::MutexReleased)
    viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadReleaseLock(
          W, nullptr, T, OTF2_PARADIGM_OPENMP,
          std::uint32_t(Ev.A ^ (Ev.A >> 32)), L.LockOrder);
    });
}

/// Any event kind (the rare ones), out of line.
[[gnu::noinline]] void TraceWriter::Impl::encodeAny(Location &L,
                                                    const Event &Ev) {
  // Rare kinds: through OTF2's calls (its buffer state given back).
  const bool Taken = L.D.end();
  if (!codeIsAddress(Ev.Kind)) [[unlikely]]
    encodeMpi(L, Ev);
  else
    encodeAs(L, Ev, Ev.Kind);
  // A failed omp_test_lock has no end of its own (writer_close.cpp).
  if (Ev.Kind == EventKind::MutexAcquire &&
      Ev.Sub == std::uint16_t(MutexKind::TestLock)) [[unlikely]]
    testLockTried(L, &Ev + 1);
  if (Taken)
    L.D.begin();
}

[[gnu::always_inline]] inline void
TraceWriter::Impl::encode(Location &L, const Event &Ev) {
  // Task switches first: a completion per task, and on more than one
  // thread the switches to deferred tasks.
  if (Ev.Kind == EventKind::TaskSchedule) [[likely]] {
    // A completion (one per task), on an instance of its own.
    if (Ev.Sub == std::uint16_t(ScheduleStatus::Complete))
      return encodeAs(L, Ev, EventKind::TaskSchedule,
                      int(ScheduleStatus::Complete));
    return encodeAs(L, Ev, EventKind::TaskSchedule);
  }
  switch (Ev.Kind) {
  case EventKind::TaskCreate:
    // A creation with the switch to the new task folded in (otter/events.h):
    // both events' records, as if recorded apart.
    if (Ev.Extra & CreateSwitchFolded) [[likely]]
      return encodeCreateSwitch(L, Ev);
    return encodeAs(L, Ev, EventKind::TaskCreate);
  case EventKind::SyncBegin:
    // An empty taskwait: its end folded into its begin (otter/events.h).
    if (Ev.Extra & SyncWaitEndFolded) [[likely]]
      return encodeSyncWithEnd(L, Ev);
    return encodeAs(L, Ev, EventKind::SyncBegin);
  case EventKind::SyncEnd:
    // A region whose wait was entered on its own (a taskgroup's, at its
    // end) but ends with it: both Leaves, innermost first.
    if ((Ev.Extra & SyncWaitFolded) && !L.Stack.empty() &&
        L.Stack.back().Class == RegionClass::SyncWait) [[unlikely]]
      return encodeSplitEnd(L, Ev);
    return encodeAs(L, Ev, EventKind::SyncEnd);
  default:
    if (Ev.Kind >= EventKind::TargetBegin &&
        Ev.Kind <= EventKind::TargetSubmitEnd) [[unlikely]]
      return encodeTarget(L, Ev);
    return encodeAny(L, Ev);
  }
}

/// A target construct's event: its record (a parameter otter:event, as any
/// rare kind), the construct's region on the host thread around it
/// (entered after its begin, left before its end: it encloses the thread's
/// wait for the device; a decoration OTTER's reader skips), and its spans
/// on the device (writer_device.cpp).
[[gnu::noinline]] void TraceWriter::Impl::encodeTarget(Location &L,
                                                       const Event &Ev) {
  const bool Taken = L.D.end();
  const std::uint32_t Code = codeId(L, Ev.Code);
  OTF2_ErrorCode Err = OTF2_SUCCESS;
  if (Ev.Kind == EventKind::TargetEnd && !L.Stack.empty() &&
      L.Stack.back().Class == RegionClass::Target) {
    const std::uint64_t Time = Opt.Ticks.toNs(Ev.Time);
    const std::uint64_t Latest = L.LastT.load(std::memory_order_relaxed);
    const OTF2_TimeStamp T = Time > Latest ? Time : Latest;
    L.LastT.store(T, std::memory_order_relaxed);
    Err = OTF2_EvtWriter_Leave(L.W, nullptr, T, L.Stack.back().Region);
    L.Stack.pop_back();
  }
  encodeAs(L, Ev, Ev.Kind);
  if (Ev.Kind == EventKind::TargetBegin && Err == OTF2_SUCCESS && !L.Failed &&
      L.Stack.Size < Location::OpenStack::Capacity) {
    const std::uint32_t R = region(L, RegionClass::Target, Ev.Sub, Code);
    Err = OTF2_EvtWriter_Enter(L.W, nullptr,
                               L.LastT.load(std::memory_order_relaxed), R);
    L.Stack.push({R, RegionClass::Target, Ev.Sub});
  }
  if (Err != OTF2_SUCCESS)
    writeFailed(L);
  noteDevice(L, Ev, Code);
  if (Taken)
    L.D.begin();
}

/// A TaskCreate with the switch to the new task folded in (otter/events.h):
/// the records of both events, exactly as encodeAs() writes them one after
/// the other (ThreadTaskCreate; ThreadTaskSwitch and the Enter of the new
/// task's body), in one pass. What the switch's encoding would look up or
/// predict follows from the creation's here: its task is the creator, its
/// sequence number the creator's next, its ids the child's (the same pair),
/// its body region the creation's construct's (the region encodeAs names
/// at a task's first creation: made here by the same lookup), and a task
/// that was just created is not one the thread is running (no Resume).
/// Anything else -- a misprediction, an open-region or running-task stack
/// at capacity -- writes the two apart (createSwitchApart).
[[gnu::always_inline]] inline void
TraceWriter::Impl::encodeCreateSwitch(Location &L, const Event &Ev) {
  const std::uint32_t Code = codeId(L, Ev.Code);
  // Both times as encodeAs() converts and clamps them, one after the other.
  const std::uint64_t Time = Opt.Ticks.toNs(Ev.Time);
  const std::uint64_t Latest = L.LastT.load(std::memory_order_relaxed);
  const OTF2_TimeStamp T1 = Time > Latest ? Time : Latest;
  const std::uint64_t Time2 = Opt.Ticks.toNs(Ev.Time + (Ev.Extra >> 1));
  const OTF2_TimeStamp T2 = Time2 > T1 ? Time2 : T1;
  Native N;
  N.Kind = EventKind::TaskCreate;
  N.Time = Time;
  N.HasA = true;
  std::uint32_t Th, Gen;
  N.A = idToPair(Ev.A, Th, Gen);
  const unsigned Miss = L.P.check(N, Ev, Code, 0);
  if (Miss || !Ev.Task || L.RunN >= Location::RunningCapacity ||
      L.Stack.Size >= Location::OpenStack::Capacity ||
      (L.RunN >= 2 && L.Running[L.RunN - 2] == Ev.A) ||
      !L.P.switchAfterCreate(Ev.A, Ev.Seq)) [[unlikely]]
    return createSwitchApart(L, Ev, Miss, Code, T1, Th, Gen);
  L.LastT.store(T2, std::memory_order_relaxed);
  const std::uint32_t R = region(L, RegionClass::Task, 0, Code);
  unsigned char *C, *Pos = L.D.open<Otf2Direct::RoomCreateSwitch>(T1, C);
  if (Pos) [[likely]] {
    Pos = Otf2Direct::putTask(Pos, Otf2Direct::TaskCreate, TeamComm, Th, Gen);
    Pos = L.D.later(Pos, T1, T2);
    Pos = Otf2Direct::putTask(Pos, Otf2Direct::TaskSwitch, TeamComm, Th, Gen);
    Pos = Otf2Direct::putRegion(Pos, Otf2Direct::Enter, R);
    L.D.close(C, Pos, 3);
  } else if (writeTask(L, Otf2Direct::TaskCreate, T1, Th, Gen) !=
                 OTF2_SUCCESS ||
             writeTask(L, Otf2Direct::TaskSwitch, T2, Th, Gen) != OTF2_SUCCESS)
      [[unlikely]] {
    writeFailed(L);
  } else {
    writeEnter(L, T2, R);
  }
  L.Stack.push({R, RegionClass::Task, 0});
  L.Running[L.RunN++] = Ev.A;
}

/// A SyncBegin with its end folded in (SyncWaitEndFolded, otter/events.h):
/// the records of the two events it was folded from -- the begin (its wait
/// folded in) and the end (foldedSyncEnd) -- exactly as encodeAs() writes
/// them one after the other (Enter and Leave of the sync region), in one
/// pass: the region is the innermost open one in between, so the open-region
/// stack is as it was. Anything unusual -- the wait's end alone, the stack
/// at capacity -- is written apart (syncWithEndApart), a misprediction with
/// its attributes (syncWithEndMissed).
[[gnu::always_inline]] inline void
TraceWriter::Impl::encodeSyncWithEnd(Location &L, const Event &Ev) {
  if (!(Ev.Extra & SyncEndFolded) ||
      L.Stack.Size >= Location::OpenStack::Capacity) [[unlikely]]
    return syncWithEndApart(L, Ev);
  const std::uint32_t Code = codeId(L, Ev.Code);
  // Both times as encodeAs() converts and clamps them, one after the other.
  const std::uint64_t Time = Opt.Ticks.toNs(Ev.Time);
  const std::uint64_t Latest = L.LastT.load(std::memory_order_relaxed);
  const OTF2_TimeStamp T1 = Time > Latest ? Time : Latest;
  const Event End = foldedSyncEnd(Ev);
  const std::uint64_t Time2 = Opt.Ticks.toNs(End.Time);
  const OTF2_TimeStamp T2 = Time2 > T1 ? Time2 : T1;
  L.LastT.store(T2, std::memory_order_relaxed);
  const std::uint32_t R = region(L, RegionClass::Sync, Ev.Sub, Code);
  Event Begin = Ev;
  Begin.Extra = SyncWaitFolded;
  Native N;
  N.Kind = EventKind::SyncBegin;
  N.Time = Time;
  N.HasSub = true;
  N.Sub = Ev.Sub;
  const unsigned Miss = L.P.check(N, Begin, Code);
  N.Kind = EventKind::SyncEnd;
  N.Time = Time2;
  const unsigned Miss2 = L.P.check(N, End, Code);
  if (Miss | Miss2) [[unlikely]]
    return syncWithEndMissed(L, Begin, End, Miss, Miss2, Code, T1, T2, R);
  unsigned char *C, *Pos = L.D.open(T1, C);
  if (Pos) [[likely]] {
    Pos = Otf2Direct::putRegion(Pos, Otf2Direct::Enter, R);
    Pos = L.D.later(Pos, T1, T2);
    Pos = Otf2Direct::putRegion(Pos, Otf2Direct::Leave, R);
    L.D.close(C, Pos, 2);
    return;
  }
  if (writeEnter(L, T1, R) != OTF2_SUCCESS) [[unlikely]]
    writeFailed(L);
  if (writeLeave(L, T2, R) != OTF2_SUCCESS) [[unlikely]]
    writeFailed(L);
}

/// encodeSyncWithEnd() for a begin with only its wait's end folded in, or
/// with no room on the open-region stack: the two events by encode()'s
/// paths.
[[gnu::noinline, gnu::cold]] void
TraceWriter::Impl::syncWithEndApart(Location &L, const Event &Ev) {
  Event Begin = Ev;
  Begin.Extra = SyncWaitFolded;
  encodeAs(L, Begin, EventKind::SyncBegin);
  const Event End = foldedSyncEnd(Ev);
  if (End.Kind != EventKind::SyncEnd)
    return encodeAny(L, End); // the wait's end alone
  if (!L.Stack.empty() && L.Stack.back().Class == RegionClass::SyncWait)
    return encodeSplitEnd(L, End);
  encodeAs(L, End, EventKind::SyncEnd);
}

/// encodeSyncWithEnd() when the predictions missed (Miss for the begin,
/// Miss2 for the end, checked): the Enter and the Leave as encodeAs()
/// finishes them, with their attributes.
[[gnu::noinline, gnu::cold]] void TraceWriter::Impl::syncWithEndMissed(
    Location &L, const Event &Begin, const Event &End, unsigned Miss,
    unsigned Miss2, std::uint32_t Code, OTF2_TimeStamp T1, OTF2_TimeStamp T2,
    std::uint32_t R) {
  OTF2_AttributeList *AL = Miss ? attributes(L, Miss, Begin, Code) : nullptr;
  if ((AL ? viaOtf2(L, [&] { return OTF2_EvtWriter_Enter(L.W, AL, T1, R); })
          : writeEnter(L, T1, R)) != OTF2_SUCCESS) [[unlikely]]
    writeFailed(L);
  AL = Miss2 ? attributes(L, Miss2, End, Code) : nullptr;
  if ((AL ? viaOtf2(L, [&] { return OTF2_EvtWriter_Leave(L.W, AL, T2, R); })
          : writeLeave(L, T2, R)) != OTF2_SUCCESS) [[unlikely]]
    writeFailed(L);
}

/// encodeCreateSwitch() when the two cannot be written in one pass: the
/// creation, whose prediction was checked (Miss), as encodeAs() finishes
/// it; then the switch by encodeAs().
[[gnu::noinline, gnu::cold]] void TraceWriter::Impl::createSwitchApart(
    Location &L, const Event &Ev, unsigned Miss, std::uint32_t Code,
    OTF2_TimeStamp T, std::uint32_t Th, std::uint32_t Gen) {
  L.LastT.store(T, std::memory_order_relaxed);
  Event Create = Ev;
  Create.Extra = 0;
  if (Code && (Code >= L.TaskSiteNamed.size() || !L.TaskSiteNamed[Code])) {
    region(L, RegionClass::Task, 0, Code);
    if (Code >= L.TaskSiteNamed.size())
      L.TaskSiteNamed.resize(Code + 64, 0);
    L.TaskSiteNamed[Code] = 1;
  }
  OTF2_AttributeList *AL = Miss ? attributes(L, Miss, Create, Code) : nullptr;
  if ((AL ? viaOtf2(L,
                    [&] {
                      return OTF2_EvtWriter_ThreadTaskCreate(L.W, AL, T,
                                                             TeamComm, Th, Gen);
                    })
          : writeTask(L, Otf2Direct::TaskCreate, T, Th, Gen)) != OTF2_SUCCESS)
    writeFailed(L);
  encodeAs(L, foldedSwitch(Ev), EventKind::TaskSchedule);
}

} // namespace otter::trace
