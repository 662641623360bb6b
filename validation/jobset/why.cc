#include "validation/jobset/why.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "validation/core/batch_job.h"
#include "validation/core/dump_history.h"
#include "validation/core/strings.h"
#include "validation/jobset/analysis.h"
#include "validation/jobset/policy_engine.h"
#include "validation/jobset/types.h"

namespace jobset {
namespace {

constexpr std::string_view kJobSetGroup = "jobset.x-k8s.io";
constexpr std::string_view kJobSetNameLabel = "jobset.sigs.k8s.io/jobset-name";
constexpr std::string_view kRjobLabel = "jobset.sigs.k8s.io/replicatedjob-name";
constexpr std::string_view kJobIndexLabel = "jobset.sigs.k8s.io/job-index";
constexpr std::string_view kRestartAttemptLabel = "jobset.sigs.k8s.io/restart-attempt";
constexpr std::string_view kJobRestartAttemptLabel = "jobset.sigs.k8s.io/job-restart-attempt";

// The JobSet events that end a step: the controller applied (or tried) a failure-policy action
// (pkg/constants/constants.go at kubernetes-sigs/jobset@08dfbdfd).
bool IsActionEvent(std::string_view reason) {
  return reason == "RestartJobSetFailurePolicyAction" ||
         reason == "RestartJobSetAndIgnoreMaxRestartsFailurePolicyAction" ||
         reason == "RestartJobFailurePolicyAction" ||
         reason == "RestartJobAndIgnoreMaxRestartsFailurePolicyAction" || reason == "FailedJobs" ||
         reason == "FailJobSetFailurePolicyAction" || reason == "ReachedMaxRestarts";
}

// How the Job controller ended the Job (jobset_controller.go classifies by the first True
// condition of type Complete or Failed): "Failed", "Complete" or "".
std::string_view JobFinish(const Node& job) {
  const Node* conditions = FindSeq(job.Find("status"), "conditions");
  if (conditions == nullptr) return {};
  for (const Node& c : conditions->items) {
    std::string_view type = c.StringOr("type");
    if ((type == "Failed" || type == "Complete") && c.StringOr("status") == "True") return type;
  }
  return {};
}

// "<js>-<rjob>-<index>" back to (rjob, index), trying the spec's names; false when it is not.
bool ParseChildName(std::string_view job, std::string_view js,
                    const std::vector<std::string>& rjobs, int* rjob, int64_t* index) {
  if (job.size() <= js.size() + 1 || job.substr(0, js.size()) != js || job[js.size()] != '-')
    return false;
  std::string_view rest = job.substr(js.size() + 1);
  size_t dash = rest.rfind('-');
  if (dash == std::string_view::npos) return false;
  int64_t i = ParseInt64Or(rest.substr(dash + 1), -1);
  if (i < 0) return false;
  for (size_t r = 0; r < rjobs.size(); ++r) {
    if (rjobs[r] == rest.substr(0, dash)) {
      *rjob = static_cast<int>(r);
      *index = i;
      return true;
    }
  }
  return false;
}

const Node* FindJobSet(const WorkloadDump& dump, std::string_view name) {
  for (const Node* js : ObjectsOfKind(dump, kJobSetGroup, "JobSet")) {
    if (ObjectName(*js) == name) return js;
  }
  return nullptr;
}

// The child Jobs of the JobSet: its label, or its controller owner reference.
std::vector<const Node*> ChildJobs(const WorkloadDump& dump, const Node& js) {
  std::vector<const Node*> jobs;
  std::string_view name = ObjectName(js);
  for (const Node* job : ObjectsOfKind(dump, "batch", "Job")) {
    if (LabelOf(*job, kJobSetNameLabel) == name || IsOwnedBy(*job, "JobSet", name)) {
      jobs.push_back(job);
    }
  }
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const Node* a, const Node* b) { return ObjectName(*a) < ObjectName(*b); });
  return jobs;
}

std::vector<std::string> RjobNames(const JobSet& js) {
  std::vector<std::string> names;
  for (const ReplicatedJob& rj : js.replicated_jobs) names.push_back(rj.name);
  return names;
}

// The failures of the child Jobs the dump shows with a Failed=True condition; adds their uids
// to `uids`.
std::vector<DumpedFailure> FailedChildJobs(const WorkloadDump& dump, const Node& js_object,
                                           const std::vector<std::string>& rjobs,
                                           std::set<std::string>* uids) {
  std::string_view name = ObjectName(js_object);
  std::vector<DumpedFailure> failures;
  for (const Node* job : ChildJobs(dump, js_object)) {
    if (JobFinish(*job) != "Failed") continue;
    const Node* c = TrueCondition(*job, "Failed");
    DumpedFailure f;
    f.job = std::string(ObjectName(*job));
    f.uid = std::string(ObjectUid(*job));
    std::string_view rjob_label = LabelOf(*job, kRjobLabel);
    auto it = std::find(rjobs.begin(), rjobs.end(), rjob_label);
    f.index = ParseInt64Or(LabelOf(*job, kJobIndexLabel), -1);
    if (it == rjobs.end() || f.index < 0) {
      if (!ParseChildName(f.job, name, rjobs, &f.rjob, &f.index)) continue;
    } else {
      f.rjob = static_cast<int>(it - rjobs.begin());
    }
    f.reason = std::string(c->StringOr("reason"));
    f.message = std::string(c->StringOr("message"));
    f.time = std::string(c->StringOr("lastTransitionTime"));
    if (!f.uid.empty()) uids->insert(f.uid);
    failures.push_back(std::move(f));
  }
  return failures;
}

