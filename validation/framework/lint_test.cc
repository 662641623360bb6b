#include "validation/framework/lint.h"

#include <doctest/doctest.h>

#include "tests/corpus.h"
#include "validation/core/loader.h"
#include "validation/framework/types.h"
#include "validation/lint/lint.h"
#include "validation/lint/rule_registry.h"
#include "validation/schema/schema.h"

namespace jobset {
namespace {

// A clean TensorFlow-like Framework; `patch` lines replace the line with the same key prefix.
const char kClean[] =
    "apiVersion: frameworkcontroller.microsoft.com/v1\n"
    "kind: Framework\n"
    "metadata:\n"
    "  name: tf\n"
    "spec:\n"
    "  executionType: Start\n"
    "  retryPolicy:\n"
    "    fancyRetryPolicy: false\n"
    "    maxRetryCount: 2\n"
    "  taskRoles:\n"
    "  - name: ps\n"
    "    taskNumber: 2\n"
    "    frameworkAttemptCompletionPolicy:\n"
    "      minFailedTaskCount: 1\n"
    "      minSucceededTaskCount: -1\n"
    "    task:\n"
    "      retryPolicy: {fancyRetryPolicy: false, maxRetryCount: 0}\n"
    "      podGracefulDeletionTimeoutSec: 600\n"
    "      pod: {spec: {restartPolicy: Never, containers: [{name: tf, image: tf}]}}\n"
    "  - name: worker\n"
    "    taskNumber: 4\n"
    "    frameworkAttemptCompletionPolicy:\n"
    "      minFailedTaskCount: 1\n"
    "      minSucceededTaskCount: 4\n"
    "    task:\n"
    "      retryPolicy: {fancyRetryPolicy: false, maxRetryCount: 0}\n"
    "      pod: {spec: {restartPolicy: Never, containers: [{name: tf, image: tf}]}}\n";

// kClean with each "from" text replaced by its "to".
std::string Patched(std::vector<std::pair<std::string, std::string>> edits) {
  std::string s = kClean;
  for (const auto& [from, to] : edits) {
    size_t at = s.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    s.replace(at, from.size(), to);
  }
  return s;
}

std::vector<Finding> Lint(const std::string& yaml) {
  SourceFile f = ParseSource("fw.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return LintFramework(f.documents[0].root);
}

// "rule severity field: message" per finding.
std::vector<std::string> Rules(const std::vector<Finding>& fs) {
  std::vector<std::string> out;
  for (const Finding& f : fs)
    out.push_back(f.rule + " " + SeverityName(f.severity) + " " + f.field);
  return out;
}

const Finding* Only(const std::vector<Finding>& fs, const std::string& rule) {
  const Finding* found = nullptr;
  for (const Finding& f : fs) {
    if (f.rule != rule) continue;
    CHECK_MESSAGE(found == nullptr, "two findings of " << rule);
    found = &f;
  }
  REQUIRE_MESSAGE(found, rule << " not found");
  return found;
}

}  // namespace

TEST_CASE("framework lint: a clean Framework has no finding") {
  CHECK(Rules(Lint(kClean)).empty());
}

TEST_CASE("framework lint: names with '-' are rejected by the CRD pattern") {
  auto fs =
      Lint(Patched({{"name: tf\n", "name: tf-job\n"}, {"- name: worker", "- name: tf-worker"}}));
  CHECK(Rules(fs) ==
        std::vector<std::string>{"framework/name error metadata.name",
                                 "framework/task-role-name error spec.taskRoles[1].name"});
  CHECK(fs[0].message ==
        "metadata.name: Invalid value: \"tf-job\": metadata.name in body should match "
        "'^[a-z0-9]{1,63}$'");
  CHECK(fs[0].mark.line == 4);
  CHECK(fs[1].mark.line == 20);
  CHECK(fs[0].upstream == fs[0].message);

  auto generated = Lint(Patched({{"name: tf\n", "generateName: tf-\n"}}));
  // The API server names metadata.name (the generated name); the position is generateName.
  CHECK(Only(generated, "framework/name")->field == "metadata.name");
  CHECK(Only(generated, "framework/name")->mark.line == 4);
  CHECK(Rules(Lint(Patched({{"name: tf\n", "generateName: tf\n"}}))).empty());
  auto missing = Lint(Patched({{"name: tf\n", "labels: {a: b}\n"}}));
  CHECK(Only(missing, "framework/name")->message ==
        "metadata.name: Required value: name or generateName is required");
  CHECK(Rules(Lint(Patched({{"name: tf\n", std::string("name: ") + std::string(64, 'a') + "\n"}})))
            .size() == 1);
}

TEST_CASE("framework lint: the CRD's enum, types and bounds") {
  auto fs = Lint(Patched({{"executionType: Start", "executionType: Run"},
                          {"maxRetryCount: 2", "maxRetryCount: -3"},
                          {"taskNumber: 4", "taskNumber: 10001"},
                          {"minSucceededTaskCount: -1", "minSucceededTaskCount: -2"},
                          {"fancyRetryPolicy: false\n", "fancyRetryPolicy: \"false\"\n"}}));
  CHECK(Rules(fs) == std::vector<std::string>{
                         "framework/execution-type error spec.executionType",
                         "framework/type error spec.retryPolicy.fancyRetryPolicy",
                         "framework/minimum error spec.retryPolicy.maxRetryCount",
                         "framework/minimum error "
                         "spec.taskRoles[0].frameworkAttemptCompletionPolicy.minSucceededTaskCount",
                         "framework/minimum error spec.taskRoles[1].taskNumber",
                     });
  CHECK(fs[0].message ==
        "spec.executionType: Unsupported value: \"Run\": supported values: \"Create\", \"Start\", "
        "\"Stop\"");
  CHECK(fs[1].message ==
        "spec.retryPolicy.fancyRetryPolicy: Invalid value: \"string\": "
        "spec.retryPolicy.fancyRetryPolicy in body must be of type boolean: \"string\"");
  CHECK(fs[2].message ==
        "spec.retryPolicy.maxRetryCount: Invalid value: -3: spec.retryPolicy.maxRetryCount in "
        "body should be greater than or equal to -2");
  CHECK(fs[4].message ==
        "spec.taskRoles[1].taskNumber: Invalid value: 10001: spec.taskRoles[1].taskNumber in body "
        "should be less than or equal to 10000");
  // A null field that is not nullable is pruned, not rejected.
  CHECK(Rules(Lint(Patched({{"executionType: Start", "executionType: null"}}))).empty());
  auto list = Lint(Patched({{"  taskRoles:\n", "  taskRoles: {}\n  x:\n"}}));
  CHECK(Only(list, "framework/type")->field == "spec.taskRoles");
}

TEST_CASE("framework lint: task-level bounds, rejected past the limit, admitted at it") {
  auto errors = [](const std::vector<Finding>& fs) {
    std::vector<std::string> out;
    for (const Finding& f : fs) {
      if (f.severity == Severity::kError) out.push_back(f.rule + " " + f.field + ": " + f.message);
    }
    return out;
  };
  const std::string retry = "retryPolicy: {fancyRetryPolicy: false, maxRetryCount: 0}";
  CHECK(errors(Lint(
            Patched({{retry, "retryPolicy: {fancyRetryPolicy: false, maxRetryCount: -3}"}}))) ==
        std::vector<std::string>{
            "framework/minimum spec.taskRoles[0].task.retryPolicy.maxRetryCount: "
            "spec.taskRoles[0].task.retryPolicy.maxRetryCount: Invalid value: -3: "
            "spec.taskRoles[0].task.retryPolicy.maxRetryCount in body should be greater than or "
            "equal to -2"});
  CHECK(
      errors(Lint(Patched({{retry, "retryPolicy: {fancyRetryPolicy: false, maxRetryCount: -2}"}})))
          .empty());

  CHECK(errors(Lint(Patched({{"minFailedTaskCount: 1", "minFailedTaskCount: -2"}}))) ==
        std::vector<std::string>{
            "framework/minimum spec.taskRoles[0].frameworkAttemptCompletionPolicy."
            "minFailedTaskCount: spec.taskRoles[0].frameworkAttemptCompletionPolicy."
            "minFailedTaskCount: Invalid value: -2: spec.taskRoles[0]."
            "frameworkAttemptCompletionPolicy.minFailedTaskCount in body should be greater than "
            "or equal to -1"});
  CHECK(errors(Lint(Patched({{"minFailedTaskCount: 1", "minFailedTaskCount: -1"}}))).empty());

  CHECK(errors(Lint(Patched({{"taskNumber: 2", "taskNumber: -1"}}))) ==
        std::vector<std::string>{
            "framework/minimum spec.taskRoles[0].taskNumber: spec.taskRoles[0].taskNumber: "
            "Invalid value: -1: spec.taskRoles[0].taskNumber in body should be greater than or "
            "equal to 0"});
  CHECK(errors(Lint(Patched({{"taskNumber: 2", "taskNumber: 0"}}))).empty());
  // The schema's maximum is 10000 inclusive (10001 is rejected in the test above).
  CHECK(errors(Lint(Patched({{"taskNumber: 4", "taskNumber: 10000"}}))).empty());

  CHECK(errors(Lint(Patched(
            {{"podGracefulDeletionTimeoutSec: 600", "podGracefulDeletionTimeoutSec: \"600\""}}))) ==
        std::vector<std::string>{
            "framework/type spec.taskRoles[0].task.podGracefulDeletionTimeoutSec: "
            "spec.taskRoles[0].task.podGracefulDeletionTimeoutSec: Invalid value: \"string\": "
            "spec.taskRoles[0].task.podGracefulDeletionTimeoutSec in body must be of type "
            "integer: \"string\""});
  CHECK(errors(Lint(Patched(
                   {{"podGracefulDeletionTimeoutSec: 600", "podGracefulDeletionTimeoutSec: 6.5"}})))
            .at(0)
            .rfind("framework/type spec.taskRoles[0].task.podGracefulDeletionTimeoutSec: ", 0) ==
        0);
  // Nullable: null is "never force-delete", not an error.
  CHECK(errors(Lint(Patched({{"podGracefulDeletionTimeoutSec: 600",
                              "podGracefulDeletionTimeoutSec: null"}})))
            .empty());
}

TEST_CASE("framework lint: unknown fields are pruned silently, a warning") {
  auto fs = Lint(Patched({{"maxRetryCount: 2", "maxRetryCounts: 2"}}));
  const Finding* f = Only(fs, "framework/unknown-field");
  CHECK(f->severity == Severity::kWarning);
  CHECK(f->field == "spec.retryPolicy.maxRetryCounts");
  CHECK(f->mark.line == 9);
  CHECK(f->message.find("prunes it silently") != std::string::npos);
}

TEST_CASE("framework lint: a task's pod is checked against the Kubernetes pod template schema") {
  // A malformed quantity and a wrong type are errors at their line (the controller cannot
  // decode the Framework); an unknown field is dropped by that decoding, a warning.
  auto fs = Lint(Patched(
      {{"      pod: {spec: {restartPolicy: Never, containers: [{name: tf, image: tf}]}}\n  - name: "
        "worker",
        "      pod:\n"                                                         // 19
        "        spec:\n"                                                      // 20
        "          restartPolicy: Never\n"                                     // 21
        "          activeDeadlineSeconds: soon\n"                              // 22
        "          ActiveDeadlineSeconds: 60\n"                                // 23
        "          containers:\n"                                              // 24
        "          - {name: tf, image: tf, resources: {limits: {cpu: 2x}}}\n"  // 25
        "  - name: worker"}}));
  CHECK(Rules(fs) ==
        std::vector<std::string>{
            "schema/type error spec.taskRoles[0].task.pod.spec.activeDeadlineSeconds",
            "framework/unknown-field warning spec.taskRoles[0].task.pod.spec.ActiveDeadlineSeconds",
            "schema/invalid error "
            "spec.taskRoles[0].task.pod.spec.containers[0].resources.limits.cpu"});
  REQUIRE(fs.size() == 3);
  CHECK(fs[0].mark.line == 22);
  CHECK(fs[1].mark.line == 23);
  CHECK(fs[1].message.find("the controller decodes task.pod") != std::string::npos);
  CHECK(fs[2].mark.line == 25);
  CHECK(fs[2].message.find("Invalid value: \"2x\"") != std::string::npos);
}

TEST_CASE("framework lint: omitted minFailedTaskCount, and every task failing as Succeeded") {
  auto one = Lint(Patched({{"      minFailedTaskCount: 1\n      minSucceededTaskCount: 4\n",
                            "      minSucceededTaskCount: 4\n"}}));
  const Finding* f = Only(one, "framework/min-failed-omitted");
  CHECK(f->field == "spec.taskRoles[1].frameworkAttemptCompletionPolicy.minFailedTaskCount");
  CHECK(f->mark.line == 22);  // the policy's key: the count itself is not written
  CHECK(f->message.find("never fail the FrameworkAttempt") != std::string::npos);
  CHECK(f->message.find("completes as Succeeded") == std::string::npos);  // ps can still fail it

  std::string none = kClean;
  for (int i = 0; i < 2; ++i) none.erase(none.find("      minFailedTaskCount: 1\n"), 28);
  auto both = Lint(none);
  CHECK(Rules(both).size() == 2);
  CHECK(both[0].message.find("a Framework whose tasks all fail completes as Succeeded") !=
        std::string::npos);

  auto disabled = Lint(Patched({{"minFailedTaskCount: 1\n      minSucceededTaskCount: -1",
                                 "minFailedTaskCount: -1\n      minSucceededTaskCount: -1"},
                                {"minFailedTaskCount: 1\n      minSucceededTaskCount: 4",
                                 "minFailedTaskCount: 5\n      minSucceededTaskCount: 4"}}));
  CHECK(Rules(disabled) ==
        std::vector<std::string>{
            "framework/completion-count-unreachable warning "
            "spec.taskRoles[1].frameworkAttemptCompletionPolicy.minFailedTaskCount",
            "framework/failures-succeed warning spec.taskRoles"});
  CHECK(Only(Lint(Patched({{"minFailedTaskCount: 1\n      minSucceededTaskCount: -1",
                            "minFailedTaskCount: 0\n      minSucceededTaskCount: -1"}})),
             "framework/min-failed-omitted")
            ->message.rfind("minFailedTaskCount is 0,", 0) == 0);
}

TEST_CASE("framework lint: -2, fancy retries, duplicate roles, no tasks, executionType") {
  auto fs =
      Lint(Patched({{"maxRetryCount: 2", "maxRetryCount: -2"},
                    {"retryPolicy: {fancyRetryPolicy: false, maxRetryCount: 0}\n      pod",
                     "retryPolicy: {fancyRetryPolicy: true, maxRetryCount: 3}\n      pod"},
                    {"- name: worker", "- name: ps"},
                    {"executionType: Start", "executionType: Stop"},
                    {"podGracefulDeletionTimeoutSec: 600", "podGracefulDeletionTimeoutSec: -1"}}));
  CHECK(Only(fs, "framework/rerun-succeeded")->message.find("the Framework never completes") !=
        std::string::npos);
  CHECK(Only(fs, "framework/unbounded-transient-retries")->field ==
        "spec.taskRoles[0].task.retryPolicy.fancyRetryPolicy");
  CHECK(Only(fs, "framework/unbounded-transient-retries")
            ->message.find("maxRetryCount 3 only bounds Unknown failures") != std::string::npos);
  const Finding* dup = Only(fs, "framework/duplicate-task-role");
  CHECK(dup->field == "spec.taskRoles[1].name");
  CHECK(dup->message.find("the same pods tf-ps-<index>") != std::string::npos);
  CHECK(dup->note == "see spec.taskRoles[0].name (line 11, column 11)");
  CHECK(Only(fs, "framework/execution-stop")->message.find("-210 StopFrameworkRequested") !=
        std::string::npos);
  CHECK(Only(fs, "framework/negative-deletion-timeout")->severity == Severity::kWarning);

  auto task_service =
      Lint(Patched({{"retryPolicy: {fancyRetryPolicy: false, maxRetryCount: 0}\n      pod",
                     "retryPolicy: {fancyRetryPolicy: false, maxRetryCount: -2}\n      pod"}}));
  CHECK(Only(task_service, "framework/rerun-succeeded")->message.find("never completes, so") !=
        std::string::npos);

  auto create = Lint(Patched({{"executionType: Start", "executionType: Create"}}));
  CHECK(Only(create, "framework/execution-create")->severity == Severity::kInfo);

  auto empty = Lint(Patched({{"taskNumber: 2", "taskNumber: 0"},
                             {"taskNumber: 4", "taskNumber: 0"},
                             {"minSucceededTaskCount: 4", "minSucceededTaskCount: 0"}}));
  CHECK(Rules(empty) == std::vector<std::string>{"framework/no-tasks warning spec.taskRoles"});
}

TEST_CASE("framework lint: Service tasks that never complete need no completion counts") {
  std::string yaml = Patched({{"maxRetryCount: 2", "maxRetryCount: -2"}});
  for (int i = 0; i < 2; ++i) {
    yaml.replace(yaml.find("maxRetryCount: 0}"), 17, "maxRetryCount: -2}");
    size_t at = yaml.find("    frameworkAttemptCompletionPolicy:\n");
    yaml.erase(at, yaml.find("    task:", at) - at);
  }
  // -2 at both levels and no success condition: upstream's servicestateful.yaml, a service
  // whose pods restartPolicy Never; nothing to report.
  auto fs = Lint(yaml);
  for (const Finding& f : fs) CHECK_MESSAGE(false, f.rule << ": " << f.message);
  CHECK(fs.empty());
}

TEST_CASE("framework lint: -2 is a service's setting where pods restart Always, no success") {
  // Upstream's service.yaml: restartPolicy Always, no success condition, -2 at both levels.
  const std::string service =
      "apiVersion: frameworkcontroller.microsoft.com/v1\n"
      "kind: Framework\n"
      "metadata: {name: service}\n"
      "spec:\n"
      "  executionType: Start\n"
      "  retryPolicy: {fancyRetryPolicy: false, maxRetryCount: -2}\n"
      "  taskRoles:\n"
      "  - name: server\n"
      "    taskNumber: 3\n"
      "    frameworkAttemptCompletionPolicy: {minFailedTaskCount: 1, minSucceededTaskCount: -1}\n"
      "    task:\n"
      "      retryPolicy: {fancyRetryPolicy: false, maxRetryCount: -2}\n"
      "      pod: {spec: {restartPolicy: Always, containers: [{name: nginx, image: nginx}]}}\n";
  CHECK(Rules(Lint(service)).empty());
  // The task level alone, and an omitted restartPolicy (the Pod default is Always).
  auto task_only = service;
  task_only.replace(task_only.find("maxRetryCount: -2"), 17, "maxRetryCount: 1");
  task_only.replace(task_only.find("restartPolicy: Always, "), 23, "");
  CHECK(Rules(Lint(task_only)).empty());
  // A success condition makes it batch work: succeeded tasks rerun and never count.
  auto batch = service;
  batch.replace(batch.find("minSucceededTaskCount: -1"), 25, "minSucceededTaskCount: 3");
  CHECK(Rules(Lint(batch)) ==
        std::vector<std::string>{
            "framework/rerun-succeeded warning spec.retryPolicy.maxRetryCount",
            "framework/rerun-succeeded warning spec.taskRoles[0].task.retryPolicy.maxRetryCount"});
  // Pods that exit (restartPolicy Never) with -2 at the task level only: a batch job that
  // meant -1 keeps the warning.
  auto never = task_only;
  never.replace(never.find("spec: {containers"), 17, "spec: {restartPolicy: Never, containers");
  CHECK(Rules(Lint(never)) ==
        std::vector<std::string>{
            "framework/rerun-succeeded warning spec.taskRoles[0].task.retryPolicy.maxRetryCount"});
}

TEST_CASE("framework lint: the fancy policy, upstream's recommended setting, is info") {
  auto fs = Lint(Patched({{"    fancyRetryPolicy: false\n    maxRetryCount: 2",
                           "    fancyRetryPolicy: true\n    maxRetryCount: 2"}}));
  CHECK(Rules(fs) == std::vector<std::string>{"framework/unbounded-transient-retries info "
                                              "spec.retryPolicy.fancyRetryPolicy"});
}

TEST_CASE("framework lint: the kind table dispatches Frameworks, mixed with JobSets") {
  std::string mixed = std::string(kClean) + "---\n" + Patched({{"name: tf\n", "name: tf-b\n"}}) +
                      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n";
  SourceFile f = ParseSource("mixed.yaml", mixed);
  FileResult r = LintSource(f, LintOptions{});
  CHECK(r.objects == 2);
  CHECK(r.skipped == 1);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].kind == "Framework");
  CHECK(r.findings[0].api_version == "frameworkcontroller.microsoft.com/v1");
  CHECK(r.findings[0].name == "tf-b");
  CHECK(r.findings[0].document == 1);
}

}  // namespace jobset

