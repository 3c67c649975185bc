//===- otter/analysis.cpp - Streaming work/span/profile analysis ---------===//
//
// Path lengths: every task T has path(T) = Base + Exec, the length of the
// longest path (weighted by execution time) from the program's start to
// T's current point. Exec grows while T runs its own code; a value v that
// must precede T's next step (a child's completion at a taskwait, a barrier,
// a predecessor task) is merged by path(T) = max(path(T), v). Each value
// carries a reference to a path record (a refcounted, persistent list of
// (construct, ns) steps), so the critical path is the record list of the
// largest final value. Records nobody refers to are recycled.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <unordered_map>

namespace otter::analysis {

const char *kindName(Kind K) {
  static const char *Names[] = {
      "initial_task", "implicit_task", "task",      "parallel",
      "loop",         "sections",      "single",    "masked",
      "taskloop",     "workshare",     "taskwait",  "taskgroup",
      "barrier",      "barrier_implicit", "critical", "lock",
      "nest_lock",    "ordered",       "atomic",    "cancel"};
  static_assert(sizeof(Names) / sizeof(Names[0]) == std::size_t(Kind::Count));
  return std::size_t(K) < std::size_t(Kind::Count) ? Names[std::size_t(K)]
                                                   : "?";
}

namespace {

constexpr std::uint32_t None = ~0u;
constexpr std::int64_t NegInf = INT64_MIN / 4;

unsigned bucketOf(std::uint64_t Ns) {
  if (Ns < 4)
    return unsigned(Ns);
  unsigned L = 63 - unsigned(__builtin_clzll(Ns)); // >= 2
  unsigned Sub = unsigned((Ns >> (L - 2)) & 3);
  unsigned B = L * 4 + Sub;
  return B < HistBuckets ? B : HistBuckets - 1;
}
double bucketMid(unsigned B) {
  if (B < 4)
    return B;
  unsigned L = B / 4, Sub = B % 4;
  double Lo = std::ldexp(1.0, int(L)) * (1.0 + Sub / 4.0);
  double Hi = std::ldexp(1.0, int(L)) * (1.0 + (Sub + 1) / 4.0);
  return (Lo + Hi) / 2;
}
double histMedian(const std::vector<std::uint32_t> &H) {
  std::uint64_t N = 0;
  for (std::uint32_t X : H)
    N += X;
  if (!N)
    return 0;
  std::uint64_t Half = (N + 1) / 2, Acc = 0;
  for (unsigned B = 0; B < H.size(); ++B) {
    Acc += H[B];
    if (Acc >= Half)
      return bucketMid(B);
  }
  return 0;
}

struct Record {
  std::uint64_t Ns;
  std::uint32_t Prev;
  std::uint32_t Refs;
  std::uint32_t Code; // code index
  std::uint32_t Cum;  // tasks entered along the path up to here
  std::uint8_t K;
  bool First; // first segment of its task
};

struct PathVal {
  std::int64_t V = NegInf;
  std::uint32_t Rec = None;
};

enum SlotFlags : std::uint32_t {
  SStarted = 1u << 0,
  SCompleted = 1u << 1,
  SOwnRec = 1u << 2,
  SKeep = 1u << 3, // has dependences: may be a predecessor later
  SImplicit = 1u << 4,
};

struct Slot {
  std::uint64_t Id = 0;
  std::int64_t Base = 0;
  std::uint64_t Exec = 0, MarkExec = 0, Start = 0;
  std::uint64_t Ready = 0; // last predecessor's completion (dependences)
  std::uint32_t Rec = None, Code = 0, Creator = None, Group = None,
                Team = None, Epoch = 0, Live = 0, Extra = None, Flags = 0,
                StartThread = 0, LastCode = 0;
  Kind K = Kind::Task;
  Kind LastKind = Kind::Task;
};

struct AddrState {
  std::vector<std::uint32_t> LastSet, Readers, SetPreds;
  std::uint16_t SetType = 0;
};

struct CreatorState {
  PathVal Pend;
  std::uint32_t SibCode = 0, SibN = 0;
  std::uint64_t SibSum = 0, SibMax = 0;
  std::unordered_map<std::uint64_t, AddrState> Deps;
};

struct GroupFrame {
  PathVal Max;
  std::uint32_t Parent = None;
};

struct WorkInst {
  std::uint32_t N = 0, Code = 0;
  std::uint64_t Sum = 0, Max = 0;
};

struct Team {
  std::uint64_t Id = 0;
  std::uint32_t Code = 0, Size = 1, Members = 0, Ended = 0, Epoch = 0;
  std::uint32_t ParentTeam = None, Encountering = None;
  bool ParallelEnded = false, Finalized = false, Pseudo = false;
  std::int64_t ForkV = 0;
  PathVal Join;
  struct Bar {
    std::uint32_t K = None;
    PathVal Arr, Pend;
  } Bars[2];
  std::uint64_t Begin = 0, End = 0, Work = 0;
  std::uint64_t BusySum = 0, BusyMax = 0;
  std::uint32_t BusyN = 0;
  std::int64_t JoinSpan = -1;
  std::unordered_map<std::uint32_t, WorkInst> Works;
};

struct WaitFrame {
  std::uint32_t Task, Code;
  Kind K;
  bool Mutex;
  std::uint64_t Ns, Start;
};
struct OpenFrame {
  std::uint32_t Task, Code;
  Kind K;
  std::uint64_t Start;
  std::uint32_t WorkIndex; // loops: index of the construct in the member
};
struct ImplFrame {
  std::uint32_t Task;
  std::uint64_t BusyAtBegin;
  std::uint32_t Works = 0;
};

struct ThreadSt {
  bool Seen = false;
  std::uint32_t Cur = None;
  std::uint64_t Last = 0, Busy = 0, Wait = 0;
  std::uint64_t PendingCreate = 0;
  bool SchedGapArmed = false;
  std::uint64_t SchedGapFrom = 0;
  std::uint32_t LastWorkCode = 0;
  std::vector<WaitFrame> Waits;
  std::vector<OpenFrame> Open;
  std::vector<ImplFrame> Impl;
};

Kind workKind(std::uint16_t Sub) {
  switch (static_cast<WorkKind>(Sub)) {
  case WorkKind::Loop:
  case WorkKind::LoopStatic:
  case WorkKind::LoopDynamic:
  case WorkKind::LoopGuided:
  case WorkKind::LoopOther:
    return Kind::Loop;
  case WorkKind::Sections:
    return Kind::Sections;
  case WorkKind::SingleExecutor:
  case WorkKind::SingleOther:
    return Kind::Single;
  case WorkKind::Taskloop:
    return Kind::Taskloop;
  default:
    return Kind::Workshare;
  }
}
Kind mutexKind(std::uint16_t Sub) {
  switch (static_cast<MutexKind>(Sub)) {
  case MutexKind::Critical:
    return Kind::Critical;
  case MutexKind::NestLock:
  case MutexKind::TestNestLock:
    return Kind::NestLock;
  case MutexKind::Ordered:
    return Kind::Ordered;
  case MutexKind::Atomic:
    return Kind::Atomic;
  default:
    return Kind::Lock;
  }
}
bool isBarrier(std::uint16_t Sub) {
  auto K = static_cast<SyncKind>(Sub);
  return K != SyncKind::Taskwait && K != SyncKind::Taskgroup &&
         K != SyncKind::Reduction && Sub >= 1 && Sub <= 10;
}

} // namespace

std::uint64_t ConstructStats::medianNs() const {
  return std::uint64_t(std::llround(histMedian(Hist)));
}

struct Analyzer::Impl {
  Observer *Obs = nullptr;
  std::vector<Slot> Slots;
  std::vector<std::uint32_t> FreeSlots;
  std::uint64_t Live = 0, PeakLive = 0;
  std::vector<Record> Recs;
  std::vector<std::uint32_t> FreeRecs;
  std::vector<CreatorState> Creators;
  std::vector<std::uint32_t> FreeCreators;
  std::vector<GroupFrame> Groups;
  std::vector<std::uint32_t> FreeGroups;
  std::vector<Team> Teams;
  std::unordered_map<std::uint64_t, std::uint32_t> TeamOf;
  std::vector<ThreadSt> Threads;
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> Successors;

