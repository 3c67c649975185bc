//===- test_streams.h - Event streams for the builder tests -----*- C++ -*-===//
//
// What the unit tests that feed GraphBuilder by hand share: the label they
// give a code address, and a stream of events per thread whose times and
// per-task sequence numbers are assigned as the events are added, as the
// recorder does.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TEST_TEST_STREAMS_H
#define OTTER_TEST_TEST_STREAMS_H

#include "otter/events.h"
#include "otter/label.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace otter::testutil {

/// Code address Code's label: location "c+<Code>", region id Code.
inline SourceLabel labelOf(std::uint64_t Code) {
  SourceLabel L;
  L.Location = "c+" + std::to_string(Code);
  L.RegionId = Code;
  return L;
}

/// Events per thread, each task's numbered in its own order (Seq).
struct ThreadStreams {
  std::map<std::uint32_t, std::vector<Event>> PerThread;
  std::map<TaskId, std::uint32_t> Seq;
  std::uint64_t Time = 0;

  void add(std::uint32_t Th, Event E) {
    E.Time = ++Time;
    E.Seq = E.Task ? Seq[E.Task]++ : 0;
    PerThread[Th].push_back(E);
  }
};

} // namespace otter::testutil

#endif // OTTER_TEST_TEST_STREAMS_H
