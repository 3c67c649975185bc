//===- otter/site_table.h - The plugin's site table (ELF note format) -----===//
//
// The one definition of the table that the Clang plugin writes into every
// object it compiles and that the runtime (site index) and utils/otter-sites
// read back. Plain C++17, no dependencies: keep it that way.
//
// Where: allocated ELF notes (SHT_NOTE, SHF_ALLOC) in sections named
// ".note.otter", owner name "Otter". The linker concatenates them into the
// output's .note.otter section, which is covered by a PT_NOTE segment, so the
// runtime finds them in memory with dl_iterate_phdr, in executables and in
// shared libraries (also dlopen'ed ones).
//
// Layout: a sequence of ordinary ELF notes, 4-byte aligned:
//
//   uint32 namesz = 6          ("Otter\0")
//   uint32 descsz
//   uint32 type   = (Version << 16) | Kind
//   char   name[8] = "Otter\0\0\0"
//   desc[descsz], padded to a multiple of 4
//
// Kind SiteKind: one record per instrumented runtime call site, descsz 12.
//   int32 Start      label just before the call          - &Start
//   int32 End        label just after the call (== the
//                    return address the runtime sees)    - &End
//   int32 Directive  header of the directive note below  - &Directive
//   Start == End: the call was deleted by an optimisation after the plugin
//   ran (the brackets stay); readers skip such records silently.
//   All three are PC-relative (R_X86_64_PC32 at link time): no dynamic
//   relocations, position independent. A code address Code belongs to the
//   site iff Start < Code <= End (never "the greatest label below").
//
// Kind DirectiveKind: one record per source directive, descsz >= 28. A
// directive of an #included file, which several objects may carry, is
// emitted in a COMDAT group keyed by a hash of its contents, so the linker
// keeps one per output file; one written in the compiled file itself may
// be outside any group (the plugin's machine labels). Readers must accept
// equal records at several addresses (each site names its own):
//   uint64 RegionId  stable id: FNV-1a 64 of file (as written), line, col,
//                    kind (see regionId() below)
//   uint32 Line, Col, EndLine, EndCol   the pragma's range (presumed loc)
//   uint32 Reserved (0)
//   char   Kind[]     NUL-terminated, e.g. "parallel for", "omp_set_lock"
//   char   File[]     NUL-terminated, as written on the command line/#include
//   char   Function[] NUL-terminated, qualified enclosing function
//   char   Clauses[]  NUL-terminated clause text (may be empty)
//   padding to 4.
//
// Kind FilteredSiteKind: a call site the plugin's filter file excluded
// (-fplugin-arg-otter-filter=FILE, docs/filter.md), descsz 8: int32 Start,
// int32 End as in a site record, and no directive, so no label string is
// in the table for it. The runtime drops every event whose code address
// lies in such a site.
//
// Kind FilterKind: what an object was filtered with, descsz >= 1: the
// filter file's path as given and its rules on one line (RuleSet::text()),
// "PATH: exclude kind taskwait; ...", NUL-terminated, padded to 4. One per
// object that has filtered sites (deduplicated like directive records);
// the runtime names them in the graph's header and the trace.
//
// Versioning: a reader that sees an "Otter" note whose version it does not
// know must skip it (the runtime warns once). Adding kinds or trailing
// fields keeps the version; changing the meaning of a field bumps it.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_SITE_TABLE_H
#define OTTER_SITE_TABLE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace otter::site_table {

inline constexpr char NoteOwner[] = "Otter";
inline constexpr std::uint32_t NoteOwnerSize = 6; // includes the NUL
inline constexpr char SectionName[] = ".note.otter";
inline constexpr std::uint32_t Version = 1;

enum Kind : std::uint32_t {
  SiteKind = 1,
  DirectiveKind = 2,
  FilteredSiteKind = 3,
  FilterKind = 4,
};

constexpr std::uint32_t noteType(std::uint32_t Ver, std::uint32_t K) {
  return (Ver << 16) | K;
}
constexpr std::uint32_t noteVersion(std::uint32_t Type) { return Type >> 16; }
constexpr std::uint32_t noteKind(std::uint32_t Type) { return Type & 0xffff; }

inline constexpr std::uint32_t SiteDescSize = 12;
inline constexpr std::uint32_t DirectiveFixedSize = 28;
inline constexpr std::uint32_t FilteredSiteDescSize = 8;

/// Stable region id: FNV-1a 64 over File, '\0', Line, Col (little endian
/// 32-bit each), Kind. Identical in every build of the same source.
inline std::uint64_t fnv1a(const void *Data, std::size_t N,
                           std::uint64_t H = 0xcbf29ce484222325ULL) {
  const unsigned char *P = static_cast<const unsigned char *>(Data);
  for (std::size_t I = 0; I < N; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ULL;
  }
  return H;
}
inline std::uint64_t regionId(std::string_view File, std::uint32_t Line,
                              std::uint32_t Col, std::string_view Kind) {
  std::uint64_t H = fnv1a(File.data(), File.size());
  unsigned char Z = 0;
  H = fnv1a(&Z, 1, H);
  unsigned char B[8];
  for (int I = 0; I < 4; ++I) {
    B[I] = static_cast<unsigned char>(Line >> (8 * I));
    B[4 + I] = static_cast<unsigned char>(Col >> (8 * I));
  }
  H = fnv1a(B, 8, H);
  return fnv1a(Kind.data(), Kind.size(), H);
}