  // Task id -> slot+1. Our ids are ((thread+1) << 40) | counter: a dense
  // array per thread; anything else goes through a hash map.
  std::vector<std::vector<std::uint32_t>> IdDense;
  std::unordered_map<std::uint64_t, std::uint32_t> IdSparse;

  std::vector<std::uint64_t> Codes{0};
  std::unordered_map<std::uint64_t, std::uint32_t> CodeIndex;
  std::vector<ConstructStats> Stats;

  std::vector<std::uint32_t> CreateHist =
      std::vector<std::uint32_t>(HistBuckets);
  std::vector<std::uint32_t> SchedHist =
      std::vector<std::uint32_t>(HistBuckets);
  PathVal Best;
  Result R;
  bool First = true;
  std::uint64_t Unknown = 0, OutOfOrder = 0;

  // ---- ids, codes, stats ------------------------------------------------
  // Hot: a dense cell, inline; growth and foreign ids out of line.
  [[gnu::always_inline]] std::uint32_t *idCell(std::uint64_t Id,
                                               bool Create) {
    std::uint64_t Hi = Id >> 40, Lo = Id & ((std::uint64_t(1) << 40) - 1);
    if (Hi - 1 < IdDense.size()) {
      auto &V = IdDense[Hi - 1];
      if (Lo < V.size())
        return &V[Lo];
    }
    return idCellSlow(Id, Create);
  }
  [[gnu::noinline]] std::uint32_t *idCellSlow(std::uint64_t Id, bool Create) {
    std::uint64_t Hi = Id >> 40, Lo = Id & ((std::uint64_t(1) << 40) - 1);
    if (Hi >= 1 && Hi <= 4096 && Lo < (std::uint64_t(1) << 31)) {
      if (IdDense.size() < Hi)
        IdDense.resize(Hi);
      auto &V = IdDense[Hi - 1];
      if (Lo >= V.size()) {
        if (!Create)
          return nullptr;
        std::size_t N = std::max<std::size_t>(V.size() + V.size() / 2, Lo + 1);
        N = std::max<std::size_t>(N, 1024);
        V.resize(N, 0);
      }
      return &V[Lo];
    }
    if (!Create) {
      auto It = IdSparse.find(Id);
      return It == IdSparse.end() ? nullptr : &It->second;
    }
    return &IdSparse[Id];
  }
  std::uint32_t slotOf(std::uint64_t Id) {
    if (!Id)
      return None;
    std::uint32_t *C = idCell(Id, false);
    return C && *C ? *C - 1 : None;
  }
  std::uint32_t newSlot(std::uint64_t Id) {
    std::uint32_t S;
    if (!FreeSlots.empty()) {
      S = FreeSlots.back();
      FreeSlots.pop_back();
      Slots[S] = Slot();
    } else {
      S = std::uint32_t(Slots.size());
      Slots.emplace_back();
    }
    Slots[S].Id = Id;
    if (Id)
      *idCell(Id, true) = S + 1;
    PeakLive = std::max(PeakLive, ++Live);
    return S;
  }
  // Code address -> code index: a direct-mapped cache in front of the map
  // (a program has few distinct construct addresses, seen over and over).
  static constexpr std::size_t CodeCacheSize = 256;
  struct CodeCacheEntry {
    std::uint64_t Addr = 0;
    std::uint32_t Index = 0;
  };
  CodeCacheEntry CodeCache[CodeCacheSize];
  std::uint32_t code(std::uint64_t Addr) {
    if (!Addr)
      return 0;
    CodeCacheEntry &C =
        CodeCache[((Addr * 0x9E3779B97F4A7C15ull) >> 56) & (CodeCacheSize - 1)];
    if (C.Addr == Addr)
      return C.Index;
    auto [It, New] = CodeIndex.try_emplace(Addr, std::uint32_t(Codes.size()));
    if (New)
      Codes.push_back(Addr);
    C.Addr = Addr;
    C.Index = It->second;
    return It->second;
  }
  // (code index, kind) -> Stats index + 1, dense: codes are few.
  std::vector<std::uint32_t> StatOf;
  ConstructStats &stat(std::uint32_t Code, Kind K) {
    std::size_t Key = std::size_t(Code) * std::size_t(Kind::Count) +
                      std::size_t(K);
    if (Key >= StatOf.size())
      StatOf.resize(std::max<std::size_t>(
                        Key + 1, (Codes.size() + 16) * std::size_t(Kind::Count)),
                    0);
    std::uint32_t &I = StatOf[Key];
    if (!I) {
      Stats.emplace_back();
      Stats.back().Code = Codes[Code];
      Stats.back().K = K;
      I = std::uint32_t(Stats.size());
    }
    return Stats[I - 1];
  }
  void instance(std::uint32_t Code, Kind K, std::uint64_t Ns) {
    ConstructStats &S = stat(Code, K);
    ++S.Instances;
    S.TotalNs += Ns;
    S.MaxNs = std::max(S.MaxNs, Ns);
  }

