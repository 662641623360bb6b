// Tests of the security context checks (pod_security.h), through ValidatePodTemplateSpec.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/k8s/pod_template_test_util.h"

namespace jobset {
namespace {

TEST_CASE("pod security: each check rejects what upstream rejects and accepts its twin") {
  CheckCases({
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
  });
}

}  // namespace
}  // namespace jobset
