#include "validation/jobset/policy_engine.h"

#include <re2/re2.h>

#include <algorithm>
#include <limits>

#include "validation/core/go_regexp.h"

namespace jobset {
namespace {

constexpr std::string_view kActionNames[] = {
    "FailJobSet",
    "RestartJobSet",
    "RestartJobSetAndIgnoreMaxRestarts",
    "RestartJob",
    "RestartJobAndIgnoreMaxRestarts",
    "Unknown",
};

// Marks in StepOutcome::scratch_first_rule.
constexpr int kNoRule = -1;

bool ReasonListAdmits(const PreparedRule& rule, std::string_view reason) {
  if (rule.reasons.empty()) return true;
  for (const std::string& r : rule.reasons) {
    if (r == reason) return true;
  }
  return false;
}

// Reason and target (the job's replicatedjob-name label must be non-empty).
bool MatchesIgnoringMessage(const PreparedPolicy& policy, const PreparedRule& rule, int rjob,
                            std::string_view reason) {
  if (rjob < 0 || static_cast<size_t>(rjob) >= policy.rjob_names.size()) return false;
  if (policy.rjob_names[rjob].empty()) return false;
  if (static_cast<size_t>(rjob) >= rule.applies_to_rjob.size() || !rule.applies_to_rjob[rjob]) {
    return false;
  }
  return ReasonListAdmits(rule, reason);
}

bool MessageMatches(const PreparedRule& rule, std::string_view message) {
  if (!rule.has_patterns) return true;
  const re2::StringPiece text(message.data(), message.size());
  if (rule.combined) return re2::RE2::PartialMatch(text, *rule.combined);
  for (const auto& re : rule.patterns) {
    if (re2::RE2::PartialMatch(text, *re)) return true;
  }
  return false;
}

// One regex for the patterns of a rule that compiled, when there are several: an unanchored
// search for `(?:a)|(?:b)` matches exactly when one of `a`, `b` does (flags such as `(?i)` stay
// inside their group). `\Q` is left alone: an unterminated quote would swallow the `)`.
std::shared_ptr<const re2::RE2> Combine(const std::vector<std::string>& patterns,
                                        const std::vector<std::string>& errors,
                                        const re2::RE2::Options& options) {
  std::string alternation;
  int count = 0;
  for (size_t i = 0; i < patterns.size(); ++i) {
    if (!errors[i].empty()) continue;
    if (patterns[i].find("\\Q") != std::string::npos) return nullptr;
    if (count++ > 0) alternation += '|';
    alternation.append("(?:").append(patterns[i]).append(")");
  }
  if (count < 2) return nullptr;
  auto re = std::make_shared<const re2::RE2>(alternation, options);
  return re->ok() ? re : nullptr;
}

// A rule that cannot match any message: it has patterns and none of them compiled.
bool NeverMatches(const PreparedRule& rule) { return rule.has_patterns && rule.patterns.empty(); }

bool ActionIsStuck(const PreparedPolicy& policy, PolicyAction action) {
  return action == PolicyAction::kUnknown ||
         (IsIndividualRestart(action) && !policy.gates.restart_job);
}

Decision MakeDecision(const PreparedPolicy& policy, int rule_index) {
  Decision d;
  if (rule_index < 0) {
    if (policy.has_failure_policy) {
      d.action = PolicyAction::kRestartJobSet;
      d.counts_towards_max = true;
    }
    return d;
  }
  const PreparedRule& rule = policy.rules[rule_index];
  d.rule = rule_index;
  d.action = rule.action;
  d.counts_towards_max = CountsTowardsMax(rule.action);
  d.conditional = rule.has_patterns;
  d.stuck = ActionIsStuck(policy, rule.action);
  return d;
}

StatusText JobText(StatusReason reason, StatusMessage message, PolicyAction action,
                   const JobFailure& job) {
  StatusText t;
  t.reason = reason;
  t.message = message;
  t.action = action;
  t.rjob = job.rjob;
  t.index = job.index;
  return t;
}

StatusText PlainText(StatusReason reason, StatusMessage message) {
  StatusText t;
  t.reason = reason;
  t.message = message;
  return t;
}

void Emit(ControllerState* state, bool warning, const StatusText& text) {
  if (state->record_events) state->events.push_back({warning, text});
}

// setCondition/updateCondition (jobset_controller.go) for one condition type (no other type
// interacts with these three).
void SetCondition(const PreparedPolicy& policy, ControllerState* state, StatusCondition* cond,
                  bool status, const StatusText& text, int64_t now, bool warning) {
  if (cond->present) {
    if (cond->status != status) {
      cond->status = status;
      cond->text = text;
      cond->last_transition_time = now;
    } else if (!SameText(policy, cond->text, text)) {
      cond->text = text;  // Keeps lastTransitionTime.
    } else {
      return;
    }
  } else {
    if (!status) return;  // A False condition is never created from nothing.
    cond->present = true;
    cond->status = true;
    cond->text = text;
    cond->last_transition_time = now;
  }
  Emit(state, warning, text);
}

// The FailJobSet action (setJobSetFailedCondition).
void Fail(const PreparedPolicy& policy, ControllerState* state, const StatusText& text,
          int64_t now) {
  SetCondition(policy, state, &state->failed, true, text, now, /*warning=*/true);
  SetCondition(policy, state, &state->restarting, false,
               PlainText(StatusReason::kJobSetFailed, StatusMessage::kJobSetFailed), now,
               /*warning=*/false);
  state->terminal_state = TerminalState::kFailed;
}

StatusReason ActionEventReason(PolicyAction action) {
  switch (action) {
    case PolicyAction::kRestartJobSet:
      return StatusReason::kRestartJobSetFailurePolicyAction;
    case PolicyAction::kRestartJobSetAndIgnoreMaxRestarts:
      return StatusReason::kRestartJobSetAndIgnoreMaxRestartsFailurePolicyAction;
    case PolicyAction::kRestartJob:
      return StatusReason::kRestartJobFailurePolicyAction;
    case PolicyAction::kRestartJobAndIgnoreMaxRestarts:
      return StatusReason::kRestartJobAndIgnoreMaxRestartsFailurePolicyAction;
    default:
      return StatusReason::kNone;
  }
}

// The first rule that `f` matches, or kNoRule.
int FirstMatchingRule(const PreparedPolicy& policy, const JobFailure& f) {
  for (size_t r = 0; r < policy.rules.size(); ++r) {
    if (RuleMatches(policy, policy.rules[r], f.rjob, f.reason, f.message)) {
      return static_cast<int>(r);
    }
  }
  return kNoRule;
}

// findFirstFailedJob among the failures still failed (strict <: ties to list order).
int EarliestAlive(std::span<const JobFailure> f, const std::vector<FailureFate>& fates) {
  int best = -1;
  for (size_t i = 0; i < f.size(); ++i) {
    if (fates[i] != FailureFate::kPending) continue;
    if (best < 0 || f[i].time < f[best].time) best = static_cast<int>(i);
  }
  return best;
}

void DiscardAlive(std::vector<FailureFate>* fates) {
  for (FailureFate& fate : *fates) {
    if (fate == FailureFate::kPending) fate = FailureFate::kDiscarded;
  }
}

// The reconcile passes of one step over `f` (out->fates[i] belongs to f[i]).
void RunPasses(const PreparedPolicy& policy, ControllerState* state, std::span<const JobFailure> f,
               int64_t now, StepOutcome* out) {
  std::vector<int>& first_rule = out->scratch_first_rule;
  if (policy.has_failure_policy) {
    first_rule.resize(f.size());
    for (size_t i = 0; i < f.size(); ++i) {
      first_rule[i] =
          out->fates[i] == FailureFate::kPending ? FirstMatchingRule(policy, f[i]) : kNoRule;
    }
  }
  while (state->terminal_state == TerminalState::kNone) {
    // findFirstFailedPolicyRuleAndJob, rule-major: the lowest rule any failed job matches
    // wins; among its jobs the earliest failure (strict <, so ties go to list order).
    int chosen = -1;
    int rule = kNoRule;
    bool any_alive = false;
    for (size_t i = 0; i < f.size(); ++i) {
      if (out->fates[i] != FailureFate::kPending) continue;
      any_alive = true;
      if (!policy.has_failure_policy) continue;
      const int r = first_rule[i];
      if (r == kNoRule) continue;
      if (rule == kNoRule || r < rule || (r == rule && f[i].time < f[chosen].time)) {
        rule = r;
        chosen = static_cast<int>(i);
      }
    }
    if (!any_alive) break;

    PassOutcome pass;
    PolicyAction action;
    if (!policy.has_failure_policy) {
      chosen = EarliestAlive(f, out->fates);
      pass.no_policy = true;
      action = PolicyAction::kFailJobSet;
    } else if (rule == kNoRule) {
      chosen = EarliestAlive(f, out->fates);
      action = PolicyAction::kRestartJobSet;  // The default action.
    } else {
      action = policy.rules[rule].action;
    }
    const JobFailure& job = f[chosen];
    pass.rjob = job.rjob;
    pass.index = job.index;
    pass.rule = rule;
    pass.action = action;
    FailureFate& fate = out->fates[chosen];
    bool step_over = true;  // A global restart or a terminal state ends the step.

    switch (action) {
      case PolicyAction::kFailJobSet:
        Fail(policy, state,
             pass.no_policy
                 ? JobText(StatusReason::kFailedJobs, StatusMessage::kFailedJobs, action, job)
                 : JobText(StatusReason::kFailJobSetFailurePolicyAction,
                           StatusMessage::kApplyingAction, action, job),
             now);
        fate = FailureFate::kHandled;
        break;
      case PolicyAction::kRestartJobSet:
      case PolicyAction::kRestartJobSetAndIgnoreMaxRestarts: {
        const bool counted = action == PolicyAction::kRestartJobSet;
        if (counted && CountedRestarts(policy, *state) >= policy.max_restarts) {
          Fail(policy, state,
               JobText(StatusReason::kReachedMaxRestarts, StatusMessage::kReachedMaxRestarts,
                       action, job),
               now);
          pass.reached_max = true;
          fate = FailureFate::kHandled;
          break;
        }
        state->restarts += 1;
        if (counted) state->restarts_count_towards_max += 1;
        pass.counted = counted;
        StatusText cond = JobText(rule == kNoRule ? StatusReason::kDefaultFailurePolicy
                                                  : StatusReason::kFailurePolicyRule,
                                  StatusMessage::kApplyingAction, action, job);
        cond.rule = rule;
        SetCondition(policy, state, &state->restarting, true, cond, now, /*warning=*/true);
        Emit(state, true,
             JobText(ActionEventReason(action), StatusMessage::kApplyingAction, action, job));
        fate = FailureFate::kHandled;
        break;
      }
      case PolicyAction::kRestartJob:
      case PolicyAction::kRestartJobAndIgnoreMaxRestarts: {
        const bool counted = action == PolicyAction::kRestartJob;
        if (!policy.gates.restart_job) {
          out->stuck = true;
          out->stuck_error = std::string(ActionName(action)) +
                             " failure policy action cannot be used when the feature gate "
                             "RestartJob is disabled";
          break;
        }
        if (counted && CountedRestarts(policy, *state) >= policy.max_restarts) {
          Fail(policy, state,
               JobText(StatusReason::kReachedMaxRestarts, StatusMessage::kReachedMaxRestarts,
                       action, job),
               now);
          pass.reached_max = true;
          fate = FailureFate::kHandled;
          break;
        }
        // failurePolicyRecreateJob.
        std::vector<int32_t>& restarts = state->job_restarts[job.rjob];
        std::vector<int32_t>& counted_restarts = state->job_restarts_count_towards_max[job.rjob];
        const int64_t replicas = std::max<int64_t>(0, policy.rjob_replicas[job.rjob]);
        const int64_t len = restarts.empty() ? replicas : static_cast<int64_t>(restarts.size());
        if (job.index >= len) {
          out->stuck = true;
          out->stuck_error = "failed job " + JobName(policy, job.rjob, job.index) + " has index " +
                             std::to_string(job.index) + " out of bounds for replicated job " +
                             policy.rjob_names[job.rjob] + " (replicas: " + std::to_string(len) +
                             ")";
          break;
        }
        if (restarts.empty()) restarts.assign(replicas, 0);
        restarts[job.index] += 1;
        if (counted) {
          if (counted_restarts.empty()) counted_restarts.assign(replicas, 0);
          if (job.index < static_cast<int64_t>(counted_restarts.size())) {
            counted_restarts[job.index] += 1;
            state->job_restarts_count_towards_max_sum += 1;
          }
        }
        pass.counted = counted;
        Emit(state, true,
             JobText(ActionEventReason(action), StatusMessage::kApplyingAction, action, job));
        fate = FailureFate::kHandled;
        // Only this job becomes PREVIOUS (every failure listed for it goes with it); the other
        // failed jobs are handled one per pass.
        for (size_t i = 0; i < f.size(); ++i) {
          if (out->fates[i] == FailureFate::kPending && f[i].rjob == job.rjob &&
              f[i].index == job.index) {
            out->fates[i] = FailureFate::kDiscarded;
          }
        }
        step_over = false;
        break;
      }
      case PolicyAction::kUnknown:
        out->stuck = true;
        out->stuck_error =
            "failed to find a corresponding action for the FailurePolicyRuleAction " +
            policy.rules[rule].action_text;
        break;
    }
    pass.restarts = state->restarts;
    pass.restarts_count_towards_max = state->restarts_count_towards_max;
    pass.counted_restarts = CountedRestarts(policy, *state);
    pass.terminal_state = state->terminal_state;
    pass.stuck = out->stuck;
    out->passes.push_back(pass);
    if (out->stuck) return;  // The same pass errors again on every retry.
    if (step_over) {
      DiscardAlive(&out->fates);
      return;
    }
  }
  DiscardAlive(&out->fates);
}

// Replaces `pending` by owned copies of the failures still failed after a stuck step.
void KeepPending(std::span<const JobFailure> f, const std::vector<FailureFate>& fates,
                 std::vector<PendingFailure>* pending) {
  std::vector<PendingFailure> still;
  for (size_t i = 0; i < f.size(); ++i) {
    if (fates[i] != FailureFate::kPending) continue;
    still.push_back(
        {f[i].rjob, f[i].index, std::string(f[i].reason), std::string(f[i].message), f[i].time});
  }
  *pending = std::move(still);  // `f` may point into the old `pending`: copy first.
}

}  // namespace

std::string_view ActionName(PolicyAction action) {
  return kActionNames[static_cast<size_t>(action)];
}

PolicyAction ParseAction(std::string_view text) {
  for (size_t i = 0; i < static_cast<size_t>(PolicyAction::kUnknown); ++i) {
    if (kActionNames[i] == text) return static_cast<PolicyAction>(i);
  }
  return PolicyAction::kUnknown;
}

bool CountsTowardsMax(PolicyAction action) {
  return action == PolicyAction::kRestartJobSet || action == PolicyAction::kRestartJob;
}

bool IsIndividualRestart(PolicyAction action) {
  return action == PolicyAction::kRestartJob ||
         action == PolicyAction::kRestartJobAndIgnoreMaxRestarts;
}

PreparedPolicy PreparePolicy(const JobSet& js, const FeatureGates& gates) {
  PreparedPolicy p;
  p.jobset_name = js.name.empty() ? NameForValidation(js) : js.name;
  p.gates = gates;
  for (const ReplicatedJob& rj : js.replicated_jobs) {
    p.rjob_names.push_back(rj.name);
    p.rjob_replicas.push_back(rj.replicas);
  }
  if (!js.failure_policy) return p;
  const FailurePolicy& fp = *js.failure_policy;
  p.has_failure_policy = true;
  p.max_restarts = fp.max_restarts;
  p.restart_strategy = fp.restart_strategy;
  re2::RE2::Options options;  // Go's defaults: UTF-8, case-sensitive, `.` excludes \n.
  options.set_log_errors(false);
  for (size_t i = 0; i < fp.rules.size(); ++i) {
    const FailurePolicyRule& in = fp.rules[i];
    PreparedRule rule;
    rule.name = in.name.empty() ? "failurePolicyRule" + std::to_string(i) : in.name;
    rule.condition_reason = "FailurePolicy_" + rule.name;
    rule.action = ParseAction(in.action);
    rule.action_text = in.action;
    rule.reasons = in.on_job_failure_reasons;
    rule.has_patterns = !in.on_job_failure_message_patterns.empty();
    for (const std::string& pattern : in.on_job_failure_message_patterns) {
      // Go's regexp rejects a little that C++ RE2 accepts (`\C`): never match those either.
      if (std::string go_error = GoRegexpError(pattern); !go_error.empty()) {
        rule.pattern_errors.push_back(go_error);
        continue;
      }
      auto re = std::make_shared<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()),
                                                 options);
      if (re->ok()) {
        rule.patterns.push_back(std::move(re));
        rule.pattern_errors.emplace_back();
      } else {
        rule.pattern_errors.push_back(re->error());
      }
    }
    rule.combined = Combine(in.on_job_failure_message_patterns, rule.pattern_errors, options);
    rule.applies_to_rjob.resize(p.rjob_names.size(), 0);
    for (size_t k = 0; k < p.rjob_names.size(); ++k) {
      const std::vector<std::string>& targets = in.target_replicated_jobs;
      rule.applies_to_rjob[k] = targets.empty() || std::find(targets.begin(), targets.end(),
                                                             p.rjob_names[k]) != targets.end();
    }
    p.rules.push_back(std::move(rule));
  }
  return p;
}

