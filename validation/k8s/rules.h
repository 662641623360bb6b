// The rules of the child objects: what kube-apiserver rejects when a controller creates the
// batch/v1 Job or the core/v1 Pod it renders from a parent object (a JobSet's replicated job, a
// Framework's task role). Kubernetes' own create-time validation (kubernetes/kubernetes
// pkg/apis/core/validation ValidatePodTemplateSpec, pkg/apis/batch/validation ValidateJob),
// which the parent's admission does not run: the parent is accepted and every child refused.
//
// Each id is a constant its checks report under, with one row here, assembled into the registry
// by validation/lint/rule_registry.h. docs/rules/<id>.md documents each rule.
#pragma once

#include <span>

#include "validation/core/rule_registry.h"

namespace jobset {

inline constexpr RuleId kChildContainersRequired{"child/containers-required"};
inline constexpr RuleId kChildContainerName{"child/container-name"};
inline constexpr RuleId kChildImage{"child/image"};
inline constexpr RuleId kChildImagePullPolicy{"child/image-pull-policy"};
inline constexpr RuleId kChildTerminationMessagePolicy{"child/termination-message-policy"};
inline constexpr RuleId kChildContainerPort{"child/container-port"};
inline constexpr RuleId kChildPortName{"child/port-name"};
inline constexpr RuleId kChildPortProtocol{"child/port-protocol"};
inline constexpr RuleId kChildEnvName{"child/env-name"};
inline constexpr RuleId kChildVolumeName{"child/volume-name"};
inline constexpr RuleId kChildVolumeMount{"child/volume-mount"};
inline constexpr RuleId kChildProbeHandler{"child/probe-handler"};
inline constexpr RuleId kChildRestartPolicy{"child/restart-policy"};
inline constexpr RuleId kChildDnsPolicy{"child/dns-policy"};
inline constexpr RuleId kChildToleration{"child/toleration"};
inline constexpr RuleId kChildJobRestartPolicy{"child/job-restart-policy"};
inline constexpr RuleId kChildJobCompletions{"child/job-completions"};
inline constexpr RuleId kChildJobNegativeValue{"child/job-negative-value"};
inline constexpr RuleId kChildJobParallelism{"child/job-parallelism"};
inline constexpr RuleId kChildResourceName{"child/resource-name"};
inline constexpr RuleId kChildResourceQuantity{"child/resource-quantity"};
inline constexpr RuleId kChildResourceLimit{"child/resource-limit"};
inline constexpr RuleId kChildProbeSettings{"child/probe-settings"};
inline constexpr RuleId kChildNodeSelector{"child/node-selector"};
inline constexpr RuleId kChildNodeAffinity{"child/node-affinity"};
inline constexpr RuleId kChildPodAffinity{"child/pod-affinity"};
inline constexpr RuleId kChildSecurityContext{"child/security-context"};
inline constexpr RuleId kChildTemplateMetadata{"child/template-metadata"};
inline constexpr RuleId kChildJobPodFailurePolicy{"child/job-pod-failure-policy"};
inline constexpr RuleId kChildJobSuccessPolicy{"child/job-success-policy"};
inline constexpr RuleId kChildTopologySpread{"child/topology-spread"};
// The podFailurePolicy and per-index fields of a Job template (ValidateJob's validateJobSpec,
// validatePodFailurePolicy, validatePodReplacementPolicy). Their ids keep the group JobSet users
// configure them by.
inline constexpr RuleId kJobTemplatePodFailurePolicyRestartPolicy{
    "job-template/pod-failure-policy-restart-policy"};
inline constexpr RuleId kJobTemplateExitCodeContainer{"job-template/exit-code-container"};
inline constexpr RuleId kJobTemplateExitCodeZero{"job-template/exit-code-zero"};
inline constexpr RuleId kJobTemplateExitCodeCount{"job-template/exit-code-count"};
inline constexpr RuleId kJobTemplateFailIndexWithoutBackoffLimitPerIndex{
    "job-template/fail-index-without-backoff-limit-per-index"};
inline constexpr RuleId kJobTemplateBackoffLimitPerIndexNotIndexed{
    "job-template/backoff-limit-per-index-not-indexed"};
inline constexpr RuleId kJobTemplateMaxFailedIndexesWithoutBackoffLimitPerIndex{
    "job-template/max-failed-indexes-without-backoff-limit-per-index"};
inline constexpr RuleId kJobTemplateUnsupportedValue{"job-template/unsupported-value"};

/// The registry rows of the rules above, in the order `lint --list-rules` prints them.
std::span<const RuleInfo> ChildRules();

}  // namespace jobset
