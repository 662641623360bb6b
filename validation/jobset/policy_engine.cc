#include "validation/jobset/policy_engine.h"

#include <algorithm>
#include <limits>
#include <span>
#include <utility>

#include "validation/jobset/policy_engine_match.h"

namespace jobset {
namespace {

// Steps of at most this many failures find the failures of one job by scanning them all.
constexpr size_t kScanAllFailures = 16;

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

// Marks the failures still pending of `job`'s job (same rjob and index) discarded. A long list
// is sorted by job once (`by_job`, empty until then) and looked up; a short one is scanned.
void DiscardSameJob(std::span<const JobFailure> f, const JobFailure& job,
                    std::vector<FailureFate>* fates, std::vector<int>* by_job) {
  if (f.size() <= kScanAllFailures) {
    for (size_t i = 0; i < f.size(); ++i) {
      if ((*fates)[i] == FailureFate::kPending && f[i].rjob == job.rjob &&
          f[i].index == job.index) {
        (*fates)[i] = FailureFate::kDiscarded;
      }
    }
    return;
  }
  const auto key = [&](int i) { return std::pair(f[i].rjob, f[i].index); };
  if (by_job->empty()) {
    by_job->resize(f.size());
    for (size_t i = 0; i < f.size(); ++i) (*by_job)[i] = static_cast<int>(i);
    std::sort(by_job->begin(), by_job->end(),
              [&](int a, int b) { return key(a) != key(b) ? key(a) < key(b) : a < b; });
  }
  const std::pair<int, int64_t> wanted(job.rjob, job.index);
  auto it = std::lower_bound(by_job->begin(), by_job->end(), wanted,
                             [&](int i, const std::pair<int, int64_t>& k) { return key(i) < k; });
  for (; it != by_job->end() && key(*it) == wanted; ++it) {
    if ((*fates)[*it] == FailureFate::kPending) (*fates)[*it] = FailureFate::kDiscarded;
  }
}

void DiscardAlive(std::vector<FailureFate>* fates) {
  for (FailureFate& fate : *fates) {
    if (fate == FailureFate::kPending) fate = FailureFate::kDiscarded;
  }
}

// What a failure-policy action applier reads and writes during one pass (failure_policy.go
// failurePolicyActionApplier's arguments): the step's failures `f` and their fates in `out`.
struct PassContext {
  const PreparedPolicy& policy;
  ControllerState* state;
  std::span<const JobFailure> f;
  int64_t now;
  StepOutcome* out;
  std::vector<int>* by_job;  ///< See DiscardSameJob.
};

// The failed job a pass chose, the rule it matched (or kNoRule) and what the pass reports.
struct PassChoice {
  int position;  ///< In PassContext::f.
  const JobFailure& job;
  int rule;
  PassOutcome* pass;
};

// How a pass ends: a global restart or a terminal state ends the step; an individual restart
// leaves the other failed jobs to the next pass.
enum class PassEnd : uint8_t { kStepOver, kNextPass };

// The controller errors on this pass and every retry (StepOutcome::stuck).
PassEnd Stuck(const PassContext& cx, std::string error) {
  cx.out->stuck = true;
  cx.out->stuck_error = std::move(error);
  return PassEnd::kStepOver;
}

// restartJobSetActionApplier's and restartJobActionApplier's limit check: true when the JobSet
// failed instead (ReachedMaxRestarts).
bool ReachedMaxRestarts(const PassContext& cx, const PassChoice& choice, PolicyAction action) {
  if (CountedRestarts(cx.policy, *cx.state) < cx.policy.max_restarts) return false;
  Fail(cx.policy, cx.state,
       JobText(StatusReason::kReachedMaxRestarts, StatusMessage::kReachedMaxRestarts, action,
               choice.job),
       cx.now);
  choice.pass->reached_max = true;
  cx.out->fates[choice.position] = FailureFate::kHandled;
  return true;
}

// failurePolicyRecreateAll: counts a restart of the whole JobSet, sets RestartingJobSet and
// emits the action's event.
PassEnd RecreateAll(const PassContext& cx, const PassChoice& choice, PolicyAction action,
                    bool counted) {
  ControllerState* state = cx.state;
  state->restarts += 1;
  if (counted) state->restarts_count_towards_max += 1;
  choice.pass->counted = counted;
  StatusText cond = JobText(choice.rule == kNoRule ? StatusReason::kDefaultFailurePolicy
                                                   : StatusReason::kFailurePolicyRule,
                            StatusMessage::kApplyingAction, action, choice.job);
  cond.rule = choice.rule;
  SetCondition(cx.policy, state, &state->restarting, true, cond, cx.now, /*warning=*/true);
  Emit(state, true,
       JobText(ActionEventReason(action), StatusMessage::kApplyingAction, action, choice.job));
  cx.out->fates[choice.position] = FailureFate::kHandled;
  return PassEnd::kStepOver;
}

// failurePolicyRecreateJob: counts a restart of the chosen job alone (jobRestarts), emits the
// action's event; only this job becomes PREVIOUS (every failure listed for it goes with it), the
// other failed jobs are handled one per pass.
PassEnd RecreateJob(const PassContext& cx, const PassChoice& choice, PolicyAction action,
                    bool counted) {
  const JobFailure& job = choice.job;
  ControllerState* state = cx.state;
  std::vector<int32_t>& restarts = state->job_restarts[job.rjob];
  std::vector<int32_t>& counted_restarts = state->job_restarts_count_towards_max[job.rjob];
  const int64_t replicas = std::max<int64_t>(0, cx.policy.rjob_replicas[job.rjob]);
  const int64_t len = restarts.empty() ? replicas : static_cast<int64_t>(restarts.size());
  if (job.index >= len) {
    return Stuck(cx, "failed job " + JobName(cx.policy, job.rjob, job.index) + " has index " +
                         std::to_string(job.index) + " out of bounds for replicated job " +
                         cx.policy.rjob_names[job.rjob] + " (replicas: " + std::to_string(len) +
                         ")");
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
  choice.pass->counted = counted;
  Emit(state, true,
       JobText(ActionEventReason(action), StatusMessage::kApplyingAction, action, job));
  cx.out->fates[choice.position] = FailureFate::kHandled;
  DiscardSameJob(cx.f, job, &cx.out->fates, cx.by_job);
  return PassEnd::kNextPass;
}

// The RestartJob* actions need gate RestartJob; without it the controller errors every pass.
bool RestartJobGateOff(const PassContext& cx, PolicyAction action) {
  if (cx.policy.gates.restart_job) return false;
  Stuck(cx, std::string(ActionName(action)) +
                " failure policy action cannot be used when the feature gate RestartJob is "
                "disabled");
  return true;
}

// failJobSetActionApplier (and, without a failure policy, executeFailurePolicy's
// Failed/FailedJobs).
PassEnd ApplyFailJobSet(const PassContext& cx, const PassChoice& choice) {
  constexpr PolicyAction kAction = PolicyAction::kFailJobSet;
  Fail(cx.policy, cx.state,
       choice.pass->no_policy
           ? JobText(StatusReason::kFailedJobs, StatusMessage::kFailedJobs, kAction, choice.job)
           : JobText(StatusReason::kFailJobSetFailurePolicyAction, StatusMessage::kApplyingAction,
                     kAction, choice.job),
       cx.now);
  cx.out->fates[choice.position] = FailureFate::kHandled;
  return PassEnd::kStepOver;
}

// restartJobSetActionApplier.
PassEnd ApplyRestartJobSet(const PassContext& cx, const PassChoice& choice) {
  constexpr PolicyAction kAction = PolicyAction::kRestartJobSet;
  if (ReachedMaxRestarts(cx, choice, kAction)) return PassEnd::kStepOver;
  return RecreateAll(cx, choice, kAction, /*counted=*/true);
}

// restartJobSetAndIgnoreMaxRestartsActionApplier.
PassEnd ApplyRestartJobSetAndIgnoreMaxRestarts(const PassContext& cx, const PassChoice& choice) {
  return RecreateAll(cx, choice, PolicyAction::kRestartJobSetAndIgnoreMaxRestarts,
                     /*counted=*/false);
}

// restartJobActionApplier.
PassEnd ApplyRestartJob(const PassContext& cx, const PassChoice& choice) {
  constexpr PolicyAction kAction = PolicyAction::kRestartJob;
  if (RestartJobGateOff(cx, kAction)) return PassEnd::kStepOver;
  if (ReachedMaxRestarts(cx, choice, kAction)) return PassEnd::kStepOver;
  return RecreateJob(cx, choice, kAction, /*counted=*/true);
}

// restartJobAndIgnoreMaxRestartsActionApplier.
PassEnd ApplyRestartJobAndIgnoreMaxRestarts(const PassContext& cx, const PassChoice& choice) {
  constexpr PolicyAction kAction = PolicyAction::kRestartJobAndIgnoreMaxRestarts;
  if (RestartJobGateOff(cx, kAction)) return PassEnd::kStepOver;
  return RecreateJob(cx, choice, kAction, /*counted=*/false);
}

// applyFailurePolicyRuleAction: the applier of `action` (actionFunctionMap), or upstream's error
// for an action it does not know.
PassEnd ApplyAction(const PassContext& cx, const PassChoice& choice, PolicyAction action) {
  switch (action) {
    case PolicyAction::kFailJobSet:
      return ApplyFailJobSet(cx, choice);
    case PolicyAction::kRestartJobSet:
      return ApplyRestartJobSet(cx, choice);
    case PolicyAction::kRestartJobSetAndIgnoreMaxRestarts:
      return ApplyRestartJobSetAndIgnoreMaxRestarts(cx, choice);
    case PolicyAction::kRestartJob:
      return ApplyRestartJob(cx, choice);
    case PolicyAction::kRestartJobAndIgnoreMaxRestarts:
      return ApplyRestartJobAndIgnoreMaxRestarts(cx, choice);
    case PolicyAction::kUnknown:
      break;
  }
  return Stuck(cx, "failed to find a corresponding action for the FailurePolicyRuleAction " +
                       cx.policy.rules[choice.rule].action_text);
}

// The first rule each pending failure of `f` matches (kNoRule without a policy), into
// out->scratch_first_rule.
void MatchFirstRules(const PreparedPolicy& policy, std::span<const JobFailure> f,
                     StepOutcome* out) {
  std::vector<int>& first_rule = out->scratch_first_rule;
  first_rule.resize(f.size());
  for (size_t i = 0; i < f.size(); ++i) {
    first_rule[i] = policy.has_failure_policy && out->fates[i] == FailureFate::kPending
                        ? FirstMatchingRule(policy, f[i].rjob, f[i].reason, f[i].message)
                        : kNoRule;
  }
}

// findFirstFailedPolicyRuleAndJob, rule-major: the lowest rule any failed job matches wins;
// among its jobs the earliest failure (strict <, so ties go to list order); when no failed job
// matches a rule (or there is no policy), findFirstFailedJob: the earliest. A failure's rule
// does not change within the step and failures only leave the failed set, so one sort by
// (rule, time, position) of the pending failures, into out->scratch_order, gives every pass its
// choice: the first failure still failed.
void OrderPassChoices(std::span<const JobFailure> f, StepOutcome* out) {
  const std::vector<int>& first_rule = out->scratch_first_rule;
  std::vector<int>& order = out->scratch_order;
  order.clear();
  for (size_t i = 0; i < f.size(); ++i) {
    if (out->fates[i] == FailureFate::kPending) order.push_back(static_cast<int>(i));
  }
  const auto rank = [&](int i) {
    return first_rule[i] == kNoRule ? std::numeric_limits<int>::max() : first_rule[i];
  };
  if (order.size() > 1) {
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      if (rank(a) != rank(b)) return rank(a) < rank(b);
      if (f[a].time != f[b].time) return f[a].time < f[b].time;
      return a < b;
    });
  }
}

// executeFailurePolicy's choice of action: FailJobSet without a policy, the rule's, or the
// default RestartJobSet.
PolicyAction PassAction(const PreparedPolicy& policy, int rule, PassOutcome* pass) {
  if (!policy.has_failure_policy) {
    pass->no_policy = true;
    return PolicyAction::kFailJobSet;
  }
  if (rule == kNoRule) return PolicyAction::kRestartJobSet;  // The default action.
  return policy.rules[rule].action;
}

// Records the counters and state after a pass in `pass`, and appends it to out->passes.
void RecordPass(const PreparedPolicy& policy, const ControllerState& state, StepOutcome* out,
                PassOutcome* pass) {
  pass->restarts = state.restarts;
  pass->restarts_count_towards_max = state.restarts_count_towards_max;
  pass->counted_restarts = CountedRestarts(policy, state);
  pass->terminal_state = state.terminal_state;
  pass->stuck = out->stuck;
  out->passes.push_back(*pass);
}

// The reconcile passes of one step over `f` (out->fates[i] belongs to f[i]). Returns the position
// in `f` of the failure the stuck pass chose, or -1 when the step did not get stuck.
int RunPasses(const PreparedPolicy& policy, ControllerState* state, std::span<const JobFailure> f,
              int64_t now, StepOutcome* out) {
  MatchFirstRules(policy, f, out);
  OrderPassChoices(f, out);
  const std::vector<int>& order = out->scratch_order;
  std::vector<int> by_job;  // See DiscardSameJob.
  const PassContext cx{policy, state, f, now, out, &by_job};
  size_t next = 0;
  while (state->terminal_state == TerminalState::kNone) {
    while (next < order.size() && out->fates[order[next]] != FailureFate::kPending) ++next;
    if (next == order.size()) break;
    const int chosen = order[next];
    PassOutcome pass;
    const PassChoice choice{chosen, f[chosen], out->scratch_first_rule[chosen], &pass};
    pass.rjob = choice.job.rjob;
    pass.index = choice.job.index;
    pass.rule = choice.rule;
    pass.action = PassAction(policy, choice.rule, &pass);
    const PassEnd end = ApplyAction(cx, choice, pass.action);
    RecordPass(policy, *state, out, &pass);
    if (out->stuck) return chosen;  // The same pass errors again on every retry.
    if (end == PassEnd::kStepOver) break;
  }
  DiscardAlive(&out->fates);
  return -1;
}

// Appends owned copies of the failures of `f` still failed after a stuck step (fates[i] belongs to
// f[i]) to state->pending; `stuck_at` is the position in `f` of the failure the stuck pass chose,
// which becomes ControllerState::pending_first.
void KeepPending(std::span<const JobFailure> f, std::span<const FailureFate> fates, int stuck_at,
                 ControllerState* state) {
  for (size_t i = 0; i < f.size(); ++i) {
    if (fates[i] != FailureFate::kPending) continue;
    if (static_cast<int>(i) == stuck_at) state->pending_first = state->pending.size();
    state->pending.push_back(
        {f[i].rjob, f[i].index, std::string(f[i].reason), std::string(f[i].message), f[i].time});
    state->pending_jobs.emplace(f[i].rjob, f[i].index);
    state->pending_time = std::max(state->pending_time, f[i].time);
  }
}

void ClearPending(ControllerState* state) {
  state->pending.clear();
  state->pending_jobs.clear();
  state->pending_first = 0;
  state->pending_time = std::numeric_limits<int64_t>::min();
}

}  // namespace

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
  ClearPending(state);
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
  out->pending_count = n_pending;
  if (state->terminal_state != TerminalState::kNone) {
    out->was_terminal = true;
    out->pending_fate = FailureFate::kIgnored;
    out->fates.assign(failures.size(), FailureFate::kIgnored);
    return;
  }
  const size_t n_rjobs = policy.rjob_names.size();
  if (state->job_restarts.size() < n_rjobs) state->job_restarts.resize(n_rjobs);
  if (state->job_restarts_count_towards_max.size() < n_rjobs) {
    state->job_restarts_count_towards_max.resize(n_rjobs);
  }
  int64_t now = std::numeric_limits<int64_t>::min();
  for (const JobFailure& f : failures) now = std::max(now, f.time);
  if (n_pending == 0) {
    out->pending_fate = FailureFate::kPending;
    out->fates.assign(failures.size(), FailureFate::kPending);
    const int stuck_at = RunPasses(policy, state, failures, now, out);
    if (out->stuck) KeepPending(failures, out->fates, stuck_at, state);
    return;
  }
  // Rare path (the controller was stuck): earlier failures still stand, in front of the step's.
  // Of them, the passes can only ever choose pending_first, the one the stuck pass chose: it
  // comes before every other pending failure in the passes' order (rule, time, position), no
  // failure of this step can take it away alone (a failure of a job still failed is ignored),
  // and choosing it errors again (the error depends on the rule and the index only). So the
  // step runs over that one and its own failures, and the other pending failures share its
  // fate: still pending, or discarded by a global restart or a terminal state.
  std::vector<JobFailure> all;
  all.reserve(1 + failures.size());
  const PendingFailure& first = state->pending[state->pending_first];
  all.push_back({first.rjob, first.index, first.reason, first.message, first.time});
  now = std::max(now, state->pending_time);
  std::vector<FailureFate>& fates = out->fates;
  fates.assign(1 + failures.size(), FailureFate::kPending);
  for (size_t i = 0; i < failures.size(); ++i) {
    const JobFailure& f = failures[i];
    if (state->pending_jobs.count(std::pair(f.rjob, f.index)) > 0) {
      fates[1 + i] = FailureFate::kIgnored;
    }
    all.push_back(f);
  }
  const int stuck_at = RunPasses(policy, state, all, now, out);
  out->pending_fate = fates[0];
  if (out->pending_fate != FailureFate::kPending) {
    ClearPending(state);
  } else {
    // `all[0]` points into state->pending, which KeepPending may grow: it reads only the rest.
    // When the stuck pass chose all[0] again, pending_first stays.
    KeepPending(std::span<const JobFailure>(all).subspan(1),
                std::span<const FailureFate>(fates).subspan(1), stuck_at - 1, state);
  }
  fates.erase(fates.begin());
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
  return MakeDecision(policy, FirstMatchingRule(policy, rjob, reason, message));
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
  bool unconditional = false;
  if (policy.has_failure_policy) {
    ForEachCandidate(policy, rjob, reason, [&](int r) {
      if (NeverMatches(policy.rules[r])) return false;
      const Decision d = MakeDecision(policy, r);
      add(d);
      unconditional = !d.conditional;
      return unconditional;
    });
  }
  if (unconditional) return cell;
  add(MakeDecision(policy, -1));
  return cell;
}

}  // namespace jobset