// Adds to `failures` the child Jobs deleted by a restart: the Warning event the Job controller
// emitted when each failed (skipping the Jobs already there, by uid or by what they say).
void AddFailureEvents(const WorkloadDump& dump, std::string_view name,
                      const std::vector<std::string>& rjobs, std::set<std::string>* uids,
                      std::vector<DumpedFailure>* failures) {
  const std::vector<std::string>& reasons = JobFailureReasons();
  for (const Node& event : dump.objects) {
    if (event.StringOr("kind") != "Event" || event.StringOr("type") != "Warning") continue;
    const Node* about = EventSubject(event);
    if (about == nullptr || about->StringOr("kind") != "Job") continue;
    std::string_view reason = event.StringOr("reason");
    if (std::find(reasons.begin(), reasons.end(), reason) == reasons.end()) continue;
    DumpedFailure f;
    f.job = std::string(about->StringOr("name"));
    f.uid = std::string(about->StringOr("uid"));
    if (!ParseChildName(f.job, name, rjobs, &f.rjob, &f.index)) continue;
    if (!f.uid.empty() && uids->count(f.uid)) continue;
    f.reason = std::string(reason);
    f.message = std::string(EventNote(event));
    f.time = EventTime(event);
    bool seen = std::any_of(failures->begin(), failures->end(), [&](const DumpedFailure& g) {
      return (f.uid.empty() || g.uid.empty()) && g.job == f.job && g.reason == f.reason &&
             g.message == f.message && g.time == f.time;
    });
    if (seen) continue;
    if (!f.uid.empty()) uids->insert(f.uid);
    failures->push_back(std::move(f));
  }
}

// Groups `failures` (oldest first) into steps: a step ends at the first failure-policy event of
// JobSet `name` at or after its failures; after the last such event, by second.
void GroupIntoSteps(const WorkloadDump& dump, std::string_view name,
                    std::vector<DumpedFailure> failures,
                    std::vector<std::vector<DumpedFailure>>* steps) {
  std::vector<int64_t> actions;
  for (const Node* event : EventsFor(dump, "JobSet", name)) {
    if (IsActionEvent(event->StringOr("reason")))
      actions.push_back(KubeTimeSeconds(EventTime(*event)));
  }
  std::sort(actions.begin(), actions.end());
  constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  int64_t current = -1;
  for (DumpedFailure& f : failures) {
    auto at = std::lower_bound(actions.begin(), actions.end(), f.seconds);
    int64_t boundary = at == actions.end() ? kNever : *at;
    // After the last action event: failures at the same second are one step.
    int64_t key = boundary == kNever ? -f.seconds - 1 : boundary;
    if (steps->empty() || key != current) steps->emplace_back();
    current = key;
    steps->back().push_back(std::move(f));
  }
}

// The failures of the JobSet's child Jobs in `dump`, oldest first, grouped into steps (as
// JobSetFailureSteps).
void CollectSteps(const WorkloadDump& dump, const Node& js_object, const JobSet& js,
                  std::vector<std::vector<DumpedFailure>>* steps) {
  const std::vector<std::string> rjobs = RjobNames(js);
  std::set<std::string> uids;
  std::vector<DumpedFailure> failures = FailedChildJobs(dump, js_object, rjobs, &uids);
  AddFailureEvents(dump, ObjectName(js_object), rjobs, &uids, &failures);
  for (DumpedFailure& f : failures) f.seconds = KubeTimeSeconds(f.time);
  std::stable_sort(failures.begin(), failures.end(),
                   [](const DumpedFailure& a, const DumpedFailure& b) {
                     return a.seconds != b.seconds ? a.seconds < b.seconds : a.job < b.job;
                   });
  GroupIntoSteps(dump, ObjectName(js_object), std::move(failures), steps);
}

// The JobSet status counters as the engine's state (restarts, budgets, per-job counts).
ControllerState StateFromStatus(const Node& js, const PreparedPolicy& policy) {
  ControllerState state;
  const Node* status = js.Find("status");
  state.restarts = IntOr(status, "restarts");
  state.restarts_count_towards_max = IntOr(status, "restartsCountTowardsMax");
  state.job_restarts.resize(policy.rjob_names.size());
  state.job_restarts_count_towards_max.resize(policy.rjob_names.size());
  const Node* rjs = status == nullptr ? nullptr : status->Find("replicatedJobsStatus");
  if (rjs != nullptr && rjs->is_seq()) {
    // Each status entry's replicated job by name (the first of a name, as FindReplicatedJob).
    std::unordered_map<std::string_view, int> by_name;
    by_name.reserve(policy.rjob_names.size());
    for (size_t i = 0; i < policy.rjob_names.size(); ++i) {
      by_name.emplace(policy.rjob_names[i], static_cast<int>(i));
    }
    for (const Node& r : rjs->items) {
      auto found = by_name.find(r.StringOr("name"));
      if (found == by_name.end()) continue;
      const int rjob = found->second;
      auto copy = [&](std::string_view key, std::vector<int32_t>* into) {
        const Node* arr = r.Find(key);
        if (arr == nullptr || !arr->is_seq()) return;
        for (const Node& v : arr->items) into->push_back(static_cast<int32_t>(v.integer));
      };
      copy("jobRestarts", &state.job_restarts[rjob]);
      copy("jobRestartsCountTowardsMax", &state.job_restarts_count_towards_max[rjob]);
      for (int32_t v : state.job_restarts_count_towards_max[rjob])
        state.job_restarts_count_towards_max_sum += v;
    }
  }
  std::string_view terminal = status == nullptr ? "" : status->StringOr("terminalState");
  state.terminal_state = terminal == "Failed"      ? TerminalState::kFailed
                         : terminal == "Completed" ? TerminalState::kCompleted
                                                   : TerminalState::kNone;
  return state;
}

