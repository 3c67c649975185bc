//===- replay_main.cpp - Runs a fuzz target over files, without libFuzzer
//--===//
//
// Linked with a fuzz target's LLVMFuzzerTestOneInput in every build (any
// compiler, no libFuzzer): ctest replays the checked-in corpora and the
// inputs of past crashes through it (test/fuzz/CMakeLists.txt), so they stay
// regression tests in the regular and the sanitizer builds.
//   <target>-replay FILE|DIR...   each file, or every file in each DIR
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size);

namespace fs = std::filesystem;

int main(int Argc, char **Argv) {
  std::vector<fs::path> Files;
  for (int I = 1; I < Argc; ++I) {
    fs::path P = Argv[I];
    if (fs::is_directory(P)) {
      for (const fs::directory_entry &E : fs::directory_iterator(P))
        if (E.is_regular_file())
          Files.push_back(E.path());
    } else {
      Files.push_back(P);
    }
  }
  std::sort(Files.begin(), Files.end());
  if (Files.empty()) {
    std::fprintf(stderr, "%s: no input files\n", Argv[0]);
    return 2;
  }
  for (const fs::path &F : Files) {
    std::ifstream In(F, std::ios::binary);
    if (!In) {
      std::fprintf(stderr, "%s: cannot read %s\n", Argv[0], F.c_str());
      return 2;
    }
    std::vector<char> Bytes((std::istreambuf_iterator<char>(In)),
                            std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(Bytes.data()),
                           Bytes.size());
  }
  std::printf("%zu inputs replayed\n", Files.size());
  return 0;
}
