//===- trace/anchor_probe.h - Open a damaged anchor file safely ---*- C++
//-*-===//
//
// OTF2 trusts the counts in an archive's anchor file (traces.otf2): one
// damaged byte can make OTF2_Reader_Open loop over billions of properties
// for 10+ seconds before it fails (found by mutating a 147-byte anchor). The
// utilities must answer a damaged file with one line at once, so the anchor
// is first opened in a forked copy of the process under a deadline and a
// memory limit (OTF2 also believes sizes: a damaged anchor can make it
// allocate gigabytes).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_TRACE_ANCHOR_PROBE_H
#define OTTER_TRACE_ANCHOR_PROBE_H

#include <string>

namespace otter::trace {

/// False, with Error set, when OTF2 cannot open Anchor within DeadlineMs
/// (the copy is killed) or within 512 MiB more memory, or crashes on it.
/// True when it opened, failed quickly (the caller's own open then reports
/// why), or the probe itself could not run.
/// Utilities only: it forks, which a traced program must never do here.
/// An anchor file a probe opened is not probed again while it is the same
/// file with the same size and modification time (a job's utility opens
/// each rank's archive more than once).
bool anchorOpensInTime(const std::string &Anchor, std::string &Error,
                       unsigned DeadlineMs = 3000);
/// Probes run so far in this process (tests).
unsigned anchorProbesRun();

} // namespace otter::trace

#endif // OTTER_TRACE_ANCHOR_PROBE_H
