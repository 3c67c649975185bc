// Unit tests of the critical-path profile (utils/otter/path_profile.h): a
// path whose rows are worked out by hand, random paths against the brute
// force (the time on the path summed per call path, the ranks' time per
// thread averaged over the ranks read), and a job's Result whose codes
// carry their rank, grouped into call paths across ranks.
#include "path_profile.h"

#include "otter/mpi.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>

using namespace otter::analysis;
using otter::SourceLabel;

namespace {
using Steps = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

const PathProfileRow *rowOf(const std::vector<PathProfileRow> &Rows,
                            std::uint32_t Key) {
  for (const PathProfileRow &R : Rows)
    if (R.Key == Key)
      return &R;
  return nullptr;
}
} // namespace

TEST(PathProfile, SlowRankComputationIsImbalanced) {
  // Rank 1 computes (key 1) 300 ns, rank 0 100 ns; the path runs through
  // rank 1's computation, crosses at a send/receive (key 2, 0 ns) to rank
  // 0, which finishes (key 0) 50 ns. One thread per rank.
  Steps Path = {{0, 20}, {1, 300}, {2, 0}, {0, 50}};
  std::vector<RankCallPathTime> Times = {
      {0, 0, 70, 0}, {1, 0, 100, 0}, {2, 0, 0, 200}, // rank 0 waited 200
      {0, 1, 60, 0}, {1, 1, 300, 0}, {2, 1, 0, 0},
  };
  std::vector<PathProfileRow> Rows = pathProfile(Path, Times, {1, 1});
  ASSERT_EQ(Rows.size(), 3u);
  EXPECT_EQ(Rows[0].Key, 1u); // the longest on the path first
  EXPECT_EQ(Rows[0].PathNs, 300u);
  EXPECT_DOUBLE_EQ(Rows[0].MeanNs, 200.0);
  EXPECT_DOUBLE_EQ(Rows[0].ImbalanceNs, 100.0);
  EXPECT_DOUBLE_EQ(Rows[0].Share, 300.0 / 370.0);
  EXPECT_EQ(Rows[1].Key, 0u);
  EXPECT_EQ(Rows[1].Steps, 2u);
  EXPECT_DOUBLE_EQ(Rows[1].ImbalanceNs, 70.0 - 65.0);
  EXPECT_EQ(Rows[2].Key, 2u);
  EXPECT_EQ(Rows[2].PathNs, 0u);
  EXPECT_DOUBLE_EQ(Rows[2].MeanMpiNs, 100.0);
  EXPECT_DOUBLE_EQ(Rows[2].ImbalanceNs, 0.0);
}

TEST(PathProfile, PerThreadOfTheRankAndRanksNotRead) {
  // A parallel region's implicit tasks (key 0), two threads each 100 ns on
  // rank 0 and 200 ns on rank 1: per thread 100 and 200, mean 150; the path
  // has one thread's 200. Rank 2 was not read: not in the mean.
  Steps Path = {{0, 200}};
  std::vector<RankCallPathTime> Times = {
      {0, 0, 200, 0}, {0, 1, 400, 0}, {0, 2, 999, 0}};
  std::vector<PathProfileRow> Rows = pathProfile(Path, Times, {2, 2, 0});
  ASSERT_EQ(Rows.size(), 1u);
  EXPECT_DOUBLE_EQ(Rows[0].MeanNs, 150.0);
  EXPECT_DOUBLE_EQ(Rows[0].ImbalanceNs, 50.0);
  EXPECT_DOUBLE_EQ(Rows[0].Share, 1.0);
}