inline std::uint32_t align4(std::uint32_t N) { return (N + 3u) & ~3u; }

/// One note as found in memory or in a file.
struct NoteView {
  const unsigned char *Header = nullptr; // start of the note header
  std::uint32_t Type = 0;
  const unsigned char *Desc = nullptr;
  std::uint32_t DescSize = 0;
  bool IsOtter = false;
};

/// Walk the notes in [Data, Data+Size) with the segment's alignment (4 or 8).
/// Calls F(const NoteView&) for each; returns false if the area is
/// malformed (the walk stops there).
template <typename Fn>
bool forEachNote(const unsigned char *Data, std::size_t Size, std::size_t Align,
                 Fn &&F) {
  if (Align != 8)
    Align = 4;
  auto Pad = [Align](std::size_t N) { return (N + Align - 1) & ~(Align - 1); };
  std::size_t Off = 0;
  while (Off + 12 <= Size) {
    std::uint32_t H[3];
    std::memcpy(H, Data + Off, 12);
    // Offsets align relative to the area's start (gABI; 8-byte aligned
    // notes such as .note.gnu.property pad name and desc to 8).
    std::size_t NameOff = Off + 12;
    std::size_t DescOff = Pad(NameOff + H[0]);
    std::size_t End = Pad(DescOff + H[1]);
    if (DescOff > Size || End > Size || DescOff < NameOff || End < DescOff)
      return false;
    NoteView V;
    V.Header = Data + Off;
    V.Type = H[2];
    V.Desc = Data + DescOff;
    V.DescSize = H[1];
    V.IsOtter = H[0] == NoteOwnerSize &&
                std::memcmp(Data + NameOff, NoteOwner, NoteOwnerSize) == 0;
    F(V);
    Off = End;
  }
  return true;
}

inline std::int32_t readI32(const unsigned char *P) {
  std::int32_t V;
  std::memcpy(&V, P, 4);
  return V;
}
inline std::uint32_t readU32(const unsigned char *P) {
  std::uint32_t V;
  std::memcpy(&V, P, 4);
  return V;
}

/// Decoded site record: the three absolute targets (field address + value).
/// Only meaningful once relocated (linked, or loaded in memory).
struct SiteView {
  const unsigned char *Start;
  const unsigned char *End;
  const unsigned char *Directive; // header of the directive note
};
inline bool decodeSite(const NoteView &N, SiteView &S) {
  if (N.DescSize < SiteDescSize)
    return false;
  S.Start = N.Desc + readI32(N.Desc);
  S.End = N.Desc + 4 + readI32(N.Desc + 4);
  S.Directive = N.Desc + 8 + readI32(N.Desc + 8);
  return true;
}

/// A filtered site: Directive is null.
inline bool decodeFilteredSite(const NoteView &N, SiteView &S) {
  if (N.DescSize < FilteredSiteDescSize)
    return false;
  S.Start = N.Desc + readI32(N.Desc);
  S.End = N.Desc + 4 + readI32(N.Desc + 4);
  S.Directive = nullptr;
  return true;
}

/// The text of a filter record.
inline bool decodeFilter(const NoteView &N, std::string_view &Text) {
  const void *Z = std::memchr(N.Desc, 0, N.DescSize);
  if (!Z)
    return false;
  Text = std::string_view(reinterpret_cast<const char *>(N.Desc),
                          static_cast<const unsigned char *>(Z) - N.Desc);
  return true;
}

struct DirectiveView {
  std::uint64_t RegionId = 0;
  std::uint32_t Line = 0, Col = 0, EndLine = 0, EndCol = 0;
  std::string_view Kind, File, Function, Clauses;
};
inline bool decodeDirective(const NoteView &N, DirectiveView &D) {
  if (N.DescSize < DirectiveFixedSize)
    return false;
  const unsigned char *P = N.Desc;
  std::memcpy(&D.RegionId, P, 8);
  D.Line = readU32(P + 8);
  D.Col = readU32(P + 12);
  D.EndLine = readU32(P + 16);
  D.EndCol = readU32(P + 20);
  const char *S = reinterpret_cast<const char *>(P + DirectiveFixedSize);
  std::size_t Left = N.DescSize - DirectiveFixedSize;
  std::string_view *Out[4] = {&D.Kind, &D.File, &D.Function, &D.Clauses};
  for (std::string_view *O : Out) {
    const void *Z = std::memchr(S, 0, Left);
    if (!Z)
      return false;
    std::size_t L = static_cast<const char *>(Z) - S;
    *O = std::string_view(S, L);
    S += L + 1;
    Left -= L + 1;
  }
  return !D.Kind.empty();
}

} // namespace otter::site_table

#endif // OTTER_SITE_TABLE_H
