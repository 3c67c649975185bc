//===- trace/writer_encode.cpp - Events to OTF2 records -------------------===//
//
// The trace writer's hot path: each event of a flushed buffer becomes its
// OTF2 record(s) in its thread's event writer (codec.h: the encoding; the
// hot records written in place, otf2_direct.h), with the code addresses
// and regions it names interned in the writer's tables. Keeps every
// location's Enter/Leave records nested ("Balanced regions" below). Part
// of the trace writer (writer_impl.h).
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

namespace {

/// An OTF2 call on L's event writer: the buffer state the records written
/// in place keep (Otf2Direct::begin) goes back to OTF2's buffer first, and
/// is taken again after (OTF2 may have started a new chunk).
template <class Fn>
[[gnu::always_inline]] inline OTF2_ErrorCode viaOtf2(Location &L, Fn &&F) {
  const bool Taken = L.D.end();
  const OTF2_ErrorCode R = F();
  if (Taken)
    L.D.begin();
  return R;
}

// The records of a task stream without attributes: written in place when
// the location's Otf2Direct can, else by OTF2's own calls (otf2_direct.h).
[[gnu::always_inline]] inline OTF2_ErrorCode
writeEnter(Location &L, OTF2_TimeStamp T, std::uint32_t Region) {
  if (L.D.region(Otf2Direct::Enter, T, Region)) [[likely]]
    return OTF2_SUCCESS;
  return viaOtf2(L,
                 [&] { return OTF2_EvtWriter_Enter(L.W, nullptr, T, Region); });
}
[[gnu::always_inline]] inline OTF2_ErrorCode
writeLeave(Location &L, OTF2_TimeStamp T, std::uint32_t Region) {
  if (L.D.region(Otf2Direct::Leave, T, Region)) [[likely]]
    return OTF2_SUCCESS;
  return viaOtf2(L,
                 [&] { return OTF2_EvtWriter_Leave(L.W, nullptr, T, Region); });
}
[[gnu::always_inline]] inline OTF2_ErrorCode
writeTask(Location &L, Otf2Direct::Record R, OTF2_TimeStamp T,
          std::uint32_t Thread, std::uint32_t Gen) {
  if (L.D.task(R, T, TeamComm, Thread, Gen)) [[likely]]
    return OTF2_SUCCESS;
  switch (R) {
  case Otf2Direct::TaskCreate:
    return viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadTaskCreate(L.W, nullptr, T, TeamComm, Thread,
                                             Gen);
    });
  case Otf2Direct::TaskComplete:
    return viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadTaskComplete(L.W, nullptr, T, TeamComm,
                                               Thread, Gen);
    });
  default:
    return viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadTaskSwitch(L.W, nullptr, T, TeamComm, Thread,
                                             Gen);
    });
  }
}

std::string labelKey(const SourceLabel &L) {
  if (L.Quality == LabelQuality::Exact || L.Quality == LabelQuality::Fallback)
    return "d:" + std::to_string(L.RegionId) + ":" + L.File + ":" +
           std::to_string(L.Line) + ":" + std::to_string(L.Col);
  if (!L.File.empty() && L.Line)
    return "f:" + L.File + ":" + std::to_string(L.Line) + ":" + L.Function;
  return "a:" + L.Location;
}
std::string labelWhere(const SourceLabel &L) {
  if (!L.File.empty() && L.Line)
    return approximateMark(L) + L.File + ":" + std::to_string(L.Line);
  if (!L.Function.empty())
    return "~" + L.Function;
  if (!L.Location.empty())
    return "~" + L.Location;
  return "";
}
inline std::size_t mixSlot(std::uint64_t K) {
  return std::size_t((K * 0x9E3779B97F4A7C15ull) >> 56);
}
} // namespace

