//===- otter/commands_estimate.cpp - `otter estimate`: trace size ahead ---===//
//
// `otter estimate DIR`, like scorep-score: from a traced run (even a short
// or filtered one: the event counts per construct come from its trace; a
// run sampled alone has none), the events and bytes of each source
// construct, the trace's size and OTTER's recording time predicted for a
// run --scale times longer, and with --max-size a filter file
// (docs/filter.md) that leaves out the functions whose constructs make the
// most events until the prediction fits. docs/utils.md, "otter estimate".
//
//===----------------------------------------------------------------------===//
#include "commands.h"
#include "input.h"
#include "report.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <iostream>
#include <map>
#include <sys/stat.h>
#include <unordered_map>

namespace otter::cli {

namespace {

/// docs/performance.md: recording costs ~0.10 us and ~990 instructions
/// per task over a tool that does nothing, a task being about four events.
constexpr double DocNsPerEvent = 25, DocInstructionsPerEvent = 250;

struct Row {
  std::string Construct, Function; // Function: "" when no rule can name it
  std::uint64_t Events = 0;
};

/// The bytes of the files in Dir and below: Evt those of the event files
/// (*.evt), Rest the others (definitions, anchor).
void archiveBytes(const std::string &Dir, std::uint64_t &Evt,
                  std::uint64_t &Rest) {
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return;
  while (dirent *E = readdir(D)) {
    const std::string Name = E->d_name;
    if (Name == "." || Name == ".." || Name == ".checkpoint")
      continue;
    const std::string Path = Dir + "/" + Name;
    struct stat St;
    if (stat(Path.c_str(), &St) != 0)
      continue;
    if (S_ISDIR(St.st_mode))
      archiveBytes(Path, Evt, Rest);
    else if (Name.size() > 4 && Name.compare(Name.size() - 4, 4, ".evt") == 0)
      Evt += std::uint64_t(St.st_size);
    else
      Rest += std::uint64_t(St.st_size);
  }
  closedir(D);
}

/// A size: bytes with an optional K, M, G or T suffix (as
/// OTTER_MAX_TRACE_SIZE).
bool parseBytes(std::string T, std::uint64_t &Out) {
  unsigned Shift = 0;
  if (!T.empty() && std::string("KkMmGgTt").find(T.back()) != std::string::npos) {
    Shift = 10 * (1 + unsigned(std::string("KMGT").find(char(std::toupper(T.back())))));
    T.pop_back();
  }
  if (T.empty() || T.size() > 15 ||
      T.find_first_not_of("0123456789") != std::string::npos)
    return false;
  Out = std::strtoull(T.c_str(), nullptr, 10) << Shift;
  return true;
}

/// A function name as a filter glob: a pattern has no spaces, and *, ?
/// and [ are glob characters (each stands for itself in brackets).
std::string globOf(const std::string &Name) {
  std::string G;
  for (char C : Name)
    if (C == ' ')
      G += '?';
    else if (C == '*' || C == '?' || C == '[')
      G += std::string("[") + C + "]";
    else
      G += C;
  return G;
}

std::string mb(double Bytes) {
  char B[32];
  std::snprintf(B, sizeof B, "%.3f", Bytes / 1e6);
  return B;
}

void printText(const Options &O, const std::vector<Row> &Sorted,
               std::uint64_t Total, double Scale, double PerEvent,
               std::uint64_t EvtBytes, std::uint64_t DefBytes, double Ns,
               bool Measured, double Predicted, double CostS, double Seconds,
               std::size_t Threads) {
  std::cout << "otter estimate " << O.Inputs[0] << ": the traced run x "
            << Scale << " (--scale)\n"
            << "bytes per event: " << mb(PerEvent * 1e6) << " (the archive's "
            << EvtBytes << " bytes of event files / " << Total
            << " events; samples, if any, included); definitions "
            << DefBytes << " bytes (not scaled)\n"
            << "cost per event: " << Ns << " ns ("
            << (Measured ? "measured by the run at its start, OTTER's "
                           "calibration"
                         : "docs/performance.md: ~0.10 us per task of ~4 "
                           "events")
            << "), ~" << DocInstructionsPerEvent
            << " instructions (docs/performance.md: ~990 per task)\n";
  char Line[512];
  std::snprintf(Line, sizeof Line,
                "predicted: %.0f events, %s MB, recording %.3f s over %zu "
                "threads (%.2f %% of their %.3f s)\n",
                double(Total) * Scale, mb(Predicted).c_str(), CostS, Threads,
                Seconds > 0 ? 100 * CostS / (Seconds * double(Threads)) : 0.0,
                Seconds);
  std::cout << Line << "\n   events    share       MB  construct (function)\n";
  std::size_t Shown = 0;
  for (const Row &R : Sorted) {
    if (O.Top && Shown++ == O.Top)
      break;
    std::snprintf(Line, sizeof Line, "%9.0f %7.2f %% %8s  %s%s%s%s\n",
                  double(R.Events) * Scale,
                  100.0 * double(R.Events) / double(Total),
                  mb(double(R.Events) * PerEvent * Scale).c_str(),
                  R.Construct.c_str(), R.Function.empty() ? "" : " (",
                  R.Function.c_str(), R.Function.empty() ? "" : ")");
    std::cout << Line;
  }
}

void printJson(const std::vector<Row> &Sorted, std::uint64_t Total,
               double Scale, double PerEvent, std::uint64_t EvtBytes,
               std::uint64_t DefBytes, double Ns, bool Measured,
               double Predicted, double CostS, double Seconds,
               std::size_t Threads, const std::string &File, double Left,
               const std::vector<std::string> &Excluded) {
  auto num = [](double X) {
    char B[64];
    std::snprintf(B, sizeof B, "%.6g", X);
    return std::string(B);
  };
  std::cout << "{\"scale\":" << num(Scale) << ",\"events\":" << Total
            << ",\"event_bytes\":" << EvtBytes
            << ",\"definition_bytes\":" << DefBytes
            << ",\"bytes_per_event\":" << num(PerEvent)
            << ",\"ns_per_event\":" << num(Ns) << ",\"ns_source\":"
            << (Measured ? "\"measured\"" : "\"docs/performance.md\"")
            << ",\"instructions_per_event\":" << num(DocInstructionsPerEvent)
            << ",\"predicted_events\":" << num(double(Total) * Scale)
            << ",\"predicted_bytes\":" << num(Predicted)
            << ",\"predicted_recording_s\":" << num(CostS)
            << ",\"predicted_run_s\":" << num(Seconds)
            << ",\"threads\":" << Threads << ",\"constructs\":[";
  for (std::size_t I = 0; I < Sorted.size(); ++I)
    std::cout << (I ? "," : "") << "{\"construct\":"
              << analysis::jsonString(Sorted[I].Construct)
              << ",\"function\":" << analysis::jsonString(Sorted[I].Function)
              << ",\"events\":" << num(double(Sorted[I].Events) * Scale)
              << ",\"share\":"
              << num(double(Sorted[I].Events) / double(Total)) << ",\"bytes\":"
              << num(double(Sorted[I].Events) * PerEvent * Scale) << "}";
  std::cout << "]";
  if (!File.empty()) {
    std::cout << ",\"filter\":{\"file\":" << analysis::jsonString(File)
              << ",\"predicted_bytes\":" << num(Left) << ",\"excluded\":[";
    for (std::size_t I = 0; I < Excluded.size(); ++I)
      std::cout << (I ? "," : "") << analysis::jsonString(Excluded[I]);
    std::cout << "]}";
  }
  std::cout << "}\n";
}

} // namespace

int cmdEstimate(const Options &O) {
  if (int S = oneArchive(O.Inputs.size()); S >= 0)
    return S;
  double Scale = 1;
  if (!O.Scale.empty()) {
    char *End = nullptr;
    Scale = std::strtod(O.Scale.c_str(), &End);
    if (!End || *End || !(Scale > 0))
      return usage("otter estimate: --scale needs a number above 0, not '" +
                   O.Scale + "'");
  }
  std::uint64_t MaxSize = 0;
  if (!O.MaxSize.empty() && (!parseBytes(O.MaxSize, MaxSize) || !MaxSize))
    return usage("otter estimate: --max-size needs a size (bytes, with K, M, "
                 "G or T), not '" + O.MaxSize + "'");
  ArchiveInput In;
  std::string Error;
  if (!openArchive(In, O.Inputs[0], Error, /*NoteFilter=*/true))
    return fail(Error + " (otter estimate needs a trace of the run, even a "
                        "short or filtered one: a run sampled alone has no "
                        "event counts)");
  // A task switch has no code address of its own: it is counted with the
  // task it starts or resumes (else the one it leaves), known by the
  // construct that created it (a first pass).
  std::unordered_map<std::uint64_t, std::uint64_t> TaskCode;
  auto Creates = [&](std::uint32_t, const Event *E, std::size_t N) {
    for (std::size_t I = 0; I < N; ++I)
      if (E[I].Kind == EventKind::TaskCreate)
        TaskCode[E[I].A] = E[I].Code;
  };
  if (!In.streamRaw(Creates, Error))
    return fail(Error);
  auto codeOf = [&](const Event &E) {
    if (E.Code || E.Kind != EventKind::TaskSchedule)
      return E.Code;
    for (std::uint64_t T : {E.A, E.Task})
      if (auto It = TaskCode.find(T); It != TaskCode.end())
        return It->second;
    return std::uint64_t(0);
  };
  std::map<std::uint64_t, std::uint64_t> PerCode;
  std::uint64_t Total = 0, First = ~0ull, Last = 0;
  auto Count = [&](std::uint32_t, const Event *E, std::size_t N) {
    for (std::size_t I = 0; I < N; ++I) {
      ++PerCode[codeOf(E[I])];
      First = std::min<std::uint64_t>(First, E[I].Time);
      Last = std::max<std::uint64_t>(Last, E[I].Time);
    }
    Total += N;
  };
  if (!In.streamRaw(Count, Error))
    return fail(Error);
  if (!Total)
    return fail("no events in " + In.path());
  std::map<std::string, Row> Rows;
  for (const auto &[Code, N] : PerCode) {
    const SourceLabel L = Code ? In.label(Code) : SourceLabel{};
    std::string Name =
        !Code ? std::string("(no construct: threads, implicit tasks, ...)")
        : !L.File.empty()
            ? (L.Directive.empty() ? std::string("construct") : L.Directive) +
                  " " + L.File.substr(L.File.rfind('/') + 1) + ":" +
                  std::to_string(L.Line)
            : "~" + L.Location;
    Row &R = Rows[Name];
    R.Construct = Name;
    // Function rules need the plugin's labels (docs/filter.md).
    if (L.Quality == LabelQuality::Exact)
      R.Function = L.Function;
    R.Events += N;
  }
  std::vector<Row> Sorted;
  for (auto &[K, R] : Rows)
    Sorted.push_back(R);
  std::sort(Sorted.begin(), Sorted.end(), [](const Row &A, const Row &B) {
    return A.Events != B.Events ? A.Events > B.Events
                                : A.Construct < B.Construct;
  });
  std::string Anchor = In.path();
  while (Anchor.size() > 1 && Anchor.back() == '/')
    Anchor.pop_back();
  std::string TraceDir = Anchor;
  if (TraceDir.size() > 5 &&
      TraceDir.compare(TraceDir.size() - 5, 5, ".otf2") == 0)
    TraceDir = TraceDir.substr(0, TraceDir.rfind('/'));
  else if (struct stat St; stat((TraceDir + "/trace").c_str(), &St) == 0)
    TraceDir += "/trace";
  std::uint64_t EvtBytes = 0, DefBytes = 0;
  archiveBytes(TraceDir, EvtBytes, DefBytes);
  const double PerEvent = double(EvtBytes) / double(Total);
  const std::uint64_t Measured = In.recordingCostNs();
  const double Ns = Measured ? double(Measured) : DocNsPerEvent;
  const double Predicted = double(DefBytes) + double(EvtBytes) * Scale;
  const double Seconds = double(Last - First) / 1e9 * Scale;
  const double CostS = double(Total) * Scale * Ns / 1e9;
  const std::size_t Threads = std::max<std::size_t>(1, In.threads());
  // --max-size: the functions by the events of their constructs, the most
  // first, left out one by one until the prediction fits.
  double Left = Predicted;
  std::string Rules, File;
  std::vector<std::string> Excluded;
  if (MaxSize) {
    std::map<std::string, std::uint64_t> PerFunction;
    for (const Row &R : Sorted)
      if (!R.Function.empty())
        PerFunction[R.Function] += R.Events;
    std::vector<std::pair<std::string, std::uint64_t>> Fns(
        PerFunction.begin(), PerFunction.end());
    std::sort(Fns.begin(), Fns.end(), [](const auto &A, const auto &B) {
      return A.second != B.second ? A.second > B.second : A.first < B.first;
    });
    for (const auto &[F, N] : Fns) {
      if (Left <= double(MaxSize))
        break;
      Left -= double(N) * PerEvent * Scale;
      Excluded.push_back(F);
      Rules += "exclude function " + globOf(F) + "  # " +
               std::to_string(std::uint64_t(double(N) * Scale)) + " events\n";
    }
    File = outputFile(O.Output, "otter.filter");
    if (!writeOutputText(File,
                         "# otter estimate " + O.Inputs[0] + " --max-size " +
                             O.MaxSize + ": predicted " + mb(Left) +
                             " MB with these rules, " + mb(Predicted) +
                             " MB without\n" + Rules,
                         Error))
      return fail(Error);
  }
  if (O.Json)
    printJson(Sorted, Total, Scale, PerEvent, EvtBytes, DefBytes, Ns,
              Measured != 0, Predicted, CostS, Seconds, Threads, File, Left,
              Excluded);
  else
    printText(O, Sorted, Total, Scale, PerEvent, EvtBytes, DefBytes, Ns,
              Measured != 0, Predicted, CostS, Seconds, Threads);
  if (MaxSize && !O.Json)
    std::cout << "\nwrote " << File << ": predicted " << mb(Left)
              << " MB with it (OTTER_FILTER=" << File << ")\n";
  if (MaxSize && Left > double(MaxSize))
    return fail("the trace cannot fit in " + O.MaxSize +
                " by leaving out functions: the rest of its events are in "
                "no function a filter rule can name (threads, implicit "
                "tasks, code built without the plugin)");
  return 0;
}

} // namespace otter::cli