  // ---- path records -----------------------------------------------------
  void incref(std::uint32_t R) {
    if (R != None)
      ++Recs[R].Refs;
  }
  void decref(std::uint32_t R) {
    while (R != None) {
      Record &X = Recs[R];
      if (--X.Refs)
        return;
      std::uint32_t P = X.Prev;
      FreeRecs.push_back(R);
      R = P;
    }
  }
  void assign(PathVal &Dst, std::int64_t V, std::uint32_t Rec) {
    if (V <= Dst.V)
      return;
    incref(Rec);
    decref(Dst.Rec);
    Dst.V = V;
    Dst.Rec = Rec;
  }
  void resetVal(PathVal &P) {
    decref(P.Rec);
    P = PathVal();
  }
  std::int64_t path(const Slot &T) const {
    return T.Base + std::int64_t(T.Exec);
  }
  /// Closes T's current segment into a path record; returns path(T).
  std::int64_t mark(std::uint32_t S) {
    Slot &T = Slots[S];
    std::uint64_t Delta = T.Exec - T.MarkExec;
    bool FirstSeg = !(T.Flags & SOwnRec);
    if (Delta == 0 && !FirstSeg)
      return path(T);
    T.MarkExec = T.Exec;
    T.Flags |= SOwnRec;
    if (T.Rec != None && !FirstSeg) {
      Record &Old = Recs[T.Rec];
      if (Old.Refs == 1 && Old.Code == T.Code && Old.K == std::uint8_t(T.K)) {
        Old.Ns += Delta; // only T refers to it: extend in place
        return path(T);
      }
    }
    std::uint32_t N;
    if (!FreeRecs.empty()) {
      N = FreeRecs.back();
      FreeRecs.pop_back();
    } else {
      N = std::uint32_t(Recs.size());
      Recs.emplace_back();
    }
    Record &X = Recs[N];
    X.Ns = Delta;
    X.Prev = T.Rec; // T's reference moves to the new record
    X.Refs = 1;
    X.Code = T.Code;
    X.K = std::uint8_t(T.K);
    X.First = FirstSeg;
    X.Cum = (T.Rec != None ? Recs[T.Rec].Cum : 0) +
            (FirstSeg && T.K == Kind::Task ? 1 : 0);
    T.Rec = N;
    return path(T);
  }
  void merge(std::uint32_t S, std::int64_t V, std::uint32_t Rec) {
    if (S == None)
      return;
    Slot &T = Slots[S];
    if (V <= path(T))
      return;
    T.Base = V - std::int64_t(T.Exec);
    T.MarkExec = T.Exec;
    incref(Rec);
    decref(T.Rec);
    T.Rec = Rec;
  }
  void merge(std::uint32_t S, const PathVal &P) {
    if (P.V != NegInf)
      merge(S, P.V, P.Rec);
  }

  // ---- helpers ----------------------------------------------------------
  std::uint32_t creatorState(std::uint32_t S) {
    Slot &T = Slots[S];
    if (T.Extra == None) {
      if (!FreeCreators.empty()) {
        T.Extra = FreeCreators.back();
        FreeCreators.pop_back();
      } else {
        T.Extra = std::uint32_t(Creators.size());
        Creators.emplace_back();
      }
    }
    return T.Extra;
  }
  void evalSiblings(std::uint32_t S) {
    Slot &T = Slots[S];
    if (T.Extra == None)
      return;
    CreatorState &C = Creators[T.Extra];
    if (C.SibN >= 2) {
      double Mean = double(C.SibSum) / C.SibN;
      ConstructStats &St = stat(C.SibCode, Kind::Task);
      ++St.SibGroups;
      St.SibLostNs += std::uint64_t(std::max(0.0, double(C.SibMax) - Mean));
      if (Mean > 0)
        St.SibWorstRatio = std::max(St.SibWorstRatio, double(C.SibMax) / Mean);
    }
    C.SibN = 0;
    C.SibSum = C.SibMax = 0;
  }
  void tryFree(std::uint32_t S) {
    while (S != None) {
      Slot &T = Slots[S];
      if (!(T.Flags & SCompleted) || T.Live || (T.Flags & SKeep))
        return;
      std::uint32_t Creator = T.Creator;
      decref(T.Rec);
      if (T.Extra != None) {
        CreatorState &C = Creators[T.Extra];
        resetVal(C.Pend);
        if (!C.Deps.empty())
          C.Deps.clear();
        C.SibN = 0;
        FreeCreators.push_back(T.Extra);
      }
      if (T.Id)
        if (std::uint32_t *Cell = idCell(T.Id, false))
          *Cell = 0;
      T = Slot();
      FreeSlots.push_back(S);
      --Live;
      if (Creator == None)
        return;
      if (Slots[Creator].Live)
        --Slots[Creator].Live;
      S = Creator;
    }
  }
  std::uint32_t teamFor(std::uint64_t Id) {
    auto [It, New] = TeamOf.try_emplace(Id, std::uint32_t(Teams.size()));
    if (New) {
      Teams.emplace_back();
      Teams.back().Id = Id;
    }
    return It->second;
  }
  void barPend(Team &Tm, std::uint32_t Epoch, std::int64_t V,
               std::uint32_t Rec) {
    Team::Bar &B = Tm.Bars[Epoch & 1];
    if (B.K != Epoch) {
      if (B.K != None && B.K > Epoch)
        return;
      resetVal(B.Arr);
      resetVal(B.Pend);
      B.K = Epoch;
    }
    assign(B.Pend, V, Rec);
  }
  void finalizeTeam(std::uint32_t TI) {
    Team &Tm = Teams[TI];
    if (Tm.Finalized || !Tm.ParallelEnded || Tm.Ended < Tm.Members)
      return;
    Tm.Finalized = true;
    ConstructStats &St = stat(Tm.Code, Kind::Parallel);
    St.RegionWorkNs += Tm.Work;
    if (Tm.JoinSpan > 0)
      St.RegionSpanNs += std::uint64_t(Tm.JoinSpan);
    std::uint64_t Wall = Tm.End > Tm.Begin ? Tm.End - Tm.Begin : 0;
    St.RegionWallNs += Wall;
    St.RegionThreadNs += Wall * Tm.Members;
    St.RegionBusyNs += Tm.BusySum;
    if (Tm.BusyN >= 2 && Tm.BusySum) {
      double Mean = double(Tm.BusySum) / Tm.BusyN;
      ++St.TeamImbInstances;
      St.TeamImbLostNs += Tm.BusyMax * Tm.BusyN - Tm.BusySum;
      St.TeamImbWorstRatio =
          std::max(St.TeamImbWorstRatio, double(Tm.BusyMax) / Mean);
    }
    if (Tm.ParentTeam != None && Tm.ParentTeam != TI)
      Teams[Tm.ParentTeam].Work += Tm.Work;
    resetVal(Tm.Join);
    for (auto &B : Tm.Bars) {
      resetVal(B.Arr);
      resetVal(B.Pend);
    }
    Tm.Works.clear();
  }

