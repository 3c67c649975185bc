//===- merge/otter-merge.cpp - Assemble an MPI job's OTF2 archive ---------===//
//
// otter-merge JOBDIR: (re)builds JOBDIR/trace, the OTF2 archive of a whole
// MPI job, from the ranks' own archives JOBDIR/rank-<N>/trace. The last rank
// to finish does this by itself; run it when that rank never finished (it
// was killed, or the job was), or after copying rank directories together.
// See runtime/lib/trace/merge.h.
//
//===----------------------------------------------------------------------===//
#include "trace/merge.h"

#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char **argv) {
  // --help: the usage on stdout, success; a wrong command line: the same
  // text on stderr, status 2 (a usage error, as for the `otter` command).
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    std::puts("otter-merge (OTTER " OTTER_VERSION_STRING ")");
    return 0;
  }
  if (argc != 2 || std::strcmp(argv[1], "--help") == 0 ||
      std::strcmp(argv[1], "-h") == 0) {
    std::fprintf(argc == 2 ? stdout : stderr,
                 "usage: otter-merge JOBDIR\n"
                 "  (re)builds JOBDIR/trace, the OTF2 archive of an MPI job, "
                 "from JOBDIR/rank-<N>/trace\n"
                 "  --version  OTTER's version\n");
    return argc == 2 ? 0 : 2;
  }
  otter::trace::MergeResult R;
  std::string Error;
  if (!otter::trace::mergeJob(argv[1], R, Error)) {
    std::fprintf(stderr, "otter-merge: %s\n", Error.c_str());
    return 1;
  }
  std::printf("otter-merge: wrote %s/trace/ (%u ranks, %u threads", argv[1],
              R.Ranks, R.Locations);
  // A rank whose archive was never closed (killed) is merged up to what its
  // threads had written; the count tells the user the job's trace is partial.
  if (R.IncompleteRanks)
    std::printf(", %u rank(s) cut off: their archives were not closed",
                R.IncompleteRanks);
  if (R.MissingRanks)
    std::printf(", %u rank(s) missing: no archive that reads", R.MissingRanks);
  std::printf(")\n");
  return 0;
}
