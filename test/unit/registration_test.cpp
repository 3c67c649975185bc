//===- registration_test.cpp - Registering OMPT callbacks, and refusals ---===//
//
// ompt/registration.h against a fake ompt_set_callback: callbacks of a
// group the filter drops are not registered unless required; a refused
// callback takes down the callbacks that depend on it (unregistered with a
// null callback), a refused required one gets one warning line; "impossible"
// loses nothing; the verbose report names every callback's result.
//
//===----------------------------------------------------------------------===//
#include "ompt/registration.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace otter;
using namespace otter::ompt;

namespace {

void cb() {}
ompt_callback_t fn() { return reinterpret_cast<ompt_callback_t>(&cb); }

/// A small table in the adapter's shape.
std::vector<CallbackSpec> table() {
  CallbackSet Task = callbackBit(ompt_callback_task_create) |
                     callbackBit(ompt_callback_task_schedule) |
                     callbackBit(ompt_callback_dependences);
  CallbackSet Mutex = callbackBit(ompt_callback_mutex_acquire) |
                      callbackBit(ompt_callback_mutex_acquired) |
                      callbackBit(ompt_callback_mutex_released);
  return {
      {ompt_callback_thread_begin, fn(), "thread_begin", EventGroup::Threads,
       true, 0, "threads are known from their first event"},
      {ompt_callback_task_create, fn(), "task_create", EventGroup::Tasks, true,
       Task, "explicit tasks are not recorded"},
      {ompt_callback_task_schedule, fn(), "task_schedule", EventGroup::Tasks,
       true, Task, "explicit tasks are not recorded"},
      {ompt_callback_dependences, fn(), "dependences", EventGroup::Dependences,
       false, 0, ""},
      {ompt_callback_mutex_acquire, fn(), "mutex_acquire", EventGroup::Mutex,
       false, Mutex, ""},
      {ompt_callback_mutex_acquired, fn(), "mutex_acquired", EventGroup::Mutex,
       false, Mutex, ""},
      {ompt_callback_mutex_released, fn(), "mutex_released", EventGroup::Mutex,
       false, Mutex, ""},
      {ompt_callback_cancel, fn(), "cancel", EventGroup::Cancel, false, 0, ""},
  };
}

/// A runtime that answers from Answers (default: always) and remembers
/// what is registered now.
struct FakeRuntime {
  std::map<ompt_callbacks_t, int> Answers;
  std::map<ompt_callbacks_t, bool> Registered;
  int Calls = 0;
  SetCallback set() {
    return [this](ompt_callbacks_t C, ompt_callback_t F) {
      ++Calls;
      auto It = Answers.find(C);
      int R = It == Answers.end() ? int(ompt_set_always) : It->second;
      Registered[C] = F != nullptr && R >= ompt_set_sometimes;
      return R;
    };
  }
};

const CallbackOutcome &outcome(const Registration &R, const char *Name) {
  for (const CallbackOutcome &O : R.Outcomes)
    if (std::string(O.Spec->Name) == Name)
      return O;
  ADD_FAILURE() << Name;
  return R.Outcomes.front();
}

} // namespace

TEST(Registration, EverythingAccepted) {
  std::vector<CallbackSpec> T = table();
  FakeRuntime RT;
  Registration R = registerCallbacks(T, RT.set(), 0);
  EXPECT_EQ(RT.Calls, int(T.size()));
  EXPECT_TRUE(R.Warnings.empty());
  for (const CallbackOutcome &O : R.Outcomes) {
    EXPECT_EQ(O.Result, int(ompt_set_always));
    EXPECT_FALSE(O.Refused || O.Dropped);
  }
  std::vector<std::string> Report = R.report();
  ASSERT_EQ(Report.size(), 5u); // one line per group present
  EXPECT_EQ(Report[0], "callbacks, threads (required): thread_begin always");
  EXPECT_EQ(Report[1], "callbacks, tasks (required): task_create always, "
                       "task_schedule always");
  EXPECT_EQ(Report[3], "callbacks, mutex: mutex_acquire always, "
                       "mutex_acquired always, mutex_released always");
}

TEST(Registration, FilteredGroupsAreNotRegisteredUnlessRequired) {
  std::vector<CallbackSpec> T = table();
  FakeRuntime RT;
  Registration R = registerCallbacks(
      T, RT.set(), groupBit(EventGroup::Mutex) | groupBit(EventGroup::Tasks));
  EXPECT_FALSE(RT.Registered.count(ompt_callback_mutex_acquire));
  EXPECT_EQ(outcome(R, "mutex_released").Result, -1);
  // The adapter keeps task records with them: registered, the filter
  // stage drops their events.
  EXPECT_TRUE(RT.Registered[ompt_callback_task_create]);
  EXPECT_TRUE(RT.Registered[ompt_callback_cancel]);
  EXPECT_EQ(R.report()[3], "callbacks, mutex: mutex_acquire not registered "
                           "(filtered out), mutex_acquired not registered "
                           "(filtered out), mutex_released not registered "
                           "(filtered out)");
}

