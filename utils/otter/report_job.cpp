//===- otter/report_job.cpp - Reports of an MPI job ----------------------===//
//
// Text and JSON (docs/utils.md, "An MPI job"). Every list is sorted from a
// deterministic order (ranks, then the analysis' order), so one job gives
// the same report every time.
//
//===----------------------------------------------------------------------===//
#include "report_job.h"

#include "otter/mpi.h"
#include "path_profile.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <sstream>

namespace otter::analysis {

namespace {

std::string fmtf(const char *F, double X) {
  char B[64];
  std::snprintf(B, sizeof B, F, X);
  return B;
}

std::string functionOf(const ConstructStats &S) {
  return mpi::functionName(mpi::Function(S.MpiFunction));
}

/// The per-function totals of the MPI rows.
struct FunctionTime {
  std::string Name;
  std::uint64_t Calls = 0, TotalNs = 0, MaxNs = 0;
};
std::vector<FunctionTime> perFunction(const std::vector<Construct> &Cs) {
  std::map<std::string, FunctionTime> M;
  for (const Construct &C : Cs) {
    if (C.S.K != Kind::Mpi)
      continue;
    FunctionTime &F = M[functionOf(C.S)];
    F.Name = functionOf(C.S);
    F.Calls += C.S.Instances;
    F.TotalNs += C.S.TotalNs;
    F.MaxNs = std::max(F.MaxNs, C.S.MaxNs);
  }
  std::vector<FunctionTime> V;
  for (auto &[N, F] : M)
    V.push_back(F);
  std::stable_sort(V.begin(), V.end(),
                   [](const FunctionTime &A, const FunctionTime &B) {
                     return A.TotalNs > B.TotalNs;
                   });
  return V;
}

/// A matrix as text: rank x rank when there are few ranks, else the pairs
/// that moved most. \p Unit names what a cell counts besides bytes
/// ("messages", "operations").
void printMatrix(const std::vector<CommCell> &Cells, std::size_t N,
                 const char *Unit, std::ostream &OS) {
  if (N <= 16) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, const CommCell *> At;
    for (const CommCell &C : Cells)
      At[{C.From, C.To}] = &C;
    char B[64];
    OS << "  from\\to";
    for (std::size_t T = 0; T < N; ++T) {
      std::snprintf(B, sizeof B, " %14zu", T);
      OS << B;
    }
    OS << "\n";
    for (std::size_t F = 0; F < N; ++F) {
      std::snprintf(B, sizeof B, "  %7zu", F);
      OS << B;
      for (std::size_t T = 0; T < N; ++T) {
        auto It = At.find({std::uint32_t(F), std::uint32_t(T)});
        std::string Cell =
            It == At.end() ? "-"
                           : std::to_string(It->second->Bytes) + " (" +
                                 std::to_string(It->second->Messages) + ")";
        std::snprintf(B, sizeof B, " %14s", Cell.c_str());
        OS << B;
      }
      OS << "\n";
    }
    return;
  }
  std::vector<const CommCell *> Order;
  for (const CommCell &C : Cells)
    Order.push_back(&C);
  std::stable_sort(Order.begin(), Order.end(),
                   [](const CommCell *A, const CommCell *B) {
                     return A->Bytes > B->Bytes;
                   });
  constexpr std::size_t Shown = 20;
  for (std::size_t I = 0; I < Order.size() && I < Shown; ++I)
    OS << "  rank " << Order[I]->From << " -> rank " << Order[I]->To << ": "
       << Order[I]->Bytes << " bytes (" << Order[I]->Messages << " " << Unit
       << ")\n";
  if (Order.size() > Shown)
    OS << "  ... " << (Order.size() - Shown) << " more pairs\n";
}

/// The job's point-to-point and one-sided matrices (docs/utils.md,
/// "Communication matrix").
void printCommMatrix(const JobInfo &J, std::ostream &OS) {
  auto totals = [](const std::vector<CommCell> &Cells) {
    std::pair<std::uint64_t, std::uint64_t> T{0, 0};
    for (const CommCell &C : Cells) {
      T.first += C.Messages;
      T.second += C.Bytes;
    }
    return T;
  };
  if (!J.Comm.empty()) {
    auto [Msgs, Bytes] = totals(J.Comm);
    OS << "\ncommunication matrix (point to point, matched messages: " << Msgs
       << " messages, " << Bytes
       << " bytes; a cell: bytes sent from the row's rank to the column's, "
          "messages in parentheses):\n";
    printMatrix(J.Comm, J.Ranks.size(), "messages", OS);
  }
  if (!J.OneSided.empty()) {
    auto [Ops, Bytes] = totals(J.OneSided);
    OS << "\none-sided communication matrix (" << Ops << " operations, "
       << Bytes
       << " bytes; a cell: bytes moved from the row's rank's memory to the "
          "column's - Get: target to origin, the others: origin to target - "
          "operations in parentheses):\n";
    printMatrix(J.OneSided, J.Ranks.size(), "operations", OS);
  }
}

void jobJson(const Result &R, const JobInfo &J, std::ostream &OS) {
  RankImbalance Imb = rankImbalance(J.Ranks);
  OS << "{\"dir\":" << jsonString(J.Dir) << ",\"ranks\":[";
  for (std::size_t I = 0; I < J.Ranks.size(); ++I) {
    const RankTime &T = J.Ranks[I];
    OS << (I ? "," : "") << "{\"rank\":" << T.Rank
       << ",\"read\":" << (T.Read ? "true" : "false")
       << ",\"complete\":" << (T.Complete ? "true" : "false");
    if (!T.Read)
      OS << ",\"error\":" << jsonString(T.Note);
    OS << ",\"threads\":" << T.Threads << ",\"busy_ns\":" << T.BusyNs
       << ",\"mpi_ns\":" << T.MpiNs << ",\"wait_ns\":" << T.WaitNs
       << ",\"run_ns\":" << T.runNs() << "}";
  }
  OS << "],\"imbalance\":{\"max_busy_ns\":" << Imb.MaxNs
     << ",\"max_rank\":" << Imb.MaxRank
     << ",\"mean_busy_ns\":" << fmtf("%.0f", Imb.MeanNs)
     << ",\"ratio\":" << fmtf("%.4f", Imb.Ratio)
     << ",\"lost_ns\":" << Imb.LostNs << "},\"messages\":" << J.Messages
     << ",\"unmatched_sends\":" << J.Match.UnmatchedSends
     << ",\"unmatched_receives\":" << J.Match.UnmatchedReceives
     << ",\"collectives\":" << J.Collectives
     << ",\"incomplete_collectives\":" << J.Match.IncompleteCollectives
     << ",\"mpi_ns\":" << R.MpiNs << ",\"untraced_calls\":[";
  for (std::size_t I = 0; I < J.Untraced.size(); ++I)
    OS << (I ? "," : "") << "{\"function\":\""
       << mpi::functionName(J.Untraced[I].first)
       << "\",\"calls\":" << J.Untraced[I].second << "}";
  OS << "],\"comm_matrix\":[";
  for (std::size_t I = 0; I < J.Comm.size(); ++I)
    OS << (I ? "," : "") << "{\"from\":" << J.Comm[I].From
       << ",\"to\":" << J.Comm[I].To << ",\"messages\":" << J.Comm[I].Messages
       << ",\"bytes\":" << J.Comm[I].Bytes << "}";
  OS << "],\"one_sided_matrix\":[";
  for (std::size_t I = 0; I < J.OneSided.size(); ++I)
    OS << (I ? "," : "") << "{\"from\":" << J.OneSided[I].From
       << ",\"to\":" << J.OneSided[I].To
       << ",\"operations\":" << J.OneSided[I].Messages
       << ",\"bytes\":" << J.OneSided[I].Bytes << "}";
  OS << "]}";
}

} // namespace

