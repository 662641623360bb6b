// Tests of the pod template subset of Kubernetes' create-time validation. Each case follows a
// case of kubernetes/kubernetes pkg/apis/core/validation/validation_test.go (the Go test it comes
// from is named), with the API server's exact error text for the rejected template and none for
// the accepted twin.
#include "validation/k8s/pod_template.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/core/loader.h"
#include "validation/k8s/rules.h"

namespace jobset {
namespace {

Node Parse(const std::string& yaml) {
  SourceFile f = ParseSource("t.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return f.documents[0].root;
}

// The errors of a template whose spec is `spec` (flow YAML), as "[<rule>] <text>".
std::vector<std::string> Errors(const std::string& spec, PodTemplateOptions options = {}) {
  std::vector<std::string> out;
  for (const FieldError& e : ValidatePodTemplateSpec(Parse("spec: " + spec), options))
    out.push_back("[" + std::string(e.rule.id) + "] " + e.Text());
  return out;
}

const std::vector<std::string> kNone;

// IsValidLabelValue's and IsQualifiedName's format texts.
const std::string kLabelValue =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const std::string kQualifiedName =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
    "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

struct Case {
  const char* upstream;             // The Go test the case follows.
  std::string rejected;             // A pod spec (flow YAML) the API server rejects...
  std::vector<std::string> errors;  // ...with these errors.
  std::string accepted;             // Its valid twin.
};

TEST_CASE("pod template: each check rejects what upstream rejects and accepts its twin") {
  const std::vector<Case> cases = {
      {"TestValidatePodSpec (no containers)",
       "{containers: []}",
       {"[child/containers-required] spec.containers: Required value"},
       "{containers: [{name: a, image: x}]}"},
      {"TestValidateContainers (invalid name)",
       "{containers: [{name: Trainer_1, image: x}]}",
       {"[child/container-name] spec.containers[0].name: Invalid value: \"Trainer_1\": a "
        "lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
        "and must start and end with an alphanumeric character (e.g. 'my-name',  or "
        "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
       "{containers: [{name: trainer-1, image: x}]}"},
      {"TestValidateContainers (zero-length name)",
       "{containers: [{name: '', image: x}]}",
       {"[child/container-name] spec.containers[0].name: Required value"},
       "{containers: [{name: a, image: x}]}"},
      {"TestValidateContainers (name not unique)",
       "{containers: [{name: a, image: x}, {name: a, image: z}]}",
       {"[child/container-name] spec.containers[1].name: Duplicate value: \"a\""},
       "{containers: [{name: a, image: x}, {name: b, image: z}]}"},
      {"TestValidateInitContainers (duplicate name with a container)",
       "{initContainers: [{name: a, image: x}], containers: [{name: a, image: x}]}",
       {"[child/container-name] spec.initContainers[0].name: Duplicate value: \"a\""},
       "{initContainers: [{name: init, image: x}], containers: [{name: a, image: x}]}"},
      {"TestValidateContainers (zero-length image)",
       "{containers: [{name: a, image: ''}]}",
       {"[child/image] spec.containers[0].image: Required value"},
       "{containers: [{name: a, image: x}]}"},
      {"TestValidatePullPolicy",
       "{containers: [{name: a, image: x, imagePullPolicy: always}]}",
       {"[child/image-pull-policy] spec.containers[0].imagePullPolicy: Unsupported value: "
        "\"always\": supported values: \"Always\", \"IfNotPresent\", \"Never\""},
       "{containers: [{name: a, image: x, imagePullPolicy: Always}]}"},
      {"TestValidateContainers (invalid terminationMessagePolicy)",
       "{containers: [{name: a, image: x, terminationMessagePolicy: Unknown}]}",
       {"[child/termination-message-policy] spec.containers[0].terminationMessagePolicy: "
        "Unsupported value: \"Unknown\": supported values: \"File\", \"FallbackToLogsOnError\""},
       "{containers: [{name: a, image: x, terminationMessagePolicy: FallbackToLogsOnError}]}"},
      {"TestValidatePorts (invalid containerPort)",
       "{containers: [{name: a, image: x, ports: [{containerPort: 70000}]}]}",
       {"[child/container-port] spec.containers[0].ports[0].containerPort: Invalid value: 70000: "
        "must be between 1 and 65535, inclusive"},
       "{containers: [{name: a, image: x, ports: [{containerPort: 7000}]}]}"},
      {"TestValidatePorts (zero containerPort)",
       "{containers: [{name: a, image: x, ports: [{containerPort: 0}]}]}",
       {"[child/container-port] spec.containers[0].ports[0].containerPort: Required value"},
       "{containers: [{name: a, image: x, ports: [{containerPort: 1}]}]}"},
      {"TestValidatePorts (invalid hostPort)",
       "{containers: [{name: a, image: x, ports: [{containerPort: 80, hostPort: 65536}]}]}",
       {"[child/container-port] spec.containers[0].ports[0].hostPort: Invalid value: 65536: "
        "must be between 1 and 65535, inclusive"},
       "{containers: [{name: a, image: x, ports: [{containerPort: 80, hostPort: 8080}]}]}"},
      {"TestValidatePorts (name not a IANA svc name)",
       "{containers: [{name: a, image: x, ports: [{name: '8080', containerPort: 80}]}]}",
       {"[child/port-name] spec.containers[0].ports[0].name: Invalid value: \"8080\": must "
        "contain at least one letter (a-z)"},
       "{containers: [{name: a, image: x, ports: [{name: http, containerPort: 80}]}]}"},
      {"TestValidatePorts (name not unique)",
       "{containers: [{name: a, image: x, ports: [{name: p, containerPort: 80}, {name: p, "
       "containerPort: 81}]}]}",
       {"[child/port-name] spec.containers[0].ports[1].name: Duplicate value: \"p\""},
       "{containers: [{name: a, image: x, ports: [{name: p, containerPort: 80}, {name: q, "
       "containerPort: 81}]}]}"},
      {"TestValidatePorts (invalid protocol case)",
       "{containers: [{name: a, image: x, ports: [{containerPort: 80, protocol: tcp}]}]}",
       {"[child/port-protocol] spec.containers[0].ports[0].protocol: Unsupported value: \"tcp\": "
        "supported values: \"SCTP\", \"TCP\", \"UDP\""},
       "{containers: [{name: a, image: x, ports: [{containerPort: 80, protocol: UDP}]}]}"},
      {"TestValidateEnv (zero-length name)",
       "{containers: [{name: a, image: x, env: [{name: '', value: v}]}]}",
       {"[child/env-name] spec.containers[0].env[0].name: Required value"},
       "{containers: [{name: a, image: x, env: [{name: A, value: v}]}]}"},
      {"TestRelaxedValidateEnv (name with '=')",
       "{containers: [{name: a, image: x, env: [{name: 'a=b', value: v}]}]}",
       {"[child/env-name] spec.containers[0].env[0].name: Invalid value: \"a=b\": a valid "
        "environment variable name must consist only of printable ASCII characters other than "
        "'='"},
       "{containers: [{name: a, image: x, env: [{name: '1st env', value: v}]}]}"},
      {"TestValidateVolumes (name not a DNS label)",
       "{volumes: [{name: Data, emptyDir: {}}], containers: [{name: a, image: x}]}",
       {"[child/volume-name] spec.volumes[0].name: Invalid value: \"Data\": a lowercase RFC 1123 "
        "label must consist of lower case alphanumeric characters or '-', and must start and "
        "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
        "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
       "{volumes: [{name: data, emptyDir: {}}], containers: [{name: a, image: x}]}"},
      {"TestValidateVolumeMounts (name not found)",
       "{containers: [{name: a, image: x, volumeMounts: [{name: data, mountPath: /d}]}]}",
       {"[child/volume-mount] spec.containers[0].volumeMounts[0].name: Not found: \"data\""},
       "{volumes: [{name: data, emptyDir: {}}], containers: [{name: a, image: x, "
       "volumeMounts: [{name: data, mountPath: /d}]}]}"},
      {"TestValidateVolumeMounts (empty mountpath)",
       "{volumes: [{name: data, emptyDir: {}}], containers: [{name: a, image: x, "
       "volumeMounts: [{name: data, mountPath: ''}]}]}",
       {"[child/volume-mount] spec.containers[0].volumeMounts[0].mountPath: Required value"},
       "{volumes: [{name: data, emptyDir: {}}], containers: [{name: a, image: x, "
       "volumeMounts: [{name: data, mountPath: /d}]}]}"},
      {"TestValidateProbe (no handler)",
       "{containers: [{name: a, image: x, livenessProbe: {periodSeconds: 5}}]}",
       {"[child/probe-handler] spec.containers[0].livenessProbe: Required value: must specify a "
        "handler type"},
       "{containers: [{name: a, image: x, livenessProbe: {periodSeconds: 5, tcpSocket: {port: "
       "80}}}]}"},
      {"TestValidateHandler (more than one handler)",
       "{containers: [{name: a, image: x, lifecycle: {preStop: {exec: {command: [x]}, httpGet: "
       "{port: 80}}}}]}",
       {"[child/probe-handler] spec.containers[0].lifecycle.preStop.httpGet: Forbidden: may not "
        "specify more than 1 handler type"},
       "{containers: [{name: a, image: x, lifecycle: {preStop: {exec: {command: [x]}}}}]}"},
      {"TestValidateRestartPolicy",
       "{restartPolicy: never, containers: [{name: a, image: x}]}",
       {"[child/restart-policy] spec.restartPolicy: Unsupported value: \"never\": supported "
        "values: \"Always\", \"OnFailure\", \"Never\""},
       "{restartPolicy: Never, containers: [{name: a, image: x}]}"},
      {"TestValidateDNSPolicy (unsupported)",
       "{dnsPolicy: ClusterFirstWithHostnet, containers: [{name: a, image: x}]}",
       {"[child/dns-policy] spec.dnsPolicy: Unsupported value: \"ClusterFirstWithHostnet\": "
        "supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", "
        "\"None\""},
       "{dnsPolicy: ClusterFirstWithHostNet, containers: [{name: a, image: x}]}"},
      {"TestValidatePodDNSConfig (None without dnsConfig)",
       "{dnsPolicy: None, containers: [{name: a, image: x}]}",
       {"[child/dns-policy] spec.dnsConfig: Required value: must provide `dnsConfig` when "
        "`dnsPolicy` is None"},
       "{dnsPolicy: None, dnsConfig: {nameservers: [1.2.3.4]}, containers: [{name: a, image: "
       "x}]}"},
      {"TestValidatePodDNSConfig (None without nameservers)",
       "{dnsPolicy: None, dnsConfig: {searches: [example.com]}, containers: [{name: a, image: "
       "x}]}",
       {"[child/dns-policy] spec.dnsConfig.nameservers: Required value: must provide at least one "
        "DNS nameserver when `dnsPolicy` is None"},
       "{dnsPolicy: None, dnsConfig: {nameservers: ['2001:db8::ffff'], searches: [example.com]}, "
       "containers: [{name: a, image: x}]}"},
      {"TestValidatePodDNSConfig (too many nameservers, invalid nameserver)",
       "{dnsConfig: {nameservers: [1.1.1.1, 2.2.2.2, 3.3.3.3, dns.local]}, containers: [{name: a, "
       "image: x}]}",
       {"[child/dns-policy] spec.dnsConfig.nameservers: Invalid value: "
        "[\"1.1.1.1\",\"2.2.2.2\",\"3.3.3.3\",\"dns.local\"]: must not have more than 3 "
        "nameservers",
        "[child/dns-policy] spec.dnsConfig.nameservers[3]: Invalid value: \"dns.local\": must be a "
        "valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"},
       "{dnsConfig: {nameservers: [1.1.1.1, 2.2.2.2, 3.3.3.3]}, containers: [{name: a, image: "
       "x}]}"},
      {"TestValidatePodDNSConfig (option without a name)",
       "{dnsConfig: {options: [{value: '2'}]}, containers: [{name: a, image: x}]}",
       {"[child/dns-policy] spec.dnsConfig.options[0]: Required value: must not be empty"},
       "{dnsConfig: {options: [{name: ndots, value: '2'}]}, containers: [{name: a, image: x}]}"},
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
      {"TestValidateContainers (unsupported resource name)",
       "{containers: [{name: a, image: x, resources: {limits: {gpu: 1}}}]}",
       {"[child/resource-name] spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": "
        "must be a standard resource type or fully qualified",
        "[child/resource-name] spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": "
        "must be a standard resource for containers"},
       "{containers: [{name: a, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]}"},
      {"TestValidateResourceRequirements (not an extended resource name)",
       "{containers: [{name: a, image: x, resources: {limits: {requests.example.com/foo: 1}}}]}",
       {"[child/resource-name] spec.containers[0].resources.limits[requests.example.com/foo]: "
        "Invalid value: \"requests.example.com/foo\": doesn't follow extended resource name "
        "standard"},
       "{containers: [{name: a, image: x, resources: {limits: {example.com/foo: 1}}}]}"},
      {"TestValidateContainers (negative request)",
       "{containers: [{name: a, image: x, resources: {requests: {cpu: '-1'}}}]}",
       {"[child/resource-quantity] spec.containers[0].resources.requests[cpu]: Invalid value: "
        "\"-1\": must be greater than or equal to 0"},
       "{containers: [{name: a, image: x, resources: {requests: {cpu: '1'}}}]}"},
      {"TestValidateResourceRequirements (fractional extended resource)",
       "{containers: [{name: a, image: x, resources: {limits: {example.com/foo: 500m}}}]}",
       {"[child/resource-quantity] spec.containers[0].resources.limits[example.com/foo]: Invalid "
        "value: \"500m\": must be an integer"},
       "{containers: [{name: a, image: x, resources: {limits: {example.com/foo: 1}}}]}"},
      {"TestValidateResourceRequirements (hugepages not a multiple of the page size)",
       "{containers: [{name: a, image: x, resources: {limits: {hugepages-2Mi: 3Mi, memory: "
       "1Gi}}}]}",
       {"[child/resource-quantity] spec.containers[0].resources.limits[hugepages-2Mi]: Invalid "
        "value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi"},
       "{containers: [{name: a, image: x, resources: {limits: {hugepages-2Mi: 4Mi, memory: "
       "1Gi}}}]}"},
      {"TestValidateContainers (request above limit)",
       "{containers: [{name: a, image: x, resources: {limits: {cpu: 1}, requests: {cpu: 2}}}]}",
       {"[child/resource-limit] spec.containers[0].resources.requests: Invalid value: \"2\": "
        "must be less than or equal to cpu limit of 1"},
       "{containers: [{name: a, image: x, resources: {limits: {cpu: 1}, requests: {cpu: "
       "500m}}}]}"},
      {"TestValidateContainers (request above limit, canonical quantities)",
       "{containers: [{name: a, image: x, resources: {limits: {memory: 1024Mi}, requests: "
       "{memory: 1.5Gi}}}]}",
       {"[child/resource-limit] spec.containers[0].resources.requests: Invalid value: "
        "\"1536Mi\": must be less than or equal to memory limit of 1Gi"},
       "{containers: [{name: a, image: x, resources: {limits: {memory: 1024Mi}, requests: "
       "{memory: 1Gi}}}]}"},
      {"TestValidateResourceRequirements (extended request not equal to its limit)",
       "{containers: [{name: a, image: x, resources: {limits: {nvidia.com/gpu: 2}, requests: "
       "{nvidia.com/gpu: 1}}}]}",
       {"[child/resource-limit] spec.containers[0].resources.requests: Invalid value: \"1\": "
        "must be equal to nvidia.com/gpu limit of 2"},
       "{containers: [{name: a, image: x, resources: {limits: {nvidia.com/gpu: 2}, requests: "
       "{nvidia.com/gpu: 2}}}]}"},
      {"TestValidateResourceRequirements (extended request without limit)",
       "{containers: [{name: a, image: x, resources: {requests: {nvidia.com/gpu: 1}}}]}",
       {"[child/resource-limit] spec.containers[0].resources.limits: Required value: Limit must "
        "be set for non overcommitable resources"},
       "{containers: [{name: a, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]}"},
      {"TestValidateResourceRequirements (hugepages without cpu or memory)",
       "{containers: [{name: a, image: x, resources: {limits: {hugepages-2Mi: 2Mi}}}]}",
       {"[child/resource-limit] spec.containers[0].resources: Forbidden: HugePages require cpu "
        "or memory"},
       "{containers: [{name: a, image: x, resources: {limits: {hugepages-2Mi: 2Mi, cpu: 1}}}]}"},
      // Probes and lifecycle handlers (validateProbe, validateHandler and its actions).
      {"TestValidateProbe (negative initialDelaySeconds)",
       "{containers: [{name: a, image: x, livenessProbe: {tcpSocket: {port: 80}, "
       "initialDelaySeconds: -1}}]}",
       {"[child/probe-settings] spec.containers[0].livenessProbe.initialDelaySeconds: Invalid "
        "value: -1: must be greater than or equal to 0"},
       "{containers: [{name: a, image: x, livenessProbe: {tcpSocket: {port: 80}, "
       "initialDelaySeconds: 0, periodSeconds: 0}}]}"},
      {"TestValidateContainers (liveness probe successThreshold)",
       "{containers: [{name: a, image: x, livenessProbe: {tcpSocket: {port: 80}, "
       "successThreshold: 3}}]}",
       {"[child/probe-settings] spec.containers[0].livenessProbe.successThreshold: Invalid "
        "value: 3: must be 1"},
       "{containers: [{name: a, image: x, readinessProbe: {tcpSocket: {port: 80}, "
       "successThreshold: 3}}]}"},
      {"TestValidateContainers (readiness probe terminationGracePeriodSeconds)",
       "{containers: [{name: a, image: x, readinessProbe: {tcpSocket: {port: 80}, "
       "terminationGracePeriodSeconds: 10}}]}",
       {"[child/probe-settings] spec.containers[0].readinessProbe.terminationGracePeriodSeconds: "
        "Invalid value: 10: must not be set for readinessProbes"},
       "{containers: [{name: a, image: x, livenessProbe: {tcpSocket: {port: 80}, "
       "terminationGracePeriodSeconds: 10}}]}"},
      {"TestValidateHandler (invalid port number)",
       "{containers: [{name: a, image: x, readinessProbe: {httpGet: {port: 70000}}}]}",
       {"[child/probe-settings] spec.containers[0].readinessProbe.httpGet.port: Invalid value: "
        "70000: must be between 1 and 65535, inclusive"},
       "{containers: [{name: a, image: x, readinessProbe: {httpGet: {port: 7000}}}]}"},
      {"TestValidateHandler (invalid port name)",
       "{containers: [{name: a, image: x, livenessProbe: {tcpSocket: {port: '8080'}}}]}",
       {"[child/probe-settings] spec.containers[0].livenessProbe.tcpSocket.port: Invalid value: "
        "\"8080\": must contain at least one letter (a-z)"},
       "{containers: [{name: a, image: x, livenessProbe: {tcpSocket: {port: http}}}]}"},
      {"TestValidateHandler (unsupported scheme)",
       "{containers: [{name: a, image: x, livenessProbe: {httpGet: {port: 80, scheme: "
       "http}}}]}",
       {"[child/probe-settings] spec.containers[0].livenessProbe.httpGet.scheme: Unsupported "
        "value: \"http\": supported values: \"HTTP\", \"HTTPS\""},
       "{containers: [{name: a, image: x, livenessProbe: {httpGet: {port: 80, scheme: "
       "HTTPS}}}]}"},
      {"TestValidateHandler (exec without command)",
       "{containers: [{name: a, image: x, lifecycle: {postStart: {exec: {}}}}]}",
       {"[child/probe-settings] spec.containers[0].lifecycle.postStart.exec.command: Required "
        "value"},
       "{containers: [{name: a, image: x, lifecycle: {postStart: {exec: {command: [ls]}}}}]}"},
      {"TestValidateInitContainers (probe on a regular init container)",
       "{initContainers: [{name: init, image: x, readinessProbe: {tcpSocket: {port: 80}}}], "
       "containers: [{name: a, image: x}]}",
       {"[child/probe-settings] spec.initContainers[0].readinessProbe: Forbidden: may not be set "
        "for init containers without restartPolicy=Always"},
       "{initContainers: [{name: init, image: x, restartPolicy: Always, readinessProbe: "
       "{tcpSocket: {port: 80}}}], containers: [{name: a, image: x}]}"},
      {"TestValidateSleepAction (longer than the grace period)",
       "{containers: [{name: a, image: x, lifecycle: {preStop: {sleep: {seconds: 60}}}}]}",
       {"[child/probe-settings] spec.containers[0].lifecycle.preStop.sleep: Invalid value: 60: "
        "must be non-negative and less than terminationGracePeriodSeconds (30)"},
       "{terminationGracePeriodSeconds: 90, containers: [{name: a, image: x, lifecycle: "
       "{preStop: {sleep: {seconds: 60}}}}]}"},
      // Scheduling: nodeSelector (ValidateLabels), node affinity (ValidateNodeSelector,
      // ValidatePreferredSchedulingTerms), pod (anti-)affinity (validatePodAffinityTerm).
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
      {"TestValidatePodSpec (bad runAsUser)",
       "{securityContext: {runAsUser: -1}, containers: [{name: a, image: x}]}",
       {"[child/security-context] spec.securityContext.runAsUser: Invalid value: -1: must be "
        "between 0 and 2147483647, inclusive"},
       "{securityContext: {runAsUser: 0}, containers: [{name: a, image: x}]}"},
      {"TestValidatePodSpec (bad supplementalGroups large)",
       "{securityContext: {supplementalGroups: [1, 2147483648]}, containers: [{name: a, image: "
       "x}]}",
       {"[child/security-context] spec.securityContext.supplementalGroups[1]: Invalid value: "
        "2147483648: must be between 0 and 2147483647, inclusive"},
       "{securityContext: {supplementalGroups: [1, 2147483647]}, containers: [{name: a, image: "
       "x}]}"},
      {"TestValidateSecurityContext (negative runAsGroup)",
       "{containers: [{name: a, image: x, securityContext: {runAsGroup: -5}}]}",
       {"[child/security-context] spec.containers[0].securityContext.runAsGroup: Invalid value: "
        "-5: must be between 0 and 2147483647, inclusive"},
       "{containers: [{name: a, image: x, securityContext: {runAsGroup: 5}}]}"},
      {"TestValidateSecurityContext (procMount Unmasked with host users)",
       "{containers: [{name: a, image: x, securityContext: {procMount: Unmasked}}]}",
       {"[child/security-context] spec.containers[0].securityContext.procMount: Invalid value: "
        "\"Unmasked\": `hostUsers` must be false to use `Unmasked`"},
       "{hostUsers: false, containers: [{name: a, image: x, securityContext: {procMount: "
       "Unmasked}}]}"},
      {"TestValidateSeccompProfileType (unsupported type)",
       "{securityContext: {seccompProfile: {type: Default}}, containers: [{name: a, image: x}]}",
       {"[child/security-context] spec.securityContext.seccompProfile.type: Unsupported value: "
        "\"Default\": supported values: \"Localhost\", \"RuntimeDefault\", \"Unconfined\""},
       "{securityContext: {seccompProfile: {type: RuntimeDefault}}, containers: [{name: a, "
       "image: x}]}"},
      {"TestValidateSeccompProfileType (Localhost without a profile)",
       "{containers: [{name: a, image: x, securityContext: {seccompProfile: {type: "
       "Localhost}}}]}",
       {"[child/security-context] spec.containers[0].securityContext.seccompProfile."
        "localhostProfile: Required value: must be set when seccomp type is Localhost"},
       "{containers: [{name: a, image: x, securityContext: {seccompProfile: {type: Localhost, "
       "localhostProfile: p.json}}}]}"},
      {"TestValidatePodSpec (bad fsGroupChangePolicy)",
       "{securityContext: {fsGroupChangePolicy: always}, containers: [{name: a, image: x}]}",
       {"[child/security-context] spec.securityContext.fsGroupChangePolicy: Unsupported value: "
        "\"always\": supported values: \"Always\", \"OnRootMismatch\""},
       "{securityContext: {fsGroupChangePolicy: Always}, containers: [{name: a, image: x}]}"},
  };
  for (const Case& c : cases) {
    INFO(c.upstream);
    std::vector<std::string> rejected = Errors(c.rejected), accepted = Errors(c.accepted);
    std::string got;
    for (const std::string& e : rejected) got += "\n  " + e;
    CHECK_MESSAGE(rejected == c.errors, got);
    CHECK_MESSAGE(accepted == kNone, (accepted.empty() ? "" : accepted[0]));
  }
}

TEST_CASE("pod template: absent enum fields take their defaults and are not reported") {
  CHECK(Errors("{containers: [{name: a, image: x, ports: [{containerPort: 80}]}]}") == kNone);
  CHECK(Errors("{restartPolicy: '', dnsPolicy: '', containers: [{name: a, image: x, "
               "imagePullPolicy: ''}]}") == kNone);
}

TEST_CASE("pod template: the template's labels and annotations (ValidatePodTemplateSpec)") {
  // k8s.io/apimachinery pkg/apis/meta/v1/validation TestValidateLabels and pkg/api/validation
  // TestValidateAnnotations: the paths name the map (the template embeds its ObjectMeta), the
  // findings point at the entry.
  auto errors = [](const std::string& metadata) {
    std::vector<std::string> out;
    for (const FieldError& e : ValidatePodTemplateSpec(
             Parse("{metadata: " + metadata + ", spec: {containers: [{name: a, image: x}]}}"), {}))
      out.push_back("[" + std::string(e.rule.id) + "] " + e.Text() + " @" + e.Where());
    return out;
  };
  CHECK(errors("{labels: {app: 'a b'}}") ==
        std::vector<std::string>{"[child/template-metadata] labels: Invalid value: \"a b\": " +
                                 kLabelValue + " @metadata.labels[app]"});
  CHECK(errors("{labels: {'-app': a}}") ==
        std::vector<std::string>{"[child/template-metadata] labels: Invalid value: \"-app\": " +
                                 kQualifiedName + " @metadata.labels[-app]"});
  CHECK(errors("{annotations: {'Example.com/Note': x, 'a b': y}}") ==
        std::vector<std::string>{"[child/template-metadata] annotations: Invalid value: \"a b\": " +
                                 kQualifiedName + " @metadata.annotations[a b]"});
  CHECK(errors("{annotations: {big: '" + std::string(262142, 'x') + "'}}") ==
        std::vector<std::string>{"[child/template-metadata] annotations: Too long: may not be "
                                 "more than 262144 bytes @metadata.annotations"});
  CHECK(errors("{labels: {app: a-b, example.com/role: Worker_1}, annotations: {big: '" +
               std::string(262141, 'x') + "'}}") == kNone);
}

TEST_CASE("pod template: resources point at the offending entry of the map") {
  std::vector<FieldError> errs = ValidatePodTemplateSpec(
      Parse("spec: {containers: [{name: a, image: x, resources: {limits: {cpu: 1}, requests: "
            "{cpu: 2}}}]}"),
      {});
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].path == "spec.containers[0].resources.requests");
  CHECK(errs[0].Where() == "spec.containers[0].resources.requests[cpu]");
}

TEST_CASE("pod template: options") {
  SUBCASE("duplicates off: the CRD's list keys report repeats") {
    PodTemplateOptions o;
    o.duplicates = false;
    CHECK(Errors("{volumes: [{name: v, emptyDir: {}}, {name: v, emptyDir: {}}], containers: "
                 "[{name: a, image: x}, {name: a, image: x, volumeMounts: [{name: v, mountPath: "
                 "/d}, {name: v, mountPath: /d}]}]}",
                 o) == kNone);
    CHECK(Errors("{volumes: [{name: v, emptyDir: {}}, {name: v, emptyDir: {}}], containers: "
                 "[{name: a, image: x, volumeMounts: [{name: v, mountPath: /d}, {name: v, "
                 "mountPath: /d}]}]}") ==
          std::vector<std::string>{
              "[child/volume-name] spec.volumes[1].name: Duplicate value: \"v\"",
              "[child/volume-mount] spec.containers[0].volumeMounts[1].mountPath: Invalid value: "
              "\"/d\": must be unique"});
  }
  SUBCASE("legacy env names (TestValidateEnv, the gate off): a leading digit is refused") {
    PodTemplateOptions o;
    o.legacy_env_names = true;
    CHECK(Errors("{containers: [{name: a, image: x, env: [{name: 1ABC}]}]}", o) ==
          std::vector<std::string>{
              "[child/env-name] spec.containers[0].env[0].name: Invalid value: \"1ABC\": a valid "
              "environment variable name must consist of alphabetic characters, digits, '_', "
              "'-', or '.', and must not start with a digit (e.g. 'my.env-name',  or "
              "'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is "
              "'[-._a-zA-Z][-._a-zA-Z0-9]*')"});
    CHECK(Errors("{containers: [{name: a, image: x, env: [{name: ..x}]}]}", o) ==
          std::vector<std::string>{"[child/env-name] spec.containers[0].env[0].name: Invalid "
                                   "value: \"..x\": must not start with '..'"});
    CHECK(Errors("{containers: [{name: a, image: x, env: [{name: 1ABC}]}]}") == kNone);
  }
  SUBCASE("placeholders: FrameworkController fills {{...}} in before the pod exists") {
    PodTemplateOptions o;
    o.placeholders = true;
    CHECK(Errors("{containers: [{name: '{{FC_TASKROLE_NAME}}', image: x}]}", o) == kNone);
    CHECK(Errors("{containers: [{name: '{{FC_TASKROLE_NAME}}', image: x}]}").size() == 1);
  }
  SUBCASE("quantity syntax: a quantity that does not parse, where no schema checks it") {
    // k8s.io/apimachinery pkg/api/resource quantity_test.go TestQuantityParse: "4GB" and "1K"
    // are no quantities; kube-apiserver refuses the object while decoding it.
    PodTemplateOptions o;
    o.quantity_syntax = true;
    CHECK(Errors("{containers: [{name: a, image: x, resources: {limits: {memory: 4GB, cpu: 1K}}}]}",
                 o) ==
          std::vector<std::string>{
              "[child/resource-quantity] spec.containers[0].resources.limits[memory]: Invalid "
              "value: \"4GB\": quantities must match the regular expression "
              "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
              "[child/resource-quantity] spec.containers[0].resources.limits[cpu]: Invalid "
              "value: \"1K\": unable to parse quantity's suffix"});
    CHECK(Errors("{containers: [{name: a, image: x, resources: {limits: {memory: 4G, cpu: 1k}}}]}",
                 o) == kNone);
    // Off: the parent's CRD schema matches the quantity pattern.
    CHECK(Errors("{containers: [{name: a, image: x, resources: {limits: {memory: 4GB}}}]}") ==
          kNone);
  }
  SUBCASE("zero sleep off (Volcano's webhook): a zero-second sleep is refused") {
    PodTemplateOptions o;
    o.zero_sleep = false;
    const std::string spec =
        "{containers: [{name: a, image: x, lifecycle: {preStop: {sleep: {seconds: 0}}}}]}";
    CHECK(Errors(spec, o) ==
          std::vector<std::string>{
              "[child/probe-settings] spec.containers[0].lifecycle.preStop.sleep: Invalid value: "
              "0: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable "
              "AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep."});
    CHECK(Errors(spec) == kNone);
  }
  SUBCASE("added volumes: a volumeMount may name a volume the controller adds") {
    PodTemplateOptions o;
    o.added_volumes = {"ckpt"};
    CHECK(Errors("{containers: [{name: a, image: x, volumeMounts: [{name: ckpt, mountPath: "
                 "/c}]}]}",
                 o) == kNone);
  }
}

TEST_CASE("pod template: port names (IsValidPortName)") {
  CHECK(PortNameErrors("http").empty());
  CHECK(PortNameErrors("a-b").empty());
  CHECK(PortNameErrors("a--b") == std::vector<std::string>{"must not contain consecutive hyphens"});
  CHECK(PortNameErrors("-ab") == std::vector<std::string>{"must not begin or end with a hyphen"});
  CHECK(PortNameErrors("abcdefghijklmnop") ==
        std::vector<std::string>{"must be no more than 15 characters"});
  CHECK(PortNameErrors("HTTP") ==
        std::vector<std::string>{
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
            "must contain at least one letter (a-z)"});
}

}  // namespace
}  // namespace jobset
