#include "validation/k8s/job_failure.h"

#include <limits>
#include <set>

namespace jobset {
namespace {

constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();

// An integer field of `spec`, or nothing when absent, null or not an integer.
std::optional<int64_t> IntField(const Node& spec, std::string_view key) {
  const Node* n = spec.Find(key);
  if (!n || !n->is_int()) return std::nullopt;
  return n->integer;
}

bool IsContainerEvent(const PodEvent& event) {
  return event.kind == PodEventKind::kExit || event.kind == PodEventKind::kOom;
}

// A container that fails under restartPolicy OnFailure restarts in its pod, which stays Running:
// the pod failure policy never sees it (a Job with one must use Never), and
// pastBackoffLimitOnFailure fails the Job once the restarts reach backoffLimit (one restart when
// it is 0).
JobFailureOutcome RestartInPlace(const JobFailureSpec& spec) {
  JobFailureOutcome outcome;
  outcome.restarts_in_place = true;
  outcome.reason = std::string(kJobReasonBackoffLimitExceeded);
  outcome.message = std::string(kJobBackoffLimitExceededMessage);
  outcome.failures_to_fail = spec.backoff_limit == 0 ? 1 : spec.backoff_limit;
  return outcome;
}

// The outcome of a counted failure that fails its index (FailIndex) or counts against
// backoffLimitPerIndex: the index fails after `index_failures` failures, and the Job with
// MaxFailedIndexesExceeded when no failed index is allowed, else with FailedIndexes once the
// other indexes finish; backoffLimit, checked first in syncJob, may end it sooner.
void IndexFailure(const JobFailureSpec& spec, int64_t index_failures, JobFailureOutcome* outcome) {
  if (spec.backoff_limit + 1 <= index_failures) {
    outcome->reason = std::string(kJobReasonBackoffLimitExceeded);
    outcome->message = std::string(kJobBackoffLimitExceededMessage);
    outcome->failures_to_fail = spec.backoff_limit + 1;
    return;
  }
  outcome->failures_to_fail = index_failures;
  if (spec.max_failed_indexes && *spec.max_failed_indexes == 0) {
    outcome->reason = std::string(kJobReasonMaxFailedIndexesExceeded);
    outcome->message = std::string(kJobMaxFailedIndexesExceededMessage);
    return;
  }
  outcome->reason = std::string(kJobReasonFailedIndexes);
  outcome->message = std::string(kJobFailedIndexesMessage);
  outcome->waits_for_other_indexes = true;
}

// The outcome once matchPodFailurePolicy has decided on the failed pod.
JobFailureOutcome Decide(const JobFailureSpec& spec, const PodFailurePolicyMatch& match) {
  JobFailureOutcome outcome;
  outcome.rule_index = match.rule_index;
  outcome.rule_action = match.action.value_or("");
  outcome.counts = match.count_failed;
  if (outcome.rule_action == kPodFailureActionIgnore) {
    outcome.fails_job = false;
    return outcome;
  }
  if (match.job_failure_message) {
    outcome.reason = std::string(kJobReasonPodFailurePolicy);
    outcome.message = *match.job_failure_message;
    outcome.failures_to_fail = 1;
    return outcome;
  }
  if (spec.indexed && spec.backoff_limit_per_index) {
    const bool fail_index = outcome.rule_action == kPodFailureActionFailIndex;
    IndexFailure(spec, fail_index ? 1 : *spec.backoff_limit_per_index + 1, &outcome);
    return outcome;
  }
  outcome.reason = std::string(kJobReasonBackoffLimitExceeded);
  outcome.message = std::string(kJobBackoffLimitExceededMessage);
  outcome.failures_to_fail = spec.backoff_limit + 1;
  return outcome;
}

// The exit codes `policy` names for `container` (rules without a container name name them for
// every container), 0 left out: it never matches.
std::set<int64_t> NamedExitCodes(const std::optional<PodFailurePolicy>& policy,
                                 const std::string& container) {
  std::set<int64_t> codes;
  if (!policy) return codes;
  for (const PodFailureRule& rule : policy->rules) {
    if (!rule.on_exit_codes) continue;
    const PodFailureOnExitCodes& req = *rule.on_exit_codes;
    if (req.container_name && *req.container_name != container) continue;
    for (int64_t v : req.values)
      if (v > 0 && v <= 255) codes.insert(v);
  }
  return codes;
}

// The exit events of one container: each named code, then one representative of the others
// (the smallest code the policy does not name: In and NotIn treat every such code alike).
void AddExitEvents(const JobFailureSpec& spec, const std::string& container, bool name_it,
                   std::vector<PossibleJobFailureEvent>* out) {
  const std::set<int64_t> codes = NamedExitCodes(spec.pod_failure_policy, container);
  const std::string label = name_it ? container : "";
  auto add = [&](PodEvent event, bool other) {
    out->push_back({event, other, JobOutcomeOf(spec, event)});
  };
  for (int64_t code : codes) add({PodEventKind::kExit, static_cast<int32_t>(code), label}, false);
  for (int32_t code = 1; code <= 255; ++code) {
    if (codes.count(code)) continue;
    add({PodEventKind::kExit, code, label}, true);
    break;
  }
  add({PodEventKind::kOom, 1, label}, false);
}

}  // namespace

JobFailureSpec DecodeJobFailureSpec(const Node& job_spec) {
  JobFailureSpec spec;
  spec.pod_failure_policy = DecodePodFailurePolicy(job_spec);
  spec.backoff_limit_per_index = IntField(job_spec, "backoffLimitPerIndex");
  spec.max_failed_indexes = IntField(job_spec, "maxFailedIndexes");
  spec.backoff_limit =
      IntField(job_spec, "backoffLimit").value_or(spec.backoff_limit_per_index ? kMaxInt32 : 6);
  spec.indexed = job_spec.StringOr("completionMode") == "Indexed";
  if (const Node* tmpl = job_spec.Find("template"); tmpl && tmpl->is_map()) {
    spec.pod = PodShapeOf(*tmpl);
    spec.restart_policy = spec.pod.restart_policy;
  }
  return spec;
}

JobFailureOutcome JobOutcomeOf(const JobFailureSpec& spec, const PodEvent& event) {
  if (IsContainerEvent(event) && spec.restart_policy != "Never") return RestartInPlace(spec);
  const FailedPod pod = FailedPodAfter(event, spec.pod, "<namespace>", "<pod>");
  const PodFailurePolicy* policy = spec.pod_failure_policy ? &*spec.pod_failure_policy : nullptr;
  return Decide(spec, MatchPodFailurePolicy(policy, pod));
}

std::string FillPodPlaceholder(std::string_view message, std::string_view pod_namespace,
                               std::string_view pod_name) {
  std::string out(message);
  const size_t at = out.find(kPodPlaceholder);
  if (at == std::string::npos) return out;
  const std::string pod = std::string(pod_namespace) + "/" + std::string(pod_name);
  return out.replace(at, kPodPlaceholder.size(), pod);
}

std::vector<PossibleJobFailureEvent> PossibleJobFailureEvents(const Node& job_spec,
                                                              const Node& pod_template) {
  JobFailureSpec spec = DecodeJobFailureSpec(job_spec);
  spec.pod = PodShapeOf(pod_template);
  spec.restart_policy = spec.pod.restart_policy;
  const bool name_containers = spec.pod.containers.size() + spec.pod.init_containers.size() > 1;
  std::vector<PossibleJobFailureEvent> out;
  for (const std::string& c : spec.pod.containers) AddExitEvents(spec, c, name_containers, &out);
  for (size_t i = 0; i < spec.pod.init_containers.size(); ++i) {
    if (!spec.pod.init_is_sidecar[i])
      AddExitEvents(spec, spec.pod.init_containers[i], name_containers, &out);
  }
  for (int k = static_cast<int>(PodEventKind::kDrain); k <= static_cast<int>(PodEventKind::kDelete);
       ++k) {
    const PodEvent event{static_cast<PodEventKind>(k), 1, ""};
    if (PodEventError(event, spec.pod).empty())
      out.push_back({event, false, JobOutcomeOf(spec, event)});
  }
  return out;
}

}  // namespace jobset
