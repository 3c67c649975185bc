//===- ompt/tool.h - What the OMPT adapter tells the rest of the tool -*- C++
//-*-===//
//
// The one thing other event sources (core/source.cpp, for the MPI wrapper
// library) need from the OMPT side: which task the calling thread executes,
// so that their events join that task's own sequence.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_OMPT_TOOL_H
#define OTTER_OMPT_TOOL_H

#include "core/recorder.h"

namespace otter::ompt {

/// The task the calling thread executes now, or null (no OpenMP runtime
/// started the tool, or a thread OpenMP does not know). Asks the runtime
/// (ompt_get_task_info): a few dozen instructions, no lock.
TaskState *currentTaskOfThread();

} // namespace otter::ompt

#endif // OTTER_OMPT_TOOL_H
