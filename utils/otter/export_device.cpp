//===- otter/export_device.cpp - Device tracks in the Perfetto export -----===//
//
// Target offload in `otter export --format perfetto` (docs/offload.md):
// each kernel submission and data operation a slice on its device's track
// ("device N stream S" in the program's process; slices of one device that
// overlap go to another stream of it, first fit, so every track nests),
// with its bytes as an argument, and a flow arrow from the host thread that
// ran it, at its begin. The times are the host's (OMPT has no device-side
// timing in LLVM 19).
//
//===----------------------------------------------------------------------===//
#include "export.h"

#include <algorithm>
#include <string>

namespace otter::analysis {

void PerfettoWriter::device(std::uint32_t Thread, std::int32_t Device,
                            const char *What, std::uint64_t Code,
                            std::uint64_t Start, std::uint64_t End,
                            std::uint64_t Bytes) {
  if (!RankOf.empty())
    return; // an MPI job's export has no device tracks
  std::size_t S = 0;
  std::uint32_t Streams = 0;
  for (; S < DevTracks.size(); ++S)
    if (DevTracks[S].Device == Device) {
      if (DevTracks[S].End <= Start)
        break;
      ++Streams;
    }
  if (S == DevTracks.size())
    DevTracks.push_back({Device, Streams, 0});
  DevTracks[S].End = std::max(Start, End);
  const std::uint64_t Tid = DeviceTid + S;
  const std::string Where =
      codeAddress(Code) ? sourceText(Label(Code)) : std::string();
  std::string Name = std::string(What) + (Where.empty() ? "" : " @ " + Where);
  room(Reserve);
  sep();
  ++Slices;
  lit("{\"name\":");
  putName(jsonString(Name));
  lit(",\"cat\":\"device\",\"ph\":\"X\",\"ts\":");
  us(Start, TsPrefix);
  lit(",\"dur\":");
  us(End > Start ? End - Start : 0, DurPrefix);
  lit(",\"pid\":1,\"tid\":");
  num(Tid);
  lit(",\"args\":{\"bytes\":");
  num(Bytes);
  lit("}}");
  // The host thread's arrow to it.
  const std::uint64_t Id = NextFlow++;
  room(Reserve);
  sep();
  lit("{\"name\":\"offload\",\"cat\":\"offload\",\"ph\":\"s\",\"id\":");
  num(Id, FlowPrefix);
  lit(",\"ts\":");
  us(Start, TsPrefix);
  pidTid(Thread);
  lit("},\n{\"name\":\"offload\",\"cat\":\"offload\",\"ph\":\"f\","
      "\"bp\":\"e\",\"id\":");
  num(Id, FlowPrefix);
  lit(",\"ts\":");
  us(Start, TsPrefix);
  lit(",\"pid\":1,\"tid\":");
  num(Tid);
  *Cur++ = '}';
}

void PerfettoWriter::deviceTrackNames() {
  for (std::size_t S = 0; S < DevTracks.size(); ++S) {
    room(Reserve);
    sep();
    lit("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":");
    num(DeviceTid + S);
    lit(",\"args\":{\"name\":\"device ");
    put(std::to_string(DevTracks[S].Device));
    lit(" stream ");
    num(DevTracks[S].Stream);
    lit("\"}}");
  }
}

} // namespace otter::analysis