namespace jobset {

TEST_CASE("framework lint: malformed documents give type errors, never a crash") {
  const std::string head =
      "apiVersion: frameworkcontroller.microsoft.com/v1\nkind: Framework\nmetadata: {name: x}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"spec: []\n", "spec"},
      {"spec: {taskRoles: [3, null]}\n", "spec.taskRoles[0]"},
      {"spec: {retryPolicy: yes}\n", "spec.retryPolicy"},
      {"spec: {taskRoles: [{name: 7, taskNumber: '2'}]}\n", "spec.taskRoles[0].name"},
      {"spec: {taskRoles: [{name: a, taskNumber: 1, task: []}]}\n", "spec.taskRoles[0].task"},
      {"spec: {taskRoles: [{name: a, taskNumber: 1, frameworkAttemptCompletionPolicy: 1}]}\n",
       "spec.taskRoles[0].frameworkAttemptCompletionPolicy"},
      {"spec: {taskRoles: [{name: a, taskNumber: 1, task: {pod: x}}]}\n",
       "spec.taskRoles[0].task.pod"},
      {"spec: {description: [1]}\n", "spec.description"},
  };
  for (const auto& [spec, field] : cases) {
    CAPTURE(spec);
    SourceFile f = ParseSource("fw.yaml", head + spec);
    REQUIRE(f.documents[0].parsed);
    std::vector<Finding> fs = LintFramework(f.documents[0].root);
    bool found = false;
    for (const Finding& x : fs) found = found || (x.rule == "framework/type" && x.field == field);
    CHECK(found);
    Framework fw = DecodeFramework(f.documents[0].root);  // lenient: zero values
    CHECK(fw.name == "x");
  }
  // metadata that is not a map, and no spec at all.
  SourceFile bare = ParseSource("fw.yaml",
                                "apiVersion: frameworkcontroller.microsoft.com/v1\n"
                                "kind: Framework\nmetadata: 5\n");
  std::vector<Finding> fs = LintFramework(bare.documents[0].root);
  REQUIRE(fs.size() >= 2);
  CHECK(fs[0].field == "metadata");
  CHECK(fs[1].rule == "framework/name");
}

}  // namespace jobset

