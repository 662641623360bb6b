// The probes and lifecycle handlers of a container: kubernetes/kubernetes
// pkg/apis/core/validation validateProbe (and its liveness, readiness and startup variants),
// validateHandler, validateLifecycleHandler and the actions they hold.
#pragma once

#include <string>

#include "validation/k8s/pod_check.h"

namespace jobset::pod {

/// The errors of the lifecycle hooks and probes of container `c` at `at`; an init container
/// (`init`) takes them only as a sidecar (restartPolicy Always).
void ContainerHandlers(PodCheck& pc, const Node& c, const std::string& at, bool init);

}  // namespace jobset::pod