inline std::uint32_t TraceWriter::Impl::codeId(Location &L,
                                               std::uint64_t Code) {
  if (!Code)
    return 0;
  std::size_t S = mixSlot(Code);
  if (L.CodeKeys[S] == Code) [[likely]]
    return L.CodeVals[S];
  return newCodeId(L, Code);
}

std::uint32_t TraceWriter::Impl::newCodeId(Location &L, std::uint64_t Code) {
  std::size_t S = mixSlot(Code);
  std::uint32_t Id;
  {
    std::lock_guard<std::mutex> G(M);
    auto It = CodeIds.find(Code);
    if (It != CodeIds.end())
      Id = It->second;
    else {
      CodeEntry C;
      C.Code = Code;
      try {
        C.Label = Resolve(Code);
      } catch (...) {
      }
      C.Key = labelKey(C.Label);
      C.Where = labelWhere(C.Label);
      Id = std::uint32_t(Codes.size());
      Codes.push_back(std::move(C));
      CodeIds.emplace(Code, Id);
    }
  }
  L.CodeKeys[S] = Code;
  L.CodeVals[S] = Id;
  return Id;
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

std::uint32_t TraceWriter::Impl::newRegion(Location &L, RegionClass C,
                                           std::uint16_t Sub,
                                           std::uint32_t Code) {
  std::uint64_t K = (std::uint64_t(Code) << 24) |
                    (std::uint64_t(C) << 16) | Sub;
  std::size_t S = mixSlot(K + 1);
  std::uint32_t Id;
  {
    std::lock_guard<std::mutex> G(M);
    std::string Key = std::to_string(unsigned(C)) + ":" +
                      std::to_string(Sub) + "|" + Codes[Code].Key;
    auto It = RegionIds.find(Key);
    if (It != RegionIds.end())
      Id = It->second;
    else {
      Id = std::uint32_t(Regions.size());
      Regions.push_back({C, Sub, Code});
      RegionIds.emplace(std::move(Key), Id);
    }
    if (Codes[Code].Region == NoRef)
      Codes[Code].Region = Id;
  }
  L.RegionKeys[S] = K + 1;
  L.RegionVals[S] = Id;
  return Id;
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

/// Encodes one event as its primary OTF2 record (plus decorations), with
/// attributes for the fields the prediction gets wrong. `K` is `Ev.Kind`;
/// encode() calls this with constant kinds for the events of steady task
/// streams (create, schedule, taskwait), so that the compiler folds every
/// test of the kind here and in the Predictor away -- one source, a lean
/// instance per hot kind.
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
  OTF2_EvtWriter *W = L.W;
  Native N;
  N.Kind = K;
  N.Time = Time;

  // Choose the primary record and fill in what it carries natively.
  enum { PEnter, PLeave, PFork, PJoin, PCreate, PSwitch, PParam } Prim;
  std::uint32_t Region = 0, Th = 0, Gen = 0, ParamRef = 0;
  RegionClass RClass = RegionClass::Count; // Region's class and sub
  std::uint16_t RSub = 0;
  std::uint64_t ParamVal = 0;
  bool StartBody = false;
  // A task switch's records before its ThreadTaskSwitch, written with it
  // (PSwitch below): the Leave of the prior task's body region, its
  // ThreadTaskComplete.
  bool LeaveBody = false, SwitchComplete = false;
  std::uint32_t BodyRegion = 0, CTh = 0, CGen = 0;
  // A Leave closes the innermost open region, or it is not written as one
  // (see "Balanced regions" below): false then.
  auto leaveRegion = [&](RegionClass C) __attribute__((always_inline)) {
    if ((!L.Stack.empty() && L.Stack.back().Class == C) ||
        leaveMismatched(L, C, T)) [[likely]] {
      Region = L.Stack.back().Region;
      RSub = L.Stack.back().Sub;
      RClass = C;
      L.Stack.pop_back();
      return true;
    }
    return false;
  };
  auto enterRegion = [&](RegionClass C, std::uint16_t Sub)
                         __attribute__((always_inline)) {
    Region = region(L, C, Sub, Code);
    RClass = C;
    RSub = Sub;
    L.Stack.push({Region, C, Sub});
  };
  // The event table (otter/event_kinds.def) gives the record; the cases
  // below add what some kinds need beyond it. K is a constant in the hot
  // encoders (see encode()): the lookups fold away.
  const KindInfo &Info = kindInfo(K);
  auto subFromRegion = [&]() __attribute__((always_inline)) {
    if (Info.SubInRegion) {
      N.HasSub = true;
      N.Sub = RSub;
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
          return OTF2_EvtWriter_ThreadTeamBegin(W, nullptr, T, TeamComm);
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
      ParamRef = ParamEvent;
      ParamVal = std::uint64_t(K);
      Prim = PParam;
      break;
    }
    enterRegion(Info.Class, Sub);
    subFromRegion();
    Prim = PEnter;
    break;
  }
  case Otf2Record::Leave:
    if (K == EventKind::ImplicitTaskEnd && L.RunN &&
        L.Running[L.RunN - 1] == Ev.Task)
      --L.RunN;
    if (leaveRegion(Info.Class)) [[likely]] {
      subFromRegion();
      Prim = PLeave;
    } else {
      // No open region of its class to close: the event as a parameter
      // (read back the same), so that the location stays balanced.
      ParamRef = ParamEvent;
      ParamVal = std::uint64_t(K);
      Prim = PParam;
    }
    break;
  case Otf2Record::Fork:
    N.HasAux = true;
    N.Aux = Ev.Aux;
    Prim = PFork;
    break;
  case Otf2Record::Join:
    Prim = PJoin;
    break;
  case Otf2Record::Create:
    N.HasA = true;
    N.A = idToPair(Ev.A, Th, Gen);
    if (Code && (Code >= L.TaskSiteNamed.size() || !L.TaskSiteNamed[Code])) {
      // Name the task construct (a region of role TASK) once per site.
      region(L, RegionClass::Task, 0, Code);
      if (Code >= L.TaskSiteNamed.size())
        L.TaskSiteNamed.resize(Code + 64, 0);
      L.TaskSiteNamed[Code] = 1;
    }
    Prim = PCreate;
    break;
  case Otf2Record::Switch: {
    // The schedule status: Ev.Sub, or a constant where encode() knows it
    // (a completion), which folds the tests below away.
    const std::uint16_t St =
        KnownStatus >= 0 ? std::uint16_t(KnownStatus) : Ev.Sub;
    bool Complete = St == std::uint16_t(ScheduleStatus::Complete) ||
                    St == std::uint16_t(ScheduleStatus::Cancel);
    // Task bodies (see "Task bodies" below): the prior task's body region
    // ends when its body did, or when the thread goes back to the task it
    // was running before (an untied task's part); the next task's begins
    // when it starts here.
    const bool Resume = L.RunN >= 2 && L.Running[L.RunN - 2] == Ev.A;
    const bool BodyEnds = Complete ||
                          St == std::uint16_t(ScheduleStatus::Detach) ||
                          St == std::uint16_t(ScheduleStatus::EarlyFulfill);
    if ((BodyEnds || Resume) && L.RunN && L.Running[L.RunN - 1] == Ev.Task &&
        !L.Stack.empty() && L.Stack.back().Class == RegionClass::Task) {
      LeaveBody = true;
      BodyRegion = L.Stack.back().Region;
      L.Stack.pop_back();
      --L.RunN;
    }
    StartBody = !Resume &&
                (St == std::uint16_t(ScheduleStatus::Switch) ||
                 St == std::uint16_t(ScheduleStatus::Yield)) &&
                L.RunN < Location::RunningCapacity &&
                L.Stack.Size < Location::OpenStack::Capacity;
    if (Complete) {
      N.HasTask = true;
      N.Task = idToPair(Ev.Task, CTh, CGen);
      SwitchComplete = true;
    }
    N.HasA = true;
    N.A = idToPair(Ev.A, Th, Gen);
    N.HasSub = true;
    N.Sub = Complete ? 1 : 7;
    Prim = PSwitch;
    break;
  }
  case Otf2Record::Param:
    ParamRef = Info.Param;
    ParamVal = Ev.A;
    N.HasA = true;
    N.A = Ev.A;
    Prim = PParam;
    break;
  default: // not a kind (MPI kinds go to encodeMpi)
    ParamRef = ParamEvent;
    ParamVal = std::uint64_t(K);
    Prim = PParam;
    break;
  }

  // Attributes for what the prediction gets wrong.
  OTF2_AttributeList *AL = nullptr;
  if (unsigned Miss = L.P.check(N, Ev, Code)) [[unlikely]]
    AL = attributes(L, Miss, Ev, Code);

  // A record fails when OTF2 cannot write a full chunk out (disk full):
  // see write() and close().
  OTF2_ErrorCode Status = OTF2_SUCCESS;
  switch (Prim) {
  case PEnter:
    Status =
        AL ? viaOtf2(L, [&] { return OTF2_EvtWriter_Enter(W, AL, T, Region); })
           : writeEnter(L, T, Region);
    break;
  case PLeave:
    Status =
        AL ? viaOtf2(L, [&] { return OTF2_EvtWriter_Leave(W, AL, T, Region); })
           : writeLeave(L, T, Region);
    break;
  case PFork: {
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadFork(W, AL, T, OTF2_PARADIGM_OPENMP, Ev.Aux);
    });
    std::uint32_t R = region(L, RegionClass::Parallel, 0, Code);
    L.Stack.push({R, RegionClass::Parallel, 0});
    writeEnter(L, T, R);
    break;
  }
  case PJoin: {
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
  case PCreate:
    Status = AL ? viaOtf2(L,
                          [&] {
                            return OTF2_EvtWriter_ThreadTaskCreate(
                                W, AL, T, TeamComm, Th, Gen);
                          })
                : writeTask(L, Otf2Direct::TaskCreate, T, Th, Gen);
    break;
  case PSwitch: {
    // [Leave body] [ThreadTaskComplete] ThreadTaskSwitch [Enter body], all
    // at T: in place in one go when they can be (otf2_direct.h).
    const std::uint32_t R = StartBody ? taskBodyRegion(L, Ev.Code) : 0;
    unsigned char *C, *Pos = AL ? nullptr : L.D.open(T, C);
    if (Pos) [[likely]] {
      if (LeaveBody)
        Pos = Otf2Direct::putRegion(Pos, Otf2Direct::Leave, BodyRegion);
      if (SwitchComplete)
        Pos = Otf2Direct::putTask(Pos, Otf2Direct::TaskComplete, TeamComm, CTh,
                                  CGen);
      Pos = Otf2Direct::putTask(Pos, Otf2Direct::TaskSwitch, TeamComm, Th, Gen);
      if (StartBody)
        Pos = Otf2Direct::putRegion(Pos, Otf2Direct::Enter, R);
      L.D.close(C, Pos, 1 + LeaveBody + SwitchComplete + StartBody);
    } else {
      if (LeaveBody)
        writeLeave(L, T, BodyRegion);
      if (SwitchComplete && writeTask(L, Otf2Direct::TaskComplete, T, CTh,
                                      CGen) != OTF2_SUCCESS) [[unlikely]]
        writeFailed(L);
      Status = AL ? viaOtf2(L,
                            [&] {
                              return OTF2_EvtWriter_ThreadTaskSwitch(
                                  W, AL, T, TeamComm, Th, Gen);
                            })
                  : writeTask(L, Otf2Direct::TaskSwitch, T, Th, Gen);
      if (StartBody)
        writeEnter(L, T, R);
    }
    if (StartBody) {
      L.Stack.push({R, RegionClass::Task, 0});
      L.Running[L.RunN++] = Ev.A;
    }
    break;
  }
  case PParam:
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_ParameterUnsignedInt(W, AL, T, ParamRef, ParamVal);
    });
    break;
  }
  if (Status != OTF2_SUCCESS) [[unlikely]]
    writeFailed(L);
  // Decorations after the primary record.
  if (K == EventKind::ImplicitTaskEnd &&
      RClass == RegionClass::ImplicitTask && RSub == 0)
    viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadTeamEnd(W, nullptr, T, TeamComm);
    });
  if (K == EventKind::MutexAcquired) {
    viaOtf2(L, [&] {
      return OTF2_EvtWriter_ThreadAcquireLock(
          W, nullptr, T, OTF2_PARADIGM_OPENMP,
          std::uint32_t(Ev.A ^ (Ev.A >> 32)), ++L.LockOrder);
    });
    enterRegion(RegionClass::MutexHeld, Ev.Sub);
    writeEnter(L, T, Region);
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

/// Definitions an MPI event brings (rank, communicators). Rare.
void TraceWriter::Impl::noteMpi(const Event &Ev) {
  std::lock_guard<std::mutex> G(M);
  SawMpi = true;
  switch (Ev.Kind) {
  case EventKind::MpiInit:
    Rank = mpi::worldRank(Ev);
    WorldSize = mpi::worldSize(Ev);
    break;
  case EventKind::MpiClockOffset:
    ClockOffsets += std::to_string(mpi::clockOffsetTime(Ev)) + ":" +
                    std::to_string(mpi::clockOffset(Ev)) + ":" +
                    std::to_string(Ev.Aux) + ";";
    break;
  case EventKind::MpiCommCreate: {
    MpiComm &C = MpiComms[mpi::comm(Ev)];
    C = MpiComm();
    C.Key = mpi::commKey(Ev);
    C.Parent = mpi::parentKey(Ev);
    C.Size = mpi::commSize(Ev);
    break;
  }
  case EventKind::MpiCommMembers: {
    auto It = MpiComms.find(mpi::comm(Ev));
    if (It == MpiComms.end())
      break;
    std::uint32_t First, R[4];
    unsigned N = mpi::members(Ev, First, R);
    std::vector<std::uint32_t> &V = It->second.Members;
    if (First + N > It->second.Size || First + N > (1u << 24))
      break;
    if (V.size() < First + N)
      V.resize(First + N, mpi::NoRank);
    for (unsigned I = 0; I < N; ++I)
      V[First + I] = R[I];
    break;
  }
  default:
    break;
  }
}

/// An MPI event whose Code is payload (otter/mpi.h): OTF2's own MPI record
/// where there is one (MpiSend ... MpiCollectiveEnd, CommCreate), else a
/// parameter event. The Predictor sees the event with Code 0 and, where the
/// record carries Extra natively, the Extra it predicts; the reader puts the
/// record's values back after its own prediction (reader.cpp, emitMpi), so
/// both run the same model. Code goes in the otter:payload attribute unless
/// the record carries it.
void TraceWriter::Impl::encodeMpi(Location &L, const Event &Ev) {
  const EventKind K = Ev.Kind;
  if (K == EventKind::MpiInit || K == EventKind::MpiCommCreate ||
      K == EventKind::MpiCommMembers || K == EventKind::MpiClockOffset ||
      !SawMpi)
    noteMpi(Ev);
  const std::uint64_t Time = Opt.Ticks.toNs(Ev.Time);
  const std::uint64_t Latest = L.LastT.load(std::memory_order_relaxed);
  const OTF2_TimeStamp T = Time > Latest ? Time : Latest;
  L.LastT.store(T, std::memory_order_relaxed);
  OTF2_EvtWriter *W = L.W;
  Native N;
  N.Kind = K;
  N.Time = Time;
  const OTF2_CommRef Comm = mpi::comm(Ev) ? mpi::comm(Ev) : OTF2_UNDEFINED_COMM;
  const std::uint64_t Request = mpi::request(Ev);
  bool ExtraNative = false, CodeNative = false;
  switch (K) {
  case EventKind::MpiSend:
  case EventKind::MpiIsend:
  case EventKind::MpiRecv:
  case EventKind::MpiIrecv:
    N.HasA = true;
    N.A = Ev.A;
    N.HasAux = true;
    N.Aux = Ev.Aux;
    ExtraNative = true;
    break;
  case EventKind::MpiCollectiveEnd:
    N.HasA = true;
    N.A = Ev.A;
    N.HasAux = true;
    N.Aux = Ev.Aux;
    ExtraNative = CodeNative = true;
    break;
  default:
    break;
  }
  Event Model = L.Mpi.model(Ev); // what the Predictor sees
  if (ExtraNative)
    Model.Extra = L.P.predict(N).Extra;
  OTF2_AttributeList *AL = nullptr;
  if (unsigned Miss = L.P.check(N, Model, 0))
    AL = attributes(L, Miss, Model, 0);
  if (!CodeNative && L.Mpi.payloadMissed(Ev)) {
    AL = L.Attrs;
    OTF2_AttributeList_AddUint64(AL, AttrPayload, Ev.Code);
  }
  const mpi::Message Msg = mpi::messageOf(Ev);
  OTF2_ErrorCode Status = OTF2_SUCCESS;
  switch (K) {
  case EventKind::MpiSend:
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_MpiSend(W, AL, T, Msg.PeerInComm, Comm, Msg.Tag,
                                    Msg.Bytes);
    });
    break;
  case EventKind::MpiIsend:
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_MpiIsend(W, AL, T, Msg.PeerInComm, Comm, Msg.Tag,
                                     Msg.Bytes, Request);
    });
    break;
  case EventKind::MpiIsendComplete:
    Status = viaOtf2(
        L, [&] { return OTF2_EvtWriter_MpiIsendComplete(W, AL, T, Request); });
    break;
  case EventKind::MpiIrecvRequest:
    Status = viaOtf2(
        L, [&] { return OTF2_EvtWriter_MpiIrecvRequest(W, AL, T, Request); });
    break;
  case EventKind::MpiRecv:
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_MpiRecv(W, AL, T, Msg.PeerInComm, Comm, Msg.Tag,
                                    Msg.Bytes);
    });
    break;
  case EventKind::MpiIrecv:
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_MpiIrecv(W, AL, T, Msg.PeerInComm, Comm, Msg.Tag,
                                     Msg.Bytes, Request);
    });
    break;
  case EventKind::MpiRequestTest:
    Status = viaOtf2(
        L, [&] { return OTF2_EvtWriter_MpiRequestTest(W, AL, T, Request); });
    break;
  case EventKind::MpiRequestCancelled:
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_MpiRequestCancelled(W, AL, T, Request);
    });
    break;
  case EventKind::MpiCollectiveBegin:
    Status = Request
                 ? viaOtf2(L,
                           [&] {
                             return OTF2_EvtWriter_NonBlockingCollectiveRequest(
                                 W, AL, T, Request);
                           })
                 : viaOtf2(L, [&] {
                     return OTF2_EvtWriter_MpiCollectiveBegin(W, AL, T);
                   });
    break;
  case EventKind::MpiCollectiveEnd: {
    auto Op = OTF2_CollectiveOp(mpi::collectiveOp(Ev));
    Status =
        Request ? viaOtf2(L,
                          [&] {
                            return OTF2_EvtWriter_NonBlockingCollectiveComplete(
                                W, AL, T, Op, Comm, mpi::rootInComm(Ev),
                                mpi::bytesSent(Ev), mpi::bytesReceived(Ev),
                                Request);
                          })
                : viaOtf2(L, [&] {
                    return OTF2_EvtWriter_MpiCollectiveEnd(
                        W, AL, T, Op, Comm, mpi::rootInComm(Ev),
                        mpi::bytesSent(Ev), mpi::bytesReceived(Ev));
                  });
    break;
  }
  case EventKind::MpiCommCreate:
    Status =
        viaOtf2(L, [&] { return OTF2_EvtWriter_CommCreate(W, AL, T, Comm); });
    break;
  case EventKind::MpiCommFree:
    Status =
        viaOtf2(L, [&] { return OTF2_EvtWriter_CommDestroy(W, AL, T, Comm); });
    break;
  default:
    Status = viaOtf2(L, [&] {
      return OTF2_EvtWriter_ParameterUnsignedInt(W, AL, T, ParamEvent,
                                                 std::uint64_t(K));
    });
    break;
  }
  if (Status != OTF2_SUCCESS) [[unlikely]]
    writeFailed(L);
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
    return encodeAny(L, Ev);
  }
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