void untracedLine(
    const std::vector<std::pair<mpi::Function, std::uint64_t>> &Untraced,
    std::ostream &OS) {
  std::uint64_t Total = 0;
  for (const auto &[F, N] : Untraced)
    Total += N;
  if (!Total)
    return;
  OS << "untraced MPI calls: " << Total << " (";
  for (std::size_t I = 0; I < Untraced.size() && I < 5; ++I)
    OS << (I ? ", " : "") << mpi::functionName(Untraced[I].first) << " "
       << Untraced[I].second;
  if (Untraced.size() > 5)
    OS << ", " << Untraced.size() - 5 << " more functions";
  OS << "): counted only; their time is part of the computation around "
        "them\n";
}

namespace {

void jobHeader(const Result &R, const JobInfo &J, std::ostream &OS) {
  char B[512];
  std::size_t Read = 0;
  for (const RankTime &T : J.Ranks)
    Read += T.Read;
  OS << "MPI job: " << J.Ranks.size() << " ranks";
  if (Read != J.Ranks.size())
    OS << " (" << Read << " read)";
  OS << ", " << R.Threads << " threads, run time " << fmtNs(double(R.runNs()))
     << "\n";
  OS << "messages: " << J.Messages << " matched";
  if (J.Match.UnmatchedSends || J.Match.UnmatchedReceives)
    OS << ", " << J.Match.UnmatchedSends << " sends and "
       << J.Match.UnmatchedReceives << " receives unmatched";
  OS << "; collectives: " << J.Collectives;
  if (J.Match.IncompleteCollectives)
    OS << " (" << J.Match.IncompleteCollectives << " incomplete)";
  OS << "\n";
  untracedLine(J.Untraced, OS);
  OS << "\nranks:\n";
  std::snprintf(B, sizeof B, "  %4s %7s %12s %12s %12s %12s\n", "rank",
                "threads", "busy", "mpi", "other wait", "run time");
  OS << B;
  for (const RankTime &T : J.Ranks) {
    if (!T.Read) {
      std::snprintf(B, sizeof B, "  %4u not read: %s\n", T.Rank,
                    T.Note.c_str());
      OS << B;
      continue;
    }
    std::snprintf(B, sizeof B, "  %4u %7u %12s %12s %12s %12s%s\n", T.Rank,
                  T.Threads, fmtNs(double(T.BusyNs)).c_str(),
                  fmtNs(double(T.MpiNs)).c_str(),
                  fmtNs(double(T.WaitNs - std::min(T.WaitNs, T.MpiNs))).c_str(),
                  fmtNs(double(T.runNs())).c_str(),
                  T.Complete ? "" : "  (trace not closed: cut off)");
    OS << B;
  }
  RankImbalance Imb = rankImbalance(J.Ranks);
  std::snprintf(B, sizeof B,
                "load imbalance across ranks (busy time): max %s (rank %u), "
                "mean %s, max/mean %.2f, %s lost\n",
                fmtNs(double(Imb.MaxNs)).c_str(), Imb.MaxRank,
                fmtNs(Imb.MeanNs).c_str(), Imb.Ratio,
                fmtNs(double(Imb.LostNs)).c_str());
  OS << B;
}

/// One-sided, file and neighbourhood bytes per function (nothing if the
/// job has none).
void printTransfers(const JobInfo &J, std::ostream &OS) {
  if (J.Transfers.empty())
    return;
  OS << "\none-sided, file I/O and neighbourhood bytes per function (bytes: "
        "the origin buffer's, the file access's or, to every neighbour, the "
        "send buffer's count x datatype size, summed over the ranks' "
        "calls):\n";
  char B[256];
  std::snprintf(B, sizeof B, "  %-24s %9s %14s\n", "function", "calls",
                "bytes");
  OS << B;
  for (const TransferTotal &T : J.Transfers) {
    std::snprintf(B, sizeof B, "  %-24s %9" PRIu64 " %14" PRIu64 "\n",
                  mpi::functionName(T.Function), T.Calls, T.Bytes);
    OS << B;
  }
}

/// The OpenMP report's JSON, without its newline, to nest in the job's.
template <typename Fn> std::string nested(Fn F) {
  std::ostringstream S;
  F(S);
  std::string T = S.str();
  while (!T.empty() && T.back() == '\n')
    T.pop_back();
  return T;
}

} // namespace

