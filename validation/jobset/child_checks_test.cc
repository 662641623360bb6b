// The child Jobs of a JobSet, checked as kube-apiserver checks them when the controller creates
// them: the example (every Go-validation problem an error at its own line, without a
// user CRD), its valid twin, once per template, and the controller's additions.
#include "validation/jobset/child_checks.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/core/loader.h"
#include "validation/jobset/lint.h"
#include "validation/k8s/rules.h"
#include "validation/lint/lint.h"

namespace jobset {
namespace {

std::vector<Finding> LintChildren(const std::string& yaml) {
  SourceFile f = ParseSource("t.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  std::vector<Finding> out;
  for (Finding& finding : LintJobSet(f.documents[0].root, {}, BuiltinJobSetSchema().get())) {
    if (finding.rule.rfind("child/", 0) == 0 || finding.rule.rfind("job-template/", 0) == 0)
      out.push_back(std::move(finding));
  }
  return out;
}

// A JobSet whose replicated job `workers` (2 replicas) has `job` under its Job template's spec
// (indented by 8) and `pod` under the pod template's spec (indented by 12).
std::string WithJob(const std::string& job, const std::string& pod = "restartPolicy: Never\n") {
  auto indent = [](const std::string& text, const std::string& by) {
    std::string out;
    for (size_t pos = 0; pos < text.size();) {
      size_t eol = text.find('\n', pos);
      out += by + text.substr(pos, eol - pos + 1);
      pos = eol + 1;
    }
    return out;
  };
  return "apiVersion: jobset.x-k8s.io/v1alpha2\n"  // 1
         "kind: JobSet\n"                          // 2
         "metadata:\n"                             // 3
         "  name: js\n"                            // 4
         "spec:\n"                                 // 5
         "  replicatedJobs:\n"                     // 6
         "  - name: workers\n"                     // 7
         "    replicas: 2\n"                       // 8
         "    template:\n"                         // 9
         "      spec:\n" +                         // 10
         indent(job, "        ") +
         "        template:\n"
         "          spec:\n" +
         indent(pod, "            ") +
         "            containers:\n"
         "            - name: main\n"
         "              image: busybox\n";
}

std::string JobSet(const std::string& pod, int replicas = 1, const std::string& extra = "") {
  return "apiVersion: jobset.x-k8s.io/v1alpha2\n"
         "kind: JobSet\n"
         "metadata:\n"
         "  name: js\n"
         "spec:\n" +
         extra +
         "  replicatedJobs:\n"
         "  - name: workers\n"
         "    replicas: " +
         std::to_string(replicas) +
         "\n"
         "    template:\n"
         "      spec:\n"
         "        template:\n"
         "          spec:\n" +
         pod;
}

// The example of the issue, without the problems the CRD schema reports (quantities, the
// unknown field, the repeated container name).
const char kExample[] =
    "            containers:\n"
    "            - name: Trainer_1\n"
    "              image: pytorch\n"
    "              imagePullPolicy: always\n"
    "              ports: [{containerPort: 70000}]\n"
    "            restartPolicy: Always\n";
const char kTwin[] =
    "            containers:\n"
    "            - name: trainer-1\n"
    "              image: pytorch\n"
    "              imagePullPolicy: Always\n"
    "              ports: [{containerPort: 7000}]\n"
    "            restartPolicy: Never\n";

TEST_CASE("jobset children: the example's problems are errors at their lines") {
  std::vector<Finding> f = LintChildren(JobSet(kExample));
  REQUIRE(f.size() == 4);
  struct Want {
    const char* rule;
    int line;
    const char* message;
  };
  const Want want[] = {
      {"child/container-name", 14,
       "child Job js-workers-0 would be rejected: spec.template.spec.containers[0].name: Invalid "
       "value: \"Trainer_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric "
       "characters or '-', and must start and end with an alphanumeric character (e.g. "
       "'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
      {"child/container-port", 17,
       "child Job js-workers-0 would be rejected: "
       "spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be "
       "between 1 and 65535, inclusive"},
      {"child/image-pull-policy", 16,
       "child Job js-workers-0 would be rejected: "
       "spec.template.spec.containers[0].imagePullPolicy: Unsupported value: \"always\": "
       "supported values: \"Always\", \"IfNotPresent\", \"Never\""},
      {"child/job-restart-policy", 18,
       "child Job js-workers-0 would be rejected: spec.template.spec.restartPolicy: Required "
       "value: valid values: \"OnFailure\", \"Never\""},
  };
  for (size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(f[i].rule == want[i].rule);
    CHECK(f[i].severity == Severity::kError);
    CHECK(f[i].mark.line == want[i].line);
    CHECK(f[i].message == want[i].message);
    CHECK(f[i].upstream == f[i].message);
  }
  CHECK(f[0].field == "spec.replicatedJobs[0].template.spec.template.spec.containers[0].name");
  CHECK(LintChildren(JobSet(kTwin)).empty());
}

TEST_CASE("jobset children: once per template, saying how many Jobs it affects") {
  std::vector<Finding> f = LintChildren(JobSet(kExample, 3));
  REQUIRE(f.size() == 4);
  CHECK(f[0].message.find("child Job js-workers-0 would be rejected: ") == 0);
  CHECK(f[0].message.ends_with(" (affects 3 child Jobs)"));
}

TEST_CASE("jobset children: what the controller and the webhook add is taken into account") {
  // The webhook defaults an empty restartPolicy to OnFailure: no child error.
  CHECK(LintChildren(JobSet("            containers: [{name: a, image: x}]\n")).empty());
  // A volumeClaimPolicies template a container mounts becomes a volume of the pod.
  const std::string vcp =
      "  volumeClaimPolicies:\n"
      "  - templates:\n"
      "    - metadata: {name: ckpt}\n"
      "      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n";
  const std::string mount =
      "            containers: [{name: a, image: x, volumeMounts: [{name: ckpt, mountPath: "
      "/c}]}]\n";
  CHECK(LintChildren(JobSet(mount, 1, vcp)).empty());
  std::vector<Finding> f = LintChildren(JobSet(mount));
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "child/volume-mount");
  // Another controller renders the Jobs of a JobSet it manages.
  CHECK(LintChildren(JobSet(kExample, 1, "  managedBy: example.com/other\n")).empty());
}

TEST_CASE("jobset children: an error about a map points at its entry, in every Job's template") {
  // kubernetes/kubernetes validation_test.go TestValidateContainers (request above limit): the
  // API server names the requests map; the finding is at the request's line.
  std::vector<Finding> f =
      LintChildren(JobSet("            containers:\n"
                          "            - name: a\n"
                          "              image: x\n"
                          "              resources:\n"
                          "                limits: {cpu: 1, nvidia.com/gpu: 2}\n"
                          "                requests: {cpu: 2, nvidia.com/gpu: 2}\n"
                          "            restartPolicy: Never\n",
                          2));
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "child/resource-limit");
  CHECK(f[0].mark.line == 18);
  // The field is the one the API server names; the position is the entry's.
  CHECK(f[0].field ==
        "spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources.requests");
  CHECK(f[0].message ==
        "child Job js-workers-0 would be rejected: "
        "spec.template.spec.containers[0].resources.requests: Invalid value: \"2\": must be less "
        "than or equal to cpu limit of 1 (affects 2 child Jobs)");
}

TEST_CASE("jobset children: podFailurePolicy, without what the job-template rules report") {
  // kubernetes/kubernetes pkg/apis/batch/validation/validation_test.go TestValidateJob: values
  // must be ordered. An unsupported action and exit code 0 with In are the job-template/*
  // rules' errors, not repeated by child/job-pod-failure-policy.
  auto with = [](const std::string& pfp) {
    std::string yaml =
        JobSet("            restartPolicy: Never\n            containers: [{name: a, image: x}]\n");
    yaml.replace(yaml.find("        template:\n"), 0, "        podFailurePolicy: " + pfp + "\n");
    return yaml;
  };
  std::vector<Finding> f = LintChildren(
      with("{rules: [{action: FailJob, onExitCodes: {operator: In, values: [42, 3]}}]}"));
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "child/job-pod-failure-policy");
  CHECK(f[0].message ==
        "child Job js-workers-0 would be rejected: "
        "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [42,3]: must be "
        "ordered");
  CHECK(LintChildren(with("{rules: [{action: FailJob, onExitCodes: {operator: In, values: [3, "
                          "42]}}]}"))
            .empty());
  for (const Finding& g : LintChildren(with("{rules: [{action: failjob, onExitCodes: {operator: "
                                            "In, values: [0]}}]}"))) {
    CHECK(g.rule.rfind("job-template/", 0) == 0);
  }
}

TEST_CASE("jobset children: the JobSet's own Indexed default makes completions required") {
  std::string yaml = JobSet("            containers: [{name: a, image: x}]\n");
  yaml.replace(yaml.find("        template:\n"), 0, "        parallelism: 4\n");
  std::vector<Finding> f = LintChildren(yaml);
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "child/job-completions");
  CHECK(f[0].message ==
        "child Job js-workers-0 would be rejected: spec.completions: Required value: when "
        "completion mode is Indexed");
}

