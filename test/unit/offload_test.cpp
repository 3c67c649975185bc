//===- offload_test.cpp - Target constructs in the analysis and summary ---===//
//
// analysis_offload.cpp and report_offload.cpp on hand-made event streams:
// a target construct's instances are its begin to end on its thread, the
// transfers and kernel submissions between them are its own (the innermost
// open construct's: a target inside a target data region's body is not the
// data region's), allocations and deletions move nothing, and the two call
// sites of one directive (a target data region's enter and exit) are one
// row of the summary, found by their label. Times in ns.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "report.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace otter;
using namespace otter::analysis;

namespace {

constexpr TaskId Init = 1;
constexpr std::uint64_t DataEnter = 0x100, DataExit = 0x180, Kernel = 0x200,
                        Update = 0x300;
constexpr std::int32_t Host = 4, Dev = 0;

Event at(std::uint64_t T, Event E) {
  E.Time = T;
  return E;
}

/// target data (enter at 10..40: 8000 bytes to the device; exit at
/// 200..230: 8000 bytes back), a kernel inside it (50..150, 4 bytes to,
/// 4 from, one submission), an update (300..310: 16 bytes to).
Result analyse() {
  std::vector<Event> Ev = {
      at(0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial)),
      at(10,
         Event::targetBegin(0, Init, TargetKind::EnterData, 1, Dev, DataEnter)),
      at(12, Event::targetDataOpBegin(0, Init, DataOpKind::Alloc, 8000, Host,
                                      Dev, DataEnter)),
      at(14, Event::targetDataOpBegin(0, Init, DataOpKind::TransferToDevice,
                                      8000, Host, Dev, DataEnter)),
      at(20, Event::targetDataOpEnd(0, Init, DataOpKind::TransferToDevice, 8000,
                                    Host, Dev, DataEnter)),
      at(40,
         Event::targetEnd(0, Init, TargetKind::EnterData, 1, Dev, DataEnter)),
      at(50, Event::targetBegin(0, Init, TargetKind::Target, 2, Dev, Kernel)),
      at(52, Event::targetDataOpBegin(0, Init, DataOpKind::TransferToDevice, 4,
                                      Host, Dev, Kernel)),
      at(60, Event::targetSubmitBegin(0, Init, 2, 1)),
      at(140, Event::targetSubmitEnd(0, Init, 2, 1)),
      at(142, Event::targetDataOpBegin(0, Init, DataOpKind::TransferFromDevice,
                                       4, Dev, Host, Kernel)),
      at(144, Event::targetDataOpBegin(0, Init, DataOpKind::Delete, 0, Dev, -1,
                                       Kernel)),
      at(150, Event::targetEnd(0, Init, TargetKind::Target, 2, Dev, Kernel)),
      at(200,
         Event::targetBegin(0, Init, TargetKind::ExitData, 3, Dev, DataExit)),
      at(210, Event::targetDataOpBegin(0, Init, DataOpKind::TransferFromDevice,
                                       8000, Dev, Host, DataExit)),
      at(230,
         Event::targetEnd(0, Init, TargetKind::ExitData, 3, Dev, DataExit)),
      at(300, Event::targetBegin(0, Init, TargetKind::Update, 4, Dev, Update)),
      at(302, Event::targetDataOpBegin(0, Init, DataOpKind::TransferToDevice,
                                       16, Host, Dev, Update)),
      at(310, Event::targetEnd(0, Init, TargetKind::Update, 4, Dev, Update)),
      at(400, Event::implicitTaskEnd(0, Init)),
  };
  Analyzer An;
  for (const Event &E : Ev)
    An.add(0, E);
  return An.finish();
}

const OffloadStats *row(const Result &R, std::uint64_t Code) {
  for (const OffloadStats &S : R.Offload)
    if (S.Code == Code)
      return &S;
  return nullptr;
}