std::vector<std::pair<mpi::Function, std::uint64_t>>
untracedCalls(const JobGraph &M) {
  std::map<mpi::Function, std::uint64_t> Sum;
  for (const Graph &G : M.Ranks)
    for (const auto &[F, N] : G.Mpi.Untraced)
      Sum[F] += N;
  std::vector<std::pair<mpi::Function, std::uint64_t>> Out(Sum.begin(),
                                                           Sum.end());
  std::stable_sort(Out.begin(), Out.end(), [](const auto &A, const auto &B) {
    return A.second > B.second;
  });
  return Out;
}

std::vector<TransferTotal> transferTotals(const JobGraph &M) {
  std::map<mpi::Function, TransferTotal> Sum;
  for (const Graph &G : M.Ranks)
    for (const MpiCall &C : G.Mpi.Calls)
      for (std::uint32_t I = C.FirstOp; I < C.FirstOp + C.OpCount; ++I)
        if (G.Mpi.Ops[I].Kind == EventKind::MpiTransfer) {
          TransferTotal &T = Sum[C.Function];
          T.Function = C.Function;
          ++T.Calls;
          T.Bytes += G.Mpi.Ops[I].Bytes;
        }
  std::vector<TransferTotal> Out;
  for (const auto &[F, T] : Sum)
    Out.push_back(T);
  std::stable_sort(Out.begin(), Out.end(),
                   [](const TransferTotal &A, const TransferTotal &B) {
                     return A.Bytes > B.Bytes;
                   });
  return Out;
}

