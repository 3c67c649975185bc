//===- site_index.cpp - From code address to source label -----------------===//
//
// Reads the plugin's site table (include/otter/site_table.h) from the
// PT_NOTE segments of every loaded object and answers two questions:
//  - userCodeAddress (hot path): if OMPT's codeptr_ra lies inside libomp
//    (taskloop, cancel barrier...), the return address of the frame that
//    called into libomp: if it lies inside an instrumented call site, the
//    event belongs to that call's directive, exactly (the frame is the
//    bracketed runtime call itself), else the frame's own address
//    (approximate); never a frame further up. Two compares otherwise;
//  - describeCodeAddress (finalize): exact label when start < Code <= end of
//    a site, else an approximate one (module+offset, dladdr symbol, optional
//    llvm-symbolizer behind OTTER_SYMBOLIZE=1: sites/symbolizer.h).
//
// Concurrency: the table is an immutable snapshot published through an
// atomic pointer; readers never lock or allocate. A rescan (new objects
// dlopen'ed: dlpi_adds changed) builds a new snapshot under a mutex; old
// snapshots are kept until exit, so a reader holding one stays valid.
//
//===----------------------------------------------------------------------===//
#include "sites/site_index.h"
#include "sites/symbolizer.h"

#include "otter/site_table.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <memory>
#include <mutex>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace otter {

namespace st = site_table;

namespace {

struct Site {
  std::uintptr_t Start, End;
  std::uint32_t Dir; // FilteredDir: a site the plugin's filter excluded
};
constexpr std::uint32_t FilteredDir = ~std::uint32_t(0);

struct DirInfo {
  std::string Kind, File, Function, Clauses;
  std::uint32_t Line = 0, Col = 0;
  std::uint64_t RegionId = 0;
  std::uint32_t Module = 0;
};

struct ModuleInfo {
  std::string Path, Name;
  std::uintptr_t Bias = 0;
};

struct Snapshot {
  std::vector<Site> Sites; // sorted by Start
  std::vector<DirInfo> Dirs;
  std::vector<ModuleInfo> Modules; // modules with a site table
  /// The plugin's filter records (otter/site_table.h), distinct.
  std::vector<std::string> Filters;
  std::size_t FilteredSites = 0;
  unsigned long long Adds = 0, Subs = 0;
};

std::atomic<const Snapshot *> Current{nullptr};
std::atomic<unsigned long> Walks{0}, WalksFound{0};

struct Global {
  std::mutex M; // scans, describe, statistics
  std::vector<std::unique_ptr<Snapshot>> All;
  std::unordered_map<std::uintptr_t, LabelQuality> Described;
  std::vector<std::string> Warned; // modules already warned about
  SiteIndexOptions Options;        // from the session's Config
  std::unique_ptr<Symbolizer> Sym; // OTTER_SYMBOLIZE=1, from start-up
  bool Inited = false;
};
Global &global() {
  static Global *G = new Global; // never destroyed: used until exit
  return *G;
}

std::string baseName(const std::string &P) {
  std::size_t S = P.rfind('/');
  return S == std::string::npos ? P : P.substr(S + 1);
}

std::string selfExe() {
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
  if (N <= 0)
    return "a.out";
  Buf[N] = 0;
  return Buf;
}

void warnOnce(Global &G, const std::string &Module, const char *What) {
  for (const std::string &W : G.Warned)
    if (W == Module)
      return;
  G.Warned.push_back(Module);
  std::fprintf(stderr, "otter: warning: %s in the site table of %s; skipped\n",
               What, Module.c_str());
}

struct ScanCtx {
  Global *G;
  Snapshot *S;
  std::uintptr_t KmpcFn; // an address inside libomp's text
  std::uintptr_t OmpLo = 1, OmpHi = 0;
  bool First = true;
};

bool inLoad(const dl_phdr_info *Info, std::uintptr_t A, std::size_t N,
            bool Exec) {
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_LOAD || (Exec && !(P.p_flags & PF_X)))
      continue;
    std::uintptr_t Lo = Info->dlpi_addr + P.p_vaddr;
    if (A >= Lo && A + N <= Lo + P.p_memsz && A + N >= A)
      return true;
  }
  return false;
}

