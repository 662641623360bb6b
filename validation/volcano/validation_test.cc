// Tests of the Volcano validating webhook's CREATE and UPDATE rules (volcano-sh/volcano@ed72c7c8
// admit_job.go): for each rule an object upstream rejects, with the field and upstream's message
// fragment, and a close one it accepts. Objects go through LintVolcanoJob, as kube-apiserver runs
// them.
#include "validation/volcano/validation.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "validation/core/loader.h"
#include "validation/lint/lint.h"
#include "validation/lint/rule_registry.h"
#include "validation/volcano/lint.h"

namespace jobset {
namespace {

using Findings = std::vector<Finding>;

std::string Task(const std::string& name, int replicas, const std::string& extra = "") {
  return "  - name: " + name + "\n    replicas: " + std::to_string(replicas) + "\n" + extra +
         "    template:\n      spec:\n        containers:\n        - name: main\n"
         "          image: busybox\n";
}

std::string Job(const std::string& spec, const std::string& tasks = Task("worker", 2),
                const std::string& name = "demo") {
  return "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: " + name +
         "\nspec:\n" + spec + "  tasks:\n" + tasks;
}

Node Parse(const std::string& yaml) {
  SourceFile f = ParseSource("t.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return f.documents[0].root;
}

Findings Lint(const std::string& yaml) { return LintVolcanoJob(Parse(yaml)); }

const Finding* Find(const Findings& fs, std::string_view rule) {
  for (const Finding& f : fs) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

int Errors(const Findings& fs) {
  int n = 0;
  for (const Finding& f : fs) n += f.severity == Severity::kError;
  return n;
}

// The one finding of `rule`, checked for field and upstream fragment.
void ExpectError(const std::string& yaml, std::string_view rule, std::string_view field,
                 std::string_view fragment) {
  Findings fs = Lint(yaml);
  const Finding* f = Find(fs, rule);
  REQUIRE_MESSAGE(f, rule << " not reported");
  CHECK(f->severity == Severity::kError);
  CHECK(f->field == field);
  CHECK_MESSAGE(f->upstream.find(fragment) != std::string::npos, f->upstream);
  CHECK(f->mark.known());
}

// Admitted upstream: no error (our warnings are another matter, tested in volcano_lint_test).
void ExpectClean(const std::string& yaml) {
  Findings fs = Lint(yaml);
  for (const Finding& f : fs) {
    CHECK_MESSAGE(f.severity != Severity::kError, f.rule << " " << f.field << ": " << f.message);
  }
}

constexpr char kLists[] =
    " valid events are [* PodFailed PodEvicted PodPending Unknown TaskCompleted TaskFailed "
    "JobUpdated], valid actions are [AbortJob RestartJob RestartTask RestartPod "
    "RestartPartition TerminateJob CompleteJob ResumeJob];";

TEST_CASE("volcano create: a plain job is admitted") { ExpectClean(Job("")); }

TEST_CASE("volcano create: no tasks, and the check stops there") {
  Findings fs = Lint(
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: demo\nspec:\n"
      "  minAvailable: 3\n  queue: root\n");
  REQUIRE(Find(fs, "volcano/no-tasks"));
  CHECK(Find(fs, "volcano/no-tasks")->upstream == "No task specified in job spec");
  CHECK(Find(fs, "volcano/no-tasks")->field == "spec.tasks");
  // The no-tasks check returns at once: no root-queue, no minAvailable error.
  CHECK(Errors(fs) == 1);
  // `tasks: []` is the CRD's minItems instead.
  Findings empty = Lint(
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: demo\nspec:\n"
      "  tasks: []\n");
  REQUIRE(Find(empty, "schema/max-items"));
  CHECK(Find(empty, "schema/max-items")->field == "spec.tasks");
}

TEST_CASE("volcano create: mpi master task") {
  std::string tasks = Task("launcher", 1) + Task("worker", 2);
  ExpectError(Job("  plugins:\n    mpi: []\n", tasks), "volcano/mpi-master-task",
              "spec.plugins.mpi", "The specified mpi master task was not found");
  ExpectClean(Job("  plugins:\n    mpi: [\"--master=launcher\"]\n", tasks));
  ExpectClean(Job("  plugins:\n    mpi: []\n", Task("master", 1) + Task("worker", 2)));
}

TEST_CASE("volcano create: network topology tiers, of the job and of a partition policy") {
  ExpectError(Job("  networkTopology:\n    highestTierAllowed: 1\n    highestTierName: rack\n"),
              "volcano/network-topology-tiers", "spec.networkTopology",
              "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
              "simultaneously");
  ExpectClean(Job("  networkTopology:\n    highestTierAllowed: 1\n"));
  ExpectError(
      Job("", Task("worker", 4,
                   "    partitionPolicy:\n      totalPartitions: 2\n      partitionSize: 2\n"
                   "      networkTopology:\n        highestTierAllowed: 1\n"
                   "        highestTierName: rack\n")),
      "volcano/network-topology-tiers", "spec.tasks[0].partitionPolicy.networkTopology",
      "in networkTopology simultaneously");
}

TEST_CASE("volcano create: task minAvailable above replicas") {
  ExpectError(Job("", Task("worker", 2, "    minAvailable: 3\n")), "volcano/task-min-available",
              "spec.tasks[0].minAvailable",
              " 'minAvailable' is greater than 'replicas' in task: worker, job: demo;");
  ExpectClean(Job("", Task("worker", 2, "    minAvailable: 2\n")));
}

TEST_CASE("volcano create: duplicate task names stop the task loop") {
  Findings fs = Lint(Job("  minAvailable: 3\n", Task("w", 2) + Task("w", 2)));
  REQUIRE(Find(fs, "volcano/duplicate-task-name"));
  CHECK(Find(fs, "volcano/duplicate-task-name")->field == "spec.tasks[1].name");
  CHECK(Find(fs, "volcano/duplicate-task-name")->upstream == " duplicated task name w;");
  // The second task's replicas are not counted: 2 < 3.
  REQUIRE(Find(fs, "volcano/min-available"));
  ExpectClean(Job("  minAvailable: 3\n", Task("w", 2) + Task("x", 2)));
}

TEST_CASE("volcano create: policies, event and exitCode together or neither") {
  std::string both =
      Job("  policies:\n  - event: PodFailed\n    exitCode: 3\n    action: RestartJob\n");
  ExpectError(both, "volcano/policy-event-exit-code", "spec.policies[0]",
              std::string("1 error occurred:\n\t* must not specify event and exitCode "
                          "simultaneously\n\n") +
                  kLists);
  ExpectError(Job("", Task("w", 1, "    policies:\n    - action: RestartJob\n")),
              "volcano/policy-event-exit-code", "spec.tasks[0].policies[0]",
              "either event and exitCode should be specified");
  ExpectClean(
      Job("  policies:\n  - event: PodFailed\n    action: RestartJob\n  - exitCode: 3\n"
          "    action: AbortJob\n"));
}

TEST_CASE("volcano create: invalid policy event and action, with upstream's unindexed path") {
  ExpectError(
      Job("", Task("w", 1, "    policies:\n    - event: PodRunning\n      action: RestartTask\n")),
      "volcano/policy-event", "spec.tasks[0].policies[0].event",
      "spec.tasks.policies: Invalid value: \"PodRunning\": invalid policy event");
  ExpectError(Job("  policies:\n  - events: [PodFailed, OutOfSync]\n    action: RestartJob\n"),
              "volcano/policy-event", "spec.policies[0].events[1]",
              "spec.policies: Invalid value: \"OutOfSync\": invalid policy event");
  ExpectError(Job("  policies:\n  - event: PodFailed\n    action: SyncJob\n"),
              "volcano/policy-action", "spec.policies[0].action",
              "spec.policies: Invalid value: \"SyncJob\": invalid policy action");
  ExpectError(Job("  policies:\n  - event: PodFailed\n"), "volcano/policy-action",
              "spec.policies[0].action", "Invalid value: \"\": invalid policy action");
  // An event outside the CRD enum is the schema's, and is not reported twice.
  Findings fs = Lint(Job("  policies:\n  - event: someFakeEvent\n    action: RestartJob\n"));
  REQUIRE(Find(fs, "schema/enum"));
  CHECK(Find(fs, "schema/enum")->field == "spec.policies[0].event");
  CHECK(Find(fs, "volcano/policy-event") == nullptr);
  ExpectClean(
      Job("  policies:\n  - events: [PodFailed, PodEvicted]\n    action: RestartPartition\n"));
}

TEST_CASE("volcano create: duplicate events and exit codes within one list") {
  ExpectError(Job("  policies:\n  - event: PodFailed\n    action: RestartJob\n"
                  "  - events: [PodEvicted, PodFailed]\n    action: AbortJob\n"),
              "volcano/duplicate-policy", "spec.policies[1].events[1]",
              "duplicate event PodFailed  across different policy");
  ExpectError(Job("  policies:\n  - exitCode: 3\n    action: RestartJob\n"
                  "  - exitCode: 3\n    action: AbortJob\n"),
              "volcano/duplicate-policy", "spec.policies[1].exitCode", "duplicate exitCode 3");
  // Within one policy, and across levels, repeating an event is fine.
  ExpectClean(
      Job("  policies:\n  - event: PodFailed\n    events: [PodFailed]\n    action: RestartJob\n",
          Task("w", 1, "    policies:\n    - event: PodFailed\n      action: RestartTask\n")));
  ExpectClean(Job("  policies:\n  - exitCode: -1\n    action: RestartJob\n"));
}

TEST_CASE("volcano create: exit code 0") {
  ExpectError(Job("  policies:\n  - exitCode: 0\n    action: CompleteJob\n"),
              "volcano/exit-code-zero", "spec.policies[0].exitCode", "0 is not a valid error code");
  ExpectClean(Job("  policies:\n  - exitCode: 1\n    action: CompleteJob\n"));
}

TEST_CASE("volcano create: `*` is exclusive, evaluated after the first error of the list") {
  Findings fs =
      Lint(Job("  policies:\n  - event: \"*\"\n    action: AbortJob\n"
               "  - event: PodFailed\n    action: RestartJob\n"
               "  - event: PodFailed\n    action: RestartJob\n"));
  REQUIRE(Find(fs, "volcano/duplicate-policy"));
  REQUIRE(Find(fs, "volcano/wildcard-event"));
  CHECK(Find(fs, "volcano/wildcard-event")->field == "spec.policies[0].event");
  // One fragment for the list, in go-multierror's form with both errors.
  std::string message = VolcanoCreateMessage(fs);
  CHECK(message ==
        std::string("2 errors occurred:\n\t* duplicate event PodFailed  across different "
                    "policy\n\t* if there's * here, no other policy should be here\n\n") +
            kLists);
  ExpectError(Job("  policies:\n  - events: [\"*\", PodFailed]\n    action: AbortJob\n"),
              "volcano/wildcard-event", "spec.policies[0].events[0]",
              "if there's * here, no other policy should be here");
  ExpectClean(
      Job("  policies:\n  - event: \"*\"\n    action: AbortJob\n  - exitCode: 2\n"
          "    action: RestartJob\n"));
}

TEST_CASE("volcano create: pod name uses the task's position") {
  std::string task(50, 't');
  ExpectError(Job("", Task(task, 1), "job-with-a-name"), "volcano/pod-name", "spec.tasks[0].name",
              "create pod with name job-with-a-name-" + task +
                  "-0 validate failed [name part must be no more than 63 characters];");
  ExpectClean(Job("", Task(std::string(45, 't'), 1), "job-with-a-name"));  // 63 characters
}

TEST_CASE("volcano create: the rest of ValidatePodTemplate, as the webhook runs it") {
  // kubernetes/kubernetes validation_test.go TestValidatePullPolicy, TestValidatePorts,
  // TestValidateEnv (the webhook's gates are off: the legacy env name rule), one fragment.
  auto task = [](const std::string& container) {
    return "  - name: w\n    replicas: 1\n    template:\n      spec:\n"
           "        containers:\n        - name: c\n          image: i\n" +
           container;
  };
  Findings fs = Lint(Job("", task("          imagePullPolicy: always\n"
                                  "          ports: [{containerPort: 70000}]\n"
                                  "          env: [{name: 1ABC}]\n")));
  std::vector<std::string> fields;
  for (const Finding& f : fs) {
    if (f.rule == "volcano/pod-template") fields.push_back(f.field);
  }
  CHECK(fields ==
        std::vector<std::string>{"spec.tasks[0].template.spec.containers[0].ports[0].containerPort",
                                 "spec.tasks[0].template.spec.containers[0].env[0].name",
                                 "spec.tasks[0].template.spec.containers[0].imagePullPolicy"});
  CHECK(VolcanoCreateMessage(fs).rfind(
            "spec.task[0].template.spec.containers[0].ports[0].containerPort: Invalid value: "
            "70000: must be between 1 and 65535, inclusive. "
            "template.spec.containers[0].env[0].name: Invalid value: \"1ABC\": a valid "
            "environment variable name must consist of alphabetic characters",
            0) == 0);
  // No child/* rule: the Volcano Job itself is rejected, by its webhook.
  for (const Finding& f : fs) CHECK(f.rule.rfind("child/", 0) == std::string::npos);
  ExpectClean(Job("", task("          imagePullPolicy: Always\n"
                           "          ports: [{containerPort: 7000}]\n"
                           "          env: [{name: ABC}]\n")));
}

TEST_CASE(
    "volcano create: resources, probes and scheduling, as the webhook's ValidatePodTemplate") {
  // kubernetes/kubernetes validation_test.go TestValidateContainers (request above limit),
  // TestValidateSleepAction (zero seconds with the PodLifecycleSleepActionAllowZero gate off, as
  // in the webhook) and TestValidatePod (invalid node selector operator): one fragment, at
  // the offending entries.
  auto task = [](const std::string& pod) {
    return "  - name: w\n    replicas: 1\n    template:\n      spec:\n" + pod;
  };
  Findings fs = Lint(Job("", task("        containers:\n        - name: c\n          image: i\n"
                                  "          resources:\n            limits: {cpu: 1}\n"
                                  "            requests: {cpu: 2}\n"
                                  "          lifecycle: {preStop: {sleep: {seconds: 0}}}\n"
                                  "        affinity: {nodeAffinity: "
                                  "{requiredDuringSchedulingIgnoredDuringExecution: "
                                  "{nodeSelectorTerms: [{matchExpressions: [{key: zone, "
                                  "operator: in, values: [a]}]}]}}}\n")));
  std::vector<std::string> fields;
  for (const Finding& f : fs) {
    if (f.rule == "volcano/pod-template") fields.push_back(f.field);
  }
  CHECK(fields == std::vector<std::string>{
                      "spec.tasks[0].template.spec.containers[0].resources.requests[cpu]",
                      "spec.tasks[0].template.spec.containers[0].lifecycle.preStop.sleep.seconds",
                      "spec.tasks[0].template.spec.affinity.nodeAffinity.requiredDuringScheduling"
                      "IgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator"});
  CHECK(VolcanoCreateMessage(fs) ==
        "spec.task[0].template.spec.containers[0].resources.requests: Invalid value: \"2\": "
        "must be less than or equal to cpu limit of 1. "
        "template.spec.containers[0].lifecycle.preStop.sleep: Invalid value: 0: must be greater "
        "than 0 and less than terminationGracePeriodSeconds (30). Enable "
        "AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.. "
        "template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
        "nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: \"in\": not a valid "
        "selector operator.");
  for (const Finding& f : fs) CHECK(f.rule.rfind("child/", 0) == std::string::npos);
  ExpectClean(Job("", task("        containers:\n        - name: c\n          image: i\n"
                           "          resources:\n            limits: {cpu: 2}\n"
                           "            requests: {cpu: 2}\n"
                           "          lifecycle: {preStop: {sleep: {seconds: 5}}}\n"
                           "        affinity: {nodeAffinity: "
                           "{requiredDuringSchedulingIgnoredDuringExecution: "
                           "{nodeSelectorTerms: [{matchExpressions: [{key: zone, "
                           "operator: In, values: [a]}]}]}}}\n")));
}

TEST_CASE("volcano create: empty containers, whole-core CPU with a topology policy") {
  ExpectError(Job("",
                  "  - name: w\n    replicas: 1\n    template:\n      spec:\n"
                  "        containers: []\n"),
              "volcano/pod-template", "spec.tasks[0].template.spec.containers",
              "spec.task[0].template.spec.containers: Required value. ");
  // Images and container names; one fragment.
  Findings fs = Lint(Job("",
                         "  - name: w\n    replicas: 1\n    template:\n      spec:\n"
                         "        containers:\n        - name: c\n        - name: c\n"
                         "          image: i\n        initContainers:\n"
                         "        - name: Init\n          image: i\n"));
  std::vector<std::string> fields;
  for (const Finding& f : fs) {
    if (f.rule == "volcano/pod-template") fields.push_back(f.field);
  }
  CHECK(fields == std::vector<std::string>{"spec.tasks[0].template.spec.containers[0].image",
                                           "spec.tasks[0].template.spec.containers[1].name",
                                           "spec.tasks[0].template.spec.initContainers[0].name"});
  // The CRD schema's own rejection of the repeated name (containers are a list-map keyed by
  // name) comes first; the webhook's message follows.
  Findings webhook;
  for (const Finding& f : fs) {
    if (f.rule == "volcano/pod-template") webhook.push_back(f);
  }
  CHECK(std::count_if(fs.begin(), fs.end(), [](const Finding& f) {
          return f.rule == "schema/duplicate-key" &&
                 f.field == "spec.tasks[0].template.spec.containers[1]";
        }) == 1);
  CHECK(VolcanoCreateMessage(webhook).rfind(
            "spec.task[0].template.spec.containers[0].image: Required value. "
            "template.spec.containers[1].name: Duplicate value: \"c\". "
            "template.spec.initContainers[0].name: Invalid value: \"Init\": a lowercase RFC "
            "1123 label must consist of",
            0) == 0);
  ExpectError(Job("",
                  "  - name: w\n    replicas: 1\n    template:\n      spec:\n"
                  "        restartPolicy: Sometimes\n"
                  "        containers: [{name: c, image: i}]\n"),
              "volcano/pod-template", "spec.tasks[0].template.spec.restartPolicy",
              "spec.task[0].template.spec.restartPolicy: Unsupported value: \"Sometimes\": "
              "supported values: \"Always\", \"OnFailure\", \"Never\". ");
  ExpectClean(Job("",
                  "  - name: w\n    replicas: 1\n    template:\n      spec:\n"
                  "        restartPolicy: OnFailure\n"
                  "        containers: [{name: c, image: i}]\n"));
  auto cpu = [](const std::string& policy, const std::string& request) {
    return Job("", "  - name: w\n    replicas: 1\n    topologyPolicy: " + policy +
                       "\n    template:\n      spec:\n        containers:\n        - name: a\n"
                       "          image: b\n          resources:\n            limits:\n"
                       "              cpu: " +
                       request + "\n");
  };
  ExpectError(cpu("single-numa-node", "500m"), "volcano/topology-cpu",
              "spec.tasks[0].template.spec.containers[0].resources.limits.cpu",
              "the cpu request isn't an integer in spec.task[0] container[0].");
  ExpectError(cpu("restricted", "\"1.5\""), "volcano/topology-cpu",
              "spec.tasks[0].template.spec.containers[0].resources.limits.cpu", "container[0]");
  ExpectClean(cpu("single-numa-node", "2000m"));
  ExpectClean(cpu("best-effort", "2"));
  ExpectClean(cpu("none", "500m"));
}

TEST_CASE("volcano create: partition policy") {
  auto pp = [](int replicas, const std::string& extra) {
    return Job("", Task("w", replicas, "    partitionPolicy:\n" + extra));
  };
  ExpectError(pp(6, "      totalPartitions: 2\n      partitionSize: 4\n"),
              "volcano/partition-policy", "spec.tasks[0].replicas",
              "'Replicas' are not equal to TotalPartitions*PartitionSize in task: w, job: demo");
  ExpectError(Job("", Task("w", 8,
                           "    minAvailable: 3\n    partitionPolicy:\n"
                           "      totalPartitions: 2\n      partitionSize: 4\n"
                           "      minPartitions: 1\n")),
              "volcano/partition-policy", "spec.tasks[0].minAvailable",
              "'MinAvailable' is not equal to MinPartitions*PartitionSize in task: w, job: demo");
  ExpectClean(pp(8, "      totalPartitions: 2\n      partitionSize: 4\n"));
  // minPartitions 0 (the CRD default): minAvailable is free (v1.16 guard).
  ExpectClean(Job("", Task("w", 8,
                           "    minAvailable: 3\n    partitionPolicy:\n"
                           "      totalPartitions: 2\n      partitionSize: 4\n")));
  // Below 1 is the CRD's minimum first.
  Findings fs = Lint(pp(0, "      totalPartitions: 0\n      partitionSize: 4\n"));
  REQUIRE(Find(fs, "schema/minimum"));
  CHECK(Find(fs, "schema/minimum")->field == "spec.tasks[0].partitionPolicy.totalPartitions");
}

TEST_CASE("volcano create: job name, job minAvailable") {
  ExpectError(Job("", Task("w", 1), std::string(64, 'a')), "volcano/job-name", "metadata.name",
              "create job with name " + std::string(64, 'a') +
                  " validate failed [name part must be no more than 63 characters]");
  ExpectError(Job("  minAvailable: 5\n"), "volcano/min-available", "spec.minAvailable",
              " job 'minAvailable' should not be greater than total replicas in tasks;");
  ExpectClean(Job("  minAvailable: 1\n", Task("w", 1), std::string(59, 'a')));
  // 63 characters is a valid job name (its pod names are not: that is the pod name check's).
  Findings fs = Lint(Job("", Task("w", 1), std::string(63, 'a')));
  CHECK(Find(fs, "volcano/job-name") == nullptr);
  CHECK(Find(fs, "volcano/pod-name") != nullptr);
}

TEST_CASE("volcano create: with generateName, the generated name is checked") {
  std::string yaml = Job("", Task("w", 1));
  yaml.replace(yaml.find("  name: demo"), 12, "  generateName: demo-");
  ExpectClean(yaml);
  std::string long_prefix = Job("", Task("w", 1));
  long_prefix.replace(long_prefix.find("  name: demo"), 12,
                      "  generateName: " + std::string(60, 'g'));
  // 60 + 5 generated characters: more than 63.
  Findings fs = Lint(long_prefix);
  REQUIRE(Find(fs, "volcano/job-name"));
  CHECK(Find(fs, "volcano/job-name")->field == "metadata.name");
}

TEST_CASE("volcano create: plugins, volumes, root queue, dependsOn DAG") {
  ExpectError(Job("  plugins:\n    sshd: []\n"), "volcano/unknown-plugin", "spec.plugins[sshd]",
              " unable to find job plugin: sshd;");
  ExpectClean(Job("  plugins:\n    ssh: []\n    env: []\n    hcclrank: []\n"));
  ExpectError(Job("  volumes:\n  - mountPath: /d\n"), "volcano/volume", "spec.volumes[0]",
              " either VolumeClaim or VolumeClaimName must be specified;");
  ExpectError(Job("  volumes:\n  - mountPath: /d\n    volumeClaimName: a\n  - mountPath: /d\n"
                  "    volumeClaimName: b\n"),
              "volcano/volume", "spec.volumes[1].mountPath", " duplicated mountPath: /d;");
  ExpectError(Job("  volumes:\n  - mountPath: /d\n    volumeClaimName: a\n    volumeClaim: {}\n"),
              "volcano/volume", "spec.volumes[0].volumeClaimName", "conflict: If you want");
  ExpectError(Job("  volumes:\n  - mountPath: /d\n    volumeClaimName: Bad_Name\n"),
              "volcano/volume", "spec.volumes[0].volumeClaimName",
              "invalid VolumeClaimName Bad_Name : [");
  ExpectClean(Job("  volumes:\n  - mountPath: /d\n    volumeClaimName: data\n"));
  // Volcano's CRD requires mountPath: an absent one is the schema's error, which the webhook's
  // own " mountPath is required;" does not repeat.
  Findings missing = Lint(Job("  volumes:\n  - volumeClaimName: a\n"));
  REQUIRE(Find(missing, "schema/required"));
  CHECK(Find(missing, "schema/required")->field == "spec.volumes[0].mountPath");
  CHECK(Find(missing, "volcano/volume") == nullptr);
  // An empty mountPath is the CRD's minLength first.
  Findings fs = Lint(Job("  volumes:\n  - mountPath: \"\"\n    volumeClaimName: a\n"));
  CHECK(Find(fs, "schema/invalid"));
  CHECK(Find(fs, "volcano/volume") == nullptr);
  ExpectError(Job("  queue: root\n"), "volcano/root-queue", "spec.queue",
              " can not submit job to root queue;");
  ExpectClean(Job("  queue: research\n"));
  ExpectError(Job("", Task("a", 1, "    dependsOn:\n      name: [b]\n") +
                          Task("b", 1, "    dependsOn:\n      name: [a]\n")),
              "volcano/depends-on-dag", "spec.tasks",
              " job has dependencies between tasks, but doesn't form a directed acyclic "
              "graph(DAG);");
  ExpectError(Job("", Task("a", 1, "    dependsOn:\n      name: [nope]\n")),
              "volcano/depends-on-dag", "spec.tasks", "directed acyclic graph");
  ExpectClean(Job("", Task("a", 1) + Task("b", 1, "    dependsOn:\n      name: [a]\n")));
}

TEST_CASE("volcano create: the CRD schema rules") {
  struct Case {
    std::string spec, tasks, rule, field;
  };
  std::vector<Case> cases = {
      {"  maxRetry: -1\n", Task("w", 1), "schema/minimum", "spec.maxRetry"},
      {"  minAvailable: -1\n", Task("w", 1), "schema/minimum", "spec.minAvailable"},
      {"  ttlSecondsAfterFinished: -5\n", Task("w", 1), "schema/minimum",
       "spec.ttlSecondsAfterFinished"},
      {"  minSuccess: 0\n", Task("w", 1), "schema/minimum", "spec.minSuccess"},
      {"  queue: Bad_Queue\n", Task("w", 1), "schema/invalid", "spec.queue"},
      {"  priorityClassName: HIGH\n", Task("w", 1), "schema/invalid", "spec.priorityClassName"},
      {"  schedulerName: " + std::string(64, 's') + "\n", Task("w", 1), "schema/invalid",
       "spec.schedulerName"},
      {"", Task("Task_1", 1), "schema/invalid", "spec.tasks[0].name"},
      {"", Task("w", -1), "schema/minimum", "spec.tasks[0].replicas"},
      {"", Task("w", 1, "    maxRetry: -1\n"), "schema/minimum", "spec.tasks[0].maxRetry"},
      {"", Task("w", 1, "    topologyPolicy: numa\n"), "schema/enum",
       "spec.tasks[0].topologyPolicy"},
      {"  networkTopology:\n    mode: strict\n", Task("w", 1), "schema/enum",
       "spec.networkTopology.mode"},
      {"  volumes:\n  - mountPath: \"a:b\"\n    volumeClaimName: x\n", Task("w", 1),
       "schema/invalid", "spec.volumes[0].mountPath"},
      {"  bogus: 1\n", Task("w", 1), "schema/unknown-field", "spec.bogus"},
      {"", Task("w", 1, "    partitionPolicy:\n      totalPartitions: 1\n"), "schema/required",
       "spec.tasks[0].partitionPolicy.partitionSize"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.field);
    Findings fs = Lint(Job(c.spec, c.tasks));
    const Finding* f = Find(fs, c.rule);
    REQUIRE(f);
    CHECK(f->field == c.field);
  }
  // The pod template is structural too: unknown fields there are refused.
  Findings fs = Lint(Job("",
                         "  - name: w\n    replicas: 1\n    template:\n      spec:\n"
                         "        containers:\n        - name: a\n          image: b\n"
                         "          imagePullPolicyy: Always\n"));
  REQUIRE(Find(fs, "schema/unknown-field"));
  CHECK(Find(fs, "schema/unknown-field")->field ==
        "spec.tasks[0].template.spec.containers[0].imagePullPolicyy");
}

// The CRD bounds, each rejected one past the limit and admitted exactly at it
// (config/crd/volcano/bases/batch.volcano.sh_jobs.yaml).
TEST_CASE("volcano create: CRD schema bounds, rejected past the limit, admitted at it") {
  // The schema finding for `field`, with the apiserver's message fragment.
  auto rejected = [](const std::string& yaml, std::string_view rule, std::string_view field,
                     std::string_view fragment) {
    CAPTURE(field);
    Findings fs = Lint(yaml);
    const Finding* f = Find(fs, rule);
    REQUIRE_MESSAGE(f, rule << " not reported");
    CHECK(f->severity == Severity::kError);
    CHECK(f->field == field);
    CHECK_MESSAGE(f->upstream.find(fragment) != std::string::npos, f->upstream);
  };
  // No schema finding at all (the webhook may still have its say).
  auto admitted = [](const std::string& yaml) {
    for (const Finding& f : Lint(yaml)) {
      CHECK_MESSAGE(f.rule.substr(0, 7) != "schema/", f.rule << " " << f.field);
    }
  };
  const std::string q253 = std::string(253, 'q');
  rejected(Job("  queue: " + q253 + "q\n"), "schema/invalid", "spec.queue",
           "spec.queue: Too long: may not be more than 253 bytes");
  admitted(Job("  queue: " + q253 + "\n"));
  ExpectClean(Job("  queue: " + q253 + "\n"));

  const std::string t63 = std::string(63, 't');
  rejected(Job("", Task(t63 + "t", 1)), "schema/invalid", "spec.tasks[0].name",
           "spec.tasks[0].name: Too long: may not be more than 63 bytes");
  // 63 characters pass the CRD, but the pod name demo-<task>-0 is then too long for the pod name
  // check.
  admitted(Job("", Task(t63, 1)));
  ExpectError(Job("", Task(t63, 1)), "volcano/pod-name", "spec.tasks[0].name",
              "must be no more than 63 characters");

  rejected(
      Job("",
          Task("w", 1, "    partitionPolicy:\n      totalPartitions: 1\n      partitionSize: 0\n")),
      "schema/minimum", "spec.tasks[0].partitionPolicy.partitionSize",
      "should be greater than or equal to 1");
  ExpectClean(Job("", Task("w", 1,
                           "    partitionPolicy:\n      totalPartitions: 1\n"
                           "      partitionSize: 1\n")));

  rejected(Job("", Task("w", 1,
                        "    partitionPolicy:\n      totalPartitions: 1\n      partitionSize: 1\n"
                        "      minPartitions: -1\n")),
           "schema/minimum", "spec.tasks[0].partitionPolicy.minPartitions",
           "should be greater than or equal to 0");
  ExpectClean(Job("", Task("w", 1,
                           "    partitionPolicy:\n      totalPartitions: 1\n"
                           "      partitionSize: 1\n      minPartitions: 0\n")));

  rejected(Job("  networkTopology:\n    mode: hard\n    highestTierAllowed: -1\n"),
           "schema/minimum", "spec.networkTopology.highestTierAllowed",
           "should be greater than or equal to 0");
  ExpectClean(Job("  networkTopology:\n    mode: hard\n    highestTierAllowed: 0\n"));

  const std::string v253 = std::string(253, 'v');
  rejected(Job("  volumes:\n  - mountPath: /d\n    volumeClaimName: " + v253 + "v\n"),
           "schema/invalid", "spec.volumes[0].volumeClaimName",
           "spec.volumes[0].volumeClaimName: Too long: may not be more than 253 bytes");
  ExpectClean(Job("  volumes:\n  - mountPath: /d\n    volumeClaimName: " + v253 + "\n"));

  // The enum holds for each item of the plural `events` too, not only for `event`.
  rejected(Job("  policies:\n  - events: [PodFailed, PodCrashed]\n    action: RestartJob\n"),
           "schema/enum", "spec.policies[0].events[1]", "Unsupported value: \"PodCrashed\"");
  ExpectClean(Job("  policies:\n  - events: [PodFailed, PodEvicted]\n    action: RestartJob\n"));
}

// --- UPDATE ---------------------------------------------------------------------------------

Findings Update(const std::string& old_yaml, const std::string& new_yaml) {
  return LintVolcanoUpdate(Parse(old_yaml), Parse(new_yaml));
}

TEST_CASE("volcano update: the mutable fields may change") {
  std::string old_job = Job("  minAvailable: 2\n", Task("w", 2, "    minAvailable: 2\n"));
  CHECK(Update(old_job, old_job).empty());
  CHECK(Update(old_job, Job("  minAvailable: 3\n  priorityClassName: high\n",
                            Task("w", 4, "    minAvailable: 3\n")))
            .empty());
  // What Go's semantic equality ignores: key order, nulls, an empty list for an absent one.
  CHECK(Update(Job("  minAvailable: 2\n  policies: []\n", Task("w", 2)),
               Job("  minAvailable: 2\n  schedulerName: null\n", Task("w", 2)))
            .empty());
  // The claim name the controller fills in for a volumeClaim.
  CHECK(Update(Job("  volumes:\n  - mountPath: /d\n    volumeClaim: {}\n"),
               Job("  volumes:\n  - mountPath: /d\n    volumeClaim: {}\n    volumeClaimName: "
                   "demo-volume-x\n"))
            .empty());
}

TEST_CASE("volcano update: quantities compare by value, an empty Go map as absent") {
  const std::string immutable = "volcano/update-immutable";
  // A task whose container asks for `resources` (YAML lines at the container's indentation).
  auto with = [](const std::string& resources) {
    return Job("",
               "  - name: w\n    replicas: 1\n    template:\n      spec:\n"
               "        containers:\n        - name: main\n          image: busybox\n" +
                   resources);
  };
  // The update rule only: the CRD schema rejects some of these values on its own (a YAML float
  // is no int-or-string, "one" no quantity), which is not what these cases are about.
  auto update = [&](const std::string& a, const std::string& b) {
    Findings fs;
    for (Finding& f : Update(with(a), with(b))) {
      if (f.rule == immutable) fs.push_back(std::move(f));
    }
    return fs;
  };
  auto same = [&](const std::string& a, const std::string& b) {
    CAPTURE(a);
    CAPTURE(b);
    CHECK(update(a, b).empty());
  };
  auto changed = [&](const std::string& a, const std::string& b) {
    CAPTURE(a);
    CAPTURE(b);
    Findings fs = update(a, b);
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].rule == immutable);
    CHECK(fs[0].field == "spec");
  };
  const std::string cpu = "          resources:\n            requests:\n              cpu: ";
  same(cpu + "1\n", cpu + "1000m\n");
  same(cpu + "1\n", cpu + "\"1\"\n");
  same(cpu + "0.5\n", cpu + "500m\n");
  same(cpu + "1.5k\n", cpu + "1500\n");
  same(cpu + "2e3\n", cpu + "2k\n");
  same(cpu + "100n\n", cpu + "0.0000001\n");
  // Below a nano, ParseQuantity rounds up.
  same(cpu + "0.0000000001\n", cpu + "1n\n");
  const std::string mem = "          resources:\n            limits:\n              memory: ";
  same(mem + "1Gi\n", mem + "1073741824\n");
  same(mem + "1Gi\n", mem + "1024Mi\n");
  same(mem + "0.5Ki\n", mem + "512\n");
  same(mem + "1M\n", mem + "1000k\n");
  // A real change is still one, as are 1G and 1Gi, and a different sign.
  changed(cpu + "1\n", cpu + "2\n");
  changed(cpu + "1\n", cpu + "1001m\n");
  changed(mem + "1G\n", mem + "1Gi\n");
  changed(cpu + "1\n", cpu + "-1\n");
  // Not a quantity: compared as written.
  changed(cpu + "one\n", cpu + "\"1\"\n");
  same(cpu + "one\n", cpu + "one\n");
  // Quantities only where the API has them: an env value "1" is not "1000m".
  changed("          env:\n          - name: NUM\n            value: \"1\"\n",
          "          env:\n          - name: NUM\n            value: 1000m\n");
  // Maps in Go: empty and absent are equal; so are `limits: {}` and no limits.
  same("          resources:\n            limits: {}\n", "          resources: {}\n");
  same("          resources: {}\n",
       "          resources:\n            requests: {}\n            limits: {}\n");
  // Structs held by value: a container's `resources: {}` and a template's `metadata: {}` are
  // their zero values, as absent is.
  same("          resources: {}\n", "");
  same("          resources:\n            limits: {}\n", "");
  auto with_metadata = [](const std::string& metadata) {
    return Job("", "  - name: w\n    replicas: 1\n    template:\n" + metadata +
                       "      spec:\n        containers:\n        - name: main\n"
                       "          image: busybox\n");
  };
  CHECK(Update(with_metadata("      metadata: {}\n"), with_metadata("")).empty());
  CHECK(Update(with_metadata("      metadata:\n        labels: {}\n"), with_metadata("")).empty());
  CHECK(Update(with_metadata("      metadata:\n        labels: {a: b}\n"), with_metadata(""))
            .size() == 1);
  CHECK(Update(Job("  plugins: {}\n"), Job("")).empty());
  CHECK(Update(Job(""), Job("  plugins: {}\n")).empty());
  // A plugin entry is a key of the map, not a field: `ssh: []` is not an absent ssh.
  Findings fs = Update(Job("  plugins:\n    ssh: []\n"), Job("  plugins: {}\n"));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].rule == immutable);
  // A pointer to a struct: `securityContext: {}` is not absent.
  changed("          securityContext: {}\n", "");
  fs = Update(Job("", Task("w", 1)),
              Job("",
                  "  - name: w\n    replicas: 1\n    template:\n      spec:\n"
                  "        securityContext: {}\n        containers:\n        - name: main\n"
                  "          image: busybox\n"));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].rule == immutable);
}

