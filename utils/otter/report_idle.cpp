//===- otter/report_idle.cpp - OpenMP idle threads in the views -----------===//
//
// How `otter summary`, `otter diagnose` and the report tell the idle-threads
// figure (Result::IdleThreadsNs, analysis_idle.cpp): in all, and by what
// the primary thread did meanwhile, in words a user can act on.
//
//===----------------------------------------------------------------------===//
#include "report.h"

#include "otter/mpi.h"

#include <cstdio>

namespace otter::analysis {

namespace {

std::string pct(double X) {
  char B[32];
  std::snprintf(B, sizeof B, "%.0f%%", 100 * X);
  return B;
}

std::string at(const LabelFn &Label, std::uint64_t Code) {
  return Code ? sourceText(Label(Code)) : std::string("?");
}

/// The MPI function called at Code (an MPI row of the result), or "".
std::string mpiFunctionAt(const Result &R, std::uint64_t Code) {
  for (const ConstructStats &S : R.Constructs)
    if (S.K == Kind::Mpi && S.Code == Code)
      return mpi::functionName(mpi::Function(S.MpiFunction));
  return "";
}

/// The share of the idle time Ns is, of the whole idle-threads time.
double shareOf(const Result &R, std::uint64_t Ns) {
  return R.IdleThreadsNs ? double(Ns) / double(R.IdleThreadsNs) : 0;
}

} // namespace

std::string idleCauseText(const Result &R, const IdleCause &C,
                          const LabelFn &Label) {
  const std::string After =
      "after the parallel region at " + at(Label, C.After);
  switch (C.State) {
  case ThreadState::Running:
    if (C.K == Kind::Parallel)
      return "starting the next region, at " + at(Label, C.Code) +
             " (until the thread was woken up)";
    if (C.K == Kind::Initial)
      return "running serial code " + After;
    return "running the " + std::string(kindName(C.K)) + " at " +
           at(Label, C.Code) + ", " + After;
  case ThreadState::Waiting:
    if (C.K == Kind::Mpi) {
      std::string F = mpiFunctionAt(R, C.Code);
      return "in " + (F.empty() ? std::string("an MPI call") : F) + " at " +
             at(Label, C.Code) + ", " + After;
    }
    return "waiting in the " + std::string(kindName(C.K)) + " at " +
           at(Label, C.Code) + ", " + After;
  case ThreadState::Tool:
    return "in OTTER's own work (writing out its buffer), " + After;
  case ThreadState::Idle:
    if (C.K != Kind::Parallel)
      return "done (its initial task had ended: the program was ending), " +
             After;
    break;
  case ThreadState::Scheduling:
    break;
  }
  return "not known (the primary thread had moved on to a later region), " +
         After;
}

void printIdleThreads(const Result &R, const LabelFn &Label, std::ostream &OS) {
  if (!R.IdleThreadsNs)
    return;
  OS << "idle:      " << fmtNs(double(R.IdleThreadsNs))
     << " of the thread time is OpenMP idle threads, in no figure above\n"
        "  (not a barrier's waiting): a team's other threads from its region's "
        "end to the\n  next fork, while the primary thread was\n";
  std::size_t N = 0;
  for (const IdleCause &C : R.IdleCauses) {
    if (N++ == 5) {
      OS << "  ... " << R.IdleCauses.size() - 5 << " more (--json lists all)\n";
      break;
    }
    char B[32];
    std::snprintf(B, sizeof B, "  %5.1f%% ", 100 * shareOf(R, C.Ns));
    OS << B << idleCauseText(R, C, Label) << "\n";
  }
}

void idleThreadsJson(const Result &R, const LabelFn &Label, std::ostream &OS) {
  OS << ",\"idle_threads_ns\":" << R.IdleThreadsNs << ",\"idle_threads\":[";
  bool First = true;
  for (const IdleCause &C : R.IdleCauses) {
    OS << (First ? "" : ",") << "{\"ns\":" << C.Ns
       << ",\"state\":" << jsonString(stateName(C.State))
       << ",\"kind\":" << jsonString(kindName(C.K))
       << ",\"where\":" << jsonString(at(Label, C.Code))
       << ",\"after\":" << jsonString(at(Label, C.After))
       << ",\"text\":" << jsonString(idleCauseText(R, C, Label)) << "}";
    First = false;
  }
  OS << "]";
}

bool addIdleThreads(const Result &R, const LabelFn &Label,
                    std::vector<Finding> &F) {
  const double ThreadTime =
      double(R.runNs()) * std::max<std::uint32_t>(R.Threads, 1);
  if (R.IdleCauses.empty() || double(R.IdleThreadsNs) <= WaitShare * ThreadTime)
    return false;
  const IdleCause &Top = R.IdleCauses.front();
  Finding X;
  X.Check = "idle_threads";
  // Where to change the code: the call the primary thread made, or (serial
  // code, which has no construct) the region it had left.
  const bool AtCall = Top.Code && Top.K != Kind::Initial;
  X.K = AtCall ? Top.K : Kind::Parallel;
  X.Where = at(Label, AtCall ? Top.Code : Top.After);
  X.RegionId = Label(AtCall ? Top.Code : Top.After).RegionId;
  X.LostNs = R.IdleThreadsNs;
  X.Threshold = "OpenMP idle threads > " + pct(WaitShare) +
                " of thread time (" + fmtNs(WaitShare * ThreadTime) + ")";
  std::string Ev = fmtNs(double(R.IdleThreadsNs)) +
                   " of thread time the team's other threads had no work, "
                   "between a region's end and the next fork (" +
                   pct(double(R.IdleThreadsNs) / ThreadTime) +
                   " of thread time), while the primary thread was ";
  for (std::size_t I = 0; I < R.IdleCauses.size() && I < 3; ++I)
    Ev += std::string(I ? "; " : "") +
          idleCauseText(R, R.IdleCauses[I], Label) + " (" +
          pct(shareOf(R, R.IdleCauses[I].Ns)) + ")";
  Ev += ". Not a barrier problem: the threads wait for the next region. ";
  Ev += Top.State == ThreadState::Waiting && Top.K == Kind::Mpi
            ? "Overlap the MPI call with the team's work (start it inside "
              "the region: a task or a masked construct with "
              "MPI_THREAD_FUNNELED/MULTIPLE, or a nonblocking call waited "
              "for later) or give the other threads work meanwhile."
            : "Run that code inside a parallel region (a parallel loop, "
              "tasks) or merge it into the neighbouring regions, so that "
              "the other threads share it.";
  X.Evidence = std::move(Ev);
  F.push_back(std::move(X));
  return true;
}

} // namespace otter::analysis
