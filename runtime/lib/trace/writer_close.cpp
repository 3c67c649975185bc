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

// --- Balanced regions -----------------------------------------------------
//
// Every location's Enter and Leave records nest: each Leave closes the
// innermost open region (otf2-snapshots, Vampir and other readers rely on
// it; test/lit/Inputs/check-trace.py checks every lit test's archive). The
// events pair up by construction except where OMPT's reports do not nest:
//  - a sync region whose wait was reported apart at its begin but folded
//    into its end (every taskgroup) is written as two Leaves
//    (encodeSplitEnd), and read back as the same two events;
//  - a Leave event with no open region of its class (a wait folded into
//    its region's begin but reported apart at the end, a report lost to the
//    filter, ...) is written as an `otter:event` parameter, which the reader
//    reads back as the same event: it closes no region.
//
// Task bodies: an explicit task's execution is a region, the `task @
// file:line` region of its task construct (role TASK; `task` when the
// switch event carries no construct), entered at the ThreadTaskSwitch that
// starts it and left before the ThreadTaskComplete (or the switch) that
// ends its body. A task suspended at a task scheduling point (taskwait,
// barrier, taskyield, taskgroup end) keeps its body region open: libomp
// runs the tasks scheduled there nested in the suspended one's call, on the
// same thread, so their regions nest inside the open wait region, and the
// suspended task resumes only when they are done -- a thread's open regions
// are one stack, as its call stack is. A task leaves no body region open
// when the thread goes back to the task below it (an untied task's part
// ends; Location::Running tracks the tasks of the stack). The reader ignores
// these regions (class Task: no event kind).

/// A Leave of class C whose region is not the innermost open one: task
/// bodies left open above the region (a task switch the writer could not
/// pair) are closed first. True when the region of class C is then the
/// innermost one (the caller pops it); nothing is written otherwise.
[[gnu::noinline, gnu::cold]] bool
TraceWriter::Impl::leaveMismatched(Location &L, RegionClass C,
                                   OTF2_TimeStamp T) {
  unsigned I = L.Stack.Size;
  while (I && L.Stack.Items[I - 1].Class == RegionClass::Task)
    --I;
  if (!I || I == L.Stack.Size || L.Stack.Items[I - 1].Class != C)
    return false;
  while (L.Stack.Size > I) {
    writeLeave(L, T, L.Stack.back().Region);
    L.Stack.pop_back();
    if (L.RunN)
      --L.RunN;
  }
  return true;
}

/// A folded SyncEnd whose wait region is open on its own: its wait's end,
/// then its own (unfoldEvent), each its own Leave.
[[gnu::noinline]] void TraceWriter::Impl::encodeSplitEnd(Location &L,
                                                         const Event &Ev) {
  Event Pair[MaxUnfolded];
  unfoldEvent(Ev, Pair);
  encodeAny(L, Pair[0]);
  encodeAny(L, Pair[1]);
}

} // namespace otter::trace
