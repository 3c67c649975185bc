//===- core/manifest.cpp - A run owns its output directory ----------------===//
//
// The manifest (core/manifest.h): one file name per line, after comment
// lines starting with '#'.
//
//===----------------------------------------------------------------------===//
#include "core/manifest.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace otter {

namespace {
/// A name the manifest may hold: a plain file inside the directory.
bool plainName(const std::string &Name) {
  return !Name.empty() && Name.find('/') == std::string::npos &&
         Name != "." && Name != ".." && Name != ManifestName;
}
} // namespace

unsigned removePreviousRunFiles(const std::string &Dir) {
  const std::string Path = Dir + "/" + ManifestName;
  std::FILE *F = std::fopen(Path.c_str(), "r");
  if (!F)
    return 0;
  unsigned Removed = 0;
  char Line[4096];
  while (std::fgets(Line, sizeof Line, F)) {
    std::string Name(Line);
    while (!Name.empty() && (Name.back() == '\n' || Name.back() == '\r'))
      Name.pop_back();
    if (Name.empty() || Name[0] == '#' || !plainName(Name))
      continue;
    if (::unlink((Dir + "/" + Name).c_str()) == 0)
      ++Removed;
  }
  std::fclose(F);
  ::unlink(Path.c_str());
  return Removed;
}

bool writeRunManifest(const std::string &Dir,
                      const std::vector<std::string> &Files, std::string &Why) {
  const std::string Path = Dir + "/" + ManifestName;
  std::FILE *F = std::fopen(Path.c_str(), "w");
  if (!F) {
    Why = std::strerror(errno);
    return false;
  }
  std::fputs("# The files an OTTER run wrote here (the trace is in trace/):\n"
             "# the next run into this directory removes them first.\n",
             F);
  // An entry may name several files ("nodes.csv graph.csv": the summary
  // line's form); OTTER's file names hold no spaces.
  for (const std::string &Entry : Files) {
    std::size_t Pos = 0;
    while (Pos < Entry.size()) {
      std::size_t End = Entry.find(' ', Pos);
      if (End == std::string::npos)
        End = Entry.size();
      std::string Name = Entry.substr(Pos, End - Pos);
      if (plainName(Name))
        std::fprintf(F, "%s\n", Name.c_str());
      Pos = End + 1;
    }
  }
  bool Ok = std::fflush(F) == 0;
  if (!Ok)
    Why = std::strerror(errno);
  if (std::fclose(F) != 0 && Ok) {
    Why = std::strerror(errno);
    Ok = false;
  }
  return Ok;
}

} // namespace otter