  void completeTask(std::uint32_t S, std::uint32_t Thread, std::uint64_t Time) {
    Slot &T = Slots[S];
    if (T.Flags & SCompleted)
      return;
    std::int64_t V = mark(S);
    T.Flags |= SCompleted;
    R.WorkNs += T.Exec;
    ++R.ExplicitTasks;
    ConstructStats &St = stat(T.Code, Kind::Task);
    ++St.Instances;
    St.TotalNs += T.Exec;
    St.MaxNs = std::max(St.MaxNs, T.Exec);
    if (St.Hist.empty())
      St.Hist.assign(HistBuckets, 0);
    ++St.Hist[bucketOf(T.Exec)];
    if (Obs)
      Obs->task(T.StartThread, T.Id, Codes[T.Code], T.Start, Time, T.Exec);
    assign(Best, V, T.Rec);
    if (T.Team != None) {
      Team &Tm = Teams[T.Team];
      Tm.Work += T.Exec;
      barPend(Tm, T.Epoch, V, T.Rec);
    }
    if (T.Group != None)
      assign(Groups[T.Group].Max, V, T.Rec);
    if (T.Creator != None) {
      CreatorState &C = Creators[creatorState(T.Creator)];
      assign(C.Pend, V, T.Rec);
      if (C.SibN == 0 || C.SibCode == T.Code) {
        C.SibCode = T.Code;
        ++C.SibN;
        C.SibSum += T.Exec;
        C.SibMax = std::max(C.SibMax, T.Exec);
      }
    }
    auto It = Successors.find(S);
    if (It != Successors.end()) {
      for (std::uint32_t Succ : It->second) {
        merge(Succ, V, Slots[S].Rec);
        Slots[Succ].Ready = std::max(Slots[Succ].Ready, Time);
        if (Obs)
          Obs->flow(true, Thread, Time, Slots[Succ].Id);
        if (Obs)
          Obs->constructEdge(Codes[Slots[S].Code], Kind::Task,
                             Codes[Slots[Succ].Code], Kind::Task,
                             "dependence");
      }
      Successors.erase(It);
    }
    Slots[S].Start = Time; // kept tasks: where the dependence flows leave
    Slots[S].StartThread = Thread;
    tryFree(S);
  }

  void dependence(std::uint32_t Child, std::uint64_t Addr, std::uint16_t Type,
                  std::uint32_t Thread, std::uint64_t Time) {
    Slot &C = Slots[Child];
    C.Flags |= SKeep;
    if (C.Creator == None)
      return;
    AddrState &A = Creators[creatorState(C.Creator)].Deps[Addr];
    std::vector<std::uint32_t> Preds;
    auto isSet = [](std::uint16_t T) {
      return T == std::uint16_t(DependenceType::MutexInOutSet) ||
             T == std::uint16_t(DependenceType::InOutSet);
    };
    switch (static_cast<DependenceType>(Type)) {
    case DependenceType::In:
      Preds = A.LastSet;
      A.Readers.push_back(Child);
      break;
    case DependenceType::Out:
    case DependenceType::InOut:
      Preds = !A.Readers.empty() ? A.Readers : A.LastSet;
      A.LastSet.assign(1, Child);
      A.SetType = std::uint16_t(DependenceType::InOut);
      A.Readers.clear();
      A.SetPreds.clear();
      break;
    case DependenceType::MutexInOutSet:
    case DependenceType::InOutSet:
      if (A.SetType == Type && A.Readers.empty() && isSet(Type)) {
        Preds = A.SetPreds;
        A.LastSet.push_back(Child);
      } else {
        A.SetPreds = !A.Readers.empty() ? A.Readers : A.LastSet;
        Preds = A.SetPreds;
        A.LastSet.assign(1, Child);
        A.SetType = Type;
        A.Readers.clear();
      }
      break;
    default:
      return;
    }
    for (std::uint32_t P : Preds) {
      if (P == Child || P >= Slots.size())
        continue;
      Slot &Pr = Slots[P];
      if (Pr.Flags & SCompleted) {
        merge(Child, path(Pr), Pr.Rec);
        if (Obs)
          Obs->flow(true, Pr.StartThread, Pr.Start, C.Id);
        if (Obs)
          Obs->constructEdge(Codes[Pr.Code], Kind::Task, Codes[C.Code],
                             Kind::Task, "dependence");
      } else {
        auto &V = Successors[P];
        if (std::find(V.begin(), V.end(), Child) == V.end())
          V.push_back(Child);
      }
    }
    (void)Thread;
    (void)Time;
  }

