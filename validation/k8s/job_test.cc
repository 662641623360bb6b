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
