//===- otter/commands_profile.cpp - `otter profile`: read, symbolize ------===//
//
// `otter profile DIR`: the samples of a run (DIR/samples.csv, its
// modules.csv and sampling.csv, docs/sampling.md; without samples.csv, the
// samples in DIR/trace, trace/sample_reader.h) symbolized after the run
// -- one llvm-symbolizer process for every distinct address, in batch;
// each address first turned into its module's ELF address through the
// module's PT_LOAD headers -- and labelled with the plugin's site table
// (the .note.otter directive records of each module on disk), then
// aggregated and printed by profile.h.
//
//===----------------------------------------------------------------------===//
#include "commands.h"
#include "job_input.h"
#include "profile.h"

#include "otter/sample_states.h"
#include "otter/site_table.h"
#include "trace/sample_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <elf.h>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace otter::cli {

namespace {

using profile::Origin;
using profile::SymFrame;

/// One executable mapping of the process (modules.csv).
struct Module {
  std::uint64_t Start = 0, End = 0, Offset = 0;
  std::string Path;
  Origin From = Origin::User;
  // The module's PT_LOAD segments: file offset, size, address.
  std::vector<std::array<std::uint64_t, 3>> Loads;
};

std::vector<std::string> splitCsv(const std::string &Line, std::size_t Max) {
  std::vector<std::string> F;
  std::size_t Pos = 0;
  while (F.size() + 1 < Max) {
    std::size_t Comma = Line.find(',', Pos);
    if (Comma == std::string::npos)
      break;
    F.push_back(Line.substr(Pos, Comma - Pos));
    Pos = Comma + 1;
  }
  F.push_back(Line.substr(Pos));
  return F;
}

Origin originOf(const std::string &Path) {
  const std::string Base = Path.substr(Path.rfind('/') + 1);
  for (const char *R :
       {"libomp.", "libiomp5.", "libgomp.", "libotter.", "libotter-mpi."})
    if (Base.rfind(R, 0) == 0)
      return Origin::Runtime;
  for (const char *S : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "["})
    if (Path.rfind(S, 0) == 0)
      return Origin::System;
  return Origin::User;
}

/// Frames of OTTER's MPI wrapper library: its entry points (MPI_Send,
/// mpi_send_, ... : the functions the program called) are the MPI
/// library's calls in a path, without OTTER's source file; the rest is
/// OTTER's own code, removed as the runtime's.
void wrapperFrames(const Module &M, std::vector<SymFrame> &Frames) {
  if (M.Path.substr(M.Path.rfind('/') + 1).rfind("libotter-mpi.", 0) != 0)
    return;
  for (SymFrame &F : Frames) {
    if (F.Function.rfind("MPI_", 0) != 0 && F.Function.rfind("mpi_", 0) != 0)
      continue;
    F.From = Origin::System;
    F.File.clear();
    F.StartFile.clear();
    F.Line = F.StartLine = 0;
  }
}

/// The site table's directives: line -> (file as written, kind).
using SiteLines =
    std::map<std::uint32_t, std::vector<std::pair<std::string, std::string>>>;

/// The ELF file's PT_LOAD segments, and its site table's directives
/// (Sites: file as written, line -> kind).
void readElf(Module &M, SiteLines &Sites) {
  std::ifstream In(M.Path, std::ios::binary);
  Elf64_Ehdr E;
  if (!In.read(reinterpret_cast<char *>(&E), sizeof E) ||
      std::memcmp(E.e_ident, ELFMAG, SELFMAG) != 0 ||
      E.e_ident[EI_CLASS] != ELFCLASS64)
    return;
  for (unsigned I = 0; I < E.e_phnum; ++I) {
    Elf64_Phdr P;
    In.seekg(std::streamoff(E.e_phoff + I * std::uint64_t(E.e_phentsize)));
    if (!In.read(reinterpret_cast<char *>(&P), sizeof P))
      return;
    if (P.p_type == PT_LOAD)
      M.Loads.push_back({P.p_offset, P.p_filesz, P.p_vaddr});
  }
  if (M.From != Origin::User)
    return;
  for (unsigned I = 0; I < E.e_shnum; ++I) {
    Elf64_Shdr S;
    In.seekg(std::streamoff(E.e_shoff + I * std::uint64_t(E.e_shentsize)));
    if (!In.read(reinterpret_cast<char *>(&S), sizeof S))
      return;
    if (S.sh_type != SHT_NOTE || S.sh_size > (64u << 20))
      continue;
    std::vector<unsigned char> Data(S.sh_size);
    In.seekg(std::streamoff(S.sh_offset));
    if (!In.read(reinterpret_cast<char *>(Data.data()),
                 std::streamsize(Data.size())))
      continue;
    namespace st = site_table;
    st::forEachNote(
        Data.data(), Data.size(), S.sh_addralign, [&](const st::NoteView &N) {
          st::DirectiveView D;
          if (N.IsOtter && st::noteVersion(N.Type) == st::Version &&
              st::noteKind(N.Type) == st::DirectiveKind &&
              st::decodeDirective(N, D))
            Sites[D.Line].push_back({std::string(D.File), std::string(D.Kind)});
        });
  }
}