  void programOrder(std::uint32_t S, std::uint32_t Code, Kind K) {
    if (!Obs || S == None)
      return;
    Slot &T = Slots[S];
    std::uint32_t FromCode = T.LastCode ? T.LastCode : T.Code;
    Kind FromK = T.LastCode ? T.LastKind : T.K;
    Obs->constructEdge(Codes[FromCode], FromK, Codes[Code], K, "scope");
    T.LastCode = Code;
    T.LastKind = K;
  }

  // ---- the event loop -----------------------------------------------------
  void add(std::uint32_t Th, const Event &E) {
    ++R.Events;
    if (Th >= Threads.size()) {
      if (Th > 1u << 20)
        return; // not a thread index
      Threads.resize(Th + 1);
    }
    ThreadSt &TS = Threads[Th];
    if (First) {
      R.FirstTime = E.Time;
      First = false;
    }
    R.FirstTime = std::min(R.FirstTime, E.Time);
    R.LastTime = std::max(R.LastTime, E.Time);
    // Charge the time since this thread's previous event.
    if (TS.Seen) {
      std::uint64_t Dt = E.Time > TS.Last ? E.Time - TS.Last : 0;
      if (E.Time < TS.Last)
        ++OutOfOrder;
      if (TS.Cur != None && Dt) {
        if (!TS.Waits.empty() && TS.Waits.back().Task == TS.Cur) {
          TS.Waits.back().Ns += Dt;
          TS.Wait += Dt;
        } else {
          Slots[TS.Cur].Exec += Dt;
          TS.Busy += Dt;
        }
      }
    }
    TS.Seen = true;
    TS.Last = std::max(TS.Last, E.Time);
    // Creation cost: from a TaskCreate to the creating thread's next event.
    if (TS.PendingCreate && E.Kind != EventKind::TaskDependence) {
      ++CreateHist[bucketOf(E.Time - TS.PendingCreate)];
      ++R.CreateSamples;
      TS.PendingCreate = 0;
    }
    bool Armed = TS.SchedGapArmed;
    TS.SchedGapArmed = false;

    std::uint32_t T = E.Task ? slotOf(E.Task) : None;
    switch (E.Kind) {
    case EventKind::ImplicitTaskBegin: {
      std::uint32_t S = newSlot(E.Task);
      Slot &X = Slots[S];
      X.Flags = SStarted | SImplicit;
      X.Start = E.Time;
      X.StartThread = Th;
      if ((E.Extra & TaskInitial) || !E.A) {
        X.K = Kind::Initial;
        std::uint32_t TI = std::uint32_t(Teams.size());
        Teams.emplace_back();
        Teams.back().Pseudo = true;
        Teams.back().Members = 1;
        X.Team = TI;
      } else {
        std::uint32_t TI = teamFor(E.A);
        Team &Tm = Teams[TI];
        ++Tm.Members;
        Tm.Size = std::max<std::uint32_t>(Tm.Size, E.Aux);
        X.K = Kind::Implicit;
        X.Team = TI;
        X.Code = Tm.Code;
        X.Base = Tm.ForkV;
      }
      ++R.ImplicitTasks;
      TS.Cur = S;
      TS.Impl.push_back({S, TS.Busy, 0});
      if (X.K == Kind::Implicit) {
        // A member starts from the encountering task's path when it begins
        // (the fork's cost up to then is serial before it), else from the
        // fork.
        std::uint32_t Enc = Teams[X.Team].Encountering;
        if (Enc != None && Slots[Enc].Id &&
            !(Slots[Enc].Flags & SCompleted)) {
          std::int64_t V = mark(Enc);
          Slots[S].Base = V;
          Slots[S].Rec = Slots[Enc].Rec;
          incref(Slots[S].Rec);
        } else {
          auto It = ForkRec.find(X.Team);
          if (It != ForkRec.end()) {
            Slots[S].Rec = It->second;
            incref(Slots[S].Rec);
          }
        }
      }
      break;
    }
    case EventKind::ImplicitTaskEnd: {
      if (T == None)
        break;
      Slot &X = Slots[T];
      std::int64_t V = mark(T);
      X.Flags |= SCompleted;
      R.WorkNs += X.Exec;
      instance(X.Code, X.K, X.Exec);
      assign(Best, V, X.Rec);
      std::uint64_t Busy = 0;
      while (!TS.Impl.empty()) {
        ImplFrame F = TS.Impl.back();
        TS.Impl.pop_back();
        if (F.Task == T) {
          Busy = TS.Busy - F.BusyAtBegin;
          break;
        }
      }
      if (X.Team != None) {
        Team &Tm = Teams[X.Team];
        Tm.Work += X.Exec;
        assign(Tm.Join, V, X.Rec);
        Tm.BusySum += Busy;
        Tm.BusyMax = std::max(Tm.BusyMax, Busy);
        ++Tm.BusyN;
        ++Tm.Ended;
        if (Obs)
          Obs->construct(Th, X.K, Codes[X.Code], X.Start, E.Time);
        std::uint32_t TI = X.Team;
        tryFree(T);
        if (!Teams[TI].Pseudo)
          finalizeTeam(TI);
      } else {
        tryFree(T);
      }
      TS.Cur = None;
      TS.Waits.clear();
      break;
    }
    case EventKind::ParallelBegin: {
      std::uint32_t TI = teamFor(E.A);
      Team &Tm = Teams[TI];
      Tm.Code = code(E.Code);
      Tm.Begin = E.Time;
      Tm.Size = std::max<std::uint32_t>(Tm.Size, E.Aux);
      Tm.Encountering = T;
      ++R.ParallelRegions;
      if (T != None) {
        Tm.ForkV = mark(T);
        Tm.ParentTeam = Slots[T].Team;
        incref(Slots[T].Rec);
        ForkRec[TI] = Slots[T].Rec;
        programOrder(T, Tm.Code, Kind::Parallel);
      }
      TS.Open.push_back({T, Tm.Code, Kind::Parallel, E.Time, 0});
      break;
    }
    case EventKind::ParallelEnd: {
      auto It = TeamOf.find(E.A);
      if (It == TeamOf.end())
        break;
      std::uint32_t TI = It->second;
      Team &Tm = Teams[TI];
      Tm.ParallelEnded = true;
      Tm.End = E.Time;
      if (Tm.Join.V != NegInf)
        Tm.JoinSpan = Tm.Join.V - Tm.ForkV;
      if (T != None)
        merge(T, Tm.Join);
      instance(Tm.Code, Kind::Parallel, E.Time - std::min(E.Time, Tm.Begin));
      closeOpen(TS, Th, T, Kind::Parallel, E.Time);
      auto F = ForkRec.find(TI);
      if (F != ForkRec.end()) {
        decref(F->second);
        ForkRec.erase(F);
      }
      TeamOf.erase(It);
      finalizeTeam(TI);
      if (T != None)
        TS.Cur = T;
      break;
    }
    case EventKind::TaskCreate: {
      std::uint32_t S = newSlot(E.A);
      Slot &C = Slots[S];
      C.Code = code(E.Code);
      C.K = Kind::Task;
      C.Flags = (E.Aux & TaskHasDependences) ? std::uint32_t(SKeep) : 0u;
      C.StartThread = Th;
      C.Start = E.Time; // until it starts
      if (T != None) {
        Slot &P = Slots[T];
        std::int64_t V = mark(T);
        C.Creator = T;
        ++P.Live;
        C.Team = P.Team;
        C.Epoch = P.Team != None ? Teams[P.Team].Epoch : 0;
        C.Group = P.Group;
        C.Base = V;
        C.Rec = P.Rec;
        incref(C.Rec);
        if (Obs)
          Obs->constructEdge(Codes[P.Code], P.K, Codes[C.Code], Kind::Task,
                             "create");
        programOrder(T, C.Code, Kind::Task);
      }
      TS.PendingCreate = E.Time;
      if (Obs)
        Obs->flow(false, Th, E.Time, E.A);
      break;
    }
    case EventKind::TaskDependence:
      if (T != None)
        dependence(T, E.A, E.Sub, Th, E.Time);
      break;
    case EventKind::TaskSchedule: {
      auto St = static_cast<ScheduleStatus>(E.Sub);
      if (T != None && (St == ScheduleStatus::Complete ||
                        St == ScheduleStatus::Cancel ||
                        St == ScheduleStatus::Detach)) {
        if (!TS.Waits.empty() && TS.Waits.back().Task == T)
          TS.Waits.pop_back();
        completeTask(T, Th, E.Time);
        TS.SchedGapArmed = true;
        TS.SchedGapFrom = E.Time;
      }
      std::uint32_t N = E.A ? slotOf(E.A) : None;
      if (N != None) {
        Slot &X = Slots[N];
        if (!(X.Flags & SStarted)) {
          X.Flags |= SStarted;
          X.Start = E.Time;
          X.StartThread = Th;
          if (Armed) {
            // From when the thread was free and the task ready: a task
            // released by a predecessor's completion on another thread
            // was not waiting for this one before that.
            std::uint64_t From = std::max(TS.SchedGapFrom, X.Ready);
            ++SchedHist[bucketOf(E.Time - std::min(E.Time, From))];
            ++R.ScheduleSamples;
          }
        }
      }
      TS.Cur = N;
      break;
    }
    case EventKind::SyncBegin: {
      std::uint16_t Sub = E.Sub;
      std::uint32_t Code = code(E.Code);
      Kind K;
      if (Sub == std::uint16_t(SyncKind::Taskwait))
        K = Kind::Taskwait;
      else if (Sub == std::uint16_t(SyncKind::Taskgroup))
        K = Kind::Taskgroup;
      else if (isBarrier(Sub)) {
        K = Sub == std::uint16_t(SyncKind::BarrierExplicit) ? Kind::Barrier
                                                            : Kind::ImplicitBarrier;
        if (Sub == std::uint16_t(SyncKind::BarrierImplicitParallel) &&
            T != None && Slots[T].Team != None)
          Code = Teams[Slots[T].Team].Code;
        else if (Sub == std::uint16_t(SyncKind::BarrierImplicitWorkshare) &&
                 TS.LastWorkCode)
          Code = TS.LastWorkCode;
      } else
        break; // reduction
      TS.Open.push_back({T, Code, K, E.Time, 0});
      if (T == None)
        break;
      programOrder(T, Code, K);
      if (K == Kind::Taskgroup) {
        std::uint32_t G;
        if (!FreeGroups.empty()) {
          G = FreeGroups.back();
          FreeGroups.pop_back();
          Groups[G] = GroupFrame();
        } else {
          G = std::uint32_t(Groups.size());
          Groups.emplace_back();
        }
        Groups[G].Parent = Slots[T].Group;
        Slots[T].Group = G;
      } else if (K == Kind::Barrier || K == Kind::ImplicitBarrier) {
        Slot &X = Slots[T];
        if (X.Team == None)
          break;
        Team &Tm = Teams[X.Team];
        std::int64_t V = mark(T);
        Team::Bar &B = Tm.Bars[X.Epoch & 1];
        if (B.K != X.Epoch) {
          resetVal(B.Arr);
          resetVal(B.Pend);
          B.K = X.Epoch;
        }
        assign(B.Arr, V, Slots[T].Rec);
      }
      break;
    }
    case EventKind::SyncEnd: {
      std::uint16_t Sub = E.Sub;
      if (Sub == std::uint16_t(SyncKind::Reduction))
        break;
      Kind K = Sub == std::uint16_t(SyncKind::Taskwait)    ? Kind::Taskwait
               : Sub == std::uint16_t(SyncKind::Taskgroup) ? Kind::Taskgroup
               : Sub == std::uint16_t(SyncKind::BarrierExplicit)
                   ? Kind::Barrier
                   : Kind::ImplicitBarrier;
      closeOpen(TS, Th, T, K, E.Time);
      if (T == None)
        break;
      Slot &X = Slots[T];
      if (K == Kind::Taskwait) {
        if (X.Extra != None) {
          merge(T, Creators[X.Extra].Pend);
          if (!Creators[X.Extra].Deps.empty())
            Creators[X.Extra].Deps.clear();
        }
        evalSiblings(T);
      } else if (K == Kind::Taskgroup) {
        std::uint32_t G = X.Group;
        if (G != None) {
          merge(T, Groups[G].Max);
          Slots[T].Group = Groups[G].Parent;
          resetVal(Groups[G].Max);
          FreeGroups.push_back(G);
        }
        evalSiblings(T);
      } else {
        if (X.Team == None)
          break;
        Team &Tm = Teams[X.Team];
        Team::Bar &B = Tm.Bars[X.Epoch & 1];
        if (B.K == X.Epoch) {
          merge(T, B.Arr);
          merge(T, B.Pend);
        }
        Slots[T].Epoch = X.Epoch + 1;
        Tm.Epoch = std::max(Tm.Epoch, X.Epoch + 1);
        evalSiblings(T);
      }
      break;
    }
    case EventKind::SyncWaitBegin: {
      std::uint32_t Code = !TS.Open.empty() ? TS.Open.back().Code : code(E.Code);
      Kind K = !TS.Open.empty() ? TS.Open.back().K : Kind::ImplicitBarrier;
      TS.Waits.push_back({T, Code, K, false, 0, E.Time});
      break;
    }
    case EventKind::SyncWaitEnd:
      popWait(TS, T, false, E.Time);
      break;
    case EventKind::WorkBegin: {
      std::uint32_t Code = code(E.Code);
      Kind K = workKind(E.Sub);
      std::uint32_t Index = 0;
      if (!TS.Impl.empty() && TS.Impl.back().Task == T)
        Index = TS.Impl.back().Works++;
      TS.Open.push_back({T, Code, K, E.Time, Index});
      programOrder(T, Code, K);
      break;
    }
    case EventKind::WorkEnd: {
      Kind K = workKind(E.Sub);
      OpenFrame F;
      if (closeOpen(TS, Th, T, K, E.Time, &F)) {
        TS.LastWorkCode = F.Code;
        if (K == Kind::Loop && T != None && Slots[T].K == Kind::Implicit &&
            Slots[T].Team != None) {
          Team &Tm = Teams[Slots[T].Team];
          WorkInst &W = Tm.Works[F.WorkIndex];
          W.Code = F.Code;
          ++W.N;
          std::uint64_t Dur = E.Time - std::min(E.Time, F.Start);
          W.Sum += Dur;
          W.Max = std::max(W.Max, Dur);
          if (W.N >= Tm.Size) {
            if (W.N >= 2 && W.Sum) {
              double Mean = double(W.Sum) / W.N;
              ConstructStats &St = stat(W.Code, Kind::Loop);
              ++St.TeamImbInstances;
              St.TeamImbLostNs += W.Max * W.N - W.Sum;
              St.TeamImbWorstRatio =
                  std::max(St.TeamImbWorstRatio, double(W.Max) / Mean);
            }
            Tm.Works.erase(F.WorkIndex);
          }
        }
      }
      break;
    }
    case EventKind::MaskedBegin: {
      std::uint32_t Code = code(E.Code);
      TS.Open.push_back({T, Code, Kind::Masked, E.Time, 0});
      programOrder(T, Code, Kind::Masked);
      break;
    }
    case EventKind::MaskedEnd:
      closeOpen(TS, Th, T, Kind::Masked, E.Time);
      break;
    case EventKind::MutexAcquire: {
      std::uint32_t Who = T != None ? T : TS.Cur;
      TS.Waits.push_back({Who, code(E.Code), mutexKind(E.Sub), true, 0, E.Time});
      break;
    }
    case EventKind::MutexAcquired: {
      std::uint32_t Who = T != None ? T : TS.Cur;
      Kind K = mutexKind(E.Sub);
      std::uint32_t Code = code(E.Code);
      if (!TS.Waits.empty() && TS.Waits.back().Mutex) {
        WaitFrame W = TS.Waits.back();
        TS.Waits.pop_back();
        std::uint64_t Wall = E.Time - std::min(E.Time, W.Start);
        ConstructStats &St = stat(W.Code, W.K);
        St.WaitNs += Wall;
        if (Wall > 1000)
          ++St.Contended;
        Code = W.Code;
        K = W.K;
      }
      TS.Open.push_back({Who, Code, K, E.Time, 0});
      programOrder(Who, Code, K);
      break;
    }
    case EventKind::MutexReleased: {
      std::uint32_t Who = T != None ? T : TS.Cur;
      // A lock released under another kind (test_lock reports lock).
      for (std::size_t I = TS.Open.size(); I-- > 0;) {
        OpenFrame &F = TS.Open[I];
        if (F.K == Kind::Critical || F.K == Kind::Lock ||
            F.K == Kind::NestLock || F.K == Kind::Ordered ||
            F.K == Kind::Atomic) {
          OpenFrame G = F;
          TS.Open.erase(TS.Open.begin() + std::ptrdiff_t(I));
          std::uint64_t Held = E.Time - std::min(E.Time, G.Start);
          instance(G.Code, G.K, Held);
          if (Obs)
            Obs->construct(Th, G.K, Codes[G.Code], G.Start, E.Time);
          break;
        }
      }
      (void)Who;
      break;
    }
    case EventKind::Cancel:
      instance(code(E.Code), Kind::Cancel, 0);
      break;
    default:
      break;
    }
    // Events of a task's own strand say which task runs on the thread.
    switch (E.Kind) {
    case EventKind::TaskCreate:
    case EventKind::SyncBegin:
    case EventKind::SyncEnd:
    case EventKind::SyncWaitBegin:
    case EventKind::SyncWaitEnd:
    case EventKind::WorkBegin:
    case EventKind::WorkEnd:
    case EventKind::MaskedBegin:
    case EventKind::MaskedEnd:
    case EventKind::Cancel:
      if (T != None && !(Slots[T].Flags & SCompleted))
        TS.Cur = T;
      break;
    default:
      break;
    }
  }

