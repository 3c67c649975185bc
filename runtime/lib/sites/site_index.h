//===- site_index.h - From code address to source label ----------*- C++ -*-===//
//
// The runtime side of the plugin's site table: finds the ".note.otter"
// records of every loaded object and maps OMPT's codeptr_ra to the exact
// directive; addresses from uninstrumented code get approximate labels.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_RUNTIME_SITE_INDEX_H
#define OTTER_RUNTIME_SITE_INDEX_H

#include "otter/label.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace otter {

namespace detail {
/// libomp's code, [OmpLo, OmpHi): empty until initSiteIndex found it.
extern std::atomic<std::uintptr_t> OmpLo, OmpHi;
const void *walkOutOfOpenMPRuntime(const void *Code);
} // namespace detail

/// Hot path (inline: two loads and a compare).
inline bool codeIsInsideOpenMPRuntime(const void *Code) {
  auto A = reinterpret_cast<std::uintptr_t>(Code);
  return A >= detail::OmpLo.load(std::memory_order_relaxed) &&
         A < detail::OmpHi.load(std::memory_order_relaxed);
}

/// Hot path: Code unchanged unless it lies inside libomp; then the first
/// return address on the stack outside libomp: the runtime call the event
/// came from. Inside an instrumented site it is described exactly (the site
/// is that call's own bracket), else approximately.
inline const void *userCodeAddress(const void *Code) {
  if (!codeIsInsideOpenMPRuntime(Code)) [[likely]]
    return Code;
  return detail::walkOutOfOpenMPRuntime(Code);
}
/// Off the hot path: the label of a code address.
SourceLabel describeCodeAddress(const void *Code);
/// Whether the loaded object named Module (its file name) starts threads:
/// the C library (start_thread) or a sanitizer's runtime (its
/// pthread_create interceptor's thread start). Nothing else of them calls
/// into libomp, so a construct with a code address there is the team of
/// libomp's hidden helper threads (describeCodeAddress names it so).
bool moduleStartsThreads(const std::string &Module);
/// How approximate labels are described (the session's Config: OTTER_SYMBOLIZE
/// and OTTER_SYMBOLIZER).
struct SiteIndexOptions {
  /// file:line from debug info for code built without the plugin, from
  /// one llvm-symbolizer process for the run (sites/symbolizer.h).
  bool Symbolize = false;
  std::string Symbolizer;
};
/// Once, from tool initialisation: scans the PT_NOTE "Otter" notes of every
/// loaded object (dl_iterate_phdr); rescans when objects are dlopen'ed.
void initSiteIndex(const SiteIndexOptions &Options = {});

/// Whether Code lies in a call site that the plugin's filter file excluded
/// (otter/site_table.h, FilteredSiteKind). Off the hot path: the filter
/// stage asks once per address (core/filter.h).
bool codeIsFilteredSite(std::uint64_t Code);
/// What the loaded objects were filtered with at compile time.
struct SiteFilters {
  std::vector<std::string> Texts; // "PATH: rules", distinct
  std::size_t Sites = 0;          // filtered call sites
};
SiteFilters siteFilters();

/// For OTTER_VERBOSE: what the index holds and how lookups went. Address
/// counts are distinct addresses passed to describeCodeAddress.
struct SiteIndexStats {
  unsigned long Modules = 0;     // objects with a site table
  unsigned long Sites = 0;
  unsigned long Directives = 0;
  unsigned long Exact = 0;       // described from the site table
  unsigned long Approximate = 0; // dladdr (and symbolizer) only
  unsigned long Unknown = 0;
  unsigned long Walks = 0;       // userCodeAddress stack walks out of libomp
  unsigned long WalksFound = 0;  // ... that reached an instrumented site
};
SiteIndexStats siteIndexStats();

} // namespace otter

#endif // OTTER_RUNTIME_SITE_INDEX_H
