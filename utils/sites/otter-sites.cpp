//===- sites/otter-sites.cpp - Print the site table of ELF files ----------===//
//
// otter-sites [--summary] FILE...
//
// Decodes the ".note.otter" notes that the OTTER clang plugin writes
// (include/otter/site_table.h) in objects, executables and shared libraries.
// In a linked file it resolves every site's labels and directive reference
// and checks them (start < end, reference hits a directive record); in a
// relocatable object the PC-relative fields are not yet relocated, so only
// directive records are decoded and sites are counted.
// Exit status: 0 if every file was readable and every record valid.
//
//===----------------------------------------------------------------------===//
#include "otter/site_table.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace st = otter::site_table;

namespace {

std::string quoted(std::string_view S) {
  std::string R = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      R += '\\';
    R += C;
  }
  return R + "\"";
}

struct Dir {
  st::DirectiveView V;
};

// Pass 1: directives (keyed by the address of their note header). A site
// names its directive by that address, and a directive may come after its
// sites in the section (or in another .note.otter section), so every note
// is collected before any site is resolved.
struct Note {
  st::NoteView N;
  std::uint64_t Addr; // virtual address of the note header
  std::uint64_t DescAddr;
};

/// Every OTTER note of the file at Base (Size bytes, a checked 64-bit ELF
/// header) into Notes; Bad counts the sections that are not readable.
void collectNotes(const unsigned char *Base, std::size_t Size,
                  std::vector<Note> &Notes, int &Bad) {
  const auto *Eh = reinterpret_cast<const Elf64_Ehdr *>(Base);
  const auto *Sh = reinterpret_cast<const Elf64_Shdr *>(Base + Eh->e_shoff);
  const char *ShStr = nullptr;
  if (Eh->e_shstrndx < Eh->e_shnum &&
      Sh[Eh->e_shstrndx].sh_offset + Sh[Eh->e_shstrndx].sh_size <= Size)
    ShStr = reinterpret_cast<const char *>(Base + Sh[Eh->e_shstrndx].sh_offset);
  for (unsigned I = 0; I < Eh->e_shnum; ++I) {
    if (Sh[I].sh_type != SHT_NOTE || !ShStr ||
        std::strcmp(ShStr + Sh[I].sh_name, st::SectionName) != 0)
      continue;
    if (Sh[I].sh_offset + Sh[I].sh_size > Size) {
      ++Bad;
      continue;
    }
    const unsigned char *Sec = Base + Sh[I].sh_offset;
    bool OK = st::forEachNote(
        Sec, Sh[I].sh_size, Sh[I].sh_addralign, [&](const st::NoteView &N) {
          if (!N.IsOtter)
            return;
          Notes.push_back({N, Sh[I].sh_addr + (N.Header - Sec),
                           Sh[I].sh_addr + (N.Desc - Sec)});
        });
    if (!OK) {
      std::printf("error: malformed notes in section %u\n", I);
      ++Bad;
    }
  }
}

/// The site records of Notes, resolved to their directives (Dirs, by
/// note address): counted, checked and (but with Summary) printed.
void printSites(const std::vector<Note> &Notes,
                const std::map<std::uint64_t, st::DirectiveView> &Dirs,
                bool Relocatable, bool Summary, unsigned &NSites,
                unsigned &Empty, int &Bad) {
  for (const Note &N : Notes) {
    if (st::noteVersion(N.N.Type) != st::Version ||
        st::noteKind(N.N.Type) != st::SiteKind)
      continue;
    ++NSites;
    if (N.N.DescSize < st::SiteDescSize) {
      std::printf("error: short site record\n");
      ++Bad;
      continue;
    }
    if (Relocatable)
      continue; // fields still hold addends: nothing to resolve before linking
    // Each field is PC-relative to its own position in the record (+0, +4,
    // +8), as include/otter/site_table.h lays it out.
    std::uint64_t Start = N.DescAddr + (std::int64_t)st::readI32(N.N.Desc);
    std::uint64_t End =
        N.DescAddr + 4 + (std::int64_t)st::readI32(N.N.Desc + 4);
    std::uint64_t DirAddr =
        N.DescAddr + 8 + (std::int64_t)st::readI32(N.N.Desc + 8);
    if (Start == End) {
      ++Empty; // the call was deleted after the plugin ran
      continue;
    }
    auto It = Dirs.find(DirAddr);
    if (It == Dirs.end() || !(Start < End)) {
      std::printf("error: bad site start=0x%" PRIx64 " end=0x%" PRIx64
                  " directive=0x%" PRIx64 "\n",
                  Start, End, DirAddr);
      ++Bad;
      continue;
    }
    const st::DirectiveView &D = It->second;
    if (!Summary)
      std::printf("site 0x%" PRIx64 "-0x%" PRIx64 " %s at %.*s:%u:%u\n", Start,
                  End, quoted(D.Kind).c_str(), (int)D.File.size(),
                  D.File.data(), D.Line, D.Col);
  }
}

