// What `kubectl jobset why` reports about a live workload: one plain model that every system
// (JobSet, Volcano Job, Framework) fills from its dump and every output format (text, JSON,
// Markdown) prints. No rendering and no I/O here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// Where a live workload stands, as far as `why` can tell from its status and children.
enum class Health : uint8_t {
  kHealthy,     ///< Running (or starting) with nothing failed in the current attempt.
  kSucceeded,   ///< Terminal success (JobSet Completed, Volcano Completed, Framework succeeded).
  kSuspended,   ///< Suspended by the user (or a queueing system); nothing runs.
  kRestarting,  ///< A failure was seen and the controller is restarting or retrying.
  kFailed,      ///< Terminal failure.
  kStuck,       ///< The controller cannot make progress (a child cannot be created, an action
                ///< errors on every pass): it retries forever without a condition.
};

/// "Healthy", "Succeeded", "Suspended", "Restarting", "Failed" or "Stuck".
std::string_view HealthName(Health health);

/// The exit status of `why`: 0 for healthy, succeeded or suspended; 1 for restarting, failed or
/// stuck (a usage or access error, 2, is the command's own).
int HealthExitCode(Health health);

/// One budget: restarts counted toward maxRestarts, Volcano retryCount against maxRetry, a
/// Framework's retries against its retry policy's maxRetryCount.
struct BudgetCounter {
  std::string scope;  ///< "" for the whole workload, else a replicated job / task ("workers/0").
  std::string name;   ///< "restartsCountTowardsMax", "retryCount", ...
  int64_t used = 0;
  int64_t limit = -1;  ///< -1: no limit.
  std::string note;    ///< E.g. "plus 3 restarts that did not count (status.restarts 5)".
};

/// One piece of evidence behind a failure: a Pod's container exit, an eviction, a node.
struct FailureCause {
  std::string object;  ///< "Pod js-workers-0-0-x7k2p".
  std::string text;    ///< "container trainer exited with code 137 (OOMKilled) on node gpu-17".
  /// "infrastructure" (eviction, node loss, preemption, disruption), "application" (a
  /// container's own exit) or "" when unknown.
  std::string category;
};

/// One attempt of the workload (a JobSet restart attempt, a Volcano retry, a Framework attempt)
/// and the decision that ended it.
struct Attempt {
  int64_t number = 0;   ///< Restart attempt / retry / attempt id.
  std::string started;  ///< RFC 3339 time, "" when unknown.
  std::string ended;    ///< RFC 3339 time, "" while it runs.
  std::string failed;   ///< The first failed child ("Job js-workers-0"), "" when none failed.
  std::string reason;   ///< Its failure reason (Job condition reason, Volcano event, ...).
  std::string message;  ///< Its failure message.
  std::vector<FailureCause> causes;
  std::string rule;      ///< The policy rule that matched: "rule 1 (restart-on-preemption)",
                         ///< "no rule: default", "" when nothing failed.
  std::string action;    ///< What the controller did ("RestartJobSet", "RestartJob", ...).
  bool counted = false;  ///< Whether the action spent the budget.
  std::string outcome;   ///< "restarted", "failed: ReachedMaxRestarts", "running", ...
};

/// One row of "what happens next": the controller's decision for one more failure, evaluated
/// at the current counters.
struct NextStep {
  std::string scope;   ///< Replicated job / task / task role.
  std::string reason;  ///< Failure reason or event ("PodFailurePolicy", "PodEvicted", ...).
  std::string rule;    ///< As Attempt::rule.
  std::string action;
  bool counts = false;  ///< Spends the budget.
  std::string effect;   ///< "fails the JobSet: 3 of 3 restarts used", "restarts (2 of 3 left)".
};

/// A pattern seen across the history that deserves attention.
struct Hazard {
  std::string id;    ///< Stable id: "restart-loop", "infrastructure-restarts", ...
  std::string text;  ///< One line for people.
};

/// Everything `why` says about one workload.
struct Diagnosis {
  std::string kind;  ///< "JobSet", "Job" (batch.volcano.sh), "Framework".
  std::string api_version;
  std::string namespace_name;
  std::string name;
  Health health = Health::kHealthy;
  std::string state;  ///< One line: "Failed: ReachedMaxRestarts (first failed job: js-w-0)".
  std::vector<std::string> conditions;  ///< "Failed=True ReachedMaxRestarts: <message>", ...
  std::vector<BudgetCounter> budgets;
  std::vector<Attempt> timeline;  ///< Oldest first.
  std::vector<NextStep> next;
  std::vector<Hazard> hazards;
  std::vector<std::string> notes;  ///< What could not be told and why (missing children, ...).
};

}  // namespace jobset