/// A JSON string's value starting at S[Pos] (the opening quote); Pos
/// after it. Enough for llvm-symbolizer's output.
std::string jsonValue(const std::string &S, std::size_t &Pos) {
  std::string V;
  for (++Pos; Pos < S.size() && S[Pos] != '"'; ++Pos) {
    if (S[Pos] == '\\' && Pos + 1 < S.size()) {
      ++Pos;
      if (S[Pos] == 'u' && Pos + 4 < S.size()) {
        V += char(std::strtol(S.substr(Pos + 1, 4).c_str(), nullptr, 16));
        Pos += 4;
        continue;
      }
      V += S[Pos] == 'n' ? '\n' : S[Pos] == 't' ? '\t' : S[Pos];
      continue;
    }
    V += S[Pos];
  }
  ++Pos;
  return V;
}

/// The frames of one llvm-symbolizer JSON answer (one line), innermost
/// inlined frame first.
std::vector<SymFrame> parseAnswer(const std::string &Line, Origin From) {
  std::vector<SymFrame> Out;
  std::size_t Pos = Line.find("\"Symbol\":[");
  if (Pos == std::string::npos)
    return Out;
  Pos += 10;
  SymFrame F;
  F.From = From;
  std::string Key;
  while (Pos < Line.size() && Line[Pos] != ']') {
    const char C = Line[Pos];
    if (C == '{') {
      F = SymFrame();
      F.From = From;
      ++Pos;
    } else if (C == '}') {
      Out.push_back(F);
      ++Pos;
    } else if (C == '"') {
      Key = jsonValue(Line, Pos);
      if (Pos < Line.size() && Line[Pos] == ':')
        ++Pos;
      if (Pos < Line.size() && Line[Pos] == '"') {
        std::string V = jsonValue(Line, Pos);
        if (Key == "FunctionName")
          F.Function = V;
        else if (Key == "FileName")
          F.File = V;
        else if (Key == "StartFileName")
          F.StartFile = V;
      } else {
        std::size_t End = Line.find_first_of(",}", Pos);
        const std::uint32_t N =
            std::uint32_t(std::strtoul(Line.c_str() + Pos, nullptr, 10));
        if (Key == "Line")
          F.Line = N;
        else if (Key == "StartLine")
          F.StartLine = N;
        Pos = End == std::string::npos ? Line.size() : End;
      }
    } else {
      ++Pos;
    }
  }
  if (Out.size() == 1 && Out[0].Function.empty() && Out[0].File.empty())
    Out[0].Function.clear(); // unknown: kept as one nameless frame
  return Out;
}

/// The symbolizer: OTTER_SYMBOLIZER or llvm-symbolizer-19.
std::string symbolizerTool() {
  if (const char *T = std::getenv("OTTER_SYMBOLIZER"); T && *T)
    return T;
  return "llvm-symbolizer-19";
}

struct Sampled {
  unsigned Thread = 0;
  std::uint64_t TimeNs = 0, Weight = 1;
  StateClass Class = StateClass::Work;
  bool RuntimeSkipped = false; // samples.csv's runtime_skipped
  /// samples.csv's region (0: not known) and region_kind.
  std::uint64_t Region = 0;
  std::string RegionKind;
  std::vector<std::uint64_t> Stack;
};