int dumpFile(const char *Path, bool Summary) {
  int Fd = open(Path, O_RDONLY);
  if (Fd < 0) {
    std::fprintf(stderr, "otter-sites: error: cannot open '%s': %s\n", Path,
                 std::strerror(errno));
    return 1;
  }
  struct stat SB;
  if (fstat(Fd, &SB) != 0 || SB.st_size < (off_t)sizeof(Elf64_Ehdr)) {
    std::fprintf(stderr, "otter-sites: error: '%s' is not an ELF file\n", Path);
    close(Fd);
    return 1;
  }
  std::size_t Size = static_cast<std::size_t>(SB.st_size);
  void *Map = mmap(nullptr, Size, PROT_READ, MAP_PRIVATE, Fd, 0);
  close(Fd);
  if (Map == MAP_FAILED) {
    std::fprintf(stderr, "otter-sites: error: cannot map '%s'\n", Path);
    return 1;
  }
  const unsigned char *Base = static_cast<const unsigned char *>(Map);
  // Every offset read below is checked against the file's size first: the
  // tool is pointed at arbitrary files and must report, not crash.
  const auto *Eh = reinterpret_cast<const Elf64_Ehdr *>(Base);
  if (std::memcmp(Eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      Eh->e_ident[EI_CLASS] != ELFCLASS64 || Eh->e_shentsize != sizeof(Elf64_Shdr) ||
      Eh->e_shoff + (std::uint64_t)Eh->e_shnum * sizeof(Elf64_Shdr) > Size) {
    std::fprintf(stderr, "otter-sites: error: '%s' is not a 64-bit ELF file\n",
                 Path);
    munmap(Map, Size);
    return 1;
  }
  bool Relocatable = Eh->e_type == ET_REL;
  std::vector<Note> Notes;
  int Bad = 0;
  collectNotes(Base, Size, Notes, Bad);
  std::map<std::uint64_t, st::DirectiveView> Dirs;
  unsigned NDirs = 0, NSites = 0, Empty = 0;
  std::printf("file: %s (%s)\n", Path,
              Relocatable ? "relocatable" : Eh->e_type == ET_DYN ? "shared/pie"
                                                                 : "executable");
  for (const Note &N : Notes) {
    if (st::noteVersion(N.N.Type) != st::Version) {
      std::printf("error: note version %u unknown (expected %u)\n",
                  st::noteVersion(N.N.Type), st::Version);
      ++Bad;
      continue;
    }
    if (st::noteKind(N.N.Type) == st::FilterKind) {
      std::string_view Text;
      if (!st::decodeFilter(N.N, Text)) {
        std::printf("error: bad filter record\n");
        ++Bad;
      } else if (!Summary) {
        std::printf("filter %.*s\n", (int)Text.size(), Text.data());
      }
      continue;
    }
    if (st::noteKind(N.N.Type) != st::DirectiveKind)
      continue;
    st::DirectiveView D;
    if (!st::decodeDirective(N.N, D)) {
      std::printf("error: bad directive record\n");
      ++Bad;
      continue;
    }
    ++NDirs;
    Dirs[N.Addr] = D;
    if (!Summary)
      std::printf("directive %s at %.*s:%u:%u-%u:%u function %s clauses %s "
                  "region 0x%016" PRIx64 "\n",
                  quoted(D.Kind).c_str(), (int)D.File.size(), D.File.data(),
                  D.Line, D.Col, D.EndLine, D.EndCol,
                  quoted(D.Function).c_str(), quoted(D.Clauses).c_str(),
                  D.RegionId);
  }
  unsigned NFiltered = 0;
  for (const Note &N : Notes) {
    if (st::noteVersion(N.N.Type) != st::Version ||
        st::noteKind(N.N.Type) != st::FilteredSiteKind)
      continue;
    // Sites the plugin's filter excluded: brackets and nothing else.
    ++NFiltered;
    if (N.N.DescSize < st::FilteredSiteDescSize) {
      std::printf("error: short filtered site record\n");
      ++Bad;
      continue;
    }
    if (Relocatable || Summary)
      continue;
    std::uint64_t Start = N.DescAddr + (std::int64_t)st::readI32(N.N.Desc);
    std::uint64_t End =
        N.DescAddr + 4 + (std::int64_t)st::readI32(N.N.Desc + 4);
    if (Start != End)
      std::printf("site 0x%" PRIx64 "-0x%" PRIx64 " filtered\n", Start, End);
  }
  printSites(Notes, Dirs, Relocatable, Summary, NSites, Empty, Bad);
  std::printf("summary: %u directives, %u sites, %d errors", NDirs, NSites,
              Bad);
  if (Empty)
    std::printf(", %u empty", Empty);
  if (NFiltered)
    std::printf(", %u filtered sites", NFiltered);
  std::printf("\n");
  munmap(Map, Size);
  if (Notes.empty()) {
    // Not an error in the file, but never a silent "0 directives": a user
    // asking for the table of a binary expects the plugin to have run.
    std::fprintf(stderr,
                 "otter-sites: %s has no OTTER site table: it was built "
                 "without the plugin (build with otter-clang, or clang "
                 "-fopenmp -fplugin=<prefix>/lib/otter.so); its trace labels "
                 "will be approximate\n",
                 Path);
    return 1;
  }
  return Bad ? 1 : 0;
}

} // namespace

int main(int Argc, char **Argv) {
  bool Summary = false;
  std::vector<const char *> Files;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--summary")) {
      Summary = true;
    } else if (!std::strcmp(Argv[I], "-h") || !std::strcmp(Argv[I], "--help")) {
      std::printf("usage: otter-sites [--summary] FILE...\n"
                  "Print the OTTER site table (.note.otter) of ELF files.\n"
                  "  --version  OTTER's version\n");
      return 0;
    } else if (!std::strcmp(Argv[I], "--version")) {
      std::puts("otter-sites (OTTER " OTTER_VERSION_STRING ")");
      return 0;
    } else if (Argv[I][0] == '-' && Argv[I][1]) {
      std::fprintf(stderr,
                   "otter-sites: unknown option '%s' (usage: otter-sites "
                   "[--summary] FILE...)\n",
                   Argv[I]);
      return 2;
    } else {
      Files.push_back(Argv[I]);
    }
  }
  if (Files.empty()) {
    std::fprintf(stderr, "usage: otter-sites [--summary] FILE...\n");
    return 2;
  }
  int Rc = 0;
  for (const char *F : Files)
    Rc |= dumpFile(F, Summary);
  return Rc;
}
