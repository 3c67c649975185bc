//===- core/memory_room.cpp - The program's room under ulimit -v ----------===//
#include "core/memory_room.h"

#include <atomic>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace otter::memory {

namespace {
/// The limit in bytes; 0: none.
std::atomic<std::uint64_t> Limit{0};

/// The address space mapped now (VmSize): the first field of
/// /proc/self/statm, in pages. 0 if it cannot be read.
std::uint64_t mapped() {
  int Fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return 0;
  char Text[64];
  ssize_t N = ::read(Fd, Text, sizeof(Text) - 1);
  ::close(Fd);
  std::uint64_t Pages = 0;
  for (ssize_t I = 0; I < N && Text[I] >= '0' && Text[I] <= '9'; ++I)
    Pages = Pages * 10 + std::uint64_t(Text[I] - '0');
  return Pages * std::uint64_t(sysconf(_SC_PAGESIZE));
}
} // namespace

void checkLimit() {
  rlimit L;
  bool Set = getrlimit(RLIMIT_AS, &L) == 0 && L.rlim_cur != RLIM_INFINITY;
  Limit.store(Set ? std::uint64_t(L.rlim_cur) : 0, std::memory_order_relaxed);
}

bool limited() { return Limit.load(std::memory_order_relaxed) != 0; }

bool roomFor(std::uint64_t Bytes) {
  std::uint64_t Max = Limit.load(std::memory_order_relaxed);
  if (!Max) [[likely]]
    return true;
  std::uint64_t Headroom = Max / 8 > (8u << 20) ? Max / 8 : 8u << 20;
  std::uint64_t Now = mapped();
  if (!Now) // unreadable (no /proc): as before, the allocation decides
    return true;
  return Now + Bytes + Headroom <= Max;
}

} // namespace otter::memory