std::vector<CommCell> commMatrix(const JobGraph &M) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, CommCell> Cells;
  for (const JobMessage &X : M.Messages) {
    if (X.State != JobMessage::Matched)
      continue;
    CommCell &C = Cells[{X.SendRank, X.RecvRank}];
    C.From = X.SendRank;
    C.To = X.RecvRank;
    ++C.Messages;
    C.Bytes += X.Bytes;
  }
  std::vector<CommCell> Out;
  for (const auto &[K, C] : Cells)
    Out.push_back(C);
  return Out;
}

std::vector<CommCell> oneSidedMatrix(const JobGraph &M) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, CommCell> Cells;
  for (const Graph &G : M.Ranks) {
    if (G.Mpi.Rank < 0)
      continue;
    const auto Self = std::uint32_t(G.Mpi.Rank);
    for (const MpiCall &C : G.Mpi.Calls)
      for (std::uint32_t I = C.FirstOp; I < C.FirstOp + C.OpCount; ++I) {
        const MpiOp &Op = G.Mpi.Ops[I];
        if (Op.Kind != EventKind::MpiTransfer || Op.Peer == mpi::NoRank)
          continue;
        const bool Fetch = C.Function == mpi::Function::Get ||
                           C.Function == mpi::Function::Rget;
        const std::uint32_t From = Fetch ? Op.Peer : Self;
        const std::uint32_t To = Fetch ? Self : Op.Peer;
        CommCell &Cell = Cells[{From, To}];
        Cell.From = From;
        Cell.To = To;
        ++Cell.Messages;
        Cell.Bytes += Op.Bytes;
      }
  }
  std::vector<CommCell> Out;
  for (const auto &[K, C] : Cells)
    Out.push_back(C);
  return Out;
}

