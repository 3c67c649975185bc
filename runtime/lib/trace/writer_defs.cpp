//===- trace/writer_defs.cpp - OTF2 global definitions --------------------===//
//
// The trace's global definitions from the writer's tables: strings, the
// clock range, paradigms, system tree, locations, attributes, parameters,
// regions (names and roles per OpenMP construct and MPI function), thread
// team and MPI communicators, calling contexts with their source labels.
// Written at close and at every checkpoint; the tables of code addresses
// and regions they are written from are filled here too (newCodeId,
// newRegion). Part of the trace writer
// (writer_impl.h).
//
//===----------------------------------------------------------------------===//
#include "otter/constructs.h"
#include "otter/mpi.h"
#include "trace/writer_impl.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace otter::trace {

namespace {

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

std::string hexKey(std::uint64_t Key) {
  char B[20];
  std::snprintf(B, sizeof B, "%016llx", (unsigned long long)Key);
  return B;
}

// The regions' names (otter/constructs.def); one per sub-kind value.
const char *syncName(unsigned S) {
  const char *N = constructs::syncRegionName(S);
  return N ? N : "sync";
}
const char *workName(unsigned S) {
  const char *N = constructs::workRegionName(S);
  return N ? N : "work";
}
const char *mutexName(unsigned S) {
  const char *N = constructs::mutexRegionName(S);
  return N ? N : "mutex";
}

OTF2_RegionRole mpiRole(mpi::Function F) {
  using mpi::Function;
  switch (F) {
  case Function::Barrier:
  case Function::Ibarrier:
    return OTF2_REGION_ROLE_BARRIER;
  case Function::Bcast:
  case Function::Ibcast:
  case Function::Scatter:
  case Function::Iscatter:
  case Function::Scatterv:
  case Function::Iscatterv:
    return OTF2_REGION_ROLE_COLL_ONE2ALL;
  case Function::Reduce:
  case Function::Ireduce:
  case Function::Gather:
  case Function::Igather:
  case Function::Gatherv:
  case Function::Igatherv:
    return OTF2_REGION_ROLE_COLL_ALL2ONE;
  case Function::Allreduce:
  case Function::Iallreduce:
  case Function::Allgather:
  case Function::Iallgather:
  case Function::Allgatherv:
  case Function::Iallgatherv:
  case Function::Alltoall:
  case Function::Ialltoall:
  case Function::Alltoallv:
  case Function::Ialltoallv:
  case Function::Reduce_scatter:
  case Function::Ireduce_scatter:
  case Function::Reduce_scatter_block:
  case Function::Ireduce_scatter_block:
    return OTF2_REGION_ROLE_COLL_ALL2ALL;
  case Function::Scan:
  case Function::Iscan:
  case Function::Exscan:
  case Function::Iexscan:
    return OTF2_REGION_ROLE_COLL_OTHER;
  default:
    return unsigned(F) >= 10 && unsigned(F) < 50 ? OTF2_REGION_ROLE_POINT2POINT
                                                 : OTF2_REGION_ROLE_FUNCTION;
  }
}

OTF2_RegionRole roleOf(RegionClass C, unsigned S) {
  switch (C) {
  case RegionClass::Thread:
    return OTF2_REGION_ROLE_ARTIFICIAL;
  case RegionClass::ImplicitTask:
    return S ? OTF2_REGION_ROLE_ARTIFICIAL : OTF2_REGION_ROLE_TASK;
  case RegionClass::Parallel:
    return OTF2_REGION_ROLE_PARALLEL;
  case RegionClass::Sync:
  case RegionClass::SyncWait:
    switch (SyncKind(S)) {
    case SyncKind::Barrier:
    case SyncKind::BarrierExplicit:
      return OTF2_REGION_ROLE_BARRIER;
    case SyncKind::Taskwait:
      return OTF2_REGION_ROLE_TASK_WAIT;
    case SyncKind::Taskgroup:
      return C == RegionClass::Sync ? OTF2_REGION_ROLE_CODE
                                    : OTF2_REGION_ROLE_TASK_WAIT;
    case SyncKind::Reduction:
      return OTF2_REGION_ROLE_CODE;
    default:
      return OTF2_REGION_ROLE_IMPLICIT_BARRIER;
    }
  case RegionClass::Work:
    switch (WorkKind(S)) {
    case WorkKind::Sections:
      return OTF2_REGION_ROLE_SECTIONS;
    case WorkKind::SingleExecutor:
    case WorkKind::SingleOther:
      return OTF2_REGION_ROLE_SINGLE;
    case WorkKind::Workshare:
      return OTF2_REGION_ROLE_WORKSHARE;
    case WorkKind::Scope:
      return OTF2_REGION_ROLE_CODE;
    default:
      return OTF2_REGION_ROLE_LOOP;
    }
  case RegionClass::Masked:
    return OTF2_REGION_ROLE_MASTER;
  case RegionClass::MutexWait:
    switch (MutexKind(S)) {
    case MutexKind::Critical:
      return OTF2_REGION_ROLE_CRITICAL;
    case MutexKind::Ordered:
      return OTF2_REGION_ROLE_ORDERED;
    case MutexKind::Atomic:
      return OTF2_REGION_ROLE_ATOMIC;
    default:
      return OTF2_REGION_ROLE_THREAD_WAIT;
    }
  case RegionClass::MutexHeld:
    switch (MutexKind(S)) {
    case MutexKind::Critical:
      return OTF2_REGION_ROLE_CRITICAL_SBLOCK;
    case MutexKind::Ordered:
      return OTF2_REGION_ROLE_ORDERED_SBLOCK;
    case MutexKind::Atomic:
      return OTF2_REGION_ROLE_ATOMIC;
    default:
      return OTF2_REGION_ROLE_CODE;
    }
  case RegionClass::NestLock:
    return OTF2_REGION_ROLE_CODE;
  case RegionClass::Task:
    return OTF2_REGION_ROLE_TASK;
  case RegionClass::MpiCall:
    return mpiRole(mpi::Function(S));
  case RegionClass::Target: // a host thread's target construct
    return OTF2_REGION_ROLE_CODE;
  default:
    return OTF2_REGION_ROLE_CODE;
  }
}

std::string regionBaseName(RegionClass C, unsigned S) {
  switch (C) {
  case RegionClass::Thread:
    return S == 1 ? "initial thread" : S == 2 ? "worker thread"
                                              : "other thread";
  case RegionClass::ImplicitTask:
    return S ? "initial task" : "implicit task";
  case RegionClass::Parallel:
    return "parallel";
  case RegionClass::Sync:
    return syncName(S);
  case RegionClass::SyncWait:
    return std::string(syncName(S)) + " (wait)";
  case RegionClass::Work:
    return workName(S);
  case RegionClass::Masked:
    return "masked";
  case RegionClass::MutexWait:
    return std::string(mutexName(S)) + " (acquire)";
  case RegionClass::MutexHeld:
    return std::string(mutexName(S)) + " (held)";
  case RegionClass::NestLock:
    return "nest_lock (nested)";
  case RegionClass::Task:
    return "task";
  case RegionClass::MpiCall:
    return mpi::functionName(mpi::Function(S));
  case RegionClass::Target:
    switch (TargetKind(S & 7)) {
    case TargetKind::EnterData:
      return S & 8 ? "target enter data nowait" : "target enter data";
    case TargetKind::ExitData:
      return S & 8 ? "target exit data nowait" : "target exit data";
    case TargetKind::Update:
      return S & 8 ? "target update nowait" : "target update";
    default:
      return S & 8 ? "target nowait" : "target";
    }
  default:
    return "code";
  }
}

class Strings {
public:
  std::uint32_t operator()(const std::string &S) {
    auto It = Map.find(S);
    if (It != Map.end())
      return It->second;
    std::uint32_t Id = std::uint32_t(List.size());
    List.push_back(S);
    Map.emplace(S, Id);
    return Id;
  }
  std::vector<std::string> List;

private:
  std::unordered_map<std::string, std::uint32_t> Map;
};

OTF2_AttributeValue u64(std::uint64_t V) {
  OTF2_AttributeValue A;
  A.uint64 = V;
  return A;
}
OTF2_AttributeValue u32(std::uint32_t V) {
  OTF2_AttributeValue A;
  A.uint32 = V;
  return A;
}
OTF2_AttributeValue str(std::uint32_t V) {
  OTF2_AttributeValue A;
  A.stringRef = V;
  return A;
}

} // namespace