std::string ConditionLine(const Node& c) {
  std::string line = std::string(c.StringOr("type")) + "=" + std::string(c.StringOr("status"));
  std::string_view reason = c.StringOr("reason");
  if (!reason.empty()) line += " " + std::string(reason);
  std::string_view message = c.StringOr("message");
  if (!message.empty()) line += ": " + std::string(message);
  return line;
}

bool InfrastructureReason(std::string_view reason) {
  static const char* const kInfra[] = {"Evicted",
                                       "Preempted",
                                       "Preempting",
                                       "NodeNotReady",
                                       "NodeShutdown",
                                       "Shutdown",
                                       "Terminated",
                                       "TaintManagerEviction",
                                       "NodeLost",
                                       "DeletionByTaintManager",
                                       "PreemptionByScheduler",
                                       "EvictionByEvictionAPI",
                                       "TerminationByKubelet",
                                       "DeletionByPodGC"};
  return std::any_of(std::begin(kInfra), std::end(kInfra),
                     [&](const char* r) { return reason == r; });
}

// What the Pods of Job `job` (uid `uid`) say about why it failed.
std::vector<FailureCause> PodCauses(const WorkloadDump& dump, const DumpedFailure& f,
                                    int64_t window_start) {
  std::vector<FailureCause> causes;
  for (const Node* pod : ObjectsOfKind(dump, "", "Pod")) {
    std::string_view job_label = LabelOf(*pod, "batch.kubernetes.io/job-name");
    if (job_label.empty()) job_label = LabelOf(*pod, "job-name");
    if (job_label != f.job && !IsOwnedBy(*pod, "Job", f.job)) continue;
    std::string_view owner_uid = LabelOf(*pod, "batch.kubernetes.io/controller-uid");
    if (!f.uid.empty() && !owner_uid.empty() && owner_uid != f.uid) continue;
    const Node* status = pod->Find("status");
    const std::string on_node = OnNodeWords(*pod);
    std::string object = "Pod " + std::string(ObjectName(*pod));
    std::string_view pod_reason = status == nullptr ? "" : status->StringOr("reason");
    if (const Node* d = TrueCondition(*pod, "DisruptionTarget")) {
      causes.push_back({object,
                        "disrupted (" + std::string(d->StringOr("reason")) +
                            "): " + std::string(d->StringOr("message")) + on_node,
                        "infrastructure"});
    } else if (!pod_reason.empty() && InfrastructureReason(pod_reason)) {
      causes.push_back(
          {object,
           std::string(pod_reason) + ": " + std::string(status->StringOr("message")) + on_node,
           "infrastructure"});
    }
    // A container stopped by the disruption or eviction exits because of it.
    bool disrupted = !causes.empty() && causes.back().object == object;
    const Node* containers = status == nullptr ? nullptr : status->Find("containerStatuses");
    if (containers == nullptr || !containers->is_seq()) continue;
    for (const Node& cs : containers->items) {
      const Node* term = FindPath(&cs, {"state", "terminated"});
      if (term == nullptr) term = FindPath(&cs, {"lastState", "terminated"});
      if (term == nullptr) continue;
      int64_t code = IntOr(term, "exitCode");
      if (code == 0) continue;
      std::string text = "container " + std::string(cs.StringOr("name")) + " exited with code " +
                         std::to_string(code);
      std::string_view why = term->StringOr("reason");
      if (!why.empty() && why != "Error") text += " (" + std::string(why) + ")";
      causes.push_back({object, text + (disrupted ? " (stopped by the disruption)" : "") + on_node,
                        disrupted ? "infrastructure" : "application"});
    }
  }
  if (!causes.empty()) return causes;
  // The Pods are gone: their Warning events in the attempt's window.
  for (const Node& event : dump.objects) {
    if (event.StringOr("kind") != "Event" || event.StringOr("type") != "Warning") continue;
    const Node* about = EventSubject(event);
    if (about == nullptr || about->StringOr("kind") != "Pod") continue;
    std::string_view pod = about->StringOr("name");
    if (pod.size() <= f.job.size() || pod.substr(0, f.job.size()) != f.job ||
        pod[f.job.size()] != '-')
      continue;
    int64_t t = KubeTimeSeconds(EventTime(event));
    if (t > f.seconds || t <= window_start) continue;
    std::string_view reason = event.StringOr("reason");
    causes.push_back({"Pod " + std::string(pod),
                      std::string(reason) + ": " + std::string(EventNote(event)),
                      InfrastructureReason(reason)                    ? "infrastructure"
                      : reason == "OOMKilling" || reason == "BackOff" ? "application"
                                                                      : ""});
  }
  return causes;
}

// The Job condition's own evidence: the pod failure policy rule its message names.
void JobMessageCauses(const DumpedFailure& f, std::vector<FailureCause>* causes) {
  if (f.reason != "PodFailurePolicy") return;
  size_t at = f.message.find("rule at index ");
  if (at == std::string::npos) return;
  size_t begin = f.message.rfind("matching ", at);
  std::string action =
      begin == std::string::npos ? "" : f.message.substr(begin + 9, at - begin - 10);
  std::string index = f.message.substr(at + 14);
  std::string category =
      f.message.find("DisruptionTarget") != std::string::npos
          ? "infrastructure"
          : (f.message.find("exit code") != std::string::npos ? "application" : "");
  causes->push_back({"Job " + f.job,
                     "pod failure policy rule " + index +
                         (action.empty() ? "" : " (" + action + ")") + " matched",
                     category});
}