  std::unordered_map<std::uint32_t, std::uint32_t> ForkRec;

  bool closeOpen(ThreadSt &TS, std::uint32_t Th, std::uint32_t T, Kind K,
                 std::uint64_t Time, OpenFrame *Out = nullptr) {
    // The innermost open construct of that kind and task (tolerates
    // missing ends a few levels deep).
    std::size_t Limit = TS.Open.size() > 8 ? TS.Open.size() - 8 : 0;
    for (std::size_t I = TS.Open.size(); I-- > Limit;) {
      OpenFrame &F = TS.Open[I];
      if (F.K != K || (F.Task != T && T != None && F.Task != None))
        continue;
      OpenFrame G = F;
      TS.Open.resize(I);
      if (K != Kind::Parallel) {
        std::uint64_t Dur = Time - std::min(Time, G.Start);
        instance(G.Code, K, Dur);
      }
      if (Obs)
        Obs->construct(Th, K, Codes[G.Code], G.Start, Time);
      if (Out)
        *Out = G;
      return true;
    }
    return false;
  }
  void popWait(ThreadSt &TS, std::uint32_t T, bool Mutex, std::uint64_t) {
    for (std::size_t I = TS.Waits.size(); I-- > 0;) {
      WaitFrame &W = TS.Waits[I];
      if (W.Mutex != Mutex || (W.Task != T && T != None))
        continue;
      WaitFrame X = W;
      TS.Waits.resize(I);
      stat(X.Code, X.K).WaitNs += X.Ns;
      return;
    }
  }

