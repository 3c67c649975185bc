//===- otter/profile_diff.cpp - Two profiles compared ---------------------===//
//
// `otter profile A B` (and `otter diff A B` on two sampled runs without a
// trace): the profiles of two runs (profile.h) side by side, per construct
// and per function: inclusive and exclusive time in A and in B and the
// change, sorted by the largest change (exclusive, then inclusive); rows
// only in one run count as 0 in the other. docs/sampling.md defines it.
//
//===----------------------------------------------------------------------===//
#include "profile.h"

#include "report.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace otter::profile {

namespace {

std::int64_t delta(std::uint64_t A, std::uint64_t B) {
  return std::int64_t(B) - std::int64_t(A);
}

std::uint64_t magnitude(std::int64_t D) {
  return D < 0 ? std::uint64_t(-D) : std::uint64_t(D);
}

std::vector<DiffRow> matchRows(const std::vector<Row> &A,
                               const std::vector<Row> &B) {
  std::map<std::pair<std::string, std::string>, DiffRow> Rows;
  for (const Row &R : A) {
    DiffRow &D = Rows[{R.Name, R.Location}];
    D.Name = R.Name;
    D.Location = R.Location;
    D.InA = true;
    D.A = R;
  }
  for (const Row &R : B) {
    DiffRow &D = Rows[{R.Name, R.Location}];
    D.Name = R.Name;
    D.Location = R.Location;
    D.InB = true;
    D.B = R;
  }
  std::vector<DiffRow> V;
  for (auto &KV : Rows)
    V.push_back(std::move(KV.second));
  std::stable_sort(V.begin(), V.end(), [](const DiffRow &X, const DiffRow &Y) {
    const std::uint64_t EX = magnitude(X.exclusiveDelta()),
                        EY = magnitude(Y.exclusiveDelta());
    if (EX != EY)
      return EX > EY;
    return magnitude(X.inclusiveDelta()) > magnitude(Y.inclusiveDelta());
  });
  return V;
}

std::string ms(double Ns, bool Sign) {
  char B[32];
  std::snprintf(B, sizeof B, Sign ? "%+.1f" : "%.1f", Ns / 1e6);
  return B;
}

void printRows(const std::vector<DiffRow> &Rows, std::size_t Top,
               const char *What, std::ostream &OS) {
  char Line[160];
  std::snprintf(Line, sizeof Line, "%9s %9s %9s %9s %9s %9s  %s\n", "incl_A",
                "incl_B", "d_incl", "excl_A", "excl_B", "d_excl", What);
  OS << Line;
  std::size_t N = 0;
  for (const DiffRow &R : Rows) {
    if (Top && N++ == Top) {
      OS << "  (" << Rows.size() - Top << " more rows: --top 0 lists all)\n";
      break;
    }
    std::snprintf(Line, sizeof Line, "%9s %9s %9s %9s %9s %9s  ",
                  ms(double(R.A.InclusiveNs), false).c_str(),
                  ms(double(R.B.InclusiveNs), false).c_str(),
                  ms(double(R.inclusiveDelta()), true).c_str(),
                  ms(double(R.A.ExclusiveNs), false).c_str(),
                  ms(double(R.B.ExclusiveNs), false).c_str(),
                  ms(double(R.exclusiveDelta()), true).c_str());
    OS << Line << R.Name;
    if (!R.Location.empty())
      OS << " (" << R.Location << ")";
    if (!R.InA || !R.InB)
      OS << (R.InA ? " [only in A]" : " [only in B]");
    OS << "\n";
  }
}

void jsonRows(const std::vector<DiffRow> &Rows, std::ostream &OS) {
  OS << "[";
  for (std::size_t I = 0; I < Rows.size(); ++I) {
    const DiffRow &R = Rows[I];
    OS << (I ? "," : "") << "{\"name\":" << analysis::jsonString(R.Name)
       << ",\"location\":" << analysis::jsonString(R.Location)
       << ",\"in_a\":" << (R.InA ? "true" : "false")
       << ",\"in_b\":" << (R.InB ? "true" : "false")
       << ",\"inclusive_a_ns\":" << R.A.InclusiveNs
       << ",\"inclusive_b_ns\":" << R.B.InclusiveNs
       << ",\"exclusive_a_ns\":" << R.A.ExclusiveNs
       << ",\"exclusive_b_ns\":" << R.B.ExclusiveNs
       << ",\"inclusive_delta_ns\":" << R.inclusiveDelta()
       << ",\"exclusive_delta_ns\":" << R.exclusiveDelta() << "}";
  }
  OS << "]";
}

} // namespace

std::int64_t DiffRow::inclusiveDelta() const {
  return delta(A.InclusiveNs, B.InclusiveNs);
}
std::int64_t DiffRow::exclusiveDelta() const {
  return delta(A.ExclusiveNs, B.ExclusiveNs);
}

ProfileDiff compare(const Profile &A, const Profile &B) {
  return {matchRows(A.Constructs, B.Constructs),
          matchRows(A.Functions, B.Functions)};
}

void printDiff(const Profile &A, const Profile &B, const std::string &NameA,
               const std::string &NameB, std::size_t Top, bool Json,
               std::ostream &OS) {
  const ProfileDiff D = compare(A, B);
  if (Json) {
    OS << "{\"a\":" << analysis::jsonString(NameA)
       << ",\"b\":" << analysis::jsonString(NameB)
       << ",\"total_a_ns\":" << A.TotalNs << ",\"total_b_ns\":" << B.TotalNs
       << ",\"constructs\":";
    jsonRows(D.Constructs, OS);
    OS << ",\"functions\":";
    jsonRows(D.Functions, OS);
    OS << "}\n";
    return;
  }
  OS << "A: " << NameA << ": " << A.Samples << " samples, "
     << ms(double(A.TotalNs), false) << " ms sampled\nB: " << NameB << ": "
     << B.Samples << " samples, " << ms(double(B.TotalNs), false)
     << " ms sampled\n"
     << (coarseSamplesNote(A).empty() ? "" : "A: " + coarseSamplesNote(A))
     << (coarseSamplesNote(B).empty() ? "" : "B: " + coarseSamplesNote(B))
     << "columns: incl / excl as in otter profile (ms), in A, in B, and "
        "d_ = B - A; rows sorted by the largest change of exclusive time, "
        "then of inclusive time; a row only in one run is 0 in the other\n"
     << "\nper construct:\n";
  printRows(D.Constructs, Top, "construct", OS);
  OS << "\nper function (definition file:line):\n";
  printRows(D.Functions, Top, "function", OS);
}

} // namespace otter::profile
