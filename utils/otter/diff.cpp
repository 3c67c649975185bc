//===- otter/diff.cpp - Two runs compared, per construct -----------------===//
//
// Each run's constructs are grouped as `otter summary` groups them
// (groupConstructs: one row per directive), then matched in three rounds,
// each over what the previous left unmatched: by region id, by file:line,
// by approximate location, always within one construct kind. A round
// matches a key only when it is unique on both sides (a file:line with two
// directives of one kind would be ambiguous: left to the next round, and
// listed apart if no round matches it).
//
//===----------------------------------------------------------------------===//
#include "diff.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>

namespace otter::diff {

using namespace otter::analysis;

namespace {

/// A construct's figures (docs/utils.md): work is a task's execution time,
/// a region's work; the span is the time the construct has on the
/// critical path.
Side sideOf(const Construct &C, std::uint64_t OnPath) {
  Side S;
  S.TimeNs = C.S.TotalNs;
  S.Count = C.S.Instances;
  S.WaitNs = C.S.WaitNs;
  S.SpanNs = OnPath;
  if (C.S.K == Kind::Task || C.S.K == Kind::Implicit || C.S.K == Kind::Initial)
    S.WorkNs = C.S.TotalNs;
  else if (C.S.K == Kind::Parallel)
    S.WorkNs = C.S.RegionWorkNs;
  return S;
}

std::string locationOf(const Construct &C) {
  if (C.S.K == Kind::Initial && C.S.Code == 0)
    return "(program)";
  return C.L.Location.empty() ? std::to_string(C.S.Code) : C.L.Location;
}

struct Run {
  std::vector<Construct> Cs;
  std::vector<std::uint64_t> OnPath;
  std::vector<bool> Used;
};

Run prepare(const analysis::Result &R, const LabelFn &L) {
  Run X;
  X.Cs = groupConstructs(R, L);
  X.OnPath.assign(X.Cs.size(), 0);
  X.Used.assign(X.Cs.size(), false);
  // The critical path per construct, with groupConstructs' key.
  std::map<std::pair<int, std::string>, std::size_t> Index;
  auto keyOf = [&](Kind K, const SourceLabel &S, std::uint64_t Code) {
    return std::make_pair(int(K), S.RegionId ? std::to_string(S.RegionId)
                                  : S.Line
                                      ? S.File + ":" + std::to_string(S.Line)
                                      : std::to_string(Code));
  };
  for (std::size_t I = 0; I < X.Cs.size(); ++I)
    Index.emplace(keyOf(X.Cs[I].S.K, X.Cs[I].L, X.Cs[I].S.Code), I);
  for (const PathStep &P : R.CriticalPath) {
    SourceLabel S = P.Code ? L(P.Code) : SourceLabel{};
    auto It = Index.find(keyOf(P.K, S, P.Code));
    if (It != Index.end())
      X.OnPath[It->second] += P.Ns;
  }
  return X;
}

Totals totalsOf(const analysis::Result &R) {
  Totals T;
  T.RunNs = R.runNs();
  T.WorkNs = R.WorkNs;
  T.SpanNs = R.SpanNs;
  T.Tasks = R.ExplicitTasks;
  T.Threads = R.Threads;
  T.Parallelism = R.parallelism();
  T.BurdenedSpanNs = R.burdenedSpanNs();
  return T;
}

std::uint64_t absDiff(std::uint64_t X, std::uint64_t Y) {
  return X > Y ? X - Y : Y - X;
}

} // namespace

Result compare(const analysis::Result &RA, const LabelFn &LA,
               const analysis::Result &RB, const LabelFn &LB) {
  Result D;
  D.A = totalsOf(RA);
  D.B = totalsOf(RB);
  Run A = prepare(RA, LA), B = prepare(RB, LB);
  using KeyFn = std::string (*)(const Construct &);
  struct Round {
    const char *Name;
    KeyFn Key;
  };
  const Round Rounds[] = {
      {"region_id",
       [](const Construct &C) {
         return C.L.RegionId ? std::to_string(C.L.RegionId) : std::string();
       }},
      {"file:line",
       [](const Construct &C) {
         return C.L.Line && !C.L.File.empty()
                    ? C.L.File + ":" + std::to_string(C.L.Line)
                    : std::string();
       }},
      {"location", [](const Construct &C) { return locationOf(C); }},
  };
  for (const Round &Rd : Rounds) {
    // Key -> index, or -1 when two constructs share it (ambiguous).
    auto index = [&](Run &X) {
      std::map<std::pair<int, std::string>, long> M;
      for (std::size_t I = 0; I < X.Cs.size(); ++I) {
        if (X.Used[I])
          continue;
        std::string K = Rd.Key(X.Cs[I]);
        if (K.empty())
          continue;
        auto [It, New] = M.try_emplace({int(X.Cs[I].S.K), K}, long(I));
        if (!New)
          It->second = -1;
      }
      return M;
    };
    auto MA = index(A), MB = index(B);
    for (auto &[Key, IA] : MA) {
      auto It = MB.find(Key);
      if (IA < 0 || It == MB.end() || It->second < 0)
        continue;
      std::size_t I = std::size_t(IA), J = std::size_t(It->second);
      A.Used[I] = B.Used[J] = true;
      Row R;
      R.K = A.Cs[I].S.K;
      R.Where = A.Cs[I].where();
      R.RegionIdA = A.Cs[I].L.RegionId;
      R.RegionIdB = B.Cs[J].L.RegionId;
      R.Match = Rd.Name;
      R.InA = R.InB = true;
      R.A = sideOf(A.Cs[I], A.OnPath[I]);
      R.B = sideOf(B.Cs[J], B.OnPath[J]);
      R.ImpactNs = std::max({absDiff(R.A.TimeNs, R.B.TimeNs),
                             absDiff(R.A.SpanNs, R.B.SpanNs),
                             absDiff(R.A.WaitNs, R.B.WaitNs)});
      D.Rows.push_back(R);
    }
  }
  auto only = [](Run &X, bool IsA, std::vector<Row> &Out) {
    for (std::size_t I = 0; I < X.Cs.size(); ++I) {
      if (X.Used[I])
        continue;
      Row R;
      R.K = X.Cs[I].S.K;
      R.Where = X.Cs[I].where();
      (IsA ? R.RegionIdA : R.RegionIdB) = X.Cs[I].L.RegionId;
      (IsA ? R.InA : R.InB) = true;
      (IsA ? R.A : R.B) = sideOf(X.Cs[I], X.OnPath[I]);
      R.ImpactNs = std::max((IsA ? R.A : R.B).TimeNs, (IsA ? R.A : R.B).SpanNs);
      Out.push_back(R);
    }
  };
  only(A, true, D.OnlyA);
  only(B, false, D.OnlyB);
  // By impact; ties by where and kind (the maps' order is not the run's).
  auto byImpact = [](const Row &X, const Row &Y) {
    if (X.ImpactNs != Y.ImpactNs)
      return X.ImpactNs > Y.ImpactNs;
    if (X.Where != Y.Where)
      return X.Where < Y.Where;
    return int(X.K) < int(Y.K);
  };
  std::sort(D.Rows.begin(), D.Rows.end(), byImpact);
  std::sort(D.OnlyA.begin(), D.OnlyA.end(), byImpact);
  std::sort(D.OnlyB.begin(), D.OnlyB.end(), byImpact);
  return D;
}

namespace {

std::string fmtD(std::uint64_t A, std::uint64_t B) {
  double D = double(B) - double(A);
  std::string S = (D >= 0 ? "+" : "-") + fmtNs(std::fabs(D));
  return S;
}

std::string pct(double A, double B) {
  if (A <= 0)
    return B > 0 ? "new" : "";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%+.0f%%", 100 * (B - A) / A);
  return Buf;
}

void sideJson(std::ostream &OS, const Side &S) {
  OS << "{\"time_ns\":" << S.TimeNs << ",\"count\":" << S.Count
     << ",\"work_ns\":" << S.WorkNs << ",\"span_ns\":" << S.SpanNs
     << ",\"wait_ns\":" << S.WaitNs << "}";
}

void totalsJson(std::ostream &OS, const Totals &T) {
  char B[64];
  std::snprintf(B, sizeof B, "%.4f", T.Parallelism);
  OS << "{\"run_ns\":" << T.RunNs << ",\"threads\":" << T.Threads
     << ",\"work_ns\":" << T.WorkNs << ",\"span_ns\":" << T.SpanNs
     << ",\"parallelism\":" << B;
  std::snprintf(B, sizeof B, "%.0f", T.BurdenedSpanNs);
  OS << ",\"burdened_span_ns\":" << B << ",\"explicit_tasks\":" << T.Tasks
     << "}";
}

void rowJson(std::ostream &OS, const Row &R) {
  OS << "{\"kind\":" << jsonString(kindName(R.K))
     << ",\"where\":" << jsonString(R.Where)
     << ",\"region_id_a\":" << R.RegionIdA << ",\"region_id_b\":" << R.RegionIdB
     << ",\"match\":" << jsonString(R.Match) << ",\"impact_ns\":" << R.ImpactNs;
  if (R.InA) {
    OS << ",\"a\":";
    sideJson(OS, R.A);
  }
  if (R.InB) {
    OS << ",\"b\":";
    sideJson(OS, R.B);
  }
  OS << "}";
}

} // namespace

void print(const Result &D, bool Json, std::ostream &OS, std::size_t Top,
           const std::string &NameA, const std::string &NameB) {
  if (Json) {
    OS << "{\"a\":";
    totalsJson(OS, D.A);
    OS << ",\"b\":";
    totalsJson(OS, D.B);
    auto list = [&](const char *Name, const std::vector<Row> &V) {
      OS << ",\"" << Name << "\":[";
      for (std::size_t I = 0; I < V.size(); ++I) {
        OS << (I ? "," : "");
        rowJson(OS, V[I]);
      }
      OS << "]";
    };
    list("constructs", D.Rows);
    list("only_a", D.OnlyA);
    list("only_b", D.OnlyB);
    OS << "}\n";
    return;
  }
  char B[512];
  OS << "A: " << NameA << "\nB: " << NameB << "\n\n";
  std::snprintf(B, sizeof B, "%-22s %14s %14s %14s %8s\n", "", "A", "B",
                "B - A", "");
  OS << B;
  auto total = [&](const char *Name, std::uint64_t X, std::uint64_t Y) {
    std::snprintf(B, sizeof B, "%-22s %14s %14s %14s %8s\n", Name,
                  fmtNs(double(X)).c_str(), fmtNs(double(Y)).c_str(),
                  fmtD(X, Y).c_str(), pct(double(X), double(Y)).c_str());
    OS << B;
  };
  total("run time", D.A.RunNs, D.B.RunNs);
  total("work", D.A.WorkNs, D.B.WorkNs);
  total("span", D.A.SpanNs, D.B.SpanNs);
  total("burdened span", std::uint64_t(D.A.BurdenedSpanNs),
        std::uint64_t(D.B.BurdenedSpanNs));
  std::snprintf(B, sizeof B, "%-22s %14.2f %14.2f\n", "parallelism",
                D.A.Parallelism, D.B.Parallelism);
  OS << B;
  std::snprintf(
      B, sizeof B, "%-22s %14u %14u\n%-22s %14" PRIu64 " %14" PRIu64 "\n",
      "threads", D.A.Threads, D.B.Threads, "tasks", D.A.Tasks, D.B.Tasks);
  OS << B;
  OS << "\nper construct, by impact (time; span: time on the critical path; "
        "waiting):\n";
  std::snprintf(B, sizeof B, "  %-16s %-28s %10s %10s %12s %12s %12s %12s\n",
                "kind", "where", "count A", "count B", "time A", "time B",
                "span B-A", "wait B-A");
  OS << B;
  std::size_t N = 0;
  for (const Row &R : D.Rows) {
    if (Top && N++ >= Top) {
      OS << "  ... " << D.Rows.size() - Top << " more\n";
      break;
    }
    std::snprintf(
        B, sizeof B,
        "  %-16s %-28s %10" PRIu64 " %10" PRIu64 " %12s %12s %12s %12s%s\n",
        kindName(R.K), R.Where.c_str(), R.A.Count, R.B.Count,
        fmtNs(double(R.A.TimeNs)).c_str(), fmtNs(double(R.B.TimeNs)).c_str(),
        fmtD(R.A.SpanNs, R.B.SpanNs).c_str(),
        fmtD(R.A.WaitNs, R.B.WaitNs).c_str(),
        std::string(R.Match) == "region_id"
            ? ""
            : (std::string("  (by ") + R.Match + ")").c_str());
    OS << B;
  }
  auto only = [&](const char *Title, const std::vector<Row> &V, bool IsA) {
    if (V.empty())
      return;
    OS << "\n" << Title << ":\n";
    for (const Row &R : V) {
      const Side &S = IsA ? R.A : R.B;
      std::snprintf(B, sizeof B, "  %-16s %-28s %10" PRIu64 " %12s\n",
                    kindName(R.K), R.Where.c_str(), S.Count,
                    fmtNs(double(S.TimeNs)).c_str());
      OS << B;
    }
  };
  only("only in A", D.OnlyA, true);
  only("only in B", D.OnlyB, false);
}

} // namespace otter::diff
