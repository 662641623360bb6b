// Replaying Volcano Job events through the lifecycle semantics (lifecycle.h): the steps
// `simulate` takes from --fail values or a scenario file, and the per-task, per-event table
// `explain` prints (each cell is a one-step replay from a fresh Running job).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"
#include "validation/volcano/lifecycle.h"

namespace jobset {

/// The events of one step, in the order they happen.
using VolcanoStep = std::vector<VolcanoEventSpec>;

/// Parses one --fail value for a Volcano Job: `TASK/INDEX:EVENT[:EXITCODE]` (a pod event),
/// `TASK[/INDEX]:EVENT` (TaskCompleted, TaskFailed), `Unknown` (the PodGroup event, no task) or
/// `Command:ACTION` (a vcctl command); several comma-separated for one step. EVENT is a Volcano
/// event or PodSucceeded. A JobSet-style value (`workers/0:PodFailurePolicy:exit code 143`) is an
/// error that says so.
bool ParseVolcanoFail(std::string_view text, VolcanoStep* out, std::string* error);

/// Reads `steps: [{events: [{task, index, event, exitCode} | {command}]}]` from a scenario
/// document. Errors name the field (`steps[1].events[0].exitCode`); the JobSet form (`fail:`)
/// is an error that says so.
bool ParseVolcanoScenario(const Node& scenario, std::vector<VolcanoStep>* steps,
                          std::string* error);

/// A whole replay: every step and the state it ended in.
struct VolcanoReplayResult {
  std::vector<VolcanoStepOutcome> steps;
  VolcanoState state;
};

/// Runs `steps` in order from InitialVolcanoState. Gives false and "step N: <why>" for an event
/// the job cannot have (ApplyVolcanoStep).
bool ReplayVolcano(const VolcanoJob& job, const std::vector<VolcanoStep>& steps,
                   VolcanoReplayResult* out, std::string* error);

/// One cell of `explain`: one event of one task (or of the job, for Unknown) from a fresh Running
/// job, what matched and where the job ends up.
struct VolcanoExplainCell {
  int task = -1;      ///< -1: the job-level Unknown event.
  std::string event;  ///< PodFailed, PodEvicted, PodPending, TaskCompleted, TaskFailed, Unknown.
  bool has_exit_code = false;  ///< PodFailed with this exit code (from an exit-code policy).
  int64_t exit_code = 0;       ///< For PodFailed, the code the cell was computed with.
  /// PodFailed with any exit code no policy names (when some policy names one; the cell is
  /// computed with the smallest positive code no policy names).
  bool other_exit_codes = false;
  VolcanoStepOutcome outcome;  ///< The first event is the request itself.
};

/// The table: per task, PodFailed for each exit code an exit-code policy of the task or the job
/// names, PodFailed with any other code, PodEvicted, PodPending, TaskCompleted, TaskFailed; then
/// the job's Unknown.
std::vector<VolcanoExplainCell> ExplainVolcanoJob(const VolcanoJob& job);

/// The phase the job ends in when pod 0 of `task` fails with `exit_code` from a fresh Running
/// job, and then, in one step, every other pod of the job succeeds (tasks in order, pods by
/// index: as the replay of one PodSucceeded per pod). Costs O(tasks), not the number of pods.
/// False when the job cannot have those events (no pod in `task`, or `task` is not the first of
/// its name).
bool PhaseWhenOthersSucceed(const VolcanoJob& job, int task, int64_t exit_code,
                            VolcanoPhase* phase);

/// A policy that can never fire, and why.
struct VolcanoDeadPolicy {
  const VolcanoPolicy* policy = nullptr;
  std::string why;
};

/// The policies no cell of `cells` fires, each with the reason (an event the controller never
/// sends to it, PodPending without timeout, a policy before it that takes the same events, ...).
std::vector<VolcanoDeadPolicy> DeadVolcanoPolicies(const VolcanoJob& job,
                                                   const std::vector<VolcanoExplainCell>& cells);

}  // namespace jobset
