// The JobSet controller's failure-policy algorithm (kubernetes-sigs/jobset@08dfbdfd,
// pkg/controllers/failure_policy.go executeFailurePolicy and jobset_controller.go) as a pure,
// deterministic library: `explain` asks it what one failure would do, `simulate` replays steps of
// failures through it, and the Monte Carlo simulator calls it millions of times.
//
// Hot path: PreparePolicy compiles every RE2 pattern once; ApplyFailures builds no strings
// (condition texts are kept as small structured values and rendered on demand by ReasonText and
// MessageText), and reuses the capacity of the StepOutcome it is given, so a warm call does not
// allocate. Memory does not depend on pod count (only the per-index jobRestarts arrays that
// upstream keeps in the JobSet status grow with replicas).
//
// Size: a decision looks only at the rules that can admit its failure (RuleIndex), and a step
// sorts its failures once, so time and memory grow with the policy and the failures as written,
// not with rules x replicated jobs or failures x failures (issue #19).
//
// Parts: policy_engine_index.h (actions, the prepared policy and its rule index),
// policy_engine_text.h (condition and event texts), this file (the controller state and the
// engine: one function per failure-policy action, as failure_policy.go's appliers).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "validation/jobset/feature_gates.h"
#include "validation/jobset/policy_engine_index.h"
#include "validation/jobset/policy_engine_text.h"
#include "validation/jobset/types.h"