int scanModule(dl_phdr_info *Info, size_t Size, void *Data) {
  auto &C = *static_cast<ScanCtx *>(Data);
  if (C.First) {
    C.First = false;
    if (Size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof(Info->dlpi_subs)) {
      C.S->Adds = Info->dlpi_adds;
      C.S->Subs = Info->dlpi_subs;
    }
  }
  // libomp: the object whose executable segment holds __kmpc_fork_call.
  if (C.KmpcFn && inLoad(Info, C.KmpcFn, 1, true)) {
    for (int I = 0; I < Info->dlpi_phnum; ++I) {
      const ElfW(Phdr) &P = Info->dlpi_phdr[I];
      if (P.p_type != PT_LOAD || !(P.p_flags & PF_X))
        continue;
      std::uintptr_t Lo = Info->dlpi_addr + P.p_vaddr, Hi = Lo + P.p_memsz;
      if (C.OmpLo > C.OmpHi) {
        C.OmpLo = Lo;
        C.OmpHi = Hi;
      } else {
        C.OmpLo = std::min(C.OmpLo, Lo);
        C.OmpHi = std::max(C.OmpHi, Hi);
      }
    }
  }

  std::string Path = Info->dlpi_name && *Info->dlpi_name ? Info->dlpi_name
                                                          : std::string();
  bool HaveOtter = false;
  // Pass 1: directive records, keyed by the address of their note header.
  std::unordered_map<std::uintptr_t, std::uint32_t> DirAt;
  std::vector<st::NoteView> SiteNotes;
  bool Bad = false, BadVersion = false;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_NOTE || P.p_memsz < 12)
      continue;
    std::uintptr_t A = Info->dlpi_addr + P.p_vaddr;
    if (!inLoad(Info, A, P.p_memsz, false))
      continue; // not mapped: do not touch
    const auto *Mem = reinterpret_cast<const unsigned char *>(A);
    bool OK = st::forEachNote(Mem, P.p_memsz, P.p_align,
                              [&](const st::NoteView &N) {
      if (!N.IsOtter)
        return;
      if (st::noteVersion(N.Type) != st::Version) {
        BadVersion = true;
        return;
      }
      if (!HaveOtter) {
        HaveOtter = true;
        if (Path.empty())
          Path = selfExe();
        ModuleInfo MI;
        MI.Path = Path;
        MI.Name = baseName(Path);
        MI.Bias = Info->dlpi_addr;
        C.S->Modules.push_back(std::move(MI));
      }
      if (st::noteKind(N.Type) == st::SiteKind ||
          st::noteKind(N.Type) == st::FilteredSiteKind) {
        SiteNotes.push_back(N);
      } else if (st::noteKind(N.Type) == st::FilterKind) {
        std::string_view Text;
        if (!st::decodeFilter(N, Text)) {
          Bad = true;
          return;
        }
        if (std::find(C.S->Filters.begin(), C.S->Filters.end(), Text) ==
            C.S->Filters.end())
          C.S->Filters.emplace_back(Text);
      } else if (st::noteKind(N.Type) == st::DirectiveKind) {
        st::DirectiveView D;
        if (!st::decodeDirective(N, D)) {
          Bad = true;
          return;
        }
        DirInfo DI;
        DI.Kind.assign(D.Kind);
        DI.File.assign(D.File);
        DI.Function.assign(D.Function);
        DI.Clauses.assign(D.Clauses);
        DI.Line = D.Line;
        DI.Col = D.Col;
        DI.RegionId = D.RegionId;
        DI.Module = static_cast<std::uint32_t>(C.S->Modules.size() - 1);
        DirAt[reinterpret_cast<std::uintptr_t>(N.Header)] =
            static_cast<std::uint32_t>(C.S->Dirs.size());
        C.S->Dirs.push_back(std::move(DI));
      } // other kinds: newer writer, same version: ignore
    });
    if (!OK)
      Bad = true;
  }
  // Pass 2: sites; their labels must lie in this object's executable text.
  for (const st::NoteView &N : SiteNotes) {
    st::SiteView SV;
    bool Filtered = st::noteKind(N.Type) == st::FilteredSiteKind;
    if (!(Filtered ? st::decodeFilteredSite(N, SV) : st::decodeSite(N, SV))) {
      Bad = true;
      continue;
    }
    auto Start = reinterpret_cast<std::uintptr_t>(SV.Start);
    auto End = reinterpret_cast<std::uintptr_t>(SV.End);
    if (Start == End)
      continue; // call deleted after the plugin ran: nothing to label
    if (Filtered) {
      if (Start > End || !inLoad(Info, Start, End - Start, true)) {
        Bad = true;
        continue;
      }
      C.S->Sites.push_back({Start, End, FilteredDir});
      ++C.S->FilteredSites;
      continue;
    }
    auto It = DirAt.find(reinterpret_cast<std::uintptr_t>(SV.Directive));
    if (It == DirAt.end() || Start > End ||
        !inLoad(Info, Start, End - Start, true)) {
      Bad = true;
      continue;
    }
    C.S->Sites.push_back({Start, End, It->second});
  }
  if (Path.empty())
    Path = selfExe();
  if (BadVersion)
    warnOnce(*C.G, Path, "unknown note version (this runtime reads version 1)");
  else if (Bad)
    warnOnce(*C.G, Path, "corrupt records");
  return 0;
}

