// Tests of the batch/v1 Job subset of Kubernetes' create-time validation. Each case follows a
// case of kubernetes/kubernetes pkg/apis/batch/validation/validation_test.go TestValidateJob
// (the case is named), with the API server's text for the rejected Job and none for its twin.
#include "validation/k8s/job.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/core/loader.h"
#include "validation/k8s/rules.h"

namespace jobset {
namespace {

// The errors of a Job spec `spec` (flow YAML, without its pod template) whose pod template's
// spec is `pod`, as "[<rule>] <text>".
std::vector<std::string> Errors(const std::string& spec, const std::string& pod =
                                                             "{restartPolicy: Never, containers: "
                                                             "[{name: a, image: x}]}") {
  std::string yaml = spec.substr(0, spec.size() - 1) + (spec.size() > 2 ? ", " : "") +
                     "template: {spec: " + pod + "}}";
  SourceFile f = ParseSource("t.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  std::vector<std::string> out;
  for (const FieldError& e : ValidateJobSpec(f.documents[0].root, {}))
    out.push_back("[" + std::string(e.rule.id) + "] " + e.Text());
  return out;
}

const std::vector<std::string> kNone;

TEST_CASE("job: each check rejects what upstream rejects and accepts its twin") {
  struct Case {
    const char* upstream;
    std::string rejected_spec, rejected_pod;
    std::vector<std::string> errors;
    std::string accepted_spec, accepted_pod;
  };
  const std::string never = "{restartPolicy: Never, containers: [{name: a, image: x}]}";
  const std::vector<Case> cases = {
      {"TestValidateJob spec.template.spec.restartPolicy:Always",
       "{}",
       "{restartPolicy: Always, containers: [{name: a, image: x}]}",
       {"[child/job-restart-policy] spec.template.spec.restartPolicy: Required value: valid "
        "values: \"OnFailure\", \"Never\""},
       "{}",
       "{restartPolicy: OnFailure, containers: [{name: a, image: x}]}"},
      {"TestValidateJob spec.template.spec.restartPolicy: Unknown",
       "{}",
       "{restartPolicy: Unknown, containers: [{name: a, image: x}]}",
       {"[child/restart-policy] spec.template.spec.restartPolicy: Unsupported value: \"Unknown\": "
        "supported values: \"Always\", \"OnFailure\", \"Never\"",
        "[child/job-restart-policy] spec.template.spec.restartPolicy: Unsupported value: "
        "\"Unknown\": supported values: \"OnFailure\", \"Never\""},
       "{}",
       never},
      {"TestValidateJob spec.completions:when completion mode is Indexed",
       "{completionMode: Indexed, parallelism: 2}",
       never,
       {"[child/job-completions] spec.completions: Required value: when completion mode is "
        "Indexed"},
       "{completionMode: Indexed, parallelism: 2, completions: 2}",
       never},
      {"TestValidateJob spec.parallelism:must be less than or equal to 100000",
       "{completionMode: Indexed, completions: 200000, parallelism: 100001}",
       never,
       {"[child/job-parallelism] spec.parallelism: Invalid value: 100001: must be less than or "
        "equal to 100000 when completion mode is Indexed"},
       "{completionMode: Indexed, completions: 200000, parallelism: 100000}",
       never},
      {"TestValidateJob spec.parallelism:must be greater than or equal to 0",
       "{parallelism: -1, backoffLimit: -1}",
       never,
       {"[child/job-negative-value] spec.parallelism: Invalid value: -1: must be greater than or "
        "equal to 0",
        "[child/job-negative-value] spec.backoffLimit: Invalid value: -1: must be greater than or "
        "equal to 0"},
       "{parallelism: 0, backoffLimit: 0}",
       never},
      {"TestValidateJob spec.podFailurePolicy.rules[0].action:Required value",
       "{podFailurePolicy: {rules: [{action: '', onPodConditions: [{type: DisruptionTarget, "
       "status: 'True'}]}]}}",
       never,
       {"[child/job-pod-failure-policy] spec.podFailurePolicy.rules[0].action: Required value: "
        "valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]"},
       "{podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget, "
       "status: 'True'}]}]}}",
       never},
      {"TestValidateJob spec.podFailurePolicy.rules[0].onExitCodes.values:must be ordered",
       "{podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [42, "
       "3]}}]}}",
       never,
       {"[child/job-pod-failure-policy] spec.podFailurePolicy.rules[0].onExitCodes.values: "
        "Invalid value: [42,3]: must be ordered"},
       "{podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [3, "
       "42]}}]}}",
       never},
      {"TestValidateJob spec.podFailurePolicy.rules[0].onExitCodes.values:at least one value is "
       "required",
       "{podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: NotIn, values: "
       "[]}}]}}",
       never,
       {"[child/job-pod-failure-policy] spec.podFailurePolicy.rules[0].onExitCodes.values: "
        "Invalid value: []: at least one value is required"},
       "{podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: NotIn, values: "
       "[0]}}]}}",
       never},
      {"TestValidateJob spec.podFailurePolicy.rules[0]:specifying one of OnExitCodes and "
       "OnPodConditions is required",
       "{podFailurePolicy: {rules: [{action: FailJob}]}}",
       never,
       {"[child/job-pod-failure-policy] spec.podFailurePolicy.rules[0]: Invalid value: "
        "specifying one of OnExitCodes and OnPodConditions is required"},
       "{podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: "
       "[1]}}]}}",
       never},
      {"TestValidateJob spec.podFailurePolicy.rules[0]:specifying both OnExitCodes and "
       "OnPodConditions is not supported",
       "{podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [1]}, "
       "onPodConditions: [{type: DisruptionTarget, status: 'True'}]}]}}",
       never,
       {"[child/job-pod-failure-policy] spec.podFailurePolicy.rules[0]: Invalid value: "
        "specifying both OnExitCodes and OnPodConditions is not supported"},
       "{podFailurePolicy: {rules: [{action: FailJob, onPodConditions: [{type: DisruptionTarget, "
       "status: 'True'}]}]}}",
       never},
      {"TestValidateJob spec.podFailurePolicy.rules[0].onPodConditions[0].status:Unsupported "
       "value",
       "{podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget, "
       "status: Maybe}, {type: Ready, status: ''}]}]}}",
       never,
       {"[child/job-pod-failure-policy] spec.podFailurePolicy.rules[0].onPodConditions[0].status: "
        "Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\""},
       "{podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget, "
       "status: Unknown}, {type: Ready}]}]}}",
       never},
      {"TestValidateJob spec.successPolicy.rules:Required value",
       "{completionMode: Indexed, completions: 4, parallelism: 4, successPolicy: {rules: []}}",
       never,
       {"[child/job-success-policy] spec.successPolicy.rules: Required value: at least one rules "
        "must be specified when the successPolicy is specified"},
       "{completionMode: Indexed, completions: 4, parallelism: 4, successPolicy: {rules: "
       "[{succeededIndexes: 0-1}]}}",
       never},
      {"TestValidateJob spec.successPolicy.rules[0]:at least one of succeededCount or "
       "succeededIndexes must be specified",
       "{completionMode: Indexed, completions: 4, parallelism: 4, successPolicy: {rules: [{}]}}",
       never,
       {"[child/job-success-policy] spec.successPolicy.rules[0]: Required value: at least one of "
        "succeededCount or succeededIndexes must be specified"},
       "{completionMode: Indexed, completions: 4, parallelism: 4, successPolicy: {rules: "
       "[{succeededCount: 1}]}}",
       never},
      {"TestValidateJob spec.successPolicy.rules[0].succeededCount:must be less than or equal to "
       "the completions",
       "{completionMode: Indexed, completions: 4, parallelism: 4, successPolicy: {rules: "
       "[{succeededCount: 5}]}}",
       never,
       {"[child/job-success-policy] spec.successPolicy.rules[0].succeededCount: Invalid value: 5: "
        "must be less than or equal to 4 (the number of specified completions)"},
       "{completionMode: Indexed, completions: 4, parallelism: 4, successPolicy: {rules: "
       "[{succeededCount: 4}]}}",
       never},
  };
  for (const Case& c : cases) {
    CAPTURE(c.upstream);
    CHECK(Errors(c.rejected_spec, c.rejected_pod) == c.errors);
    CHECK(Errors(c.accepted_spec, c.accepted_pod) == kNone);
  }
}

// The checks of the per-index fields, the enums and the pod failure policy (validateJobSpec,
// validatePodReplacementPolicy, validatePodFailurePolicyRule, ...OnExitCodes), reported under
// the job-template/* ids.
TEST_CASE("job: the per-index fields, the enums and the pod failure policy") {
  struct Case {
    const char* upstream;
    std::string rejected_spec, rejected_pod;
    std::vector<std::string> errors;
    std::string accepted_spec, accepted_pod;
  };
  const std::string never = "{restartPolicy: Never, containers: [{name: a, image: x}]}";
  auto pfp = [](const std::string& rule) { return "podFailurePolicy: {rules: [" + rule + "]}"; };
  std::string many = "[";
  for (int i = 1; i <= 256; ++i) many += (i > 1 ? ", " : "") + std::to_string(i);
  std::string most = many.substr(0, many.rfind(", ")) + "]";
  many += "]";
  const std::vector<Case> cases = {
      {"validateJobSpec: backoffLimitPerIndex requires indexed completion mode",
       "{completionMode: NonIndexed, backoffLimitPerIndex: 1, maxFailedIndexes: 1}",
       never,
       {"[job-template/backoff-limit-per-index-not-indexed] spec.backoffLimitPerIndex: Invalid "
        "value: 1: requires indexed completion mode",
        "[job-template/backoff-limit-per-index-not-indexed] spec.maxFailedIndexes: Invalid value: "
        "1: requires indexed completion mode"},
       "{completionMode: Indexed, completions: 2, backoffLimitPerIndex: 1, maxFailedIndexes: 1}",
       never},
      {"validateJobSpec: backoffLimitPerIndex when maxFailedIndexes is specified",
       "{completionMode: Indexed, completions: 2, maxFailedIndexes: 1}",
       never,
       {"[job-template/max-failed-indexes-without-backoff-limit-per-index] "
        "spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified"},
       "{completionMode: Indexed, completions: 2, maxFailedIndexes: 1, backoffLimitPerIndex: 1}",
       never},
      {"validateJobSpec: completionMode",
       "{completionMode: indexed}",
       never,
       {"[job-template/unsupported-value] spec.completionMode: Unsupported value: \"indexed\": "
        "supported values: \"NonIndexed\", \"Indexed\""},
       "{completionMode: NonIndexed}",
       never},
      {"validatePodReplacementPolicy: without a pod failure policy",
       "{podReplacementPolicy: Sometimes}",
       never,
       {"[job-template/unsupported-value] spec.podReplacementPolicy: Unsupported value: "
        "\"Sometimes\": supported values: \"Failed\", \"TerminatingOrFailed\""},
       "{podReplacementPolicy: TerminatingOrFailed}",
       never},
      {"validatePodReplacementPolicy: with a pod failure policy only Failed",
       "{podReplacementPolicy: TerminatingOrFailed, " +
           pfp("{action: FailJob, onExitCodes: {operator: In, values: [1]}}") + "}",
       never,
       {"[job-template/unsupported-value] spec.podReplacementPolicy: Unsupported value: "
        "\"TerminatingOrFailed\": supported values: \"Failed\""},
       "{podReplacementPolicy: Failed, " +
           pfp("{action: FailJob, onExitCodes: {operator: In, values: [1]}}") + "}",
       never},
      {"validateJobSpec: only Never is supported when podFailurePolicy is specified",
       "{" + pfp("{action: FailJob, onExitCodes: {operator: In, values: [1]}}") + "}",
       "{restartPolicy: OnFailure, containers: [{name: a, image: x}]}",
       {"[job-template/pod-failure-policy-restart-policy] spec.template.spec.restartPolicy: "
        "Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is "
        "specified"},
       "{" + pfp("{action: FailJob, onExitCodes: {operator: In, values: [1]}}") + "}",
       never},
      {"validateJobSpec: Always with a pod failure policy is the restartPolicy error alone",
       "{" + pfp("{action: FailJob, onExitCodes: {operator: In, values: [1]}}") + "}",
       "{restartPolicy: Always, containers: [{name: a, image: x}]}",
       {"[child/job-restart-policy] spec.template.spec.restartPolicy: Required value: valid "
        "values: \"OnFailure\", \"Never\""},
       "{" + pfp("{action: FailJob, onExitCodes: {operator: In, values: [1]}}") + "}",
       never},
      {"validatePodFailurePolicyRule: an unsupported action",
       "{" + pfp("{action: Retry, onExitCodes: {operator: In, values: [1]}}") + "}",
       never,
       {"[job-template/unsupported-value] spec.podFailurePolicy.rules[0].action: Unsupported "
        "value: \"Retry\": supported values: \"Count\", \"FailIndex\", \"FailJob\", "
        "\"Ignore\""},
       "{" + pfp("{action: Count, onExitCodes: {operator: In, values: [1]}}") + "}",
       never},
      {"validatePodFailurePolicyRule: FailIndex requires the backoffLimitPerIndex",
       "{completionMode: Indexed, completions: 2, " +
           pfp("{action: FailIndex, onExitCodes: {operator: In, values: [1]}}") + "}",
       never,
       {"[job-template/fail-index-without-backoff-limit-per-index] "
        "spec.podFailurePolicy.rules[0].action: Invalid value: \"FailIndex\": requires the "
        "backoffLimitPerIndex to be set"},
       "{completionMode: Indexed, completions: 2, backoffLimitPerIndex: 1, " +
           pfp("{action: FailIndex, onExitCodes: {operator: In, values: [1]}}") + "}",
       never},
      {"validatePodFailurePolicyRuleOnExitCodes: an unsupported operator",
       "{" + pfp("{action: FailJob, onExitCodes: {operator: Equals, values: [1]}}") + "}",
       never,
       {"[job-template/unsupported-value] spec.podFailurePolicy.rules[0].onExitCodes.operator: "
        "Unsupported value: \"Equals\": supported values: \"In\", \"NotIn\""},
       "{" + pfp("{action: FailJob, onExitCodes: {operator: NotIn, values: [1]}}") + "}",
       never},
      {"validatePodFailurePolicyRuleOnExitCodes: a container the pod does not have",
       "{" + pfp("{action: FailJob, onExitCodes: {containerName: b, operator: In, values: [1]}}") +
           "}",
       never,
       {"[job-template/exit-code-container] "
        "spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: \"b\": must "
        "be one of the container or initContainer names in the pod template"},
       "{" + pfp("{action: FailJob, onExitCodes: {containerName: i, operator: In, values: [1]}}") +
           "}",
       "{restartPolicy: Never, initContainers: [{name: i, image: x}], containers: [{name: a, "
       "image: x}]}"},
      {"validatePodFailurePolicyRuleOnExitCodes: 0 with the In operator",
       "{" + pfp("{action: FailJob, onExitCodes: {operator: In, values: [0, 1]}}") + "}",
       never,
       {"[job-template/exit-code-zero] spec.podFailurePolicy.rules[0].onExitCodes.values[0]: "
        "Invalid value: 0: must not be 0 for the In operator"},
       "{" + pfp("{action: FailJob, onExitCodes: {operator: NotIn, values: [0, 1]}}") + "}",
       never},
      {"validatePodFailurePolicyRuleOnExitCodes: at most 255 values",
       "{" + pfp("{action: FailJob, onExitCodes: {operator: In, values: " + many + "}}") + "}",
       never,
       {"[job-template/exit-code-count] spec.podFailurePolicy.rules[0].onExitCodes.values: Too "
        "many: 256: must have at most 255 items"},
       "{" + pfp("{action: FailJob, onExitCodes: {operator: In, values: " + most + "}}") + "}",
       never},
  };
  for (const Case& c : cases) {
    CAPTURE(c.upstream);
    CHECK(Errors(c.rejected_spec, c.rejected_pod) == c.errors);
    CHECK(Errors(c.accepted_spec, c.accepted_pod) == kNone);
  }
}

TEST_CASE("job: the pod template's errors are reported under spec.template") {
  CHECK(
      Errors("{}", "{restartPolicy: Never, containers: [{name: A, image: x}]}")
          .at(0)
          .rfind(
              "[child/container-name] spec.template.spec.containers[0].name: Invalid value: \"A\"",
              0) == 0);
}

}  // namespace
}  // namespace jobset
