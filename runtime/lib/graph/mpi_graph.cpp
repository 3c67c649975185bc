//===- graph/mpi_graph.cpp - MPI calls in a rank's task graph -------------===//
#include "graph/mpi_graph.h"
#include "graph/writers.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace otter {

namespace {

bool isPolling(mpi::Function F) {
  using mpi::Function;
  return F == Function::Test || F == Function::Testany ||
         F == Function::Testall || F == Function::Testsome ||
         F == Function::Iprobe || F == Function::Win_test;
}

bool completes(EventKind K) {
  return K == EventKind::MpiIsendComplete || K == EventKind::MpiIrecv ||
         K == EventKind::MpiCollectiveEnd ||
         K == EventKind::MpiRequestCancelled;
}

/// Posts a request that a later call completes.
bool posts(const Event &E) {
  return (E.Kind == EventKind::MpiIsend ||
          E.Kind == EventKind::MpiIrecvRequest ||
          E.Kind == EventKind::MpiCollectiveBegin) &&
         mpi::request(E) != 0;
}

/// The latest (time, value) at or before T in a time-sorted list.
template <typename V>
const V *latest(const std::vector<std::pair<std::uint64_t, V>> &L,
                std::uint64_t T) {
  auto It = std::upper_bound(
      L.begin(), L.end(), T,
      [](std::uint64_t X, const std::pair<std::uint64_t, V> &P) {
        return X < P.first;
      });
  return It == L.begin() ? nullptr : &std::prev(It)->second;
}

} // namespace

bool MpiIngest::add(std::uint32_t Thread, const Event &E, Done &Out) {
  switch (E.Kind) {
  case EventKind::MpiInit:
    Rank = mpi::worldRank(E);
    WorldSize = mpi::worldSize(E);
    return false;
  case EventKind::MpiCommCreate:
    CommCreates.push_back(E);
    CreateLowest.push_back(mpi::NoRank);
    return false;
  case EventKind::MpiCommMembers: {
    // They follow their communicator's creation on the same thread.
    for (std::size_t I = CommCreates.size(); I-- > 0;)
      if (mpi::comm(CommCreates[I]) == mpi::comm(E)) {
        std::uint32_t First, R[4];
        const unsigned N = mpi::members(E, First, R);
        for (unsigned K = 0; K < N; ++K)
          CreateLowest[I] = std::min(CreateLowest[I], R[K]);
        break;
      }
    return false;
  }
  case EventKind::MpiUntracedCalls:
    Untraced[mpi::function(E)] += E.count();
    return false;
  case EventKind::MpiCommName:
    CommNames[mpi::commKey(E)] = E.commName(); // the last one set
    return false;
  case EventKind::MpiCallBegin: {
    Open &O = OpenCalls[Thread];
    O.Active = true;
    O.Begin = E;
    O.FirstOp = std::uint32_t(Ops.size());
    O.Completed = false;
    return false;
  }
  case EventKind::MpiCallEnd: {
    auto It = OpenCalls.find(Thread);
    if (It == OpenCalls.end() || !It->second.Active)
      return false; // its begin was lost (a cut-off trace)
    Open &O = It->second;
    O.Active = false;
    std::uint32_t Index = std::uint32_t(Calls.size());
    mpi::Function F = mpi::function(O.Begin);
    Calls.push_back({O.FirstOp, std::uint32_t(Ops.size()) - O.FirstOp, F,
                     O.Begin.Time, E.Time, O.Begin.code(), Thread});
    for (std::uint32_t I = O.FirstOp; I < Ops.size(); ++I)
      OpCall[I] = Index;
    if (O.Begin.Task == 0 || (isPolling(F) && !O.Completed))
      return false;
    Out = {O.Begin.Task, O.Begin.Seq, F, Index, O.Begin.code()};
    return true;
  }
  case EventKind::MpiSend:
  case EventKind::MpiIsend:
  case EventKind::MpiIsendComplete:
  case EventKind::MpiIrecvRequest:
  case EventKind::MpiRecv:
  case EventKind::MpiIrecv:
  case EventKind::MpiRequestCancelled:
  case EventKind::MpiCollectiveBegin:
  case EventKind::MpiCollectiveEnd:
  case EventKind::MpiTransfer: {
    Ops.push_back(E);
    OpCall.push_back(~std::uint32_t(0));
    auto It = OpenCalls.find(Thread);
    if (It != OpenCalls.end() && It->second.Active && completes(E.Kind))
      It->second.Completed = true;
    return false;
  }
  default: // MpiRequestTest (timing), members, free, clock offsets
    return false;
  }
}

