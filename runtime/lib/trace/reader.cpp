//===- trace/reader.cpp - Events and labels back from an OTTER trace -----===//
#include "trace/reader.h"
#include "trace/anchor_probe.h"
#include "otter/mpi.h"
#include "trace/codec.h"
#include "trace/errors.h"
#include "trace/sample_reader.h"
#include "otter/printable.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <unordered_map>
#include <vector>

namespace otter::trace {

namespace {
struct RegionInfo {
  RegionClass Class = RegionClass::Count;
  std::uint16_t Sub = 0;
};
struct CodeInfo {
  std::uint64_t Code = 0;
  SourceLabel Label;
  // string refs of the label's text properties, resolved after reading
  std::map<std::string, std::uint32_t> StrProps;
};
} // namespace

struct TraceReader::Impl {
  OTF2_Reader *R = nullptr;
  std::string Anchor;
  std::size_t Damaged = 0; // locations the last read could not read whole
  std::unordered_map<std::uint32_t, std::string> Strings;
  std::unordered_map<std::uint32_t, RegionInfo> Regions;
  std::unordered_map<std::uint32_t, CodeInfo> Codes; // by code id
  std::unordered_map<std::uint64_t, std::uint32_t> CodeIdOf;
  std::unordered_map<std::uint64_t, SourceLabel> LabelOf; // by address
  std::vector<std::uint64_t> Locations;
  // OTF2 records per location, as the definitions say (what was written).
  std::unordered_map<std::uint64_t, std::uint64_t> DefinedEvents;
  // attribute ref of each Attr (by name), NoRef if absent
  std::uint32_t AttrRef[AttrCount];
  std::unordered_map<std::uint32_t, Param> Params;
  std::uint64_t Events = 0;
  bool Complete = true;
  std::string Filter; // FilterProperty
  std::uint64_t CutLimit = 0; // CutProperty's limit (0: not cut)
  std::uint32_t RecordingCostNs = 0; // RecordingCostProperty (0: none)
  std::vector<std::string> Names{std::string()}; // OTTER::NAMES
  bool EvtFilesUsed = false;

  // Event decoding state (one location at a time).
  std::optional<Predictor> Pred;
  MpiModel Mpi; // codec.h
  std::uint32_t Thread = 0;
  bool PendingComplete = false;
  std::uint64_t PendingTask = 0;
  std::vector<Event> Batch;
  const Sink *Out = nullptr;
  std::string Error;
  // A cut-off event file can make OTF2 deliver its last chunk forever: a
  // location cannot hold more events than its event file has bytes.
  std::uint64_t LocationEvents = 0;
  std::uint64_t MaxLocationEvents = ~std::uint64_t(0);
  bool Corrupt = false;

