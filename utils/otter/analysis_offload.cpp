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
// The task that runs a target construct waits for its device from the
// construct's begin to its end (the host thread's state: waiting, in the
// construct), and that time stays on the task's path as a step of the
// construct's kind and duration: what the task waited for is the device's
// work, which host work does not measure (docs/utils.md, "Target
// offload").
//
//===----------------------------------------------------------------------===//
#include "analysis_impl.h"

namespace otter::analysis {

namespace {

/// The construct a target construct's wait is charged to.
Kind waitConstructOf(TargetKind K) {
  switch (K) {
  case TargetKind::EnterData:
  case TargetKind::EnterDataNowait:
    return Kind::TargetEnterData;
  case TargetKind::ExitData:
  case TargetKind::ExitDataNowait:
    return Kind::TargetExitData;
  case TargetKind::Update:
  case TargetKind::UpdateNowait:
    return Kind::TargetUpdate;
  default:
    return Kind::Target;
  }
}

} // namespace

bool Analyzer::Impl::inTargetConstruct(const ThreadSt &TS) const {
  return std::any_of(
      TS.Waits.begin(), TS.Waits.end(),
      [](const WaitFrame &W) { return isTargetConstruct(W.K); });
}

void Analyzer::Impl::targetWaitEnded(ThreadSt &TS, std::uint32_t T,
                                     std::uint64_t End) {
  if (T == None)
    return;
  for (std::size_t I = TS.Waits.size(); I-- > 0;) {
    const WaitFrame W = TS.Waits[I];
    if (!isTargetConstruct(W.K) || W.Task != T)
      continue;
    TS.Waits.erase(TS.Waits.begin() + std::ptrdiff_t(I));
    // The device's time on the task's path, after its path at the begin
    // (with host offload, the kernel's regions ran on this thread meanwhile
    // and joined the task's path: the longer of the two counts).
    const std::uint64_t D = End > W.Start ? End - W.Start : 0;
    // A row of the construct (summary): its instances, time and waiting.
    ConstructStats &St = stat(W.Code, W.K);
    ++St.Instances;
    St.TotalNs += D;
    St.MaxNs = std::max(St.MaxNs, D);
    retireWait(W);
    const std::uint32_t Step = stepRecord(W.RecAtBegin, W.Code, W.K, D);
    decref(W.RecAtBegin);
    merge(T, W.PathAtBegin + std::int64_t(D), Step);
    decref(Step);
    BPath B = W.BPathAtBegin;
    if (B.A != NegInf) {
      B.A += std::int64_t(D);
      bmerge(T, B);
    }
    return;
  }
}

void Analyzer::Impl::onTarget(ThreadSt &TS, std::uint32_t Th, std::uint32_t T,
                              const Event &E) {
  auto &Open = OpenTargets[Th];
  switch (E.Kind) {
  case EventKind::TargetBegin: {
    if (T != None) {
      WaitFrame W{T, code(E.code()), waitConstructOf(E.targetKind()),
                  false, 0, E.Time};
      W.PathAtBegin = mark(T);
      W.BPathAtBegin = bpath(Slots[T]);
      W.RecAtBegin = Slots[T].Rec;
      incref(W.RecAtBegin);
      TS.Waits.push_back(W);
    }
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
    targetWaitEnded(TS, T, E.Time);
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