TEST_CASE("volcano update: each rule, first error only") {
  std::string old_job = Job("  minAvailable: 2\n", Task("w", 2));
  auto one = [](const Findings& fs, std::string_view rule, std::string_view field,
                std::string_view message) {
    REQUIRE(fs.size() == 1);
    CHECK(fs[0].rule == rule);
    CHECK(fs[0].field == field);
    CHECK(fs[0].upstream == message);
  };
  one(Update(old_job, Job("  minAvailable: 2\n", Task("w", 2, "    minAvailable: 3\n"))),
      "volcano/task-min-available", "spec.tasks[0].minAvailable",
      "'minAvailable' must be <= 'replicas' in task: w");
  one(Update(old_job, Job("  minAvailable: 5\n", Task("w", 2))), "volcano/min-available",
      "spec.minAvailable", "job 'minAvailable' must not be greater than total replicas");
  one(Update(old_job, Job("  minAvailable: 2\n", Task("w", 2) + Task("x", 1))),
      "volcano/update-tasks", "spec.tasks", "job updates may not add or remove tasks");
  one(Update(old_job, Job("  minAvailable: 2\n  maxRetry: 5\n", Task("w", 2))),
      "volcano/update-immutable", "spec",
      "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under "
      "spec` and `PriorityClassName`");
  one(Update(old_job, Job("  minAvailable: 2\n  networkTopology:\n    highestTierAllowed: 1\n"
                          "    highestTierName: r\n",
                          Task("w", 2))),
      "volcano/network-topology-tiers", "spec.networkTopology",
      "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
      "simultaneously");
  one(Update(Job("", Task("w", 8,
                          "    partitionPolicy:\n      totalPartitions: 2\n"
                          "      partitionSize: 4\n")),
             Job("", Task("w", 6,
                          "    partitionPolicy:\n      totalPartitions: 2\n"
                          "      partitionSize: 4\n"))),
      "volcano/partition-policy", "spec.tasks[0].replicas",
      "'Replicas' are not equal to TotalPartitions*PartitionSize in task: w, job: demo");
  // A claim name the user chose (no volumeClaim template) is immutable.
  one(Update(Job("  volumes:\n  - mountPath: /d\n    volumeClaimName: data\n"),
             Job("  volumes:\n  - mountPath: /d\n    volumeClaimName: other\n")),
      "volcano/update-immutable", "spec",
      "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under "
      "spec` and `PriorityClassName`");
  // The schema comes first: a negative replica count is the CRD's.
  Findings fs = Update(old_job, Job("  minAvailable: 2\n", Task("w", -1)));
  REQUIRE(!fs.empty());
  CHECK(fs[0].rule == "schema/minimum");
}