RankImbalance rankImbalance(const std::vector<RankTime> &Ranks) {
  RankImbalance I;
  std::uint64_t Sum = 0, N = 0;
  for (const RankTime &T : Ranks) {
    if (!T.Read)
      continue;
    Sum += T.BusyNs;
    ++N;
    if (T.BusyNs > I.MaxNs || N == 1) {
      I.MaxNs = T.BusyNs;
      I.MaxRank = T.Rank;
    }
  }
  if (!N)
    return I;
  I.MeanNs = double(Sum) / double(N);
  I.Ratio = I.MeanNs > 0 ? double(I.MaxNs) / I.MeanNs : 0;
  for (const RankTime &T : Ranks)
    if (T.Read)
      I.LostNs += I.MaxNs - T.BusyNs;
  return I;
}

void printJobSummary(const Result &R, const JobInfo &J, const LabelFn &Label,
                     bool Json, std::ostream &OS, std::size_t Top,
                     const std::vector<std::string> &Names) {
  std::vector<Construct> Cs = groupConstructs(R, Label);
  std::vector<FunctionTime> Fns = perFunction(Cs);
  std::vector<const Construct *> Sites;
  for (const Construct &C : Cs)
    if (C.S.K == Kind::Mpi)
      Sites.push_back(&C);
  if (Json) {
    OS << "{\"job\":";
    jobJson(R, J, OS);
    OS << ",\"mpi_functions\":[";
    for (std::size_t I = 0; I < Fns.size(); ++I)
      OS << (I ? "," : "") << "{\"function\":" << jsonString(Fns[I].Name)
         << ",\"calls\":" << Fns[I].Calls << ",\"total_ns\":" << Fns[I].TotalNs
         << ",\"max_ns\":" << Fns[I].MaxNs << "}";
    OS << "],\"mpi_transfers\":[";
    for (std::size_t I = 0; I < J.Transfers.size(); ++I)
      OS << (I ? "," : "") << "{\"function\":\""
         << mpi::functionName(J.Transfers[I].Function)
         << "\",\"calls\":" << J.Transfers[I].Calls
         << ",\"bytes\":" << J.Transfers[I].Bytes << "}";
    OS << "],\"mpi_sites\":[";
    for (std::size_t I = 0; I < Sites.size(); ++I) {
      const Construct &C = *Sites[I];
      OS << (I ? "," : "") << "{\"function\":" << jsonString(functionOf(C.S))
         << ",\"file\":" << jsonString(C.L.File) << ",\"line\":" << C.L.Line
         << ",\"calls\":" << C.S.Instances << ",\"total_ns\":" << C.S.TotalNs
         << ",\"max_ns\":" << C.S.MaxNs << "}";
    }
    OS << "],\"summary\":" << nested([&](std::ostream &S) {
      printSummary(R, Label, true, S, Top, Names);
    }) << "}\n";
    return;
  }
  char B[512];
  jobHeader(R, J, OS);
  OS << "\nMPI time per function (" << fmtNs(double(R.MpiNs)) << " in all):\n";
  std::snprintf(B, sizeof B, "  %-24s %9s %12s %12s %12s %7s\n", "function",
                "calls", "total", "mean", "max", "share");
  OS << B;
  for (const FunctionTime &F : Fns) {
    std::snprintf(
        B, sizeof B, "  %-24s %9" PRIu64 " %12s %12s %12s %6.1f%%\n",
        F.Name.c_str(), F.Calls, fmtNs(double(F.TotalNs)).c_str(),
        fmtNs(F.Calls ? double(F.TotalNs) / double(F.Calls) : 0).c_str(),
        fmtNs(double(F.MaxNs)).c_str(),
        R.MpiNs ? 100.0 * double(F.TotalNs) / double(R.MpiNs) : 0.0);
    OS << B;
  }
  OS << "\nMPI time per call site:\n";
  std::snprintf(B, sizeof B, "  %-24s %-28s %9s %12s %12s\n", "function",
                "where", "calls", "total", "max");
  OS << B;
  std::size_t N = 0;
  for (const Construct *C : Sites) {
    if (Top && N++ >= Top) {
      OS << "  ... " << (Sites.size() - Top) << " more\n";
      break;
    }
    std::snprintf(B, sizeof B, "  %-24s %-28s %9" PRIu64 " %12s %12s\n",
                  functionOf(C->S).c_str(), C->where().c_str(), C->S.Instances,
                  fmtNs(double(C->S.TotalNs)).c_str(),
                  fmtNs(double(C->S.MaxNs)).c_str());
    OS << B;
  }
  printTransfers(J, OS);
  printCommMatrix(J, OS);
  OS << "\nthe job as one program (every rank's rows of a construct "
        "merged):\n";
  printSummary(R, Label, false, OS, Top, Names);
}