/// Builds and publishes a new snapshot. Caller holds G.M.
void rescanLocked(Global &G) {
  auto S = std::make_unique<Snapshot>();
  ScanCtx C;
  C.G = &G;
  C.S = S.get();
  C.KmpcFn = reinterpret_cast<std::uintptr_t>(
      dlsym(RTLD_DEFAULT, "__kmpc_fork_call"));
  dl_iterate_phdr(scanModule, &C);
  std::sort(S->Sites.begin(), S->Sites.end(),
            [](const Site &A, const Site &B) { return A.Start < B.Start; });
  if (C.OmpLo <= C.OmpHi) {
    detail::OmpHi.store(C.OmpHi, std::memory_order_relaxed);
    detail::OmpLo.store(C.OmpLo, std::memory_order_relaxed);
  }
  Current.store(S.get(), std::memory_order_release);
  G.All.push_back(std::move(S));
}

int readAdds(dl_phdr_info *Info, size_t Size, void *Data) {
  auto *Out = static_cast<unsigned long long *>(Data);
  if (Size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof(Info->dlpi_subs)) {
    Out[0] = Info->dlpi_adds;
    Out[1] = Info->dlpi_subs;
  }
  return 1; // first object is enough
}

/// Rescans if objects were loaded or unloaded since the last scan.
const Snapshot *refreshIfChanged(Global &G) {
  unsigned long long AS[2] = {0, 0};
  dl_iterate_phdr(readAdds, AS);
  const Snapshot *S = Current.load(std::memory_order_acquire);
  if (!S || S->Adds != AS[0] || S->Subs != AS[1]) {
    rescanLocked(G);
    S = Current.load(std::memory_order_acquire);
  }
  return S;
}

const Site *findSite(const Snapshot *S, std::uintptr_t Code) {
  if (!S || S->Sites.empty())
    return nullptr;
  // First site with Start >= Code; candidates are before it.
  auto It = std::lower_bound(
      S->Sites.begin(), S->Sites.end(), Code,
      [](const Site &A, std::uintptr_t C) { return A.Start < C; });
  for (int Steps = 0; It != S->Sites.begin() && Steps < 4; ++Steps) {
    --It;
    if (It->Start < Code && Code <= It->End)
      return &*It;
  }
  return nullptr;
}

std::string hex(std::uintptr_t V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "0x%" PRIxPTR, V);
  return Buf;
}

std::string demangle(const char *Name) {
  int Status = 0;
  char *D = abi::__cxa_demangle(Name, nullptr, nullptr, &Status);
  if (Status != 0 || !D)
    return Name;
  std::string R = D;
  std::free(D);
  return R;
}