namespace jobset {

/// status.terminalState.
enum class TerminalState : uint8_t { kNone, kFailed, kCompleted };

/// "", "Failed" or "Completed".
std::string_view TerminalStateName(TerminalState state);

/// One JobSet condition of a given type (present or not).
struct StatusCondition {
  bool present = false;
  bool status = false;  ///< True / False.
  StatusText text;
  int64_t last_transition_time = 0;  ///< Same clock as JobFailure::time.
};

/// An event the controller emits after a successful status write.
struct StatusEvent {
  bool warning = false;  ///< Warning, else Normal.
  StatusText text;
};

/// A failure left unhandled by a stuck pass (owned copy; it is retried with the next step).
struct PendingFailure {
  int rjob = 0;
  int64_t index = 0;
  std::string reason, message;
  int64_t time = 0;
};

/// The part of a JobSet's status the failure policy reads and writes. A value-initialized state
/// is a fresh JobSet; it belongs to the PreparedPolicy it is used with.
struct ControllerState {
  int64_t restarts = 0;                    ///< status.restarts.
  int64_t restarts_count_towards_max = 0;  ///< status.restartsCountTowardsMax.
  /// replicatedJobsStatus[rjob].jobRestarts: empty = absent (until the rjob's first individual
  /// restart; then one count per index, length = replicas).
  std::vector<std::vector<int32_t>> job_restarts;
  /// replicatedJobsStatus[rjob].jobRestartsCountTowardsMax, same shape rules (may stay absent
  /// while jobRestarts exists: RestartJobAndIgnoreMaxRestarts does not touch it).
  std::vector<std::vector<int32_t>> job_restarts_count_towards_max;
  /// Σ of all job_restarts_count_towards_max entries, kept in step by ApplyFailures.
  int64_t job_restarts_count_towards_max_sum = 0;
  TerminalState terminal_state = TerminalState::kNone;
  StatusCondition failed;      ///< Condition Failed.
  StatusCondition completed;   ///< Condition Completed.
  StatusCondition restarting;  ///< Condition RestartingJobSet.
  /// Failures of earlier steps still failed because the controller is stuck (an action that
  /// errors every pass), in the order the passes saw them; they take part, in front, in the next
  /// ApplyFailures call (which looks only at pending[pending_first]: see ApplyFailures).
  std::vector<PendingFailure> pending;
  /// The jobs (rjob, index) of `pending`: a new failure of one of them is ignored.
  std::set<std::pair<int, int64_t>> pending_jobs;
  /// The pending failure the stuck pass chose: every later pass chooses it before any other
  /// pending one (and errors on it again).
  size_t pending_first = 0;
  /// The latest time of a pending failure (the controller's "now" counts them).
  int64_t pending_time = std::numeric_limits<int64_t>::min();
  bool record_events = false;       ///< Append to `events` (off by default: costs allocations).
  std::vector<StatusEvent> events;  ///< Emitted events, in order.
};

/// Resets `state` to a fresh JobSet's, keeping the capacity of its vectors (and record_events).
void ResetState(ControllerState* state);

/// The budget the limit check compares with maxRestarts: restartsCountTowardsMax, plus Σ
/// jobRestartsCountTowardsMax when gate RestartJob is on.
int64_t CountedRestarts(const PreparedPolicy& policy, const ControllerState& state);

/// All jobs ready or succeeded (a reconcile pass of jobset_controller.go):
/// RestartingJobSet=False/JobsReady, if that condition exists. No-op once terminal.
void MarkJobsReady(const PreparedPolicy& policy, ControllerState* state, int64_t now);

/// The success policy was met: Completed=True/AllJobsCompleted, RestartingJobSet=False/
/// JobSetCompleted (if present), terminalState Completed. No-op once terminal.
void MarkCompleted(const PreparedPolicy& policy, ControllerState* state, int64_t now);

/// One child Job that failed: `<jobset>-<rjobs[rjob]>-<index>` with a Failed=True condition.
/// The strings are borrowed for the duration of the call.
struct JobFailure {
  int rjob = 0;              ///< Index into PreparedPolicy::rjob_names.
  int64_t index = 0;         ///< Job index within the replicated job.
  std::string_view reason;   ///< Condition reason: one of the five, empty, or anything.
  std::string_view message;  ///< Condition message.
  int64_t time = 0;          ///< Condition lastTransitionTime (any unit, one clock).
};

/// What became of one failure given to ApplyFailures.
enum class FailureFate : uint8_t {
  kHandled,  ///< A pass chose it (its name is in the conditions/events of that pass).
  /// Deleted with a global restart (or with its job's individual restart, when the same job is
  /// listed twice), or left failed once the JobSet became terminal.
  kDiscarded,
  kPending,  ///< The controller is stuck; it stays failed (ControllerState::pending).
  kIgnored,  ///< The JobSet was terminal before the step, or the job was already pending.
};

/// One reconcile pass that applied a failure-policy action (or, when stuck, tried to).
struct PassOutcome {
  int rjob = 0;  ///< The failed job chosen.
  int64_t index = 0;
  int rule = -1;  ///< Index of the rule applied; -1: default action or no policy.
  PolicyAction action = PolicyAction::kFailJobSet;  ///< No policy reports kFailJobSet.
  bool no_policy = false;    ///< spec.failurePolicy absent: Failed/FailedJobs.
  bool counted = false;      ///< Consumed maxRestarts budget (RestartJobSet/RestartJob applied).
  bool reached_max = false;  ///< The limit check failed the JobSet (ReachedMaxRestarts).
  bool stuck = false;        ///< The pass errored and wrote nothing (see StepOutcome::stuck).
  int64_t restarts = 0;      ///< Counters after the pass.
  int64_t restarts_count_towards_max = 0;
  int64_t counted_restarts = 0;  ///< CountedRestarts after the pass.
  TerminalState terminal_state = TerminalState::kNone;
};

/// The result of one step: the passes the controller ran, in order (a stuck pass last).
struct StepOutcome {
  std::vector<PassOutcome> passes;
  /// Per failure of the step, in the order given.
  std::vector<FailureFate> fates;
  /// ControllerState::pending.size() before the step.
  size_t pending_count = 0;
  /// What became of those pending failures (all alike): kPending (still stuck), kDiscarded (a
  /// global restart or a terminal state swept them away) or kIgnored (the JobSet was terminal).
  FailureFate pending_fate = FailureFate::kPending;
  bool was_terminal = false;  ///< The JobSet was terminal before the step: nothing changed.
  /// The controller errors on every pass (RestartJob* with the gate off, an unknown action, an
  /// index out of bounds for RestartJob): the failing pass wrote nothing, and the remaining
  /// failures are kept in ControllerState::pending.
  bool stuck = false;
  std::string stuck_error;  ///< Upstream's error text when stuck.
  std::string error;        ///< Invalid input (rjob out of range, negative index): no change.
  std::vector<int> scratch_first_rule;  ///< Working memory, reused between calls.
  std::vector<int> scratch_order;       ///< Working memory, reused between calls.
};

/// Applies the failures of one step (they all happen before the controller reacts, in the order
/// given, which is the list order for ties) and runs reconcile passes until no failed job is
/// left or the JobSet is terminal (reconcile passes of jobset_controller.go). `out` is cleared
/// first; its capacity is reused. The controller's "now" (for condition transition times) is the
/// latest failure time. A step of a stuck controller costs its own failures, not the pending
/// ones: the passes can choose only the pending failure they erred on (see the .cc).
void ApplyFailures(const PreparedPolicy& policy, ControllerState* state,
                   std::span<const JobFailure> failures, StepOutcome* out);

/// Convenience form of ApplyFailures that returns a new outcome.
StepOutcome ApplyFailures(const PreparedPolicy& policy, ControllerState* state,
                          std::span<const JobFailure> failures);

/// What the controller does with a failure, as `explain` reports it.
struct Decision {
  int rule = -1;  ///< Index into PreparedPolicy::rules; -1: default action or no policy.
  /// The action: the rule's; RestartJobSet by default; FailJobSet without a failure policy.
  PolicyAction action = PolicyAction::kFailJobSet;
  bool counts_towards_max = false;  ///< The action consumes maxRestarts budget.
  bool conditional = false;         ///< The rule has message patterns (matches only some messages).
  /// The controller would error every pass instead (RestartJob* with gate RestartJob off, or an
  /// unknown action).
  bool stuck = false;
};

/// Decides for a lone failure of a job of replicated job `rjob` with `reason` and `message`.
Decision Decide(const PreparedPolicy& policy, int rjob, std::string_view reason,
                std::string_view message);

/// The explanation for one (replicated job, reason) pair, messages unknown.
struct CellExplanation {
  /// The rule chosen when the message matches its patterns (if it has any).
  Decision decision;
  /// When decision.conditional: otherwise[0] is what applies when the message does not match
  /// its patterns; when otherwise[0] is conditional too, otherwise[1] applies when the message
  /// matches neither, and so on. The last entry is unconditional or the default action.
  std::vector<Decision> otherwise;
};

/// Explains the (rjob, reason) cell. A rule whose patterns all failed to compile can never match
/// and is skipped.
CellExplanation ExplainCell(const PreparedPolicy& policy, int rjob, std::string_view reason);

}  // namespace jobset