/// The plugin's labels: the target data region's two call sites are one
/// directive.
SourceLabel label(std::uint64_t Code) {
  SourceLabel L;
  L.File = "prog.c";
  L.Quality = LabelQuality::Exact;
  if (Code == DataEnter || Code == DataExit) {
    L.Directive = "target data";
    L.Line = 10;
    L.RegionId = 0xd;
  } else if (Code == Kernel) {
    L.Directive = "target teams distribute parallel for";
    L.Line = 12;
    L.RegionId = 0xe;
  } else {
    L.Directive = "target update";
    L.Line = 20;
    L.RegionId = 0xf;
  }
  return L;
}

} // namespace

TEST(Offload, EachConstructHasItsOwnTransfersAndKernels) {
  Result R = analyse();
  ASSERT_EQ(R.Offload.size(), 4u);
  const OffloadStats *Enter = row(R, DataEnter), *Exit = row(R, DataExit),
                     *K = row(R, Kernel), *U = row(R, Update);
  ASSERT_TRUE(Enter && Exit && K && U);
  EXPECT_EQ(Enter->Instances, 1u);
  EXPECT_EQ(Enter->TotalNs, 30u);
  EXPECT_EQ(Enter->BytesTo, 8000u); // the allocation moves nothing
  EXPECT_EQ(Enter->TransfersTo, 1u);
  EXPECT_EQ(Enter->BytesFrom, 0u);
  EXPECT_EQ(Exit->BytesFrom, 8000u);
  EXPECT_EQ(Exit->TransfersFrom, 1u);
  EXPECT_EQ(K->TotalNs, 100u);
  EXPECT_EQ(K->Kernels, 1u);
  EXPECT_EQ(K->BytesTo, 4u);
  EXPECT_EQ(K->BytesFrom, 4u); // the deletion moves nothing
  EXPECT_EQ(U->BytesTo, 16u);
  EXPECT_EQ(U->TargetKind, std::uint16_t(TargetKind::Update));
}

TEST(Offload, OpsOutsideAConstructAreNotCounted) {
  Analyzer An;
  An.add(0, at(0, Event::implicitTaskBegin(0, Init, 0, 1, 0, TaskInitial)));
  An.add(0,
         at(5, Event::targetDataOpBegin(0, Init, DataOpKind::TransferToDevice,
                                        64, Host, Dev, 0)));
  An.add(0, at(6, Event::targetEnd(0, Init, TargetKind::Target, 9, Dev,
                                   Kernel))); // its begin was not recorded
  An.add(0, at(9, Event::implicitTaskEnd(0, Init)));
  EXPECT_TRUE(An.finish().Offload.empty());
}

TEST(Offload, SummaryJoinsADirectivesCallSites) {
  Result R = analyse();
  std::ostringstream Text, Json;
  printOffload(R, label, Text);
  offloadJson(R, label, Json);
  const std::string T = Text.str();
  EXPECT_NE(T.find("target data"), std::string::npos) << T;
  // One row for the target data directive: 2 instances (enter, exit), 8000
  // bytes each way, one transfer each way.
  EXPECT_NE(Json.str().find("{\"kind\":\"target data\",\"region_id\":13,"
                            "\"where\":\"prog.c:10\",\"instances\":2,"
                            "\"total_ns\":60,\"max_ns\":30,\"kernels\":0,"
                            "\"bytes_to_device\":8000,"
                            "\"transfers_to_device\":1,"
                            "\"bytes_from_device\":8000,"
                            "\"transfers_from_device\":1}"),
            std::string::npos)
      << Json.str();
  EXPECT_NE(Json.str().find("{\"kind\":\"target teams distribute parallel "
                            "for\",\"region_id\":14,\"where\":\"prog.c:12\","
                            "\"instances\":1,\"total_ns\":100,\"max_ns\":100,"
                            "\"kernels\":1,\"bytes_to_device\":4"),
            std::string::npos)
      << Json.str();
  // Nothing printed for a run without offload.
  std::ostringstream None;
  printOffload(Result{}, label, None);
  offloadJson(Result{}, label, None);
  EXPECT_EQ(None.str(), "");
}