// --- Balanced regions -----------------------------------------------------
//
// Every location's Enter and Leave records nest: each Leave closes the
// innermost open region (otf2-snapshots, Vampir and other readers rely on
// it; test/lit/Inputs/check-trace.py checks every lit test's archive). The
// events pair up by construction except where OMPT's reports do not nest:
//  - a sync region whose wait was reported apart at its begin but folded
//    into its end (every taskgroup) is written as two Leaves
//    (encodeSplitEnd), and read back as the same two events;
//  - a Leave event with no open region of its class (a wait folded into
//    its region's begin but reported apart at the end, a report lost to the
//    filter, ...) is written as an `otter:event` parameter, which the reader
//    reads back as the same event: it closes no region.
//
// Task bodies: an explicit task's execution is a region, the `task @
// file:line` region of its task construct (role TASK; `task` when the
// switch event carries no construct), entered at the ThreadTaskSwitch that
// starts it and left before the ThreadTaskComplete (or the switch) that
// ends its body. A task suspended at a task scheduling point (taskwait,
// barrier, taskyield, taskgroup end) keeps its body region open: libomp
// runs the tasks scheduled there nested in the suspended one's call, on the
// same thread, so their regions nest inside the open wait region, and the
// suspended task resumes only when they are done -- a thread's open regions
// are one stack, as its call stack is. A task leaves no body region open
// when the thread goes back to the task below it (an untied task's part
// ends; Location::Running tracks the tasks of the stack). The reader ignores
// these regions (class Task: no event kind).