//===----------------------------------------------------------------------===//
// The code addresses and regions the events name: a location's first use
// of one (its cache missed: writer_encode.cpp, codeId and region) interns
// it in the writer's tables, which the definitions are written from.
//===----------------------------------------------------------------------===//

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


/// Writes every definition known so far. Called with M held. Checkpoint:
/// only the locations whose events are on disk, with the count on disk.
void TraceWriter::Impl::writeDefinitions(OTF2_GlobalDefWriter *D,
                                         bool Checkpoint) {
  auto listed = [&](std::size_t I) {
    return Locs[I] && (!Checkpoint || Locs[I]->OnDisk);
  };
  Strings S;
  // Intern every string first: definitions may only reference strings
  // defined before them.
  std::uint32_t SEmpty = S("");
  std::uint32_t SOpenMP = S("OpenMP");
  char Host[256] = "localhost";
  gethostname(Host, sizeof Host - 1);
  std::uint32_t SHost = S(Host), SMachine = S("machine");
  const std::int64_t RankNow = Rank >= 0 ? Rank : Opt.Rank;
  std::uint32_t SProcess =
      S(RankNow >= 0 ? "MPI rank " + std::to_string(RankNow)
                     : "process " + std::to_string(getpid()));
  std::uint32_t SMpi = S("MPI");
  const bool SawPhase =
      std::any_of(Regions.begin(), Regions.end(), [](const RegionEntry &R) {
        return R.Class == RegionClass::Phase;
      });
  std::uint32_t SUser = SawPhase ? S("User") : 0;
  std::map<std::uint16_t, std::uint32_t> SComm;
  for (const auto &[Index, C] : MpiComms)
    SComm[Index] =
        S(C.Name && C.Name < Names.size() && !Names[C.Name].empty()
              ? Names[C.Name]
          : C.Key == mpi::WorldKey ? std::string("MPI_COMM_WORLD")
          : RankNow >= 0 && C.Key == mpi::commSelfKey(std::uint32_t(RankNow))
              ? std::string("MPI_COMM_SELF")
              : "MPI communicator " + hexKey(C.Key));
  std::uint32_t STeam = S("OpenMP threads");
  std::uint32_t SAttr[AttrCount], SParam[ParamCount];
  for (unsigned I = 0; I < AttrCount; ++I)
    SAttr[I] = S(AttrNames[I]);
  for (unsigned I = 0; I < ParamCount; ++I)
    SParam[I] = S(ParamNames[I]);
  const DeviceStrings SDev =
      deviceStrings([&](const std::string &X) { return S(X); });
  const SampleStrings SSam =
      sampleStrings([&](const std::string &X) { return S(X); });
  std::vector<std::uint32_t> SLoc(Locs.size());
  for (std::size_t I = 0; I < Locs.size(); ++I)
    if (listed(I))
      SLoc[I] = S("OpenMP thread " + std::to_string(I));
  struct RStr {
    std::uint32_t Name, Canon, Desc, File;
  };
  std::vector<RStr> RS(Regions.size());
  for (std::size_t I = 0; I < Regions.size(); ++I) {
    const RegionEntry &R = Regions[I];
    const CodeEntry &C = Codes[R.Code];
    std::string Name = R.Class == RegionClass::Phase
                           ? (R.Sub < Names.size() && !Names[R.Sub].empty()
                                  ? Names[R.Sub]
                                  : "phase #" + std::to_string(R.Sub))
                           : regionBaseName(R.Class, R.Sub);
    if (!C.Where.empty())
      Name += " @ " + C.Where;
    RS[I].Name = S(Name);
    RS[I].Canon = S("otter:" + std::to_string(unsigned(R.Class)) + ":" +
                    std::to_string(R.Sub));
    RS[I].Desc = S(C.Label.Directive.empty()
                       ? std::string(labelQualityName(C.Label.Quality))
                       : C.Label.Directive + " (" +
                             labelQualityName(C.Label.Quality) + ")");
    RS[I].File = S(C.Label.File);
  }
  const char *PropNames[] = {"otter:code",     "otter:directive",
                             "otter:file",     "otter:line",
                             "otter:col",      "otter:function",
                             "otter:clauses",  "otter:region_id",
                             "otter:location", "otter:quality"};
  ContextStrings CS;
  for (int I = 0; I < 10; ++I)
    CS.Prop[I] = S(PropNames[I]);
  CS.Code.resize(Codes.size());
  for (std::size_t I = 1; I < Codes.size(); ++I) {
    const SourceLabel &L = Codes[I].Label;
    CS.Code[I] = {S(L.Directive), S(L.File), S(L.Function), S(L.Clauses),
                  S(L.Location)};
  }

  auto [MinT, MaxT] = timeRange();
  OTF2_GlobalDefWriter_WriteClockProperties(D, 1000000000ull, MinT,
                                            MaxT - MinT + 1,
                                            OTF2_UNDEFINED_TIMESTAMP);
  for (std::size_t I = 0; I < S.List.size(); ++I)
    OTF2_GlobalDefWriter_WriteString(D, std::uint32_t(I), S.List[I].c_str());
  OTF2_GlobalDefWriter_WriteParadigm(D, OTF2_PARADIGM_OPENMP, SOpenMP,
                                     OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN);
  if (SawMpi)
    OTF2_GlobalDefWriter_WriteParadigm(D, OTF2_PARADIGM_MPI, SMpi,
                                       OTF2_PARADIGM_CLASS_PROCESS);
  if (SawPhase) // the program's phases (otter/otter.h)
    OTF2_GlobalDefWriter_WriteParadigm(D, OTF2_PARADIGM_USER, SUser,
                                       OTF2_PARADIGM_CLASS_PROCESS);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(D, 0, SHost, SMachine,
                                           OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_GlobalDefWriter_WriteLocationGroup(D, 0, SProcess,
                                          OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                          OTF2_UNDEFINED_LOCATION_GROUP);
  std::vector<std::uint64_t> Members, Ranks;
  for (std::size_t I = 0; I < Locs.size(); ++I) {
    if (!listed(I))
      continue;
    std::uint64_t N = std::max(Locs[I]->DiskEvents, Locs[I]->FlushedEvents);
    if (!Checkpoint)
      OTF2_EvtWriter_GetNumberOfEvents(Locs[I]->W, &N);
    OTF2_GlobalDefWriter_WriteLocation(D, I, SLoc[I],
                                       OTF2_LOCATION_TYPE_CPU_THREAD, N, 0);
    Ranks.push_back(Members.size());
    Members.push_back(I);
  }
  for (unsigned I = 0; I < AttrCount; ++I)
    OTF2_GlobalDefWriter_WriteAttribute(
        D, I, SAttr[I], SEmpty,
        (I == AttrTask || I == AttrA || I == AttrPayload) ? OTF2_TYPE_UINT64
                                                          : OTF2_TYPE_UINT32);
  for (unsigned I = 0; I < ParamCount; ++I)
    OTF2_GlobalDefWriter_WriteParameter(D, I, SParam[I],
                                        OTF2_PARAMETER_TYPE_UINT64);
  for (std::size_t I = 0; I < Regions.size(); ++I) {
    const RegionEntry &R = Regions[I];
    const SourceLabel &L = Codes[R.Code].Label;
    OTF2_GlobalDefWriter_WriteRegion(
        D, std::uint32_t(I), RS[I].Name, RS[I].Canon, RS[I].Desc,
        roleOf(R.Class, R.Sub),
        R.Class == RegionClass::MpiCall ? OTF2_PARADIGM_MPI
        : R.Class == RegionClass::Phase ? OTF2_PARADIGM_USER
                                        : OTF2_PARADIGM_OPENMP,
        OTF2_REGION_FLAG_NONE, RS[I].File, L.Line, L.Line);
  }
  writeDeviceDefinitions(D, SDev); // writer_device.cpp
  OTF2_GlobalDefWriter_WriteGroup(D, 0, STeam, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                  OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                  std::uint32_t(Members.size()),
                                  Members.data());
  OTF2_GlobalDefWriter_WriteGroup(D, 1, STeam, OTF2_GROUP_TYPE_COMM_GROUP,
                                  OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                  std::uint32_t(Ranks.size()), Ranks.data());
  OTF2_GlobalDefWriter_WriteComm(D, TeamComm, STeam, 1, OTF2_UNDEFINED_COMM,
                                 OTF2_COMM_FLAG_NONE);
  writeMpiComms(D, SMpi, SComm, RankNow);
  // The sampled functions' regions after the devices' (writer_samples.cpp).
  const std::uint32_t SampleRegions = std::uint32_t(
      Regions.size() + (DevStreams.empty() ? 0 : DevRegions.size()));
  writeSampleDefinitions(D, SSam, SampleRegions);
  writeCallingContexts(D, CS, SSam, SampleRegions);
}

/// The first and last timestamps of every location's events (0, 0: none).
std::pair<std::uint64_t, std::uint64_t> TraceWriter::Impl::timeRange() const {
  std::uint64_t MinT = ~0ull, MaxT = 0;
  for (Location *L : Locs) {
    if (!L)
      continue;
    std::uint64_t Lo = L->MinT.load(std::memory_order_relaxed),
                  Hi = L->LastT.load(std::memory_order_relaxed);
    if (Lo <= Hi) {
      MinT = std::min(MinT, Lo);
      MaxT = std::max(MaxT, Hi);
    }
  }
  if (MinT > MaxT)
    MinT = MaxT = 0;
  return {MinT, MaxT};
}

/// MPI communicators: ref = the comm index of the events; each group lists
/// the members' ranks in MPI_COMM_WORLD (the job archive's MPI
/// COMM_LOCATIONS group maps those to each rank's first thread). Strings:
/// SMpi "MPI", SComm each communicator's name.
void TraceWriter::Impl::writeMpiComms(
    OTF2_GlobalDefWriter *D, std::uint32_t SMpi,
    const std::map<std::uint16_t, std::uint32_t> &SComm,
    std::int64_t RankNow) {
  std::uint32_t NextGroup = 2;
  if (SawMpi && WorldSize > 0) {
    // MPI ranks -> locations: this archive holds one rank's threads; the
    // others are the job archive's locations (rank << 16 | thread).
    std::vector<std::uint64_t> RankLocs(WorldSize);
    for (std::uint32_t R = 0; R < WorldSize; ++R)
      RankLocs[R] = std::int64_t(R) == RankNow ? 0 : OTF2_UNDEFINED_LOCATION;
    OTF2_GlobalDefWriter_WriteGroup(
        D, NextGroup++, SMpi, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
        OTF2_GROUP_FLAG_NONE, WorldSize, RankLocs.data());
  }
  for (const auto &[Index, C] : MpiComms) {
    std::vector<std::uint64_t> World(C.Size);
    for (std::uint32_t R = 0; R < C.Size; ++R)
      World[R] = R < C.Members.size() ? C.Members[R] : R;
    OTF2_GlobalDefWriter_WriteGroup(
        D, NextGroup, SComm.at(Index), OTF2_GROUP_TYPE_COMM_GROUP,
        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, C.Size, World.data());
    OTF2_CommRef Parent = OTF2_UNDEFINED_COMM;
    for (const auto &[PIndex, P] : MpiComms)
      if (C.Parent && P.Key == C.Parent && PIndex < Index)
        Parent = PIndex;
    OTF2_GlobalDefWriter_WriteComm(D, Index, SComm.at(Index), NextGroup++, Parent,
                                   OTF2_COMM_FLAG_NONE);
  }
}

/// The calling contexts, one per code address with a region, with their
/// source labels as properties (CS: their strings).
void TraceWriter::Impl::writeCallingContexts(
    OTF2_GlobalDefWriter *D, const ContextStrings &CS, const SampleStrings &SS,
    std::uint32_t FirstSampleRegion) {
  // Definition refs must be dense: calling context = code id - 1 (a code id
  // may be a sample's calling context: writer_samples.cpp).
  std::uint32_t NextScl = 0;
  for (std::size_t I = 1; I < Codes.size(); ++I) {
    const CodeEntry &C = Codes[I];
    if (C.SampleCtx != NoRef) {
      writeSampleContext(D, std::uint32_t(I - 1), SampleCtxs[C.SampleCtx], SS,
                         FirstSampleRegion);
      continue;
    }
    const SourceLabel &L = C.Label;
    OTF2_SourceCodeLocationRef Scl = OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
    if (!L.File.empty() && L.Line) {
      Scl = NextScl++;
      OTF2_GlobalDefWriter_WriteSourceCodeLocation(D, Scl, CS.Code[I].File,
                                                   L.Line);
    }
    std::uint32_t R = C.Region;
    if (R == NoRef) // address seen but never in a region: give it one
      continue;
    OTF2_GlobalDefWriter_WriteCallingContext(D, std::uint32_t(I - 1), R, Scl,
                                             OTF2_UNDEFINED_CALLING_CONTEXT);
    auto prop = [&](int P, OTF2_Type T, OTF2_AttributeValue V) {
      OTF2_GlobalDefWriter_WriteCallingContextProperty(D, std::uint32_t(I - 1),
                                                       CS.Prop[P], T, V);
    };
    prop(0, OTF2_TYPE_UINT64, u64(C.Code));
    prop(1, OTF2_TYPE_STRING, str(CS.Code[I].Directive));
    prop(2, OTF2_TYPE_STRING, str(CS.Code[I].File));
    prop(3, OTF2_TYPE_UINT32, u32(L.Line));
    prop(4, OTF2_TYPE_UINT32, u32(L.Col));
    prop(5, OTF2_TYPE_STRING, str(CS.Code[I].Function));
    prop(6, OTF2_TYPE_STRING, str(CS.Code[I].Clauses));
    prop(7, OTF2_TYPE_UINT64, u64(L.RegionId));
    prop(8, OTF2_TYPE_STRING, str(CS.Code[I].Location));
    prop(9, OTF2_TYPE_UINT32, u32(std::uint32_t(L.Quality)));
  }}

} // namespace otter::trace
