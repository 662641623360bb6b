#include "validation/k8s/rules.h"

namespace jobset {

std::span<const RuleInfo> ChildRules() {
  using S = Severity;
  using R = RuleSource;
  static const RuleInfo kRules[] = {
      {kChildContainersRequired.id, S::kError, R::kChild,
       "The pod template of a child object has no containers."},
      {kChildContainerName.id, S::kError, R::kChild,
       "A container name is empty, not a DNS-1123 label, or used twice."},
      {kChildImage.id, S::kError, R::kChild, "A container has no image."},
      {kChildImagePullPolicy.id, S::kError, R::kChild,
       "ImagePullPolicy is not Always, IfNotPresent or Never."},
      {kChildTerminationMessagePolicy.id, S::kError, R::kChild,
       "TerminationMessagePolicy is not File or FallbackToLogsOnError."},
      {kChildContainerPort.id, S::kError, R::kChild,
       "A containerPort or hostPort is outside 1-65535."},
      {kChildPortName.id, S::kError, R::kChild,
       "A port name is not an IANA service name, or repeats in its container."},
      {kChildPortProtocol.id, S::kError, R::kChild, "A port protocol is not TCP, UDP or SCTP."},
      {kChildEnvName.id, S::kError, R::kChild, "An environment variable name is empty or invalid."},
      {kChildVolumeName.id, S::kError, R::kChild,
       "A volume name is empty, not a DNS-1123 label, or used twice."},
      {kChildVolumeMount.id, S::kError, R::kChild,
       "A volumeMount names no volume of the pod, or repeats a mountPath."},
      {kChildProbeHandler.id, S::kError, R::kChild,
       "A probe or lifecycle hook has no handler, or more than one."},
      {kChildRestartPolicy.id, S::kError, R::kChild,
       "The pod restartPolicy is not Always, OnFailure or Never."},
      {kChildDnsPolicy.id, S::kError, R::kChild,
       "DnsPolicy is unsupported, None lacks nameservers, or dnsConfig breaks a limit."},
      {kChildToleration.id, S::kError, R::kChild,
       "A toleration's key, operator, value, effect or tolerationSeconds do not fit together."},
      {kChildJobRestartPolicy.id, S::kError, R::kChild,
       "A Job's pod template restartPolicy is not OnFailure or Never."},
      {kChildJobCompletions.id, S::kError, R::kChild,
       "An Indexed Job with parallelism but no completions."},
      {kChildJobNegativeValue.id, S::kError, R::kChild,
       "A Job count or duration (parallelism, completions, backoffLimit...) is negative."},
      {kChildJobParallelism.id, S::kError, R::kChild,
       "An Indexed Job's parallelism is above 100000."},
      {kChildResourceName.id, S::kError, R::kChild,
       "A container resource is neither a standard resource nor an extended resource name."},
      {kChildResourceQuantity.id, S::kError, R::kChild,
       "A resource quantity does not parse, is negative, or is not whole where it must be."},
      {kChildResourceLimit.id, S::kError, R::kChild,
       "A request exceeds its limit, or an extended resource or hugepages request has no equal "
       "limit."},
      {kChildProbeSettings.id, S::kError, R::kChild,
       "A probe's or hook's port, command, scheme or timing is invalid, or an init container "
       "has one."},
      {kChildNodeSelector.id, S::kError, R::kChild,
       "A nodeSelector key is not a label key, or its value not a label value."},
      {kChildNodeAffinity.id, S::kError, R::kChild,
       "A node affinity term is empty, or has a bad key, operator, values or weight."},
      {kChildPodAffinity.id, S::kError, R::kChild,
       "A pod (anti-)affinity term has no topologyKey, a bad label selector, or a bad weight."},
      {kChildSecurityContext.id, S::kError, R::kChild,
       "A user or group id is out of range, or a seccomp, procMount or fsGroupChangePolicy "
       "setting is invalid."},
      {kChildTemplateMetadata.id, S::kError, R::kChild,
       "A pod template label or annotation key (or label value) is invalid, or the annotations "
       "are too large."},
      {kChildJobPodFailurePolicy.id, S::kError, R::kChild,
       "A Job's podFailurePolicy rule lacks an action, operator, values or matcher, or has too "
       "many parts."},
      {kChildJobSuccessPolicy.id, S::kError, R::kChild,
       "A Job's successPolicy has no rules, an empty rule, or a succeededCount out of range."},
      {kChildTopologySpread.id, S::kError, R::kChild,
       "A topology spread constraint has a bad maxSkew, key, action, minDomains or selector."},
      {kJobTemplatePodFailurePolicyRestartPolicy.id, S::kError, R::kChild,
       "A pod failure policy without restartPolicy Never: the Job API refuses every child Job."},
      {kJobTemplateExitCodeContainer.id, S::kError, R::kChild,
       "onExitCodes names a container the pod template does not have."},
      {kJobTemplateExitCodeZero.id, S::kError, R::kChild,
       "onExitCodes operator In lists exit code 0, which the Job API refuses."},
      {kJobTemplateExitCodeCount.id, S::kError, R::kChild,
       "onExitCodes lists more than 255 values, which the Job API refuses."},
      {kJobTemplateFailIndexWithoutBackoffLimitPerIndex.id, S::kError, R::kChild,
       "A FailIndex pod failure policy rule without backoffLimitPerIndex."},
      {kJobTemplateBackoffLimitPerIndexNotIndexed.id, S::kError, R::kChild,
       "backoffLimitPerIndex or maxFailedIndexes on a NonIndexed Job, which the Job API refuses."},
      {kJobTemplateMaxFailedIndexesWithoutBackoffLimitPerIndex.id, S::kError, R::kChild,
       "maxFailedIndexes without backoffLimitPerIndex, which the Job API refuses."},
      {kJobTemplateUnsupportedValue.id, S::kError, R::kChild,
       "A Job template field holds a value the Job API does not support."},
  };
  return kRules;
}

}  // namespace jobset
