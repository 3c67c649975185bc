//===- core/site_index_fallback.cpp - Labels without the site table ------===//
//
// Used only while runtime/site_index.cpp is absent: approximate labels from
// dladdr (module+offset, symbol+offset). Never exact.
//
//===----------------------------------------------------------------------===//
#include "site_index.h"

#include <cstdio>
#include <dlfcn.h>
#include <string>

namespace otter {

const void *userCodeAddress(const void *Code) { return Code; }
bool codeIsInsideOpenMPRuntime(const void *) { return false; }
void initSiteIndex() {}

SourceLabel describeCodeAddress(const void *Code) {
  SourceLabel L;
  if (!Code)
    return L;
  Dl_info Info;
  if (dladdr(Code, &Info) && Info.dli_fname) {
    std::string Module = Info.dli_fname;
    std::size_t Slash = Module.rfind('/');
    if (Slash != std::string::npos)
      Module = Module.substr(Slash + 1);
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, "+0x%lx",
                  (unsigned long)((const char *)Code -
                                  (const char *)Info.dli_fbase));
    L.Location = Module + Buf;
    if (Info.dli_sname) {
      std::snprintf(Buf, sizeof Buf, "+0x%lx",
                    (unsigned long)((const char *)Code -
                                    (const char *)Info.dli_saddr));
      L.Function = std::string(Info.dli_sname) + Buf;
    }
  }
  L.Quality = LabelQuality::Approximate;
  return L;
}

SiteIndexStats siteIndexStats() { return {}; }

} // namespace otter