bool readSamples(const std::string &Path, std::vector<Sampled> &Out,
                 std::string &Error) {
  std::ifstream In(Path);
  std::string Line;
  if (!In || !std::getline(In, Line) || Line.rfind("thread,time_ns,", 0)) {
    Error = "cannot read " + Path + " (samples.csv of a run with OTTER_SAMPLE)";
    return false;
  }
  // Since the region columns (before the stack): 14 columns.
  const std::size_t Columns =
      Line.find(",region,region_kind,") != std::string::npos ? 14 : 12;
  while (std::getline(In, Line)) {
    const std::vector<std::string> F = splitCsv(Line, Columns);
    if (F.size() != Columns)
      continue;
    Sampled S;
    S.Thread = unsigned(std::strtoul(F[0].c_str(), nullptr, 10));
    S.TimeNs = std::strtoull(F[1].c_str(), nullptr, 10);
    if (!stateClassNamed(F[3], S.Class))
      S.Class = StateClass::Other;
    S.RuntimeSkipped = F[10] == "1";
    S.Weight =
        std::max<std::uint64_t>(1, std::strtoull(F[8].c_str(), nullptr, 10));
    if (Columns == 14) {
      S.Region = std::strtoull(F[11].c_str(), nullptr, 16);
      S.RegionKind = F[12];
    }
    std::stringstream SS(F[Columns - 1]);
    for (std::string A; std::getline(SS, A, ';');)
      S.Stack.push_back(std::strtoull(A.c_str(), nullptr, 16));
    Out.push_back(std::move(S));
  }
  return true;
}

/// The samples OTTER_SAMPLE wrote into the trace (samples.csv absent):
/// the same rows, the rate from the archive (0: not said).
bool readArchiveSamples(const std::string &Anchor, std::vector<Sampled> &Out,
                        unsigned &Hz, std::string &Error) {
  std::vector<trace::ArchiveSample> In;
  if (!trace::readArchiveSamples(Anchor, In, Hz, Error))
    return false;
  for (trace::ArchiveSample &A : In) {
    Sampled S;
    S.Thread = A.Thread;
    S.TimeNs = A.TimeNs;
    S.Weight = std::max<std::uint64_t>(1, A.Weight);
    S.Class = stateClassOf(A.State);
    S.RuntimeSkipped = (A.Flags & 2) != 0; // SampleRuntimeSkipped
    S.Region = A.Region;
    if (A.Region) // SampleRegionImplicit: a region's, else a task's
      S.RegionKind = (A.Flags & 4) ? "parallel" : "task";
    S.Stack = std::move(A.Stack);
    Out.push_back(std::move(S));
  }
  return true;
}

/// The run's output directory, given it or its archive (DIR/trace,
/// DIR/trace/traces.otf2), which the other commands take.
std::string samplesDir(std::string Path) {
  while (Path.size() > 1 && Path.back() == '/')
    Path.pop_back();
  auto Parent = [](const std::string &P) {
    const std::size_t Slash = P.rfind('/');
    return Slash == std::string::npos ? std::string(".") : P.substr(0, Slash);
  };
  auto EndsWith = [&](const std::string &Tail) {
    return Path.size() >= Tail.size() &&
           Path.compare(Path.size() - Tail.size(), Tail.size(), Tail) == 0;
  };
  if (EndsWith(".otf2"))
    Path = Parent(Path);
  if (access((Path + "/samples.csv").c_str(), F_OK) != 0 &&
      (Path == "trace" || EndsWith("/trace")))
    Path = Parent(Path);
  return Path;
}

/// sampling.csv's rate (Hz); 0 if it is missing.
unsigned readRate(const std::string &Path) {
  std::ifstream In(Path);
  std::string Header, Line;
  if (!std::getline(In, Header) || !std::getline(In, Line))
    return 0;
  return unsigned(std::strtoul(Line.c_str(), nullptr, 10));
}

/// modules.csv's mappings, sorted by address, with their ELF segments;
/// the site table's directives of the program's own modules.
void readModules(const std::string &Path, std::vector<Module> &Modules,
                 SiteLines &Sites) {
  std::ifstream In(Path);
  std::string Line;
  std::getline(In, Line);
  std::map<std::string, std::size_t> Read;
  while (std::getline(In, Line)) {
    const std::vector<std::string> F = splitCsv(Line, 4);
    if (F.size() != 4)
      continue;
    Module M;
    M.Start = std::strtoull(F[0].c_str(), nullptr, 16);
    M.End = std::strtoull(F[1].c_str(), nullptr, 16);
    M.Offset = std::strtoull(F[2].c_str(), nullptr, 16);
    M.Path = F[3];
    M.From = originOf(M.Path);
    if (auto It = Read.find(M.Path); It != Read.end())
      M.Loads = Modules[It->second].Loads;
    else if (M.Path.empty() || M.Path[0] != '[')
      readElf(M, Sites);
    Read[M.Path] = Modules.size();
    Modules.push_back(std::move(M));
  }
  std::sort(Modules.begin(), Modules.end(),
            [](const Module &A, const Module &B) { return A.Start < B.Start; });
}