TEST(Registration, ARefusedRequiredCallbackDisablesWhatDependsOnIt) {
  std::vector<CallbackSpec> T = table();
  FakeRuntime RT;
  RT.Answers[ompt_callback_task_schedule] = ompt_set_never;
  Registration R = registerCallbacks(T, RT.set(), 0);
  ASSERT_EQ(R.Warnings.size(), 1u);
  EXPECT_EQ(R.Warnings[0],
            "the OpenMP runtime refuses ompt_callback_task_schedule (never): "
            "explicit tasks are not recorded; not recording task_create, "
            "dependences either");
  EXPECT_TRUE(outcome(R, "task_schedule").Refused);
  EXPECT_TRUE(outcome(R, "task_create").Dropped);
  EXPECT_TRUE(outcome(R, "dependences").Dropped);
  EXPECT_FALSE(RT.Registered[ompt_callback_task_create]);
  EXPECT_FALSE(RT.Registered[ompt_callback_dependences]);
  // Only what depends on it.
  EXPECT_TRUE(RT.Registered[ompt_callback_thread_begin]);
  EXPECT_TRUE(RT.Registered[ompt_callback_mutex_acquire]);
  EXPECT_TRUE(RT.Registered[ompt_callback_cancel]);
  EXPECT_EQ(R.report()[1],
            "callbacks, tasks (required): task_create dropped (depends on a "
            "refused callback), task_schedule never (refused)");
}

TEST(Registration, ARequiredCallbackDeliveredSometimesIsRefused) {
  std::vector<CallbackSpec> T = table();
  FakeRuntime RT;
  RT.Answers[ompt_callback_thread_begin] = ompt_set_sometimes;
  Registration R = registerCallbacks(T, RT.set(), 0);
  ASSERT_EQ(R.Warnings.size(), 1u);
  EXPECT_EQ(R.Warnings[0], "the OpenMP runtime refuses "
                           "ompt_callback_thread_begin (sometimes): threads "
                           "are known from their first event");
  for (const CallbackOutcome &O : R.Outcomes)
    EXPECT_FALSE(O.Dropped) << O.Spec->Name;
}

TEST(Registration, OptionalRefusalsAreQuietAndImpossibleLosesNothing) {
  std::vector<CallbackSpec> T = table();
  FakeRuntime RT;
  RT.Answers[ompt_callback_mutex_acquired] = ompt_set_error;
  RT.Answers[ompt_callback_cancel] = ompt_set_impossible;
  RT.Answers[ompt_callback_dependences] = ompt_set_sometimes;
  Registration R = registerCallbacks(T, RT.set(), 0);
  EXPECT_TRUE(R.Warnings.empty());
  EXPECT_TRUE(outcome(R, "mutex_acquired").Refused);
  EXPECT_TRUE(outcome(R, "mutex_acquire").Dropped);
  EXPECT_TRUE(outcome(R, "mutex_released").Dropped);
  EXPECT_FALSE(RT.Registered[ompt_callback_mutex_acquire]);
  EXPECT_FALSE(outcome(R, "cancel").Refused);
  EXPECT_FALSE(outcome(R, "dependences").Refused);
  EXPECT_EQ(R.report().back(), "callbacks, cancel: cancel impossible");
}

// Offload's group: optional, all or nothing, and its refusal says so in one
// line (however many of its callbacks the runtime refuses); the rest of the
// table is untouched.
TEST(Registration, ARefusedOffloadGroupIsOneLineAndDisablesOnlyOffload) {
  std::vector<CallbackSpec> T = table();
  const CallbackSet Target = callbackBit(ompt_callback_target_emi) |
                             callbackBit(ompt_callback_target_submit_emi) |
                             callbackBit(ompt_callback_device_load);
  const char *Loss = "offload is not traced";
  T.push_back({ompt_callback_target_emi, fn(), "target_emi", EventGroup::Target,
               false, Target, Loss});
  T.push_back({ompt_callback_target_submit_emi, fn(), "target_submit_emi",
               EventGroup::Target, false, Target, Loss});
  T.push_back({ompt_callback_device_load, fn(), "device_load",
               EventGroup::Target, false, Target, Loss});
  FakeRuntime RT;
  RT.Answers[ompt_callback_target_submit_emi] = ompt_set_never;
  RT.Answers[ompt_callback_device_load] = ompt_set_error;
  Registration R = registerCallbacks(T, RT.set(), 0);
  ASSERT_EQ(R.Warnings.size(), 1u);
  EXPECT_EQ(R.Warnings[0], "the OpenMP runtime refuses "
                           "ompt_callback_target_submit_emi (never): offload "
                           "is not traced");
  EXPECT_TRUE(outcome(R, "target_emi").Dropped);
  EXPECT_FALSE(RT.Registered[ompt_callback_target_emi]);
  EXPECT_TRUE(RT.Registered[ompt_callback_mutex_acquire]);
  EXPECT_TRUE(RT.Registered[ompt_callback_task_create]);
}
