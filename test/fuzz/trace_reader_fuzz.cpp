//===- trace_reader_fuzz.cpp - Fuzz target: the OTF2 trace reader ---------===//
//
// libFuzzer target for runtime/lib/trace/reader.cpp, which the utilities (otter,
// otter-graph, otter-merge) run on archives that may be damaged, cut short
// or not OTTER's at all. The input is a whole small archive, as files: a
// sequence of records
//
//   name '\0'  uint32 little-endian size  size bytes (fewer: up to the end)
//
// with relative names of [A-Za-z0-9._-/] (e.g. traces.otf2, traces.def,
// traces/0.evt); seeds are real archives packed by pack_archive.py. The
// files are written into a fresh directory and opened with OTTER's reader
// exactly as the utilities do: open, every location's events, the labels.
//
// What is exercised honestly: the bytes are parsed by OTF2 itself (Debian's
// libotf2, not instrumented: no coverage feedback from inside it, and a
// fault in it shows up as a crash here only if it faults), then by OTTER's
// decoding of what OTF2 hands back (definitions, attributes, the event
// model in codec.h), which is instrumented. Also the anchor probe
// (anchor_probe.cpp): each input costs one fork.
//
//===----------------------------------------------------------------------===//
#include "trace/reader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace {

/// The one scratch directory of this process, emptied for every input.
const fs::path &scratch() {
  static fs::path Dir = [] {
    std::string T = (fs::temp_directory_path() / "otter-fuzz-XXXXXX").string();
    if (!mkdtemp(T.data()))
      std::abort();
    return fs::path(T);
  }();
  return Dir;
}

bool validName(std::string_view N) {
  if (N.empty() || N.size() > 64 || N.front() == '/' || N.back() == '/')
    return false;
  for (char C : N)
    if (!((C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
          (C >= '0' && C <= '9') || C == '.' || C == '_' || C == '-' ||
          C == '/'))
      return false;
  // No "..", ".", or empty path components.
  std::size_t B = 0;
  while (B <= N.size()) {
    std::size_t E = N.find('/', B);
    if (E == std::string_view::npos)
      E = N.size();
    std::string_view Part = N.substr(B, E - B);
    if (Part.empty() || Part == "." || Part == "..")
      return false;
    B = E + 1;
  }
  return true;
}

/// Writes the input's files under Dir; false if the input is no archive.
bool unpack(const std::uint8_t *Data, std::size_t Size, const fs::path &Dir) {
  std::size_t Off = 0, Files = 0;
  while (Off < Size) {
    const void *Z = std::memchr(Data + Off, 0, Size - Off);
    if (!Z || ++Files > 32)
      return false;
    std::size_t NameEnd = static_cast<const std::uint8_t *>(Z) - Data;
    std::string_view Name(reinterpret_cast<const char *>(Data + Off),
                          NameEnd - Off);
    if (!validName(Name))
      return false;
    Off = NameEnd + 1;
    std::uint32_t Len = 0;
    for (int I = 0; I < 4 && Off < Size; ++I, ++Off)
      Len |= std::uint32_t(Data[Off]) << (8 * I);
    std::size_t N = std::min<std::size_t>(Len, Size - Off);
    fs::path P = Dir / std::string(Name);
    std::error_code Ec;
    fs::create_directories(P.parent_path(), Ec);
    std::ofstream Out(P, std::ios::binary | std::ios::trunc);
    if (!Out)
      return false; // e.g. a name that is also a directory
    Out.write(reinterpret_cast<const char *>(Data + Off), std::streamsize(N));
    Off += N;
  }
  return Files > 0;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  const fs::path &Dir = scratch();
  std::error_code Ec;
  for (const fs::directory_entry &E : fs::directory_iterator(Dir, Ec))
    fs::remove_all(E.path(), Ec);
  if (!unpack(Data, Size, Dir))
    return 0;

  otter::trace::TraceReader R;
  std::string Error;
  if (!R.open(Dir.string(), Error)) {
    if (Error.empty() || Error.find('\n') != std::string::npos)
      __builtin_trap(); // every failure is one line
    return 0;
  }
  std::set<std::uint64_t> Codes;
  bool OK = R.readEvents(
      [&](std::uint32_t, const otter::Event *E, std::size_t N) {
        for (std::size_t I = 0; I < N; ++I) // touch every event handed out
          if (Codes.size() < 64)
            Codes.insert(E[I].Code);
      },
      Error);
  if (!OK && (Error.empty() || Error.find('\n') != std::string::npos))
    __builtin_trap();
  // The labels of the code addresses seen, and one location on its own.
  for (std::uint64_t C : Codes)
    (void)R.label(C);
  std::vector<std::uint32_t> Locs = R.locations();
  if (!Locs.empty()) {
    std::vector<std::uint32_t> One{Locs.back()};
    R.readLocations(
        One, [&](std::uint32_t, const otter::Event *, std::size_t) {}, Error);
  }
  (void)R.complete();
  (void)R.eventCount();
  return 0;
}