SourceLabel describeLocked(Global &G, const void *Code) {
  SourceLabel L;
  if (!Code)
    return L;
  auto A = reinterpret_cast<std::uintptr_t>(Code);
  const Snapshot *S = Current.load(std::memory_order_acquire);
  const Site *Hit = findSite(S, A);
  if (!Hit) {
    S = refreshIfChanged(G);
    Hit = findSite(S, A);
  }
  if (Hit && Hit->Dir == FilteredDir) { // its events are never recorded
    L.Directive = "filtered";
    L.Quality = LabelQuality::Exact;
    const ModuleInfo *In = nullptr; // the module of the nearest lower bias
    for (const ModuleInfo &M : S->Modules)
      if (A >= M.Bias && (!In || M.Bias > In->Bias))
        In = &M;
    if (In)
      L.Location = In->Name + "+" + hex(A - In->Bias);
    return L;
  }
  if (Hit) {
    const DirInfo &D = S->Dirs[Hit->Dir];
    const ModuleInfo &M = S->Modules[D.Module];
    L.Directive = D.Kind;
    L.File = D.File;
    L.Line = D.Line;
    L.Col = D.Col;
    L.Function = D.Function;
    L.Clauses = D.Clauses;
    L.RegionId = D.RegionId;
    L.Location = M.Name + "+" + hex(A - M.Bias);
    L.Quality = LabelQuality::Exact;
    return L;
  }
  Dl_info Info;
  ElfW(Addr) Bias = 0;
  struct link_map *LM = nullptr;
  if (dladdr1(Code, &Info, reinterpret_cast<void **>(&LM), RTLD_DL_LINKMAP) &&
      LM) {
    Bias = LM->l_addr;
    std::string Path = Info.dli_fname && *Info.dli_fname ? Info.dli_fname : "";
    if (Path.empty() || LM->l_name == nullptr || !*LM->l_name)
      Path = LM->l_name && *LM->l_name ? LM->l_name : selfExe();
    std::string Name = baseName(Path);
    std::uintptr_t Off = A - Bias;
    L.Location = Name + "+" + hex(Off);
    if (Info.dli_sname && Info.dli_saddr)
      L.Function = demangle(Info.dli_sname) + "+" +
                   hex(A - reinterpret_cast<std::uintptr_t>(Info.dli_saddr));
    L.RegionId = st::regionId(Name, static_cast<std::uint32_t>(Off),
                              static_cast<std::uint32_t>(Off >> 32), "");
    // A code address here is a return address (OMPT's codeptr_ra, the
    // caller of an annotation): the call itself is the byte before it,
    // whose line is the construct's (the return address may already be on
    // the next statement's line).
    if (G.Options.Symbolize && !G.Options.Symbolizer.empty()) {
      if (!G.Sym)
        G.Sym = std::make_unique<Symbolizer>(G.Options.Symbolizer);
      G.Sym->lookup(Path, Off ? Off - 1 : Off, L.File, L.Line);
    }
    L.Quality = LabelQuality::Approximate;
    // The constructs libomp runs itself where a thread starts, with the
    // thread start as their code address, are the team of its hidden
    // helper threads (target nowait, hidden helper tasks). Named for what
    // they are, not libc+0x... (or, under a sanitizer, its runtime's):
    // nothing of the program's is there.
    if (moduleStartsThreads(Name)) {
      L.Function = HiddenHelperTeam;
      L.File.clear();
      L.Line = 0;
    }
  } else {
    L.Location = hex(A);
    L.Quality = LabelQuality::Unknown;
  }
  return L;
}

} // namespace

bool moduleStartsThreads(const std::string &Module) {
  auto Starts = [&](const char *Prefix) {
    return Module.rfind(Prefix, 0) == 0;
  };
  // glibc (libc.so.6, or libc-2.x.so); clang's sanitizer runtimes linked
  // shared (libclang_rt.asan-x86_64.so, ...) and GCC's (libasan.so.8, ...).
  return Starts("libc.so") || Starts("libc-") || Starts("libclang_rt.") ||
         Starts("libasan.so") || Starts("libtsan.so") || Starts("libhwasan.so");
}

