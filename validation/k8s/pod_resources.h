// The resources of a container: kubernetes/kubernetes pkg/apis/core/validation
// ValidateContainerResourceRequirements (validateResourceRequirements with
// validateContainerResourceName and the quantity checks).
#pragma once

#include <string>

#include "validation/k8s/pod_check.h"

namespace jobset::pod {

/// The errors of `resources` of container `c` at `at`: names, quantities, requests against
/// limits, huge pages. Map entries are checked in document order (upstream walks Go maps, in
/// random order).
void ContainerResources(PodCheck& pc, const Node& c, const std::string& at);

}  // namespace jobset::pod
