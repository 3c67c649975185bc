//===- core/write_guard.cpp - OTTER's writes never kill the program -------===//
#include "core/write_guard.h"

#include <ctime>
#include <pthread.h>
#include <sys/resource.h>

namespace otter {

std::atomic<bool> WriteGuard::LimitSet{false};

void WriteGuard::checkLimit() {
  struct rlimit L;
  bool Set = getrlimit(RLIMIT_FSIZE, &L) == 0 && L.rlim_cur != RLIM_INFINITY;
  LimitSet.store(Set, std::memory_order_relaxed);
}

void WriteGuard::block() {
  sigset_t Xfsz;
  sigemptyset(&Xfsz);
  sigaddset(&Xfsz, SIGXFSZ);
  Blocked = pthread_sigmask(SIG_BLOCK, &Xfsz, &Saved) == 0;
}

void WriteGuard::unblock() {
  sigset_t Xfsz;
  sigemptyset(&Xfsz);
  sigaddset(&Xfsz, SIGXFSZ);
  // Only when SIGXFSZ was not blocked already (then it is the program's
  // business, pending or not).
  if (!sigismember(&Saved, SIGXFSZ)) {
    const timespec Now = {0, 0};
    while (sigtimedwait(&Xfsz, nullptr, &Now) == SIGXFSZ) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
}

} // namespace otter