std::map<std::uint64_t, std::uint16_t> mpiFunctionsBySite(const Result &R) {
  std::map<std::uint64_t, std::uint16_t> At;
  for (const ConstructStats &S : R.Constructs)
    if (S.K == Kind::Mpi)
      At[S.Code] = S.MpiFunction;
  return At;
}

std::string kindText(Kind K, std::uint16_t MpiFunction) {
  std::string T = kindName(K);
  if (K == Kind::Mpi && MpiFunction)
    T += std::string(" ") + mpi::functionName(mpi::Function(MpiFunction));
  return T;
}

namespace {

/// A step of a job's critical path, in words.
struct JobStep {
  int Rank;
  Kind K;
  SourceLabel L;
  std::uint64_t Ns, Instances;
  std::string Function;
  std::string Name; // its tasks' otter_task_label, if any
};

std::string where(const JobStep &S) {
  return S.K == Kind::Initial && S.L.Line == 0 ? std::string("(program)")
                                               : sourceText(S.L);
}

/// printJobParallelism's path in text: condensed as a process's
/// (printParallelism), with the rank of each step and "->" where the path
/// crosses to another rank; at most Top rows (0: all).
void printJobPathText(const Result &R, const LabelFn &Label,
                      const std::vector<JobStep> &Path, std::size_t Crossings,
                      std::size_t Top, bool FullPath, std::ostream &OS) {
  char B[512];
  int PrevRank = -1;
  auto row = [&](const JobStep &S, const char *Indent) {
    bool Cross = S.Rank != PrevRank && PrevRank >= 0;
    std::string Rank = S.Rank >= 0 ? std::string(Cross ? "-> " : "") +
                                         "rank " + std::to_string(S.Rank)
                                   : "";
    PrevRank = S.Rank;
    std::snprintf(B, sizeof B, "  %s%-11s %-16s %-28s %12s", Indent,
                  Rank.c_str(), kindName(S.K), where(S).c_str(),
                  fmtNs(double(S.Ns)).c_str());
    OS << B;
    if (!S.Function.empty())
      OS << "  " << S.Function;
    if (S.Instances > 1)
      OS << "  (" << S.Instances << " tasks)";
    if (!S.Name.empty())
      OS << "  [" << S.Name << "]";
    OS << "\n";
  };
  std::vector<PathBlock> Blocks = pathBlocks(R, Label, FullPath);
  OS << "\ncritical path (" << Path.size() << " steps, crossing ranks "
     << Crossings << " times" << condensedNote(Blocks, Path.size()) << "):\n";
  printPathBlocks(Path, Blocks, Top, 58, row, OS);
}

} // namespace

