//===- config_fuzz.cpp - Fuzz target: the environment parser --------------===//
//
// libFuzzer target for runtime/core/config.cpp, which reads OTTER_* (and the
// MPI launchers') variables from an environment the user controls. The input
// is an environment: lines NAME=VALUE (the last one of a name wins, as
// setenv would). Besides "no crash, no undefined behaviour", it checks what
// readConfig promises whatever the input: values are the defaults or within
// their documented ranges, and an invalid value gets exactly one warning line.
//
//===----------------------------------------------------------------------===//
#include "core/config.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

namespace {
[[noreturn]] void fail() { __builtin_trap(); }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  std::string_view In(reinterpret_cast<const char *>(Data), Size);
  std::map<std::string, std::string> Env;
  while (!In.empty()) {
    std::size_t Nl = In.find('\n');
    std::string_view Line = In.substr(0, Nl);
    In = Nl == std::string_view::npos ? std::string_view() : In.substr(Nl + 1);
    std::size_t Eq = Line.find('=');
    if (Eq == std::string_view::npos || Eq == 0)
      continue;
    // A real environment cannot hold a NUL inside a value: cut there.
    std::string Value(Line.substr(Eq + 1));
    Value.resize(Value.find('\0') == std::string::npos ? Value.size()
                                                       : Value.find('\0'));
    Env[std::string(Line.substr(0, Eq))] = Value;
  }
  auto Getenv = [&](const char *Name) -> const char * {
    auto It = Env.find(Name);
    return It == Env.end() ? nullptr : It->second.c_str();
  };
  std::size_t Warnings = 0;
  auto Warn = [&](const std::string &W) {
    if (W.empty() || W.find('\n') != std::string::npos)
      fail(); // one line each
    ++Warnings;
  };
  otter::Config C = otter::readConfig(Getenv, Warn, "prog", 4242, 4141);
  if (C.BufferEvents < 1024 || C.BufferEvents > (1u << 24))
    fail();
  if (C.OutputDir.empty() || C.Symbolizer.empty())
    fail();
  if (C.Rank >= 0) {
    std::string Tail = "/rank-" + std::to_string(C.Rank);
    if (C.OutputDir.size() <= Tail.size() ||
        C.OutputDir.compare(C.OutputDir.size() - Tail.size(), Tail.size(),
                            Tail) != 0 ||
        C.JobDir.empty())
      fail();
  } else if (!C.JobDir.empty() || C.WorldSize != 0) {
    fail();
  }
  if (Warnings > Env.size()) // at most one per variable set
    fail();

  // The helpers on their own, on the raw input.
  std::string Raw(reinterpret_cast<const char *>(Data), Size);
  bool B = false;
  otter::parseBool(Raw, B);
  std::string Id = otter::sanitizeJobId(Raw);
  if (Id.size() != Raw.size())
    fail();
  for (char Ch : Id)
    if (!((Ch >= 'a' && Ch <= 'z') || (Ch >= 'A' && Ch <= 'Z') ||
          (Ch >= '0' && Ch <= '9') || Ch == '.' || Ch == '_' || Ch == '-'))
      fail();
  otter::GraphFormats F;
  std::string Bad;
  otter::parseGraphFormats(Raw, /*AllowNone=*/true, F, Bad);
  return 0;
}
