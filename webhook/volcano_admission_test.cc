// Tests of the webhook's Volcano Job decisions: Volcano's own denial text on CREATE and UPDATE,
// the apiserver's form for schema errors, warnings, the mutating patch, operations and kinds.
#include "webhook/volcano_admission.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "validation/core/json_node.h"
#include "validation/core/loader.h"
#include "webhook/admission_handler.h"

namespace jobset::webhook {
namespace {

std::string Job(const std::string& spec, int replicas = 2) {
  return "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: vj\nspec:\n" + spec +
         "  tasks:\n  - name: w\n    replicas: " + std::to_string(replicas) +
         "\n    template:\n      spec:\n        containers:\n        - name: c\n"
         "          image: i\n";
}

Node Yaml(const std::string& text) {
  SourceFile f = ParseSource("t.yaml", text);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return f.documents[0].root;
}

AdmissionRequest Request(std::string operation, const std::string& yaml,
                         const std::string& old_yaml = "") {
  AdmissionRequest r;
  r.api_version = kAdmissionV1;
  r.uid = "u";
  r.kind = {"batch.volcano.sh", "v1alpha1", "Job"};
  r.operation = std::move(operation);
  if (!yaml.empty()) r.object = Yaml(yaml);
  if (!old_yaml.empty()) r.old_object = Yaml(old_yaml);
  return r;
}

TEST_CASE("volcano validate: CREATE allowed, with warnings for the quirks") {
  AdmissionResponse ok = ValidateVolcanoJob(Request("CREATE", Job("")), LintOptions{});
  CHECK(ok.allowed);
  CHECK(!ok.status);
  CHECK(ok.warnings.empty());
  AdmissionResponse warned = ValidateVolcanoJob(
      Request("CREATE", Job("  policies:\n  - event: JobUpdated\n    action: RestartJob\n")),
      LintOptions{});
  CHECK(warned.allowed);
  REQUIRE(warned.warnings.size() == 1);
  CHECK(warned.warnings[0].rfind("spec.policies[0].event: the job controller never emits", 0) == 0);
}

TEST_CASE("volcano validate: CREATE denied with Volcano's joined, trimmed message") {
  AdmissionResponse r = ValidateVolcanoJob(
      Request("CREATE", Job("  minAvailable: 9\n  queue: root\n  plugins:\n    sshd: []\n")),
      LintOptions{});
  CHECK(!r.allowed);
  REQUIRE(r.status);
  CHECK(r.status->code == 422);
  CHECK(r.status->reason == "Invalid");
  CHECK(r.status->message ==
        "job 'minAvailable' should not be greater than total replicas in tasks; unable to find "
        "job plugin: sshd; can not submit job to root queue;");
  CHECK(r.status->group.empty());  // Not the apiserver's Invalid details.
}

TEST_CASE("volcano validate: a schema error is the apiserver's, before the webhook") {
  AdmissionResponse r =
      ValidateVolcanoJob(Request("CREATE", Job("  queue: root\n", -1)), LintOptions{});
  CHECK(!r.allowed);
  REQUIRE(r.status);
  CHECK(r.status->code == 422);
  CHECK(r.status->message.rfind("Job.batch.volcano.sh \"vj\" is invalid: [", 0) == 0);
  CHECK(r.status->message.find("spec.tasks[0].replicas: Invalid value: -1") != std::string::npos);
  CHECK(r.status->message.find("root queue") == std::string::npos);
  CHECK(r.status->kind == "Job");
  CHECK(r.status->group == "batch.volcano.sh");
}

TEST_CASE("volcano validate: UPDATE, first error only, in Volcano's words") {
  std::string old_job = Job("  minAvailable: 2\n");
  CHECK(ValidateVolcanoJob(Request("UPDATE", Job("  minAvailable: 1\n", 4), old_job), {}).allowed);
  AdmissionResponse r = ValidateVolcanoJob(
      Request("UPDATE", Job("  minAvailable: 9\n  maxRetry: 7\n"), old_job), LintOptions{});
  CHECK(!r.allowed);
  REQUIRE(r.status);
  CHECK(r.status->message == "job 'minAvailable' must not be greater than total replicas");
  r = ValidateVolcanoJob(Request("UPDATE", Job("  minAvailable: 2\n  maxRetry: 7\n"), old_job),
                         LintOptions{});
  REQUIRE(r.status);
  CHECK(r.status->message ==
        "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under "
        "spec` and `PriorityClassName`");
  CHECK(r.warnings.empty());
  // No oldObject: a malformed review.
  r = ValidateVolcanoJob(Request("UPDATE", old_job), LintOptions{});
  REQUIRE(r.status);
  CHECK(r.status->code == 400);
}

TEST_CASE("volcano validate: UPDATE of a pod template with 300,000 labels takes linear time") {
  // The immutability check compared normalized specs with a lookup of every key of one
  // mapping in the other: 4.5e10 comparisons. Its ctest TIMEOUT fails it if that comes back.
  Node old_job = Yaml(Job(""));
  Node labels = Node::Map();
  for (int i = 0; i < 300000; ++i) {
    labels.entries.push_back(MapEntry{"k" + std::to_string(i), {}, Node::String("v")});
  }
  Node* pod =
      &old_job.Find("spec")->Find("tasks")->items[0].Find("template")->Set("metadata", Node::Map());
  pod->entries.push_back(MapEntry{"labels", {}, labels});
  Node new_job = old_job;
  Node* new_labels = new_job.Find("spec")
                         ->Find("tasks")
                         ->items[0]
                         .Find("template")
                         ->Find("metadata")
                         ->Find("labels");
  new_labels->Find("k7")->text = "changed";
  AdmissionRequest request;
  request.api_version = kAdmissionV1;
  request.uid = "u";
  request.kind = {"batch.volcano.sh", "v1alpha1", "Job"};
  request.operation = "UPDATE";
  request.old_object = old_job;
  request.object = new_job;
  AdmissionResponse changed = ValidateVolcanoJob(request, LintOptions{});
  CHECK(!changed.allowed);
  REQUIRE(changed.status);
  CHECK(changed.status->message.find("job updates may not change fields") != std::string::npos);
  // The same labels in another order are no change.
  new_labels->Find("k7")->text = "v";
  std::reverse(new_labels->entries.begin(), new_labels->entries.end());
  request.object = new_job;
  CHECK(ValidateVolcanoJob(request, LintOptions{}).allowed);
}

TEST_CASE("volcano: operations, subresources and other kinds") {
  AdmissionResponse del = ValidateVolcanoJob(Request("DELETE", Job("")), LintOptions{});
  CHECK(!del.allowed);
  CHECK(del.status->message == "expect operation to be 'CREATE' or 'UPDATE'");
  AdmissionResponse upd = MutateVolcanoJob(Request("UPDATE", Job("")), "volcano");
  CHECK(!upd.allowed);
  CHECK(upd.status->message == "expect operation to be 'CREATE' ");
  AdmissionRequest status = Request("UPDATE", Job("  queue: root\n"), Job(""));
  status.sub_resource = "status";
  CHECK(ValidateVolcanoJob(status, LintOptions{}).allowed);
  AdmissionRequest jobset = Request("CREATE", Job("  queue: root\n"));
  jobset.kind = {"jobset.x-k8s.io", "v1alpha2", "JobSet"};
  CHECK(ValidateVolcanoJob(jobset, LintOptions{}).allowed);
  CHECK(MutateVolcanoJob(jobset, "volcano").patch.empty());
  AdmissionRequest batch = Request("CREATE", Job(""));
  batch.kind = {"batch", "v1", "Job"};
  CHECK(ValidateVolcanoJob(batch, LintOptions{}).allowed);
}

TEST_CASE("volcano mutate: the upstream patch, replace ops included") {
  AdmissionResponse r =
      MutateVolcanoJob(Request("CREATE", Job("  plugins:\n    pytorch: []\n")), "volcano");
  CHECK(r.allowed);
  CHECK(r.patch ==
        R"([{"op":"add","path":"/spec/queue","value":"default"},)"
        R"({"op":"add","path":"/spec/schedulerName","value":"volcano"},)"
        R"({"op":"add","path":"/spec/maxRetry","value":3},)"
        R"({"op":"replace","path":"/spec/tasks","value":[{"name":"w","replicas":2,"template":)"
        R"({"spec":{"containers":[{"name":"c","image":"i"}]}},"minAvailable":2,"maxRetry":3}]},)"
        R"({"op":"add","path":"/spec/minAvailable","value":2},)"
        R"({"op":"replace","path":"/spec/plugins","value":{"pytorch":[],"svc":[]}}])");
}

TEST_CASE("volcano: the HTTP handler routes the Volcano endpoints") {
  std::string object = NodeToJsonText(Yaml(Job("  queue: root\n")));
  std::string body =
      R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"x",)"
      R"("kind":{"group":"batch.volcano.sh","version":"v1alpha1","kind":"Job"},)"
      R"("operation":"CREATE","object":)" +
      object + "}}";
  AdmissionOptions options;
  HttpReply denied = HandleAdmission(Endpoint::kValidateVolcano, "application/json", body, options);
  CHECK(denied.status == 200);
  CHECK(denied.verdict == "denied");
  CHECK(denied.body.find("can not submit job to root queue;") != std::string::npos);
  options.volcano_scheduler_name = "kube-batch";
  HttpReply patched = HandleAdmission(Endpoint::kMutateVolcano, "application/json", body, options);
  CHECK(patched.verdict == "patched");
}

}  // namespace
}  // namespace jobset::webhook
