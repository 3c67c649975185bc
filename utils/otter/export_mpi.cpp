//===- otter/export_mpi.cpp - An MPI job in the Perfetto export -----------===//
//
// `otter export --format perfetto` on an MPI job: a process per rank, each
// MPI call's slice (PerfettoWriter::mpiCall, named by its function and
// source line) given what it did as args (peer, tag, bytes; a collective's operation and bytes), an arrow
// per matched message, and for each collective an arrow from the member
// whose arrival released each other member (the last of the members whose
// data it needed) to the end of that member's call. All from the job's
// matching (job.h), on the job's clock.
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include "export.h"
#include "job.h"
#include "report.h"

#include <algorithm>
#include <string>

namespace otter::cli {

using analysis::PerfettoWriter;

namespace {

std::string rankText(std::uint32_t Rank) {
  return Rank == mpi::NoRank ? "any rank" : "rank " + std::to_string(Rank);
}

std::string tagText(std::uint32_t Tag) {
  return Tag == mpi::AnyTag ? "any tag" : "tag " + std::to_string(Tag);
}

/// One of a call's operations in words ("" for those that say nothing to a
/// reader of the timeline: communicator bookkeeping, the begin of a
/// collective the call also ends, Ended).
std::string operationText(const MpiOp &Op, bool Ended) {
  std::string Bytes = ", " + std::to_string(Op.Bytes) + " bytes";
  switch (Op.Kind) {
  case EventKind::MpiSend:
    return "send to " + rankText(Op.Peer) + ", " + tagText(Op.Tag) + Bytes;
  case EventKind::MpiIsend:
    return "post a send to " + rankText(Op.Peer) + ", " + tagText(Op.Tag) +
           Bytes;
  case EventKind::MpiIsendComplete:
    return "complete a send to " + rankText(Op.Peer) + ", " + tagText(Op.Tag);
  case EventKind::MpiIrecvRequest:
    return "post a receive from " + rankText(Op.Peer) + ", " + tagText(Op.Tag);
  case EventKind::MpiRecv:
    return "receive from " + rankText(Op.Peer) + ", " + tagText(Op.Tag) +
           Bytes;
  case EventKind::MpiIrecv:
    return "complete a receive from " + rankText(Op.Peer) + ", " +
           tagText(Op.Tag) + Bytes;
  case EventKind::MpiRequestCancelled:
    return "cancel a request";
  case EventKind::MpiTransfer: // one-sided (a target) or a file access
    return Op.Peer != mpi::NoRank ? "target " + rankText(Op.Peer) + Bytes
                                  : std::to_string(Op.Bytes) + " bytes";
  case EventKind::MpiCollectiveBegin:
    if (Ended)
      return "";
    return "start " + std::string(mpi::collectiveOpName(Op.Op)) +
           (Op.Peer != mpi::NoRank ? ", root rank " + std::to_string(Op.Peer)
                                   : "");
  case EventKind::MpiCollectiveEnd:
    return std::string(mpi::collectiveOpName(Op.Op)) +
           (Op.Peer != mpi::NoRank ? ", root rank " + std::to_string(Op.Peer)
                                   : "") +
           ", sent " + std::to_string(Op.Bytes) + " bytes, received " +
           std::to_string(Op.Received) + " bytes";
  default:
    return "";
  }
}

/// A call's args object: its operations in words and, for a call with one
/// point-to-point operation, its peer, tag and bytes as numbers ("" for a
/// call that did nothing to show: MPI_Init, a communicator's creation).
std::string callArgs(const MpiGraph &Mpi, const MpiCall &C) {
  std::string Text;
  const MpiOp *Single = nullptr;
  unsigned Described = 0;
  std::uint32_t Last = std::min<std::uint32_t>(C.FirstOp + C.OpCount,
                                               std::uint32_t(Mpi.Ops.size()));
  bool Ended = false; // a blocking collective: its begin says nothing more
  for (std::uint32_t I = C.FirstOp; I < Last; ++I)
    Ended |= Mpi.Ops[I].Kind == EventKind::MpiCollectiveEnd;
  for (std::uint32_t I = C.FirstOp; I < Last; ++I) {
    std::string Op = operationText(Mpi.Ops[I], Ended);
    if (Op.empty())
      continue;
    Text += (Text.empty() ? "" : "; ") + Op;
    Single = &Mpi.Ops[I];
    ++Described;
  }
  if (Text.empty())
    return "";
  std::string Args = "{\"operations\":" + analysis::jsonString(Text);
  bool PointToPoint = Single && Single->Kind != EventKind::MpiCollectiveBegin &&
                      Single->Kind != EventKind::MpiCollectiveEnd &&
                      Single->Kind != EventKind::MpiRequestCancelled;
  if (Described == 1 && PointToPoint) {
    if (Single->Peer != mpi::NoRank)
      Args += ",\"peer\":" + std::to_string(Single->Peer);
    if (Single->Tag != mpi::AnyTag && Single->Kind != EventKind::MpiTransfer)
      Args += ",\"tag\":" + std::to_string(Single->Tag);
    Args += ",\"bytes\":" + std::to_string(Single->Bytes);
  }
  return Args + "}";
}

const MpiCall *callOf(const JobGraph &M, std::uint32_t R, NodeId N) {
  if (R >= M.Ranks.size() || N >= M.Ranks[R].Mpi.Calls.size())
    return nullptr;
  const MpiCall &C = M.Ranks[R].Mpi.Calls[N]; // one call per node
  return C.Node == N ? &C : nullptr;
}

} // namespace

/// A job's Perfetto trace: one process per rank, and each MPI call's args.
void perfettoRanks(const JobInput &Job, PerfettoWriter &W) {
  std::vector<std::uint32_t> Rank, Local;
  Job.threadPlaces(Rank, Local);
  std::map<PerfettoWriter::MpiCallKey, std::string> Args;
  const JobGraph &M = Job.matching();
  for (std::uint32_t R = 0; R < Job.ranks().size(); ++R) {
    const JobInput::Rank &X = Job.ranks()[R];
    if (!X.Read || R >= M.Ranks.size())
      continue;
    const MpiGraph &Mpi = M.Ranks[R].Mpi;
    for (const MpiCall &C : Mpi.Calls)
      if (std::string A = callArgs(Mpi, C); C.Node != ~NodeId(0) && !A.empty())
        Args.emplace(PerfettoWriter::MpiCallKey{X.ThreadBase + C.Thread,
                                                X.toJobTime(C.Begin)},
                     std::move(A));
  }
  W.setRanks(std::move(Rank), std::move(Local));
  W.setMpiCallArgs(std::move(Args));
}

/// A job's Perfetto trace: an arrow per message, from the call that posted
/// the send (at its start) to the call that completed the receive (at its
/// end); an arrow per collective member that waited for another's data,
/// from the start of the call of the last member it needed to the end of
/// its own call. On the job's clock.
void perfettoMessages(const JobInput &Job, PerfettoWriter &W) {
  const JobGraph &M = Job.matching();
  for (const JobMessage &X : M.Messages) {
    if (X.State != JobMessage::Matched)
      continue;
    const MpiCall *S = callOf(M, X.SendRank, X.SendNode);
    const MpiCall *R = callOf(M, X.RecvRank, X.RecvNode);
    if (!S || !R)
      continue;
    const JobInput::Rank &SR = Job.ranks()[X.SendRank];
    const JobInput::Rank &RR = Job.ranks()[X.RecvRank];
    W.message(SR.ThreadBase + S->Thread, SR.toJobTime(S->Begin),
              RR.ThreadBase + R->Thread, RR.toJobTime(R->End));
  }
  for (const JobCollective &C : M.Collectives) {
    // A scan's member needs only the lower ranks' data, which the job
    // graph does not tell apart (it joins a scan as all-to-all): no arrow
    // rather than one from a rank it did not wait for.
    if (C.Op == mpi::CollectiveOp::Scan || C.Op == mpi::CollectiveOp::Exscan)
      continue;
    // Data flows from the members with an edge into the collective (In) to
    // those with an edge out of it (Out).
    for (const JobCollective::Member &To : C.Members) {
      const MpiCall *End = callOf(M, To.Rank, To.Complete);
      if (!To.Out || !End || To.Rank >= Job.ranks().size())
        continue;
      // The member whose data To needed and that started last.
      const MpiCall *Last = nullptr;
      std::uint32_t LastRank = 0;
      std::uint64_t LastStart = 0;
      for (const JobCollective::Member &From : C.Members) {
        const MpiCall *Start = callOf(M, From.Rank, From.Post);
        if (!From.In || From.Rank == To.Rank || !Start ||
            From.Rank >= Job.ranks().size())
          continue;
        std::uint64_t T = Job.ranks()[From.Rank].toJobTime(Start->Begin);
        if (!Last || T > LastStart) {
          Last = Start;
          LastRank = From.Rank;
          LastStart = T;
        }
      }
      if (!Last)
        continue;
      const JobInput::Rank &FR = Job.ranks()[LastRank];
      const JobInput::Rank &TR = Job.ranks()[To.Rank];
      W.message(FR.ThreadBase + Last->Thread, LastStart,
                TR.ThreadBase + End->Thread, TR.toJobTime(End->End),
                "collective");
    }
  }
}

} // namespace otter::cli