/// A Leave of class C whose region is not the innermost open one: task
/// bodies left open above the region (a task switch the writer could not
/// pair) are closed first. True when the region of class C is then the
/// innermost one (the caller pops it); nothing is written otherwise.
[[gnu::noinline, gnu::cold]] bool
TraceWriter::Impl::leaveMismatched(Location &L, RegionClass C,
                                   OTF2_TimeStamp T) {
  unsigned I = L.Stack.Size;
  while (I && L.Stack.Items[I - 1].Class == RegionClass::Task)
    --I;
  if (!I || I == L.Stack.Size || L.Stack.Items[I - 1].Class != C)
    return false;
  while (L.Stack.Size > I) {
    writeLeave(L, T, L.Stack.back().Region);
    L.Stack.pop_back();
    if (L.RunN)
      --L.RunN;
  }
  return true;
}

/// A folded SyncEnd whose wait region is open on its own: its wait's end,
/// then its own (unfoldEvent), each its own Leave.
[[gnu::noinline]] void TraceWriter::Impl::encodeSplitEnd(Location &L,
                                                         const Event &Ev) {
  Event Pair[MaxUnfolded];
  unfoldEvent(Ev, Pair);
  encodeAny(L, Pair[0]);
  encodeAny(L, Pair[1]);
}

} // namespace otter::trace