// The category of an attempt: infrastructure when any cause is, else application when any is.
std::string Category(const std::vector<FailureCause>& causes) {
  bool app = false;
  for (const FailureCause& c : causes) {
    if (c.category == "infrastructure") return "infrastructure";
    app = app || c.category == "application";
  }
  return app ? "application" : "";
}

// The exit code of the first application cause ("exit code 1 in container trainer"), else "".
std::string ExitKey(const std::vector<FailureCause>& causes) {
  for (const FailureCause& c : causes) {
    size_t at = c.text.find(" exited with code ");
    if (c.category == "application" && at != std::string::npos) {
      size_t end = c.text.find_first_of(" ", at + 18);
      return "exit code " + c.text.substr(at + 18, end - at - 18) + " in " + c.text.substr(0, at);
    }
  }
  return {};
}

std::string Duration(int64_t seconds) {
  std::string s;
  if (seconds >= 3600) s += std::to_string(seconds / 3600) + "h";
  if (seconds >= 60) s += std::to_string(seconds / 60 % 60) + "m";
  s += std::to_string(seconds % 60) + "s";
  return s;
}

std::string RuleText(const PreparedPolicy& policy, int rule) {
  if (!policy.has_failure_policy) return "no failure policy";
  if (rule < 0) return "no rule: default";
  return "rule " + std::to_string(rule) + " (" + policy.rules[rule].name + ")";
}

std::string PassOutcomeText(const PreparedPolicy& policy, const PassOutcome& p,
                            std::string_view stuck_error) {
  if (p.stuck) return "stuck: " + std::string(stuck_error);
  if (p.reached_max) return "failed: ReachedMaxRestarts";
  if (p.no_policy) return "failed: FailedJobs";
  switch (p.action) {
    case PolicyAction::kFailJobSet:
      return "failed: FailJobSetFailurePolicyAction";
    case PolicyAction::kRestartJobSet:
    case PolicyAction::kRestartJobSetAndIgnoreMaxRestarts:
      return "restarted the JobSet (attempt " + std::to_string(p.restarts) + ")";
    case PolicyAction::kRestartJob:
    case PolicyAction::kRestartJobAndIgnoreMaxRestarts:
      return "recreated Job " + JobName(policy, p.rjob, p.index);
    default:
      return "stuck";
  }
}

// What one more failure does, given `d` at the counters of `state`.
std::string Effect(const PreparedPolicy& policy, const ControllerState& state, const Decision& d) {
  if (!policy.has_failure_policy) return "fails the JobSet (FailedJobs)";
  if (d.stuck) return "the controller errors on every pass (the JobSet neither restarts nor fails)";
  int64_t used = CountedRestarts(policy, state);
  std::string budget = std::to_string(policy.max_restarts) + " restarts";
  switch (d.action) {
    case PolicyAction::kFailJobSet:
      return "fails the JobSet (FailJobSetFailurePolicyAction)";
    case PolicyAction::kRestartJobSet:
    case PolicyAction::kRestartJob:
      if (used >= policy.max_restarts) {
        return "fails the JobSet (ReachedMaxRestarts): " + std::to_string(used) + " of " + budget +
               " used";
      }
      return std::string(d.action == PolicyAction::kRestartJob ? "recreates the failed Job"
                                                               : "restarts the JobSet") +
             ", counted: " + std::to_string(used + 1) + " of " + budget + " used";
    case PolicyAction::kRestartJobSetAndIgnoreMaxRestarts:
      return "restarts the JobSet without counting";
    case PolicyAction::kRestartJobAndIgnoreMaxRestarts:
      return "recreates the failed Job without counting";
    default:
      return "the controller errors on every pass";
  }
}

std::string ActionText(const PreparedPolicy& policy, PolicyAction action) {
  return policy.has_failure_policy ? std::string(ActionName(action)) : "FailJobSet";
}

void AddNextSteps(const PreparedPolicy& policy, const JobSet& js, const ControllerState& state,
                  Diagnosis* out) {
  for (size_t r = 0; r < js.replicated_jobs.size(); ++r) {
    for (const std::string& reason : JobFailureReasons()) {
      if (!WhyReasonUnreachable(js.replicated_jobs[r], reason).empty()) continue;
      CellExplanation cell = ExplainCell(policy, static_cast<int>(r), reason);
      std::vector<Decision> all = {cell.decision};
      all.insert(all.end(), cell.otherwise.begin(), cell.otherwise.end());
      for (size_t k = 0; k < all.size(); ++k) {
        const Decision& d = all[k];
        NextStep step;
        step.scope = js.replicated_jobs[r].name;
        step.reason = reason;
        if (d.conditional && d.rule >= 0) {
          std::string patterns;
          for (const std::string& p :
               js.failure_policy->rules[d.rule].on_job_failure_message_patterns)
            patterns += (patterns.empty() ? "" : "|") + p;
          step.reason += " (message ~ /" + patterns + "/)";
        } else if (k > 0) {
          step.reason += " (other messages)";
        }
        step.rule = RuleText(policy, d.rule);
        step.action = ActionText(policy, d.action);
        step.counts = d.counts_towards_max && policy.has_failure_policy;
        step.effect = Effect(policy, state, d);
        out->next.push_back(std::move(step));
      }
    }
  }
}