namespace jobset {

// Upstream's own examples are what FrameworkController recommends: no error and no warning there
// (the fancy retry policy of 11 of them is info; service.yaml and servicestateful.yaml are
// services), but one true finding of the pod schema: servicestateful.yaml's pod spec sets
// `ActiveDeadlineSeconds`, which client-go's case-sensitive decoding (apimachinery v0.24, the
// controller's go.mod) drops, so its pods never get the deadline its comment speaks of.
TEST_CASE("framework lint: upstream's examples draw no warning" * doctest::test_suite("corpus")) {
  const std::string corpus = CorpusOrSkip();
  if (corpus.empty()) return;
  std::vector<std::string> files;
  std::string error;
  REQUIRE(ExpandPaths({corpus + "/frameworkcontroller/examples"}, true, &files, &error));
  REQUIRE(files.size() >= 13);
  int objects = 0, infos = 0, pod_fields = 0;
  for (const std::string& path : files) {
    SourceFile source;
    REQUIRE(LoadFile(path, LoadLimits{}, &source, &error));
    FileResult r = LintSource(source, LintOptions{});
    objects += r.objects;
    for (const Finding& f : r.findings) {
      if (f.field == "spec.taskRoles[0].task.pod.spec.ActiveDeadlineSeconds") {
        CHECK(path.ends_with("servicestateful.yaml"));
        CHECK(f.rule == "framework/unknown-field");
        CHECK(f.severity == Severity::kWarning);
        ++pod_fields;
        continue;
      }
      CHECK_MESSAGE(f.severity == Severity::kInfo, path << ": " << f.rule << ": " << f.message);
      infos += f.severity == Severity::kInfo;
    }
  }
  CHECK(objects == 13);
  CHECK(infos == 16);  // framework/unbounded-transient-retries, at both levels where set
  CHECK(pod_fields == 1);
}

}  // namespace jobset