TEST_CASE("jobset children: the Job template's per-index fields and pod failure policy") {
  // Each job-template/* rule: an error in the API server's words at the offending line.
  struct Want {
    std::string job, pod, rule, message;
    int line;
  };
  const std::string rule =
      "podFailurePolicy:\n"                                                    // 11
      "  rules:\n"                                                             // 12
      "  - action: FailJob\n"                                                  // 13
      "    onExitCodes: {containerName: main, operator: In, values: [42]}\n";  // 14
  const std::string prefix = "child Job js-workers-0 would be rejected: spec.";
  const std::string affects = " (affects 2 child Jobs)";
  const std::vector<Want> wants = {
      {"completionMode: indexed\n", "restartPolicy: Never\n", "job-template/unsupported-value",
       "completionMode: Unsupported value: \"indexed\": supported values: \"NonIndexed\", "
       "\"Indexed\"",
       11},
      {"completionMode: NonIndexed\nbackoffLimitPerIndex: 1\n", "restartPolicy: Never\n",
       "job-template/backoff-limit-per-index-not-indexed",
       "backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode", 12},
      // Reported at maxFailedIndexes, the field that needs the missing one.
      {"completions: 4\nmaxFailedIndexes: 1\n", "restartPolicy: Never\n",
       "job-template/max-failed-indexes-without-backoff-limit-per-index",
       "backoffLimitPerIndex: Required value: when maxFailedIndexes is specified", 12},
      {rule, "restartPolicy: OnFailure\n", "job-template/pod-failure-policy-restart-policy",
       "template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported "
       "when podFailurePolicy is specified",
       17},
      {"completions: 4\n" + std::string(rule).replace(rule.find("FailJob"), 7, "FailIndex"),
       "restartPolicy: Never\n", "job-template/fail-index-without-backoff-limit-per-index",
       "podFailurePolicy.rules[0].action: Invalid value: \"FailIndex\": requires the "
       "backoffLimitPerIndex to be set",
       14},
      {std::string(rule).replace(rule.find("main"), 4, "trainer"), "restartPolicy: Never\n",
       "job-template/exit-code-container",
       "podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: \"trainer\": must be "
       "one of the container or initContainer names in the pod template",
       14},
      {std::string(rule).replace(rule.find("[42]"), 4, "[0, 42]"), "restartPolicy: Never\n",
       "job-template/exit-code-zero",
       "podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the "
       "In operator",
       14},
  };
  for (const Want& w : wants) {
    CAPTURE(w.rule);
    std::vector<Finding> f = LintChildren(WithJob(w.job, w.pod));
    REQUIRE(f.size() == 1);
    CHECK(f[0].rule == w.rule);
    CHECK(f[0].severity == Severity::kError);
    CHECK(f[0].message == prefix + w.message + affects);
    CHECK(f[0].mark.line == w.line);
  }
  CHECK(LintChildren(WithJob(rule)).empty());
}

