//===- trace/writer_mpi.cpp - MPI events to OTF2 records ------------------===//
//
// The MPI wrapper library's events (otter/mpi.h): the definitions they
// bring (rank, world size, clock offsets, communicators) and their records,
// OTF2's own MPI records where there is one. Rare next to the OpenMP
// events: nothing here is on the OpenMP hot path (writer_encode.cpp). Part
// of the trace writer (writer_impl.h).
//
//===----------------------------------------------------------------------===//
#include "otter/mpi.h"
#include "trace/writer_impl.h"

#include <otf2/otf2.h>

#include <mutex>
#include <string>
#include <vector>

namespace otter::trace {

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
  case EventKind::MpiCommName: {
    auto It = MpiComms.find(mpi::comm(Ev));
    if (It != MpiComms.end() && It->second.Key == mpi::commKey(Ev))
      It->second.Name = Ev.commName();
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
      K == EventKind::MpiCommMembers || K == EventKind::MpiCommName ||
      K == EventKind::MpiClockOffset || !SawMpi)
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

} // namespace otter::trace