/// Symbols: every stack's addresses (a return address one byte before
/// it: the call), each with its frames, innermost inlined first.
bool symbolize(const std::vector<Sampled> &Samples,
               const std::vector<Module> &Modules,
               std::map<std::uint64_t, std::vector<SymFrame>> &Symbols,
               std::string &Error) {
  // Every distinct (address, leaf) once: a return address is looked up
  // one byte before it (the call), the interrupted instruction as it is.
  for (const Sampled &S : Samples) {
    for (std::size_t I = 0; I < S.Stack.size(); ++I)
      Symbols[S.Stack[I] - (I ? 1 : 0)];
    if (S.Region) // the construct's runtime call: its directive's line
      Symbols[S.Region - 1];
  }
  char TmpName[] = "/tmp/otter-profile-XXXXXX";
  const int Fd = mkstemp(TmpName);
  if (Fd < 0) {
    Error = "cannot make a temporary file for the symbolizer";
    return false;
  }
  std::vector<std::pair<std::uint64_t, const Module *>> Asked;
  {
    std::ofstream Q(TmpName);
    for (auto &[Addr, Frames] : Symbols) {
      auto It = std::upper_bound(
          Modules.begin(), Modules.end(), Addr,
          [](std::uint64_t A, const Module &M) { return A < M.Start; });
      const Module *M = It == Modules.begin() || Addr >= std::prev(It)->End
                            ? nullptr
                            : &*std::prev(It);
      if (!M || M->Loads.empty()) {
        Frames.push_back(
            SymFrame{"", "", 0, "", 0, M ? M->From : Origin::System});
        continue;
      }
      const std::uint64_t FileOff = Addr - M->Start + M->Offset;
      std::uint64_t Vaddr = FileOff;
      for (const auto &L : M->Loads)
        if (FileOff >= L[0] && FileOff < L[0] + L[1])
          Vaddr = FileOff - L[0] + L[2];
      Q << "\"" << M->Path << "\" 0x" << std::hex << Vaddr << std::dec << "\n";
      Asked.push_back({Addr, M});
    }
  }
  close(Fd);
  const std::string Cmd =
      symbolizerTool() + " --output-style=JSON < " + TmpName + " 2>/dev/null";
  if (std::FILE *P = popen(Cmd.c_str(), "r")) {
    std::string Line;
    std::size_t N = 0;
    char Buf[65536];
    while (std::fgets(Buf, sizeof Buf, P)) {
      Line += Buf;
      if (Line.empty() || Line.back() != '\n')
        continue;
      if (N < Asked.size()) {
        std::vector<SymFrame> &F = Symbols[Asked[N].first];
        F = parseAnswer(Line, Asked[N].second->From);
        wrapperFrames(*Asked[N].second, F);
        ++N;
      }
      Line.clear();
    }
    pclose(P);
    if (N < Asked.size())
      std::cerr << "otter: warning: " << symbolizerTool() << " answered " << N
                << " of " << Asked.size()
                << " addresses: the others are unknown frames\n";
  }
  unlink(TmpName);
  for (std::size_t I = 0; I < Asked.size(); ++I)
    if (std::vector<SymFrame> &F = Symbols[Asked[I].first]; F.empty())
      F.push_back(SymFrame{"", "", 0, "", 0, Asked[I].second->From});
  return true;
}

