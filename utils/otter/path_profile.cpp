//===- otter/path_profile.cpp - A job's critical-path profile ------------===//
//
// See path_profile.h. The call paths are GroupedConstructs' rows (report.h:
// a source construct's code addresses of every rank are one row), so the
// profile's keys are the summary's; the rows are a few per construct on the
// path, whatever the path's length.
//
//===----------------------------------------------------------------------===//
#include "path_profile.h"

#include "otter/mpi.h"
#include "picture.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace otter::analysis {

std::vector<PathProfileRow>
pathProfile(const std::vector<std::pair<std::uint32_t, std::uint64_t>> &Path,
            const std::vector<RankCallPathTime> &Times,
            const std::vector<std::uint32_t> &RankThreads) {
  std::vector<PathProfileRow> Rows;
  std::map<std::uint32_t, std::size_t> RowOf; // key -> Rows index
  std::uint64_t Length = 0;
  for (const auto &[Key, Ns] : Path) {
    auto [It, New] = RowOf.try_emplace(Key, Rows.size());
    if (New) {
      Rows.emplace_back();
      Rows.back().Key = Key;
    }
    Rows[It->second].PathNs += Ns;
    ++Rows[It->second].Steps;
    Length += Ns;
  }
  std::uint32_t Ranks = 0;
  for (std::uint32_t T : RankThreads)
    Ranks += T > 0;
  for (const RankCallPathTime &T : Times) {
    auto It = RowOf.find(T.Key);
    if (It == RowOf.end() || T.Rank >= RankThreads.size() ||
        !RankThreads[T.Rank])
      continue;
    PathProfileRow &R = Rows[It->second];
    R.MeanNs += double(T.Ns) / double(RankThreads[T.Rank]);
    R.MeanMpiNs += double(T.MpiNs);
  }
  for (PathProfileRow &R : Rows) {
    if (Ranks) {
      R.MeanNs /= double(Ranks);
      R.MeanMpiNs /= double(Ranks);
    }
    R.ImbalanceNs = double(R.PathNs) - R.MeanNs;
    R.Share = Length ? double(R.PathNs) / double(Length) : 0;
  }
  // Rows are in order of first appearance: a stable sort keeps it on ties.
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const PathProfileRow &A, const PathProfileRow &B) {
                     return A.PathNs > B.PathNs;
                   });
  return Rows;
}

JobPathProfile jobPathProfile(const Result &R,
                              const std::vector<std::uint32_t> &RankThreads,
                              const LabelFn &Label) {
  GroupedConstructs G(R, Label);
  // A step whose construct has no row (none should) gets a key of its own,
  // by its kind and label, after the rows'.
  std::map<std::pair<int, std::string>, std::uint32_t> Extra;
  std::vector<JobPathProfile::Row> ExtraRows;
  auto where = [](Kind K, const SourceLabel &L) {
    return K == Kind::Initial && !L.Line ? std::string("(program)")
                                         : sourceText(L);
  };
  std::vector<std::pair<std::uint32_t, std::uint64_t>> Path;
  for (const PathStep &S : R.CriticalPath) {
    std::size_t N = G.find(S.K, S.Code);
    if (N == std::string::npos) {
      SourceLabel L = S.Code ? Label(S.Code) : SourceLabel{};
      auto [It, New] =
          Extra.try_emplace({int(S.K), where(S.K, L)},
                            std::uint32_t(G.Nodes.size() + ExtraRows.size()));
      if (New) {
        ExtraRows.emplace_back();
        ExtraRows.back().K = S.K;
        ExtraRows.back().L = L;
        ExtraRows.back().Where = where(S.K, L);
      }
      N = It->second;
    }
    Path.push_back({std::uint32_t(N), S.Ns});
  }
  std::vector<RankCallPathTime> Times;
  for (const ConstructStats &S : R.Constructs) {
    std::size_t N = G.find(S.K, S.Code);
    if (N == std::string::npos)
      continue;
    RankCallPathTime T;
    T.Key = std::uint32_t(N);
    T.Rank = std::uint32_t(std::max(codeRank(S.Code), 0));
    // An MPI call is waiting: on the path it is a zero-length crossing.
    (S.K == Kind::Mpi ? T.MpiNs : T.Ns) = S.TotalNs;
    Times.push_back(T);
  }
  JobPathProfile P;
  for (std::uint32_t T : RankThreads)
    P.Ranks += T > 0;
  for (const auto &[Key, Ns] : Path)
    P.PathNs += Ns;
  for (const PathProfileRow &X : pathProfile(Path, Times, RankThreads)) {
    JobPathProfile::Row Row;
    if (X.Key >= G.Nodes.size()) {
      Row = ExtraRows[X.Key - G.Nodes.size()];
    } else {
      const Construct &C = G.Nodes[X.Key];
      Row.K = C.S.K;
      Row.L = C.L;
      Row.Where = where(C.S.K, C.L);
      if (C.S.K == Kind::Mpi && C.S.MpiFunction)
        Row.Function = mpi::functionName(mpi::Function(C.S.MpiFunction));
    }
    static_cast<PathProfileRow &>(Row) = X;
    P.Rows.push_back(std::move(Row));
  }
  return P;
}

