//===- ompt/callbacks_target.cpp - The OMPT target (offload) callbacks ----===//
//
// libomptarget's host-side callbacks (OpenMP 5.1's EMI forms): a target
// construct's begin and end (target, enter data, exit data, update, and
// their nowait forms), its data operations (allocations, transfers to and
// from the device, deletions) and kernel submissions, a device's
// initialisation and a device image loaded onto it. Each becomes an event
// of the calling thread (ompt/adapter.h), in the task that runs the
// construct: the target task of a `nowait` construct, else the encountering
// task. A target region's id is OTTER's own, made at its begin and kept in
// OMPT's target_data, so that its submissions name it without a lookup.
// The rows are an optional group of their own (Target): a refusal by the
// runtime disables offload tracing only, with one line (every row depends
// on every other). No lock and no allocation but in device_initialize (its
// type name, interned once per device). docs/offload.md.
//
//===----------------------------------------------------------------------===//
#include "core/names.h"
#include "ompt/adapter.h"
#include "ompt/tool.h"

using namespace otter;

namespace otter::ompt::adapter {

namespace {

/// The task that runs a target construct: its target task if it has one
/// (nowait: the tool's task_create gave it a record), else the given task,
/// else the thread's current task.
TaskState *targetTask(ompt_data_t *TargetTaskData, ompt_data_t *TaskData) {
  if (TaskState *S = taskOf(TargetTaskData))
    return S;
  if (TaskState *S = taskOf(TaskData))
    return S;
  return currentTask();
}

std::uint64_t targetIdOf(const ompt_data_t *TargetData) {
  return TargetData ? TargetData->value : 0;
}

void onTarget(ompt_target_t Kind, ompt_scope_endpoint_t Endpoint, int DeviceNum,
              ompt_data_t *TaskData, ompt_data_t *TargetTaskData,
              ompt_data_t *TargetData, const void *Codeptr) {
  OTTER_PROLOGUE();
  TaskState *S = targetTask(TargetTaskData, TaskData);
  const bool Begin = Endpoint == ompt_scope_begin;
  if (Begin && TargetData)
    TargetData->value = recorder::newId(T);
  const std::uint64_t Id = targetIdOf(TargetData);
  record(T, S, [&] {
    return (Begin ? &Event::targetBegin : &Event::targetEnd)(
        0, idOf(S), TargetKind(Kind), Id, DeviceNum, code(Codeptr));
  });
}

void onDataOp(ompt_scope_endpoint_t Endpoint, ompt_data_t *TargetTaskData,
              ompt_data_t *, ompt_id_t *, ompt_target_data_op_t OpType, void *,
              int SrcDevice, void *, int DstDevice, size_t Bytes,
              const void *Codeptr) {
  OTTER_PROLOGUE();
  TaskState *S = targetTask(TargetTaskData, nullptr);
  record(T, S, [&] {
    return (Endpoint == ompt_scope_begin ? &Event::targetDataOpBegin
                                         : &Event::targetDataOpEnd)(
        0, idOf(S), DataOpKind(OpType), std::uint64_t(Bytes), SrcDevice,
        DstDevice, code(Codeptr));
  });
}

void onSubmit(ompt_scope_endpoint_t Endpoint, ompt_data_t *TargetData,
              ompt_id_t *, unsigned int RequestedTeams) {
  OTTER_PROLOGUE();
  TaskState *S = currentTask();
  const std::uint64_t Id = targetIdOf(TargetData);
  record(T, S, [&] {
    return (Endpoint == ompt_scope_begin ? &Event::targetSubmitBegin
                                         : &Event::targetSubmitEnd)(
        0, idOf(S), Id, std::uint32_t(RequestedTeams));
  });
}

void onDeviceInitialize(int DeviceNum, const char *Type, ompt_device_t *,
                        ompt_function_lookup_t, const char *) {
  OTTER_PROLOGUE();
  const std::uint16_t Name = names::intern(Type);
  record(T, nullptr,
         [&] { return Event::deviceInitialize(0, DeviceNum, Name); });
}

void onDeviceLoad(int DeviceNum, const char *, std::int64_t, void *,
                  size_t Bytes, void *, void *, std::uint64_t) {
  OTTER_PROLOGUE();
  record(T, nullptr,
         [&] { return Event::deviceLoad(0, DeviceNum, std::uint64_t(Bytes)); });
}

/// Offload tracing is all or nothing: a submission without its target
/// region, or a region without its transfers, would mislead.
constexpr CallbackSet TargetAll =
    callbackBits({ompt_callback_target_emi, ompt_callback_target_data_op_emi,
                  ompt_callback_target_submit_emi,
                  ompt_callback_device_initialize, ompt_callback_device_load});

constexpr const char *TargetLoss =
    "offload is not traced (target regions, data transfers, kernels)";

} // namespace

std::span<const CallbackSpec> targetCallbacks() {
  static const CallbackSpec Rows[] = {
      OTTER_CALLBACK(target_emi, onTarget, Target, false, TargetAll,
                     TargetLoss),
      OTTER_CALLBACK(target_data_op_emi, onDataOp, Target, false, TargetAll,
                     TargetLoss),
      OTTER_CALLBACK(target_submit_emi, onSubmit, Target, false, TargetAll,
                     TargetLoss),
      OTTER_CALLBACK(device_initialize, onDeviceInitialize, Target, false,
                     TargetAll, TargetLoss),
      OTTER_CALLBACK(device_load, onDeviceLoad, Target, false, TargetAll,
                     TargetLoss),
  };
  return Rows;
}

} // namespace otter::ompt::adapter
