//===- site_table_fuzz.cpp - Fuzz target: the .note.otter decoder ---------===//
//
// libFuzzer target for include/otter/site_table.h, the decoder of the site
// table the plugin writes into objects: the runtime walks it in every loaded
// object (runtime/lib/sites/site_index.cpp) and otter-sites in any ELF file it is
// given, so its bytes are untrusted. The input's first byte chooses the note
// area's alignment (4 or 8, as a PT_NOTE segment's p_align), the rest is
// the area. The target walks it as the runtime does (directives, filtered
// sites and filter records first, then sites looked up by the directive
// note they point to) and checks that everything decoded lies inside the
// area: a decoder that reports a note or a string beyond it would have the
// runtime read past a mapped segment.
//
//===----------------------------------------------------------------------===//
#include "otter/site_table.h"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>
#include <vector>

namespace st = otter::site_table;

namespace {
[[noreturn]] void fail() { __builtin_trap(); }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  if (Size < 1)
    return 0;
  std::size_t Align = (Data[0] & 1) ? 8 : 4;
  // A copy of exactly the area, so that ASan sees any read past its end.
  std::vector<unsigned char> Area(Data + 1, Data + Size);
  const unsigned char *Lo = Area.data(), *Hi = Lo + Area.size();
  auto inside = [&](const void *P, std::size_t N) {
    auto *C = static_cast<const unsigned char *>(P);
    return C >= Lo && C <= Hi && N <= std::size_t(Hi - C);
  };
  std::set<const unsigned char *> Directives;
  std::vector<st::NoteView> Sites;
  st::forEachNote(Lo, Area.size(), Align, [&](const st::NoteView &N) {
    if (!inside(N.Header, 12) || !inside(N.Desc, N.DescSize))
      fail();
    if (!N.IsOtter || st::noteVersion(N.Type) != st::Version)
      return;
    if (st::noteKind(N.Type) == st::SiteKind) {
      Sites.push_back(N);
    } else if (st::noteKind(N.Type) == st::DirectiveKind) {
      st::DirectiveView D;
      if (!st::decodeDirective(N, D))
        return;
      for (std::string_view S : {D.Kind, D.File, D.Function, D.Clauses})
        if (!inside(S.data(), S.size() + 1) || S.data()[S.size()] != '\0' ||
            S.data() < reinterpret_cast<const char *>(N.Desc) ||
            S.data() + S.size() >=
                reinterpret_cast<const char *>(N.Desc) + N.DescSize)
          fail();
      if (D.Kind.empty())
        fail();
      Directives.insert(N.Header);
    } else if (st::noteKind(N.Type) == st::FilteredSiteKind) {
      st::SiteView S;
      if (st::decodeFilteredSite(N, S) && S.Directive)
        fail(); // a filtered site has no directive
    } else if (st::noteKind(N.Type) == st::FilterKind) {
      std::string_view Text;
      if (st::decodeFilter(N, Text) &&
          (!inside(Text.data(), Text.size() + 1) ||
           Text.data()[Text.size()] != '\0' ||
           Text.data() < reinterpret_cast<const char *>(N.Desc)))
        fail();
    }
  });
  for (const st::NoteView &N : Sites) {
    st::SiteView S;
    if (!st::decodeSite(N, S))
      continue;
    // The targets are addresses (compared, never read) until checked
    // against the object's segments; the directive must be a note found.
    (void)Directives.count(S.Directive);
  }
  return 0;
}