namespace {

std::string fmt(const char *F, double X) {
  char B[64];
  std::snprintf(B, sizeof B, F, X);
  return B;
}

/// A signed time: "+1.250 ms", "-300.00 us", "0 ns".
std::string signedNs(double Ns) {
  if (Ns > -0.5 && Ns < 0.5)
    return "0 ns";
  return (Ns < 0 ? "-" : "+") + fmtNs(Ns < 0 ? -Ns : Ns);
}

std::string kindOf(const JobPathProfile::Row &R) {
  return R.Function.empty() ? kindName(R.K)
                            : std::string(kindName(R.K)) + " " + R.Function;
}

/// The columns' definitions, for the text's and the report's legend.
const char *const Legend[] = {
    "on path: the call path's time on the critical path above (execution; "
    "an MPI call is waiting, 0 there: where the path crosses ranks)",
    "share: of the path's length",
    "mean/rank: the mean over the ranks of a rank's time in it, per thread "
    "(its threads' time over its thread count)",
    "imbalance: on path - mean/rank (Scalasca's critical-path imbalance): "
    "positive, the path spends longer there than an average rank, and "
    "shortening it on the path's rank(s) shortens the run",
    "mpi/rank: MPI rows, the mean over the ranks of the time in the call "
    "(waiting)",
};

} // namespace

void printPathProfileText(const JobPathProfile &P, std::size_t Top,
                          std::ostream &OS) {
  char B[512];
  OS << "\ncritical-path profile (" << P.Rows.size()
     << " call paths on the path, " << P.Ranks << " ranks; by time on the "
     << "path):\n";
  std::snprintf(B, sizeof B, "  %-26s %-28s %12s %6s %12s %12s %12s\n", "kind",
                "where", "on path", "share", "mean/rank", "imbalance",
                "mpi/rank");
  OS << B;
  std::size_t N = 0;
  for (const JobPathProfile::Row &R : P.Rows) {
    if (Top && N++ >= Top) {
      OS << "  ... " << (P.Rows.size() - Top) << " more rows\n";
      break;
    }
    std::snprintf(B, sizeof B, "  %-26s %-28s %12s %5.1f%% %12s %12s %12s\n",
                  kindOf(R).c_str(), R.Where.c_str(),
                  fmtNs(double(R.PathNs)).c_str(), 100 * R.Share,
                  fmtNs(R.MeanNs).c_str(), signedNs(R.ImbalanceNs).c_str(),
                  R.K == Kind::Mpi ? fmtNs(R.MeanMpiNs).c_str() : "-");
    OS << B;
  }
  for (const char *L : Legend)
    OS << "  " << L << "\n";
}

void printPathProfileJson(const JobPathProfile &P, std::ostream &OS) {
  OS << "{\"path_ns\":" << P.PathNs << ",\"ranks\":" << P.Ranks
     << ",\"rows\":[";
  for (std::size_t I = 0; I < P.Rows.size(); ++I) {
    const JobPathProfile::Row &R = P.Rows[I];
    OS << (I ? "," : "") << "{\"kind\":" << jsonString(kindName(R.K))
       << ",\"where\":" << jsonString(R.Where)
       << ",\"file\":" << jsonString(R.L.File) << ",\"line\":" << R.L.Line
       << ",\"region_id\":" << R.L.RegionId;
    if (!R.Function.empty())
      OS << ",\"function\":" << jsonString(R.Function);
    OS << ",\"path_ns\":" << R.PathNs << ",\"steps\":" << R.Steps
       << ",\"share\":" << fmt("%.4f", R.Share)
       << ",\"mean_ns\":" << fmt("%.0f", R.MeanNs)
       << ",\"imbalance_ns\":" << fmt("%.0f", R.ImbalanceNs);
    if (R.K == Kind::Mpi)
      OS << ",\"mean_mpi_ns\":" << fmt("%.0f", R.MeanMpiNs);
    OS << "}";
  }
  OS << "]}";
}

std::string pathProfileHtml(const JobPathProfile &P) {
  using picture::xmlEscape;
  auto num = [](const std::string &Text, double V) {
    return "<td class=\"n\" data-v=\"" + fmt("%.0f", V) + "\">" +
           xmlEscape(Text) + "</td>";
  };
  std::ostringstream OS;
  OS << "<section id=\"path-profile\"><h2>Critical-path profile</h2>"
        "<table class=\"sort\"><thead><tr><th>kind</th><th>where</th><th "
        "class=\"n\">on path</th><th class=\"n\">share</th><th class=\"n\">"
        "mean/rank</th><th class=\"n\">imbalance</th><th class=\"n\">"
        "mpi/rank</th></tr></thead><tbody>\n";
  constexpr std::size_t Shown = 100;
  for (std::size_t I = 0; I < P.Rows.size() && I < Shown; ++I) {
    const JobPathProfile::Row &R = P.Rows[I];
    OS << "<tr><td>" << xmlEscape(kindOf(R)) << "</td><td>"
       << xmlEscape(R.Where) << "</td>"
       << num(fmtNs(double(R.PathNs)), double(R.PathNs))
       << num(fmt("%.1f%%", 100 * R.Share), 1000 * R.Share)
       << num(fmtNs(R.MeanNs), R.MeanNs)
       << num(signedNs(R.ImbalanceNs), R.ImbalanceNs)
       << (R.K == Kind::Mpi ? num(fmtNs(R.MeanMpiNs), R.MeanMpiNs)
                            : std::string("<td></td>"))
       << "</tr>\n";
  }
  OS << "</tbody></table>";
  if (P.Rows.size() > Shown)
    OS << "<div class=\"muted\">" << P.Rows.size() - Shown
       << " more rows (otter parallelism --top 0)</div>";
  OS << "<div class=\"muted\">Per call path on the critical path, over "
     << P.Ranks << " ranks. ";
  for (const char *L : Legend)
    OS << xmlEscape(L) << ". ";
  OS << "</div></section>\n";
  return OS.str();
}

} // namespace otter::analysis
