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
    if (finding.rule.rfind("child/", 0) == 0) out.push_back(std::move(finding));
  }
  return out;
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
  CHECK(f[0].field ==
        "spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources.requests[cpu]");
  CHECK(f[0].message ==
        "child Job js-workers-0 would be rejected: "
        "spec.template.spec.containers[0].resources.requests: Invalid value: \"2\": must be less "
        "than or equal to cpu limit of 1 (affects 2 child Jobs)");
}

TEST_CASE("jobset children: podFailurePolicy, without what the job-template rules report") {
  // kubernetes/kubernetes pkg/apis/batch/validation/validation_test.go TestValidateJob: values
  // must be ordered. An unsupported action and exit code 0 with In are the job-template/*
  // warnings, not repeated here.
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
  CHECK(LintChildren(with("{rules: [{action: failjob, onExitCodes: {operator: In, values: "
                          "[0]}}]}"))
            .empty());
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
