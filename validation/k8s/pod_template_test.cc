// Tests of the pod template subset of Kubernetes' create-time validation: the checks of
// pod_template.cc itself and the options. The checks of resources, probes, security contexts and
// scheduling are tested beside their files.
#include "validation/k8s/pod_template.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/k8s/pod_template_test_util.h"
#include "validation/k8s/rules.h"

namespace jobset {
namespace {

TEST_CASE("pod template: each check rejects what upstream rejects and accepts its twin") {
  CheckCases({
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
  });
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
