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

namespace otter::trace {
void installQuietOtf2Errors();
std::string lastOtf2Error();
} // namespace otter::trace

#endif