void MpiIngest::nodeMade(std::uint32_t Call, NodeId N) {
  if (Call < Calls.size())
    Calls[Call].Node = N;
}

/// MpiGraph::CommOrigins, from the creations in time order.
void MpiIngest::commOrigins(MpiGraph &G) const {
  std::vector<std::size_t> Order(CommCreates.size());
  for (std::size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(),
                   [&](std::size_t A, std::size_t B) {
                     return CommCreates[A].Time < CommCreates[B].Time;
                   });
  std::map<std::uint64_t, std::uint32_t> Made; // per parent key
  std::map<std::uint64_t, MpiGraph::CommOrigin> Origins;
  for (std::size_t I : Order) {
    const Event &C = CommCreates[I];
    MpiGraph::CommOrigin O;
    O.Key = mpi::commKey(C);
    O.Parent = mpi::parentKey(C);
    O.Ordinal = ++Made[O.Parent];
    O.Size = mpi::commSize(C);
    O.Lowest = CreateLowest[I] != mpi::NoRank ? CreateLowest[I] : 0;
    if (O.Parent) // world, self and the ones OTTER met made elsewhere: none
      Origins.emplace(O.Key, O);
  }
  for (const auto &[Key, O] : Origins)
    G.CommOrigins.push_back(O);
}