/// One process's samples (a run's directory, or a rank's) as a profile.
ProfileLoad loadRunProfile(const std::string &Dir, profile::Profile &P,
                           std::string &Message) {
  std::vector<Sampled> Samples;
  unsigned Hz = 0;
  const std::string Archive = Dir + "/trace/traces.otf2";
  const bool Csv = access((Dir + "/samples.csv").c_str(), F_OK) == 0;
  if (!Csv && access(Archive.c_str(), F_OK) != 0) {
    Message = "no samples in " + Dir +
              " (run the program with OTTER_SAMPLE=<Hz> or otter-run "
              "--sample)";
    return ProfileLoad::NoSamples;
  }
  if (Csv ? !readSamples(Dir + "/samples.csv", Samples, Message)
          : !readArchiveSamples(Archive, Samples, Hz, Message))
    return ProfileLoad::Error;
  if (Samples.empty()) {
    Message = "no samples in " + (Csv ? Dir + "/samples.csv" : Archive) +
              (Csv ? " (the run was shorter than one timer period?)"
                   : " (run the program with OTTER_SAMPLE=<Hz>)");
    return ProfileLoad::NoSamples;
  }
  if (Csv || !Hz)
    Hz = readRate(Dir + "/sampling.csv");
  if (!Hz) {
    std::cerr << "otter: warning: no sampling.csv in " << Dir
              << ": assuming 1000 Hz\n";
    Hz = 1000;
  }
  std::vector<Module> Modules;
  SiteLines Sites;
  readModules(Dir + "/modules.csv", Modules, Sites);
  std::map<std::uint64_t, std::vector<SymFrame>> Symbols;
  if (!symbolize(Samples, Modules, Symbols, Message))
    return ProfileLoad::Error;
  // The labels of constructs: the site table's directive at that line
  // whose file ends the debug info's path, else the outlined function's.
  auto Label = [&](const std::string &Kind, const std::string &File,
                   std::uint32_t Line) {
    if (auto It = Sites.find(Line); It != Sites.end())
      for (const auto &[SiteFile, SiteKind] : It->second) {
        std::string F =
            SiteFile.rfind("./", 0) == 0 ? SiteFile.substr(2) : SiteFile;
        if (File.size() >= F.size() &&
            File.compare(File.size() - F.size(), F.size(), F) == 0)
          return SiteKind + " " + F.substr(F.rfind('/') + 1) + ":" +
                 std::to_string(Line);
      }
    return Kind + " " + File.substr(File.rfind('/') + 1) + ":" +
           std::to_string(Line);
  };
  // The sampled task's construct, from the code address the runtime
  // recorded: the line of its runtime call (the directive's).
  auto regionLabel = [&](const Sampled &S) -> std::string {
    if (!S.Region)
      return {};
    const std::vector<SymFrame> &F = Symbols[S.Region - 1];
    if (F.empty() || !F[0].Line || F[0].File.empty())
      return {};
    return Label(S.RegionKind == "parallel" ? "parallel" : "task", F[0].File,
                 F[0].Line);
  };
  std::vector<profile::PathSample> Paths;
  Paths.reserve(Samples.size());
  for (const Sampled &S : Samples) {
    std::vector<SymFrame> Stack;
    for (std::size_t I = 0; I < S.Stack.size(); ++I) {
      const std::vector<SymFrame> &F = Symbols[S.Stack[I] - (I ? 1 : 0)];
      Stack.insert(Stack.end(), F.begin(), F.end());
      // The unwind jumped over the runtime's frames: a system function
      // interrupted there (sched_yield) was called by the runtime.
      if (I == 0 && S.RuntimeSkipped)
        for (SymFrame &Leaf : Stack)
          if (Leaf.From == Origin::System)
            Leaf.From = Origin::Runtime;
    }
    Paths.push_back({S.Thread, S.TimeNs, S.Class, S.Weight,
                     profile::userPath(Stack, Label, regionLabel(S))});
  }
  P = profile::aggregate(Paths, 1000000000ull / Hz);
  return ProfileLoad::Ok;
}

/// Whether a run's directory holds samples (samples.csv, or an archive of
/// samples alone).
bool holdsSamples(const std::string &Dir) {
  return access((Dir + "/samples.csv").c_str(), F_OK) == 0 ||
         trace::archiveHoldsSamplesOnly(Dir + "/trace/traces.otf2");
}