void AddHazards(const std::vector<std::pair<int64_t, int64_t>>& restarting, Diagnosis* out) {
  // Restart loops: attempts in a row ended by the same failure (reason and message).
  std::string key, shown;
  int run = 0;
  for (const Attempt& a : out->timeline) {
    if (a.failed.empty()) continue;
    std::string k = a.reason + "\n" + a.message;
    run = k == key ? run + 1 : 1;
    key = k;
    if (run < 2) continue;
    std::string exit = ExitKey(a.causes);
    shown = std::to_string(run) + " attempts in a row ended with " + a.reason +
            (a.message.empty() ? "" : " (" + a.message + ")") + (exit.empty() ? "" : ", " + exit);
  }
  if (!shown.empty()) {
    out->hazards.push_back(
        {"restart-loop",
         shown + ": a failure that repeats is likely a bug; a restart will not fix it"});
  }
  int infra = 0, app = 0, infra_counted = 0;
  for (const Attempt& a : out->timeline) {
    if (a.failed.empty()) continue;
    std::string c = Category(a.causes);
    if (c == "infrastructure") {
      ++infra;
      infra_counted += a.counted;
    } else if (c == "application") {
      ++app;
    }
  }
  if (infra > 0) {
    std::string text = std::to_string(infra) +
                       " failure(s) came from infrastructure (eviction, "
                       "disruption, node) and " +
                       std::to_string(app) + " from the application";
    if (infra_counted > 0) {
      text += "; " + std::to_string(infra_counted) +
              " infrastructure failure(s) counted toward maxRestarts (a rule with "
              "RestartJobSetAndIgnoreMaxRestarts for them would spare the budget)";
    }
    out->hazards.push_back({"infrastructure-restarts", text});
  }
  int64_t total = 0;
  for (auto [from, to] : restarting) total += to - from;
  if (total > 0) {
    out->hazards.push_back(
        {"time-restarting",
         "restarting for " + Duration(total) + " in " + std::to_string(restarting.size()) +
             " restart(s), from each failure that restarted the JobSet to all Jobs ready again"});
  }
}

// What every step of DiagnoseJobSet reads: the JobSet decoded, its child Jobs, the gates and
// policy the engine runs with, and the counters its status shows.
struct JobSetView {
  const Node* object = nullptr;
  const Node* status = nullptr;  ///< status, nullptr when absent.
  std::string name;
  JobSet js;
  std::vector<const Node*> jobs;  ///< The child Jobs, by name.
  FeatureGates gates;
  bool in_place = false;  ///< restartStrategy InPlaceRestart.
  PreparedPolicy policy;
  ControllerState status_state;  ///< The status counters as the engine's state.
  int64_t status_restarts = 0;   ///< status.restarts.
  int64_t status_counted = 0;    ///< status.restartsCountTowardsMax.
};

// What the replay of the recorded failures found.
struct JobSetReplay {
  ControllerState state;  ///< The engine's state after every recorded failure.
  /// (failure that restarted the JobSet, all Jobs ready again), in seconds.
  std::vector<std::pair<int64_t, int64_t>> restarting;
  std::string previous_end;  ///< When the attempt that runs now started.
  bool engine_stuck = false;
  std::string stuck_error;
};

// Reads the JobSet and fills the identity of `out`. Gate RestartJob is taken as on (with a
// note) when a child Job carries the job-restart-attempt label; InPlaceRestart when the JobSet
// uses that strategy.
JobSetView ReadJobSetView(const WorkloadDump& dump, const Node& object, const FeatureGates& given,
                          Diagnosis* out) {
  JobSetView v;
  v.object = &object;
  v.status = object.Find("status");
  v.name = std::string(ObjectName(object));
  v.js = DecodeJobSet(object);
  out->kind = "JobSet";
  out->api_version = std::string(object.StringOr("apiVersion"));
  out->namespace_name = std::string(ObjectNamespace(object));
  out->name = v.name;
  v.jobs = ChildJobs(dump, object);
  v.gates = given;
  if (!v.gates.restart_job) {
    for (const Node* job : v.jobs) {
      if (!LabelOf(*job, kJobRestartAttemptLabel).empty()) {
        v.gates.restart_job = true;
        out->notes.push_back(
            "feature gate RestartJob taken as on: the child Jobs carry the "
            "jobset.sigs.k8s.io/job-restart-attempt label, which only that gate writes");
        break;
      }
    }
  }
  v.in_place = v.js.failure_policy && v.js.failure_policy->restart_strategy == "InPlaceRestart";
  if (v.in_place) v.gates.in_place_restart = true;
  v.policy = PreparePolicy(v.js, v.gates);
  v.status_state = StateFromStatus(object, v.policy);
  v.status_restarts = IntOr(v.status, "restarts");
  v.status_counted = IntOr(v.status, "restartsCountTowardsMax");
  return v;
}

// Adds one line per status condition ("Failed=True ReachedMaxRestarts: ...") to `out`.
void AddConditionLines(const Node& object, Diagnosis* out) {
  const Node* conditions = FindSeq(object.Find("status"), "conditions");
  if (conditions == nullptr) return;
  for (const Node& c : conditions->items) out->conditions.push_back(ConditionLine(c));
}

// The times of the JobSet's JobsReady events, in seconds, oldest first.
std::vector<int64_t> JobsReadyTimes(const WorkloadDump& dump, std::string_view name) {
  std::vector<int64_t> times;
  for (const Node* event : EventsFor(dump, "JobSet", name)) {
    if (event->StringOr("reason") == "JobsReady") {
      times.push_back(KubeTimeSeconds(EventTime(*event)));
    }
  }
  return times;
}