  Result finish() {
    // Tasks that never completed (truncated trace): count their work.
    std::uint64_t Open = 0;
    for (std::uint32_t S = 0; S < Slots.size(); ++S) {
      Slot &T = Slots[S];
      if (T.Id == 0 && T.Exec == 0 && T.Flags == 0)
        continue;
      if (!(T.Flags & SCompleted)) {
        ++Open;
        R.WorkNs += T.Exec;
        std::int64_t V = mark(S);
        assign(Best, V, Slots[S].Rec);
        if (T.Team != None && !Teams[T.Team].Finalized) {
          Teams[T.Team].Work += T.Exec;
          if (T.K == Kind::Implicit)
            assign(Teams[T.Team].Join, V, Slots[S].Rec);
        }
      }
    }
    if (Open)
      R.Warnings.push_back(std::to_string(Open) +
                           " task(s) did not complete in the trace "
                           "(truncated or still running?)");
    // Regions whose end or members' ends are missing (truncated trace):
    // report what was seen.
    for (std::uint32_t TI = 0; TI < Teams.size(); ++TI) {
      Team &Tm = Teams[TI];
      if (Tm.Pseudo || Tm.Finalized)
        continue;
      if (!Tm.ParallelEnded) {
        Tm.End = R.LastTime;
        if (Tm.Join.V != NegInf)
          Tm.JoinSpan = Tm.Join.V - Tm.ForkV;
      }
      Tm.ParallelEnded = true;
      Tm.Ended = Tm.Members;
      finalizeTeam(TI);
    }
    if (OutOfOrder)
      R.Warnings.push_back(std::to_string(OutOfOrder) +
                           " event(s) out of time order");
    for (ThreadSt &TS : Threads) {
      if (!TS.Seen)
        continue;
      ++R.Threads;
      R.BusyNs += TS.Busy;
      R.WaitNs += TS.Wait;
    }
    R.SpanNs = Best.V > 0 ? std::uint64_t(Best.V) : 0;
    R.CreateCostNs = histMedian(CreateHist);
    R.ScheduleCostNs = histMedian(SchedHist);
    // Critical path: walk the records back from the best final value.
    std::vector<PathStep> Steps;
    R.PathTasks = Best.Rec != None ? Recs[Best.Rec].Cum : 0;
    for (std::uint32_t X = Best.Rec; X != None; X = Recs[X].Prev) {
      const Record &Rc = Recs[X];
      std::uint64_t C = Codes[Rc.Code];
      if (!Steps.empty() && Steps.back().Code == C &&
          Steps.back().K == Kind(Rc.K)) {
        Steps.back().Ns += Rc.Ns;
        Steps.back().Instances += Rc.First ? 1 : 0;
        continue;
      }
      if (Rc.Ns == 0 && !Rc.First)
        continue;
      Steps.push_back({C, Kind(Rc.K), Rc.Ns, Rc.First ? 1u : 0u});
    }
    std::reverse(Steps.begin(), Steps.end());
    // Drop zero-length steps, then merge neighbours they separated.
    std::vector<PathStep> Path;
    for (PathStep &S : Steps) {
      if (S.Ns == 0)
        continue;
      if (!Path.empty() && Path.back().Code == S.Code && Path.back().K == S.K) {
        Path.back().Ns += S.Ns;
        Path.back().Instances += S.Instances;
      } else
        Path.push_back(S);
    }
    R.CriticalPath = std::move(Path);
    R.Constructs = Stats;
    std::stable_sort(R.Constructs.begin(), R.Constructs.end(),
                     [](const ConstructStats &A, const ConstructStats &B) {
                       return A.TotalNs > B.TotalNs;
                     });
    return std::move(R);
  }
};

Analyzer::Analyzer() : P(std::make_unique<Impl>()) {}
Analyzer::~Analyzer() = default;
void Analyzer::setObserver(Observer *O) { P->Obs = O; }
void Analyzer::add(std::uint32_t Thread, const Event &E) { P->add(Thread, E); }
void Analyzer::add(std::uint32_t Thread, const Event *E, std::size_t N) {
  Impl &I = *P;
  for (std::size_t K = 0; K < N; ++K)
    I.add(Thread, E[K]);
}
Result Analyzer::finish() { return P->finish(); }
std::uint64_t Analyzer::peakLiveTasks() const { return P->PeakLive; }

} // namespace otter::analysis
