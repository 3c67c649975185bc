//===- trace/errors.cpp - OTF2 error messages, quietly -------------------===//
#include "trace/errors.h"

#include <otf2/otf2.h>

#include <atomic>
#include <cstdarg>
#include <cstring>
#include <mutex>
#include <cstdio>

namespace otter::trace {

namespace {
thread_local char LastError[512];

// Every error, in order: a small ring of the latest messages (the writer
// asks for the first one after its archive was opened).
constexpr unsigned Ring = 8;
std::atomic<std::uint64_t> Count{0};
std::mutex RingLock;
char Messages[Ring][512];
std::uint64_t Numbers[Ring];

OTF2_ErrorCode quiet(void *, const char *, uint64_t, const char *,
                     OTF2_ErrorCode Code, const char *Fmt, va_list Va) {
  char Buf[400];
  Buf[0] = 0;
  if (Fmt)
    std::vsnprintf(Buf, sizeof Buf, Fmt, Va);
  std::snprintf(LastError, sizeof LastError, "%s%s%s",
                OTF2_Error_GetDescription(Code), Buf[0] ? ": " : "", Buf);
  std::lock_guard<std::mutex> G(RingLock);
  std::uint64_t N = Count.load(std::memory_order_relaxed);
  std::memcpy(Messages[N % Ring], LastError, sizeof LastError);
  Numbers[N % Ring] = N;
  Count.store(N + 1, std::memory_order_release);
  return Code;
}
} // namespace

void installQuietOtf2Errors() { OTF2_Error_RegisterCallback(quiet, nullptr); }
std::string lastOtf2Error() {
  return LastError[0] ? std::string(LastError) : std::string("unknown error");
}
std::uint64_t otf2ErrorCount() {
  return Count.load(std::memory_order_acquire);
}
std::string firstOtf2ErrorAfter(std::uint64_t After) {
  std::lock_guard<std::mutex> G(RingLock);
  std::uint64_t N = Count.load(std::memory_order_relaxed);
  if (N <= After)
    return "";
  std::uint64_t First = N - After > Ring ? N - Ring : After;
  return Numbers[First % Ring] == First ? std::string(Messages[First % Ring])
                                        : std::string("unknown error");
}

} // namespace otter::trace
