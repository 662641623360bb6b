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
#include "validation/jobset/types.h"

namespace re2 {
class RE2;
}  // namespace re2

namespace jobset {

// --- Actions --------------------------------------------------------------------------------

/// A failure-policy action. kUnknown stands for any other string (admission rejects it; the
/// controller errors out on it every pass).
enum class PolicyAction : uint8_t {
  kFailJobSet,
  kRestartJobSet,
  kRestartJobSetAndIgnoreMaxRestarts,
  kRestartJob,
  kRestartJobAndIgnoreMaxRestarts,
  kUnknown,
};

/// The upstream spelling ("RestartJobSet", ...); "Unknown" for kUnknown.
std::string_view ActionName(PolicyAction action);

/// Parses the upstream spelling (exact, case-sensitive); anything else gives kUnknown.
PolicyAction ParseAction(std::string_view text);

/// True for the actions that consume the maxRestarts budget: RestartJobSet and RestartJob.
bool CountsTowardsMax(PolicyAction action);

/// True for RestartJob and RestartJobAndIgnoreMaxRestarts (they need gate RestartJob).
bool IsIndividualRestart(PolicyAction action);

// --- The prepared policy --------------------------------------------------------------------

/// One rule of spec.failurePolicy.rules, prepared for matching.
struct PreparedRule {
  std::string name;              ///< As written; failurePolicyRule<i> when empty.
  std::string condition_reason;  ///< "FailurePolicy_<name>", the RestartingJobSet reason.
  PolicyAction action = PolicyAction::kUnknown;
  std::string action_text;           ///< As written (named in the unknown-action error).
  std::vector<std::string> reasons;  ///< onJobFailureReasons; empty = any reason.
  bool has_patterns = false;         ///< onJobFailureMessagePatterns is non-empty.
  /// The patterns that compiled, in order (RE2, Go defaults). When has_patterns and this is
  /// empty, the rule never matches.
  std::vector<std::shared_ptr<const re2::RE2>> patterns;
  /// When several patterns compiled: one alternation `(?:p1)|(?:p2)|...` of them, matched in a
  /// single scan (the same answer as trying each in turn); null when it could not be built.
  std::shared_ptr<const re2::RE2> combined;
  std::vector<std::string> pattern_errors;  ///< Per pattern as written: "" or RE2's error.
  /// Set by a caller that decided the patterns beforehand for every message its failures can
  /// carry (the Monte Carlo's specialisation): then the rule's patterns match exactly the
  /// messages of `matching_messages` (sorted), and are not run.
  bool messages_decided = false;
  std::vector<std::string> matching_messages;  ///< See messages_decided.
  bool targets_all = true;  ///< targetReplicatedJobs is empty: the rule admits every rjob.
  /// Otherwise the rjobs its target list admits, as their keys (PreparedPolicy::rjob_key), sorted,
  /// without repeats; a name no rjob has adds nothing. Memory grows with the list, not with the
  /// number of rjobs.
  std::vector<int> target_keys;
};

/// The rules of a policy grouped by what they restrict, each group in spec order, so that the
/// rules a failure of one rjob with one reason can match are found without looking at the others
/// (built by IndexRules; memory grows with the rules' target and reason lists).
struct RuleIndex {
  bool built = false;    ///< False: every decision scans all rules.
  std::vector<int> any;  ///< No target list and no reason list: every failure is a candidate.
  /// No target list, a reason list: per reason named, the rules naming it; sorted by reason.
  std::vector<std::pair<std::string, std::vector<int>>> by_reason;
  /// A target list and no reason list: the rules that target rjob key k are
  /// targeted[targeted_begin[k] .. targeted_begin[k + 1]).
  std::vector<uint32_t> targeted_begin;
  std::vector<int> targeted;
  /// A target list and a reason list: the reasons they name, sorted, numbered by their place.
  std::vector<std::string> targeted_reasons;
  /// The (rjob key, reason number) pairs they name, sorted: the rules of pair i are
  /// targeted_named[targeted_named_begin[i] .. targeted_named_begin[i + 1]) (memory grows with
  /// each such rule's targets times its reasons).
  std::vector<std::pair<int, uint32_t>> targeted_pairs;
  std::vector<uint32_t> targeted_named_begin;
  std::vector<int> targeted_named;
};

/// A JobSet's failure policy prepared once (patterns compiled, names resolved): the read-only
/// input of every decision. Copies share the compiled patterns; safe to share between threads
/// (RE2 guards its lazily built DFA with a lock: a heavily threaded caller may prefer one
/// PreparePolicy per thread).
struct PreparedPolicy {
  std::string jobset_name;              ///< Prefix of child job names.
  std::vector<std::string> rjob_names;  ///< spec.replicatedJobs[].name, in spec order.
  std::vector<int64_t> rjob_replicas;   ///< spec.replicatedJobs[].replicas.
  bool has_failure_policy = false;      ///< spec.failurePolicy present (`{}` counts as present).
  int64_t max_restarts = 0;             ///< May be negative: then no counted restart is allowed.
  std::string restart_strategy = "Recreate";
  std::vector<PreparedRule> rules;  ///< In spec order.
  FeatureGates gates;
  /// Per rjob: the index of the first rjob of its name (its own, unless names repeat); target
  /// lists name rjobs by these keys.
  std::vector<int> rjob_key;
  RuleIndex rule_index;  ///< See IndexRules.
};

/// Prepares `js` for the engine: compiles patterns, resolves targets to rjob indexes, names
/// unnamed rules as the webhook would. The child-job prefix is metadata.name (else the name
/// admission validates with, see NameForValidation).
PreparedPolicy PreparePolicy(const JobSet& js, const FeatureGates& gates);

/// Builds policy->rule_index from the rules' target keys and reason lists; call it again after
/// changing them. Decisions find the same rule with or without the index (small policies are
/// scanned whole either way).
void IndexRules(PreparedPolicy* policy);

/// A RuleIndex of the rules of `policy` for which keep(rule) is true.
RuleIndex IndexRulesWhere(const PreparedPolicy& policy,
                          const std::function<bool(const PreparedRule&)>& keep);

/// The lists of a RuleIndex that hold the rules that can admit a failure of one rjob with one
/// reason, each in spec order, disjoint, every rule of each admitting it: `any` (no target or
/// reason list), `named` (a reason list naming it), `targeted` (a target list naming the rjob, no
/// reason list), `targeted_named` (both lists naming them).
struct CandidateLists {
  std::span<const int> any, named, targeted, targeted_named;
};

/// The candidate lists of `index` (built for `policy`) for a failure of `rjob` with `reason`;
/// all empty for an rjob out of range or without a name.
CandidateLists Candidates(const PreparedPolicy& policy, const RuleIndex& index, int rjob,
                          std::string_view reason);

/// True when the rule's onJobFailureReasons is empty or names `reason`.
bool RuleReasonsAdmit(const PreparedRule& rule, std::string_view reason);

/// True when the rule has no message patterns or one of them matches `message` (when
/// messages_decided: when `message` is one of matching_messages).
bool MessageMatches(const PreparedRule& rule, std::string_view message);

/// The index of the replicated job called `name`, or -1.
int FindReplicatedJob(const PreparedPolicy& policy, std::string_view name);

/// `<jobset>-<rjob>-<index>`, the name the controller gives a child Job.
std::string ChildJobName(std::string_view jobset_name, std::string_view rjob_name, int64_t index);

/// ChildJobName for a job of `policy` (rjob must be a valid index).
std::string JobName(const PreparedPolicy& policy, int rjob, int64_t index);

/// As ruleIsApplicable (failure_policy.go): reason, message and target of one failed job of
/// replicated job `rjob` against `rule`. A job of an rjob with an empty name (no label value) never
/// matches.
bool RuleMatches(const PreparedPolicy& policy, const PreparedRule& rule, int rjob,
                 std::string_view reason, std::string_view message);

// --- Condition and event texts (structured, rendered on demand) -------------------------------

/// The reason of a JobSet condition or event (pkg/constants/constants.go).
enum class StatusReason : uint8_t {
  kNone,
  // Condition Failed.
  kFailedJobs,
  kFailJobSetFailurePolicyAction,
  kReachedMaxRestarts,
  // Condition RestartingJobSet.
  kFailurePolicyRule,  ///< "FailurePolicy_<rule name>".
  kDefaultFailurePolicy,
  kJobsReady,
  kJobSetFailed,
  kJobSetCompleted,
  kJobSetSuspended,
  // Condition Completed.
  kAllJobsCompleted,
  // Events only.
  kRestartJobSetFailurePolicyAction,
  kRestartJobSetAndIgnoreMaxRestartsFailurePolicyAction,
  kRestartJobFailurePolicyAction,
  kRestartJobAndIgnoreMaxRestartsFailurePolicyAction,
};

/// The fixed part of a condition or event message (pkg/constants/constants.go).
enum class StatusMessage : uint8_t {
  kNone,
  kFailedJobs,          ///< "jobset failed due to one or more job failures"
  kReachedMaxRestarts,  ///< "jobset failed due to reaching max number of restarts"
  kApplyingAction,      ///< "applying <action> failure policy action"
  kAllJobsReady,        ///< "all jobs are ready"
  kJobSetFailed,        ///< "jobset failed"
  kJobSetCompleted,     ///< "jobset completed successfully"
  kJobSetSuspended,     ///< "jobset is suspended"
};

/// A condition's or event's reason and message, kept structured so that the hot path builds no
/// strings. The message gets " (first failed job: <job>)" when `rjob` >= 0.
struct StatusText {
  StatusReason reason = StatusReason::kNone;
  int rule = -1;  ///< kFailurePolicyRule: index into PreparedPolicy::rules.
  StatusMessage message = StatusMessage::kNone;
  PolicyAction action = PolicyAction::kUnknown;  ///< kApplyingAction: the action named.
  int rjob = -1;      ///< The first failed job's rjob index, or -1 for no job suffix.
  int64_t index = 0;  ///< The first failed job's index.
};

/// The reason as upstream writes it ("ReachedMaxRestarts", "FailurePolicy_<rule>", ...).
/// The view points into static storage or into `policy`.
std::string_view ReasonText(const PreparedPolicy& policy, const StatusText& text);

/// The message as upstream writes it, e.g. "jobset failed due to reaching max number of
/// restarts (first failed job: js-rj-1)".
std::string MessageText(const PreparedPolicy& policy, const StatusText& text);

/// True when both render to the same reason and the same message (updateCondition's comparison).
bool SameText(const PreparedPolicy& policy, const StatusText& a, const StatusText& b);

// --- Controller state -----------------------------------------------------------------------

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

// --- Failures and steps ---------------------------------------------------------------------

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

// --- Explain --------------------------------------------------------------------------------

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
