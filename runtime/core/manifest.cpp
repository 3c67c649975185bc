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
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

namespace otter {

namespace {
/// A name the manifest may hold: a plain file inside the directory.
bool plainName(const std::string &Name) {
  return !Name.empty() && Name.find('/') == std::string::npos &&
         Name != "." && Name != ".." && Name != ManifestName;
}

/// The plain names Dir's manifest lists (none without one).
std::vector<std::string> manifestNames(const std::string &Dir) {
  std::vector<std::string> Names;
  std::FILE *F = std::fopen((Dir + "/" + ManifestName).c_str(), "r");
  if (!F)
    return Names;
  char Line[4096];
  while (std::fgets(Line, sizeof Line, F)) {
    std::string Name(Line);
    while (!Name.empty() && (Name.back() == '\n' || Name.back() == '\r'))
      Name.pop_back();
    if (!Name.empty() && Name[0] != '#' && plainName(Name))
      Names.push_back(std::move(Name));
  }
  std::fclose(F);
  return Names;
}

/// The manifest's file, its comment lines written; null: Why says why.
std::FILE *openManifest(const std::string &Dir, std::string &Why) {
  std::FILE *F = std::fopen((Dir + "/" + ManifestName).c_str(), "w");
  if (!F) {
    Why = std::strerror(errno);
    return nullptr;
  }
  std::fputs("# The files an OTTER run wrote here (the trace is in trace/):\n"
             "# the next run into this directory removes them first.\n",
             F);
  return F;
}

/// Flushes and closes F; false: Why says why.
bool closeManifest(std::FILE *F, std::string &Why) {
  bool Ok = std::fflush(F) == 0;
  if (!Ok)
    Why = std::strerror(errno);
  if (std::fclose(F) != 0 && Ok) {
    Why = std::strerror(errno);
    Ok = false;
  }
  return Ok;
}
} // namespace

unsigned removePreviousRunFiles(const std::string &Dir) {
  unsigned Removed = 0;
  for (const std::string &Name : manifestNames(Dir))
    if (::unlink((Dir + "/" + Name).c_str()) == 0)
      ++Removed;
  ::unlink((Dir + "/" + ManifestName).c_str());
  return Removed;
}

void removeArchive(const std::string &Dir) {
  struct stat St;
  if (stat((Dir + "/traces.otf2").c_str(), &St) != 0)
    return; // not an OTF2 archive: leave it alone
  ::unlink((Dir + "/traces.otf2").c_str());
  ::unlink((Dir + "/traces.def").c_str());
  nftw((Dir + "/traces").c_str(),
       [](const char *Path, const struct stat *, int, struct FTW *) {
         return std::remove(Path);
       },
       16, FTW_DEPTH | FTW_PHYS);
}

bool replaceJobManifest(const std::string &JobDir, int WorldSize,
                        std::string &Why) {
  for (const std::string &Name : manifestNames(JobDir)) {
    int Rank = -1;
    char Tail = 0;
    if (std::sscanf(Name.c_str(), "rank-%d%c", &Rank, &Tail) == 1 &&
        Rank >= 0) {
      if (Rank < WorldSize)
        continue; // this job's
      // A rank this job does not have: what OTTER wrote there, then the
      // directory if nothing else is in it (a user's file keeps it).
      std::string RankDir = JobDir + "/" + Name;
      removePreviousRunFiles(RankDir);
      removeArchive(RankDir + "/trace");
      ::rmdir((RankDir + "/trace").c_str());
      ::rmdir(RankDir.c_str());
    } else if (Name != "trace") { // the job's archive: replaced by the merge
      ::unlink((JobDir + "/" + Name).c_str());
    }
  }
  std::FILE *F = openManifest(JobDir, Why);
  if (!F)
    return false;
  std::fputs("trace\n", F);
  for (int R = 0; R < WorldSize; ++R)
    std::fprintf(F, "rank-%d\n", R);
  return closeManifest(F, Why);
}

bool writeRunManifest(const std::string &Dir,
                      const std::vector<std::string> &Files, std::string &Why) {
  std::FILE *F = openManifest(Dir, Why);
  if (!F)
    return false;
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
  return closeManifest(F, Why);
}

} // namespace otter
