//===- trace/merge.cpp - One OTF2 archive for an MPI job ------------------===//
#include "trace/merge.h"
#include "trace/codec.h"
#include "trace/errors.h"
#include "trace/merge_samples.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <iterator>
#include <map>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace otter::trace {

namespace {

using CB = OTF2_CallbackCode;
constexpr CB Ok = OTF2_CALLBACK_SUCCESS;

/// One rank's global definitions, references resolved to text where the
/// job archive unifies by value.
struct RankDefs {
  int Rank = -1;
  std::string Dir; // <job>/rank-N/trace
  std::map<std::uint32_t, std::string> Strings;
  std::string Host;
  struct Location {
    std::uint64_t Ref;
    std::uint32_t Name;
    OTF2_LocationType Type;
    std::uint64_t Events;
  };
  std::vector<Location> Locations;
  struct Region {
    std::uint32_t Name, Canon, Desc, File;
    OTF2_RegionRole Role;
    OTF2_Paradigm Paradigm;
    OTF2_RegionFlag Flags;
    std::uint32_t Begin, End;
  };
  std::map<std::uint32_t, Region> Regions;
  struct Attribute {
    std::uint32_t Name, Desc;
    OTF2_Type Type;
  };
  std::map<std::uint32_t, Attribute> Attributes;
  struct Parameter {
    std::uint32_t Name;
    OTF2_ParameterType Type;
  };
  std::map<std::uint32_t, Parameter> Parameters;
  struct Group {
    std::uint32_t Name;
    OTF2_GroupType Type;
    OTF2_Paradigm Paradigm;
    std::vector<std::uint64_t> Members;
  };
  std::map<std::uint32_t, Group> Groups;
  struct Comm {
    std::uint32_t Name, Group, Parent;
  };
  std::map<std::uint32_t, Comm> Comms;
  std::uint64_t Start = ~0ull, End = 0;
  std::uint64_t EventChunk = 0; // the event files' chunk size
  bool Complete = true;
  std::string ClockOffsets;
  merge::RankSampleDefs Samples; // merge_samples.h
  const std::string &str(std::uint32_t Ref) const {
    static const std::string Empty;
    auto It = Strings.find(Ref);
    return It == Strings.end() ? Empty : It->second;
  }
};

RankDefs &defs(void *U) { return *static_cast<RankDefs *>(U); }

CB onString(void *U, OTF2_StringRef Self, const char *S) {
  defs(U).Strings[Self] = S ? S : "";
  return Ok;
}
CB onClock(void *U, uint64_t, uint64_t Offset, uint64_t Length, uint64_t) {
  defs(U).Start = Offset;
  defs(U).End = Offset + Length;
  return Ok;
}
CB onNode(void *U, OTF2_SystemTreeNodeRef, OTF2_StringRef Name, OTF2_StringRef,
          OTF2_SystemTreeNodeRef Parent) {
  if (Parent == OTF2_UNDEFINED_SYSTEM_TREE_NODE)
    defs(U).Host = defs(U).str(Name);
  return Ok;
}
CB onLocation(void *U, OTF2_LocationRef Self, OTF2_StringRef Name,
              OTF2_LocationType Type, uint64_t Events, OTF2_LocationGroupRef) {
  defs(U).Locations.push_back({Self, Name, Type, Events});
  return Ok;
}
CB onRegion(void *U, OTF2_RegionRef Self, OTF2_StringRef Name,
            OTF2_StringRef Canon, OTF2_StringRef Desc, OTF2_RegionRole Role,
            OTF2_Paradigm Paradigm, OTF2_RegionFlag Flags, OTF2_StringRef File,
            uint32_t Begin, uint32_t End) {
  defs(U).Regions[Self] = {Name,     Canon, Desc,  File, Role,
                           Paradigm, Flags, Begin, End};
  return Ok;
}
CB onAttribute(void *U, OTF2_AttributeRef Self, OTF2_StringRef Name,
               OTF2_StringRef Desc, OTF2_Type Type) {
  defs(U).Attributes[Self] = {Name, Desc, Type};
  return Ok;
}
CB onParameter(void *U, OTF2_ParameterRef Self, OTF2_StringRef Name,
               OTF2_ParameterType Type) {
  defs(U).Parameters[Self] = {Name, Type};
  return Ok;
}
CB onGroup(void *U, OTF2_GroupRef Self, OTF2_StringRef Name,
           OTF2_GroupType Type, OTF2_Paradigm Paradigm, OTF2_GroupFlag,
           uint32_t N, const uint64_t *Members) {
  defs(U).Groups[Self] = {Name, Type, Paradigm,
                          std::vector<std::uint64_t>(Members, Members + N)};
  return Ok;
}
CB onComm(void *U, OTF2_CommRef Self, OTF2_StringRef Name, OTF2_GroupRef Group,
          OTF2_CommRef Parent, OTF2_CommFlag) {
  defs(U).Comms[Self] = {Name, Group, Parent};
  return Ok;
}

bool readRank(RankDefs &D, std::string &Error) {
  std::string Anchor = D.Dir + "/traces.otf2";
  OTF2_Reader *R = OTF2_Reader_Open(Anchor.c_str());
  if (!R) {
    Error = "cannot read '" + Anchor + "': " + lastOtf2Error();
    return false;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(R);
  std::uint64_t DefChunk = 0;
  OTF2_Reader_GetChunkSize(R, &D.EventChunk, &DefChunk);
  char *V = nullptr;
  if (OTF2_Reader_GetProperty(R, "OTTER::STATE", &V) == OTF2_SUCCESS && V) {
    D.Complete = std::strcmp(V, "running") != 0;
    std::free(V);
  }
  V = nullptr;
  if (OTF2_Reader_GetProperty(R, ClockOffsetsProperty, &V) == OTF2_SUCCESS &&
      V) {
    D.ClockOffsets = V;
    std::free(V);
  }
  OTF2_GlobalDefReader *DR = OTF2_Reader_GetGlobalDefReader(R);
  bool Good = DR != nullptr;
  if (DR) {
    OTF2_GlobalDefReaderCallbacks *C = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(C, onString);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(C, onClock);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(C, onNode);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(C, onLocation);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(C, onRegion);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(C, onAttribute);
    OTF2_GlobalDefReaderCallbacks_SetParameterCallback(C, onParameter);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(C, onGroup);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(C, onComm);
    OTF2_Reader_RegisterGlobalDefCallbacks(R, DR, C, &D);
    OTF2_GlobalDefReaderCallbacks_Delete(C);
    uint64_t N = 0;
    Good = OTF2_Reader_ReadAllGlobalDefinitions(R, DR, &N) == OTF2_SUCCESS;
    OTF2_Reader_CloseGlobalDefReader(R, DR);
  }
  OTF2_Reader_Close(R);
  if (!Good)
    Error =
        "cannot read the definitions of '" + Anchor + "': " + lastOtf2Error();
  return Good && merge::readSampleDefs(Anchor, D.Samples, Error);
}

/// Interned strings of the job archive, refs in order of first use.
class Strings {
public:
  std::uint32_t operator()(const std::string &S) {
    auto [It, New] = Map.try_emplace(S, std::uint32_t(List.size()));
    if (New)
      List.push_back(S);
    return It->second;
  }
  std::vector<std::string> List;

private:
  std::map<std::string, std::uint32_t> Map;
};

/// Unique refs by key, in order of first use.
template <typename Value> struct Table {
  std::map<std::string, std::uint32_t> Index;
  std::vector<Value> Items;
  std::uint32_t add(const std::string &Key, const Value &V) {
    auto [It, New] = Index.try_emplace(Key, std::uint32_t(Items.size()));
    if (New)
      Items.push_back(V);
    return It->second;
  }
};

std::uint64_t globalLocation(int Rank, std::uint64_t Local) {
  return std::uint64_t(Rank) << 16 | (Local & 0xffff);
}

int removeEntry(const char *Path, const struct stat *, int, struct FTW *) {
  return std::remove(Path);
}
void removeTree(const std::string &Path) {
  nftw(Path.c_str(), removeEntry, 16, FTW_DEPTH | FTW_PHYS);
}

OTF2_FlushType flushAlways(void *, OTF2_FileType, OTF2_LocationRef, void *,
                           bool) {
  return OTF2_FLUSH;
}
const OTF2_FlushCallbacks Flush = {flushAlways, nullptr};

/// The job archive's definitions, unified from the ranks' (unify).
struct JobDefs {
  struct Comm {
    std::uint32_t Name;
    std::vector<std::uint64_t> Members; // world ranks
    std::string ParentKey;
  };
  // Per rank: local ref -> job ref.
  struct Maps {
    std::map<std::uint64_t, std::uint64_t> Region, Attribute, Parameter, Comm;
    merge::RefMap Context, Generator; // the samples' (merge_samples.h)
  };
  Strings S;
  std::map<std::string, std::uint32_t> HostNode; // host -> node ref
  std::vector<std::pair<std::uint32_t, std::uint32_t>> Nodes; // name, class
  Table<RankDefs::Region> Regions;
  Table<RankDefs::Attribute> Attributes;
  Table<RankDefs::Parameter> Parameters;
  Table<Comm> MpiComms;
  merge::JobSampleDefs Samples;
  bool SamplesOnly = true; // every rank's archive holds samples alone
  std::vector<Maps> Map; // per rank
  std::uint64_t Start = ~0ull, End = 0;
  std::uint32_t WorldSize = 0;
  std::string Incomplete; // "1,3": ranks cut off or missing
  // Job comm refs: each rank's OpenMP team first, then MPI communicators.
  std::uint32_t FirstMpiComm = 0;
  // Strings of the groups, ranks and locations.
  std::uint32_t STeam = 0, SMpi = 0, SOpenMP = 0;
  std::vector<std::uint32_t> SRank, STeamOf;
  std::vector<std::vector<std::uint32_t>> SLoc;
};

/// The rank archives of the job in JobDir (rank-N/trace; of ranks below
/// JobSize if it is positive) that can be read, in rank order, with their
/// definitions. None: false, with Error.
bool readRanks(const std::string &JobDir, int JobSize,
               std::vector<RankDefs> &Ranks, std::string &Error) {
  if (DIR *D = opendir(JobDir.c_str())) {
    while (dirent *E = readdir(D)) {
      int Rank = -1;
      char Tail = 0;
      if (std::sscanf(E->d_name, "rank-%d%c", &Rank, &Tail) != 1 || Rank < 0 ||
          (JobSize > 0 && Rank >= JobSize))
        continue;
      RankDefs R;
      R.Rank = Rank;
      R.Dir = JobDir + "/" + E->d_name + "/trace";
      struct stat St;
      if (stat((R.Dir + "/traces.otf2").c_str(), &St) == 0 && St.st_size > 0)
        Ranks.push_back(std::move(R));
    }
    closedir(D);
  }
  if (Ranks.empty()) {
    Error = "no rank archives (rank-<N>/trace/traces.otf2) in '" + JobDir + "'";
    return false;
  }
  std::sort(
      Ranks.begin(), Ranks.end(),
      [](const RankDefs &A, const RankDefs &B) { return A.Rank < B.Rank; });
  // A rank whose archive cannot be read (killed before its first
  // checkpoint) is missing, not a reason to lose the others'.
  std::string FirstError;
  for (RankDefs &R : Ranks)
    if (!readRank(R, Error)) {
      if (FirstError.empty())
        FirstError = Error;
      R.Rank = -1;
    }
  Ranks.erase(std::remove_if(Ranks.begin(), Ranks.end(),
                             [](const RankDefs &R) { return R.Rank < 0; }),
              Ranks.end());
  if (Ranks.empty()) {
    Error = FirstError;
    return false;
  }
  Error.clear();
  return true;
}

/// Unifies the ranks' definitions into the job's (J), counting locations
/// and incomplete and missing ranks into Result.
void unify(std::vector<RankDefs> &Ranks, JobDefs &J, MergeResult &Result) {
  J.FirstMpiComm = std::uint32_t(Ranks.size());
  J.Map.resize(Ranks.size());
  Strings &S = J.S;
  auto &HostNode = J.HostNode;
  auto &Nodes = J.Nodes;
  auto &Regions = J.Regions;
  auto &Attributes = J.Attributes;
  auto &Parameters = J.Parameters;
  auto &MpiComms = J.MpiComms;
  auto &Map = J.Map;
  std::uint64_t &Start = J.Start, &End = J.End;
  std::uint32_t &WorldSize = J.WorldSize;
  std::string &Incomplete = J.Incomplete;
  S("");
  Nodes.push_back({S("OTTER job"), S("job")});
  for (std::size_t I = 0; I < Ranks.size(); ++I) {
    RankDefs &R = Ranks[I];
    auto s = [&](std::uint32_t Ref) { return S(R.str(Ref)); };
    if (!HostNode.count(R.Host)) {
      HostNode[R.Host] = std::uint32_t(Nodes.size());
      Nodes.push_back({S(R.Host), S("node")});
    }
    for (auto &[Ref, X] : R.Regions) {
      RankDefs::Region G{s(X.Name),  s(X.Canon), s(X.Desc), s(X.File), X.Role,
                         X.Paradigm, X.Flags,    X.Begin,   X.End};
      std::string Key =
          R.str(X.Name) + '\x1f' + R.str(X.Canon) + '\x1f' + R.str(X.Desc) +
          '\x1f' + R.str(X.File) + '\x1f' + std::to_string(X.Role) + ':' +
          std::to_string(X.Paradigm) + ':' + std::to_string(X.Begin);
      Map[I].Region[Ref] = Regions.add(Key, G);
    }
    for (auto &[Ref, X] : R.Attributes)
      Map[I].Attribute[Ref] =
          Attributes.add(R.str(X.Name) + ':' + std::to_string(X.Type),
                         RankDefs::Attribute{s(X.Name), s(X.Desc), X.Type});
    for (auto &[Ref, X] : R.Parameters)
      Map[I].Parameter[Ref] =
          Parameters.add(R.str(X.Name) + ':' + std::to_string(X.Type),
                         RankDefs::Parameter{s(X.Name), X.Type});
    for (auto &[Ref, X] : R.Comms) {
      auto G = R.Groups.find(X.Group);
      if (G == R.Groups.end() || G->second.Paradigm != OTF2_PARADIGM_MPI)
        continue; // the OpenMP thread team: one per rank, below
      std::string Key = R.str(X.Name);
      for (std::uint64_t M : G->second.Members) {
        Key += ',' + std::to_string(M);
        WorldSize = std::max(WorldSize, std::uint32_t(M + 1));
      }
      Map[I].Comm[Ref] =
          J.FirstMpiComm +
          MpiComms.add(
              Key, JobDefs::Comm{s(X.Name), G->second.Members, std::string()});
    }
    J.Samples.add(
        R.Samples, Map[I].Region, [&S](const std::string &X) { return S(X); },
        Map[I].Context, Map[I].Generator);
    J.SamplesOnly = J.SamplesOnly && R.Samples.SamplesOnly;
    WorldSize = std::max(WorldSize, std::uint32_t(R.Rank + 1));
    if (R.Start <= R.End && R.End) {
      Start = std::min(Start, R.Start);
      End = std::max(End, R.End);
    }
    Result.Locations += std::uint32_t(R.Locations.size());
  }
  // Ranks cut off (archive not closed) and ranks of the world that left no
  // readable archive, in rank order.
  {
    std::size_t Next = 0;
    for (std::uint32_t Rk = 0; Rk < WorldSize; ++Rk) {
      while (Next < Ranks.size() && std::uint32_t(Ranks[Next].Rank) < Rk)
        ++Next;
      bool Have = Next < Ranks.size() && std::uint32_t(Ranks[Next].Rank) == Rk;
      if (Have && Ranks[Next].Complete)
        continue;
      Incomplete += (Incomplete.empty() ? "" : ",") + std::to_string(Rk);
      ++(Have ? Result.IncompleteRanks : Result.MissingRanks);
    }
  }
  // Parents of MPI communicators, now that every one has its job ref.
  for (std::size_t I = 0; I < Ranks.size(); ++I)
    for (auto &[Ref, X] : Ranks[I].Comms)
      if (Map[I].Comm.count(Ref) && Map[I].Comm.count(X.Parent))
        MpiComms.Items[Map[I].Comm[Ref] - J.FirstMpiComm].ParentKey =
            std::to_string(Map[I].Comm[X.Parent] - J.FirstMpiComm);
  if (Start > End)
    Start = End = 0;
  J.STeam = S("OpenMP threads");
  J.SMpi = S("MPI");
  J.SOpenMP = S("OpenMP");
  J.SRank.resize(Ranks.size());
  J.STeamOf.resize(Ranks.size());
  J.SLoc.resize(Ranks.size());
  for (std::size_t I = 0; I < Ranks.size(); ++I) {
    J.SRank[I] = S("MPI rank " + std::to_string(Ranks[I].Rank));
    J.STeamOf[I] = S("OpenMP threads of rank " + std::to_string(Ranks[I].Rank));
    // A device's stream keeps its name ("rank 1 device 0 stream 0").
    for (const RankDefs::Location &L : Ranks[I].Locations)
      J.SLoc[I].push_back(
          S("rank " + std::to_string(Ranks[I].Rank) +
            (L.Type == OTF2_LOCATION_TYPE_ACCELERATOR_STREAM
                 ? " " + Ranks[I].str(L.Name)
                 : " thread " + std::to_string(L.Ref))));
    for (auto &[Ref, X] : Ranks[I].Comms)
      if (!Map[I].Comm.count(Ref))
        Map[I].Comm[Ref] = I; // the team
  }
}

/// The job's global definitions, written with D.
void writeGlobalDefs(OTF2_GlobalDefWriter *D, JobDefs &J,
                     const std::vector<RankDefs> &Ranks) {
  const Strings &S = J.S;
  auto &HostNode = J.HostNode;
  const auto &Nodes = J.Nodes;
  const auto &Regions = J.Regions;
  const auto &Attributes = J.Attributes;
  const auto &Parameters = J.Parameters;
  const auto &MpiComms = J.MpiComms;
  const std::uint32_t WorldSize = J.WorldSize, FirstMpiComm = J.FirstMpiComm;
  const std::uint64_t Start = J.Start, End = J.End;
  const std::uint32_t STeam = J.STeam, SMpi = J.SMpi, SOpenMP = J.SOpenMP;
  const auto &SRank = J.SRank;
  const auto &STeamOf = J.STeamOf;
  const auto &SLoc = J.SLoc;
  OTF2_GlobalDefWriter_WriteClockProperties(
      D, 1000000000ull, Start, End - Start + 1, OTF2_UNDEFINED_TIMESTAMP);
  for (std::size_t I = 0; I < S.List.size(); ++I)
    OTF2_GlobalDefWriter_WriteString(D, std::uint32_t(I), S.List[I].c_str());
  OTF2_GlobalDefWriter_WriteParadigm(D, OTF2_PARADIGM_OPENMP, SOpenMP,
                                     OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN);
  OTF2_GlobalDefWriter_WriteParadigm(D, OTF2_PARADIGM_MPI, SMpi,
                                     OTF2_PARADIGM_CLASS_PROCESS);
  for (std::size_t N = 0; N < Nodes.size(); ++N)
    OTF2_GlobalDefWriter_WriteSystemTreeNode(
        D, std::uint32_t(N), Nodes[N].first, Nodes[N].second,
        N ? 0 : OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  std::vector<std::uint64_t> AllLocations,
      RankLocation(WorldSize, OTF2_UNDEFINED_LOCATION);
  for (std::size_t I = 0; I < Ranks.size(); ++I) {
    const RankDefs &R = Ranks[I];
    OTF2_GlobalDefWriter_WriteLocationGroup(
        D, std::uint32_t(R.Rank), SRank[I], OTF2_LOCATION_GROUP_TYPE_PROCESS,
        HostNode[R.Host], OTF2_UNDEFINED_LOCATION_GROUP);
    for (std::size_t L = 0; L < R.Locations.size(); ++L) {
      std::uint64_t G = globalLocation(R.Rank, R.Locations[L].Ref);
      OTF2_GlobalDefWriter_WriteLocation(D, G, SLoc[I][L], R.Locations[L].Type,
                                         R.Locations[L].Events,
                                         std::uint32_t(R.Rank));
      AllLocations.push_back(G);
      if (L == 0 && std::uint32_t(R.Rank) < WorldSize)
        RankLocation[std::size_t(R.Rank)] = G;
    }
  }
  for (std::size_t I = 0; I < Regions.Items.size(); ++I) {
    const RankDefs::Region &X = Regions.Items[I];
    OTF2_GlobalDefWriter_WriteRegion(D, std::uint32_t(I), X.Name, X.Canon,
                                     X.Desc, X.Role, X.Paradigm, X.Flags,
                                     X.File, X.Begin, X.End);
  }
  for (std::size_t I = 0; I < Attributes.Items.size(); ++I)
    OTF2_GlobalDefWriter_WriteAttribute(
        D, std::uint32_t(I), Attributes.Items[I].Name, Attributes.Items[I].Desc,
        Attributes.Items[I].Type);
  for (std::size_t I = 0; I < Parameters.Items.size(); ++I)
    OTF2_GlobalDefWriter_WriteParameter(D, std::uint32_t(I),
                                        Parameters.Items[I].Name,
                                        Parameters.Items[I].Type);
  J.Samples.write(D);
  // Groups: 0 every thread (OpenMP), 1 rank -> its first thread (MPI),
  // then a team per rank, then a group per MPI communicator.
  OTF2_GlobalDefWriter_WriteGroup(D, 0, STeam, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                  OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                  std::uint32_t(AllLocations.size()),
                                  AllLocations.data());
  OTF2_GlobalDefWriter_WriteGroup(D, 1, SMpi, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                  WorldSize, RankLocation.data());
  std::uint32_t NextGroup = 2;
  std::uint64_t Index = 0;
  for (std::size_t I = 0; I < Ranks.size(); ++I) {
    std::vector<std::uint64_t> Team;
    for (std::size_t L = 0; L < Ranks[I].Locations.size(); ++L)
      Team.push_back(Index++);
    OTF2_GlobalDefWriter_WriteGroup(D, NextGroup, STeamOf[I],
                                    OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                    std::uint32_t(Team.size()), Team.data());
    OTF2_GlobalDefWriter_WriteComm(D, std::uint32_t(I), STeamOf[I], NextGroup++,
                                   OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  }
  for (std::size_t C = 0; C < MpiComms.Items.size(); ++C) {
    const JobDefs::Comm &X = MpiComms.Items[C];
    OTF2_GlobalDefWriter_WriteGroup(
        D, NextGroup, X.Name, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
        OTF2_GROUP_FLAG_NONE, std::uint32_t(X.Members.size()),
        X.Members.data());
    OTF2_CommRef Parent =
        X.ParentKey.empty()
            ? OTF2_UNDEFINED_COMM
            : FirstMpiComm + std::uint32_t(std::stoul(X.ParentKey));
    OTF2_GlobalDefWriter_WriteComm(D, FirstMpiComm + std::uint32_t(C), X.Name,
                                   NextGroup++, Parent, OTF2_COMM_FLAG_NONE);
  }
}

/// Per location of the job: the mappings from its rank's references and
/// its clock offsets (local definitions of A). False: some not written.
bool writeLocalDefs(OTF2_Archive *A, const JobDefs &J,
                    const std::vector<RankDefs> &Ranks) {
  if (OTF2_Archive_OpenDefFiles(A) != OTF2_SUCCESS)
    return false;
  const auto &Map = J.Map;
  bool Good = true;
  for (std::size_t I = 0; I < Ranks.size(); ++I) {
    const RankDefs &R = Ranks[I];
    // None for an empty map (OTF2 cannot read an empty one back): ids
    // without a mapping read as they are, and there are none to read.
    auto idMap = [](const std::map<std::uint64_t, std::uint64_t> &M) {
      if (M.empty())
        return static_cast<OTF2_IdMap *>(nullptr);
      OTF2_IdMap *IM = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, M.size() + 1);
      for (auto &[From, To] : M)
        OTF2_IdMap_AddIdPair(IM, From, To);
      return IM;
    };
    OTF2_IdMap *Maps[] = {idMap(Map[I].Region),    idMap(Map[I].Attribute),
                          idMap(Map[I].Parameter), idMap(Map[I].Comm),
                          idMap(Map[I].Context),   idMap(Map[I].Generator)};
    const OTF2_MappingType Types[] = {
        OTF2_MAPPING_REGION,          OTF2_MAPPING_ATTRIBUTE,
        OTF2_MAPPING_PARAMETER,       OTF2_MAPPING_COMM,
        OTF2_MAPPING_CALLING_CONTEXT, OTF2_MAPPING_INTERRUPT_GENERATOR};
    for (const RankDefs::Location &L : R.Locations) {
      OTF2_DefWriter *DW =
          OTF2_Archive_GetDefWriter(A, globalLocation(R.Rank, L.Ref));
      if (!DW) {
        Good = false;
        continue;
      }
      for (std::size_t M = 0; M < std::size(Maps); ++M)
        if (Maps[M])
          OTF2_DefWriter_WriteMappingTable(DW, Types[M], Maps[M]);
      // "time:offset:roundtrip;...": what to add to this rank's clock to
      // read rank 0's CLOCK_MONOTONIC (its clock error and host offset).
      const char *P = R.ClockOffsets.c_str();
      unsigned long long T, RT;
      long long Off;
      int Used = 0;
      while (std::sscanf(P, "%llu:%lld:%llu;%n", &T, &Off, &RT, &Used) == 3 &&
             Used > 0) {
        OTF2_DefWriter_WriteClockOffset(DW, T, Off, double(RT) / 2);
        P += Used;
        Used = 0;
      }
      OTF2_Archive_CloseDefWriter(A, DW);
    }
    for (OTF2_IdMap *IM : Maps)
      if (IM)
        OTF2_IdMap_Free(IM);
  }
  OTF2_Archive_CloseDefFiles(A);
  return Good;
}

/// The events: the ranks' own files, linked (or symbolically linked)
/// under their job location in Tmp/traces. False: one was not (Error).
bool linkEvents(const std::vector<RankDefs> &Ranks, const std::string &Tmp,
                std::string &Error) {
  bool Good = true;
  for (const RankDefs &R : Ranks)
    for (const RankDefs::Location &L : R.Locations) {
      std::string From = R.Dir + "/traces/" + std::to_string(L.Ref) + ".evt";
      std::string To = Tmp + "/traces/" +
                       std::to_string(globalLocation(R.Rank, L.Ref)) + ".evt";
      if (::link(From.c_str(), To.c_str()) != 0) {
        // No hard links here: a relative symbolic link (the job directory
        // can still be moved as a whole).
        std::string Rel = "../../rank-" + std::to_string(R.Rank) +
                          "/trace/traces/" + std::to_string(L.Ref) + ".evt";
        if (::symlink(Rel.c_str(), To.c_str()) != 0 && errno != EEXIST) {
          Error = "cannot link '" + From +
                  "' into the job archive: " + std::strerror(errno);
          Good = false;
        }
      }
    }
  return Good;
}

} // namespace

bool mergeJob(const std::string &JobDir, MergeResult &Result,
              std::string &Error, int JobSize) {
  installQuietOtf2Errors();
  Result = MergeResult();
  std::vector<RankDefs> Ranks;
  if (!readRanks(JobDir, JobSize, Ranks, Error))
    return false;
  JobDefs J;
  unify(Ranks, J, Result);

  // Write it aside, then move it into place.
  const std::string Out = JobDir + "/trace", Tmp = Out + "/.merge";
  ::mkdir(Out.c_str(), 0777);
  removeTree(Tmp);
  ::mkdir(Tmp.c_str(), 0777);
  // The event files are the ranks': their chunk size is the job's.
  const std::uint64_t EventChunk = Ranks.front().EventChunk;
  for (const RankDefs &R : Ranks)
    if (R.EventChunk != EventChunk) {
      Error = "the rank archives in '" + JobDir +
              "' have different event chunk sizes (written by different "
              "OTTER versions?)";
      return false;
    }
  OTF2_Archive *A = OTF2_Archive_Open(
      Tmp.c_str(), "traces", OTF2_FILEMODE_WRITE, EventChunk,
      OTF2_CHUNK_SIZE_MIN, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!A) {
    Error =
        "cannot create the job archive in '" + Tmp + "': " + lastOtf2Error();
    return false;
  }
  const std::uint64_t ErrorsBefore = otf2ErrorCount();
  bool Good =
      OTF2_Archive_SetFlushCallbacks(A, &Flush, nullptr) == OTF2_SUCCESS &&
      OTF2_Archive_SetSerialCollectiveCallbacks(A) == OTF2_SUCCESS &&
      OTF2_Archive_SetCreator(A, "OTTER (OpenMP Task Tracer), MPI job") ==
          OTF2_SUCCESS &&
      OTF2_Archive_SetProperty(A, "OTTER::JOB", "1", true) == OTF2_SUCCESS &&
      (!J.SamplesOnly ||
       OTF2_Archive_SetProperty(A, ContentProperty, ContentSamples, true) ==
           OTF2_SUCCESS) &&
      (J.Incomplete.empty() || // OTF2 refuses an empty value
       OTF2_Archive_SetProperty(A, IncompleteRanksProperty,
                                J.Incomplete.c_str(), true) == OTF2_SUCCESS);
  OTF2_GlobalDefWriter *D = Good ? OTF2_Archive_GetGlobalDefWriter(A) : nullptr;
  if (D)
    writeGlobalDefs(D, J, Ranks);
  else
    Good = false;
  // Per location: mappings from the rank's references, clock offsets.
  if (Good)
    Good = writeLocalDefs(A, J, Ranks);
  if (OTF2_Archive_Close(A) != OTF2_SUCCESS || otf2ErrorCount() != ErrorsBefore)
    Good = false;
  if (!linkEvents(Ranks, Tmp, Error))
    Good = false;
  if (!Good) {
    if (Error.empty())
      Error =
          "writing the job archive in '" + Out + "' failed: " + lastOtf2Error();
    removeTree(Tmp);
    return false;
  }
  // Into place: the event and local definition files, then the
  // definitions, the anchor last.
  removeTree(Out + "/traces");
  bool Moved =
      ::rename((Tmp + "/traces").c_str(), (Out + "/traces").c_str()) == 0 &&
      ::rename((Tmp + "/traces.def").c_str(), (Out + "/traces.def").c_str()) ==
          0 &&
      ::rename((Tmp + "/traces.otf2").c_str(),
               (Out + "/traces.otf2").c_str()) == 0;
  if (!Moved)
    Error = "cannot move the job archive into '" + Out +
            "': " + std::strerror(errno);
  removeTree(Tmp);
  Result.Ranks = std::uint32_t(Ranks.size());
  return Moved;
}

void rankOpened(const std::string &JobDir, int Rank) {
  ::unlink((JobDir + "/trace/.closed/" + std::to_string(Rank)).c_str());
}

/// The job archive's lock (Out/.lock), held exclusively: one merge at a
/// time; a process killed while merging frees it. -1 (Error set) if the
/// lock file cannot be opened.
static int lockJobTrace(const std::string &Out, std::string &Error) {
  int Lock =
      ::open((Out + "/.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (Lock < 0) {
    Error = "cannot lock '" + Out + "/.lock': " + std::strerror(errno);
    return -1;
  }
  while (::flock(Lock, LOCK_EX) != 0 && errno == EINTR)
    ;
  return Lock;
}

bool rankClosed(const std::string &JobDir, int Rank, int WorldSize,
                MergeResult &Result, std::string &Error) {
  const std::string Out = JobDir + "/trace", Marks = Out + "/.closed";
  ::mkdir(Out.c_str(), 0777);
  ::mkdir(Marks.c_str(), 0777);
  std::string Mark = Marks + "/" + std::to_string(Rank);
  int Fd = ::open(Mark.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (Fd >= 0)
    ::close(Fd);
  int Lock = lockJobTrace(Out, Error);
  if (Lock < 0)
    return false;
  int Closed = 0;
  if (DIR *D = opendir(Marks.c_str())) {
    while (dirent *E = readdir(D)) {
      int R = -1;
      char Tail = 0;
      if (std::sscanf(E->d_name, "%d%c", &R, &Tail) == 1 && R >= 0 &&
          (WorldSize <= 0 || R < WorldSize))
        ++Closed;
    }
    closedir(D);
  }
  bool Merged = false;
  if (WorldSize <= 0 || Closed >= WorldSize) {
    Merged = mergeJob(JobDir, Result, Error, WorldSize);
    if (Merged && WorldSize > 0)
      removeTree(Marks); // a rerun into the same directory starts afresh
  }
  ::flock(Lock, LOCK_UN);
  ::close(Lock);
  return Merged;
}

bool assembleIfMissing(const std::string &JobDir, MergeResult &Result,
                       std::string &Error) {
  const std::string Out = JobDir + "/trace";
  struct stat St;
  if (stat((Out + "/traces.otf2").c_str(), &St) == 0)
    return false;
  ::mkdir(Out.c_str(), 0777);
  int Lock = lockJobTrace(Out, Error);
  if (Lock < 0)
    return false;
  // Another process may have assembled it while this one waited.
  bool Merged = stat((Out + "/traces.otf2").c_str(), &St) != 0 &&
                mergeJob(JobDir, Result, Error);
  ::flock(Lock, LOCK_UN);
  ::close(Lock);
  return Merged;
}

} // namespace otter::trace
