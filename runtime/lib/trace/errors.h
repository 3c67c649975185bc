//===- trace/errors.h - OTF2 error messages, quietly ---------------*- C++ -*-===//
//
// OTF2 prints its own multi-line errors to stderr by default; OTTER's
// messages are one line starting with "otter: ". These route OTF2 errors
// into a per-thread "last error" string that callers put in their message.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_ERRORS_H
#define OTTER_TRACE_ERRORS_H

#include <string>

#include <cstdint>

namespace otter::trace {
void installQuietOtf2Errors();
/// The calling thread's last OTF2 error.
std::string lastOtf2Error();
/// Errors OTF2 reported so far, from any thread, and the first of them
/// after a given count (for "did anything fail since the archive was
/// opened": OTF2 does not pass every failed write back to its caller).
std::uint64_t otf2ErrorCount();
std::string firstOtf2ErrorAfter(std::uint64_t Count);
} // namespace otter::trace

#endif
