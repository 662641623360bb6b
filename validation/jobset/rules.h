// The rules of the JobSet kind (jobset.x-k8s.io): the CRD's CEL rules, the upstream validating
// webhook (CREATE and UPDATE) and our own analysis.
//
// Each id is a constant its checks report under (FindingSink takes a RuleId, not a string),
// and each has one row here, assembled into the registry by validation/lint/rule_registry.h.
// docs/rules/<id>.md documents each rule.
#pragma once

#include <span>

#include "validation/core/rule_registry.h"

namespace jobset {

inline constexpr RuleId kJobSetStartupPolicyDependsOn{"jobset/startup-policy-depends-on"};
inline constexpr RuleId kVolumeClaimPolicyNamespace{"volume-claim-policy/namespace"};
inline constexpr RuleId kFailurePolicyInPlaceRestartGate{"failure-policy/in-place-restart-gate"};
inline constexpr RuleId kDependsOnFirstReplicatedJob{"depends-on/first-replicated-job"};
inline constexpr RuleId kNetworkSubdomain{"network/subdomain"};
inline constexpr RuleId kManagedByFormat{"managed-by/format"};
inline constexpr RuleId kReplicatedJobReplicasParallelismOverflow{
    "replicated-job/replicas-parallelism-overflow"};
inline constexpr RuleId kReplicatedJobGroupName{"replicated-job/group-name"};
inline constexpr RuleId kReplicatedJobJobName{"replicated-job/job-name"};
inline constexpr RuleId kReplicatedJobPodName{"replicated-job/pod-name"};
inline constexpr RuleId kDependsOnUnknownReplicatedJob{"depends-on/unknown-replicated-job"};
inline constexpr RuleId kInPlaceRestartBackoffLimit{"in-place-restart/backoff-limit"};
inline constexpr RuleId kInPlaceRestartPodReplacementPolicy{
    "in-place-restart/pod-replacement-policy"};
inline constexpr RuleId kInPlaceRestartCompletionsParallelism{
    "in-place-restart/completions-parallelism"};
inline constexpr RuleId kSuccessPolicyUnknownTarget{"success-policy/unknown-target"};
inline constexpr RuleId kFailurePolicyRestartJobGate{"failure-policy/restart-job-gate"};
inline constexpr RuleId kFailurePolicyRestartJobReplicas{"failure-policy/restart-job-replicas"};
inline constexpr RuleId kFailurePolicyRuleName{"failure-policy/rule-name"};
inline constexpr RuleId kFailurePolicyUnknownTarget{"failure-policy/unknown-target"};
inline constexpr RuleId kFailurePolicyUnknownReason{"failure-policy/unknown-reason"};
inline constexpr RuleId kFailurePolicyDuplicateRuleName{"failure-policy/duplicate-rule-name"};
inline constexpr RuleId kCoordinatorUnknownReplicatedJob{"coordinator/unknown-replicated-job"};
inline constexpr RuleId kCoordinatorJobIndex{"coordinator/job-index"};
inline constexpr RuleId kCoordinatorNotIndexed{"coordinator/not-indexed"};
inline constexpr RuleId kCoordinatorPodIndex{"coordinator/pod-index"};
inline constexpr RuleId kCoordinatorLabelValue{"coordinator/label-value"};
inline constexpr RuleId kVolumeClaimPolicyDuplicateName{"volume-claim-policy/duplicate-name"};
inline constexpr RuleId kVolumeClaimPolicyName{"volume-claim-policy/name"};
inline constexpr RuleId kVolumeClaimPolicyNameTooLong{"volume-claim-policy/name-too-long"};
inline constexpr RuleId kVolumeClaimPolicyVolumeConflict{"volume-claim-policy/volume-conflict"};
inline constexpr RuleId kVolumeClaimPolicyNoVolumeMount{"volume-claim-policy/no-volume-mount"};
inline constexpr RuleId kUpdateImmutable{"update/immutable"};
inline constexpr RuleId kUpdateReplicatedJobsImmutable{"update/replicated-jobs-immutable"};
inline constexpr RuleId kUpdateManagedByImmutable{"update/managed-by-immutable"};
inline constexpr RuleId kUpdateElasticTerminal{"update/elastic-terminal"};
inline constexpr RuleId kUpdateElasticParallelism{"update/elastic-parallelism"};
inline constexpr RuleId kUpdateElasticCompletions{"update/elastic-completions"};
inline constexpr RuleId kFailurePolicyInvalidPattern{"failure-policy/invalid-pattern"};
inline constexpr RuleId kFailurePolicyUnreachableReason{"failure-policy/unreachable-reason"};
inline constexpr RuleId kFailurePolicyShadowedRule{"failure-policy/shadowed-rule"};
inline constexpr RuleId kFailurePolicyNegativeMaxRestarts{"failure-policy/negative-max-restarts"};
inline constexpr RuleId kFailurePolicyUnboundedRestarts{"failure-policy/unbounded-restarts"};
inline constexpr RuleId kFailurePolicyMaxRestartsUnused{"failure-policy/max-restarts-unused"};
inline constexpr RuleId kDependsOnSelf{"depends-on/self"};
inline constexpr RuleId kDependsOnNeverStarts{"depends-on/never-starts"};
inline constexpr RuleId kSuccessPolicyNeverMet{"success-policy/never-met"};
inline constexpr RuleId kSuccessPolicyPremature{"success-policy/premature"};
inline constexpr RuleId kFailurePolicyRestartWithoutBudget{"failure-policy/restart-without-budget"};
inline constexpr RuleId kJobSetUnknownAnnotation{"jobset/unknown-annotation"};

/// The registry rows of the rules above, in the order `lint --list-rules` prints them.
std::span<const RuleInfo> JobSetRules();

}  // namespace jobset
