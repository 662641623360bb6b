// The security contexts of a pod and its containers: kubernetes/kubernetes
// pkg/apis/core/validation ValidateSecurityContext and validatePodSpecSecurityContext.
#pragma once

#include <string>

#include "validation/k8s/pod_check.h"

namespace jobset::pod {

/// ValidateSecurityContext: the ids, procMount and seccompProfile of container `c` at `at`.
void ContainerSecurityContext(PodCheck& pc, const Node& c, const std::string& at);

/// validatePodSpecSecurityContext on pod spec `spec`: ids, shareProcessNamespace with hostPID,
/// fsGroupChangePolicy, seccompProfile.
void PodSecurityContext(PodCheck& pc, const Node& spec);

}  // namespace jobset::pod