TEST_CASE("jobset children: a pod failure policy with the webhook's OnFailure default") {
  // The pod template sets no restartPolicy: the JobSet webhook makes it OnFailure, and the
  // finding sits at podFailurePolicy (where --fix looks for it) with the default in a note.
  std::vector<Finding> f = LintChildren(
      WithJob("podFailurePolicy:\n  rules:\n  - action: FailJob\n    onPodConditions: [{type: "
              "DisruptionTarget}]\n",
              ""));
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "job-template/pod-failure-policy-restart-policy");
  CHECK(f[0].field == "spec.replicatedJobs[0].template.spec.template.spec.restartPolicy");
  CHECK(f[0].mark.line == 11);
  CHECK(f[0].message.find("Invalid value: \"OnFailure\": only \"Never\"") != std::string::npos);
  CHECK(f[0].note == "the pod template sets no restartPolicy; OnFailure is its default");
  // An explicit Always is the restartPolicy error alone, not two reports of one line.
  f =
      LintChildren(WithJob("podFailurePolicy:\n  rules:\n  - action: FailJob\n    onPodConditions: "
                           "[{type: DisruptionTarget}]\n",
                           "restartPolicy: Always\n"));
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "child/job-restart-policy");
}

TEST_CASE("jobset children: through the lint driver, errors that fail the run") {
  LintOptions o;
  o.schema = BuiltinJobSetSchema();
  FileResult r = LintSource(ParseSource("t.yaml", JobSet(kExample)), o);
  int errors = 0;
  for (const Finding& f : r.findings) errors += f.severity == Severity::kError;
  CHECK(errors >= 4);
}

}  // namespace
}  // namespace jobset
