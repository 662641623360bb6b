// Tests of Volcano Job linting: our warnings for the quirks upstream admits (docs/rules/volcano/),
// the order of defaulting and checks, and dispatch by apiVersion and kind.
#include "validation/volcano/lint.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/test_size.h"
#include "validation/core/loader.h"
#include "validation/lint/kinds.h"
#include "validation/lint/lint.h"

namespace jobset {
namespace {

using Findings = std::vector<Finding>;

std::string Job(const std::string& spec, const std::string& task_extra = "",
                const std::string& name = "demo", const std::string& task = "worker",
                int replicas = 2) {
  return "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: " + name +
         "\nspec:\n" + spec + "  tasks:\n  - name: " + task +
         "\n    replicas: " + std::to_string(replicas) + "\n" + task_extra +
         "    template:\n      spec:\n        containers:\n        - name: main\n"
         "          image: busybox\n";
}

Findings Lint(const std::string& yaml) {
  SourceFile f = ParseSource("t.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  return LintVolcanoJob(f.documents[0].root);
}

std::vector<std::string> Fields(const Findings& fs, std::string_view rule) {
  std::vector<std::string> out;
  for (const Finding& f : fs) {
    if (f.rule == rule) {
      CHECK(f.severity == Severity::kWarning);
      out.push_back(f.field);
    }
  }
  return out;
}

using V = std::vector<std::string>;

TEST_CASE("volcano lint: an exit-code policy's action is never checked") {
  Findings fs =
      Lint(Job("  policies:\n  - exitCode: 3\n    action: RestratJob\n"
               "  - exitCode: 4\n    action: SyncJob\n"));
  CHECK(Fields(fs, "volcano/exit-code-action") ==
        V{"spec.policies[0].action", "spec.policies[1].action"});
  CHECK(fs.size() == 2);  // Admitted: no error.
  CHECK(Lint(Job("  policies:\n  - exitCode: 3\n    action: RestartJob\n")).empty());
}

TEST_CASE("volcano lint: events that never reach a policy") {
  Findings fs =
      Lint(Job("  policies:\n  - event: JobUpdated\n    action: RestartJob\n"
               "  - event: PodPending\n    action: AbortJob\n"
               "  - event: Unknown\n    action: RestartJob\n",
               "    policies:\n    - events: [Unknown, PodFailed]\n"
               "      action: RestartTask\n"));
  CHECK(Fields(fs, "volcano/dead-event") == V{"spec.policies[0].event", "spec.policies[1].event",
                                              "spec.tasks[0].policies[0].events[0]"});
  // PodPending with a timeout fires; Unknown at job level fires.
  CHECK(Lint(Job("  policies:\n  - event: PodPending\n    action: AbortJob\n    timeout: 10m\n"
                 "  - event: Unknown\n    action: RestartJob\n"))
            .empty());
}

TEST_CASE("volcano lint: maxRetry 1 with restart actions allows no restart") {
  std::string restart = "  policies:\n  - event: PodEvicted\n    action: RestartJob\n";
  CHECK(Fields(Lint(Job("  maxRetry: 1\n" + restart)), "volcano/max-retry") == V{"spec.maxRetry"});
  CHECK(Lint(Job("  maxRetry: 2\n" + restart)).empty());
  CHECK(Lint(Job("  maxRetry: 1\n  policies:\n  - event: PodEvicted\n    action: AbortJob\n"))
            .empty());
}

TEST_CASE("volcano lint: an explicit 0 is replaced by the mutating webhook") {
  Findings fs = Lint(Job("  maxRetry: 0\n  minAvailable: 0\n", "    maxRetry: 0\n"));
  CHECK(Fields(fs, "volcano/zero-replaced") ==
        V{"spec.maxRetry", "spec.minAvailable", "spec.tasks[0].maxRetry"});
  for (const Finding& f : fs) {
    if (f.field == "spec.minAvailable") CHECK(f.message.find("with 2") != std::string::npos);
  }
  CHECK(Lint(Job("  maxRetry: 1\n  minAvailable: 1\n")).empty());
}

TEST_CASE("volcano lint: policies the first-match scan never reaches") {
  // An exit code comes with PodFailed: an earlier PodFailed or `*` policy takes it first.
  Findings fs =
      Lint(Job("  policies:\n  - event: PodFailed\n    action: RestartJob\n"
               "  - exitCode: 3\n    action: AbortJob\n"));
  CHECK(Fields(fs, "volcano/shadowed-policy") == V{"spec.policies[1].exitCode"});
  Findings task = Lint(Job("",
                           "    policies:\n    - event: \"*\"\n      action: RestartTask\n"
                           "    - exitCode: 4\n      action: AbortJob\n"));
  CHECK(Fields(task, "volcano/shadowed-policy") == V{"spec.tasks[0].policies[1].exitCode"});
  // Placed first, the exit-code policy fires.
  CHECK(Lint(Job("  policies:\n  - exitCode: 3\n    action: AbortJob\n"
                 "  - event: PodFailed\n    action: RestartJob\n"))
            .empty());
  // Every task handles PodEvicted (and exit code 5): the job-level policies never see them.
  std::string tasks =
      "    policies:\n    - event: PodEvicted\n      action: RestartTask\n"
      "    - exitCode: 5\n      action: AbortJob\n";
  Findings job =
      Lint(Job("  policies:\n  - event: PodEvicted\n    action: RestartJob\n"
               "  - exitCode: 5\n    action: RestartJob\n"
               "  - event: Unknown\n    action: RestartJob\n",
               tasks));
  CHECK(Fields(job, "volcano/shadowed-policy") == V{"spec.policies[0]", "spec.policies[1]"});
  // A PodPending task policy without timeout does not take the event.
  CHECK(Lint(Job("  policies:\n  - event: PodPending\n    action: AbortJob\n    timeout: 5m\n",
                 "    policies:\n    - event: PodPending\n      action: RestartTask\n"
                 "      timeout: 1m\n"))
            .size() == 1);
  CHECK(Lint(Job("  policies:\n  - event: PodPending\n    action: AbortJob\n    timeout: 5m\n",
                 "    policies:\n    - event: PodFailed\n      action: RestartTask\n"))
            .empty());
}

TEST_CASE("volcano lint: pod names with the replica index") {
  // 33 + 1 + 27 + 2 = 63 passes upstream's check; replica 99 makes 64.
  std::string job(33, 'j'), task(27, 't');
  Findings fs = Lint(Job("", "", job, task, 100));
  CHECK(Fields(fs, "volcano/pod-name-length") == V{"spec.tasks[0].name"});
  CHECK(Lint(Job("", "", job, task, 10)).empty());
  // When upstream's own check already fails, only its error is reported.
  Findings both = Lint(Job("", "", job, task + "tt", 100));
  CHECK(Fields(both, "volcano/pod-name-length").empty());
}

TEST_CASE("volcano lint: findings are placed in the file, defaulted values at their parent") {
  Findings fs = Lint(Job("", "", "demo", "worker", -1));
  // replicas -1 defaults task minAvailable and then spec.minAvailable (their sum) to -1: all
  // three are the CRD's minimum, as kube-apiserver checks the schema after the webhook.
  int placed = 0;
  for (const Finding& f : fs) {
    CHECK(f.mark.known());
    placed += f.rule == "schema/minimum";
  }
  CHECK(placed == 3);
}

TEST_CASE("volcano lint: a value of the wrong type stops before the webhook rules") {
  Findings fs = Lint(Job("  minAvailable: 9\n  queue: root\n  policies: {a: 1}\n"));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].rule == "schema/type");
  CHECK(fs[0].field == "spec.policies");
  // Other schema errors do not: the webhook's findings on other fields are still reported.
  Findings more = Lint(Job("  minAvailable: 9\n  queue: root\n  maxRetry: -1\n"));
  CHECK(more.size() == 3);
}

TEST_CASE("volcano lint: Volcano's own CRD schema, full depth, errors at their lines") {
  // A task's pod template: an unknown field and a malformed quantity.
  std::string job = Job("");
  job.replace(job.find("          image: busybox\n"), 0,
              "          resources: {limits: {cpu: 2x}}\n"  // 13
              "          imagePullPolicyy: Always\n");      // 14
  Findings fs = Lint(job);
  REQUIRE(fs.size() == 2);
  for (const Finding& f : fs) CHECK(f.severity == Severity::kError);
  CHECK(fs[0].rule == "schema/invalid");  // Neither of the quantity's int-or-string forms.
  CHECK(fs[0].field == "spec.tasks[0].template.spec.containers[0].resources.limits.cpu");
  CHECK(fs[0].mark.line == 13);
  CHECK(fs[1].rule == "schema/unknown-field");
  CHECK(fs[1].field == "spec.tasks[0].template.spec.containers[0].imagePullPolicyy");
  CHECK(fs[1].mark.line == 14);
  // A volume's PersistentVolumeClaim spec, open before the schema came from the CRD.
  Findings claim =
      Lint(Job("  volumes:\n  - mountPath: /data\n    volumeClaim:\n"
               "      accessModes: [ReadWriteOnce]\n      storageClass: fast\n"));
  REQUIRE(claim.size() == 1);
  CHECK(claim[0].rule == "schema/unknown-field");
  CHECK(claim[0].field == "spec.volumes[0].volumeClaim.storageClass");
  CHECK(claim[0].mark.line == 10);
  CHECK(Lint(Job("  volumes:\n  - mountPath: /data\n    volumeClaim:\n"
                 "      accessModes: [ReadWriteOnce]\n      storageClassName: fast\n"))
            .empty());
}

TEST_CASE("volcano lint: kinds are told apart by apiVersion and kind") {
  SourceFile f = ParseSource(
      "mixed.yaml",
      Job("  queue: root\n") +
          "---\napiVersion: batch.volcano.sh/v1beta1\nkind: Job\nmetadata:\n  name: other\n"
          "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: plain\n");
  FileResult r = LintSource(f, LintOptions{});
  CHECK(r.objects == 1);
  CHECK(r.skipped == 2);
  // The batch/v1 Job is skipped quietly; v1beta1 is no version Volcano serves its Job in.
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0].rule == "volcano/root-queue");
  CHECK(r.findings[0].kind == "Job");
  CHECK(r.findings[0].api_version == "batch.volcano.sh/v1alpha1");
  CHECK(r.findings[1].rule == "input/unknown-api-version");
  CHECK(r.findings[1].api_version == "batch.volcano.sh/v1beta1");
  CHECK(r.findings[1].name == "other");
}

}  // namespace
}  // namespace jobset

