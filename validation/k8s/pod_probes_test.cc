// Tests of the probe and lifecycle handler checks (pod_probes.h), through ValidatePodTemplateSpec.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/k8s/pod_template_test_util.h"

namespace jobset {
namespace {

TEST_CASE("pod probes: each check rejects what upstream rejects and accepts its twin") {
  CheckCases({
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
  });
}

}  // namespace
}  // namespace jobset