/// An MPI job's profile: each rank's profile (blame shifted within the
/// rank), merged. A rank without samples or whose samples cannot be read
/// is named in a warning and left out; the ranks must share one period.
ProfileLoad loadJobProfile(const job::Layout &L, profile::Profile &P,
                           std::string &Message) {
  std::size_t Ranks = 0;
  for (const std::string &D : L.RankDirs)
    Ranks += !D.empty();
  if (Ranks > 4)
    std::cerr << "otter: profiling the samples of " << Ranks << " ranks\n";
  std::string FirstWhy;
  bool AnyError = false;
  for (std::size_t R = 0; R < L.RankDirs.size(); ++R) {
    const std::string &D = L.RankDirs[R];
    if (D.empty())
      continue;
    profile::Profile One;
    std::string Why;
    const ProfileLoad Got = loadRunProfile(D, One, Why);
    if (Got != ProfileLoad::Ok) {
      AnyError |= Got == ProfileLoad::Error;
      if (FirstWhy.empty())
        FirstWhy = Why;
      std::cerr << "otter: warning: rank " << R << " left out: " << Why << "\n";
      continue;
    }
    if (P.Ranks && One.PeriodNs != P.PeriodNs) {
      Message = "rank " + std::to_string(R) + " was sampled every " +
                std::to_string(One.PeriodNs) + " ns, the ranks before it " +
                "every " + std::to_string(P.PeriodNs) +
                " ns: profile the ranks one by one (" + D + ")";
      return ProfileLoad::Error;
    }
    profile::merge(P, One);
  }
  if (P.Ranks)
    return ProfileLoad::Ok;
  Message = Ranks ? "no rank of " + L.Dir + " has samples: " + FirstWhy
                  : "no rank directory in " + L.Dir;
  return AnyError ? ProfileLoad::Error : ProfileLoad::NoSamples;
}

} // namespace

ProfileLoad loadProfile(const std::string &Input, profile::Profile &P,
                        std::string &Dir, std::string &Message) {
  if (job::Layout L; job::findJob(Input, L)) {
    Dir = L.Dir;
    return loadJobProfile(L, P, Message);
  }
  Dir = samplesDir(Input);
  return loadRunProfile(Dir, P, Message);
}

bool hasProfiles(const std::vector<std::string> &Inputs) {
  for (const std::string &X : Inputs) {
    if (job::Layout L; job::findJob(X, L)) {
      if (std::none_of(L.RankDirs.begin(), L.RankDirs.end(),
                       [](const std::string &D) {
                         return !D.empty() && holdsSamples(D);
                       }))
        return false;
    } else if (!holdsSamples(samplesDir(X)))
      return false;
  }
  return !Inputs.empty();
}

bool samplesAlone(const std::string &Input) {
  if (job::Layout L; job::findJob(Input, L))
    return !job::samplesOnlyJobMessage(L).empty();
  return trace::archiveHoldsSamplesOnly(samplesDir(Input) +
                                        "/trace/traces.otf2");
}

int cmdProfileDiff(const Options &O) {
  profile::Profile P[2];
  std::string Dir[2];
  for (unsigned I = 0; I < 2; ++I) {
    std::string Why;
    if (loadProfile(O.Inputs[I], P[I], Dir[I], Why) != ProfileLoad::Ok)
      return fail(Why);
  }
  profile::printDiff(P[0], P[1], Dir[0], Dir[1], O.Top, O.Json, std::cout);
  std::cout.flush();
  return std::cout ? 0 : fail("error writing the comparison");
}

int cmdProfile(const Options &O) {
  if (O.Inputs.size() == 2)
    return cmdProfileDiff(O);
  if (int S = oneArchive(O.Inputs.size()); S >= 0)
    return S;
  const bool Folded = O.Format == "folded";
  if (!O.Format.empty() && !Folded && O.Format != "table")
    return usage("otter profile: --format takes 'table' or 'folded', not '" +
                 O.Format + "'");
  profile::Profile P;
  std::string Dir, Error;
  switch (loadProfile(O.Inputs[0], P, Dir, Error)) {
  case ProfileLoad::Error:
    return fail(Error);
  case ProfileLoad::NoSamples:
    std::cout << "otter profile: " << Error << "\n";
    return 0;
  case ProfileLoad::Ok:
    break;
  }
  if (!O.SvgFile.empty()) {
    const std::string Svg = outputFile(O.SvgFile, "profile.svg");
    if (!writeOutputText(Svg, profile::flameGraphSvg(P, "otter profile " + Dir),
                         Error))
      return fail(Error);
    if (!O.Json && !Folded)
      std::cout << "wrote " << Svg << "\n";
  }
  if (Folded)
    profile::printFolded(P, std::cout);
  else if (O.Json)
    profile::printJson(P, std::cout);
  else
    profile::printTable(P, O.Top, std::cout);
  return 0;
}

} // namespace otter::cli