TEST_CASE("volcano: every Volcano webhook rule of the registry is exercised here") {
  // Keep in step with the cases above: each has a rejected case naming its field and an
  // accepted twin.
  const std::vector<std::string_view> covered = {"volcano/no-tasks",
                                                 "volcano/mpi-master-task",
                                                 "volcano/network-topology-tiers",
                                                 "volcano/task-min-available",
                                                 "volcano/duplicate-task-name",
                                                 "volcano/policy-event-exit-code",
                                                 "volcano/policy-event",
                                                 "volcano/policy-action",
                                                 "volcano/duplicate-policy",
                                                 "volcano/exit-code-zero",
                                                 "volcano/wildcard-event",
                                                 "volcano/pod-name",
                                                 "volcano/pod-template",
                                                 "volcano/topology-cpu",
                                                 "volcano/partition-policy",
                                                 "volcano/job-name",
                                                 "volcano/min-available",
                                                 "volcano/unknown-plugin",
                                                 "volcano/volume",
                                                 "volcano/root-queue",
                                                 "volcano/depends-on-dag",
                                                 "volcano/update-tasks",
                                                 "volcano/update-immutable"};
  for (const RuleInfo& rule : AllRules()) {
    if (rule.id.substr(0, 8) != "volcano/" || rule.source != RuleSource::kWebhook) continue;
    CAPTURE(rule.id);
    CHECK(std::find(covered.begin(), covered.end(), rule.id) != covered.end());
  }
  for (std::string_view id : covered) CHECK(FindRule(id) != nullptr);
}

}  // namespace
}  // namespace jobset
