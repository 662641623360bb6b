#include "validation/jobset/analysis.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "validation/core/field_path.h"
#include "validation/core/go_regexp.h"
#include "validation/core/strings.h"
#include "validation/jobset/keys.h"
#include "validation/jobset/policy_engine.h"
#include "validation/jobset/rules.h"
#include "validation/jobset/types.h"
#include "validation/jobset/validation.h"

namespace jobset {
namespace {

constexpr char kRJobs[] = "spec.replicatedJobs";
constexpr char kRules[] = "spec.failurePolicy.rules";
constexpr Severity kWarn = Severity::kWarning;

std::string RJobPath(size_t i, std::string_view rest) { return Child(Index(kRJobs, i), rest); }

// Replicated job indexes by name, in order (a name may repeat: an admission error of its own).
using RJobsByName = std::unordered_map<std::string_view, std::vector<size_t>>;

RJobsByName IndexByName(const JobSet& js) {
  RJobsByName out;
  for (size_t i = 0; i < js.replicated_jobs.size(); ++i) {
    out[js.replicated_jobs[i].name].push_back(i);
  }
  return out;
}

// The index of the first replicated job named `name`, or -1.
long FirstNamed(const RJobsByName& by_name, std::string_view name) {
  auto it = by_name.find(name);
  return it == by_name.end() ? -1 : static_cast<long>(it->second.front());
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
      sink->Own(kFailurePolicyInvalidPattern, kWarn,
                Index(Child(Index(kRules, i), "onJobFailureMessagePatterns"), k),
                "pattern '" + patterns[k] + "' does not compile as a Go regexp (" + error +
                    "): the controller logs an error and the pattern never matches");
    }
  }
}

// The reasons a replicated job can be unable to fail with (WhyReasonUnreachable); any other
// reason is reachable by every replicated job.
constexpr std::array<std::string_view, 4> kGatedReasons = {
    "DeadlineExceeded", "FailedIndexes", "MaxFailedIndexesExceeded", "PodFailurePolicy"};

// What the replicated jobs a rule targets (a set of names, or all) can do for each gated
// reason: whether one can fail with it, the last one (whose explanation is given when none
// can), the first and how many they are. Built from per-name summaries, so a rule costs the
// length of its own lists, whatever the number of replicated jobs.
struct TargetSummary {
  size_t count = 0, first = 0, last = 0;
  std::array<bool, kGatedReasons.size()> reachable{};

  void Add(const TargetSummary& o) {
    if (o.count == 0) return;
    first = count ? std::min(first, o.first) : o.first;
    last = count ? std::max(last, o.last) : o.last;
    count += o.count;
    for (size_t k = 0; k < reachable.size(); ++k) reachable[k] = reachable[k] || o.reachable[k];
  }
};

void CheckUnreachableReasons(const JobSet& js, FindingSink* sink) {
  const auto& rules = js.failure_policy->rules;
  // One summary per replicated job name, and one of them all (rules without targets).
  std::unordered_map<std::string_view, TargetSummary> by_name;
  TargetSummary all;
  for (size_t r = 0; r < js.replicated_jobs.size(); ++r) {
    TargetSummary one;
    one.count = 1, one.first = one.last = r;
    for (size_t k = 0; k < kGatedReasons.size(); ++k) {
      one.reachable[k] = WhyUnreachable(js.replicated_jobs[r], kGatedReasons[k]).empty();
    }
    by_name[js.replicated_jobs[r].name].Add(one);
    all.Add(one);
  }
  for (size_t i = 0; i < rules.size(); ++i) {
    TargetSummary named;
    if (!rules[i].target_replicated_jobs.empty()) {
      std::unordered_set<std::string_view> seen;
      for (const std::string& t : rules[i].target_replicated_jobs) {
        auto it = by_name.find(t);
        if (it != by_name.end() && seen.insert(t).second) named.Add(it->second);
      }
    }
    const TargetSummary& targets = rules[i].target_replicated_jobs.empty() ? all : named;
    if (targets.count == 0) continue;
    const auto& reasons = rules[i].on_job_failure_reasons;
    for (size_t k = 0; k < reasons.size(); ++k) {
      auto gated = std::find(kGatedReasons.begin(), kGatedReasons.end(), reasons[k]);
      if (gated == kGatedReasons.end() || targets.reachable[gated - kGatedReasons.begin()]) {
        continue;
      }
      // None can: the explanation is the last target's, as a scan in order would end with.
      std::string why = WhyUnreachable(js.replicated_jobs[targets.last], reasons[k]);
      std::string whom =
          targets.count == 1
              ? "replicated job '" + js.replicated_jobs[targets.first].name + "' cannot"
              : "none of the " + std::to_string(targets.count) + " replicated jobs it targets can";
      sink->Own(kFailurePolicyUnreachableReason, kWarn,
                Index(Child(Index(kRules, i), "onJobFailureReasons"), k),
                "rule '" + rules[i].name + "' waits for reason " + reasons[k] + ", which " + whom +
                    " fail with: " + why,
                RJobPath(targets.first, "template.spec"));
    }
  }
}

