//===- core/config.cpp - Runtime settings from the environment -----------===//
#include "core/config.h"
#include "otter/env.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>
#include <sys/statvfs.h>

namespace otter {

namespace {

std::string lower(std::string S) {
  for (char &C : S)
    C = (char)std::tolower((unsigned char)C);
  return S;
}

std::string trim(const std::string &S) {
  std::size_t B = S.find_first_not_of(" \t");
  if (B == std::string::npos)
    return "";
  std::size_t E = S.find_last_not_of(" \t");
  return S.substr(B, E - B + 1);
}

} // namespace

std::string sanitizeJobId(const std::string &Id) {
  std::string Out = Id;
  for (char &C : Out)
    if (!std::isalnum((unsigned char)C) && C != '.' && C != '_' && C != '-')
      C = '_';
  return Out;
}

namespace {
/// Edit distance (insertions, deletions, substitutions), for "did you mean".
std::size_t editDistance(const std::string &A, const std::string &B) {
  std::vector<std::size_t> Row(B.size() + 1);
  for (std::size_t J = 0; J <= B.size(); ++J)
    Row[J] = J;
  for (std::size_t I = 1; I <= A.size(); ++I) {
    std::size_t Diagonal = Row[0];
    Row[0] = I;
    for (std::size_t J = 1; J <= B.size(); ++J) {
      std::size_t Above = Row[J];
      Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1,
                         Diagonal + (A[I - 1] == B[J - 1] ? 0 : 1)});
      Diagonal = Above;
    }
  }
  return Row[B.size()];
}
} // namespace

void warnUnknownVariables(
    char *const *Environment,
    const std::function<void(const std::string &)> &Warn) {
  for (char *const *E = Environment; E && *E; ++E) {
    std::string Name(*E, std::strcspn(*E, "="));
    if (Name.rfind("OTTER_", 0) != 0)
      continue;
    auto Known = [&](const auto &List) {
      return std::find(std::begin(List), std::end(List), Name) !=
             std::end(List);
    };
    if (Known(env::RuntimeVariables) || Known(env::ToolVariables))
      continue;
    std::string Nearest;
    std::size_t Best = 4; // farther than 3 edits is no typo of it
    for (const char *Candidate : env::RuntimeVariables)
      if (std::size_t D = editDistance(Name, Candidate); D < Best) {
        Best = D;
        Nearest = Candidate;
      }
    Warn(Name + " is not a variable OTTER reads" +
         (Nearest.empty() ? "" : " (did you mean " + Nearest + "?)") +
         "; ignored (README.md lists the variables)");
  }
}

bool parseSize(const std::string &Text, std::uint64_t &Out) {
  std::string T = trim(Text);
  unsigned Shift = 0;
  if (!T.empty() && !std::isdigit((unsigned char)T.back())) {
    switch (std::toupper((unsigned char)T.back())) {
    case 'K': Shift = 10; break;
    case 'M': Shift = 20; break;
    case 'G': Shift = 30; break;
    case 'T': Shift = 40; break;
    default: return false;
    }
    T.pop_back();
  }
  if (T.empty() || T.size() > 19 ||
      !std::all_of(T.begin(), T.end(),
                   [](unsigned char C) { return std::isdigit(C); }))
    return false;
  std::uint64_t N = std::stoull(T);
  if (Shift && N > (~0ull >> Shift))
    return false;
  Out = N << Shift;
  return true;
}

std::uint64_t defaultMaxTraceBytes(const std::string &Dir) {
  struct statvfs S;
  if (::statvfs(Dir.c_str(), &S) != 0 || !S.f_frsize)
    return MaxTraceFixedBytes;
  const std::uint64_t Half = std::uint64_t(S.f_bavail) * S.f_frsize / 2;
  return std::min(MaxTraceFixedBytes, Half);
}

bool parseSeconds(const std::string &Text, std::uint64_t &Ns) {
  const std::string T = trim(Text);
  std::uint64_t Whole = 0, Frac = 0, Scale = 1000000000ull;
  std::size_t I = 0;
  for (; I < T.size() && T[I] >= '0' && T[I] <= '9'; ++I) {
    Whole = Whole * 10 + std::uint64_t(T[I] - '0');
    if (Whole > MaxFlushIntervalNs / 1000000000ull)
      return false;
  }
  const std::size_t Digits = I;
  std::size_t FracDigits = 0;
  if (I < T.size() && T[I] == '.')
    for (++I; I < T.size() && T[I] >= '0' && T[I] <= '9'; ++I, ++FracDigits)
      if (Scale > 1) { // digits past the nanosecond are ignored
        Scale /= 10;
        Frac += std::uint64_t(T[I] - '0') * Scale;
      }
  if (I != T.size() || Digits + FracDigits == 0)
    return false;
  const std::uint64_t V = Whole * 1000000000ull + Frac;
  if (V > MaxFlushIntervalNs)
    return false;
  Ns = V;
  return true;
}

