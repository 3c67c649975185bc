//===- anchor_probe_test.cpp - One probe per anchor file ------------------===//
//
// trace/anchor_probe.cpp opens an archive's anchor in a forked copy first
// (a damaged anchor can hang or exhaust OTF2). A job's utilities open each
// rank's archive more than once: an anchor a probe opened is not probed
// again while it is unchanged, and is again once it changed.
//
//===----------------------------------------------------------------------===//
#include "trace/anchor_probe.h"
#include "trace/writer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace otter;

namespace {

std::string tempDir() {
  char T[] = "/tmp/otter-anchor-probe-XXXXXX";
  const char *D = mkdtemp(T);
  return D ? D : "/tmp";
}

SourceLabel noLabel(std::uint64_t) { return SourceLabel(); }

/// A small archive in Dir (one thread's begin and end).
void writeArchive(const std::string &Dir) {
  trace::WriterOptions O;
  O.Dir = Dir;
  trace::TraceWriter W(O, noLabel);
  std::string Error;
  ASSERT_TRUE(W.open(Error)) << Error;
  Event E[2] = {Event::threadBegin(0, ThreadType::Initial),
                Event::threadEnd(0)};
  E[0].Time = 100;
  E[1].Time = 200;
  W.write(0, 1, E, 2);
  ASSERT_TRUE(W.close(Error)) << Error;
}

} // namespace

TEST(AnchorProbe, OneProbePerUnchangedAnchor) {
  std::string Dir = tempDir();
  writeArchive(Dir);
  std::string Anchor = Dir + "/traces.otf2", Error;
  unsigned Before = trace::anchorProbesRun();
  EXPECT_TRUE(trace::anchorOpensInTime(Anchor, Error)) << Error;
  EXPECT_TRUE(trace::anchorOpensInTime(Anchor, Error)) << Error;
  EXPECT_TRUE(trace::anchorOpensInTime(Anchor, Error)) << Error;
  EXPECT_EQ(Before + 1, trace::anchorProbesRun());

  // Changed (here: its modification time): probed again, once.
  struct timespec Times[2] = {{0, UTIME_OMIT}, {12345, 0}};
  ASSERT_EQ(0, utimensat(AT_FDCWD, Anchor.c_str(), Times, 0));
  EXPECT_TRUE(trace::anchorOpensInTime(Anchor, Error)) << Error;
  EXPECT_TRUE(trace::anchorOpensInTime(Anchor, Error)) << Error;
  EXPECT_EQ(Before + 2, trace::anchorProbesRun());
}

TEST(AnchorProbe, AnAnchorOtf2RefusesIsProbedEveryTime) {
  // Not an anchor at all: OTF2 refuses it at once (the caller's own open
  // says why); nothing is remembered.
  std::string Dir = tempDir();
  std::string Anchor = Dir + "/traces.otf2", Error;
  std::ofstream(Anchor) << "not an OTF2 anchor\n";
  unsigned Before = trace::anchorProbesRun();
  EXPECT_TRUE(trace::anchorOpensInTime(Anchor, Error)) << Error;
  EXPECT_TRUE(trace::anchorOpensInTime(Anchor, Error)) << Error;
  EXPECT_EQ(Before + 2, trace::anchorProbesRun());
}