// Adds to `out` the attempt each pass of one replayed step ended (reads the step's failures,
// the pods' causes in `dump`, the engine's outcome); moves the start of the running attempt in
// `replay` when a pass restarted the JobSet.
void AddStepAttempts(const WorkloadDump& dump, const JobSetView& view,
                     const std::vector<DumpedFailure>& step, const StepOutcome& outcome,
                     int64_t restarts_before, const std::vector<int64_t>& ready_times,
                     int64_t* previous_seconds, JobSetReplay* replay, Diagnosis* out) {
  const PreparedPolicy& policy = view.policy;
  for (const PassOutcome& p : outcome.passes) {
    const DumpedFailure* f = nullptr;
    for (const DumpedFailure& g : step)
      if (g.rjob == p.rjob && g.index == p.index && f == nullptr) f = &g;
    Attempt a;
    a.number = restarts_before;
    a.started = replay->previous_end;
    if (f != nullptr) {
      a.ended = f->time;
      a.failed = "Job " + f->job;
      a.reason = f->reason;
      a.message = f->message;
      a.causes = PodCauses(dump, *f, *previous_seconds);
      JobMessageCauses(*f, &a.causes);
    }
    a.rule = RuleText(policy, p.rule);
    a.action = p.stuck ? "none (" + ActionText(policy, p.action) + " errors)"
                       : ActionText(policy, p.action);
    a.counted = p.counted;
    a.outcome = PassOutcomeText(policy, p, outcome.stuck_error);
    restarts_before = p.restarts;
    if (f != nullptr &&
        (p.action == PolicyAction::kRestartJobSet ||
         p.action == PolicyAction::kRestartJobSetAndIgnoreMaxRestarts) &&
        !p.reached_max && !p.stuck && policy.has_failure_policy) {
      auto ready = std::lower_bound(ready_times.begin(), ready_times.end(), f->seconds);
      if (ready != ready_times.end()) replay->restarting.push_back({f->seconds, *ready});
      replay->previous_end = f->time;
      *previous_seconds = f->seconds;
    }
    out->timeline.push_back(std::move(a));
  }
}

// Adds to the last attempt of `out` the failures of a step that no pass chose: discarded with a
// restart, or left once the JobSet ended.
void AddDiscardedFailures(const std::vector<DumpedFailure>& step, const StepOutcome& outcome,
                          Diagnosis* out) {
  for (size_t k = 0; k < step.size() && k < outcome.fates.size(); ++k) {
    if (outcome.fates[k] == FailureFate::kDiscarded && !out->timeline.empty()) {
      out->timeline.back().causes.push_back(
          {"Job " + step[k].job,
           "also failed (" + step[k].reason + "); discarded with the restart or the JobSet's end",
           ""});
    }
  }
}

// Replays the failures the dump records through the failure-policy engine, step by step; adds
// one attempt per decision to the timeline of `out` (and a note per failure the engine
// refused).
JobSetReplay ReplayRecordedFailures(const WorkloadDump& dump, const JobSetView& view,
                                    Diagnosis* out) {
  JobSetReplay replay;
  std::vector<std::vector<DumpedFailure>> steps;
  CollectSteps(dump, *view.object, view.js, &steps);
  const std::vector<int64_t> ready_times = JobsReadyTimes(dump, view.name);
  replay.previous_end =
      std::string(StringValue(FindPath(view.object, {"metadata", "creationTimestamp"})));
  int64_t previous_seconds = KubeTimeSeconds(replay.previous_end);
  for (const auto& step : steps) {
    std::vector<JobFailure> failures;
    for (size_t k = 0; k < step.size(); ++k) {
      const DumpedFailure& f = step[k];
      failures.push_back(
          JobFailure{f.rjob, f.index, f.reason, f.message, f.seconds * 1000 + int64_t(k)});
    }
    const int64_t restarts_before = replay.state.restarts;
    StepOutcome outcome = ApplyFailures(view.policy, &replay.state, failures);
    if (!outcome.error.empty()) {
      out->notes.push_back("a recorded failure could not be replayed: " + outcome.error);
      continue;
    }
    AddStepAttempts(dump, view, step, outcome, restarts_before, ready_times, &previous_seconds,
                    &replay, out);
    AddDiscardedFailures(step, outcome, out);
    if (outcome.stuck) {
      replay.engine_stuck = true;
      replay.stuck_error = outcome.stuck_error;
    }
  }
  return replay;
}

// Adds a note to `out` when the replayed counters (`replayed`) differ from the status: the
// dump has lost older failures.
void NoteReplayAgainstStatus(const JobSetView& view, const ControllerState& replayed,
                             Diagnosis* out) {
  if (replayed.restarts == view.status_restarts &&
      replayed.restarts_count_towards_max == view.status_counted) {
    return;
  }
  out->notes.push_back(
      "the failures recorded in this dump replay to restarts " + std::to_string(replayed.restarts) +
      " (restartsCountTowardsMax " + std::to_string(replayed.restarts_count_towards_max) +
      ") but the status says " + std::to_string(view.status_restarts) + " (" +
      std::to_string(view.status_counted) +
      "): older failures are no longer recorded (events expire, by default after an hour)");
}

// The child Jobs of the current restart attempt (restart-attempt label at least status.restarts).
int64_t CurrentAttemptJobs(const JobSetView& view) {
  int64_t current = 0;
  for (const Node* job : view.jobs) {
    if (ParseInt64Or(LabelOf(*job, kRestartAttemptLabel), -1) >= view.status_restarts) ++current;
  }
  return current;
}

// The JobSet's last JobCreationFailed event, or nullptr.
const Node* LastJobCreationFailure(const WorkloadDump& dump, std::string_view name) {
  const Node* found = nullptr;
  for (const Node* event : EventsFor(dump, "JobSet", name)) {
    if (event->StringOr("reason") == "JobCreationFailed") found = event;
  }
  return found;
}