bool parseBool(const std::string &Text, bool &Out) {
  std::string T = lower(trim(Text));
  if (T == "1" || T == "true" || T == "yes" || T == "on") {
    Out = true;
    return true;
  }
  if (T == "0" || T == "false" || T == "no" || T == "off") {
    Out = false;
    return true;
  }
  return false;
}

namespace {
/// OTTER_SAMPLE, OTTER_SAMPLE_CLOCK, OTTER_SAMPLE_SIGNAL.
void readSampling(const std::function<const char *(const char *)> &Getenv,
                  const std::function<void(const std::string &)> &Warn,
                  Config &C) {
  auto whole = [](const char *V, long Lo, long Hi, long &Out) {
    char *End = nullptr;
    errno = 0;
    long N = std::strtol(V, &End, 10);
    if (End == V || *End != '\0' || errno || N < Lo || N > Hi)
      return false;
    Out = N;
    return true;
  };
  long N = 0;
  if (const char *V = Getenv(env::Sample)) {
    if (whole(V, 0, MaxSampleHz, N))
      C.SampleHz = unsigned(N);
    else
      Warn(std::string(env::Sample) + "='" + V +
           "' is not valid (use samples per second per thread, 0 to " +
           std::to_string(MaxSampleHz) + ", 0 for none); not sampling");
  }
  if (const char *V = Getenv(env::SampleClock)) {
    std::string S = lower(trim(V));
    if (S == "wall" || S == "cpu")
      C.SampleWall = S == "wall";
    else
      Warn(std::string(env::SampleClock) + "='" + V +
           "' is not valid (use cpu or wall); using cpu");
  }
  if (const char *V = Getenv(env::SampleSignal)) {
    const std::string S = lower(trim(V));
    if (S == "urg" || S == "sigurg")
      C.SampleSignal = SampleSignalUrgent;
    else if (whole(V, 0, MaxSampleSignal, N))
      C.SampleSignal = int(N);
    else
      Warn(std::string(env::SampleSignal) + "='" + V +
           "' is not valid (use urg for SIGURG, or N for the real-time "
           "signal SIGRTMIN+N, 0 to " +
           std::to_string(MaxSampleSignal) + "); using " +
           sampleSignalName(C.SampleSignal));
  }
}
} // namespace