// A rule's match criteria as sets, for "does rule A match every failure rule B matches".
struct MatchSets {
  std::unordered_set<std::string_view> reasons, targets, patterns;
};

MatchSets SetsOf(const FailurePolicyRule& r) {
  MatchSets m;
  m.reasons.insert(r.on_job_failure_reasons.begin(), r.on_job_failure_reasons.end());
  m.targets.insert(r.target_replicated_jobs.begin(), r.target_replicated_jobs.end());
  m.patterns.insert(r.on_job_failure_message_patterns.begin(),
                    r.on_job_failure_message_patterns.end());
  return m;
}

// The same criteria as one string, equal for two rules exactly when their sets are: each set
// sorted, each element length-prefixed. The action is not part of it.
std::string Signature(const MatchSets& m) {
  std::string out;
  for (const auto* set : {&m.reasons, &m.targets, &m.patterns}) {
    std::vector<std::string_view> sorted(set->begin(), set->end());
    std::sort(sorted.begin(), sorted.end());
    out += std::to_string(sorted.size()) + ":";
    for (std::string_view e : sorted) out += std::to_string(e.size()) + ":" + std::string(e);
  }
  return out;
}

// True when every element of `inner` is in `outer`; an empty `outer` means "everything", an
// empty `inner` means `all` (for targets: every replicated job) and covers nothing otherwise.
// Each probe is charged to `*budget`; false once it is spent.
bool Covers(const std::unordered_set<std::string_view>& outer,
            const std::unordered_set<std::string_view>& inner,
            const std::unordered_set<std::string_view>& all, size_t* budget) {
  if (outer.empty()) return true;
  const auto& in = inner.empty() ? all : inner;
  if (in.empty() || in.size() > outer.size()) return false;
  for (std::string_view s : in) {
    if (*budget == 0) return false;
    --*budget;
    if (!outer.count(s)) return false;
  }
  return true;
}

// The work CheckShadowedRules may spend comparing rules of different match criteria (set
// probes). Whether one rule covers another is a subset test, which no index answers for all
// pairs at once; the budget keeps a hostile list of thousands of distinct rules from costing
// time quadratic in its length. Realistic policies use a tiny part of it
// (docs/rules/failure-policy/shadowed-rule.md).
constexpr size_t kShadowBudget = size_t{1} << 22;