// --- Hostile input (issue #19): policy and task lists the CRD leaves unbounded --------------

namespace jobset {
namespace {

Node Policy(const char* key, Node value, const char* action) {
  Node p = Node::Map();
  p.Set(key, std::move(value));
  p.Set("action", Node::String(action));
  return p;
}

TEST_CASE("volcano lint: 100,000 policies over 100,000 tasks are checked in linear time") {
  // Before: each exit-code policy scanned its list from the start (4e9 policies) and each
  // job-level one every task's list (1e10 scans, each building the policy's events): minutes.
  const int n = HostileSize(100000);
  Node job = Node::Map();
  job.Set("apiVersion", Node::String("batch.volcano.sh/v1alpha1"));
  job.Set("kind", Node::String("Job"));
  job.Set("metadata", Node::Map()).Set("name", Node::String("wide"));
  Node& spec = job.Set("spec", Node::Map());
  // Exit codes 0..n/2-1, twice: the second half repeats the first.
  Node& policies = spec.Set("policies", Node::Seq());
  for (int j = 0; j < n; ++j)
    policies.items.push_back(Policy("exitCode", Node::Int(j % (n / 2)), "AbortJob"));
  // Every task but the last takes every PodFailed; the last only exit code 0.
  Node& tasks = spec.Set("tasks", Node::Seq());
  for (int t = 0; t < n; ++t) {
    Node task = Node::Map();
    task.Set("name", Node::String("t" + std::to_string(t)));
    task.Set("replicas", Node::Int(1));
    task.Set("policies", Node::Seq())
        .items.push_back(t < n - 1 ? Policy("event", Node::String("PodFailed"), "RestartTask")
                                   : Policy("exitCode", Node::Int(0), "RestartTask"));
    tasks.items.push_back(std::move(task));
  }
  Findings out;
  AnalyzeVolcanoJob(job, job, &out);
  V fields = Fields(out, "volcano/shadowed-policy");
  REQUIRE(fields.size() == static_cast<size_t>(n / 2) + 2);
  CHECK(fields[0] == "spec.policies[" + std::to_string(n / 2) + "].exitCode");
  CHECK(fields[n / 2 - 1] == "spec.policies[" + std::to_string(n - 1) + "].exitCode");
  // Only exit code 0 is taken by every task first.
  CHECK(fields[n / 2] == "spec.policies[0]");
  CHECK(fields[n / 2 + 1] == "spec.policies[" + std::to_string(n / 2) + "]");
  CHECK(out[1].message ==
        "exit code 1 comes with a PodFailed event, which spec.policies[1] takes first (the "
        "first matching policy wins): this policy never fires");
}

}  // namespace
}  // namespace jobset
