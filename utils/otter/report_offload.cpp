//===- otter/report_offload.cpp - `otter summary`'s offload section -------===//
//
// The target constructs of a run (analysis_offload.cpp), one row per source
// directive: the call sites of one directive (a `target data` region's
// enter and exit, each reported at its own runtime call) joined by their
// label, as the constructs' table joins them (report.cpp). Printed only
// when the run has target constructs; docs/utils.md defines the columns.
// And `otter diagnose`'s offload findings, on the same rows.
//
//===----------------------------------------------------------------------===//
#include "report.h"

#include <cinttypes>
#include <cstdio>
#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace otter::analysis {

namespace {

struct OffloadRow {
  OffloadStats S;
  SourceLabel L;
  std::string Kind; // the directive, or OMPT's construct kind
};

const char *omptTargetName(std::uint16_t K) {
  switch (K) {
  case 1:
  case 9:
    return "target";
  case 2:
  case 10:
    return "target enter data";
  case 3:
  case 11:
    return "target exit data";
  case 4:
  case 12:
    return "target update";
  default:
    return "target ?";
  }
}

std::string pct0(double X) {
  char B[32];
  std::snprintf(B, sizeof B, "%.0f", X);
  return B;
}
std::string pct1(double X) {
  char B[32];
  std::snprintf(B, sizeof B, "%.1f", X);
  return B;
}

std::vector<OffloadRow> offloadRows(const Result &R, const LabelFn &Label) {
  std::map<std::string, std::size_t> Index;
  std::vector<OffloadRow> Out;
  for (const OffloadStats &S : R.Offload) {
    SourceLabel L = S.Code ? Label(S.Code) : SourceLabel{};
    std::string Key = L.RegionId ? std::to_string(L.RegionId)
                      : L.Line   ? L.File + ":" + std::to_string(L.Line)
                                 : std::to_string(S.Code);
    auto [It, New] = Index.try_emplace(Key, Out.size());
    if (New) {
      std::string Kind =
          L.Directive.empty() ? omptTargetName(S.TargetKind) : L.Directive;
      Out.push_back({S, std::move(L), std::move(Kind)});
      continue;
    }
    OffloadStats &D = Out[It->second].S;
    D.Instances += S.Instances;
    D.TotalNs += S.TotalNs;
    D.MaxNs = std::max(D.MaxNs, S.MaxNs);
    D.BytesTo += S.BytesTo;
    D.TransfersTo += S.TransfersTo;
    D.BytesFrom += S.BytesFrom;
    D.TransfersFrom += S.TransfersFrom;
    D.Kernels += S.Kernels;
    D.InstancesTo += S.InstancesTo;
    D.MinInstanceBytesTo = std::min(D.MinInstanceBytesTo, S.MinInstanceBytesTo);
    D.MaxInstanceBytesTo = std::max(D.MaxInstanceBytesTo, S.MaxInstanceBytesTo);
    D.TransferToNs += S.TransferToNs;
  }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const OffloadRow &A, const OffloadRow &B) {
                     return A.S.TotalNs > B.S.TotalNs;
                   });
  return Out;
}

} // namespace

void printOffload(const Result &R, const LabelFn &Label, std::ostream &OS) {
  if (R.Offload.empty())
    return;
  char B[512];
  std::snprintf(B, sizeof B, "\n%-38s %-28s %9s %12s %7s %12s %9s %12s %9s\n",
                "offload", "where", "instances", "time", "kernels", "to_device",
                "transfers", "from_device", "transfers");
  OS << B;
  for (const OffloadRow &Row : offloadRows(R, Label)) {
    std::snprintf(B, sizeof B,
                  "%-38s %-28s %9" PRIu64 " %12s %7" PRIu64 " %12" PRIu64
                  " %9" PRIu64 " %12" PRIu64 " %9" PRIu64 "\n",
                  Row.Kind.c_str(), sourceText(Row.L).c_str(), Row.S.Instances,
                  fmtNs(double(Row.S.TotalNs)).c_str(), Row.S.Kernels,
                  Row.S.BytesTo, Row.S.TransfersTo, Row.S.BytesFrom,
                  Row.S.TransfersFrom);
    OS << B;
  }
  OS << "offload: per target directive; time: its constructs' begin to end "
        "on the thread that ran\n  them (a target data region: its entry and "
        "its exit, not its body); kernels: submissions;\n  to_device, "
        "from_device: bytes transferred, transfers: how many "
        "(docs/offload.md)\n";
}