void CheckShadowedRules(const JobSet& js, FindingSink* sink) {
  const auto& rules = js.failure_policy->rules;
  // A rule without targets applies to every replicated job, which is a list an earlier rule can
  // name in full. (Reasons have no such list: a Job failing with an empty reason matches only a
  // rule without reasons.)
  std::unordered_set<std::string_view> all_rjobs, none;
  for (const ReplicatedJob& rj : js.replicated_jobs) all_rjobs.insert(rj.name);
  // Rules with the same criteria form a group: the first of a group covers the later ones,
  // and whether another rule covers them is one question per group.
  std::unordered_map<std::string, size_t> group_of_signature;
  std::vector<size_t> group(rules.size());
  std::vector<size_t> first, last;  // Per group: its first and last rule.
  std::vector<MatchSets> sets;      // Per group.
  for (size_t j = 0; j < rules.size(); ++j) {
    MatchSets m = SetsOf(rules[j]);
    auto [it, added] = group_of_signature.emplace(Signature(m), first.size());
    if (added) {
      first.push_back(j), last.push_back(j);
      sets.push_back(std::move(m));
    }
    group[j] = it->second;
    last[it->second] = j;
  }
  // Rule a takes every failure rule b would: its reasons and targets cover b's, and it matches
  // whatever the message (no patterns), or with b's very patterns.
  size_t budget = kShadowBudget;
  auto covers = [&](const MatchSets& a, const MatchSets& b) {
    if (budget == 0) return false;
    --budget;
    bool patterns_cover = a.patterns.empty() ||
                          (!b.patterns.empty() && Covers(a.patterns, b.patterns, none, &budget));
    return patterns_cover && Covers(a.reasons, b.reasons, none, &budget) &&
           Covers(a.targets, b.targets, all_rjobs, &budget);
  };
  // Per group: the first rule of another group that covers it, earlier than its last rule.
  std::vector<size_t> coverer(first.size(), rules.size());
  for (size_t g = 0; g < first.size(); ++g) {
    for (size_t h = 0; budget > 0 && h < first.size() && first[h] < last[g]; ++h) {
      if (h != g && covers(sets[h], sets[g])) {
        coverer[g] = first[h];
        break;
      }
    }
  }
  for (size_t j = 1; j < rules.size(); ++j) {
    const size_t g = group[j];
    size_t i = coverer[g] < j ? coverer[g] : rules.size();
    if (first[g] < j) i = std::min(i, first[g]);
    if (i == rules.size()) continue;
    const FailurePolicyRule& a = rules[i];
    const FailurePolicyRule& b = rules[j];
    // Names may repeat (an error of their own): then say which rules by index.
    std::string bn = "'" + b.name + "'", an = "'" + a.name + "'";
    if (a.name == b.name) {
      bn = Index("rules", j) + " " + bn;
      an = Index("rules", i) + " " + an;
    }
    sink->Own(kFailurePolicyShadowedRule, kWarn, Child(Index(kRules, j), "name"),
              "rule " + bn + " can never fire: the earlier rule " + an +
                  " matches every failure it matches, and the first matching rule wins",
              Index(kRules, i), PointAt::kKey);
  }
}

bool InPlace(const JobSet& js) { return js.failure_policy->restart_strategy == "InPlaceRestart"; }

void CheckMaxRestarts(const JobSet& js, FindingSink* sink) {
  if (js.failure_policy->max_restarts >= 0) return;
  sink->Own(kFailurePolicyNegativeMaxRestarts, kWarn, "spec.failurePolicy.maxRestarts",
            "maxRestarts is " + std::to_string(js.failure_policy->max_restarts) +
                (InPlace(js) ? ": with InPlaceRestart the JobSet fails on its first reconcile "
                               "(a container restart count of 0 is already more)"
                             : ": the first restart that counts fails the JobSet, as with 0"));
}

// Replicated jobs whose Jobs are never created: one that depends on itself, or on one that
// never starts. Admission lets dependsOn name only this or an earlier replicated job, so one
// pass in order settles it; unknown names are admission errors and are left alone here.
std::vector<bool> NeverStart(const JobSet& js) {
  std::vector<bool> never(js.replicated_jobs.size(), false);
  const RJobsByName by_name = IndexByName(js);
  for (size_t i = 0; i < js.replicated_jobs.size(); ++i) {
    for (const DependsOn& d : js.replicated_jobs[i].depends_on) {
      const long j = FirstNamed(by_name, d.name);
      if (j < 0 || j > static_cast<long>(i)) continue;
      if (j == static_cast<long>(i) || never[static_cast<size_t>(j)]) never[i] = true;
    }
  }
  return never;
}

