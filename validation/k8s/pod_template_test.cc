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

struct Case {
  const char* upstream;             // The Go test the case follows.
  const char* rejected;             // A pod spec (flow YAML) the API server rejects...
  std::vector<std::string> errors;  // ...with these errors.
  const char* accepted;             // Its valid twin.
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
  };
  for (const Case& c : cases) {
    INFO(c.upstream);
    std::vector<std::string> rejected = Errors(c.rejected), accepted = Errors(c.accepted);
    for (const std::string& e : rejected) INFO(e);
    CHECK_MESSAGE(rejected == c.errors, (rejected.empty() ? "" : rejected[0]));
    CHECK_MESSAGE(accepted == kNone, (accepted.empty() ? "" : accepted[0]));
  }
}

TEST_CASE("pod template: absent enum fields take their defaults and are not reported") {
  CHECK(Errors("{containers: [{name: a, image: x, ports: [{containerPort: 80}]}]}") == kNone);
  CHECK(Errors("{restartPolicy: '', dnsPolicy: '', containers: [{name: a, image: x, "
               "imagePullPolicy: ''}]}") == kNone);
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
