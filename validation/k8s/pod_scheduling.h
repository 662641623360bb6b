// Where a pod may run: kubernetes/kubernetes pkg/apis/core/validation's checks of the node
// selector, affinity (validateAffinity), topology spread constraints
// (validateTopologySpreadConstraints) and tolerations (ValidateTolerations), with metav1's
// ValidateLabelSelector.
#pragma once

#include "validation/k8s/pod_check.h"

namespace jobset::pod {

/// ValidateLabels on spec.nodeSelector of pod spec `spec`: errors name the map, and point at
/// the entry.
void NodeSelector(PodCheck& pc, const Node& spec);

/// validateAffinity on `affinity` (spec.affinity): node affinity, pod affinity, pod
/// anti-affinity.
void Affinity(PodCheck& pc, const Node& affinity);

/// validateTopologySpreadConstraints on pod spec `spec` (without matchLabelKeys, whose rules
/// depend on feature gates).
void TopologySpread(PodCheck& pc, const Node& spec);

/// ValidateTolerations on spec.tolerations of pod spec `spec`.
void Tolerations(PodCheck& pc, const Node& spec);

}  // namespace jobset::pod