namespace jobset {

TEST_CASE("framework lint: the CRD's checks are schemas/framework.v1.json, under framework/ ids") {
  auto schema = BuiltinFrameworkSchema();
  REQUIRE(schema);
  // Every rule id the schema's findings can carry is a registered framework/ rule.
  for (const SchemaRuleId& r : FrameworkSchemaReport().rules) {
    CAPTURE(r.rule.id);
    CHECK(r.rule.id.rfind("framework/", 0) == 0);
    CHECK(FindRule(r.rule.id) != nullptr);
  }
  // The structural errors of a damaged Framework are the schema engine's: the same findings,
  // each under a framework/ rule (a schema keyword without a mapped rule would show schema/).
  const std::string damaged = Patched({{"name: tf\n", "name: tf-job\n"},
                                       {"executionType: Start", "executionType: Run"},
                                       {"maxRetryCount: 2", "maxRetryCount: -3\n    retries: 1"},
                                       {"taskNumber: 4", "taskNumber: '4'"},
                                       {"- name: worker", "- name: Worker"}});
  SourceFile f = ParseSource("fw.yaml", damaged);
  std::vector<Finding> from_schema =
      ValidateSchema(*schema, f.documents[0].root, FrameworkSchemaReport());
  CHECK(Rules(from_schema) == std::vector<std::string>{
                                  "framework/name error metadata.name",
                                  "framework/execution-type error spec.executionType",
                                  "framework/minimum error spec.retryPolicy.maxRetryCount",
                                  "framework/unknown-field warning spec.retryPolicy.retries",
                                  "framework/task-role-name error spec.taskRoles[1].name",
                                  "framework/type error spec.taskRoles[1].taskNumber",
                              });
  std::vector<Finding> linted = Lint(damaged);
  REQUIRE(linted.size() >= from_schema.size());
  for (size_t i = 0; i < from_schema.size(); ++i) {
    CHECK(linted[i].rule == from_schema[i].rule);
    CHECK(linted[i].message == from_schema[i].message);
    CHECK(linted[i].upstream == from_schema[i].upstream);
  }
  // Without the Framework's report, the same schema speaks in schema/* rules.
  CHECK(ValidateSchema(*schema, f.documents[0].root).at(0).rule == "schema/invalid");
}

TEST_CASE("framework: each task role's pods are checked as the API server checks a Pod") {
  // kubernetes/kubernetes validation_test.go TestValidateContainers (invalid name) and
  // TestValidatePullPolicy: task.pod is preserve-unknown-fields, so only Pod creation refuses.
  const std::string ps = "containers: [{name: tf, image: tf}]}}\n  - name: worker";
  std::vector<Finding> fs = Lint(Patched(
      {{ps, "containers: [{name: TF, image: tf, imagePullPolicy: never}]}}\n  - name: worker"}}));
  std::vector<Finding> child;
  for (const Finding& f : fs)
    if (f.rule.rfind("child/", 0) == 0) child.push_back(f);
  REQUIRE(child.size() == 2);
  CHECK(child[0].rule == "child/container-name");
  CHECK(child[0].severity == Severity::kError);
  CHECK(child[0].field == "spec.taskRoles[0].task.pod.spec.containers[0].name");
  CHECK(child[0].message.rfind("child Pod tf-ps-0 would be rejected: spec.containers[0].name: "
                               "Invalid value: \"TF\": a lowercase RFC 1123 label",
                               0) == 0);
  CHECK(child[0].message.ends_with(" (affects 2 child Pods)"));
  CHECK(child[0].mark.line == 19);
  CHECK(child[1].rule == "child/image-pull-policy");
  // The valid twin, and FrameworkController's placeholders, which it fills in first.
  for (const Finding& f : Lint(kClean)) CHECK(f.rule.rfind("child/", 0) == std::string::npos);
  const std::string placeholder =
      "containers: [{name: tf, image: tf, env: [{name: '{{FC_TASKROLE_NAME}}=x'}]}]}}\n  - "
      "name: worker";
  for (const Finding& f : Lint(Patched({{ps, placeholder}})))
    CHECK(f.rule.rfind("child/", 0) == std::string::npos);
  // kubernetes/kubernetes validation_test.go TestValidateContainers (request above limit):
  // requests are compared with limits as quantities. A quantity that does not parse is the pod
  // template schema's error (the controller cannot decode task.pod), not repeated here.
  std::vector<Finding> resources;
  for (const Finding& f : Lint(Patched(
           {{ps,
             "containers: [{name: tf, image: tf, resources: {limits: {memory: 4GB}, requests: "
             "{memory: 1Gi}}}, {name: b, image: tf, resources: {limits: {cpu: 500m}, requests: "
             "{cpu: '1'}}}]}}\n  - name: worker"}})))
    if (f.rule.rfind("child/", 0) == 0 || f.rule == "schema/invalid") resources.push_back(f);
  REQUIRE(resources.size() == 2);
  CHECK(resources[0].rule == "schema/invalid");
  CHECK(resources[0].field ==
        "spec.taskRoles[0].task.pod.spec.containers[0].resources.limits.memory");
  CHECK(resources[1].rule == "child/resource-limit");
  CHECK(resources[1].field == "spec.taskRoles[0].task.pod.spec.containers[1].resources.requests");
  CHECK(resources[1].message ==
        "child Pod tf-ps-0 would be rejected: spec.containers[1].resources.requests: Invalid "
        "value: \"1\": must be less than or equal to cpu limit of 500m (affects 2 child Pods)");
  for (const Finding& f :
       Lint(Patched({{ps,
                      "containers: [{name: tf, image: tf, resources: {limits: {memory: 4Gi}, "
                      "requests: {memory: 1Gi}}}]}}\n  - name: worker"}})))
    CHECK(f.rule.rfind("child/", 0) == std::string::npos);
  // A role without tasks creates no pod.
  for (const Finding& f :
       Lint(Patched({{"taskNumber: 2", "taskNumber: 0"},
                     {ps, "containers: [{name: TF, image: tf}]}}\n  - name: worker"}})))
    CHECK(f.rule.rfind("child/", 0) == std::string::npos);
}

}  // namespace jobset
