// Tests of the scheduling checks (pod_scheduling.h), through ValidatePodTemplateSpec.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/k8s/pod_template_test_util.h"

namespace jobset {
namespace {

TEST_CASE("pod scheduling: each check rejects what upstream rejects and accepts its twin") {
  CheckCases({
      {"TestValidateTolerations (empty key with Equal)",
       "{tolerations: [{operator: Equal, value: bar}], containers: [{name: a, image: x}]}",
       {"[child/toleration] spec.tolerations[0].operator: Invalid value: \"Equal\": operator must "
        "be Exists when `key` is empty, which means \"match all values and all keys\""},
       "{tolerations: [{operator: Exists}], containers: [{name: a, image: x}]}"},
      {"TestValidateTolerations (tolerationSeconds without NoExecute)",
       "{tolerations: [{key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 20}], "
       "containers: [{name: a, image: x}]}",
       {"[child/toleration] spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect "
        "must be 'NoExecute' when `tolerationSeconds` is set"},
       "{tolerations: [{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 20}], "
       "containers: [{name: a, image: x}]}"},
      {"TestValidateTolerations (value with Exists)",
       "{tolerations: [{key: k, operator: Exists, value: v}], containers: [{name: a, image: x}]}",
       {"[child/toleration] spec.tolerations[0].operator: Invalid value: "
        "{\"key\":\"k\",\"operator\":\"Exists\",\"value\":\"v\"}: value must be empty when "
        "`operator` is 'Exists'"},
       "{tolerations: [{key: k, operator: Equal, value: v}], containers: [{name: a, image: x}]}"},
      {"TestValidateTolerations (unsupported operator and effect)",
       "{tolerations: [{key: k, operator: equal, effect: noSchedule}], containers: [{name: a, "
       "image: x}]}",
       {"[child/toleration] spec.tolerations[0].operator: Unsupported value: \"equal\": supported "
        "values: \"Equal\", \"Exists\"",
        "[child/toleration] spec.tolerations[0].effect: Unsupported value: \"noSchedule\": "
        "supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""},
       "{tolerations: [{key: k, operator: Equal, effect: NoSchedule}], containers: [{name: a, "
       "image: x}]}"},
      // Resources (validateContainerResourceName, ValidateResourceQuantityValue,
      // validateResourceRequirements).
      {"TestValidatePodSpec (bad nodeSelector value)",
       "{nodeSelector: {disk: 'ssd fast'}, containers: [{name: a, image: x}]}",
       {"[child/node-selector] spec.nodeSelector: Invalid value: \"ssd fast\": " + kLabelValue},
       "{nodeSelector: {disk: ssd-fast}, containers: [{name: a, image: x}]}"},
      {"TestValidatePod (no nodeSelectorTerms)",
       "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
       "{nodeSelectorTerms: []}}}, containers: [{name: a, image: x}]}",
       {"[child/node-affinity] spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuring"
        "Execution.nodeSelectorTerms: Required value: must have at least one node selector term"},
       "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
       "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]}}}, "
       "containers: [{name: a, image: x}]}"},
      {"TestValidatePod (invalid node selector operator)",
       "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
       "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: in, values: [a]}]}]}}}, "
       "containers: [{name: a, image: x}]}",
       {"[child/node-affinity] spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuring"
        "Execution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: \"in\": not "
        "a valid selector operator"},
       "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
       "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: Exists}]}]}}}, "
       "containers: [{name: a, image: x}]}"},
      {"TestValidatePod (In without values)",
       "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
       "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: NotIn}]}]}}}, "
       "containers: [{name: a, image: x}]}",
       {"[child/node-affinity] spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuring"
        "Execution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be "
        "specified when `operator` is 'In' or 'NotIn'"},
       "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
       "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: NotIn, values: [a]}]}]}}}, "
       "containers: [{name: a, image: x}]}"},
      {"TestValidatePod (preferred scheduling term weight)",
       "{affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: "
       "200, preference: {matchExpressions: [{key: zone, operator: Exists}]}}]}}, containers: "
       "[{name: a, image: x}]}",
       {"[child/node-affinity] spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuring"
        "Execution[0].weight: Invalid value: 200: must be in the range 1-100"},
       "{affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: "
       "100, preference: {matchExpressions: [{key: zone, operator: Exists}]}}]}}, containers: "
       "[{name: a, image: x}]}"},
      {"TestValidatePod (empty topologyKey in pod anti-affinity)",
       "{affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
       "[{labelSelector: {matchLabels: {app: w}}, topologyKey: ''}]}}, containers: [{name: a, "
       "image: x}]}",
       {"[child/pod-affinity] spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuring"
        "Execution[0].topologyKey: Required value: can not be empty",
        "[child/pod-affinity] spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuring"
        "Execution[0].topologyKey: Invalid value: \"\": name part must be non-empty",
        "[child/pod-affinity] spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuring"
        "Execution[0].topologyKey: Invalid value: \"\": " +
            kQualifiedName},
       "{affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
       "[{labelSelector: {matchLabels: {app: w}}, topologyKey: kubernetes.io/hostname}]}}, "
       "containers: [{name: a, image: x}]}"},
      {"TestValidatePod (invalid label selector operator in pod affinity)",
       "{affinity: {podAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 10, "
       "podAffinityTerm: {labelSelector: {matchExpressions: [{key: app, operator: Exists, "
       "values: [w]}]}, topologyKey: zone}}]}}, containers: [{name: a, image: x}]}",
       {"[child/pod-affinity] spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuring"
        "Execution[0].podAffinityTerm.labelSelector.matchExpressions[0].values: Forbidden: may "
        "not be specified when `operator` is 'Exists' or 'DoesNotExist'"},
       "{affinity: {podAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 10, "
       "podAffinityTerm: {labelSelector: {matchExpressions: [{key: app, operator: In, "
       "values: [w]}]}, topologyKey: zone}}]}}, containers: [{name: a, image: x}]}"},
      {"TestValidateTopologySpreadConstraints (maxSkew and whenUnsatisfiable)",
       "{topologySpreadConstraints: [{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: "
       "donotschedule}], containers: [{name: a, image: x}]}",
       {"[child/topology-spread] spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: "
        "must be greater than zero",
        "[child/topology-spread] spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported "
        "value: \"donotschedule\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\""},
       "{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
       "DoNotSchedule}], containers: [{name: a, image: x}]}"},
      {"TestValidateTopologySpreadConstraints (minDomains with ScheduleAnyway)",
       "{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
       "ScheduleAnyway, minDomains: 3}], containers: [{name: a, image: x}]}",
       {"[child/topology-spread] spec.topologySpreadConstraints[0].minDomains: Invalid value: 3: "
        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"},
       "{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
       "DoNotSchedule, minDomains: 3}], containers: [{name: a, image: x}]}"},
      {"TestValidateTopologySpreadConstraints (repeated constraint)",
       "{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
       "DoNotSchedule}, {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}], "
       "containers: [{name: a, image: x}]}",
       {"[child/topology-spread] spec.topologySpreadConstraints[0].{topologyKey, "
        "whenUnsatisfiable}: Duplicate value: \"{zone, DoNotSchedule}\""},
       "{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
       "DoNotSchedule}, {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}], "
       "containers: [{name: a, image: x}]}"},
      // Security contexts (validatePodSpecSecurityContext, ValidateSecurityContext).
  });
}

}  // namespace
}  // namespace jobset
