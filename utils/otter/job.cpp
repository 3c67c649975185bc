//===- otter/job.cpp - An MPI job as one event stream for the analyses ---===//
#include "job.h"

#include "graph/mpi_graph.h"
#include "otter/event_info.h"
#include "otter/mpi.h"

#include <algorithm>
#include <unordered_map>

namespace otter::cli {

namespace {

constexpr unsigned IdLoBits = 40; // ids: (thread + 1) << 40 | counter
constexpr std::uint64_t IdLoMask = (std::uint64_t(1) << IdLoBits) - 1;

/// Kinds whose A field is a task or parallel-region id, from the event
/// table (otter/event_kinds.def: the fields of format Id; which of them is
/// stored in A is found by reading a probe event through each accessor).
struct IdInA {
  bool Kind[KindSlots] = {};
  IdInA() {
    for (std::size_t K = 0; K < KindSlots; ++K) {
      const KindInfo &I = kindInfo(EventKind(K));
      Event Probe{};
      Probe.Kind = EventKind(K);
      Probe.A = 0x5a5a5a5a5a5aull;
      for (const FieldInfo *const *F = I.Fields; F && *F; ++F)
        if ((*F)->Format == FieldFormat::Id && (*F)->Get(Probe) == Probe.A)
          Kind[K] = true;
    }
  }
};
const IdInA IdFields;

bool aIsId(EventKind K) {
  return std::size_t(K) < KindSlots && IdFields.Kind[std::size_t(K)];
}

/// toJob writes a name where the event table stores it: Sub.
constexpr bool nameInSub() {
  Event E{};
  E.Sub = 0x1234;
  return E.name() == 0x1234;
}
static_assert(nameInSub(), "the name field moved: update toJob");

/// Kinds with a name field (the annotations': otter/otter.h).
bool hasName(EventKind K) {
  return K == EventKind::PhaseBegin || K == EventKind::PhaseEnd ||
         K == EventKind::TaskLabel || K == EventKind::Mark;
}

} // namespace

JobInput::JobInput() = default;
JobInput::~JobInput() = default;

std::uint64_t JobInput::Rank::offsetTime(std::uint64_t T) const {
  if (Offsets.empty())
    return T;
  std::int64_t Off;
  if (Offsets.size() == 1 || T <= Offsets.front().first)
    Off = Offsets.front().second;
  else if (T >= Offsets.back().first)
    Off = Offsets.back().second;
  else { // between the first and the last measurement: linear
    const auto &A = Offsets.front(), &B = Offsets.back();
    double F = double(T - A.first) / double(B.first - A.first);
    Off = A.second + std::int64_t(F * double(B.second - A.second));
  }
  return Off < 0 && std::uint64_t(-Off) > T ? 0 : T + std::uint64_t(Off);
}

std::uint64_t JobInput::jobId(std::uint32_t R, std::uint64_t Id) const {
  if (!Id)
    return 0;
  return (((Id >> IdLoBits) + Ranks[R].IdBase) << IdLoBits) | (Id & IdLoMask);
}

void JobInput::toJob(std::uint32_t R, std::uint32_t &Thread, Event *E,
                     std::size_t N) const {
  const Rank &Rk = Ranks[R];
  std::uint64_t Tag = std::uint64_t(R + 1) << CodeRankShift;
  Thread += Rk.ThreadBase;
  for (std::size_t I = 0; I < N; ++I) {
    Event &X = E[I];
    X.Time = Rk.toJobTime(X.Time);
    X.Task = jobId(R, X.Task);
    if (aIsId(X.Kind))
      X.A = jobId(R, X.A);
    if (codeIsAddress(X.Kind))
      X.Code = Tag | codeAddress(X.Code);
    if (hasName(X.Kind) && X.name() < NameMap[R].size())
      X.Sub = NameMap[R][X.name()]; // the name's slot (nameInSub)
  }
}

void JobInput::mapNames(std::uint32_t R,
                        const std::vector<std::string> &RankNames) {
  std::unordered_map<std::string, std::uint16_t> Index;
  for (std::size_t I = 0; I < Names.size(); ++I)
    Index.emplace(Names[I], std::uint16_t(I));
  std::vector<std::uint16_t> &M = NameMap[R];
  M.assign(RankNames.size(), 0);
  for (std::size_t I = 1; I < RankNames.size(); ++I) {
    auto [It, New] = Index.emplace(RankNames[I], std::uint16_t(Names.size()));
    if (New) {
      // Ids are 16 bits, as in a rank's trace: past that, no name ("").
      if (Names.size() > 0xffff) {
        It->second = 0;
      } else {
        Names.push_back(RankNames[I]);
      }
    }
    M[I] = It->second;
  }
}

std::uint32_t JobInput::rankOfThread(std::uint32_t Thread) const {
  for (std::size_t R = Ranks.size(); R-- > 0;)
    if (Ranks[R].Read && Thread >= Ranks[R].ThreadBase)
      return std::uint32_t(R);
  return 0;
}

std::size_t JobInput::threads() const {
  std::size_t N = 0;
  for (const Rank &R : Ranks)
    N = std::max<std::size_t>(N, R.ThreadBase + R.Threads);
  return N;
}

void JobInput::threadPlaces(std::vector<std::uint32_t> &Rank,
                            std::vector<std::uint32_t> &Local) const {
  Rank.assign(threads(), 0);
  Local.assign(threads(), 0);
  for (std::uint32_t R = 0; R < Ranks.size(); ++R)
    for (std::uint32_t T = 0; Ranks[R].Read && T < Ranks[R].Threads; ++T) {
      Rank[Ranks[R].ThreadBase + T] = R;
      Local[Ranks[R].ThreadBase + T] = T;
    }
}

bool JobInput::open(const job::Layout &L, std::string &Error) {
  Dir = L.Dir;
  std::size_t N = L.RankDirs.size();
  Ranks.assign(N, Rank());
  Inputs.resize(N);
  CallKeys.assign(N, {});
  NameMap.assign(N, {});
  std::vector<Graph> Calls(N);
  std::vector<std::uint64_t> MaxHi(N, 0);
  std::uint32_t Size = std::uint32_t(N);
  for (std::size_t R = 0; R < N; ++R) {
    Rank &Rk = Ranks[R];
    Rk.Dir = L.RankDirs[R];
    if (Rk.Dir.empty()) {
      Rk.Error = "no rank-" + std::to_string(R) + "/ in '" + L.Dir + "'";
      continue;
    }
    auto In = std::make_unique<ArchiveInput>();
    if (!In->open(Rk.Dir, Rk.Error))
      continue;
    // The first pass: the rank's MPI calls (mpi_graph.h), each a "node";
    // the highest thread part of its ids; its clock offsets.
    MpiIngest Ingest;
    NodeId Next = 0;
    std::uint64_t Hi = 0;
    if (!In->streamRaw(
            [&](std::uint32_t Th, const Event *E, std::size_t K) {
              for (std::size_t I = 0; I < K; ++I) {
                const Event &X = E[I];
                Hi = std::max(Hi, X.Task >> IdLoBits);
                if (aIsId(X.Kind))
                  Hi = std::max(Hi, X.A >> IdLoBits);
                if (!mpi::isMpi(X.Kind))
                  continue;
                if (X.Kind == EventKind::MpiClockOffset)
                  Rk.Offsets.push_back(
                      {mpi::clockOffsetTime(X), mpi::clockOffset(X)});
                MpiIngest::Done D;
                if (Ingest.add(Th, X, D)) {
                  Ingest.nodeMade(D.Call, Next++);
                  CallKeys[R].push_back({D.Task, D.Seq});
                }
              }
            },
            Rk.Error))
      continue;
    std::sort(Rk.Offsets.begin(), Rk.Offsets.end());
    Graph &G = Calls[R];
    G.Labels.resize(1);
    G.Nodes.assign(Next, Node{NodeKind::MpiCall});
    G.Mpi = Ingest.finish();
    Size = std::max(Size, G.Mpi.WorldSize);
    std::vector<std::uint32_t> Locs = In->locations();
    for (std::uint32_t Loc : Locs)
      Rk.Threads = std::max(Rk.Threads, Loc + 1);
    MaxHi[R] = Hi;
    Rk.Read = true;
    Rk.Complete = In->complete();
    mapNames(std::uint32_t(R), In->names());
    RecordingCostNs = std::max(RecordingCostNs, In->recordingCostNs());
    Inputs[R] = std::move(In);
  }
  std::uint32_t ThreadBase = 0;
  std::uint64_t IdBase = 0;
  std::size_t Read = 0;
  for (std::size_t R = 0; R < N; ++R) {
    Ranks[R].ThreadBase = ThreadBase;
    Ranks[R].IdBase = IdBase;
    if (!Ranks[R].Read)
      continue;
    ++Read;
    ThreadBase += Ranks[R].Threads;
    IdBase += MaxHi[R] + 1;
  }
  if (!Read) {
    if (Error = job::samplesOnlyJobMessage(L); !Error.empty())
      return false;
    Error = "no rank of the job in '" + L.Dir + "' could be read";
    for (const Rank &R : Ranks)
      if (!R.Error.empty()) {
        Error += ": " + R.Error;
        break;
      }
    return false;
  }
  // Ranks that left nothing at all (MPI_Init says how many there were).
  Calls.resize(Size);
  for (std::size_t R = N; R < Size; ++R) {
    Ranks.emplace_back();
    Ranks.back().ThreadBase = ThreadBase;
    Ranks.back().Error = "no rank-" + std::to_string(R) + "/ in '" + L.Dir +
                         "' (the job had " + std::to_string(Size) + " ranks)";
    Inputs.emplace_back();
    CallKeys.emplace_back();
    NameMap.emplace_back();
  }
  Match = buildJobGraph(std::move(Calls), /*Edges=*/false);
  enforceClockCondition();
  makeLinks();
  return true;
}

void JobInput::enforceClockCondition() {
  auto call = [&](std::uint32_t R, NodeId N) -> const MpiCall * {
    if (R >= Match.Ranks.size() || N >= Match.Ranks[R].Mpi.Calls.size())
      return nullptr;
    const MpiCall &C = Match.Ranks[R].Mpi.Calls[N]; // one call per node
    return C.Node == N ? &C : nullptr;
  };
  std::vector<job::ClockMessage> Messages;
  for (const JobMessage &X : Match.Messages) {
    if (X.State != JobMessage::Matched || X.SendRank >= Ranks.size() ||
        X.RecvRank >= Ranks.size())
      continue;
    const MpiCall *S = call(X.SendRank, X.SendNode);
    const MpiCall *R = call(X.RecvRank, X.RecvNode);
    if (!S || !R)
      continue;
    // The analysis publishes a send when its call begins and takes it when
    // the receiving call ends (analysis_mpi.cpp): that order is the one
    // kept.
    Messages.push_back({X.SendRank, Ranks[X.SendRank].offsetTime(S->Begin),
                        X.RecvRank, Ranks[X.RecvRank].offsetTime(R->End)});
  }
  Clock = job::enforceClockCondition(Messages, Ranks.size());
  for (std::size_t R = 0; R < Ranks.size(); ++R)
    Ranks[R].Logical = std::move(Clock.Shifts[R]);
  Clock.Shifts.clear();
}

void JobInput::makeLinks() {
  auto add = [&](std::uint32_t R, NodeId Call, std::uint32_t Slot,
                 bool Publish) {
    if (R >= CallKeys.size() || Call >= CallKeys[R].size())
      return;
    analysis::MpiLinks &L = Links[callKey(R, Call)];
    (Publish ? L.Publish : L.Merge).push_back(Slot);
  };
  for (const JobMessage &M : Match.Messages) {
    if (M.State != JobMessage::Matched)
      continue;
    std::uint32_t S = std::uint32_t(Consumers.size());
    Consumers.push_back(1);
    add(M.SendRank, M.SendNode, S, true);
    add(M.RecvRank, M.RecvNode, S, false);
  }
  for (const JobCollective &C : Match.Collectives) {
    std::uint32_t S = std::uint32_t(Consumers.size());
    std::uint32_t Out = 0;
    for (const JobCollective::Member &M : C.Members) {
      if (M.In)
        add(M.Rank, M.Post, S, true);
      if (M.Out) {
        add(M.Rank, M.Complete, S, false);
        ++Out;
      }
    }
    Consumers.push_back(Out);
  }
}

const analysis::MpiLinks *JobInput::links(std::uint32_t, const Event &Begin) {
  auto It = Links.find({Begin.Task, Begin.Seq});
  return It == Links.end() ? nullptr : &It->second;
}

bool JobInput::streamOrdered(const ArchiveInput::EventFn &Fn,
                             std::string &Error) {
  std::vector<LaneSource> Lanes;
  for (std::uint32_t R = 0; R < Ranks.size(); ++R) {
    if (!Inputs[R])
      continue;
    for (std::uint32_t Loc : Inputs[R]->locations())
      Lanes.push_back({Ranks[R].Dir, Loc,
                       [this, R](std::uint32_t &Th, Event *E, std::size_t N) {
                         toJob(R, Th, E, N);
                       }});
  }
  return streamLanes(Lanes, Fn, Error);
}

SourceLabel JobInput::label(std::uint64_t Code) const {
  int R = codeRank(Code);
  std::uint64_t Addr = codeAddress(Code);
  if (R < 0 || std::size_t(R) >= Inputs.size() || !Inputs[R] || !Addr)
    return SourceLabel{};
  return Inputs[R]->label(Addr);
}

} // namespace otter::cli
