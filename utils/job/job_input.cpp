//===- job/job_input.cpp - An MPI job's output directory, for the utils --===//
#include "job_input.h"

#include "graph/builder.h"
#include "trace/merge.h"
#include "trace/reader.h"
#include "trace/sample_reader.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <dirent.h>
#include <exception>
#include <sys/stat.h>
#include <thread>

namespace otter::job {

namespace {

bool isDir(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

std::string parentOf(std::string P) {
  while (P.size() > 1 && P.back() == '/')
    P.pop_back();
  std::size_t S = P.rfind('/');
  if (S == std::string::npos)
    return ".";
  return S == 0 ? "/" : P.substr(0, S);
}

std::string baseOf(std::string P) {
  while (P.size() > 1 && P.back() == '/')
    P.pop_back();
  std::size_t S = P.rfind('/');
  return S == std::string::npos ? P : P.substr(S + 1);
}

/// rank-<N> subdirectories of Dir.
std::vector<std::string> rankDirs(const std::string &Dir) {
  std::vector<std::string> V;
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return V;
  while (dirent *E = readdir(D)) {
    int Rank = -1;
    char Tail = 0;
    if (std::sscanf(E->d_name, "rank-%d%c", &Rank, &Tail) != 1 || Rank < 0 ||
        Rank > (1 << 24))
      continue;
    std::string P = Dir + "/" + E->d_name;
    if (std::string(E->d_name) != "rank-" + std::to_string(Rank) || !isDir(P))
      continue;
    if (V.size() <= std::size_t(Rank))
      V.resize(std::size_t(Rank) + 1);
    V[std::size_t(Rank)] = P;
  }
  closedir(D);
  return V;
}

/// Rebuilds one rank's graph from its archive, as otter-graph does.
void rebuildRank(const std::string &Dir, Graph &G, RankStatus &S) {
  trace::TraceReader R;
  if (!R.open(Dir, S.Error))
    return;
  S.Complete = R.complete();
  GraphBuilder B([&R](std::uint64_t Code) { return R.label(Code); });
  if (!R.readEvents([&B](std::uint32_t Thread, const Event *E,
                         std::size_t N) { B.addEvents(Thread, E, N); },
                    S.Error))
    return;
  runWithLargeStack([&] {
    try {
      G = B.build();
      G.Names = R.names(); // the annotations' strings
      S.Read = true;
    } catch (const std::exception &E) {
      S.Error = std::string("building the graph failed: ") + E.what();
    }
  });
}

} // namespace

bool findJob(const std::string &Path, Layout &L) {
  std::string Dir = Path;
  struct stat St;
  if (stat(Path.c_str(), &St) != 0)
    return false;
  if (!S_ISDIR(St.st_mode)) // the job archive's anchor, traces.otf2
    Dir = parentOf(Path);
  std::vector<std::string> Ranks = rankDirs(Dir);
  if (Ranks.empty() && baseOf(Dir) == "trace") { // the job's archive
    Dir = parentOf(Dir);
    Ranks = rankDirs(Dir);
  }
  if (Ranks.empty())
    return false;
  L.Dir = Dir;
  L.RankDirs = std::move(Ranks);
  // No rank assembled the job's archive (the job ended by a fault): the
  // first utility that reads the job does, and says so.
  bool AnyArchive = false;
  for (const std::string &R : L.RankDirs)
    AnyArchive =
        AnyArchive ||
        (!R.empty() && stat((R + "/trace/traces.otf2").c_str(), &St) == 0);
  trace::MergeResult R;
  std::string Error;
  if (AnyArchive && trace::assembleIfMissing(Dir, R, Error)) {
    std::fprintf(stderr,
                 "%s: assembled the job's archive %s/trace/ (no rank did: "
                 "the job ended by a fault): %u ranks",
                 program_invocation_short_name, Dir.c_str(), R.Ranks);
    if (R.IncompleteRanks)
      std::fprintf(stderr, ", %u cut off", R.IncompleteRanks);
    if (R.MissingRanks)
      std::fprintf(stderr, ", %u missing", R.MissingRanks);
    std::fprintf(stderr, "\n");
  }
  return true;
}

std::string samplesOnlyJobMessage(const Layout &L) {
  if (!trace::archiveHoldsSamplesOnly(L.Dir + "/trace/traces.otf2"))
    return {};
  return "'" + L.Dir +
         "' holds the job's samples alone (its ranks were sampled with "
         "OTTER_SAMPLE and OTTER_TRACE=0), no events to read; otter profile " +
         L.Dir +
         " reads them (trace the run, OTTER_TRACE=1, for this "
         "command)";
}

bool rebuildJobGraph(const Layout &L, unsigned Threads, JobGraph &J,
                     std::vector<RankStatus> &Status, std::string &Error) {
  std::size_t N = L.RankDirs.size();
  std::vector<Graph> Graphs(N);
  Status.assign(N, RankStatus());
  for (std::size_t R = 0; R < N; ++R)
    if (L.RankDirs[R].empty())
      Status[R].Error = "no rank-" + std::to_string(R) + "/ in '" + L.Dir + "'";
  // The ranks' archives are independent: one reader per rank at a time.
  std::atomic<std::size_t> Next{0};
  auto work = [&] {
    for (std::size_t R; (R = Next.fetch_add(1)) < N;)
      if (!L.RankDirs[R].empty())
        rebuildRank(L.RankDirs[R], Graphs[R], Status[R]);
  };
  Threads = std::max(1u, std::min<unsigned>(Threads, unsigned(N)));
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < Threads; ++T) {
    try {
      Pool.emplace_back(work);
    } catch (const std::exception &) {
      break; // fewer threads
    }
  }
  work();
  for (std::thread &T : Pool)
    T.join();
  std::size_t Read = 0;
  std::uint32_t Size = std::uint32_t(N);
  for (std::size_t R = 0; R < N; ++R)
    if (Status[R].Read) {
      ++Read;
      Size = std::max(Size, Graphs[R].Mpi.WorldSize);
    } else {
      Graphs[R] = Graph(); // what a failed build left
    }
  if (!Read) {
    if (Error = samplesOnlyJobMessage(L); !Error.empty())
      return false;
    Error = "no rank of the job in '" + L.Dir + "' could be read";
    for (const RankStatus &S : Status)
      if (!S.Error.empty()) {
        Error += ": " + S.Error;
        break;
      }
    return false;
  }
  // Ranks that left no directory at all (MPI_Init says how many there were).
  Graphs.resize(Size);
  for (std::size_t R = N; R < Size; ++R) {
    Status.emplace_back();
    Status.back().Error = "no rank-" + std::to_string(R) + "/ in '" + L.Dir +
                          "' (the job had " + std::to_string(Size) + " ranks)";
  }
  J = buildJobGraph(std::move(Graphs));
  return true;
}

std::vector<std::string> rankNotes(const std::vector<RankStatus> &Status) {
  std::vector<std::string> V;
  for (std::size_t R = 0; R < Status.size(); ++R) {
    if (!Status[R].Read)
      V.push_back("rank " + std::to_string(R) +
                  " is missing from the job graph: " + Status[R].Error);
    else if (!Status[R].Complete)
      V.push_back("rank " + std::to_string(R) +
                  "'s trace was not closed (the rank was killed?): its "
                  "graph covers the events each thread had written");
  }
  return V;
}

} // namespace otter::job
