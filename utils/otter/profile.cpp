//===- otter/profile.cpp - User-model paths, the profile, its printers ----===//
//
// profile.h: a symbolized stack into its user-model call path, the samples
// into per-construct and per-function time, and the three outputs of
// `otter profile` (the tables, folded stacks, JSON). Every column is
// defined in the header line the table prints and in docs/sampling.md.
//
//===----------------------------------------------------------------------===//
#include "profile.h"

#include "report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace otter::profile {

bool isOutlined(const std::string &Function, bool &Task) {
  Task = Function.find("omp_task_entry") != std::string::npos;
  return Task || Function.find("omp_outlined") != std::string::npos;
}

namespace {

std::string baseName(const std::string &Path) {
  std::size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

/// A function's definition, "file:line" (the file's last component).
std::string definition(const SymFrame &F) {
  if (F.StartLine && !F.StartFile.empty())
    return baseName(F.StartFile) + ":" + std::to_string(F.StartLine);
  if (!F.File.empty())
    return baseName(F.File);
  return {};
}

} // namespace

std::vector<PathFrame> userPath(
    const std::vector<SymFrame> &Stack,
    const std::function<std::string(const std::string &, const std::string &,
                                    std::uint32_t)> &Label,
    const std::string &Current) {
  std::vector<PathFrame> Out;
  // SeenUser: a frame of the program kept (system frames before it start
  // the program or a thread); InRuntime: the last frame was the runtime's
  // (system frames it calls are its own); InOutlined: the last frame kept
  // is a construct (outlined pieces of it that follow are the same one).
  bool SeenUser = false, InRuntime = false, InOutlined = false;
  for (auto It = Stack.rbegin(); It != Stack.rend(); ++It) {
    const SymFrame &F = *It;
    if (F.From == Origin::Runtime) {
      InRuntime = true;
      InOutlined = false;
      continue;
    }
    if (F.From == Origin::System && (InRuntime || !SeenUser))
      continue;
    if (F.Function == "_start" ||
        (F.Function.empty() && (!SeenUser || F.From == Origin::System)))
      continue; // nameless system frames tell nothing
    const bool CalledByRuntime = InRuntime;
    InRuntime = false;
    SeenUser = true;
    bool Task = false;
    if (CalledByRuntime && !isOutlined(F.Function, Task) &&
        F.Function.rfind(".omp", 0) != 0 && F.Function.rfind("omp.", 0) != 0)
      Out.push_back({TailCallLabel, "", true}); // not a reduction function
    if (isOutlined(F.Function, Task)) {
      if (InOutlined)
        continue;
      InOutlined = true;
      const std::string &File = F.StartFile.empty() ? F.File : F.StartFile;
      Out.push_back({Label(Task ? "task" : "parallel", File,
                           F.StartLine ? F.StartLine : F.Line),
                     "", true});
      continue;
    }
    InOutlined = false;
    Out.push_back(
        {F.Function.empty() ? "??" : F.Function, definition(F), false});
  }
  if (!Current.empty())
    for (auto It = Out.rbegin(); It != Out.rend(); ++It)
      if (It->Construct) {
        if (It->Name == TailCallLabel)
          It->Name = Current;
        break;
      }
  return Out;
}

std::string runtimeLabel(StateClass C) {
  return std::string("[") + stateClassName(C) + "]";
}

namespace {

using Key = std::pair<std::string, std::string>; // name, location

void charge(std::map<Key, Row> &Rows, const Key &K, std::uint64_t Ns,
            StateClass C, bool Exclusive) {
  Row &R = Rows[K];
  R.Name = K.first;
  R.Location = K.second;
  R.InclusiveNs += Ns;
  R.ByClass[unsigned(C)] += Ns;
  if (Exclusive)
    R.ExclusiveNs += Ns;
}

/// A frame's name in a folded stack: ';' separates frames there.
std::string foldedName(const std::string &Name) {
  std::string S = Name;
  std::replace(S.begin(), S.end(), ';', ':');
  return S;
}

std::vector<Row> sorted(std::map<Key, Row> &Rows, bool ByExclusive) {
  std::vector<Row> V;
  for (auto &KV : Rows) {
    KV.second.Name = KV.first.first;
    KV.second.Location = KV.first.second;
    V.push_back(std::move(KV.second));
  }
  std::sort(V.begin(), V.end(), [&](const Row &A, const Row &B) {
    if (ByExclusive && A.ExclusiveNs != B.ExclusiveNs)
      return A.ExclusiveNs > B.ExclusiveNs;
    if (A.InclusiveNs != B.InclusiveNs)
      return A.InclusiveNs > B.InclusiveNs;
    return std::tie(A.Name, A.Location) < std::tie(B.Name, B.Location);
  });
  return V;
}

} // namespace

namespace {

/// Charges Ns of blame to every construct and function on P's path, once
/// each (a path without a construct: serial code).
void blame(const PathSample &P, std::uint64_t Ns,
           std::map<Key, Row> &Constructs, std::map<Key, Row> &Functions) {
  std::set<Key> Done;
  bool AnyConstruct = false;
  for (const PathFrame &F : P.Frames) {
    const Key K{F.Name, F.Construct ? std::string() : F.Location};
    AnyConstruct |= F.Construct;
    if (Done.insert(K).second)
      (F.Construct ? Constructs : Functions)[K].BlamedNs += Ns;
  }
  if (!AnyConstruct)
    Constructs[{SerialLabel, ""}].BlamedNs += Ns;
}

/// One thread's samples by time.
using Timeline = std::vector<std::pair<std::uint64_t, const PathSample *>>;

/// The window of samples that may be to blame for wait sample S: its
/// periods and one more on each side.
std::pair<std::uint64_t, std::uint64_t> window(const PathSample &S,
                                               std::uint64_t PeriodNs) {
  const std::uint64_t Before = (S.Weight + 1) * PeriodNs;
  return {S.TimeNs > Before ? S.TimeNs - Before : 0, S.TimeNs + PeriodNs};
}

/// Thread U's sample nearest in time to S within S's window, or null. A
/// sample of weight W > 1 stands for the W - 1 periods before it too (a
/// thread off the CPU gets one sample for the ticks it missed, and it was
/// where the sample finds it), so the distance is to that span, and the
/// first sample after the window counts if its span reaches into it.
const PathSample *nearest(const PathSample &S, const Timeline &U,
                          std::uint64_t PeriodNs) {
  const auto [From, To] = window(S, PeriodNs);
  auto It = std::lower_bound(U.begin(), U.end(),
                             std::make_pair(From, (const PathSample *)nullptr));
  const PathSample *Best = nullptr;
  std::uint64_t BestDistance = 0;
  for (; It != U.end(); ++It) {
    const PathSample &C = *It->second;
    const std::uint64_t Span = C.Weight > 1 ? (C.Weight - 1) * PeriodNs : 0;
    const std::uint64_t Start = C.TimeNs > Span ? C.TimeNs - Span : 0;
    if (C.TimeNs > To && Start > To)
      break;
    const std::uint64_t D = C.TimeNs < S.TimeNs ? S.TimeNs - C.TimeNs
                            : Start > S.TimeNs  ? Start - S.TimeNs
                                                : 0;
    if (!Best || D < BestDistance) {
      Best = &C;
      BestDistance = D;
    }
    if (C.TimeNs > To)
      break; // the first after the window, reaching into it
  }
  return Best;
}

/// The primary thread's sample whose code is to blame for idle sample S,
/// or null (profile.h, aggregate). Primary: thread 0's samples, by time.
const PathSample *culprit(const PathSample &S, const Timeline &Primary,
                          std::uint64_t PeriodNs) {
  const PathSample *Best = nearest(S, Primary, PeriodNs);
  if (!Best || Best->Frames.empty() || Best->Class != StateClass::Work)
    return nullptr;
  // A worker at a region's barrier waits for the primary's serial code
  // only once the region is over: the primary outside every construct.
  if (S.Class == StateClass::Barrier)
    for (const PathFrame &F : Best->Frames)
      if (F.Construct)
        return nullptr;
  return Best;
}

/// Whether sample C, of another thread, is to blame for a wait of class
/// Kind: working, with a path holding a construct (barrier: a late
/// arriver still in the region), a task construct (taskwait: an awaited
/// task) or any path (lock: the holder).
bool culpritFor(StateClass Kind, const PathSample &C) {
  if (C.Class != StateClass::Work || C.Frames.empty())
    return false;
  if (Kind == StateClass::Lock)
    return true;
  for (const PathFrame &F : C.Frames)
    if (F.Construct &&
        (Kind == StateClass::Barrier || F.Name.rfind("task", 0) == 0))
      return true;
  return false;
}

/// Blame shifting (profile.h, aggregate): the workers' idle samples on
/// the primary thread's code, the other waits on the other threads'.
void shiftBlame(const std::vector<PathSample> &Samples, std::uint64_t PeriodNs,
                Profile &P, std::map<Key, Row> &Constructs,
                std::map<Key, Row> &Functions) {
  std::map<unsigned, Timeline> ByThread;
  for (const PathSample &S : Samples)
    ByThread[S.Thread].push_back({S.TimeNs, &S});
  for (auto &KV : ByThread)
    std::sort(KV.second.begin(), KV.second.end());
  const Timeline &Primary = ByThread[0];
  for (const PathSample &S : Samples) {
    const std::uint64_t Ns = S.Weight * PeriodNs;
    if (S.Thread != 0 &&
        (S.Class == StateClass::Idle ||
         (S.Class == StateClass::Barrier && S.Frames.empty()))) {
      // A worker at a barrier with no frame of its own is idle if the
      // primary thread runs serial code; otherwise it waits in a region.
      const PathSample *C = culprit(S, Primary, PeriodNs);
      if (C || S.Class == StateClass::Idle) {
        P.IdleNs += Ns;
        if (C) {
          P.BlamedNs += Ns;
          blame(*C, Ns, Constructs, Functions);
        }
        continue;
      }
    }
    if (S.Class != StateClass::Barrier && S.Class != StateClass::Lock &&
        S.Class != StateClass::Taskwait)
      continue;
    P.WaitNs[unsigned(S.Class)] += Ns;
    std::vector<const PathSample *> Culprits;
    for (const auto &[Thread, U] : ByThread)
      if (Thread != S.Thread)
        if (const PathSample *C = nearest(S, U, PeriodNs);
            C && culpritFor(S.Class, *C))
          Culprits.push_back(C);
    if (Culprits.empty())
      continue;
    P.WaitBlamedNs[unsigned(S.Class)] += Ns;
    // Split evenly; the remainder (under one ns per culprit) to the first.
    const std::uint64_t Share = Ns / Culprits.size();
    for (std::size_t I = 0; I < Culprits.size(); ++I)
      blame(*Culprits[I], I ? Share : Ns - Share * (Culprits.size() - 1),
            Constructs, Functions);
  }
}

} // namespace

void merge(Profile &Into, const Profile &From) {
  if (!Into.Ranks && !Into.Samples) {
    Into = From;
    Into.Ranks = 1;
    return;
  }
  Into.Samples += From.Samples;
  Into.TotalNs += From.TotalNs;
  Into.Threads += From.Threads;
  Into.IdleNs += From.IdleNs;
  Into.MpiNs += From.MpiNs;
  Into.BlamedNs += From.BlamedNs;
  for (unsigned C = 0; C < StateClassCount; ++C) {
    Into.ByClass[C] += From.ByClass[C];
    Into.WaitNs[C] += From.WaitNs[C];
    Into.WaitBlamedNs[C] += From.WaitBlamedNs[C];
  }
  auto mergeRows = [](std::vector<Row> &To, const std::vector<Row> &Add,
                      bool ByExclusive) {
    std::map<Key, Row> Rows;
    for (const std::vector<Row> *V : {&std::as_const(To), &Add})
      for (const Row &R : *V) {
        Row &X = Rows[{R.Name, R.Location}];
        X.InclusiveNs += R.InclusiveNs;
        X.ExclusiveNs += R.ExclusiveNs;
        X.BlamedNs += R.BlamedNs;
        for (unsigned C = 0; C < StateClassCount; ++C)
          X.ByClass[C] += R.ByClass[C];
      }
    To = sorted(Rows, ByExclusive);
  };
  mergeRows(Into.Constructs, From.Constructs, false);
  mergeRows(Into.Functions, From.Functions, true);
  std::map<std::string, std::uint64_t> Folded(Into.Folded.begin(),
                                              Into.Folded.end());
  for (const auto &[Stack, Count] : From.Folded)
    Folded[Stack] += Count;
  Into.Folded.assign(Folded.begin(), Folded.end());
  Into.ConstructNames.insert(From.ConstructNames.begin(),
                             From.ConstructNames.end());
  ++Into.Ranks;
}

Profile aggregate(const std::vector<PathSample> &Samples,
                  std::uint64_t PeriodNs) {
  Profile P;
  P.PeriodNs = PeriodNs;
  P.Samples = Samples.size();
  std::map<Key, Row> Constructs, Functions;
  std::map<std::string, std::uint64_t> Folded;
  std::set<unsigned> Threads;
  for (const PathSample &S : Samples) {
    const std::uint64_t Ns = S.Weight * PeriodNs;
    P.TotalNs += Ns;
    P.ByClass[unsigned(S.Class)] += Ns;
    Threads.insert(S.Thread);
    const std::vector<PathFrame> &F = S.Frames;
    if (std::any_of(F.begin(), F.end(), [](const PathFrame &X) {
          return !X.Construct &&
                 (X.Name.rfind("MPI_", 0) == 0 || X.Name.rfind("mpi_", 0) == 0);
        }))
      P.MpiNs += Ns;
    // Constructs: each one on the path once (recursive tasks), the
    // innermost exclusive; a path without any: serial code, or the
    // runtime's own time when the path is empty.
    std::size_t Inner = F.size();
    for (std::size_t I = 0; I < F.size(); ++I)
      if (F[I].Construct)
        Inner = I;
    if (Inner == F.size()) {
      charge(Constructs,
             {F.empty() ? runtimeLabel(S.Class) : SerialLabel, std::string()},
             Ns, S.Class, true);
    } else {
      std::set<std::string> Charged;
      for (std::size_t I = 0; I <= Inner; ++I)
        if (F[I].Construct && Charged.insert(F[I].Name).second)
          charge(Constructs, {F[I].Name, ""}, Ns, S.Class, false);
      Constructs[{F[Inner].Name, ""}].ExclusiveNs += Ns;
    }
    // Functions: each once on the path, the innermost frame exclusive.
    std::set<Key> Charged;
    for (std::size_t I = 0; I < F.size(); ++I)
      if (!F[I].Construct) {
        const Key K{F[I].Name, F[I].Location};
        const bool Leaf = I + 1 == F.size();
        if (Charged.insert(K).second)
          charge(Functions, K, Ns, S.Class, Leaf);
        else if (Leaf)
          Functions[K].ExclusiveNs += Ns;
      }
    std::string Stack;
    for (const PathFrame &Fr : F) {
      Stack += (Stack.empty() ? "" : ";") + foldedName(Fr.Name);
      if (Fr.Construct)
        P.ConstructNames.insert(foldedName(Fr.Name));
    }
    if (Stack.empty())
      Stack = runtimeLabel(S.Class);
    Folded[Stack] += S.Weight;
  }
  shiftBlame(Samples, PeriodNs, P, Constructs, Functions);
  P.Threads = unsigned(Threads.size());
  P.Constructs = sorted(Constructs, false);
  P.Functions = sorted(Functions, true);
  P.Folded.assign(Folded.begin(), Folded.end());
  return P;
}

namespace {

std::string decimals(const char *Format, double X) {
  char B[32];
  std::snprintf(B, sizeof B, Format, X);
  return B;
}

std::string ms(std::uint64_t Ns) { return decimals("%.1f", double(Ns) / 1e6); }

std::string column(const std::string &S, int Width) {
  return S.size() >= std::size_t(Width)
             ? " " + S
             : std::string(std::size_t(Width) - S.size(), ' ') + S;
}

void printRows(const std::vector<Row> &Rows, std::size_t Top, const char *What,
               std::ostream &OS) {
  OS << column("incl_ms", 9) << column("excl_ms", 9) << column("blamed", 9);
  for (unsigned C = 0; C < StateClassCount; ++C)
    OS << column(stateClassName(StateClass(C)), 9);
  OS << "  " << What << "\n";
  std::size_t N = 0;
  for (const Row &R : Rows) {
    if (Top && N++ == Top) {
      OS << "  (" << Rows.size() - Top << " more rows: --top 0 lists all)\n";
      break;
    }
    OS << column(ms(R.InclusiveNs), 9) << column(ms(R.ExclusiveNs), 9)
       << column(ms(R.BlamedNs), 9);
    for (unsigned C = 0; C < StateClassCount; ++C)
      OS << column(ms(R.ByClass[C]), 9);
    OS << "  " << R.Name;
    if (!R.Location.empty())
      OS << " (" << R.Location << ")";
    OS << "\n";
  }
}

void jsonClasses(const ClassNs &C, std::ostream &OS) {
  OS << "{";
  for (unsigned I = 0; I < StateClassCount; ++I)
    OS << (I ? "," : "") << "\"" << stateClassName(StateClass(I))
       << "\":" << C[I];
  OS << "}";
}

void jsonRows(const std::vector<Row> &Rows, std::ostream &OS) {
  OS << "[";
  for (std::size_t I = 0; I < Rows.size(); ++I) {
    const Row &R = Rows[I];
    OS << (I ? "," : "") << "{\"name\":" << analysis::jsonString(R.Name)
       << ",\"location\":" << analysis::jsonString(R.Location)
       << ",\"inclusive_ns\":" << R.InclusiveNs
       << ",\"exclusive_ns\":" << R.ExclusiveNs
       << ",\"blamed_ns\":" << R.BlamedNs << ",\"classes\":";
    jsonClasses(R.ByClass, OS);
    OS << "}";
  }
  OS << "]";
}

} // namespace

std::string coarseSamplesNote(const Profile &P) {
  const double W = P.periodsPerSample();
  if (W < CoarsePeriodsPerSample)
    return "";
  return "note: the kernel delivered one tick for every " +
         decimals("%.1f", W) +
         " timer periods asked: CPU-clock timers are checked at the "
         "kernel's scheduler tick (CONFIG_HZ) and, on a loaded machine, "
         "less often. A sample carries the periods it stands for, but rows "
         "of few samples are coarse and the periods a thread had not yet "
         "been ticked for when it ended are lost; OTTER_SAMPLE_CLOCK=wall "
         "keeps ticks coming\n";
}

void printTable(const Profile &P, std::size_t Top, std::ostream &OS) {
  OS << "samples: " << P.Samples << " of " << P.Threads << " threads"
     << (P.Ranks ? " of " + std::to_string(P.Ranks) + " ranks" : "") << ", "
     << ms(P.PeriodNs * 1000) << " us per timer period, "
     << decimals("%.1f", P.periodsPerSample()) << " periods per sample, "
     << ms(P.TotalNs) << " ms sampled:";
  for (unsigned C = 0; C < StateClassCount; ++C)
    if (P.ByClass[C])
      OS << " " << stateClassName(StateClass(C)) << " " << ms(P.ByClass[C])
         << " ms";
  OS << "\n";
  if (P.MpiNs)
    OS << "in MPI calls: " << ms(P.MpiNs)
       << " ms (the samples whose path holds an MPI function; OpenMP has no "
          "MPI state: they count in the state of the code around the "
          "call)\n";
  OS << coarseSamplesNote(P)
     << "columns: incl_ms = time (ms: timer periods x period) of the samples "
        "whose path holds the row; excl_ms = of those where it is the "
        "innermost (construct: no construct inside it; function: the "
        "frame that ran); blamed = other threads' idle or waiting "
        "time charged to it (blame lines below); work .. other = incl_ms "
        "split by the thread's OpenMP state class\n";
  if (P.IdleNs)
    OS << "blame: " << ms(P.BlamedNs) << " of the workers' " << ms(P.IdleNs)
       << " ms idle (or at a barrier outside their code) blamed on what "
          "the primary thread ran then\n";
  for (const auto &[C, Whom] :
       {std::pair{StateClass::Barrier, "the late arrivers' work"},
        std::pair{StateClass::Lock, "the holders' code"},
        std::pair{StateClass::Taskwait, "the awaited tasks' code"}})
    if (P.WaitNs[unsigned(C)])
      OS << "blame: " << ms(P.WaitBlamedNs[unsigned(C)]) << " of "
         << ms(P.WaitNs[unsigned(C)]) << " ms " << stateClassName(C)
         << " waiting blamed on " << Whom
         << " (other threads' samples meanwhile)\n";
  OS << "\nper construct (runtime frames removed; [class]: samples wholly "
        "in the OpenMP runtime):\n";
  printRows(P.Constructs, Top, "construct", OS);
  OS << "\nper function (definition file:line):\n";
  printRows(P.Functions, Top, "function", OS);
}

void printFolded(const Profile &P, std::ostream &OS) {
  for (const auto &[Stack, Count] : P.Folded)
    OS << Stack << " " << Count << "\n";
}

void printJson(const Profile &P, std::ostream &OS) {
  OS << "{\"samples\":" << P.Samples << ",\"threads\":" << P.Threads;
  if (P.Ranks)
    OS << ",\"ranks\":" << P.Ranks;
  OS << ",\"period_ns\":" << P.PeriodNs << ",\"total_ns\":" << P.TotalNs
     << ",\"periods_per_sample\":" << decimals("%.3f", P.periodsPerSample())
     << ",\"mpi_ns\":" << P.MpiNs << ",\"idle_ns\":" << P.IdleNs
     << ",\"blamed_ns\":" << P.BlamedNs << ",\"classes\":";
  jsonClasses(P.ByClass, OS);
  OS << ",\"waits\":{";
  unsigned N = 0;
  for (StateClass C :
       {StateClass::Barrier, StateClass::Lock, StateClass::Taskwait})
    OS << (N++ ? "," : "") << "\"" << stateClassName(C)
       << "\":{\"ns\":" << P.WaitNs[unsigned(C)]
       << ",\"blamed_ns\":" << P.WaitBlamedNs[unsigned(C)] << "}";
  OS << "}";
  OS << ",\"constructs\":";
  jsonRows(P.Constructs, OS);
  OS << ",\"functions\":";
  jsonRows(P.Functions, OS);
  OS << "}\n";
}

} // namespace otter::profile
