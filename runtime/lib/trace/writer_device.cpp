//===- trace/writer_device.cpp - Target offload's device locations -------===//
//
// The trace's devices (docs/trace.md, "Devices"): each host thread's
// target events leave spans -- a kernel submission, a data operation --
// named by the device of the target construct they are in (noteDevice, as
// the thread's buffers are encoded); at close they become an OTF2 location
// group per device (ACCELERATOR) with accelerator-stream locations, each
// span an Enter / Leave of its region (`kernel @ file:line`, `transfer to
// device @ file:line`, ...) with the bytes of a data operation as the
// parameter `otter:bytes` at its begin. Spans that overlap in time (two
// `nowait` targets on one device) go to different streams of the device, so
// every stream's regions are balanced and in time order. Written at close
// only: an archive cut short (SIGKILL, a full disk) has no device locations
// (the host threads' events say everything still). Part of the trace writer
// (writer_impl.h).
//
//===----------------------------------------------------------------------===//
#include "trace/writer_impl.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace otter::trace {

/// Notes what a target event adds to the thread's device spans.
void TraceWriter::Impl::noteDevice(Location &L, const Event &Ev,
                                   std::uint32_t Code) {
  DeviceTrack &D = L.Dev;
  const std::uint64_t T = Opt.Ticks.toNs(Ev.Time);
  auto add = [&](std::uint64_t Begin, std::uint64_t Bytes, std::int32_t Dev,
                 std::uint16_t What, std::uint32_t C) {
    if (D.Spans.size() >= DeviceTrack::MaxSpans) {
      ++D.Lost;
      return;
    }
    D.Spans.push_back({Begin, std::max(T, Begin), Bytes, Dev, What, C});
  };
  switch (Ev.Kind) {
  case EventKind::TargetBegin:
    D.Device = Ev.device();
    D.Code = Code;
    D.InTarget = true;
    break;
  case EventKind::TargetEnd:
    D.InTarget = false;
    break;
  case EventKind::TargetDataOpBegin:
    D.OpBegin = T;
    D.InOp = true;
    break;
  case EventKind::TargetDataOpEnd: {
    if (!D.InOp)
      break;
    D.InOp = false;
    // The device of the construct the operation is in; outside any, the
    // side of the operation that is not the host's.
    const DataOpKind K = Ev.dataOpKind();
    const bool FromDevice = K == DataOpKind::TransferFromDevice ||
                            K == DataOpKind::TransferFromDeviceAsync ||
                            K == DataOpKind::Delete ||
                            K == DataOpKind::DeleteAsync;
    const std::int32_t Dev = D.InTarget ? D.Device
                             : FromDevice ? Ev.srcDevice()
                                          : Ev.dstDevice();
    add(D.OpBegin, Ev.bytes(), Dev, Ev.Sub, Code ? Code : D.Code);
    break;
  }
  case EventKind::TargetSubmitBegin:
    D.SubmitBegin = T;
    D.InSubmit = true;
    break;
  case EventKind::TargetSubmitEnd:
    if (D.InSubmit)
      add(D.SubmitBegin, 0, D.Device, 0, D.Code);
    D.InSubmit = false;
    break;
  default:
    break;
  }
}

namespace {
/// A data operation's kind without its async bit (ompt_target_data_op_t).
std::uint16_t plainOp(std::uint16_t What) { return What & 0xf; }

const char *spanName(std::uint16_t What) {
  return What ? dataOpDisplayName(DataOpKind(What)) : "kernel";
}

bool movesBytes(std::uint16_t What) {
  const DataOpKind K = DataOpKind(plainOp(What));
  return K == DataOpKind::TransferToDevice ||
         K == DataOpKind::TransferFromDevice || K == DataOpKind::Alloc;
}
} // namespace