int FindReplicatedJob(const PreparedPolicy& policy, std::string_view name) {
  for (size_t i = 0; i < policy.rjob_names.size(); ++i) {
    if (policy.rjob_names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::string ChildJobName(std::string_view jobset_name, std::string_view rjob_name, int64_t index) {
  std::string name;
  name.reserve(jobset_name.size() + rjob_name.size() + 22);
  name.append(jobset_name).append("-").append(rjob_name).append("-");
  name += std::to_string(index);
  return name;
}

std::string JobName(const PreparedPolicy& policy, int rjob, int64_t index) {
  return ChildJobName(policy.jobset_name, policy.rjob_names[rjob], index);
}

bool RuleMatches(const PreparedPolicy& policy, const PreparedRule& rule, int rjob,
                 std::string_view reason, std::string_view message) {
  return MatchesIgnoringMessage(policy, rule, rjob, reason) && MessageMatches(rule, message);
}

std::string_view ReasonText(const PreparedPolicy& policy, const StatusText& text) {
  switch (text.reason) {
    case StatusReason::kNone:
      return "";
    case StatusReason::kFailedJobs:
      return "FailedJobs";
    case StatusReason::kFailJobSetFailurePolicyAction:
      return "FailJobSetFailurePolicyAction";
    case StatusReason::kReachedMaxRestarts:
      return "ReachedMaxRestarts";
    case StatusReason::kFailurePolicyRule:
      if (text.rule >= 0 && static_cast<size_t>(text.rule) < policy.rules.size()) {
        return policy.rules[text.rule].condition_reason;
      }
      return "FailurePolicy_";
    case StatusReason::kDefaultFailurePolicy:
      return "DefaultFailurePolicy";
    case StatusReason::kJobsReady:
      return "JobsReady";
    case StatusReason::kJobSetFailed:
      return "JobSetFailed";
    case StatusReason::kJobSetCompleted:
      return "JobSetCompleted";
    case StatusReason::kJobSetSuspended:
      return "JobSetSuspended";
    case StatusReason::kAllJobsCompleted:
      return "AllJobsCompleted";
    case StatusReason::kRestartJobSetFailurePolicyAction:
      return "RestartJobSetFailurePolicyAction";
    case StatusReason::kRestartJobSetAndIgnoreMaxRestartsFailurePolicyAction:
      return "RestartJobSetAndIgnoreMaxRestartsFailurePolicyAction";
    case StatusReason::kRestartJobFailurePolicyAction:
      return "RestartJobFailurePolicyAction";
    case StatusReason::kRestartJobAndIgnoreMaxRestartsFailurePolicyAction:
      return "RestartJobAndIgnoreMaxRestartsFailurePolicyAction";
  }
  return "";
}

std::string MessageText(const PreparedPolicy& policy, const StatusText& text) {
  std::string m;
  switch (text.message) {
    case StatusMessage::kNone:
      break;
    case StatusMessage::kFailedJobs:
      m = "jobset failed due to one or more job failures";
      break;
    case StatusMessage::kReachedMaxRestarts:
      m = "jobset failed due to reaching max number of restarts";
      break;
    case StatusMessage::kApplyingAction:
      m.append("applying ").append(ActionName(text.action)).append(" failure policy action");
      break;
    case StatusMessage::kAllJobsReady:
      m = "all jobs are ready";
      break;
    case StatusMessage::kJobSetFailed:
      m = "jobset failed";
      break;
    case StatusMessage::kJobSetCompleted:
      m = "jobset completed successfully";
      break;
    case StatusMessage::kJobSetSuspended:
      m = "jobset is suspended";
      break;
  }
  if (text.rjob >= 0 && static_cast<size_t>(text.rjob) < policy.rjob_names.size()) {
    m.append(" (first failed job: ").append(JobName(policy, text.rjob, text.index)).append(")");
  }
  return m;
}

bool SameText(const PreparedPolicy& policy, const StatusText& a, const StatusText& b) {
  if (ReasonText(policy, a) != ReasonText(policy, b)) return false;
  if (a.message != b.message) return false;
  if (a.message == StatusMessage::kApplyingAction && a.action != b.action) return false;
  const auto has_job = [&](const StatusText& t) {
    return t.rjob >= 0 && static_cast<size_t>(t.rjob) < policy.rjob_names.size();
  };
  if (has_job(a) != has_job(b)) return false;
  if (!has_job(a)) return true;
  return a.index == b.index && policy.rjob_names[a.rjob] == policy.rjob_names[b.rjob];
}

std::string_view TerminalStateName(TerminalState state) {
  switch (state) {
    case TerminalState::kNone:
      return "";
    case TerminalState::kFailed:
      return "Failed";
    case TerminalState::kCompleted:
      return "Completed";
  }
  return "";
}

void ResetState(ControllerState* state) {
  state->restarts = 0;
  state->restarts_count_towards_max = 0;
  for (auto& a : state->job_restarts) a.clear();
  for (auto& a : state->job_restarts_count_towards_max) a.clear();
  state->job_restarts_count_towards_max_sum = 0;
  state->terminal_state = TerminalState::kNone;
  state->failed = {};
  state->completed = {};
  state->restarting = {};
  state->pending.clear();
  state->events.clear();
}

int64_t CountedRestarts(const PreparedPolicy& policy, const ControllerState& state) {
  return state.restarts_count_towards_max +
         (policy.gates.restart_job ? state.job_restarts_count_towards_max_sum : 0);
}

void MarkJobsReady(const PreparedPolicy& policy, ControllerState* state, int64_t now) {
  if (state->terminal_state != TerminalState::kNone) return;
  SetCondition(policy, state, &state->restarting, false,
               PlainText(StatusReason::kJobsReady, StatusMessage::kAllJobsReady), now,
               /*warning=*/false);
}

void MarkCompleted(const PreparedPolicy& policy, ControllerState* state, int64_t now) {
  if (state->terminal_state != TerminalState::kNone) return;
  SetCondition(policy, state, &state->completed, true,
               PlainText(StatusReason::kAllJobsCompleted, StatusMessage::kJobSetCompleted), now,
               /*warning=*/false);
  SetCondition(policy, state, &state->restarting, false,
               PlainText(StatusReason::kJobSetCompleted, StatusMessage::kJobSetCompleted), now,
               /*warning=*/false);
  state->terminal_state = TerminalState::kCompleted;
}

void ApplyFailures(const PreparedPolicy& policy, ControllerState* state,
                   std::span<const JobFailure> failures, StepOutcome* out) {
  out->passes.clear();
  out->fates.clear();
  out->was_terminal = false;
  out->stuck = false;
  out->stuck_error.clear();
  out->error.clear();
  for (const JobFailure& f : failures) {
    if (f.rjob < 0 || static_cast<size_t>(f.rjob) >= policy.rjob_names.size()) {
      out->error = "failure of an unknown replicated job (index " + std::to_string(f.rjob) + ")";
      return;
    }
    if (f.index < 0) {
      out->error = "failure of a job with a negative index (" + std::to_string(f.index) + ")";
      return;
    }
  }
  const size_t n_pending = state->pending.size();
  if (state->terminal_state != TerminalState::kNone) {
    out->was_terminal = true;
    out->fates.assign(n_pending + failures.size(), FailureFate::kIgnored);
    return;
  }
  const size_t n_rjobs = policy.rjob_names.size();
  if (state->job_restarts.size() < n_rjobs) state->job_restarts.resize(n_rjobs);
  if (state->job_restarts_count_towards_max.size() < n_rjobs) {
    state->job_restarts_count_towards_max.resize(n_rjobs);
  }
  out->fates.assign(n_pending + failures.size(), FailureFate::kPending);
  int64_t now = std::numeric_limits<int64_t>::min();
  for (const JobFailure& f : failures) now = std::max(now, f.time);
  if (n_pending == 0) {
    RunPasses(policy, state, failures, now, out);
    if (out->stuck) KeepPending(failures, out->fates, &state->pending);
    return;
  }
  // Rare path (the controller was stuck): earlier failures still stand, in front.
  std::vector<JobFailure> all;
  all.reserve(n_pending + failures.size());
  for (const PendingFailure& p : state->pending) {
    all.push_back({p.rjob, p.index, p.reason, p.message, p.time});
    now = std::max(now, p.time);
  }
  for (size_t i = 0; i < failures.size(); ++i) {
    const JobFailure& f = failures[i];
    for (size_t k = 0; k < n_pending; ++k) {
      // A job that is still failed cannot fail again.
      if (all[k].rjob == f.rjob && all[k].index == f.index) {
        out->fates[n_pending + i] = FailureFate::kIgnored;
      }
    }
    all.push_back(f);
  }
  RunPasses(policy, state, all, now, out);
  KeepPending(all, out->fates, &state->pending);
}

StepOutcome ApplyFailures(const PreparedPolicy& policy, ControllerState* state,
                          std::span<const JobFailure> failures) {
  StepOutcome out;
  ApplyFailures(policy, state, failures, &out);
  return out;
}

Decision Decide(const PreparedPolicy& policy, int rjob, std::string_view reason,
                std::string_view message) {
  if (!policy.has_failure_policy) return MakeDecision(policy, -1);
  for (size_t r = 0; r < policy.rules.size(); ++r) {
    if (RuleMatches(policy, policy.rules[r], rjob, reason, message)) {
      return MakeDecision(policy, static_cast<int>(r));
    }
  }
  return MakeDecision(policy, -1);
}

CellExplanation ExplainCell(const PreparedPolicy& policy, int rjob, std::string_view reason) {
  CellExplanation cell;
  bool have_first = false;
  const auto add = [&](const Decision& d) {
    if (!have_first) {
      cell.decision = d;
      have_first = true;
    } else {
      cell.otherwise.push_back(d);
    }
  };
  if (policy.has_failure_policy) {
    for (size_t r = 0; r < policy.rules.size(); ++r) {
      const PreparedRule& rule = policy.rules[r];
      if (NeverMatches(rule) || !MatchesIgnoringMessage(policy, rule, rjob, reason)) continue;
      const Decision d = MakeDecision(policy, static_cast<int>(r));
      add(d);
      if (!d.conditional) return cell;
    }
  }
  add(MakeDecision(policy, -1));
  return cell;
}

}  // namespace jobset
