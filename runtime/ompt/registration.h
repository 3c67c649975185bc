//===- ompt/registration.h - OMPT callbacks and their refusal ---*- C++ -*-===//
//
// The OMPT adapter registers its callbacks from a table (ompt/tool.cpp puts
// it together from the rows each ompt/callbacks_*.cpp file has beside its
// callbacks, OTTER_CALLBACK):
// per callback its event group (core/filter.h), whether the adapter needs
// it whatever is filtered (it keeps task records and ids: "required"), and
// which other callbacks mean nothing without it. registerCallbacks() does
// what the table says, apart from the runtime:
//  - an optional callback whose whole group the filter stage drops is not
//    registered at all (it then costs nothing);
//  - a callback the runtime refuses (ompt_set_error or ompt_set_never; a
//    required one also when the runtime delivers it only sometimes) takes
//    down the callbacks that depend on it: they are unregistered, so no
//    half of a pair is recorded. A refused required callback gets a one-line
//    warning, and so does an optional group whose rows say what their
//    refusal costs (Loss not empty: offload), once for the group; every
//    result is in the OTTER_VERBOSE report.
// Kept apart from tool.cpp so that it is tested without an OpenMP runtime.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_OMPT_REGISTRATION_H
#define OTTER_OMPT_REGISTRATION_H

#include "core/filter.h"

#include <omp-tools.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace otter::ompt {

/// A set of callbacks: bit 1 << ompt_callbacks_t value (all are < 64).
using CallbackSet = std::uint64_t;
constexpr CallbackSet callbackBit(ompt_callbacks_t C) {
  return CallbackSet(1) << unsigned(C);
}

/// The set of the callbacks listed.
constexpr CallbackSet
callbackBits(std::initializer_list<ompt_callbacks_t> Callbacks) {
  CallbackSet S = 0;
  for (ompt_callbacks_t C : Callbacks)
    S |= callbackBit(C);
  return S;
}

/// One row of the adapter's table.
struct CallbackSpec {
  ompt_callbacks_t Which;
  ompt_callback_t Fn;
  const char *Name; // without the ompt_callback_ prefix
  EventGroup Group;
  /// The adapter needs it whatever the filter drops (task records, ids).
  bool Required;
  /// Callbacks that mean nothing without it: unregistered if it is refused.
  CallbackSet Dependents;
  /// What its refusal costs beyond its own events, for the message ("" if
  /// nothing).
  const char *Loss;
};

/// A row of a callback table (each ompt/callbacks_*.cpp file has the rows
/// of its own callbacks, beside them): the callback's name without the
/// ompt_callback_ prefix, its function, its group (an EventGroup), whether
/// it is required, its dependents (a CallbackSet) and what its refusal
/// costs.
#define OTTER_CALLBACK(Name, Fn, Group, Required, Dependents, Loss)            \
  ::otter::ompt::CallbackSpec {                                                \
    ompt_callback_##Name, reinterpret_cast<ompt_callback_t>(Fn), #Name,        \
        ::otter::EventGroup::Group, Required,                                  \
        ::otter::ompt::CallbackSet(Dependents), Loss                           \
  }

/// What happened to one callback.
struct CallbackOutcome {
  const CallbackSpec *Spec;
  /// The runtime's answer (ompt_set_result_t), or -1: not asked (its group
  /// is filtered out).
  int Result = -1;
  bool Refused = false;
  /// Unregistered because a callback it depends on was refused.
  bool Dropped = false;
};

struct Registration {
  std::vector<CallbackOutcome> Outcomes;
  /// One line each, for stderr: the refused required callbacks.
  std::vector<std::string> Warnings;
  /// The OTTER_VERBOSE report: a line per group with each callback's result.
  std::vector<std::string> report() const;
};

/// The runtime's ompt_set_callback, or a test's.
using SetCallback = std::function<int(ompt_callbacks_t, ompt_callback_t)>;

/// Registers Table with Set, leaving out the optional callbacks of the
/// groups in Unwanted (see the file comment).
Registration registerCallbacks(std::span<const CallbackSpec> Table,
                               const SetCallback &Set, GroupSet Unwanted);

/// "always", "never", ... for an ompt_set_result_t.
const char *setResultName(int Result);

} // namespace otter::ompt

#endif // OTTER_OMPT_REGISTRATION_H
