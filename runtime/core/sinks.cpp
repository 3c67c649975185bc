//===- core/sinks.cpp - The registry of the runtime's sinks ---------------===//
#include "core/sinks.h"
#include "sites/site_index.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace otter {

// Each sink's file defines its factory.
std::unique_ptr<RunSink> makeGraphSink(const Config &Cfg, std::string &Why);
std::unique_ptr<RunSink> makeTraceSink(const Config &Cfg, std::string &Why);
std::unique_ptr<RunSink> makeSampleSink(const Config &Cfg, std::string &Why);

namespace {

// The graph first: on a crash only the trace is saved, and at the end the
// trace is closed (close()) before the graph is built (write()) either way.
constexpr SinkSpec Registry[] = {
    {"graph", [](const Config &C) { return C.Formats.any(); }, makeGraphSink},
    // Sampling without the trace: an archive of the samples alone.
    {"trace", [](const Config &C) { return C.Trace || C.SampleHz > 0; },
     makeTraceSink},
    {"samples", [](const Config &C) { return C.SampleHz > 0; },
     makeSampleSink},
};

} // namespace

std::span<const SinkSpec> sinkRegistry() { return Registry; }

SourceLabel describeCode(std::uint64_t Code) {
  return describeCodeAddress(reinterpret_cast<const void *>(Code));
}

std::string makeDirectories(const std::string &Path) {
  std::string Partial;
  std::size_t Pos = 0;
  while (Pos != std::string::npos) {
    Pos = Path.find('/', Pos + 1);
    Partial = Path.substr(0, Pos);
    if (Partial.empty())
      continue;
    if (mkdir(Partial.c_str(), 0777) != 0 && errno != EEXIST)
      return std::strerror(errno);
  }
  struct stat St;
  if (stat(Path.c_str(), &St) != 0)
    return std::strerror(errno);
  if (!S_ISDIR(St.st_mode))
    return "exists and is not a directory";
  if (access(Path.c_str(), W_OK) != 0)
    return std::strerror(errno);
  return "";
}

} // namespace otter