void addOffloadFindings(const Result &R, const LabelFn &Label,
                        std::vector<Finding> &F) {
  const double ThreadTime =
      double(R.runNs()) * std::max<std::uint32_t>(R.Threads, 1);
  for (const OffloadRow &Row : offloadRows(R, Label)) {
    const OffloadStats &S = Row.S;
    Finding X;
    X.K = Kind::Target;
    X.Where = sourceText(Row.L);
    X.RegionId = Row.L.RegionId;
    // The same bytes to the device at every instance: all but the first
    // transfer may be redundant.
    if (S.InstancesTo >= RepeatedTransfers &&
        S.MinInstanceBytesTo == S.MaxInstanceBytesTo) {
      X.Check = "repeated_transfer";
      X.LostNs = S.TransferToNs * (S.InstancesTo - 1) / S.InstancesTo;
      X.Threshold = "at least " + std::to_string(RepeatedTransfers) +
                    " instances, each moving the same bytes to the device";
      X.Evidence = std::to_string(S.InstancesTo) + " instances of " +
                   Row.Kind + " each moved " +
                   std::to_string(S.MinInstanceBytesTo) +
                   " bytes to the device (" + std::to_string(S.TransfersTo) +
                   " transfers, " + fmtNs(double(S.TransferToNs)) +
                   "); if the host does not change that data between them, "
                   "map it once: a `target data` region (or `target enter "
                   "data`) around the code that repeats " + X.Where +
                   ", and no map(to:) of it here (OTTER records no host "
                   "addresses: same construct, same size)";
      F.push_back(X);
    }
    // A synchronous target region: its encountering thread waits for it.
    if (S.TargetKind == std::uint16_t(TargetKind::Target) &&
        double(S.TotalNs) > WaitShare * ThreadTime) {
      X.Check = "target_wait";
      X.LostNs = S.TotalNs;
      X.Threshold = "a synchronous target region's time > " +
                    pct0(WaitShare * 100) + "% of thread time (" +
                    fmtNs(WaitShare * ThreadTime) + ")";
      X.Evidence = std::to_string(S.Instances) + " instance(s), " +
                   fmtNs(double(S.TotalNs)) +
                   " the encountering thread waited in them (" +
                   pct1(100.0 * double(S.TotalNs) / ThreadTime) +
                   "% of thread time), " + std::to_string(S.Kernels) +
                   " kernel(s); `nowait` at " + X.Where +
                   " (with depend clauses for the data it maps, and a "
                   "taskwait where its results are needed) lets the thread "
                   "work meanwhile";
      F.push_back(X);
    }
  }
}

void offloadJson(const Result &R, const LabelFn &Label, std::ostream &OS) {
  if (R.Offload.empty())
    return;
  OS << ",\"offload\":[";
  bool First = true;
  for (const OffloadRow &Row : offloadRows(R, Label)) {
    OS << (First ? "" : ",") << "{\"kind\":" << jsonString(Row.Kind)
       << ",\"region_id\":" << Row.L.RegionId
       << ",\"where\":" << jsonString(sourceText(Row.L))
       << ",\"instances\":" << Row.S.Instances
       << ",\"total_ns\":" << Row.S.TotalNs << ",\"max_ns\":" << Row.S.MaxNs
       << ",\"kernels\":" << Row.S.Kernels
       << ",\"bytes_to_device\":" << Row.S.BytesTo
       << ",\"transfers_to_device\":" << Row.S.TransfersTo
       << ",\"bytes_from_device\":" << Row.S.BytesFrom
       << ",\"transfers_from_device\":" << Row.S.TransfersFrom << "}";
    First = false;
  }
  OS << "]";
}

} // namespace otter::analysis