// dependsOn that waits forever: on the replicated job itself, or on one that never starts.
void CheckDependsOn(const JobSet& js, const std::vector<bool>& never, FindingSink* sink) {
  const RJobsByName by_name = IndexByName(js);
  for (size_t i = 0; i < js.replicated_jobs.size(); ++i) {
    const ReplicatedJob& rj = js.replicated_jobs[i];
    for (size_t k = 0; k < rj.depends_on.size(); ++k) {
      const std::string field = Child(Index(RJobPath(i, "dependsOn"), k), "name");
      const DependsOn& d = rj.depends_on[k];
      if (d.name == rj.name) {
        sink->Own(kDependsOnSelf, kWarn, field,
                  "replicated job '" + rj.name + "' depends on itself: it waits for its own Jobs " +
                      "to be " + d.status + " before creating them, so it never starts");
        continue;
      }
      const long j = FirstNamed(by_name, d.name);
      if (j >= 0 && j < static_cast<long>(i) && never[static_cast<size_t>(j)]) {
        sink->Own(kDependsOnNeverStarts, kWarn, field,
                  "replicated job '" + rj.name + "' depends on '" + d.name +
                      "', which never starts, so its Jobs are never created either",
                  RJobPath(static_cast<size_t>(j), "dependsOn"));
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
  const std::unordered_set<std::string_view> named(policy.target_replicated_jobs.begin(),
                                                   policy.target_replicated_jobs.end());
  bool any_jobs = false;
  for (size_t i = 0; i < js.replicated_jobs.size(); ++i) {
    const ReplicatedJob& rj = js.replicated_jobs[i];
    if (rj.replicas > 0 && !never[i]) any_jobs = true;
    if (named.empty() || named.count(rj.name)) {
      targets.push_back(i);
    }
  }
  if (targets.empty()) return;  // Unknown targets: success-policy/unknown-target.
  const std::string locate = policy.target_replicated_jobs.empty()
                                 ? "spec.successPolicy.operator"
                                 : "spec.successPolicy.targetReplicatedJobs";
  if (!any_jobs) {
    sink->Own(kSuccessPolicyNeverMet, kWarn, locate,
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
        kSuccessPolicyNeverMet, kWarn, locate,
        "successPolicy Any can never be met: no targeted replicated job ever creates a Job (" +
            blocked + "), so the JobSet never completes",
        related);
  } else if (all_zero) {
    sink->Own(kSuccessPolicyPremature, kWarn, locate,
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
    sink->Own(kFailurePolicyRestartWithoutBudget, kWarn, "spec.failurePolicy.maxRestarts",
              "maxRestarts is 0 with restartStrategy InPlaceRestart: the first container restart "
              "fails the JobSet with ReachedMaxRestarts, so nothing is ever restarted in place",
              "spec.failurePolicy.restartStrategy");
    return;
  }
  for (size_t k = 0; k < js.failure_policy->rules.size(); ++k) {
    const FailurePolicyRule& rule = js.failure_policy->rules[k];
    if (rule.action != "RestartJobSet" && rule.action != "RestartJob") continue;
    sink->Own(kFailurePolicyRestartWithoutBudget, kWarn, Child(Index(kRules, k), "action"),
              "rule '" + rule.name + "' never restarts anything: maxRestarts is 0, so its first " +
                  rule.action + " fails the JobSet with ReachedMaxRestarts, as FailJobSet would",
              "spec.failurePolicy.maxRestarts");
  }
}

bool IgnoresMax(PolicyAction a) {
  return a == PolicyAction::kRestartJobSetAndIgnoreMaxRestarts ||
         a == PolicyAction::kRestartJobAndIgnoreMaxRestarts;
}

constexpr int kNoRule = std::numeric_limits<int>::max();

// The decisions a failure of an rjob with a reason can lead to (ExplainCell's chain) are the
// rules that admit it by target and reason and can match some message, in spec order, up to and
// including the first without message patterns (else the default action, RestartJobSet, which
// counts towards maxRestarts). Walking that chain for every rjob and reason costs rules x rjobs
// when many conditional rules admit every rjob; the checks below answer from indexes of the
// rules of one kind instead, each rule of a shared list looked at once.
struct Chains {
  explicit Chains(const PreparedPolicy& p)
      : policy(p),
        unconditional(IndexRulesWhere(p, [](const PreparedRule& r) { return !r.has_patterns; })),
        counting(IndexRulesWhere(
            p, [](const PreparedRule& r) { return CanMatch(r) && CountsTowardsMax(r.action); })),
        ignoring_max(IndexRulesWhere(
            p, [](const PreparedRule& r) { return CanMatch(r) && IgnoresMax(r.action); })),
        first_memo(2 * p.rjob_names.size() * JobFailureReasons().size(), kUnknown) {}

  // A rule with patterns none of which compiled never matches (ExplainCell skips it).
  static bool CanMatch(const PreparedRule& r) { return !r.has_patterns || !r.patterns.empty(); }

  // The first rule of `index` (unconditional or counting) that admits a failure of `rjob` with
  // reason JobFailureReasons()[reason], or kNoRule; remembered per rjob name and reason.
  int First(const RuleIndex& index, int rjob, size_t reason) {
    const size_t n_reasons = JobFailureReasons().size();
    const size_t slot = ((&index == &unconditional ? 0 : policy.rjob_names.size()) +
                         static_cast<size_t>(policy.rjob_key[rjob])) *
                            n_reasons +
                        reason;
    int& first = first_memo[slot];
    if (first != kUnknown) return first;
    const std::string& text = JobFailureReasons()[reason];
    const CandidateLists lists = Candidates(policy, index, rjob, text);
    first = kNoRule;
    for (std::span<const int> list :
         {lists.any, lists.named, lists.targeted, lists.targeted_named}) {
      if (!list.empty()) first = std::min(first, list.front());
    }
    return first;
  }

  // The rule that ends the chain of (rjob, reason), or kNoRule (the default action ends it).
  int End(int rjob, size_t reason) { return First(unconditional, rjob, reason); }

  static constexpr int kUnknown = -2;
  const PreparedPolicy& policy;
  RuleIndex unconditional, counting, ignoring_max;
  std::vector<int> first_memo;
};

// Application errors restarted without limit: the Job failed on its own (backoff limit, failed
// indexes) and an ignore-max action restarts it, so a deterministic bug loops forever.
// Each ignore-max rule is reported at the first (rjob, reason) whose chain holds it, in chain
// order. A chain holds every ignore-max rule that admits the failure up to the rule that ends it,
// so once a cell has walked a list of the index that far, every rule before that point is
// reported or (targeted rules) does not admit the reason: a cursor per list (per rjob name and
// reason for targeted rules) starts the next walk there.
void CheckUnboundedRestarts(const JobSet& js, const PreparedPolicy& policy, FindingSink* sink) {
  Chains chains(policy);
  std::vector<bool> reported(policy.rules.size(), false);
  const std::vector<std::string>& reasons = JobFailureReasons();
  size_t any_next = 0;
  std::vector<size_t> named_next(reasons.size(), 0);
  std::unordered_map<size_t, size_t> targeted_next;        // By rjob key x reasons + reason.
  std::unordered_map<size_t, size_t> targeted_named_next;  // Likewise.
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
      const int rjob = static_cast<int>(r);
      const size_t k =
          static_cast<size_t>(std::find(reasons.begin(), reasons.end(), reason) - reasons.begin());
      const CandidateLists lists = Candidates(policy, chains.ignoring_max, rjob, reason);
      if (lists.any.empty() && lists.named.empty() && lists.targeted.empty() &&
          lists.targeted_named.empty()) {
        continue;
      }
      const int end = chains.End(rjob, k);
      size_t& a = any_next;
      size_t& n = named_next[k];
      const size_t cell = static_cast<size_t>(policy.rjob_key[r]) * reasons.size() + k;
      size_t& t = targeted_next[cell];
      size_t& tn = targeted_named_next[cell];
      for (;;) {
        const int ra = a < lists.any.size() ? lists.any[a] : kNoRule;
        const int rn = n < lists.named.size() ? lists.named[n] : kNoRule;
        const int rt = t < lists.targeted.size() ? lists.targeted[t] : kNoRule;
        const int rtn = tn < lists.targeted_named.size() ? lists.targeted_named[tn] : kNoRule;
        const int rule_index = std::min({ra, rn, rt, rtn});
        if (rule_index == kNoRule || rule_index > end) break;
        if (rule_index == ra) {
          ++a;
        } else if (rule_index == rn) {
          ++n;
        } else if (rule_index == rt) {
          ++t;
        } else {
          ++tn;
        }
        if (reported[rule_index]) continue;
        reported[rule_index] = true;
        const PreparedRule& rule = policy.rules[rule_index];
        sink->Own(kFailurePolicyUnboundedRestarts, kWarn,
                  Child(Index(kRules, rule_index), "action"),
                  "rule '" + rule.name + "' restarts forever on an application error: when a " +
                      "Job of '" + js.replicated_jobs[r].name + "' fails with " + reason +
                      (rule.has_patterns ? " and a matching message" : "") + ", " +
                      std::string(ActionName(rule.action)) +
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
  Chains chains(policy);
  const std::vector<std::string>& reasons = JobFailureReasons();
  for (size_t r = 0; r < js.replicated_jobs.size(); ++r) {
    for (size_t k = 0; k < reasons.size(); ++k) {
      if (!WhyUnreachable(js.replicated_jobs[r], reasons[k]).empty()) continue;
      // The chain uses the budget when the default action ends it, or a counting rule comes
      // no later than its end.
      const int end = chains.End(static_cast<int>(r), k);
      if (end == kNoRule || chains.First(chains.counting, static_cast<int>(r), k) <= end) return;
    }
  }
  sink->Own(kFailurePolicyMaxRestartsUnused, kWarn, "spec.failurePolicy.maxRestarts",
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
      sink->Own(kJobSetUnknownAnnotation, kWarn, Key(place, e.key),
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
