//===- otter/report_offload.cpp - `otter summary`'s offload section -------===//
//
// The target constructs of a run (analysis_offload.cpp), one row per source
// directive: the call sites of one directive (a `target data` region's
// enter and exit, each reported at its own runtime call) joined by their
// label, as the constructs' table joins them (report.cpp). Printed only
// when the run has target constructs; docs/utils.md defines the columns.
//
//===----------------------------------------------------------------------===//
#include "report.h"

#include <cinttypes>
#include <cstdio>
#include <map>

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