MpiGraph MpiIngest::finish() {
  MpiGraph G;
  G.Rank = Rank;
  G.WorldSize = WorldSize;
  G.Untraced.assign(Untraced.begin(), Untraced.end());
  G.CommNames.assign(CommNames.begin(), CommNames.end());
  // Communicator index -> key over time (indices are reused after frees).
  std::map<std::uint16_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>>
      Keys;
  for (const Event &C : CommCreates) {
    Keys[mpi::comm(C)].push_back({C.Time, mpi::commKey(C)});
    G.CommSizes.push_back({mpi::commKey(C), mpi::commSize(C)});
  }
  commOrigins(G);
  std::sort(G.CommSizes.begin(), G.CommSizes.end());
  G.CommSizes.erase(std::unique(G.CommSizes.begin(), G.CommSizes.end(),
                                [](const auto &A, const auto &B) {
                                  return A.first == B.first;
                                }),
                    G.CommSizes.end());
  for (auto &[Index, L] : Keys)
    std::stable_sort(L.begin(), L.end(), [](const auto &A, const auto &B) {
      return A.first < B.first;
    });
  auto keyOf = [&](const Event &E) -> std::uint64_t {
    auto It = Keys.find(mpi::comm(E));
    if (It == Keys.end())
      return 0;
    const std::uint64_t *K = latest(It->second, E.Time);
    return K ? *K : 0;
  };
  // Request id -> (node of the posting call, collective instance), over
  // time (ids wrap).
  struct Post {
    NodeId Node;
    std::uint64_t Instance;
    std::uint32_t RootWorld;
  };
  std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, Post>>> Posts;
  auto nodeOfOp = [&](std::size_t I) {
    return OpCall[I] < Calls.size() ? Calls[OpCall[I]].Node : ~NodeId(0);
  };
  for (std::size_t I = 0; I < Ops.size(); ++I)
    if (posts(Ops[I]))
      Posts[mpi::request(Ops[I])].push_back(
          {Ops[I].Time, Ops[I].Kind == EventKind::MpiCollectiveBegin
                            ? Post{nodeOfOp(I), mpi::collectiveInstance(Ops[I]),
                                   mpi::rootWorld(Ops[I])}
                            : Post{nodeOfOp(I), 0, mpi::NoRank}});
  for (auto &[Id, L] : Posts)
    std::stable_sort(L.begin(), L.end(), [](const auto &A, const auto &B) {
      return A.first < B.first;
    });

  std::vector<std::uint32_t> Order;
  for (std::uint32_t C = 0; C < Calls.size(); ++C)
    if (Calls[C].Node != ~NodeId(0))
      Order.push_back(C);
  std::sort(Order.begin(), Order.end(), [&](std::uint32_t A, std::uint32_t B) {
    return Calls[A].Node < Calls[B].Node;
  });
  for (std::uint32_t C : Order) {
    const CallRec &R = Calls[C];
    MpiCall Out;
    Out.Node = R.Node;
    Out.Function = R.Function;
    Out.FirstOp = std::uint32_t(G.Ops.size());
    Out.Begin = R.Begin;
    Out.End = R.End;
    Out.Site = R.Site;
    Out.Thread = R.Thread;
    // A collective's end repeats what its begin said (same call, or the
    // call that posted its request).
    std::uint64_t LastInstance = 0;
    std::uint32_t LastRootWorld = mpi::NoRank;
    for (std::uint32_t I = R.FirstOp; I < R.FirstOp + R.OpCount; ++I) {
      const Event &E = Ops[I];
      MpiOp Op;
      Op.Kind = E.Kind;
      Op.Comm = keyOf(E);
      Op.Request = mpi::request(E);
      Op.Time = E.Time;
      if (mpi::isMessage(E.Kind)) {
        mpi::Message M = mpi::messageOf(E);
        Op.Peer = M.PeerWorld;
        Op.PeerInComm = M.PeerInComm;
        Op.Tag = M.Tag;
        Op.Bytes = M.Bytes;
      } else if (E.Kind == EventKind::MpiTransfer) {
        Op.Peer = E.peerWorld();
        Op.PeerInComm = E.peer();
        Op.Bytes = E.bytes();
      } else if (E.Kind == EventKind::MpiCollectiveBegin) {
        Op.Op = mpi::collectiveOp(E);
        Op.Instance = LastInstance = mpi::collectiveInstance(E);
        Op.PeerInComm = mpi::rootInComm(E);
        Op.Peer = LastRootWorld = mpi::rootWorld(E);
      } else if (E.Kind == EventKind::MpiCollectiveEnd) {
        Op.Op = mpi::collectiveOp(E);
        Op.Bytes = mpi::bytesSent(E);
        Op.Received = mpi::bytesReceived(E);
        Op.PeerInComm = mpi::rootInComm(E);
        Op.Instance = LastInstance;
        Op.Peer = LastRootWorld;
      }
      if (Op.Request) {
        if (posts(E))
          Op.RequestNode = R.Node;
        else if (auto It = Posts.find(Op.Request); It != Posts.end())
          if (const Post *P = latest(It->second, E.Time)) {
            Op.RequestNode = P->Node;
            if (E.Kind == EventKind::MpiCollectiveEnd) {
              Op.Instance = P->Instance;
              Op.Peer = P->RootWorld;
            }
          }
      }
      G.Ops.push_back(Op);
    }
    Out.OpCount = std::uint32_t(G.Ops.size()) - Out.FirstOp;
    G.Calls.push_back(Out);
  }
  return G;
}

namespace {

const char *opEventName(EventKind K) {
  switch (K) {
  case EventKind::MpiSend:
    return "send";
  case EventKind::MpiIsend:
    return "isend";
  case EventKind::MpiIsendComplete:
    return "isend_complete";
  case EventKind::MpiIrecvRequest:
    return "irecv_request";
  case EventKind::MpiRecv:
    return "recv";
  case EventKind::MpiIrecv:
    return "irecv";
  case EventKind::MpiRequestCancelled:
    return "cancelled";
  case EventKind::MpiCollectiveBegin:
    return "collective_begin";
  case EventKind::MpiCollectiveEnd:
    return "collective_end";
  case EventKind::MpiTransfer:
    return "transfer";
  default:
    return "?";
  }
}

const char *collectiveName(mpi::CollectiveOp Op) {
  const char *N = mpi::collectiveOpName(Op);
  return N ? N : "?";
}

std::string rankText(std::uint32_t R) {
  return R == mpi::NoRank ? "-" : std::to_string(R);
}

} // namespace

