#include "validation/k8s/pod_failure_policy.h"

#include <algorithm>

namespace jobset {
namespace {

// The onExitCodes requirement of a rule, as the API server stores it.
std::optional<PodFailureOnExitCodes> DecodeOnExitCodes(const Node& rule) {
  const Node* codes = rule.Find("onExitCodes");
  if (!codes || !codes->is_map()) return std::nullopt;
  PodFailureOnExitCodes out;
  if (const Node* name = codes->Find("containerName"); name && name->is_string())
    out.container_name = name->text;
  out.op = std::string(codes->StringOr("operator"));
  if (const Node* values = codes->Find("values"); values && values->is_seq()) {
    for (const Node& v : values->items)
      if (v.is_int()) out.values.push_back(v.integer);
  }
  return out;
}

// The onPodConditions patterns of a rule, each status defaulted to "True"
// (SetDefaults_PodFailurePolicyOnPodConditionsPattern).
std::optional<std::vector<PodFailureOnPodCondition>> DecodeOnPodConditions(const Node& rule) {
  const Node* patterns = rule.Find("onPodConditions");
  if (!patterns || !patterns->is_seq()) return std::nullopt;
  std::vector<PodFailureOnPodCondition> out;
  for (const Node& p : patterns->items) {
    if (!p.is_map()) continue;
    PodFailureOnPodCondition pattern;
    pattern.type = std::string(p.StringOr("type"));
    if (const Node* status = p.Find("status");
        status && status->is_string() && !status->text.empty())
      pattern.status = status->text;
    out.push_back(std::move(pattern));
  }
  return out;
}

// isOnExitCodesOperatorMatching: In and NotIn over the values; any other operator is false.
bool OperatorMatches(int32_t exit_code, const PodFailureOnExitCodes& requirement) {
  const bool listed = std::find(requirement.values.begin(), requirement.values.end(),
                                static_cast<int64_t>(exit_code)) != requirement.values.end();
  if (requirement.op == "In") return listed;
  if (requirement.op == "NotIn") return !listed;
  return false;
}

// getMatchingContainerFromList: the first terminated, non-zero, named (when the requirement names
// one) container whose exit code satisfies the operator.
const PodContainerStatus* MatchingContainer(const std::vector<PodContainerStatus>& statuses,
                                            const PodFailureOnExitCodes& requirement) {
  for (const PodContainerStatus& status : statuses) {
    if (!status.exit_code) continue;  // Still terminating: no exit code to match.
    if (requirement.container_name && *requirement.container_name != status.name) continue;
    if (*status.exit_code != 0 && OperatorMatches(*status.exit_code, requirement)) return &status;
  }
  return nullptr;
}

// matchOnExitCodes: containerStatuses first, then initContainerStatuses.
const PodContainerStatus* MatchOnExitCodes(const FailedPod& pod,
                                           const PodFailureOnExitCodes& requirement) {
  if (const PodContainerStatus* status = MatchingContainer(pod.container_statuses, requirement))
    return status;
  return MatchingContainer(pod.init_container_statuses, requirement);
}

// matchOnPodConditions: the first of the pod's conditions (in its order) that equals a pattern in
// type and status.
const PodStatusCondition* MatchOnPodConditions(
    const FailedPod& pod, const std::vector<PodFailureOnPodCondition>& patterns) {
  for (const PodStatusCondition& condition : pod.conditions) {
    for (const PodFailureOnPodCondition& pattern : patterns)
      if (condition.type == pattern.type && condition.status == pattern.status) return &condition;
  }
  return nullptr;
}

// The Job failure message of a FailJob rule matched by exit code (upstream's format string
// "Container %s for pod %s/%s failed with exit code %v matching %v rule at index %d").
std::string ExitCodeMessage(const PodContainerStatus& status, const FailedPod& pod,
                            const std::string& action, int index) {
  return "Container " + status.name + " for pod " + pod.pod_namespace + "/" + pod.name +
         " failed with exit code " + std::to_string(*status.exit_code) + " matching " + action +
         " rule at index " + std::to_string(index);
}

// The Job failure message of a FailJob rule matched by condition (upstream's format string
// "Pod %s/%s has condition %v matching %v rule at index %d").
std::string ConditionMessage(const PodStatusCondition& condition, const FailedPod& pod,
                             const std::string& action, int index) {
  return "Pod " + pod.pod_namespace + "/" + pod.name + " has condition " + condition.type +
         " matching " + action + " rule at index " + std::to_string(index);
}

// The result of a rule that matched, by its action; nullopt when the action is unknown or is a
// FailIndex with its gate off (the Go switch falls out and the scan goes on). `message` is the
// FailJob message of this match.
std::optional<PodFailurePolicyMatch> ActOn(const PodFailureRule& rule, int index,
                                           bool fail_index_enabled, const std::string& message) {
  PodFailurePolicyMatch match;
  match.rule_index = index;
  match.action = rule.action;
  if (rule.action == kPodFailureActionIgnore) {
    match.count_failed = false;
  } else if (rule.action == kPodFailureActionFailJob) {
    match.job_failure_message = message;
  } else if (rule.action == kPodFailureActionFailIndex) {
    if (!fail_index_enabled) return std::nullopt;
  } else if (rule.action != kPodFailureActionCount) {
    return std::nullopt;
  }
  return match;
}

}  // namespace

std::optional<PodFailurePolicy> DecodePodFailurePolicy(const Node& job_spec) {
  const Node* pfp = job_spec.Find("podFailurePolicy");
  if (!pfp || !pfp->is_map()) return std::nullopt;
  PodFailurePolicy policy;
  const Node* rules = pfp->Find("rules");
  if (!rules || !rules->is_seq()) return policy;
  for (const Node& r : rules->items) {
    PodFailureRule rule;
    if (r.is_map()) {
      rule.action = std::string(r.StringOr("action"));
      rule.on_exit_codes = DecodeOnExitCodes(r);
      rule.on_pod_conditions = DecodeOnPodConditions(r);
    }
    policy.rules.push_back(std::move(rule));
  }
  return policy;
}

PodFailurePolicyMatch MatchPodFailurePolicy(const PodFailurePolicy* policy, const FailedPod& pod,
                                            bool fail_index_enabled) {
  if (!policy) return {};
  for (size_t i = 0; i < policy->rules.size(); ++i) {
    const PodFailureRule& rule = policy->rules[i];
    const int index = static_cast<int>(i);
    std::optional<PodFailurePolicyMatch> match;
    if (rule.on_exit_codes) {
      if (const PodContainerStatus* status = MatchOnExitCodes(pod, *rule.on_exit_codes))
        match = ActOn(rule, index, fail_index_enabled,
                      ExitCodeMessage(*status, pod, rule.action, index));
    } else if (rule.on_pod_conditions) {
      if (const PodStatusCondition* condition = MatchOnPodConditions(pod, *rule.on_pod_conditions))
        match = ActOn(rule, index, fail_index_enabled,
                      ConditionMessage(*condition, pod, rule.action, index));
    }
    if (match) return *match;
  }
  return {};
}

}  // namespace jobset
