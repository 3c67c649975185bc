//===- core/names.h - The run's names: annotations' strings ------*- C++
//-*-===//
//
// The strings of the program's annotations (otter/otter.h: phase names,
// task labels, marks), interned: an event carries a 16-bit id, the table
// goes into the trace's anchor (trace/codec.h, NamesProperty) and the graph
// (Graph::Names). A name given a million times is stored once. Not the hot
// path: a lock per call.
//
// Also the phases each task has open (phases nest in a task's program
// order; an end closes the innermost).
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_CORE_NAMES_H
#define OTTER_CORE_NAMES_H

#include "otter/events.h"

#include <cstdint>
#include <string>
#include <vector>

namespace otter::names {

/// Longest name kept (longer ones are cut); most distinct names.
inline constexpr std::size_t MaxLength = 1024;
inline constexpr std::uint32_t MaxNames = 65535;

/// The id of Name (1 .. MaxNames), interning a copy of it. Null: the id of
/// "". 0 when the table is full or memory ran out (the event then has no
/// name).
std::uint16_t intern(const char *Name);
/// The table: index = id, [0] = "".
std::vector<std::string> snapshot();

/// Task Task begins phase Name.
void pushPhase(TaskId Task, std::uint16_t Name);
/// The innermost phase Task has open, closed; false if it has none.
bool popPhase(TaskId Task, std::uint16_t &Name);

} // namespace otter::names

#endif // OTTER_CORE_NAMES_H