const std::string &
MpiGraph::commName(std::uint64_t Key,
                   const std::vector<std::string> &Names) const {
  static const std::string None;
  auto It = std::lower_bound(
      CommNames.begin(), CommNames.end(), Key,
      [](const auto &P, std::uint64_t K) { return P.first < K; });
  if (It == CommNames.end() || It->first != Key || It->second >= Names.size())
    return None;
  return Names[It->second];
}

std::string MpiGraph::commText(std::uint64_t Key,
                               const std::vector<std::string> &Names) const {
  auto text = [&](std::uint64_t K, unsigned Depth, auto &&Self) -> std::string {
    if (K == 0)
      return "?";
    if (const std::string &Name = commName(K, Names); !Name.empty())
      return Name;
    if (K == mpi::WorldKey)
      return "world";
    if (Rank >= 0 && K == mpi::commSelfKey(std::uint32_t(Rank)))
      return "self";
    auto It = std::lower_bound(
        CommOrigins.begin(), CommOrigins.end(), K,
        [](const CommOrigin &O, std::uint64_t X) { return O.Key < X; });
    if (It == CommOrigins.end() || It->Key != K || Depth > 16) {
      char B[20];
      std::snprintf(B, sizeof B, "%016llx", (unsigned long long)K);
      return B;
    }
    std::uint32_t ParentSize = It->Parent == mpi::WorldKey ? WorldSize : 0;
    if (auto P = std::lower_bound(
            CommSizes.begin(), CommSizes.end(), It->Parent,
            [](const auto &S, std::uint64_t X) { return S.first < X; });
        P != CommSizes.end() && P->first == It->Parent)
      ParentSize = P->second;
    std::string T =
        Self(It->Parent, Depth + 1, Self) + "/" + std::to_string(It->Ordinal);
    if (It->Size < ParentSize)
      T += "@" + std::to_string(It->Lowest);
    return T;
  };
  return text(Key, 0, text);
}

void writeMpiCsv(const MpiGraph &M, const std::vector<std::string> &Names,
                 std::ostream &OS) {
  OS << "node,function,event,comm,peer,peer_in_comm,tag,bytes,received,"
        "collective,instance,request_node\n";
  auto commText = [&](std::uint64_t Key) {
    return csvField(M.commText(Key, Names));
  };
  for (const MpiCall &C : M.Calls) {
    auto line = [&](const char *Event, const MpiOp *Op) {
      OS << C.Node << ',' << mpi::functionName(C.Function) << ',' << Event;
      if (!Op) {
        OS << ",,,,,,,,,\n";
        return;
      }
      bool Collective = Op->Kind == EventKind::MpiCollectiveBegin ||
                        Op->Kind == EventKind::MpiCollectiveEnd;
      // A file access has no communicator, a transfer no tag.
      bool Transfer = Op->Kind == EventKind::MpiTransfer;
      OS << ','
         << (Transfer && Op->Comm == 0 ? std::string() : commText(Op->Comm))
         << ',' << rankText(Op->Peer) << ',' << rankText(Op->PeerInComm) << ',';
      if (!Collective && !Transfer)
        OS << (Op->Tag == mpi::AnyTag ? std::string("any")
                                      : std::to_string(Op->Tag));
      bool Post = Op->Kind == EventKind::MpiCollectiveBegin;
      OS << ',';
      if (!Post)
        OS << Op->Bytes;
      OS << ',';
      if (Collective && !Post)
        OS << Op->Received;
      OS << ',';
      if (Collective)
        OS << collectiveName(Op->Op) << ',' << Op->Instance;
      else
        OS << ',';
      OS << ',';
      if (Op->Request)
        OS << (Op->RequestNode == ~NodeId(0) ? std::string("?")
                                             : std::to_string(Op->RequestNode));
      OS << '\n';
    };
    if (C.OpCount == 0)
      line("call", nullptr);
    for (std::uint32_t I = C.FirstOp; I < C.FirstOp + C.OpCount; ++I)
      line(opEventName(M.Ops[I].Kind), &M.Ops[I]);
  }
}

} // namespace otter
