// JobSet UPDATE admission: the CRD's CEL transition rules (`self == oldSelf`, jobset-admission.md
// x-kubernetes-validations of api/jobset/v1alpha2/jobset_types.go) and the upstream validating
// webhook's ValidateUpdate (kubernetes-sigs/jobset@08dfbdfd pkg/webhooks/jobset_webhook.go), over
// the stored object and the new one.
#pragma once

#include <vector>

#include "validation/core/finding.h"
#include "validation/core/node.h"
#include "validation/jobset/feature_gates.h"
#include "validation/schema/schema.h"

namespace jobset {

/// The CEL transition rules of the JobSet CRD: spec.failurePolicy, spec.network,
/// spec.replicatedJobs[*].dependsOn (old item matched by name), spec.startupPolicy,
/// spec.successPolicy and spec.volumeClaimPolicies are immutable, each checked only when it is
/// present in both objects (so adding or removing one passes). Equality is CEL's: map keys in
/// any order, and the list-type=map `dependsOn` compared as a set keyed by name. Rendered
/// "<path>: Invalid value: \"object\": Value is immutable" ("array" for lists). Reported in the
/// CRD's property order (kube-apiserver's own order is that of a Go map, i.e. unspecified).
/// Both objects should carry the CRD defaults.
std::vector<Finding> ValidateTransitionRules(const Node& old_object, const Node& new_object);

/// The upstream webhook's ValidateUpdate (its five steps): replicatedJobs are immutable except
/// for the pod template's labels, annotations, nodeSelector, tolerations and schedulingGates
/// while the old or the new JobSet is suspended, and (gate ElasticJobSet) parallelism and
/// completions of Indexed jobs of a JobSet that is not Completed or Failed, with their own
/// checks; spec.managedBy is immutable. Both objects should carry the CRD defaults.
///
/// "Semantically equal" is approximated on the JSON: null, empty lists and empty objects equal
/// an absent field (Go's nil and empty maps and slices, and zero structs), everything else must
/// match exactly (so a zero scalar differs from an absent pointer field, as in Go, and also from
/// an absent non-pointer one, which Go would call equal). The rejected list is rendered as the
/// compact JSON of the masked new list in document order (Go marshals its typed structs).
std::vector<Finding> ValidateWebhookUpdate(const Node& old_object, const Node& new_object,
                                           const FeatureGates& gates);

/// Everything that follows the schema on UPDATE, in kube-apiserver's order: the CRD defaults
/// are applied to both objects, then the transition rules; the webhook runs only when they
/// pass (the API server does not call validating webhooks for an object it has rejected).
/// A pure function of its arguments.
std::vector<Finding> ValidateUpdate(const Node& old_object, const Node& new_object,
                                    const FeatureGates& gates);

/// Checks an UPDATE as kube-apiserver would with the upstream CRD and webhook: CRD defaults on
/// both objects (never the mutating webhook: it is CREATE-only), then the schema
/// (`schema`, when not null) and the API server's own rules on the new object together with
/// the transition rules, then — only when all of those pass — the webhook's ValidateUpdate.
/// Create-time webhook rules are not re-run. Findings are placed in `new_object`.
std::vector<Finding> LintUpdate(const Node& old_object, const Node& new_object,
                                const FeatureGates& gates, const CompiledSchema* schema);

}  // namespace jobset