void printJobParallelism(const Result &R, const JobInfo &J,
                         const LabelFn &Label, bool Json, std::ostream &OS,
                         std::size_t Top,
                         const std::vector<std::string> &Names,
                         bool FullPath) {
  // MPI function per call site, for the path's MPI steps.
  std::map<std::uint64_t, std::uint16_t> FunctionAt = mpiFunctionsBySite(R);
  // The path's profile per call path (path_profile.h), over the ranks read.
  std::vector<std::uint32_t> RankThreads;
  for (const RankTime &T : J.Ranks)
    RankThreads.push_back(T.Read ? std::max<std::uint32_t>(T.Threads, 1) : 0);
  JobPathProfile Profile = jobPathProfile(R, RankThreads, Label);
  std::vector<JobStep> Path;
  std::size_t Crossings = 0;
  for (const PathStep &P : R.CriticalPath) {
    SourceLabel L = codeAddress(P.Code) ? Label(P.Code) : SourceLabel{};
    std::string F;
    if (P.K == Kind::Mpi)
      F = mpi::functionName(mpi::Function(FunctionAt[P.Code]));
    if (!Path.empty() && Path.back().Rank != codeRank(P.Code))
      ++Crossings;
    Path.push_back({codeRank(P.Code), P.K, L, P.Ns, P.Instances, F,
                    P.Label ? nameText(Names, P.Label) : std::string()});
  }
  if (Json) {
    OS << "{\"job\":";
    jobJson(R, J, OS);
    OS << ",\"work_ns\":" << R.WorkNs << ",\"span_ns\":" << R.SpanNs
       << ",\"parallelism\":" << fmtf("%.4f", R.parallelism())
       << ",\"burdened_parallelism\":" << fmtf("%.4f", R.burdenedParallelism())
       << ",\"rank_crossings\":" << Crossings << ",\"critical_path\":[";
    for (std::size_t I = 0; I < Path.size(); ++I) {
      const JobStep &S = Path[I];
      OS << (I ? "," : "") << "{\"rank\":" << S.Rank
         << ",\"kind\":" << jsonString(kindName(S.K))
         << ",\"file\":" << jsonString(S.L.File) << ",\"line\":" << S.L.Line
         << ",\"ns\":" << S.Ns << ",\"tasks\":" << S.Instances;
      if (S.K == Kind::Mpi)
        OS << ",\"function\":" << jsonString(S.Function);
      if (!S.Name.empty())
        OS << ",\"label\":" << jsonString(S.Name);
      OS << "}";
    }
    OS << "],\"critical_path_profile\":";
    printPathProfileJson(Profile, OS);
    OS << ",\"parallelism_report\":" << nested([&](std::ostream &S) {
      printParallelism(R, Label, true, S, Top, Names);
    }) << "}\n";
    return;
  }
  jobHeader(R, J, OS);
  OS << "\n";
  char B[512];
  OS << "work                  " << fmtNs(double(R.WorkNs)) << "\n";
  OS << "span                  " << fmtNs(double(R.SpanNs)) << "\n";
  std::snprintf(B, sizeof B, "parallelism           %.2f\n", R.parallelism());
  OS << B;
  std::snprintf(B, sizeof B,
                "burdened parallelism  %.2f  (span + %" PRIu64
                " tasks on the path x %s creation+scheduling)\n",
                R.burdenedParallelism(), R.PathTasks,
                fmtNs(R.burdenNs()).c_str());
  OS << B;
  printJobPathText(R, Label, Path, Crossings, Top, FullPath, OS);
  printPathProfileText(Profile, Top, OS);
  for (const std::string &W : R.Warnings)
    OS << "warning: " << W << "\n";
}

void printJobDiagnose(const Result &R, const JobInfo &J, const LabelFn &Label,
                      const std::vector<Finding> &MpiFindings, bool Json,
                      std::ostream &OS, const std::vector<std::string> &Names) {
  std::vector<Finding> F = diagnose(R, Label, Names);
  F.insert(F.end(), MpiFindings.begin(), MpiFindings.end());
  std::stable_sort(F.begin(), F.end(), [](const Finding &A, const Finding &B) {
    return A.LostNs > B.LostNs;
  });
  if (Json) {
    OS << "{\"job\":";
    jobJson(R, J, OS);
    OS << ",\"diagnose\":" << nested([&](std::ostream &S) {
      printFindings(R, F, true, S);
    }) << "}\n";
    return;
  }
  jobHeader(R, J, OS);
  OS << "\n";
  printFindings(R, F, false, OS);
}

} // namespace otter::analysis