/// Writes every device span of every location onto the device streams, and
/// keeps what writeDeviceDefinitions needs (DevStreams, DevRegions). Called
/// by close with M held, after the host locations' last events. False: an
/// OTF2 write failed.
bool TraceWriter::Impl::writeDevices(const std::vector<Location *> &Ls) {
  std::vector<DeviceSpan> All;
  for (Location *L : Ls)
    if (L)
      All.insert(All.end(), L->Dev.Spans.begin(), L->Dev.Spans.end());
  std::sort(All.begin(), All.end(),
            [](const DeviceSpan &A, const DeviceSpan &B) {
              return std::tie(A.Device, A.Begin, A.End) <
                     std::tie(B.Device, B.Begin, B.End);
            });
  // A stream per span that overlaps every open one of its device (first
  // fit: the first stream free at its begin).
  std::vector<std::vector<const DeviceSpan *>> Streams;
  std::vector<std::uint64_t> Ends;
  std::size_t DeviceFirst = 0;
  for (std::size_t I = 0; I < All.size(); ++I) {
    if (I && All[I].Device != All[I - 1].Device)
      DeviceFirst = Streams.size();
    std::size_t S = DeviceFirst;
    while (S < Streams.size() && Ends[S] > All[I].Begin)
      ++S;
    if (S == Streams.size()) {
      Streams.emplace_back();
      Ends.push_back(0);
      DevStreams.push_back({All[I].Device,
                            std::uint32_t(S - DeviceFirst),
                            std::uint64_t(Ls.size() + S), 0});
    }
    Streams[S].push_back(&All[I]);
    Ends[S] = All[I].End;
  }
  std::map<std::pair<std::uint16_t, std::uint32_t>, std::uint32_t> RegionOf;
  bool Ok = true;
  for (std::size_t S = 0; S < Streams.size(); ++S) {
    OTF2_EvtWriter *W = OTF2_Archive_GetEvtWriter(Archive, DevStreams[S].Ref);
    if (!W)
      return false;
    std::uint64_t N = 0;
    for (const DeviceSpan *X : Streams[S]) {
      const std::uint16_t What = X->What ? plainOp(X->What) : 0;
      auto [It, New] = RegionOf.try_emplace(
          {What, X->Code}, std::uint32_t(Regions.size() + DevRegions.size()));
      if (New)
        DevRegions.push_back({What, X->Code});
      Ok &= OTF2_EvtWriter_Enter(W, nullptr, X->Begin, It->second) ==
            OTF2_SUCCESS;
      ++N;
      if (movesBytes(What)) {
        Ok &= OTF2_EvtWriter_ParameterUnsignedInt(W, nullptr, X->Begin,
                                                  ParamCount, X->Bytes) ==
              OTF2_SUCCESS;
        ++N;
      }
      Ok &= OTF2_EvtWriter_Leave(W, nullptr, X->End, It->second) ==
            OTF2_SUCCESS;
      ++N;
    }
    DevStreams[S].Events = N;
    Ok &= OTF2_Archive_CloseEvtWriter(Archive, W) == OTF2_SUCCESS;
  }
  return Ok;
}

/// The strings of the device definitions, interned by S before any
/// definition is written.
TraceWriter::Impl::DeviceStrings TraceWriter::Impl::deviceStrings(
    const std::function<std::uint32_t(const std::string &)> &S) {
  DeviceStrings R;
  if (DevStreams.empty())
    return R;
  R.Empty = S("");
  R.Bytes = S("otter:bytes");
  for (const DeviceStream &X : DevStreams) {
    R.Group.push_back(S("device " + std::to_string(X.Device)));
    R.Stream.push_back(S("device " + std::to_string(X.Device) + " stream " +
                         std::to_string(X.Stream)));
  }
  for (const auto &[What, Code] : DevRegions) {
    const std::string &Where = Code < Codes.size() ? Codes[Code].Where : "";
    R.Region.push_back(
        S(std::string(spanName(What)) + (Where.empty() ? "" : " @ " + Where)));
    R.RegionCanon.push_back(S(std::string("otter:device:") + spanName(What)));
  }
  return R;
}

/// A location group per device (ACCELERATOR, created by the process's
/// group 0), its streams, the spans' regions (refs after Regions') and the
/// parameter otter:bytes (ref ParamCount).
void TraceWriter::Impl::writeDeviceDefinitions(OTF2_GlobalDefWriter *D,
                                               const DeviceStrings &S) {
  if (DevStreams.empty())
    return;
  std::map<std::int32_t, std::uint32_t> GroupOf;
  for (std::size_t I = 0; I < DevStreams.size(); ++I) {
    auto [It, New] = GroupOf.try_emplace(DevStreams[I].Device,
                                         std::uint32_t(GroupOf.size() + 1));
    if (New)
      OTF2_GlobalDefWriter_WriteLocationGroup(
          D, It->second, S.Group[I], OTF2_LOCATION_GROUP_TYPE_ACCELERATOR, 0,
          0);
    OTF2_GlobalDefWriter_WriteLocation(D, DevStreams[I].Ref, S.Stream[I],
                                       OTF2_LOCATION_TYPE_ACCELERATOR_STREAM,
                                       DevStreams[I].Events, It->second);
  }
  for (std::size_t I = 0; I < DevRegions.size(); ++I) {
    const std::uint16_t What = DevRegions[I].first;
    const std::uint32_t Code = DevRegions[I].second;
    const std::uint32_t Line = Code < Codes.size() ? Codes[Code].Label.Line : 0;
    OTF2_GlobalDefWriter_WriteRegion(
        D, std::uint32_t(Regions.size() + I), S.Region[I], S.RegionCanon[I],
        S.Empty,
        What ? OTF2_REGION_ROLE_DATA_TRANSFER : OTF2_REGION_ROLE_FUNCTION,
        OTF2_PARADIGM_OPENMP, OTF2_REGION_FLAG_NONE, S.Empty, Line, Line);
  }
  OTF2_GlobalDefWriter_WriteParameter(D, ParamCount, S.Bytes,
                                      OTF2_PARAMETER_TYPE_UINT64);
}

} // namespace otter::trace
