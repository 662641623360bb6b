// A subset of Kubernetes' create-time validation of a pod template
// (kubernetes/kubernetes pkg/apis/core/validation/validation.go ValidatePodTemplateSpec and
// ValidatePodSpec): the checks users commonly hit, with the API server's own texts. The
// template is read as the API server sees it after defaulting: an absent or empty enum field
// (restartPolicy, dnsPolicy, imagePullPolicy, protocol, ...) and a zero probe period, timeout
// or threshold take their valid defaults and are not reported.
#pragma once

#include <string>
#include <vector>

#include "validation/core/node.h"
#include "validation/k8s/child.h"

namespace jobset {

/// What differs between the callers of ValidatePodTemplateSpec.
struct PodTemplateOptions {
  /// Report container names, volume names and volumeMount paths that repeat. Off where the
  /// parent's CRD schema already rejects them as duplicate keys of a list map (the JobSet CRD).
  bool duplicates = true;
  /// The legacy environment variable name rule (IsEnvVarName: `[-._a-zA-Z][-._a-zA-Z0-9]*`)
  /// instead of the relaxed one kube-apiserver applies since 1.32 (printable ASCII but '=').
  /// Volcano's webhook validates with the feature gate off.
  bool legacy_env_names = false;
  /// Values holding a "{{" placeholder are replaced before the child is created
  /// (FrameworkController's {{FC_TASK_INDEX}} ...): skip them.
  bool placeholders = false;
  /// Report resource quantities that do not parse. kube-apiserver refuses them while decoding the
  /// object (400, before validation); off where the parent's CRD schema already matches every
  /// quantity against the Kubernetes quantity pattern (JobSet, Volcano).
  bool quantity_syntax = false;
  /// Allow `lifecycle.*.sleep.seconds: 0` (the PodLifecycleSleepActionAllowZero feature gate,
  /// on in kube-apiserver). Volcano's webhook validates with it off.
  bool zero_sleep = true;
  /// Volume names the controller adds to the pod (a JobSet's volumeClaimPolicies templates
  /// that some container mounts), which volumeMounts may name.
  std::vector<std::string> added_volumes;
};

/// The errors of the pod template `tmpl` (a PodTemplateSpec: `metadata`, `spec`), with paths
/// relative to it ("spec.containers[0].name"). Values of the wrong type are skipped (the
/// schema reports them).
std::vector<FieldError> ValidatePodTemplateSpec(const Node& tmpl,
                                                const PodTemplateOptions& options);

/// Errors of apimachinery's IsValidPortName (an IANA service name: at most 15 characters of
/// [-a-z0-9], at least one letter, no "--", no hyphen at either end).
std::vector<std::string> PortNameErrors(std::string_view name);

}  // namespace jobset