void initSiteIndex(const SiteIndexOptions &Options) {
  Global &G = global();
  std::lock_guard<std::mutex> Lock(G.M);
  if (G.Inited)
    return;
  G.Inited = true;
  G.Options = Options;
  // backtrace() loads libgcc_s on first use (allocates): do it now, not in
  // the first callback that needs a stack walk.
  void *Warm[4];
  (void)backtrace(Warm, 4);
  rescanLocked(G);
  // OTTER_SYMBOLIZE: start the symbolizer and have it read the program's
  // debug info now, before the program's first event. Done at the first
  // new call site, it happened in the middle of the run, inside whichever
  // thread flushed first, while the others waited for that thread in a
  // barrier: OTTER's time counted as the program's.
  if (Options.Symbolize && !Options.Symbolizer.empty()) {
    G.Sym = std::make_unique<Symbolizer>(Options.Symbolizer);
    std::string File;
    std::uint32_t Line = 0;
    G.Sym->lookup(selfExe(), 0, File, Line);
  }
}

namespace detail {
std::atomic<std::uintptr_t> OmpLo{1}, OmpHi{0}; // empty until initialised
} // namespace detail

const void *detail::walkOutOfOpenMPRuntime(const void *Code) {
  Walks.fetch_add(1, std::memory_order_relaxed);
  void *Frames[64];
  int N = backtrace(Frames, 64);
  // Our own frames (this function, the callback), then libomp's, then the
  // code that called into libomp: only that frame may be the site. Walking
  // further would find the caller's caller -- e.g. the fork call site of an
  // instrumented parallel region around an uninstrumented taskloop -- and
  // give a wrong exact label.
  int I = 0;
  while (I < N && !codeIsInsideOpenMPRuntime(Frames[I]))
    ++I;
  while (I < N && codeIsInsideOpenMPRuntime(Frames[I]))
    ++I;
  if (I == N)
    return Code;
  auto A = reinterpret_cast<std::uintptr_t>(Frames[I]);
  const Snapshot *S = Current.load(std::memory_order_acquire);
  if (!findSite(S, A)) {
    // Rare: maybe the site is in an object dlopen'ed since the last scan.
    Global &G = global();
    std::unique_lock<std::mutex> Lock(G.M, std::try_to_lock);
    if (Lock.owns_lock())
      S = refreshIfChanged(G);
  }
  if (findSite(S, A)) {
    WalksFound.fetch_add(1, std::memory_order_relaxed);
    return Frames[I];
  }
  // Uninstrumented caller: its own return address (an approximate label in
  // user code rather than one inside libomp).
  return Frames[I];
}

SourceLabel describeCodeAddress(const void *Code) {
  Global &G = global();
  std::lock_guard<std::mutex> Lock(G.M);
  SourceLabel L = describeLocked(G, Code);
  G.Described[reinterpret_cast<std::uintptr_t>(Code)] = L.Quality;
  return L;
}

bool codeIsFilteredSite(std::uint64_t Code) {
  Global &G = global();
  std::lock_guard<std::mutex> Lock(G.M);
  auto A = static_cast<std::uintptr_t>(Code);
  const Snapshot *S = Current.load(std::memory_order_acquire);
  const Site *Hit = findSite(S, A);
  if (!Hit) {
    S = refreshIfChanged(G);
    Hit = findSite(S, A);
  }
  return Hit && Hit->Dir == FilteredDir;
}

SiteFilters siteFilters() {
  Global &G = global();
  std::lock_guard<std::mutex> Lock(G.M);
  SiteFilters F;
  if (const Snapshot *S = Current.load(std::memory_order_acquire)) {
    F.Texts = S->Filters;
    F.Sites = S->FilteredSites;
  }
  return F;
}

SiteIndexStats siteIndexStats() {
  Global &G = global();
  std::lock_guard<std::mutex> Lock(G.M);
  SiteIndexStats R;
  if (const Snapshot *S = Current.load(std::memory_order_acquire)) {
    R.Modules = S->Modules.size();
    R.Sites = S->Sites.size();
    R.Directives = S->Dirs.size();
  }
  for (const auto &[A, Q] : G.Described) {
    (void)A;
    if (Q == LabelQuality::Exact)
      ++R.Exact;
    else if (Q == LabelQuality::Approximate)
      ++R.Approximate;
    else
      ++R.Unknown;
  }
  R.Walks = Walks.load(std::memory_order_relaxed);
  R.WalksFound = WalksFound.load(std::memory_order_relaxed);
  return R;
}

} // namespace otter