TEST(PathProfile, RandomPathsMatchTheBruteForce) {
  std::mt19937 Rng(27);
  for (int Trial = 0; Trial < 300; ++Trial) {
    std::uint32_t Keys = 1 + Rng() % 6, Ranks = 1 + Rng() % 5;
    Steps Path(Rng() % 40);
    for (auto &[K, Ns] : Path) {
      K = Rng() % Keys;
      Ns = Rng() % 1000;
    }
    std::vector<std::uint32_t> Threads(Ranks);
    for (std::uint32_t &T : Threads)
      T = Rng() % 4; // 0: not read
    std::vector<RankCallPathTime> Times;
    for (int I = 0, N = int(Rng() % 30); I < N; ++I)
      Times.push_back({std::uint32_t(Rng() % Keys),
                       std::uint32_t(Rng() % Ranks), Rng() % 5000,
                       Rng() % 5000});
    // The brute force.
    std::map<std::uint32_t, std::uint64_t> OnPath, Steps;
    std::uint64_t Length = 0;
    for (auto &[K, Ns] : Path) {
      OnPath[K] += Ns;
      ++Steps[K];
      Length += Ns;
    }
    std::uint32_t Read = 0;
    for (std::uint32_t T : Threads)
      Read += T > 0;
    std::vector<PathProfileRow> Rows = pathProfile(Path, Times, Threads);
    ASSERT_EQ(Rows.size(), OnPath.size());
    for (std::size_t I = 1; I < Rows.size(); ++I)
      EXPECT_GE(Rows[I - 1].PathNs, Rows[I].PathNs);
    for (auto &[K, Ns] : OnPath) {
      double Mean = 0, Mpi = 0;
      for (std::uint32_t R = 0; R < Ranks; ++R) {
        if (!Threads[R])
          continue;
        double Sum = 0, SumMpi = 0;
        for (const RankCallPathTime &T : Times)
          if (T.Key == K && T.Rank == R) {
            Sum += double(T.Ns);
            SumMpi += double(T.MpiNs);
          }
        Mean += Sum / Threads[R];
        Mpi += SumMpi;
      }
      if (Read) {
        Mean /= Read;
        Mpi /= Read;
      }
      const PathProfileRow *X = rowOf(Rows, K);
      ASSERT_NE(X, nullptr);
      EXPECT_EQ(X->PathNs, Ns);
      EXPECT_EQ(X->Steps, Steps[K]);
      EXPECT_NEAR(X->MeanNs, Mean, 1e-6);
      EXPECT_NEAR(X->MeanMpiNs, Mpi, 1e-6);
      EXPECT_NEAR(X->ImbalanceNs, double(Ns) - Mean, 1e-6);
      EXPECT_NEAR(X->Share, Length ? double(Ns) / double(Length) : 0, 1e-12);
    }
  }
}

TEST(PathProfile, JobRowsAreCallPathsAcrossRanks) {
  // Two ranks; codes carry (rank + 1) << CodeRankShift; the label is
  // "p.c:<address>". A task construct at line 10 on both ranks, an
  // MPI_Recv at line 20 on rank 0 and its MPI_Send at line 30 on rank 1.
  auto code = [](int Rank, std::uint64_t Addr) {
    return (std::uint64_t(Rank + 1) << CodeRankShift) | Addr;
  };
  LabelFn Label = [](std::uint64_t Code) {
    SourceLabel L;
    L.File = "p.c";
    L.Line = std::uint32_t(codeAddress(Code));
    return L;
  };
  Result R;
  auto stat = [&](int Rank, std::uint64_t Addr, Kind K, std::uint64_t Ns,
                  std::uint16_t Fn = 0) {
    ConstructStats S;
    S.Code = code(Rank, Addr);
    S.K = K;
    S.Instances = 1;
    S.TotalNs = Ns;
    S.MpiFunction = Fn;
    R.Constructs.push_back(S);
  };
  stat(0, 10, Kind::Task, 100);
  stat(1, 10, Kind::Task, 500);
  stat(0, 20, Kind::Mpi, 400, std::uint16_t(otter::mpi::Function::Recv));
  stat(1, 30, Kind::Mpi, 1, std::uint16_t(otter::mpi::Function::Send));
  R.CriticalPath = {{code(1, 10), Kind::Task, 500, 1, 0},
                    {code(1, 30), Kind::Mpi, 0, 0, 0},
                    {code(0, 20), Kind::Mpi, 0, 0, 0},
                    {code(0, 10), Kind::Task, 100, 1, 0}};
  JobPathProfile P = jobPathProfile(R, {1, 1}, Label);
  EXPECT_EQ(P.Ranks, 2u);
  EXPECT_EQ(P.PathNs, 600u);
  ASSERT_EQ(P.Rows.size(), 3u);
  EXPECT_EQ(P.Rows[0].K, Kind::Task);
  EXPECT_EQ(P.Rows[0].Where, "p.c:10");
  EXPECT_EQ(P.Rows[0].PathNs, 600u); // both ranks' steps: one call path
  EXPECT_DOUBLE_EQ(P.Rows[0].MeanNs, 300.0);
  EXPECT_DOUBLE_EQ(P.Rows[0].ImbalanceNs, 300.0);
  EXPECT_EQ(P.Rows[1].Function, "MPI_Send");
  EXPECT_EQ(P.Rows[2].Function, "MPI_Recv");
  EXPECT_DOUBLE_EQ(P.Rows[2].MeanMpiNs, 200.0);
  std::ostringstream Json;
  printPathProfileJson(P, Json);
  EXPECT_NE(Json.str().find("\"where\":\"p.c:10\",\"file\":\"p.c\",\"line\":"
                            "10,\"region_id\":0,\"path_ns\":600,\"steps\":2,"
                            "\"share\":1.0000,\"mean_ns\":300,"
                            "\"imbalance_ns\":300}"),
            std::string::npos)
      << Json.str();
}