// Sets the health and the state line of `out` from the JobSet's conditions, spec.suspend, the
// replay's verdict, a JobCreationFailed event (a hazard too) and the ready Jobs.
void AddHealthAndState(const WorkloadDump& dump, const JobSetView& view, const JobSetReplay& replay,
                       Diagnosis* out) {
  const Node* failed = TrueCondition(*view.object, "Failed");
  const Node* completed = TrueCondition(*view.object, "Completed");
  const Node* restarting = TrueCondition(*view.object, "RestartingJobSet");
  int64_t replicas = 0;
  for (const ReplicatedJob& rj : view.js.replicated_jobs) replicas += rj.replicas;
  int64_t ready = 0;
  if (const Node* rjs = FindSeq(view.status, "replicatedJobsStatus")) {
    for (const Node& r : rjs->items) ready += IntOr(&r, "ready") + IntOr(&r, "succeeded");
  }
  const int64_t current_jobs = CurrentAttemptJobs(view);
  const Node* creation_failed = LastJobCreationFailure(dump, view.name);
  if (failed != nullptr) {
    out->health = Health::kFailed;
    out->state = "Failed: " + std::string(failed->StringOr("reason")) + " (" +
                 std::string(failed->StringOr("message")) + ")";
  } else if (completed != nullptr) {
    out->health = Health::kSucceeded;
    out->state = "Completed: " + std::string(completed->StringOr("reason"));
  } else if (view.js.suspend) {
    out->health = Health::kSuspended;
    out->state = "Suspended (spec.suspend is true): no Job runs";
  } else if (replay.engine_stuck) {
    out->health = Health::kStuck;
    out->state = "Stuck: " + replay.stuck_error;
  } else if (creation_failed != nullptr && current_jobs < replicas) {
    out->health = Health::kStuck;
    std::string note = std::string(EventNote(*creation_failed));
    out->state = "Stuck: " + std::to_string(replicas - current_jobs) + " of " +
                 std::to_string(replicas) + " child Jobs cannot be created";
    out->hazards.push_back(
        {"job-creation-failed",
         "JobCreationFailed: " + note.substr(0, note.find('\n')) +
             " (the controller retries forever; the JobSet never fails for this)"});
  } else if (restarting != nullptr) {
    out->health = Health::kRestarting;
    out->state = "Restarting: " + std::string(restarting->StringOr("reason")) + " (" +
                 std::string(restarting->StringOr("message")) + ")";
  } else {
    out->health = Health::kHealthy;
    out->state = "Running: " + std::to_string(ready) + " of " + std::to_string(replicas) +
                 " Jobs ready or succeeded";
  }
}

// Adds the restart budgets to `out`, from the status (the replay may lack expired history): the
// JobSet's, and one per Job restarted by RestartJob; a note when there is no failure policy.
void AddBudgets(const JobSetView& view, Diagnosis* out) {
  const PreparedPolicy& policy = view.policy;
  if (!policy.has_failure_policy) {
    out->notes.push_back("no failure policy: the first failed Job fails the JobSet");
    return;
  }
  const ControllerState& status_state = view.status_state;
  BudgetCounter b;
  b.name = "restartsCountTowardsMax";
  b.used = CountedRestarts(policy, status_state);
  b.limit = policy.max_restarts;
  int64_t free = view.status_restarts - view.status_counted;
  b.note = "status.restarts " + std::to_string(view.status_restarts) + ", of which " +
           std::to_string(free) + " did not count";
  if (view.gates.restart_job && status_state.job_restarts_count_towards_max_sum > 0) {
    b.note += "; includes " + std::to_string(status_state.job_restarts_count_towards_max_sum) +
              " counted Job restarts (RestartJob)";
  }
  out->budgets.push_back(std::move(b));
  for (size_t r = 0; r < policy.rjob_names.size(); ++r) {
    const auto& counts = status_state.job_restarts[r];
    for (size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] == 0) continue;
      BudgetCounter jb;
      jb.scope = policy.rjob_names[r] + "/" + std::to_string(i);
      jb.name = "jobRestartsCountTowardsMax";
      const auto& counted = status_state.job_restarts_count_towards_max[r];
      jb.used = i < counted.size() ? counted[i] : 0;
      jb.limit = policy.max_restarts;
      jb.note = "jobRestarts " + std::to_string(counts[i]) + "; shares the JobSet's budget";
      out->budgets.push_back(std::move(jb));
    }
  }
}

// What the JobSet's Pods show of restarts in place: the highest container restartCount, where,
// and the containers whose last run failed.
struct InPlaceRestarts {
  int64_t most = 0;
  std::string worst;  ///< "Pod P container C", "" when nothing restarted.
  std::vector<FailureCause> causes;
};

// Reads the container statuses of JobSet `name`'s Pods in `dump`.
InPlaceRestarts ReadInPlaceRestarts(const WorkloadDump& dump, std::string_view name) {
  InPlaceRestarts seen;
  for (const Node* pod : ObjectsOfKind(dump, "", "Pod")) {
    if (LabelOf(*pod, kJobSetNameLabel) != name) continue;
    const Node* cs = FindSeq(pod->Find("status"), "containerStatuses");
    if (cs == nullptr) continue;
    for (const Node& c : cs->items) {
      int64_t n = IntOr(&c, "restartCount");
      if (n > seen.most) {
        seen.most = n;
        seen.worst = "Pod " + std::string(ObjectName(*pod)) + " container " +
                     std::string(c.StringOr("name"));
      }
      const Node* term = FindPath(&c, {"lastState", "terminated"});
      if (term != nullptr && IntOr(term, "exitCode") != 0) {
        std::string_view why = term->StringOr("reason");
        seen.causes.push_back(
            {"Pod " + std::string(ObjectName(*pod)),
             "container " + std::string(c.StringOr("name")) + " exited with code " +
                 std::to_string(IntOr(term, "exitCode")) +
                 (why.empty() || why == "Error" ? "" : " (" + std::string(why) + ")") +
                 OnNodeWords(*pod),
             "application"});
      }
    }
  }
  return seen;
}

