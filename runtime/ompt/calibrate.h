//===- ompt/calibrate.h - OTTER's own cost of recording an event -*- C++ -*-===//
//
// Measured once, at tool start, as Score-P and TAU measure their probes: the
// adapter's own task callbacks are run on a scratch thread state (its
// events go nowhere) and timed. The analyses then count that much of each
// short interval after an event as OTTER's time, not the program's
// (docs/utils.md, "OTTER's own time").
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_OMPT_CALIBRATE_H
#define OTTER_OMPT_CALIBRATE_H

#include "ompt/registration.h"

#include <cstdint>
#include <span>

namespace otter::ompt {

/// The adapter's cost of recording one event in ns: the task_create and
/// task_schedule callbacks of Table run for a few hundred synthetic tasks
/// (a creation, the switch to the task, its completion: the commonest
/// events), on the calling thread, into a scratch buffer; the least time of
/// a few rounds, per event recorded. 0 (not measured) unless the recording
/// fast path is open (recording on, the TSC as clock, nothing filtered, not
/// paused): a filtered or paused run's callbacks take other paths, and
/// their counters must not see synthetic tasks. Not included: the OpenMP
/// runtime's own cost of calling a tool, which any tool pays.
std::uint32_t measureRecordingCostNs(std::span<const CallbackSpec> Table);

} // namespace otter::ompt

#endif // OTTER_OMPT_CALIBRATE_H
