// A batch/v1 Job's podFailurePolicy and the Job controller's matching of one failed pod against
// it, ported from kubernetes/kubernetes pkg/controller/job/pod_failure_policy.go
// (matchPodFailurePolicy, matchOnExitCodes, matchOnPodConditions, getMatchingContainerFromList,
// isOnExitCodesOperatorMatching, read at commit 95f08499d652a6211121d8af35f470609217c730, whose
// FailIndex case is gated by JobBackoffLimitPerIndex; tests ported from
// pod_failure_policy_test.go TestMatchPodFailurePolicy at commit
// 1892e4deb967a2b39cfc2fea87a8bd49274449ef).
//
// Contract: the policy is decoded from a JobSpec Node as the API server stores it, after
// SetDefaults_PodFailurePolicyOnPodConditionsPattern (an onPodConditions pattern without a status
// matches status "True"); decoding never fails: fields of the wrong type read as unset, as the
// Job controller would never see such an object (validation, job.h, rejects it). The matcher
// reads only the failed pod's facts that upstream reads (namespace, name, container and init
// container statuses, conditions) and is a pure function of its arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

/// The podFailurePolicy actions (k8s.io/api batch/v1 PodFailurePolicyAction*).
inline constexpr std::string_view kPodFailureActionFailJob = "FailJob";
inline constexpr std::string_view kPodFailureActionFailIndex = "FailIndex";
inline constexpr std::string_view kPodFailureActionIgnore = "Ignore";
inline constexpr std::string_view kPodFailureActionCount = "Count";

/// A rule's onExitCodes requirement (PodFailurePolicyOnExitCodesRequirement).
struct PodFailureOnExitCodes {
  std::optional<std::string> container_name;  ///< Unset: every container and init container.
  std::string op;                             ///< "In" or "NotIn"; anything else never matches.
  std::vector<int64_t> values;                ///< The exit codes, as written.
};

/// One onPodConditions pattern (PodFailurePolicyOnPodConditionsPattern).
struct PodFailureOnPodCondition {
  std::string type;             ///< A pod condition type, e.g. DisruptionTarget.
  std::string status = "True";  ///< "True" (the default), "False" or "Unknown".
};

/// One podFailurePolicy rule (PodFailurePolicyRule).
struct PodFailureRule {
  std::string action;  ///< As written; an unknown action is skipped.
  std::optional<PodFailureOnExitCodes> on_exit_codes;  ///< Tested first when set.
  /// Set when the rule has onPodConditions (tested when onExitCodes is not set).
  std::optional<std::vector<PodFailureOnPodCondition>> on_pod_conditions;
};

/// A Job's podFailurePolicy (PodFailurePolicy): its rules in spec order.
struct PodFailurePolicy {
  std::vector<PodFailureRule> rules;
};

/// One entry of a pod's containerStatuses or initContainerStatuses, as far as the Job controller
/// reads it: the name and, when the container is terminated (state.terminated), its exit code.
struct PodContainerStatus {
  std::string name;                  ///< The container's name.
  std::optional<int32_t> exit_code;  ///< state.terminated.exitCode; unset: not terminated.
  std::string reason;                ///< state.terminated.reason (Error, OOMKilled, ...).
};

/// One pod condition (PodCondition).
struct PodStatusCondition {
  std::string type;     ///< e.g. DisruptionTarget, Ready.
  std::string status;   ///< "True", "False" or "Unknown".
  std::string reason;   ///< e.g. EvictionByEvictionAPI.
  std::string message;  ///< Human text; the Job controller never reads it.
};

/// A failed pod's facts as the Job controller reads them (metadata and status).
struct FailedPod {
  std::string pod_namespace;                                ///< metadata.namespace.
  std::string name;                                         ///< metadata.name.
  std::string phase = "Failed";                             ///< status.phase.
  std::string reason;                                       ///< status.reason (Evicted, ...).
  std::string message;                                      ///< status.message.
  std::vector<PodContainerStatus> container_statuses;       ///< Sorted by name (the kubelet).
  std::vector<PodContainerStatus> init_container_statuses;  ///< In spec order, sidecars too.
  std::vector<PodStatusCondition> conditions;               ///< In the pod's order.
};

/// What matchPodFailurePolicy returns for one failed pod, plus the index of the rule that
/// matched (upstream's loop index, which its FailJob message prints).
struct PodFailurePolicyMatch {
  /// The Job's failure message when a FailJob rule matched (upstream's exact format strings).
  std::optional<std::string> job_failure_message;
  bool count_failed = true;           ///< Counts against backoffLimit (false only for Ignore).
  std::optional<std::string> action;  ///< The matched rule's action; unset: no rule matched.
  int rule_index = -1;                ///< 0-based index of the matched rule; -1: none.
};

/// The podFailurePolicy of the JobSpec `job_spec` (its `podFailurePolicy` field), or nothing when
/// the Job has none (absent or null).
std::optional<PodFailurePolicy> DecodePodFailurePolicy(const Node& job_spec);

/// matchPodFailurePolicy: the rules in order, the first that matches wins (an onExitCodes rule
/// checks containerStatuses then initContainerStatuses; exit code 0 and non-terminated
/// containers never match; an onPodConditions rule matches a condition of equal type and
/// status). A rule whose action is unknown is skipped, and so is a FailIndex rule when the
/// JobBackoffLimitPerIndex gate is off (`fail_index_enabled`, locked on since v1.33). No policy
/// (nullptr) or no matching rule: the failure counts.
PodFailurePolicyMatch MatchPodFailurePolicy(const PodFailurePolicy* policy, const FailedPod& pod,
                                            bool fail_index_enabled = true);

}  // namespace jobset