Config readConfig(const std::function<const char *(const char *)> &Getenv,
                  const std::function<void(const std::string &)> &Warn,
                  const std::string &ProgramName, long Pid, long ParentPid) {
  Config C;
  auto boolean = [&](const char *Name, bool &Field) {
    const char *V = Getenv(Name);
    if (!V)
      return;
    if (!parseBool(V, Field))
      Warn(std::string(Name) + "='" + V +
           "' is not valid (use 1 or 0; true/false, yes/no and on/off, in "
           "any case, also work); using the default " +
           (Field ? "1" : "0"));
  };
  boolean(env::Trace, C.Trace);
  boolean(env::Verbose, C.Verbose);
  boolean(env::SampleCsv, C.SampleCsv);
  boolean(env::Symbolize, C.Symbolize);
  if (const char *V = Getenv(env::Symbolizer); V && *V)
    C.Symbolizer = V;
  if (const char *V = Getenv(env::Start)) {
    std::string S = lower(trim(V)); // any case, as the booleans
    if (S == "paused")
      C.StartPaused = true;
    else if (S != "recording")
      Warn(std::string(env::Start) + "='" + V +
           "' is not valid (use paused or recording); using recording");
  }

  if (const char *V = Getenv(env::Filter)) {
    if (*V)
      C.FilterFile = V;
    else
      Warn(std::string(env::Filter) +
           " is empty (give the path of a filter file); not filtering");
  }

  if (const char *V = Getenv(env::GraphFormat)) {
    GraphFormats F;
    std::string Bad;
    if (parseGraphFormats(V, /*AllowNone=*/true, F, Bad))
      C.Formats = F;
    else
      Warn(std::string(env::GraphFormat) + "='" + V + "' is not valid" +
           (Bad.empty() ? "" : " ('" + Bad + "' is unknown)") +
           " (use a comma list of " + graphFormatNames(true) +
           "); using the default dot,csv");
  }

  // Node-count limits of the graph files (graph/outputs.h).
  auto nodeLimit = [&](const char *Name, std::size_t &Field,
                       std::size_t Default) {
    const char *V = Getenv(Name);
    if (!V)
      return;
    char *End = nullptr;
    errno = 0;
    long long N = std::strtoll(V, &End, 10);
    if (End == V || *End != '\0' || errno || N < 0)
      Warn(std::string(Name) + "='" + V +
           "' is not valid (use a whole number of nodes, 0 for no limit); "
           "using the default " +
           std::to_string(Default));
    else
      Field = (std::size_t)N;
  };
  nodeLimit(env::DotMaxNodes, C.Formats.DotMaxNodes,
            GraphFormats::DefaultDotMaxNodes);
  nodeLimit(env::CsvZstdNodes, C.Formats.CsvZstdNodes,
            GraphFormats::DefaultCsvZstdNodes);
  nodeLimit(env::CsvZstdEdges, C.Formats.CsvZstdEdges,
            GraphFormats::DefaultCsvZstdEdges);

  if (const char *V = Getenv(env::BufferEvents)) {
    char *End = nullptr;
    errno = 0;
    long long N = std::strtoll(V, &End, 10);
    if (End == V || *End != '\0' || errno || N < 1024 || N > (1 << 24))
      Warn(std::string(env::BufferEvents) + "='" + V +
           "' is not valid (use a whole number from 1024 to 16777216); "
           "using the default " +
           std::to_string(C.BufferEvents));
    else
      C.BufferEvents = (std::size_t)N;
  }

  if (const char *V = Getenv(env::MaxTraceSize)) {
    if (parseSize(V, C.MaxTraceBytes))
      C.MaxTraceSet = true;
    else
      Warn(std::string(env::MaxTraceSize) + "='" + V +
           "' is not valid (use bytes with an optional K, M, G or T suffix, "
           "0 for no limit); using the default (the smaller of 10G and half "
           "the free disk space)");
  }

  if (const char *V = Getenv(env::FlushInterval))
    if (!parseSeconds(V, C.FlushIntervalNs))
      Warn(std::string(env::FlushInterval) + "='" + V +
           "' is not valid (use seconds, e.g. 5 or 0.5, up to 86400; 0 to "
           "flush only full buffers); using the default 5");

  readSampling(Getenv, Warn, C);

  // A rank of an MPI job: the launcher says so before MPI_Init (libomp
  // starts the tool before main).
  auto number = [&](const char *const *Names, std::size_t N, int &Out) {
    for (std::size_t I = 0; I < N; ++I)
      if (const char *V = Getenv(Names[I])) {
        char *End = nullptr;
        errno = 0;
        long X = std::strtol(V, &End, 10);
        if (End != V && *End == '\0' && !errno && X >= 0 && X < (1L << 30)) {
          Out = int(X);
          return;
        }
      }
  };
  number(env::RankVariables, std::size(env::RankVariables), C.Rank);
  if (C.Rank >= 0)
    number(env::SizeVariables, std::size(env::SizeVariables), C.WorldSize);

  const char *Dir = Getenv(env::OutputDir);
  if (Dir && *Dir)
    C.OutputDir = Dir;
  else {
    if (Dir)
      Warn(std::string(env::OutputDir) +
           " is empty (give a directory path); using the default");
    std::string Id = std::to_string(Pid);
    if (C.Rank >= 0) {
      // Every rank must choose the same directory.
      Id = "job" + std::to_string(ParentPid);
      for (const char *Name : env::JobIdVariables)
        if (const char *V = Getenv(Name); V && *V) {
          Id = "job" + sanitizeJobId(V);
          break;
        }
    }
    C.OutputDir = "otter-" + ProgramName + "-" + Id;
  }
  if (C.Rank >= 0) {
    C.JobDir = C.OutputDir;
    C.OutputDir += "/rank-" + std::to_string(C.Rank);
  }
  return C;
}

int sampleSignalNumber(int Setting) {
  return Setting < 0 ? SIGURG : SIGRTMIN + Setting;
}

std::string sampleSignalName(int Setting) {
  return Setting < 0 ? "SIGURG" : "SIGRTMIN+" + std::to_string(Setting);
}

} // namespace otter
