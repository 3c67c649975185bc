//===- otter/cli.cpp - The `otter` command line: one parser, one dispatcher -===//
//
// What every command shares (commands.h): the option parser over the
// command table, the generated help, the dispatcher, the errors, where
// outputs go (-o) and the one archive opener with its warnings.
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include "input.h"
#include "rebuild.h"
#include "otter/printable.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace otter::cli {

namespace {

const char *MainHelpHead =
    "usage: otter <command> [options] <archive>\n"
    "       otter help <command>, otter <command> --help: a command's help\n"
    "\n"
    "Analyses a trace written by OTTER's runtime (OTTER_OUTPUT_DIR/trace/,\n"
    "its output directory, or the traces.otf2 anchor), or a whole MPI job\n"
    "(its directory with rank-<N>/, or its merged archive): the ranks'\n"
    "events as one program, per rank and for the job, with a critical path\n"
    "across ranks.\n"
    "\n"
    "commands:\n";

const char *MainHelpTail =
    "\n"
    "Every command takes --json and --help; otter --version prints OTTER's\n"
    "version.\n"
    "-o: a directory for a command that writes several files (graph, export\n"
    "--format csv), a file for one that writes one (export --format\n"
    "perfetto|states|dot, picture, report); missing directories are created.\n"
    "--phase NAME restricts summary, parallelism, diagnose, export\n"
    "(perfetto, --aggregate), simulate, picture, report and diff to one\n"
    "phase of the program (otter_phase_begin); graph and dump take the\n"
    "whole run.\n";

/// Where a reader finds a page of the documentation: the installed copy
/// beside this program (<prefix>/share/doc/otter/docs/), else the source
/// tree's (an otter of a build tree), else the page's name in the source.
std::string docsPage(const std::string &Page) {
  char Exe[4096];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof Exe - 1);
  if (N > 0) {
    Exe[N] = 0;
    std::string Dir(Exe);
    Dir.resize(Dir.rfind('/'));
    std::string Installed = Dir + "/../share/doc/otter/docs/" + Page;
    if (char *Real = realpath(Installed.c_str(), nullptr)) {
      std::string Path = Real;
      std::free(Real);
      return Path;
    }
  }
  std::string Source = std::string(OTTER_SOURCE_DIR) + "/docs/" + Page;
  if (access(Source.c_str(), R_OK) == 0)
    return Source;
  return "docs/" + Page;
}

/// The option of C that Word (before any '=') names, or null.
const OptionSpec *findOption(const Command &C, const std::string &Word) {
  for (const OptionSpec &S : C.Accepts)
    if (Word == S.Name || (S.Alias && Word == S.Alias))
      return &S;
  return nullptr;
}

/// Stores Text as S's value in O. -1: go on; else a usage error's status.
/// Word: the option as given ("-o" or "--output").
int setValue(const OptionSpec &S, const std::string &Word,
             const std::string &Text, Options &O) {
  if (Text.empty())
    return usage(Word + " needs " + S.Needs);
  if (S.Value) {
    O.*S.Value = Text;
    return -1;
  }
  char *End = nullptr;
  errno = 0;
  unsigned long long N = std::strtoull(Text.c_str(), &End, 10);
  if (*End || errno || Text[0] == '-')
    return usage(Word + " needs " + S.Needs + ", not '" + Text + "'");
  O.*S.Count = std::size_t(N);
  return -1;
}

} // namespace

int fail(const std::string &Msg) {
  std::fprintf(stderr, "otter: error: %s\n", printable(Msg).c_str());
  return 1;
}
int usage(const std::string &Msg) {
  std::fprintf(stderr, "otter: error: %s (see 'otter --help')\n", printable(Msg).c_str());
  return 2;
}
int oneArchive(std::size_t Given) {
  if (Given == 0)
    return usage("no archive given");
  if (Given > 1)
    return usage("more than one archive given");
  return -1;
}