  Impl() {
    for (auto &A : AttrRef)
      A = NoRef;
  }
  ~Impl() {
    if (R)
      OTF2_Reader_Close(R);
  }
  const std::string &str(std::uint32_t Ref) {
    static const std::string Empty;
    auto It = Strings.find(Ref);
    return It == Strings.end() ? Empty : It->second;
  }
  void emit(const Native &N, OTF2_AttributeList *AL);
  /// An MPI event whose Code is payload (see TraceWriter's encodeMpi):
  /// Extra and Code from the record when it carries them.
  void emitMpi(const Native &N, OTF2_AttributeList *AL, bool ExtraNative,
               std::uint32_t Extra, bool CodeNative, std::uint64_t Code);
  bool attribute(OTF2_AttributeList *AL, Attr A, std::uint64_t &Out);
  void applyAttributes(Event &E, OTF2_AttributeList *AL);
  void push(const Event &E);
  void flushBatch() {
    if (!Batch.empty() && Out)
      (*Out)(Thread, Batch.data(), Batch.size());
    Batch.clear();
  }
};

TraceReader::TraceReader() : P(std::make_unique<Impl>()) {}
TraceReader::~TraceReader() = default;

namespace {

using CB = OTF2_CallbackCode;
constexpr CB Ok = OTF2_CALLBACK_SUCCESS;

CB defString(void *U, OTF2_StringRef Self, const char *S) {
  static_cast<TraceReader::Impl *>(U)->Strings[Self] = S ? S : "";
  return Ok;
}
CB defAttribute(void *U, OTF2_AttributeRef Self, OTF2_StringRef Name,
                OTF2_StringRef, OTF2_Type) {
  auto *P = static_cast<TraceReader::Impl *>(U);
  const std::string &N = P->str(Name);
  for (unsigned I = 0; I < AttrCount; ++I)
    if (N == AttrNames[I])
      P->AttrRef[I] = Self;
  return Ok;
}
CB defParameter(void *U, OTF2_ParameterRef Self, OTF2_StringRef Name,
                OTF2_ParameterType) {
  auto *P = static_cast<TraceReader::Impl *>(U);
  const std::string &N = P->str(Name);
  for (unsigned I = 0; I < ParamCount; ++I)
    if (N == ParamNames[I])
      P->Params[Self] = Param(I);
  return Ok;
}
CB defRegion(void *U, OTF2_RegionRef Self, OTF2_StringRef, OTF2_StringRef Canon,
             OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag,
             OTF2_StringRef, uint32_t, uint32_t) {
  auto *P = static_cast<TraceReader::Impl *>(U);
  const std::string &C = P->str(Canon);
  unsigned Class = 0, Sub = 0;
  if (std::sscanf(C.c_str(), "otter:%u:%u", &Class, &Sub) == 2 &&
      Class < unsigned(RegionClass::Count))
    P->Regions[Self] = {RegionClass(Class), std::uint16_t(Sub)};
  return Ok;
}
CB defLocation(void *U, OTF2_LocationRef Self, OTF2_StringRef,
               OTF2_LocationType Type, uint64_t Events, OTF2_LocationGroupRef) {
  // A device's stream (target offload, docs/trace.md "Devices") repeats
  // what its host threads' events say: not read.
  if (Type == OTF2_LOCATION_TYPE_ACCELERATOR_STREAM)
    return Ok;
  auto *P = static_cast<TraceReader::Impl *>(U);
  P->Locations.push_back(Self);
  P->DefinedEvents[Self] = Events;
  return Ok;
}
CB defCallingContext(void *U, OTF2_CallingContextRef Self, OTF2_RegionRef,
                     OTF2_SourceCodeLocationRef, OTF2_CallingContextRef) {
  static_cast<TraceReader::Impl *>(U)->Codes[Self + 1];
  return Ok;
}
CB defCallingContextProperty(void *U, OTF2_CallingContextRef Self,
                             OTF2_StringRef Name, OTF2_Type Type,
                             OTF2_AttributeValue V) {
  auto *P = static_cast<TraceReader::Impl *>(U);
  CodeInfo &C = P->Codes[Self + 1]; // code id = calling context + 1
  const std::string &N = P->str(Name);
  if (Type == OTF2_TYPE_STRING) {
    C.StrProps[N] = V.stringRef;
    return Ok;
  }
  std::uint64_t X = Type == OTF2_TYPE_UINT64   ? V.uint64
                    : Type == OTF2_TYPE_UINT32 ? V.uint32
                                               : 0;
  if (N == "otter:code")
    C.Code = X;
  else if (N == "otter:line")
    C.Label.Line = std::uint32_t(X);
  else if (N == "otter:col")
    C.Label.Col = std::uint32_t(X);
  else if (N == "otter:region_id")
    C.Label.RegionId = X;
  else if (N == "otter:quality")
    C.Label.Quality = LabelQuality(X < 4 ? X : 3);
  return Ok;
}

// --- events -------------------------------------------------------------

TraceReader::Impl *impl(void *U) { return static_cast<TraceReader::Impl *>(U); }

CB evEnterLeave(void *U, OTF2_TimeStamp T, OTF2_AttributeList *AL,
                OTF2_RegionRef Region, bool Enter) {
  auto *P = impl(U);
  auto It = P->Regions.find(Region);
  if (It == P->Regions.end())
    return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok; // not ours
  // The event table (otter/event_kinds.def) says which kind an Enter or
  // Leave of the region's class stands for, and whether its Sub is the
  // region's; a Leave the writer made to keep the location balanced (a
  // failed omp_test_lock, the end of the run) stands for no event.
  std::uint64_t Closed;
  if (!Enter && AL && P->attribute(AL, AttrClosed, Closed))
    return Ok;
  Native N;
  N.Kind = regionKind(It->second.Class, Enter);
  if (N.Kind == EventKind::None)
    return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok; // decoration
  N.Time = T;
  if (kindInfo(N.Kind).SubInRegion) {
    N.HasSub = true;
    N.Sub = It->second.Sub;
  }
  P->emit(N, AL);
  return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
}
CB evEnter(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
           OTF2_AttributeList *AL, OTF2_RegionRef R) {
  return evEnterLeave(U, T, AL, R, true);
}
CB evLeave(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
           OTF2_AttributeList *AL, OTF2_RegionRef R) {
  return evEnterLeave(U, T, AL, R, false);
}
CB evFork(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
          OTF2_AttributeList *AL, OTF2_Paradigm, uint32_t Requested) {
  Native N;
  N.Kind = EventKind::ParallelBegin;
  N.Time = T;
  N.HasAux = true;
  N.Aux = Requested;
  impl(U)->emit(N, AL);
  return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
}
CB evJoin(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
          OTF2_AttributeList *AL, OTF2_Paradigm) {
  Native N;
  N.Kind = EventKind::ParallelEnd;
  N.Time = T;
  impl(U)->emit(N, AL);
  return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
}
CB evCreate(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
            OTF2_AttributeList *AL, OTF2_CommRef, uint32_t Th, uint32_t Gen) {
  Native N;
  N.Kind = EventKind::TaskCreate;
  N.Time = T;
  N.HasA = true;
  N.A = pairToId(Th, Gen);
  impl(U)->emit(N, AL);
  return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
}
CB evComplete(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void *U,
              OTF2_AttributeList *, OTF2_CommRef, uint32_t Th, uint32_t Gen) {
  auto *P = impl(U);
  P->PendingComplete = true;
  P->PendingTask = pairToId(Th, Gen);
  return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
}
CB evSwitch(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
            OTF2_AttributeList *AL, OTF2_CommRef, uint32_t Th, uint32_t Gen) {
  auto *P = impl(U);
  Native N;
  N.Kind = EventKind::TaskSchedule;
  N.Time = T;
  N.HasA = true;
  N.A = pairToId(Th, Gen);
  N.HasSub = true;
  N.Sub = P->PendingComplete ? 1 : 7;
  if (P->PendingComplete) {
    N.HasTask = true;
    N.Task = P->PendingTask;
  }
  P->PendingComplete = false;
  P->emit(N, AL);
  return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
}
CB evParam(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
           OTF2_AttributeList *AL, OTF2_ParameterRef Ref, uint64_t Value) {
  auto *P = impl(U);
  auto It = P->Params.find(Ref);
  if (It == P->Params.end())
    return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
  Native N;
  N.Time = T;
  if (It->second == ParamEvent) {
    N.Kind = EventKind(Value);
  } else {
    N.Kind = paramKind(It->second); // the event table's REC_PARAM column
    N.HasA = true;
    N.A = Value;
  }
  P->emit(N, AL);
  return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
}

// MPI records (see TraceWriter's encodeMpi): which fields they carry.
CB mpiMessage(void *U, EventKind K, OTF2_TimeStamp T, OTF2_AttributeList *AL,
              std::uint32_t Peer, std::uint32_t Tag, std::uint64_t Bytes) {
  Native N;
  N.Kind = K;
  N.Time = T;
  N.HasA = true;
  N.A = Bytes;
  N.HasAux = true;
  N.Aux = Tag;
  impl(U)->emitMpi(N, AL, true, Peer, false, 0);
  return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
}
CB mpiOnly(void *U, EventKind K, OTF2_TimeStamp T, OTF2_AttributeList *AL) {
  Native N;
  N.Kind = K;
  N.Time = T;
  impl(U)->emitMpi(N, AL, false, 0, false, 0);
  return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
}
CB evMpiSend(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
             OTF2_AttributeList *AL, uint32_t Receiver, OTF2_CommRef,
             uint32_t Tag, uint64_t Length) {
  return mpiMessage(U, EventKind::MpiSend, T, AL, Receiver, Tag, Length);
}
CB evMpiIsend(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
              OTF2_AttributeList *AL, uint32_t Receiver, OTF2_CommRef,
              uint32_t Tag, uint64_t Length, uint64_t) {
  return mpiMessage(U, EventKind::MpiIsend, T, AL, Receiver, Tag, Length);
}
CB evMpiRecv(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
             OTF2_AttributeList *AL, uint32_t Sender, OTF2_CommRef,
             uint32_t Tag, uint64_t Length) {
  return mpiMessage(U, EventKind::MpiRecv, T, AL, Sender, Tag, Length);
}
CB evMpiIrecv(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
              OTF2_AttributeList *AL, uint32_t Sender, OTF2_CommRef,
              uint32_t Tag, uint64_t Length, uint64_t) {
  return mpiMessage(U, EventKind::MpiIrecv, T, AL, Sender, Tag, Length);
}
CB evMpiIsendComplete(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
                      OTF2_AttributeList *AL, uint64_t) {
  return mpiOnly(U, EventKind::MpiIsendComplete, T, AL);
}
CB evMpiIrecvRequest(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
                     OTF2_AttributeList *AL, uint64_t) {
  return mpiOnly(U, EventKind::MpiIrecvRequest, T, AL);
}
CB evMpiRequestTest(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
                    OTF2_AttributeList *AL, uint64_t) {
  return mpiOnly(U, EventKind::MpiRequestTest, T, AL);
}
CB evMpiRequestCancelled(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
                         OTF2_AttributeList *AL, uint64_t) {
  return mpiOnly(U, EventKind::MpiRequestCancelled, T, AL);
}
CB evMpiCollectiveBegin(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
                        OTF2_AttributeList *AL) {
  return mpiOnly(U, EventKind::MpiCollectiveBegin, T, AL);
}
CB evNbCollectiveRequest(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
                         OTF2_AttributeList *AL, uint64_t) {
  return mpiOnly(U, EventKind::MpiCollectiveBegin, T, AL);
}
CB mpiCollectiveEnd(void *U, OTF2_TimeStamp T, OTF2_AttributeList *AL,
                    OTF2_CollectiveOp Op, uint32_t Root, uint64_t Sent,
                    uint64_t Received, uint64_t Request) {
  Native N;
  N.Kind = EventKind::MpiCollectiveEnd;
  N.Time = T;
  N.HasA = true;
  N.A = std::uint64_t(Op) << 56 | (Sent & mpi::SentMask);
  N.HasAux = true;
  N.Aux = Root;
  impl(U)->emitMpi(N, AL, true, std::uint32_t(Request), true, Received);
  return impl(U)->Corrupt ? OTF2_CALLBACK_INTERRUPT : Ok;
}
CB evMpiCollectiveEnd(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
                      OTF2_AttributeList *AL, OTF2_CollectiveOp Op,
                      OTF2_CommRef, uint32_t Root, uint64_t Sent,
                      uint64_t Received) {
  return mpiCollectiveEnd(U, T, AL, Op, Root, Sent, Received, 0);
}
CB evNbCollectiveComplete(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
                          OTF2_AttributeList *AL, OTF2_CollectiveOp Op,
                          OTF2_CommRef, uint32_t Root, uint64_t Sent,
                          uint64_t Received, uint64_t Request) {
  return mpiCollectiveEnd(U, T, AL, Op, Root, Sent, Received, Request);
}
CB evCommCreate(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
                OTF2_AttributeList *AL, OTF2_CommRef) {
  return mpiOnly(U, EventKind::MpiCommCreate, T, AL);
}
CB evCommDestroy(OTF2_LocationRef, OTF2_TimeStamp T, uint64_t, void *U,
                 OTF2_AttributeList *AL, OTF2_CommRef) {
  return mpiOnly(U, EventKind::MpiCommFree, T, AL);
}

} // namespace

bool TraceReader::Impl::attribute(OTF2_AttributeList *AL, Attr A,
                                  std::uint64_t &Out) {
  OTF2_Type T;
  OTF2_AttributeValue V;
  // A missing attribute asked for is an OTF2 error, formatted and kept
  // under a process-wide lock (docs/mpi.md): test first.
  if (AttrRef[A] == NoRef || !AL ||
      !OTF2_AttributeList_TestAttributeByID(AL, AttrRef[A]) ||
      OTF2_AttributeList_GetAttributeByID(AL, AttrRef[A], &T, &V) !=
          OTF2_SUCCESS)
    return false;
  Out = T == OTF2_TYPE_UINT64   ? V.uint64
        : T == OTF2_TYPE_UINT32 ? V.uint32
        : T == OTF2_TYPE_UINT16 ? V.uint16
        : T == OTF2_TYPE_UINT8  ? V.uint8
                                : 0;
  return true;
}

void TraceReader::Impl::applyAttributes(Event &E, OTF2_AttributeList *AL) {
  if (!AL || OTF2_AttributeList_GetNumberOfElements(AL) == 0)
    return;
  std::uint64_t X;
  if (attribute(AL, AttrTask, X))
    E.Task = X;
  if (attribute(AL, AttrSeq, X))
    E.Seq = std::uint32_t(X);
  if (attribute(AL, AttrA, X))
    E.A = X;
  if (attribute(AL, AttrCode, X))
    E.Code = X;
  if (attribute(AL, AttrAux, X))
    E.Aux = std::uint32_t(X);
  if (attribute(AL, AttrSub, X))
    E.Sub = std::uint16_t(X);
  if (attribute(AL, AttrExtra, X))
    E.Extra = std::uint32_t(X);
}

void TraceReader::Impl::push(const Event &E) {
  // A folded sync event stands for the two OMPT reported (unfoldEvent).
  Event Unfolded[MaxUnfolded];
  unsigned Count = unfoldEvent(E, Unfolded);
  Batch.insert(Batch.end(), Unfolded, Unfolded + Count);
  Events += Count;
  if (Batch.size() >= 4096)
    flushBatch();
}

void TraceReader::Impl::emit(const Native &N, OTF2_AttributeList *AL) {
  if (!codeIsAddress(N.Kind))
    return emitMpi(N, AL, false, 0, false, 0);
  if (++LocationEvents > MaxLocationEvents) {
    Corrupt = true;
    return;
  }
  Event E = Pred->predict(N);
  applyAttributes(E, AL);
  Pred->update(E);
  // code id -> address
  if (E.Code) {
    auto It = Codes.find(std::uint32_t(E.Code));
    E.Code = It == Codes.end() ? 0 : It->second.Code;
  }
  push(E);
}

void TraceReader::Impl::emitMpi(const Native &N, OTF2_AttributeList *AL,
                                bool ExtraNative, std::uint32_t Extra,
                                bool CodeNative, std::uint64_t Code) {
  if (++LocationEvents > MaxLocationEvents) {
    Corrupt = true;
    return;
  }
  Event E = Pred->predict(N);
  applyAttributes(E, AL);
  Pred->update(E); // as the writer's model saw it
  if (ExtraNative)
    E.Extra = Extra;
  std::uint64_t Payload = 0;
  bool HasPayload = !CodeNative && AL && attribute(AL, AttrPayload, Payload);
  push(Mpi.event(E, CodeNative, Code, HasPayload, Payload));
}

bool TraceReader::open(const std::string &Path, std::string &Error) {
  installQuietOtf2Errors();
  struct stat St;
  if (stat(Path.c_str(), &St) != 0) {
    Error = "cannot open '" + Path + "': " + std::strerror(errno);
    return false;
  }
  std::string Anchor = Path;
  if (S_ISDIR(St.st_mode)) {
    std::string D = Path;
    while (D.size() > 1 && D.back() == '/')
      D.pop_back();
    if (stat((D + "/traces.otf2").c_str(), &St) == 0)
      Anchor = D + "/traces.otf2";
    else if (stat((D + "/trace/traces.otf2").c_str(), &St) == 0)
      Anchor = D + "/trace/traces.otf2";
    else {
      Error = "no OTF2 archive in '" + Path +
              "' (expected traces.otf2 or trace/traces.otf2)";
      return false;
    }
  }
  P->Anchor = Anchor;
  if (stat(Anchor.c_str(), &St) == 0 && St.st_size == 0) {
    Error = "'" + Anchor +
            "' is empty: the traced run could not write its trace (was the "
            "disk full?)";
    return false;
  }
  if (!anchorOpensInTime(Anchor, Error))
    return false;
  P->R = OTF2_Reader_Open(Anchor.c_str());
  if (!P->R) {
    // OTF2's own text ("This no valid file extension!", "Archive creation
    // failed!") says nothing about the user's file: say what it is.
    const bool Otf2Name = Anchor.size() > 5 &&
                          Anchor.compare(Anchor.size() - 5, 5, ".otf2") == 0;
    Error = "'" + Anchor + "' is not " +
            (Otf2Name ? "a readable OTF2 archive (damaged, or not written "
                        "by OTF2)"
                      : "an OTF2 archive (its anchor file ends in .otf2)") +
            ": give a run's output directory, its trace/ directory or "
            "trace/traces.otf2";
    return false;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(P->R);
  char *Job = nullptr;
  if (OTF2_Reader_GetProperty(P->R, "OTTER::JOB", &Job) == OTF2_SUCCESS &&
      Job) {
    std::free(Job);
    Error = "'" + Anchor +
            "' is the OTF2 archive of a whole MPI job (for OTF2 tools); OTTER "
            "reads each rank's own: rank-<N>/ beside it";
    return false;
  }
  char *Format = nullptr;
  if (OTF2_Reader_GetProperty(P->R, FormatProperty, &Format) !=
          OTF2_SUCCESS ||
      !Format) {
    Error = "'" + Anchor + "' is not an OTTER trace (no " + FormatProperty +
            " property)";
    return false;
  }
  std::string F = Format;
  std::free(Format);
  if (samplesOnlyArchive(P->R, Anchor, Error)) // trace/sample_reader.h
    return false;
  // An anchor property's value to Use, if the archive has it.
  auto property = [&](const char *Name, auto Use) {
    char *V = nullptr;
    if (OTF2_Reader_GetProperty(P->R, Name, &V) == OTF2_SUCCESS && V) {
      Use(V);
      std::free(V);
    }
  };
  property(NamesProperty, [&](const char *V) { P->Names = decodeNames(V); });
  property(StateProperty, [&](const char *V) {
    P->Complete = std::string(V) != StateRunning;
  });
  P->CutLimit = 0;
  property(CutProperty, [&](const char *V) {
    // The limit is never 0 (no limit): a cut all the same.
    P->CutLimit = std::max<std::uint64_t>(1, std::strtoull(V, nullptr, 10));
  });
  P->RecordingCostNs = 0;
  property(RecordingCostProperty, [&](const char *V) {
    P->RecordingCostNs = decodeRecordingCost(V);
  });
  property(FilterProperty, [&](const char *V) { P->Filter = V; });
  if (std::find(std::begin(FormatVersionsRead), std::end(FormatVersionsRead),
                F) == std::end(FormatVersionsRead)) {
    Error = "'" + Anchor + "' has OTTER trace format '" + F +
            "'; this reader understands '" + FormatVersion +
            "' and older (a newer OTTER wrote it?)";
    return false;
  }
  OTF2_GlobalDefReader *DR = OTF2_Reader_GetGlobalDefReader(P->R);
  if (!DR) {
    Error = "cannot read the definitions of '" + Anchor + "': " +
            lastOtf2Error();
    return false;
  }
  OTF2_GlobalDefReaderCallbacks *C = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(C, defString);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(C, defAttribute);
  OTF2_GlobalDefReaderCallbacks_SetParameterCallback(C, defParameter);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(C, defRegion);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(C, defLocation);
  OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(C, defCallingContext);
  OTF2_GlobalDefReaderCallbacks_SetCallingContextPropertyCallback(
      C, defCallingContextProperty);
  OTF2_Reader_RegisterGlobalDefCallbacks(P->R, DR, C, P.get());
  OTF2_GlobalDefReaderCallbacks_Delete(C);
  uint64_t N = 0;
  OTF2_ErrorCode E = OTF2_Reader_ReadAllGlobalDefinitions(P->R, DR, &N);
  OTF2_Reader_CloseGlobalDefReader(P->R, DR);
  if (E != OTF2_SUCCESS) {
    Error = "corrupt definitions in '" + Anchor + "': " + lastOtf2Error();
    return false;
  }
  if (P->AttrRef[AttrTask] == NoRef) {
    Error = "'" + Anchor + "' is not an OTTER trace (no otter attributes)";
    return false;
  }
  for (auto &[Id, CI] : P->Codes) {
    auto s = [&](const char *Name) {
      auto It = CI.StrProps.find(Name);
      return It == CI.StrProps.end() ? std::string() : P->str(It->second);
    };
    CI.Label.Directive = s("otter:directive");
    CI.Label.File = s("otter:file");
    CI.Label.Function = s("otter:function");
    CI.Label.Clauses = s("otter:clauses");
    CI.Label.Location = s("otter:location");
    CI.StrProps.clear();
    P->LabelOf[CI.Code] = CI.Label;
  }
  return true;
}

namespace {
/// One line on stderr per distinct warning in the process: the utilities
/// read an archive several times (one reader per thread, several passes),
/// and a damaged file is news once.
void warnOnce(const std::string &Text) {
  static std::mutex M;
  static std::set<std::string> Said;
  std::lock_guard<std::mutex> G(M);
  if (Said.insert(Text).second)
    std::fprintf(stderr, "otter: warning: %s\n", printable(Text).c_str());
}
} // namespace

bool TraceReader::readEvents(const Sink &Fn, std::string &Error) {
  std::vector<std::uint32_t> All;
  for (std::uint64_t L : P->Locations)
    All.push_back(std::uint32_t(L));
  return readLocations(All, Fn, Error);
}

bool TraceReader::readLocations(const std::vector<std::uint32_t> &Threads,
                                const Sink &Fn, std::string &Error) {
  if (!P->R) {
    Error = "no archive open";
    return false;
  }
  for (std::uint32_t T : Threads)
    if (std::find(P->Locations.begin(), P->Locations.end(),
                  std::uint64_t(T)) == P->Locations.end()) {
      Error = "no location " + std::to_string(T) + " in '" + P->Anchor + "'";
      return false;
    }
  if (Threads.empty())
    return true;
  // OTF2 opens event files once per reader: reopen the reader for a second
  // read (the definitions stay ours).
  if (P->EvtFilesUsed) {
    OTF2_Reader_Close(P->R);
    P->R = OTF2_Reader_Open(P->Anchor.c_str());
    if (!P->R) {
      Error = "cannot reopen OTF2 archive '" + P->Anchor +
              "': " + lastOtf2Error();
      return false;
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(P->R);
  }
  P->EvtFilesUsed = true;
  for (std::uint32_t L : Threads)
    OTF2_Reader_SelectLocation(P->R, L);
  bool HaveEvtFiles = OTF2_Reader_OpenEvtFiles(P->R) == OTF2_SUCCESS;
  if (!HaveEvtFiles) {
    Error = "cannot open the event files of '" + P->Anchor +
            "': " + lastOtf2Error();
    return false;
  }
  OTF2_EvtReaderCallbacks *C = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(C, evEnter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(C, evLeave);
  OTF2_EvtReaderCallbacks_SetThreadForkCallback(C, evFork);
  OTF2_EvtReaderCallbacks_SetThreadJoinCallback(C, evJoin);
  OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(C, evCreate);
  OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(C, evComplete);
  OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(C, evSwitch);
  OTF2_EvtReaderCallbacks_SetParameterUnsignedIntCallback(C, evParam);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(C, evMpiSend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(C, evMpiIsend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(C, evMpiIsendComplete);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(C, evMpiIrecvRequest);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(C, evMpiRecv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(C, evMpiIrecv);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(C, evMpiRequestTest);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(C,
                                                         evMpiRequestCancelled);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(C,
                                                        evMpiCollectiveBegin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(C, evMpiCollectiveEnd);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(
      C, evNbCollectiveRequest);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
      C, evNbCollectiveComplete);
  OTF2_EvtReaderCallbacks_SetCommCreateCallback(C, evCommCreate);
  OTF2_EvtReaderCallbacks_SetCommDestroyCallback(C, evCommDestroy);
  P->Out = &Fn;
  // A location that cannot be read (a damaged or missing thread file) is
  // one warning, and the others are read: one bad file must not lose the
  // whole trace. Only when none can be read is it an error.
  std::size_t &Damaged = P->Damaged;
  Damaged = 0;
  bool Fatal = false;
  auto damaged = [&](const std::string &Why) {
    ++Damaged;
    Error = Why;
    warnOnce(Why + "; the other threads are read");
  };
  for (std::uint32_t L : Threads) {
    OTF2_EvtReader *ER = OTF2_Reader_GetEvtReader(P->R, L);
    if (!ER) {
      damaged("cannot read the events of thread " + std::to_string(L) +
              " in '" + P->Anchor + "' (" + lastOtf2Error() +
              "): its file is missing or damaged");
      continue;
    }
    OTF2_Reader_RegisterEvtCallbacks(P->R, ER, C, P.get());
    P->Pred.emplace(L);
    P->Mpi = MpiModel();
    P->Thread = L;
    P->PendingComplete = false;
    P->LocationEvents = 0;
    P->Corrupt = false;
    P->MaxLocationEvents = ~std::uint64_t(0);
    {
      std::string Dir = P->Anchor;
      if (Dir.size() > 5 && Dir.compare(Dir.size() - 5, 5, ".otf2") == 0)
        Dir.resize(Dir.size() - 5);
      struct stat St;
      if (stat((Dir + "/" + std::to_string(L) + ".evt").c_str(), &St) == 0)
        P->MaxLocationEvents = std::uint64_t(St.st_size);
    }
    uint64_t N = 0;
    OTF2_ErrorCode E = OTF2_Reader_ReadAllLocalEvents(P->R, ER, &N);
    P->flushBatch();
    OTF2_Reader_CloseEvtReader(P->R, ER);
    auto Def = P->DefinedEvents.find(L);
    bool Short = E == OTF2_SUCCESS && Def != P->DefinedEvents.end() &&
                 N < Def->second;
    if (P->Corrupt || E != OTF2_SUCCESS || Short) {
      Error = "the events of thread " + std::to_string(L) + " in '" +
              P->Anchor + "' are cut off or corrupt";
      if (Short)
        Error += " (" + std::to_string(N) + " of " +
                 std::to_string(Def->second) + " records)";
      else if (E != OTF2_SUCCESS)
        Error += " (" + lastOtf2Error() + ")";
      Error += ": the run ended abnormally, or the file was truncated";
      // OTF2's reader looping over a cut chunk (more records than the file
      // has bytes): what was handed out holds repeated events, so nothing
      // of this read can be trusted: an error, as before.
      if (P->Corrupt) {
        Fatal = true;
        break;
      }
      if (N)
        Error += " (its first " + std::to_string(N) + " records are read)";
      damaged(Error);
    }
  }
  OTF2_EvtReaderCallbacks_Delete(C);
  OTF2_Reader_CloseEvtFiles(P->R);
  P->Out = nullptr;
  if (Fatal) {
    Damaged = 0; // not a damaged file to skip: the whole read failed
    return false;
  }
  return Damaged < Threads.size();
}

std::vector<std::uint32_t> TraceReader::locations() const {
  std::vector<std::uint32_t> R;
  for (std::uint64_t L : P->Locations)
    R.push_back(std::uint32_t(L));
  return R;
}
bool TraceReader::complete() const { return P->Complete; }
std::size_t TraceReader::damagedLocations() const { return P->Damaged; }
const std::vector<std::string> &TraceReader::names() const { return P->Names; }

const std::string &TraceReader::filter() const { return P->Filter; }
std::uint64_t TraceReader::cutAtLimit() const { return P->CutLimit; }
std::uint32_t TraceReader::recordingCostNs() const {
  return P->RecordingCostNs;
}

SourceLabel TraceReader::label(std::uint64_t Code) const {
  auto It = P->LabelOf.find(Code);
  return It == P->LabelOf.end() ? SourceLabel{} : It->second;
}
std::size_t TraceReader::locationCount() const { return P->Locations.size(); }
std::uint64_t TraceReader::eventCount() const { return P->Events; }

} // namespace otter::trace
