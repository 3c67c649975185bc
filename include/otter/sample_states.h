//===- otter/sample_states.h - OpenMP states of samples -----------*- C++ -*-===//
//
// The thread states a sample records (OMPT's ompt_state_t values, stored as
// they are) and the six classes OTTER's outputs split time by: work,
// barrier, taskwait, lock, idle, overhead (and other: target waits and
// undefined). Shared by the runtime, which writes the state's name into
// samples.csv, and by `otter profile`, which reads it back.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_SAMPLE_STATES_H
#define OTTER_SAMPLE_STATES_H

#include <cstdint>
#include <string_view>

namespace otter {

enum class StateClass : std::uint8_t {
  Work,
  Barrier,
  Taskwait,
  Lock,
  Idle,
  Overhead,
  Other
};
inline constexpr unsigned StateClassCount = 7;

inline constexpr const char *stateClassName(StateClass C) {
  constexpr const char *Names[] = {"work", "barrier",  "taskwait", "lock",
                                   "idle", "overhead", "other"};
  return Names[unsigned(C)];
}

/// The class of an ompt_state_t value (OpenMP 5.2, 19.4.4.27).
inline constexpr StateClass stateClassOf(std::uint32_t State) {
  if (State <= 0x002)
    return StateClass::Work; // work_serial, work_parallel, work_reduction
  if (State >= 0x010 && State <= 0x016)
    return StateClass::Barrier;
  if (State == 0x020 || State == 0x021)
    return StateClass::Taskwait; // taskwait, taskgroup
  if (State >= 0x040 && State <= 0x044)
    return StateClass::Lock; // mutex, lock, critical, atomic, ordered
  if (State == 0x100)
    return StateClass::Idle;
  if (State == 0x101)
    return StateClass::Overhead;
  return StateClass::Other;
}

/// The class named Name; false if none is.
inline bool stateClassNamed(std::string_view Name, StateClass &Out) {
  for (unsigned I = 0; I < StateClassCount; ++I)
    if (Name == stateClassName(StateClass(I))) {
      Out = StateClass(I);
      return true;
    }
  return false;
}

} // namespace otter

#endif // OTTER_SAMPLE_STATES_H
