//===- check/run_check.cpp - otter-run's look at the run's end -----------===//
//
// lib/libotter-check.so. otter-run execs the program, so it cannot look at
// the run once it is over; it preloads this library instead and names the
// process in OTTER_RUN_CHECK ("<pid>:<program>"; exec keeps the pid). When
// that process exits with an OpenMP runtime loaded but OTTER's tool never
// loaded (no OpenMP construct ran, so libomp never started and never looked
// for a tool; or libomp could not load it), nothing was traced: one line
// says so, instead of a run that ends with no output and no word.
//
// It uses libc alone (no C++ runtime). At load time it removes the variable
// and itself from LD_PRELOAD, so the program and its children see the
// environment they would have seen without it; at exit it only lists the
// loaded objects.
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <link.h>
#include <strings.h>
#include <unistd.h>

namespace {

pid_t CheckedPid = 0;
char Program[256];

struct LoadedObjects {
  bool OpenMPRuntime = false;
  bool OtterTool = false;
};

int noteObject(dl_phdr_info *Info, std::size_t, void *Data) {
  const char *Name = Info->dlpi_name;
  if (!Name || !*Name)
    return 0;
  const char *Slash = std::strrchr(Name, '/');
  const char *Base = Slash ? Slash + 1 : Name;
  auto *Loaded = static_cast<LoadedObjects *>(Data);
  if (!std::strncmp(Base, "libomp.so", 9) ||
      !std::strncmp(Base, "libiomp5.so", 11))
    Loaded->OpenMPRuntime = true;
  if (!std::strcmp(Base, "libotter.so"))
    Loaded->OtterTool = true;
  return 0;
}

/// In an MPI job every rank would say the same: rank 0 says it.
bool isFirstRank() {
  static const char *const RankVariables[] = {
      "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
  for (const char *Variable : RankVariables)
    if (const char *Rank = std::getenv(Variable))
      return std::strcmp(Rank, "0") == 0;
  return true;
}

/// Removes this library's entries (otter-run appends it last) from
/// LD_PRELOAD, and the variable itself when nothing else is left in it.
void leaveLdPreload() {
  const char *Preload = std::getenv("LD_PRELOAD");
  if (!Preload)
    return;
  static char Kept[4096];
  std::size_t Used = 0;
  bool Removed = false;
  for (const char *Entry = Preload; *Entry;) {
    std::size_t Length = std::strcspn(Entry, ": ");
    const char *Slash = static_cast<const char *>(
        memrchr(Entry, '/', Length));
    const char *Base = Slash ? Slash + 1 : Entry;
    std::size_t BaseLength = Length - std::size_t(Base - Entry);
    if (BaseLength == 17 && !std::strncmp(Base, "libotter-check.so", 17)) {
      Removed = true;
    } else if (Length > 0) {
      if (Used + Length + 2 > sizeof Kept)
        return; // longer than we keep: leave it as it is
      if (Used)
        Kept[Used++] = ':';
      std::memcpy(Kept + Used, Entry, Length);
      Used += Length;
    }
    Entry += Length;
    if (*Entry)
      ++Entry;
  }
  Kept[Used] = '\0';
  if (!Removed)
    return;
  if (Used)
    setenv("LD_PRELOAD", Kept, 1);
  else
    unsetenv("LD_PRELOAD");
}

__attribute__((constructor)) void readCheckRequest() {
  const char *Request = std::getenv("OTTER_RUN_CHECK");
  if (!Request)
    return;
  char *End = nullptr;
  long Pid = std::strtol(Request, &End, 10);
  if (End != Request && *End == ':' && Pid == long(getpid())) {
    CheckedPid = pid_t(Pid);
    std::snprintf(Program, sizeof Program, "%s", End + 1);
  }
  unsetenv("OTTER_RUN_CHECK");
  leaveLdPreload();
}

__attribute__((destructor)) void lookAtTheRunsEnd() {
  if (CheckedPid == 0 || CheckedPid != getpid())
    return;
  // OMP_TOOL=disabled: otter-run said so before the run.
  if (const char *Tool = std::getenv("OMP_TOOL"))
    if (!strcasecmp(Tool, "disabled"))
      return;
  LoadedObjects Loaded;
  dl_iterate_phdr(noteObject, &Loaded);
  // No OpenMP runtime at all: otter-run said so before the run too.
  if (!Loaded.OpenMPRuntime || Loaded.OtterTool || !isFirstRank())
    return;
  std::fprintf(stderr,
               "otter-run: warning: %s ran no OpenMP construct, or its "
               "OpenMP runtime could not load OTTER: nothing was traced "
               "(OMP_TOOL_VERBOSE_INIT=stderr shows what the runtime "
               "tried)\n",
               Program);
}

} // namespace
