//===- trace/writer_close.cpp - Regions the writer closes itself ----------===//
//
// Every location's regions balance (docs/trace.md, "Balanced regions"),
// also where the OpenMP runtime never reports an end:
//  - a failed omp_test_lock: OMPT reports the attempt (mutex_acquire) and,
//    only when it succeeds, mutex_acquired; nothing says it failed. The
//    attempt's wait region is closed at the thread's next event when that
//    is not the lock's mutex_acquired (looked up in the buffer being
//    encoded, or at the start of the next buffer when the attempt is its
//    last event);
//  - whatever is still open when the archive is closed (threads the runtime
//    never ends, like libomp's hidden helpers, a worker still inside a
//    barrier, a detached task never fulfilled, a run whose recording was
//    stopped): closed at the run's last timestamp.
// These Leave records carry the attribute otter:closed (codec.h, AttrClosed):
// they stand for no event, and OTTER's reader skips them, so the graph
// rebuilt from the trace stays the one the runtime wrote. Only the rare
// paths come here: nothing on the hot path. Part of the trace writer
// (writer_impl.h).
//
//===----------------------------------------------------------------------===//
#include "trace/writer_impl.h"

#include <otf2/otf2.h>

namespace otter::trace {

namespace {

bool isTryWait(Location &L) {
  return !L.Stack.empty() && L.Stack.back().Class == RegionClass::MutexWait &&
         L.Stack.back().Sub == std::uint16_t(MutexKind::TestLock);
}

/// Whether E is the end of the test-lock wait open on top of the stack: the
/// attempt succeeded.
bool acquires(const Event &E) {
  return E.Kind == EventKind::MutexAcquired &&
         E.Sub == std::uint16_t(MutexKind::TestLock);
}

} // namespace

/// Called after an omp_test_lock attempt (a MutexAcquire of kind test_lock)
/// was encoded; Next is the thread's next event in this buffer, or the
/// buffer's end.
void TraceWriter::Impl::testLockTried(Location &L, const Event *Next) {
  if (!isTryWait(L))
    return; // written as a parameter (no room): nothing open
  if (Next >= L.BufEnd) {
    L.TryOpen = true; // decided by the next buffer's first event
    return;
  }
  if (!acquires(*Next) && !closeTopRegion(L, Next->Time, false))
    writeFailed(L);
}

/// The innermost open region left at Time (recorder ticks, or ns), as a
/// Leave marked otter:closed; no earlier than the location's last record.
/// False: OTF2 could not write it (the caller decides what that means:
/// writeFailed takes the writer's lock, which close() holds).
bool TraceWriter::Impl::closeTopRegion(Location &L, std::uint64_t Time,
                                       bool IsNs) {
  if (L.Stack.empty() || L.Failed)
    return true;
  const std::uint64_t Ns = IsNs ? Time : Opt.Ticks.toNs(Time);
  const std::uint64_t Latest = L.LastT.load(std::memory_order_relaxed);
  const OTF2_TimeStamp T = Ns > Latest ? Ns : Latest;
  L.LastT.store(T, std::memory_order_relaxed);
  const std::uint32_t Region = L.Stack.back().Region;
  L.Stack.pop_back();
  const bool Taken = L.D.end(); // OTF2's own call: its buffer state back
  OTF2_AttributeList_AddUint32(L.Attrs, AttrClosed, 1);
  const OTF2_ErrorCode R = OTF2_EvtWriter_Leave(L.W, L.Attrs, T, Region);
  if (Taken)
    L.D.begin();
  return R == OTF2_SUCCESS;
}

/// At close, with every location's lock held: the regions still open on
/// each location are left at End, innermost first.
void TraceWriter::Impl::closeOpenRegions(OTF2_TimeStamp End) {
  for (Location *L : Locs) {
    if (!L || !L->W || L->Failed)
      continue;
    L->TryOpen = false;
    while (!L->Stack.empty())
      if (!closeTopRegion(*L, End, true)) {
        L->Failed = true; // counted by OTF2's error count (close())
        break;
      }
    L->RunN = 0;
  }
}

} // namespace otter::trace
