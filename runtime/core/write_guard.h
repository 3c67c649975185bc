//===- core/write_guard.h - OTTER's writes never kill the program -*- C++ -*-===//
//
// Under a file-size limit (`ulimit -f`, batch systems' per-job limits) a
// write past the limit raises SIGXFSZ in the writing thread, and its
// default action ends the process: OTTER's own trace or graph files would
// kill a program that, untraced, runs to its end. While OTTER writes, the
// calling thread blocks SIGXFSZ; the write then fails with EFBIG, which the
// writers report as for a full disk, and a SIGXFSZ that the write raised is
// taken off the thread before the mask is restored. The program's own
// writes are untouched (their SIGXFSZ acts as without the tool).
//
// Without a limit (the usual case) the guard costs one load.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_WRITE_GUARD_H
#define OTTER_CORE_WRITE_GUARD_H

#include <atomic>
#include <csignal>

namespace otter {

class WriteGuard {
public:
  /// Reads the process's file-size limit (once at start, again at the end).
  static void checkLimit();

  WriteGuard() {
    if (LimitSet.load(std::memory_order_relaxed)) [[unlikely]]
      block();
  }
  ~WriteGuard() {
    if (Blocked) [[unlikely]]
      unblock();
  }
  WriteGuard(const WriteGuard &) = delete;
  WriteGuard &operator=(const WriteGuard &) = delete;

private:
  void block();
  void unblock();
  static std::atomic<bool> LimitSet;
  bool Blocked = false;
  sigset_t Saved;
};

} // namespace otter

#endif // OTTER_CORE_WRITE_GUARD_H
