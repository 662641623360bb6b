#include "validation/analysis.h"

#include <re2/re2.h>

#include <algorithm>

#include "validation/field_path.h"
#include "validation/go_regexp.h"
#include "validation/jobset_keys.h"
#include "validation/jobset_types.h"
#include "validation/jobset_validation.h"
#include "validation/policy_engine.h"

namespace jobset {
namespace {

constexpr char kRJobs[] = "spec.replicatedJobs";
constexpr char kRules[] = "spec.failurePolicy.rules";
constexpr Severity kWarn = Severity::kWarning;

std::string RJobPath(size_t i, std::string_view rest) { return Child(Index(kRJobs, i), rest); }

bool Contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// True when every element of `inner` is in `outer`; an empty list means "everything", which is
// `all` when the values are a known finite set (replicated job names) and unbounded otherwise.
bool Covers(const std::vector<std::string>& outer, const std::vector<std::string>& inner,
            const std::vector<std::string>& all = {}) {
  if (outer.empty()) return true;
  const std::vector<std::string>& in = inner.empty() ? all : inner;
  if (in.empty()) return false;
  return std::all_of(in.begin(), in.end(),
                     [&](const std::string& s) { return Contains(outer, s); });
}

// Indexes of the replicated jobs a rule applies to.
std::vector<size_t> Targets(const JobSet& js, const FailurePolicyRule& rule) {
  std::vector<size_t> out;
  for (size_t i = 0; i < js.replicated_jobs.size(); ++i) {
    if (rule.target_replicated_jobs.empty() ||
        Contains(rule.target_replicated_jobs, js.replicated_jobs[i].name)) {
      out.push_back(i);
    }
  }
  return out;
}

// True when a FailJob pod failure policy rule fires on exit codes the program chooses: NotIn
// (any other code), or In with a code below 128. Codes from 128 up are deaths by signal (143:
// SIGTERM when a node drains), the infrastructure's doing rather than the application's.
bool HasFailJobOnExitCodes(const Node* job_spec) {
  const Node* pfp = job_spec ? job_spec->Find("podFailurePolicy") : nullptr;
  const Node* rules = pfp ? pfp->Find("rules") : nullptr;
  if (!rules || !rules->is_seq()) return false;
  for (const Node& r : rules->items) {
    const Node* codes = r.Find("onExitCodes");
    if (r.StringOr("action") != "FailJob" || !codes) continue;
    if (codes->StringOr("operator") == "NotIn") return true;
    const Node* values = codes->Find("values");
    if (!values || !values->is_seq()) continue;
    for (const Node& v : values->items)
      if (v.is_int() && v.integer < 128) return true;
  }
  return false;
}

bool HasFailJobRule(const Node* job_spec) {
  const Node* pfp = job_spec ? job_spec->Find("podFailurePolicy") : nullptr;
  const Node* rules = pfp ? pfp->Find("rules") : nullptr;
  if (!rules || !rules->is_seq()) return false;
  for (const Node& r : rules->items)
    if (r.StringOr("action") == "FailJob") return true;
  return false;
}

}  // namespace

std::string WhyReasonUnreachable(const ReplicatedJob& rj, std::string_view reason) {
  if (reason == "DeadlineExceeded" && !rj.active_deadline_seconds) {
    return "its Job template sets no activeDeadlineSeconds";
  }
  if (reason == "FailedIndexes" && !rj.backoff_limit_per_index) {
    return "its Job template sets no backoffLimitPerIndex";
  }
  if (reason == "MaxFailedIndexesExceeded" && !rj.max_failed_indexes) {
    return "its Job template sets no maxFailedIndexes";
  }
  if (reason == "MaxFailedIndexesExceeded" && !rj.backoff_limit_per_index) {
    return "its Job template sets maxFailedIndexes without backoffLimitPerIndex, which the Job "
           "API refuses";
  }
  if (reason == "PodFailurePolicy" && !HasFailJobRule(rj.job_spec)) {
    return "its Job template has no podFailurePolicy rule with action FailJob";
  }
  return "";
}

namespace {

std::string WhyUnreachable(const ReplicatedJob& rj, std::string_view reason) {
  return WhyReasonUnreachable(rj, reason);
}

void CheckPatterns(const JobSet& js, FindingSink* sink) {
  const auto& rules = js.failure_policy->rules;
  for (size_t i = 0; i < rules.size(); ++i) {
    const auto& patterns = rules[i].on_job_failure_message_patterns;
    for (size_t k = 0; k < patterns.size(); ++k) {
      std::string error = GoRegexpError(patterns[k]);
      if (error.empty()) continue;
      sink->Own("failure-policy/invalid-pattern", kWarn,
                Index(Child(Index(kRules, i), "onJobFailureMessagePatterns"), k),
                "pattern '" + patterns[k] + "' does not compile as a Go regexp (" + error +
                    "): the controller logs an error and the pattern never matches");
    }
  }
}

void CheckUnreachableReasons(const JobSet& js, FindingSink* sink) {
  const auto& rules = js.failure_policy->rules;
  for (size_t i = 0; i < rules.size(); ++i) {
    std::vector<size_t> targets = Targets(js, rules[i]);
    const auto& reasons = rules[i].on_job_failure_reasons;
    for (size_t k = 0; k < reasons.size(); ++k) {
      if (targets.empty()) break;
      std::string why;
      size_t first = targets[0];
      for (size_t t : targets) {
        why = WhyUnreachable(js.replicated_jobs[t], reasons[k]);
        if (why.empty()) break;
      }
      if (why.empty()) continue;
      std::string whom =
          targets.size() == 1
              ? "replicated job '" + js.replicated_jobs[first].name + "' cannot"
              : "none of the " + std::to_string(targets.size()) + " replicated jobs it targets can";
      sink->Own("failure-policy/unreachable-reason", kWarn,
                Index(Child(Index(kRules, i), "onJobFailureReasons"), k),
                "rule '" + rules[i].name + "' waits for reason " + reasons[k] + ", which " + whom +
                    " fail with: " + why,
                RJobPath(first, "template.spec"));
    }
  }
}

void CheckShadowedRules(const JobSet& js, FindingSink* sink) {
  const auto& rules = js.failure_policy->rules;
  // A rule without targets applies to every replicated job, which is a list an earlier rule can
  // name in full. (Reasons have no such list: a Job failing with an empty reason matches only a
  // rule without reasons.)
  std::vector<std::string> all_rjobs;
  for (const ReplicatedJob& rj : js.replicated_jobs) all_rjobs.push_back(rj.name);
  for (size_t j = 1; j < rules.size(); ++j) {
    for (size_t i = 0; i < j; ++i) {
      const FailurePolicyRule& a = rules[i];
      const FailurePolicyRule& b = rules[j];
      // Rule a takes every failure rule b would: its reasons and targets cover b's, and it
      // matches whatever the message (no patterns), or with b's very patterns.
      bool patterns_cover =
          a.on_job_failure_message_patterns.empty() ||
          (!b.on_job_failure_message_patterns.empty() &&
           Covers(a.on_job_failure_message_patterns, b.on_job_failure_message_patterns));
      if (!Covers(a.on_job_failure_reasons, b.on_job_failure_reasons) ||
          !Covers(a.target_replicated_jobs, b.target_replicated_jobs, all_rjobs) ||
          !patterns_cover) {
        continue;
      }
      // Names may repeat (an error of their own): then say which rules by index.
      std::string bn = "'" + b.name + "'", an = "'" + a.name + "'";
      if (a.name == b.name) {
        bn = Index("rules", j) + " " + bn;
        an = Index("rules", i) + " " + an;
      }
      sink->Own("failure-policy/shadowed-rule", kWarn, Child(Index(kRules, j), "name"),
                "rule " + bn + " can never fire: the earlier rule " + an +
                    " matches every failure it matches, and the first matching rule wins",
                Index(kRules, i), PointAt::kKey);
      break;
    }
  }
}

bool InPlace(const JobSet& js) { return js.failure_policy->restart_strategy == "InPlaceRestart"; }

void CheckMaxRestarts(const JobSet& js, FindingSink* sink) {
  if (js.failure_policy->max_restarts >= 0) return;
  sink->Own("failure-policy/negative-max-restarts", kWarn, "spec.failurePolicy.maxRestarts",
            "maxRestarts is " + std::to_string(js.failure_policy->max_restarts) +
                (InPlace(js) ? ": with InPlaceRestart the JobSet fails on its first reconcile "
                               "(a container restart count of 0 is already more)"
                             : ": the first restart that counts fails the JobSet, as with 0"));
}

// The Job API's own checks on the child Job template (batch/v1 validation), which the JobSet
// admission does not run: the JobSet is admitted and every child Job is then refused.
void CheckJobTemplate(const JobSet& js, size_t r, FindingSink* sink) {
  const ReplicatedJob& rj = js.replicated_jobs[r];
  if (!rj.job_spec) return;
  std::string spec = RJobPath(r, "template.spec");
  const Node* pfp = rj.job_spec->Find("podFailurePolicy");
  bool indexed = rj.completion_mode.value_or("Indexed") == "Indexed";
  auto unsupported = [&](const std::string& path, const std::string& value, const char* supported) {
    sink->Own("job-template/unsupported-value", kWarn, path,
              "the Job API refuses every child Job of '" + rj.name + "': " + value +
                  " is not one of " + supported + " (the JobSet API does not check it)");
  };
  if (rj.completion_mode && *rj.completion_mode != "Indexed" &&
      *rj.completion_mode != "NonIndexed") {
    unsupported(Child(spec, "completionMode"), *rj.completion_mode, "Indexed, NonIndexed");
  }
  if (rj.pod_replacement_policy && *rj.pod_replacement_policy != "Failed" &&
      *rj.pod_replacement_policy != "TerminatingOrFailed") {
    unsupported(Child(spec, "podReplacementPolicy"), *rj.pod_replacement_policy,
                "Failed, TerminatingOrFailed");
  }
  if (rj.backoff_limit_per_index && !indexed) {
    sink->Own("job-template/backoff-limit-per-index-not-indexed", kWarn,
              Child(spec, "backoffLimitPerIndex"),
              "the Job API refuses every child Job of '" + rj.name +
                  "': backoffLimitPerIndex requires completionMode Indexed",
              Child(spec, "completionMode"));
  }
  if (rj.max_failed_indexes && !rj.backoff_limit_per_index) {
    sink->Own("job-template/max-failed-indexes-without-backoff-limit-per-index", kWarn,
              Child(spec, "maxFailedIndexes"),
              "the Job API refuses every child Job of '" + rj.name +
                  "': maxFailedIndexes can only be set together with backoffLimitPerIndex",
              spec);
  }
  if (!pfp || !pfp->is_map()) return;
  std::string restart_policy =
      rj.pod_spec ? std::string(rj.pod_spec->StringOr("restartPolicy")) : std::string();
  if (restart_policy != "Never") {
    bool defaulted =
        !FindPath(sink->object(), Child(spec, "template.spec.restartPolicy")) ||
        !FindPath(sink->object(), Child(spec, "template.spec.restartPolicy"))->mark.known();
    sink->Own("job-template/pod-failure-policy-restart-policy", kWarn,
              Child(spec, "podFailurePolicy"),
              "the Job API refuses every child Job of '" + rj.name +
                  "': a podFailurePolicy needs restartPolicy Never, and the pod template has " +
                  (restart_policy.empty() ? std::string("none") : restart_policy) +
                  (defaulted ? " (the JobSet webhook defaults it to OnFailure)" : "") +
                  "; the JobSet never starts",
              Child(spec, "template.spec.restartPolicy"), PointAt::kKey);
  }
  const Node* rules = pfp->Find("rules");
  if (!rules || !rules->is_seq()) return;
  std::vector<std::string> containers;
  for (const char* list : {"containers", "initContainers"}) {
    const Node* cs = rj.pod_spec ? rj.pod_spec->Find(list) : nullptr;
    if (cs && cs->is_seq())
      for (const Node& c : cs->items) containers.push_back(std::string(c.StringOr("name")));
  }
  for (size_t k = 0; k < rules->items.size(); ++k) {
    const Node& rule = rules->items[k];
    std::string base = Index(Child(spec, "podFailurePolicy.rules"), k);
    std::string action(rule.StringOr("action"));
    if (!action.empty() && action != "FailJob" && action != "FailIndex" && action != "Ignore" &&
        action != "Count") {
      unsupported(Child(base, "action"), action, "FailJob, FailIndex, Ignore, Count");
    }
    if (const Node* c = rule.Find("onExitCodes")) {
      std::string op(c->StringOr("operator"));
      if (!op.empty() && op != "In" && op != "NotIn") {
        unsupported(Child(base, "onExitCodes.operator"), op, "In, NotIn");
      }
    }
    if (rule.StringOr("action") == "FailIndex" && !rj.backoff_limit_per_index) {
      sink->Own("job-template/fail-index-without-backoff-limit-per-index", kWarn,
                Child(base, "action"),
                "the Job API refuses every child Job of '" + rj.name +
                    "': action FailIndex needs backoffLimitPerIndex in the Job template",
                spec);
    }
    const Node* codes = rule.Find("onExitCodes");
    if (!codes || !codes->is_map()) continue;
    std::string codes_path = Child(base, "onExitCodes");
    if (const Node* name = codes->Find("containerName");
        name && name->is_string() && !Contains(containers, name->text)) {
      sink->Own("job-template/exit-code-container", kWarn, Child(codes_path, "containerName"),
                "the Job API refuses every child Job of '" + rj.name +
                    "': onExitCodes names "
                    "container '" +
                    name->text + "', which the pod template does not have",
                Child(spec, "template.spec.containers"));
    }
    const Node* values = codes->Find("values");
    if (!values || !values->is_seq()) continue;
    if (values->items.size() > 255) {
      sink->Own("job-template/exit-code-count", kWarn, Child(codes_path, "values"),
                "the Job API refuses every child Job of '" + rj.name + "': onExitCodes has " +
                    std::to_string(values->items.size()) + " values, at most 255 are allowed");
    }
    if (codes->StringOr("operator") == "In") {
      for (size_t v = 0; v < values->items.size(); ++v) {
        if (values->items[v].is_int() && values->items[v].integer == 0) {
          sink->Own("job-template/exit-code-zero", kWarn, Index(Child(codes_path, "values"), v),
                    "the Job API refuses every child Job of '" + rj.name +
                        "': exit code 0 is not allowed with operator In (a succeeded container "
                        "is not a failure)");
        }
      }
    }
  }
}

// Replicated jobs whose Jobs are never created: one that depends on itself, or on one that
// never starts. Admission lets dependsOn name only this or an earlier replicated job, so one
// pass in order settles it; unknown names are admission errors and are left alone here.
std::vector<bool> NeverStart(const JobSet& js) {
  std::vector<bool> never(js.replicated_jobs.size(), false);
  for (size_t i = 0; i < js.replicated_jobs.size(); ++i) {
    for (const DependsOn& d : js.replicated_jobs[i].depends_on) {
      for (size_t j = 0; j <= i; ++j) {
        if (js.replicated_jobs[j].name != d.name) continue;
        if (j == i || never[j]) never[i] = true;
        break;
      }
    }
  }
  return never;
}

// dependsOn that waits forever: on the replicated job itself, or on one that never starts.
void CheckDependsOn(const JobSet& js, const std::vector<bool>& never, FindingSink* sink) {
  for (size_t i = 0; i < js.replicated_jobs.size(); ++i) {
    const ReplicatedJob& rj = js.replicated_jobs[i];
    for (size_t k = 0; k < rj.depends_on.size(); ++k) {
      const std::string field = Child(Index(RJobPath(i, "dependsOn"), k), "name");
      const DependsOn& d = rj.depends_on[k];
      if (d.name == rj.name) {
        sink->Own("depends-on/self", kWarn, field,
                  "replicated job '" + rj.name + "' depends on itself: it waits for its own Jobs " +
                      "to be " + d.status + " before creating them, so it never starts");
        continue;
      }
      for (size_t j = 0; j < i; ++j) {
        if (js.replicated_jobs[j].name != d.name) continue;
        if (never[j]) {
          sink->Own("depends-on/never-starts", kWarn, field,
                    "replicated job '" + rj.name + "' depends on '" + d.name +
                        "', which never starts, so its Jobs are never created either",
                    RJobPath(j, "dependsOn"));
        }
        break;
      }
    }
  }
}

// A success policy no run can meet, or one met too early. The controller checks it only once a
// child Job has succeeded, and completes the JobSet when the succeeded Jobs of the targeted
// replicated jobs (all of them when no target is named) number at least 1 (Any), or at least
// the sum of the targets' replicas (All).
void CheckSuccessPolicy(const JobSet& js, const std::vector<bool>& never, FindingSink* sink) {
  const SuccessPolicy policy = js.success_policy.value_or(SuccessPolicy{});
  std::vector<size_t> targets;
  bool any_jobs = false;
  for (size_t i = 0; i < js.replicated_jobs.size(); ++i) {
    const ReplicatedJob& rj = js.replicated_jobs[i];
    if (rj.replicas > 0 && !never[i]) any_jobs = true;
    if (policy.target_replicated_jobs.empty() || Contains(policy.target_replicated_jobs, rj.name)) {
      targets.push_back(i);
    }
  }
  if (targets.empty()) return;  // Unknown targets: success-policy/unknown-target.
  const std::string locate = policy.target_replicated_jobs.empty()
                                 ? "spec.successPolicy.operator"
                                 : "spec.successPolicy.targetReplicatedJobs";
  if (!any_jobs) {
    sink->Own("success-policy/never-met", kWarn, locate,
              "successPolicy can never be met: no replicated job ever creates a Job (replicas 0, "
              "or a dependsOn that never clears), so no Job succeeds and the JobSet never "
              "completes");
    return;
  }
  std::string blocked, related;
  bool all_zero = true;
  for (size_t i : targets) {
    const ReplicatedJob& rj = js.replicated_jobs[i];
    if (rj.replicas > 0) all_zero = false;
    if (rj.replicas > 0 && !never[i]) {
      blocked.clear();
      break;
    }
    if (related.empty()) related = RJobPath(i, rj.replicas <= 0 ? "replicas" : "dependsOn");
    blocked += (blocked.empty() ? "'" : ", '") + rj.name + "'" +
               (rj.replicas <= 0 ? " has replicas 0" : " never starts");
  }
  if (blocked.empty()) return;  // A target creates Jobs.
  if (policy.op == "Any") {
    sink->Own(
        "success-policy/never-met", kWarn, locate,
        "successPolicy Any can never be met: no targeted replicated job ever creates a Job (" +
            blocked + "), so the JobSet never completes",
        related);
  } else if (all_zero) {
    sink->Own("success-policy/premature", kWarn, locate,
              "successPolicy All targets only replicated jobs with replicas 0 (" + blocked +
                  "): it expects 0 successes, so the first Job of any other replicated job to "
                  "succeed completes the JobSet and its running Jobs are deleted",
              related);
  }
  // All with a target that never starts: depends-on/self or depends-on/never-starts says so.
}

// A restart with no budget: maxRestarts 0 (the default) makes the first counted restart fail the
// JobSet with ReachedMaxRestarts, so a RestartJobSet or RestartJob rule acts as FailJobSet, and
// in-place restarts fail the JobSet at the first container restart.
void CheckRestartBudget(const JobSet& js, FindingSink* sink) {
  if (js.failure_policy->max_restarts != 0) return;
  if (InPlace(js)) {
    sink->Own("failure-policy/restart-without-budget", kWarn, "spec.failurePolicy.maxRestarts",
              "maxRestarts is 0 with restartStrategy InPlaceRestart: the first container restart "
              "fails the JobSet with ReachedMaxRestarts, so nothing is ever restarted in place",
              "spec.failurePolicy.restartStrategy");
    return;
  }
  for (size_t k = 0; k < js.failure_policy->rules.size(); ++k) {
    const FailurePolicyRule& rule = js.failure_policy->rules[k];
    if (rule.action != "RestartJobSet" && rule.action != "RestartJob") continue;
    sink->Own("failure-policy/restart-without-budget", kWarn, Child(Index(kRules, k), "action"),
              "rule '" + rule.name + "' never restarts anything: maxRestarts is 0, so its first " +
                  rule.action + " fails the JobSet with ReachedMaxRestarts, as FailJobSet would",
              "spec.failurePolicy.maxRestarts");
  }
}

// Every decision a failure of `rjob` with `reason` can lead to: the rule chosen when the
// message matches its patterns, and what applies when it does not.
std::vector<Decision> Outcomes(const PreparedPolicy& policy, int rjob, std::string_view reason) {
  CellExplanation cell = ExplainCell(policy, rjob, reason);
  std::vector<Decision> out = {cell.decision};
  out.insert(out.end(), cell.otherwise.begin(), cell.otherwise.end());
  return out;
}

bool IgnoresMax(PolicyAction a) {
  return a == PolicyAction::kRestartJobSetAndIgnoreMaxRestarts ||
         a == PolicyAction::kRestartJobAndIgnoreMaxRestarts;
}

// Application errors restarted without limit: the Job failed on its own (backoff limit, failed
// indexes) and an ignore-max action restarts it, so a deterministic bug loops forever.
void CheckUnboundedRestarts(const JobSet& js, const PreparedPolicy& policy, FindingSink* sink) {
  std::vector<bool> reported(policy.rules.size(), false);
  for (size_t r = 0; r < js.replicated_jobs.size(); ++r) {
    for (const char* reason : {"BackoffLimitExceeded", "FailedIndexes", "MaxFailedIndexesExceeded",
                               "PodFailurePolicy"}) {
      if (!WhyUnreachable(js.replicated_jobs[r], reason).empty()) continue;
      // PodFailurePolicy is an application error only when an exit code can fail the Job
      // (DisruptionTarget conditions are the infrastructure's doing).
      if (std::string_view(reason) == "PodFailurePolicy" &&
          !HasFailJobOnExitCodes(js.replicated_jobs[r].job_spec)) {
        continue;
      }
      for (const Decision& d : Outcomes(policy, static_cast<int>(r), reason)) {
        if (d.rule < 0 || !IgnoresMax(d.action) || reported[d.rule]) continue;
        reported[d.rule] = true;
        const PreparedRule& rule = policy.rules[d.rule];
        sink->Own("failure-policy/unbounded-restarts", kWarn,
                  Child(Index(kRules, d.rule), "action"),
                  "rule '" + rule.name + "' restarts forever on an application error: when a " +
                      "Job of '" + js.replicated_jobs[r].name + "' fails with " + reason +
                      (d.conditional ? " and a matching message" : "") + ", " +
                      std::string(ActionName(d.action)) +
                      " restarts it without counting, so a bug that fails every run never stops",
                  RJobPath(r, "template.spec"));
      }
    }
  }
}

// maxRestarts > 0 that nothing consumes: every reachable failure resolves to FailJobSet or an
// ignore-max action.
void CheckUnusedMaxRestarts(const JobSet& js, const PreparedPolicy& policy, FindingSink* sink) {
  if (js.failure_policy->max_restarts <= 0) return;
  for (size_t r = 0; r < js.replicated_jobs.size(); ++r) {
    for (const std::string& reason : JobFailureReasons()) {
      if (!WhyUnreachable(js.replicated_jobs[r], reason).empty()) continue;
      for (const Decision& d : Outcomes(policy, static_cast<int>(r), reason)) {
        if (d.counts_towards_max) return;
      }
    }
  }
  sink->Own("failure-policy/max-restarts-unused", kWarn, "spec.failurePolicy.maxRestarts",
            "maxRestarts is " + std::to_string(js.failure_policy->max_restarts) +
                " but no failure can use it: every failure the Job templates can produce "
                "resolves to FailJobSet or an action that ignores maxRestarts",
            js.failure_policy->rules.empty() ? std::string() : std::string(kRules));
}

// Annotations in the JobSet controller's namespace that it does not define are ignored: a
// misspelt or unprefixed key (`jobset.sigs.k8s.io/exclusive-topology` for the alpha one) turns
// the feature off without a word. Checked where the controller reads annotations: the JobSet's
// own, each replicated job's Job template's (both read by labelAndAnnotateObject in
// pkg/controllers/jobset_controller.go of kubernetes-sigs/jobset), and each pod template's
// (merged into the pods, whose annotations the pod webhook and pod controller read). Labels
// are not checked: the controller reads no label a user sets.
void CheckUnknownAnnotations(const JobSet& js, FindingSink* sink) {
  std::vector<std::string> places = {"metadata.annotations"};
  for (size_t r = 0; r < js.replicated_jobs.size(); ++r) {
    places.push_back(RJobPath(r, "template.metadata.annotations"));
    places.push_back(RJobPath(r, "template.spec.template.metadata.annotations"));
  }
  const std::vector<std::string>& known = KnownJobSetKeys();
  for (const std::string& place : places) {
    const Node* annotations = FindPath(sink->object(), place);
    if (!annotations || !annotations->is_map()) continue;
    for (const MapEntry& e : annotations->entries) {
      if (!InJobSetKeyNamespace(e.key) || Contains(known, e.key)) continue;
      std::string nearest = NearestJobSetKey(e.key);
      sink->Own("jobset/unknown-annotation", kWarn, Key(place, e.key),
                "annotation '" + e.key +
                    "' is in the JobSet controller's namespace but is no key it knows, so it is "
                    "ignored" +
                    (nearest.empty() ? "" : "; did you mean '" + nearest + "'?"),
                {}, PointAt::kKey);
    }
  }
}

}  // namespace

void AnalyzeJobSet(const Node& object, const FeatureGates& gates, FindingSink* sink) {
  AnalyzeJobSet(DecodeJobSet(object), gates, sink);
}

void AnalyzeJobSet(const JobSet& js, const FeatureGates& gates, FindingSink* sink) {
  for (size_t r = 0; r < js.replicated_jobs.size(); ++r) CheckJobTemplate(js, r, sink);
  const std::vector<bool> never = NeverStart(js);
  CheckDependsOn(js, never, sink);
  CheckSuccessPolicy(js, never, sink);
  CheckUnknownAnnotations(js, sink);
  if (!js.failure_policy) return;
  CheckMaxRestarts(js, sink);
  CheckRestartBudget(js, sink);
  CheckPatterns(js, sink);
  CheckUnreachableReasons(js, sink);
  CheckShadowedRules(js, sink);
  // In-place restarts spend maxRestarts on container restarts, whatever the rules say, and
  // admission forces backoffLimit to MaxInt32: the rule-based budget checks do not apply.
  if (InPlace(js)) return;
  PreparedPolicy policy = PreparePolicy(js, gates);
  CheckUnboundedRestarts(js, policy, sink);
  CheckUnusedMaxRestarts(js, policy, sink);
}

}  // namespace jobset
