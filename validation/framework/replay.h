// Replaying task completions through FrameworkController's algorithms: the task retry policy,
// the FrameworkAttempt completion policy and the framework retry policy
// (microsoft/frameworkcontroller@d6e70787, funcs.go: RetryPolicySpec.ShouldRetry and the completion
// policies), and the steps `simulate` takes for a Framework.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"
#include "validation/framework/retry.h"
#include "validation/framework/types.h"

namespace jobset {

/// One task attempt completing: `worker/0:137`.
struct TaskCompletionSpec {
  std::string role;
  int64_t index = 0;
  CompletionStatus status;
};

/// The completions of one step, in the order they happened; each is handled in turn.
using FrameworkStepSpec = std::vector<TaskCompletionSpec>;

/// Parses one --fail value for a Framework: `TASKROLE/INDEX:COMPLETION`, several separated by
/// commas for one step (`worker/0:137,ps/1:Succeeded`). COMPLETION as ParseTaskCompletion.
bool ParseFrameworkFailFlag(std::string_view text, FrameworkStepSpec* out, std::string* error);

/// Reads `steps: [{complete: [{task: worker/0, code: 137}]}]` (`fail` is taken for `complete`;
/// `code` is a number or a COMPLETION text). Errors name the field (`steps[1].complete[0].task`).
bool ParseFrameworkScenario(const Node& scenario, std::vector<FrameworkStepSpec>* steps,
                            std::string* error);

/// One task of the current FrameworkAttempt.
struct SimTask {
  RetryCounters counters;   ///< Reset for every new FrameworkAttempt.
  bool completed = false;   ///< TaskCompleted: its last attempt completed and was not retried.
  CompletionStatus status;  ///< Of the last completed attempt.
};

/// The FrameworkAttempt completion policy's verdict after one task reached TaskCompleted.
struct AttemptVerdict {
  bool complete = false;
  CompletionStatus status;
  std::string message;  ///< The controller's trigger message.
  bool triggered_by_task =
      false;  ///< Conditions 1 and 2 (a role's min count), not "all completed".
};

/// The completed tasks of a FrameworkAttempt, counted as they complete so that the completion
/// policy does not recount every task at each completion.
struct CompletionCounts {
  std::vector<int64_t> failed, succeeded;  ///< Per role: completed tasks, by outcome.
  int64_t completed = 0;                   ///< Completed tasks of all roles.
  int64_t total = 0;                       ///< Tasks of all roles (Σ taskNumber, negative as 0).
};

/// The counts of a fresh FrameworkAttempt of `fw`: no task completed.
CompletionCounts FreshCompletionCounts(const Framework& fw);

/// Counts a task of role `role` that reached TaskCompleted with `status`.
void CountCompletion(CompletionCounts* counts, size_t role, const CompletionStatus& status);

/// Whether the FrameworkAttempt completes now that a task of role `role` reached TaskCompleted
/// with `status` (`counts` already counts it).
AttemptVerdict CheckCompletionPolicy(const Framework& fw, const CompletionCounts& counts,
                                     size_t role, const CompletionStatus& status);

/// What happened to one task completion.
struct TaskCompletionEvent {
  std::string role;
  int64_t index = 0;
  std::string pod;
  CompletionStatus status;
  int64_t framework_attempt_id = 0;
  int64_t task_attempt_id = 0;  ///< The task attempt that completed.
  bool ignored = false;         ///< Could not happen (see ignored_why); nothing changed.
  std::string ignored_why;
  RetryDecision decision;      ///< The task retry decision.
  RetryCounters counters;      ///< The task's counters after it.
  int completed_attempt = -1;  ///< Index in the step's `attempts` of the attempt it completed.
};

/// A FrameworkAttempt completing, and the framework retry decision on it.
struct AttemptCompletionEvent {
  int64_t framework_attempt_id = 0;
  CompletionStatus status;
  std::string message;
  /// The task whose completion completed the attempt (for "every task completed", the last one
  /// to complete); "" when no task did (executionType Stop).
  std::string trigger_role;
  int64_t trigger_index = -1;
  std::vector<std::string> stopped;  ///< Pods of running tasks, completed with -220.
  RetryDecision decision;
  RetryCounters counters;  ///< The framework's counters after it.
};

/// One step: its completions, and any FrameworkAttempt they completed, in order.
struct FrameworkReplayStep {
  std::vector<TaskCompletionEvent> events;
  std::vector<AttemptCompletionEvent> attempts;
  std::string state;  ///< FrameworkState after the step.
};

/// A whole replay.
struct FrameworkReplayResult {
  /// executionType Stop: the first FrameworkAttempt completes before any step.
  std::vector<AttemptCompletionEvent> at_start;
  std::vector<FrameworkReplayStep> steps;
  std::string state;  ///< AttemptRunning, AttemptCreationPending or Completed.
  RetryCounters counters;
  std::vector<std::vector<SimTask>> tasks;  ///< The current (or last) FrameworkAttempt.
  bool completed = false;
  AttemptCompletionEvent final_attempt;  ///< The last completed FrameworkAttempt, if completed.
};

/// Runs `steps`. Gives false and a message for an unknown task role or an index outside
/// [0, taskNumber).
bool ReplayFramework(const Framework& fw, const std::vector<FrameworkStepSpec>& steps,
                     FrameworkReplayResult* out, std::string* error);

}  // namespace jobset