int parseCommandLine(const Command &C, std::span<char *const> Args,
                     Options &O) {
  O.Command = C.Name;
  for (std::size_t I = 0; I < Args.size(); ++I) {
    std::string A = Args[I];
    if (A == "-h" || A == "--help") {
      printCommandHelp(C, stdout);
      return 0;
    }
    if (A.size() < 2 || A[0] != '-') {
      O.Inputs.push_back(A); // an archive ("-" too)
      continue;
    }
    // --name=value, or the value as the next word.
    std::size_t Eq = A.rfind("--", 0) == 0 ? A.find('=') : std::string::npos;
    std::string Word = A.substr(0, Eq);
    const OptionSpec *S = findOption(C, Word);
    if (!S || (S->Flag && Eq != std::string::npos)) {
      std::fprintf(stderr,
                   "otter: error: unknown option '%s' for '%s' (see 'otter %s "
                   "--help')\n",
                   A.c_str(), C.Name, C.Name);
      return 2;
    }
    if (S->Flag) {
      O.*S->Flag = true;
      continue;
    }
    if (Eq == std::string::npos && I + 1 >= Args.size())
      return usage(Word + " needs " + S->Needs);
    std::string Text = Eq != std::string::npos ? A.substr(Eq + 1) : Args[++I];
    if (int Rc = setValue(*S, Word, Text, O); Rc >= 0)
      return Rc;
  }
  return -1;
}

void printMainHelp(std::FILE *Out) {
  std::fputs(MainHelpHead, Out);
  for (const Command &C : commandTable()) {
    // The name in a column of 13, the summary's further lines under its
    // first.
    std::fprintf(Out, "  %-12s ", C.Name);
    for (const char *P = C.Summary; *P; ++P) {
      std::fputc(*P, Out);
      if (*P == '\n')
        std::fputs("               ", Out);
    }
    std::fputc('\n', Out);
  }
  std::fputs(MainHelpTail, Out);
  std::fprintf(Out, "Documentation: %s\n", docsPage("utils.md").c_str());
}

void printCommandHelp(const Command &C, std::FILE *Out) {
  std::fputs(C.Usage, Out);
  std::fputs(C.Help, Out);
}

int runOtter(int argc, char **argv) {
  if (argc < 2)
    return usage("no command given");
  std::string Name = argv[1];
  if (Name == "--version" || Name == "version") {
    std::puts("otter (OTTER " OTTER_VERSION_STRING ")");
    return 0;
  }
  if (Name == "-h" || Name == "--help" || Name == "help") {
    if (argc < 3 || Name != "help") {
      printMainHelp(stdout);
      return 0;
    }
    const Command *C = findCommand(argv[2]);
    if (!C)
      return usage("unknown command '" + std::string(argv[2]) + "'");
    printCommandHelp(*C, stdout);
    return 0;
  }
  const Command *C = findCommand(Name);
  if (!C)
    return usage("unknown command '" + Name + "'");
  Options O;
  if (int Rc = parseCommandLine(*C, {argv + 2, std::size_t(argc - 2)}, O);
      Rc >= 0)
    return Rc;
  return C->Run(O);
}

std::string outputFile(const std::string &Given, const std::string &Default) {
  if (Given.empty())
    return Default;
  struct stat St;
  if (Given.back() == '/')
    return Given + Default;
  if (stat(Given.c_str(), &St) == 0 && S_ISDIR(St.st_mode))
    return Given + "/" + Default;
  return Given;
}

bool openOutputFile(const std::string &Path, std::ofstream &OS,
                    std::string &Error) {
  std::size_t Slash = Path.rfind('/');
  if (Slash != std::string::npos && Slash > 0 &&
      !makeDirectories(Path.substr(0, Slash), Error))
    return false;
  OS.open(Path, std::ios::binary);
  if (!OS) {
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

bool writeOutputText(const std::string &Path, const std::string &Text,
                     std::string &Error) {
  std::ofstream OS;
  if (!openOutputFile(Path, OS, Error))
    return false;
  OS << Text;
  if (!OS.flush()) {
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

bool outputDirectory(const std::string &Given, std::string &Dir,
                     std::string &Error) {
  Dir = Given.empty() ? "." : Given;
  return makeDirectories(Dir, Error);
}

void printWritten(bool Json, const std::vector<std::string> &Files) {
  if (Json) {
    std::cout << "{\"written\":[";
    for (std::size_t I = 0; I < Files.size(); ++I)
      std::cout << (I ? "," : "") << analysis::jsonString(Files[I]);
    std::cout << "]}\n";
  } else {
    for (const std::string &F : Files)
      std::cout << "wrote " << F << "\n";
  }
}

bool openArchive(ArchiveInput &In, const std::string &Path, std::string &Error,
                 bool NoteFilter) {
  if (!In.open(Path, Error))
    return false;
  warnArchiveState("otter", Path, In.complete(), In.cutAtLimit(),
                   "what follows");
  // Filtered constructs are not in the trace: every figure leaves them out.
  if (NoteFilter && !In.filter().empty())
    std::fprintf(stderr, "otter: filtered: %s\n", In.filter().c_str());
  return true;
}

} // namespace otter::cli
