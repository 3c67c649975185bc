//===- core/memory_room.h - The program's room under ulimit -v -*- C++ -*-===//
//
// Under an address-space limit (`ulimit -v`, RLIMIT_AS) every byte OTTER
// maps is one the program cannot have, and libomp does not survive an
// allocation failure (it uses the null pointer: SIGSEGV in
// __kmpc_omp_task_alloc). OTTER's growing parts -- the trace's 4 MiB event
// chunks, the graph's ingest -- used to take the address space up to the
// limit before their own allocations failed (fib 20, 2 threads, `ulimit -v
// 25000`: 24,968 kB of 25,000 mapped), so the program died whenever it then
// needed a few kB more: about 1 run in 15 on a busy machine. Now they ask
// roomFor() before they grow: under a limit, only while the program keeps
// a headroom beyond them (1/8 of the limit, at least 8 MiB); past that they
// stop, as when memory runs out, and say so at the end. OTTER's fixed part
// is not checked: its libraries (~4.3 MiB: libotter, OTF2, libzstd, libm)
// and a buffer per thread, 4,096 events (192 KiB) instead of 16,384 under a
// limit unless OTTER_BUFFER_EVENTS says otherwise (fib 20 on 2 threads
// then runs traced at 19,000 kB, against 20,500 with 16,384 and 14,500
// untraced; on 4 threads at 38,000, 41,000 and 34,000).
//
// Without a limit (the usual case) roomFor costs one load; with one, a read
// of /proc/self/statm, at most once per flushed buffer or trace chunk.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_MEMORY_ROOM_H
#define OTTER_CORE_MEMORY_ROOM_H

#include <cstddef>
#include <cstdint>

namespace otter::memory {

/// Reads the process's address-space limit (at start).
void checkLimit();
/// Whether there is one.
bool limited();
/// Events per thread buffer under a limit (OTTER_BUFFER_EVENTS unset).
constexpr std::size_t LimitedBufferEvents = 4096;
/// Whether OTTER may map Bytes more now: always without a limit; under
/// one, only if the program still has its headroom after them.
bool roomFor(std::uint64_t Bytes);

} // namespace otter::memory

#endif // OTTER_CORE_MEMORY_ROOM_H