// For restartStrategy InPlaceRestart (restarts happen inside the Pods): adds to `out` the
// in-place budget, one attempt per in-place restart attempt of the status, and what one more
// container exit does.
void AddInPlaceRestarts(const WorkloadDump& dump, const JobSetView& view, Diagnosis* out) {
  const PreparedPolicy& policy = view.policy;
  const InPlaceRestarts seen = ReadInPlaceRestarts(dump, view.name);
  BudgetCounter b;
  b.name = "in-place restarts (highest container restartCount)";
  b.used = seen.most;
  b.limit = policy.max_restarts;
  b.note = seen.worst;
  out->budgets.push_back(std::move(b));
  const int64_t current = IntOr(view.status, "currentInPlaceRestartAttempt", -1);
  const int64_t previous = IntOr(view.status, "previousInPlaceRestartAttempt", -1);
  const int64_t attempts = std::max(current, previous + 1);
  for (int64_t k = 0; k < attempts; ++k) {
    Attempt a;
    a.number = k;
    a.rule = "restartStrategy InPlaceRestart";
    a.action = "restart in place";
    a.counted = true;
    a.outcome = "restarted in place (attempt " + std::to_string(k + 1) + ")";
    if (k + 1 == attempts) {
      a.failed = seen.causes.empty() ? "" : seen.causes.front().object;
      a.causes = seen.causes;
    }
    out->timeline.push_back(std::move(a));
  }
  if (TrueCondition(*view.object, "Failed") || TrueCondition(*view.object, "Completed")) return;
  NextStep s;
  s.scope = "any Pod";
  s.reason = "container exit (restarted in place)";
  s.rule = "restartStrategy InPlaceRestart";
  s.action = "restart in place";
  s.counts = true;
  s.effect = seen.most + 1 > policy.max_restarts
                 ? "fails the JobSet (ReachedMaxRestarts): restartCount " +
                       std::to_string(seen.most + 1) + " > maxRestarts " +
                       std::to_string(policy.max_restarts)
                 : "restarts in place: restartCount " + std::to_string(seen.most + 1) + " of " +
                       std::to_string(policy.max_restarts);
  out->next.push_back(std::move(s));
}

// Adds the attempt that runs now (started at `started`) to the timeline of `out`, its outcome
// told by the health already set.
void AddRunningAttempt(const JobSetView& view, const std::string& started, Diagnosis* out) {
  Attempt a;
  a.number = view.status_restarts;
  if (view.in_place) {
    a.number = std::max(IntOr(view.status, "currentInPlaceRestartAttempt", 0),
                        IntOr(view.status, "previousInPlaceRestartAttempt", -1) + 1);
  }
  a.started = started;
  if (const Node* completed = TrueCondition(*view.object, "Completed")) {
    a.ended = std::string(completed->StringOr("lastTransitionTime"));
  }
  a.outcome = out->health == Health::kSucceeded   ? "completed"
              : out->health == Health::kSuspended ? "suspended"
              : out->health == Health::kStuck     ? "stuck: child Jobs cannot be created"
                                                  : "running";
  out->timeline.push_back(std::move(a));
}

// Adds what one more failure of each replicated job would do at the status counters; for a
// terminal JobSet a note instead, and no next step at all.
void AddWhatHappensNext(const JobSetView& view, Diagnosis* out) {
  if (out->health == Health::kFailed || out->health == Health::kSucceeded) {
    out->notes.push_back("the JobSet is terminal: no further failure is handled");
    out->next.clear();
    return;
  }
  AddNextSteps(view.policy, view.js, view.status_state, out);
}

}  // namespace

bool JobSetFailureSteps(const WorkloadDump& dump, std::string_view name,
                        std::vector<std::vector<DumpedFailure>>* steps, std::string* error) {
  steps->clear();
  const Node* object = FindJobSet(dump, name);
  if (object == nullptr) {
    *error = "no JobSet \"" + std::string(name) + "\" in the dump";
    return false;
  }
  CollectSteps(dump, *object, DecodeJobSet(*object), steps);
  return true;
}

std::vector<StepSpec> ToReplaySteps(const std::vector<std::vector<DumpedFailure>>& steps,
                                    const std::vector<std::string>& rjob_names) {
  std::vector<StepSpec> out;
  for (const auto& step : steps) {
    StepSpec spec;
    for (const DumpedFailure& f : step) {
      spec.push_back(FailureSpec{rjob_names[f.rjob], f.index, f.reason, f.message});
    }
    out.push_back(std::move(spec));
  }
  return out;
}

bool DiagnoseJobSet(const WorkloadDump& dump, std::string_view name, const FeatureGates& given,
                    Diagnosis* out, std::string* error) {
  *out = Diagnosis{};
  const Node* object = FindJobSet(dump, name);
  if (object == nullptr) {
    *error = "no JobSet \"" + std::string(name) + "\" in the dump";
    return false;
  }
  const JobSetView view = ReadJobSetView(dump, *object, given, out);
  AddConditionLines(*object, out);
  const JobSetReplay replay = ReplayRecordedFailures(dump, view, out);
  NoteReplayAgainstStatus(view, replay.state, out);
  AddHealthAndState(dump, view, replay, out);
  AddBudgets(view, out);
  if (view.in_place && view.policy.has_failure_policy) AddInPlaceRestarts(dump, view, out);
  if (out->health != Health::kFailed && !replay.engine_stuck) {
    AddRunningAttempt(view, replay.previous_end, out);
  }
  AddWhatHappensNext(view, out);
  AddHazards(replay.restarting, out);
  return true;
}

}  // namespace jobset
