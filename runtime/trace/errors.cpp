//===- trace/errors.cpp - OTF2 error messages, quietly -------------------===//
#include "trace/errors.h"

#include <otf2/otf2.h>

#include <cstdarg>
#include <cstdio>

namespace otter::trace {

namespace {
thread_local char LastError[512];

OTF2_ErrorCode quiet(void *, const char *, uint64_t, const char *,
                     OTF2_ErrorCode Code, const char *Fmt, va_list Va) {
  char Buf[400];
  Buf[0] = 0;
  if (Fmt)
    std::vsnprintf(Buf, sizeof Buf, Fmt, Va);
  std::snprintf(LastError, sizeof LastError, "%s%s%s",
                OTF2_Error_GetDescription(Code), Buf[0] ? ": " : "", Buf);
  return Code;
}
} // namespace

void installQuietOtf2Errors() { OTF2_Error_RegisterCallback(quiet, nullptr); }
std::string lastOtf2Error() {
  return LastError[0] ? std::string(LastError) : std::string("unknown error");
}

} // namespace otter::trace
