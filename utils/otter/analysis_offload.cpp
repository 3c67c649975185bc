//===- otter/analysis_offload.cpp - Target constructs in the analysis -----===//
//
// Offload (docs/offload.md) for `otter summary`: per target construct call
// site, its instances (each from its target_begin to its target_end on the
// thread that ran it), and the data operations and kernel submissions
// between them, which the runtime reports on that same thread (its
// innermost open construct's). A transfer is OMPT's transfer to or from
// the device (synchronous or asynchronous), with its bytes; allocations
// and deletions move nothing. libomptarget reports a `target data` region
// as an enter data and an exit data construct, each at its own call site:
// the summary joins them by their label (report_offload.cpp).
//
//===----------------------------------------------------------------------===//
#include "analysis_impl.h"

namespace otter::analysis {

void Analyzer::Impl::onTarget(std::uint32_t Th, const Event &E) {
  auto &Open = OpenTargets[Th];
  switch (E.Kind) {
  case EventKind::TargetBegin: {
    auto [It, New] = OffloadIndex.try_emplace(E.code(), R.Offload.size());
    if (New) {
      R.Offload.push_back({});
      R.Offload.back().Code = E.code();
      R.Offload.back().TargetKind = std::uint16_t(E.targetKind());
    }
    Open.push_back({It->second, E.Time});
    Open.back().Device = E.device();
    Open.back().Code = E.code();
    break;
  }
  case EventKind::TargetEnd: {
    if (Open.empty())
      break; // its begin was not recorded (a pause)
    const OpenTarget O = Open.back();
    Open.pop_back();
    OffloadStats &S = R.Offload[O.Index];
    const std::uint64_t D = E.Time > O.Begin ? E.Time - O.Begin : 0;
    if (O.BytesTo) {
      ++S.InstancesTo;
      S.MinInstanceBytesTo = std::min(S.MinInstanceBytesTo, O.BytesTo);
      S.MaxInstanceBytesTo = std::max(S.MaxInstanceBytesTo, O.BytesTo);
    }
    ++S.Instances;
    S.TotalNs += D;
    S.MaxNs = std::max(S.MaxNs, D);
    break;
  }
  case EventKind::TargetDataOpBegin: {
    if (Open.empty())
      break;
    OffloadStats &S = R.Offload[Open.back().Index];
    Open.back().OpBegin = E.Time;
    switch (E.dataOpKind()) {
    case DataOpKind::TransferToDevice:
    case DataOpKind::TransferToDeviceAsync:
      S.BytesTo += E.bytes();
      ++S.TransfersTo;
      Open.back().BytesTo += E.bytes();
      Open.back().ToBegin = E.Time;
      break;
    case DataOpKind::TransferFromDevice:
    case DataOpKind::TransferFromDeviceAsync:
      S.BytesFrom += E.bytes();
      ++S.TransfersFrom;
      break;
    default:
      break;
    }
    break;
  }
  case EventKind::TargetDataOpEnd: {
    if (Open.empty())
      break;
    OpenTarget &O = Open.back();
    if (Obs && O.OpBegin)
      Obs->device(Th, O.Device, dataOpDisplayName(E.dataOpKind()),
                  E.code() ? E.code() : O.Code, O.OpBegin, E.Time, E.bytes());
    O.OpBegin = 0;
    if (!O.ToBegin)
      break;
    R.Offload[O.Index].TransferToNs +=
        E.Time > O.ToBegin ? E.Time - O.ToBegin : 0;
    O.ToBegin = 0;
    break;
  }
  case EventKind::TargetSubmitBegin:
    if (!Open.empty()) {
      ++R.Offload[Open.back().Index].Kernels;
      Open.back().SubmitBegin = E.Time;
    }
    break;
  case EventKind::TargetSubmitEnd:
    if (!Open.empty() && Open.back().SubmitBegin && Obs)
      Obs->device(Th, Open.back().Device, "kernel", Open.back().Code,
                  Open.back().SubmitBegin, E.Time, 0);
    if (!Open.empty())
      Open.back().SubmitBegin = 0;
    break;
  default:
    break;
  }
}

} // namespace otter::analysis
