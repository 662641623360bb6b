// A subset of Kubernetes' create-time validation of a batch/v1 Job
// (kubernetes/kubernetes pkg/apis/batch/validation/validation.go ValidateJob, validateJobSpec),
// after the API server's Job defaults (SetDefaults_Job): negative counts, the Indexed mode's
// completions and parallelism bounds, the per-index fields (backoffLimitPerIndex,
// maxFailedIndexes), the completionMode and podReplacementPolicy enums, the podFailurePolicy
// rules (validatePodFailurePolicy: actions, exit-code operators, containers, values), the pod
// template's restartPolicy, and the pod template itself (pod_template.h).
#pragma once

#include <vector>

#include "validation/core/node.h"
#include "validation/k8s/child.h"
#include "validation/k8s/pod_template.h"

namespace jobset {

/// The errors of a Job whose `spec` is `job_spec` (a JobSpec), with paths relative to the Job
/// ("spec.completions", "spec.template.spec.containers[0].name").
std::vector<FieldError> ValidateJobSpec(const Node& job_spec, const PodTemplateOptions& options);

}  // namespace jobset
