//===- ompt/calibrate.cpp - OTTER's own cost of recording an event -------===//
//
// See calibrate.h. The synthetic tasks are created by a task whose record
// comes from the scratch thread, with a code address inside this library
// (not the OpenMP runtime's: the fast path's), and switched to and
// completed as libomp reports an undeferred task: the creation and the
// switch fold into one event (otter/events.h), the completion is another.
//
//===----------------------------------------------------------------------===//
#include "ompt/calibrate.h"

#include "core/recorder.h"

#include <algorithm>

namespace otter::ompt {

namespace {
constexpr unsigned TasksPerRound = 256;
constexpr unsigned Rounds = 7;

template <class Fn> Fn callbackOf(std::span<const CallbackSpec> Table,
                                  ompt_callbacks_t Which) {
  for (const CallbackSpec &S : Table)
    if (S.Which == Which)
      return reinterpret_cast<Fn>(S.Fn);
  return nullptr;
}

/// One round: the tasks created, switched to and completed; the time in ns
/// and the events the callbacks recorded (0: nothing recorded).
std::uint64_t round(ThreadState *T, ompt_callback_task_create_t Create,
                    ompt_callback_task_schedule_t Schedule,
                    ompt_data_t &Parent, std::uint64_t &Events) {
  T->Count = 0;
  const void *Code = reinterpret_cast<const void *>(&measureRecordingCostNs);
  std::uint64_t Start = recorder::monotonicNs();
  for (unsigned I = 0; I < TasksPerRound; ++I) {
    ompt_data_t Child{};
    Create(&Parent, nullptr, &Child, ompt_task_explicit | ompt_task_undeferred,
           0, Code);
    Schedule(&Parent, ompt_task_switch, &Child);
    Schedule(&Child, ompt_task_complete, &Parent);
  }
  std::uint64_t Ns = recorder::monotonicNs() - Start;
  Events = T->Count;
  T->Count = 0;
  return Ns;
}
} // namespace

std::uint32_t measureRecordingCostNs(std::span<const CallbackSpec> Table) {
  auto Create =
      callbackOf<ompt_callback_task_create_t>(Table, ompt_callback_task_create);
  auto Schedule = callbackOf<ompt_callback_task_schedule_t>(
      Table, ompt_callback_task_schedule);
  if (!Create || !Schedule ||
      recorder::Gate.load(std::memory_order_relaxed) != 0)
    return 0;
  // Three events at most per task, and room to spare: never full, never
  // flushed (a scratch buffer has no sink).
  ThreadState *T =
      recorder::makeScratchThread(4 * TasksPerRound + 16);
  if (!T)
    return 0;
  ThreadState *Saved = recorder::CurrentThread;
  recorder::CurrentThread = T;
  TaskState *Own = recorder::allocTask(T);
  std::uint64_t Best = 0;
  if (Own) {
    *Own = TaskState{};
    Own->Id = recorder::newId(T);
    ompt_data_t Parent{};
    Parent.ptr = Own;
    for (unsigned R = 0; R < Rounds; ++R) {
      std::uint64_t Events = 0;
      std::uint64_t Ns = round(T, Create, Schedule, Parent, Events);
      if (!Events)
        break;
      std::uint64_t PerEvent = std::max<std::uint64_t>(1, Ns / Events);
      Best = Best ? std::min(Best, PerEvent) : PerEvent;
    }
  }
  recorder::CurrentThread = Saved;
  recorder::releaseScratchThread(T);
  return std::uint32_t(std::min<std::uint64_t>(Best, 1000000));
}

} // namespace otter::ompt
