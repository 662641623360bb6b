#include "validation/jobset/analysis.h"

#include <doctest/doctest.h>

#include "tests/test_size.h"
#include "validation/core/loader.h"
#include "validation/jobset/lint.h"

namespace jobset {
namespace {

// A JobSet with one replicated job `workers`; `policy` goes under spec, `job` under the Job
// template's spec, `pod` under the pod spec (each indented by the caller's text).
std::string Manifest(const std::string& policy, const std::string& job = "",
                     const std::string& pod = "restartPolicy: Never\n") {
  std::string out =
      "apiVersion: jobset.x-k8s.io/v1alpha2\n"
      "kind: JobSet\n"
      "metadata:\n"
      "  name: train\n"
      "spec:\n";
  out += policy;
  out +=
      "  replicatedJobs:\n"
      "  - name: workers\n"
      "    replicas: 2\n"
      "    template:\n"
      "      spec:\n";
  for (size_t pos = 0; pos < job.size();) {
    size_t eol = job.find('\n', pos);
    out += "        " + job.substr(pos, eol - pos + 1);
    pos = eol + 1;
  }
  out +=
      "        template:\n"
      "          spec:\n";
  for (size_t pos = 0; pos < pod.size();) {
    size_t eol = pod.find('\n', pos);
    out += "            " + pod.substr(pos, eol - pos + 1);
    pos = eol + 1;
  }
  out +=
      "            containers:\n"
      "            - name: main\n"
      "              image: busybox\n";
  return out;
}

std::vector<Finding> Lint(const std::string& yaml, FeatureGates gates = {}) {
  SourceFile f = ParseSource("t.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return LintJobSet(f.documents[0].root, gates, BuiltinJobSetSchema().get());
}

// The findings of one rule; every other finding must be absent (no errors, no noise).
std::vector<Finding> Only(const std::string& yaml, const std::string& rule,
                          FeatureGates gates = {}) {
  std::vector<Finding> all = Lint(yaml, gates), mine;
  for (const Finding& f : all) {
    INFO(f.rule << ": " << f.message);
    // The Job API's verdicts on the child Jobs are errors (child_checks_test.cc); nothing else.
    if (f.rule.rfind("job-template/", 0) != 0) CHECK(f.severity != Severity::kError);
    if (f.rule == rule) mine.push_back(f);
  }
  return mine;
}

const char kPfp[] =
    "podFailurePolicy:\n"
    "  rules:\n"
    "  - action: FailJob\n"
    "    onPodConditions:\n"
    "    - type: DisruptionTarget\n";

}  // namespace

TEST_CASE("analysis: invalid RE2 pattern") {
  std::string bad = Manifest(
      "  failurePolicy:\n"
      "    rules:\n"
      "    - action: FailJobSet\n"
      "      onJobFailureMessagePatterns: [\"exit code (42\"]\n");
  auto f = Only(bad, "failure-policy/invalid-pattern");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kWarning);
  CHECK(f[0].field == "spec.failurePolicy.rules[0].onJobFailureMessagePatterns[0]");
  CHECK(f[0].mark.line == 9);
  CHECK(f[0].mark.column == 37);
  CHECK(f[0].message.find("never matches") != std::string::npos);
  CHECK(Only(Manifest("  failurePolicy:\n"
                      "    rules:\n"
                      "    - action: FailJobSet\n"
                      "      onJobFailureMessagePatterns: [\"exit code (42)\"]\n"),
             "failure-policy/invalid-pattern")
            .empty());
  // C++ RE2 takes \\C, Go's regexp does not: the controller never matches it.
  auto c = Only(Manifest("  failurePolicy:\n"
                         "    rules:\n"
                         "    - action: FailJobSet\n"
                         "      onJobFailureMessagePatterns: ['x\\Cy']\n"),
                "failure-policy/invalid-pattern");
  REQUIRE(c.size() == 1);
  CHECK(c[0].message.find("invalid escape sequence") != std::string::npos);
}

TEST_CASE("analysis: reasons the Job template cannot produce") {
  const std::string policy =
      "  failurePolicy:\n"
      "    rules:\n"
      "    - action: RestartJobSetAndIgnoreMaxRestarts\n"
      "      onJobFailureReasons: [PodFailurePolicy, DeadlineExceeded, FailedIndexes,\n"
      "        MaxFailedIndexesExceeded]\n";
  auto f = Only(Manifest(policy), "failure-policy/unreachable-reason");
  REQUIRE(f.size() == 4);
  CHECK(f[0].field == "spec.failurePolicy.rules[0].onJobFailureReasons[0]");
  CHECK(f[0].message ==
        "rule 'failurePolicyRule0' waits for reason PodFailurePolicy, which replicated job "
        "'workers' cannot fail with: its Job template has no podFailurePolicy rule with action "
        "FailJob");
  CHECK(f[0].note == "see spec.replicatedJobs[0].template.spec (line 16, column 9)");
  CHECK(f[1].message.find("activeDeadlineSeconds") != std::string::npos);
  CHECK(f[2].message.find("backoffLimitPerIndex") != std::string::npos);
  CHECK(f[3].message.find("sets no maxFailedIndexes") != std::string::npos);
  // maxFailedIndexes alone: the Job API refuses the Job, so the reason never comes either.
  auto alone = Only(Manifest(policy, "maxFailedIndexes: 1\n"), "failure-policy/unreachable-reason");
  REQUIRE(alone.size() == 4);
  CHECK(alone[3].message.find("without backoffLimitPerIndex") != std::string::npos);
  // The twin: a template that can produce each reason.
  std::string job = std::string(kPfp) +
                    "activeDeadlineSeconds: 3600\n"
                    "backoffLimitPerIndex: 1\n"
                    "maxFailedIndexes: 1\n";
  CHECK(Only(Manifest(policy, job), "failure-policy/unreachable-reason").empty());
}

TEST_CASE("analysis: a rule after one that covers it never fires") {
  std::string bad = Manifest(
      "  failurePolicy:\n"
      "    rules:\n"
      "    - name: anyWorker\n"
      "      action: RestartJobSet\n"
      "      targetReplicatedJobs: [workers]\n"
      "    - name: workerBug\n"
      "      action: FailJobSet\n"
      "      onJobFailureReasons: [BackoffLimitExceeded]\n"
      "      targetReplicatedJobs: [workers]\n");
  auto f = Only(bad, "failure-policy/shadowed-rule");
  REQUIRE(f.size() == 1);
  CHECK(f[0].field == "spec.failurePolicy.rules[1].name");
  CHECK(f[0].mark.line == 11);
  CHECK(f[0].message ==
        "rule 'workerBug' can never fire: the earlier rule 'anyWorker' matches every failure it "
        "matches, and the first matching rule wins");
  CHECK(f[0].note == "see spec.failurePolicy.rules[0] (line 8, column 7)");
  // The twin: the specific rule first.
  std::string good = Manifest(
      "  failurePolicy:\n"
      "    rules:\n"
      "    - name: workerBug\n"
      "      action: FailJobSet\n"
      "      onJobFailureReasons: [BackoffLimitExceeded]\n"
      "      targetReplicatedJobs: [workers]\n"
      "    - name: anyWorker\n"
      "      action: RestartJobSet\n"
      "      targetReplicatedJobs: [workers]\n");
  CHECK(Only(good, "failure-policy/shadowed-rule").empty());
  // A conditional earlier rule (message patterns) does not shadow an unconditional one.
  std::string conditional = Manifest(
      "  failurePolicy:\n"
      "    rules:\n"
      "    - action: RestartJobSet\n"
      "      onJobFailureMessagePatterns: [\"exit code 143\"]\n"
      "    - action: FailJobSet\n");
  CHECK(Only(conditional, "failure-policy/shadowed-rule").empty());
  // An earlier rule naming every replicated job covers a later rule without targets (the
  // Manifest has one replicated job, workers).
  std::string all_named = Manifest(
      "  failurePolicy:\n"
      "    rules:\n"
      "    - name: everyJob\n"
      "      action: RestartJobSet\n"
      "      targetReplicatedJobs: [workers]\n"
      "    - name: anything\n"
      "      action: FailJobSet\n");
  auto all = Only(all_named, "failure-policy/shadowed-rule");
  REQUIRE(all.size() == 1);
  CHECK(all[0].field == "spec.failurePolicy.rules[1].name");
  // But not a later rule without reasons: a Job failing with an empty reason matches only it.
  std::string reasons_named = Manifest(
      "  failurePolicy:\n"
      "    rules:\n"
      "    - action: RestartJobSet\n"
      "      onJobFailureReasons: [BackoffLimitExceeded, DeadlineExceeded, FailedIndexes,\n"
      "        MaxFailedIndexesExceeded, PodFailurePolicy]\n"
      "    - action: FailJobSet\n");
  CHECK(Only(reasons_named, "failure-policy/shadowed-rule").empty());
}

TEST_CASE("analysis: negative maxRestarts") {
  auto f = Only(Manifest("  failurePolicy:\n    maxRestarts: -1\n"),
                "failure-policy/negative-max-restarts");
  REQUIRE(f.size() == 1);
  CHECK(f[0].mark.line == 7);
  CHECK(Only(Manifest("  failurePolicy:\n    maxRestarts: 1\n"),
             "failure-policy/negative-max-restarts")
            .empty());
}

TEST_CASE("analysis: a replicated job that depends on itself never starts") {
  std::string yaml =
      "apiVersion: jobset.x-k8s.io/v1alpha2\n"
      "kind: JobSet\n"
      "metadata: {name: loop}\n"
      "spec:\n"
      "  replicatedJobs:\n"
      "  - name: init\n"
      "    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}\n"
      "  - name: train\n"
      "    dependsOn: [{name: DEP, status: Complete}]\n"
      "    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}\n";
  std::string self = yaml;
  self.replace(self.find("DEP"), 3, "train");
  auto f = Only(self, "depends-on/self");
  REQUIRE(f.size() == 1);
  CHECK(f[0].mark.line == 9);
  std::string ok = yaml;
  ok.replace(ok.find("DEP"), 3, "init");
  CHECK(Only(ok, "depends-on/self").empty());
}

TEST_CASE("analysis: success policies that are never met, or met too early") {
  // Four replicated jobs: `init` (replicas INIT), `train` depending on DEP, `eval` on train, and
  // `extra` (replicas EXTRA).
  std::string yaml =
      "apiVersion: jobset.x-k8s.io/v1alpha2\n"
      "kind: JobSet\n"
      "metadata: {name: never}\n"
      "spec:\n"
      "  successPolicy: {operator: OP, targetReplicatedJobs: [TARGETS]}\n"
      "  replicatedJobs:\n"
      "  - name: init\n"
      "    replicas: INIT\n"
      "    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}\n"
      "  - name: train\n"
      "    dependsOn: [{name: DEP, status: Complete}]\n"
      "    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}\n"
      "  - name: eval\n"
      "    dependsOn: [{name: train, status: Ready}]\n"
      "    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}\n"
      "  - name: extra\n"
      "    replicas: EXTRA\n"
      "    template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}\n";
  auto make = [&](const char* op, const char* targets, const char* init, const char* dep,
                  const char* extra = "1") {
    std::string y = yaml;
    for (auto [key, value] :
         {std::pair{"OP", op}, std::pair{"TARGETS", targets}, std::pair{"INIT", init},
          std::pair{"DEP", dep}, std::pair{"EXTRA", extra}}) {
      y.replace(y.find(key), std::string_view(key).size(), value);
    }
    return y;
  };
  SUBCASE("Any whose only target has replicas 0") {
    auto f = Only(make("Any", "init", "0", "init"), "success-policy/never-met");
    REQUIRE(f.size() == 1);
    CHECK(f[0].field == "spec.successPolicy.targetReplicatedJobs");
    CHECK(f[0].mark.line == 5);
    CHECK(f[0].message.find("('init' has replicas 0)") != std::string::npos);
    CHECK(f[0].note.find("line 8") != std::string::npos);  // init's replicas
    CHECK(Only(make("Any", "init", "1", "init"), "success-policy/never-met").empty());
    // Another target that creates Jobs is enough for Any.
    CHECK(Only(make("Any", "init, train", "0", "init"), "success-policy/never-met").empty());
  }
  SUBCASE("Any whose targets are all blocked names each") {
    auto f = Only(make("Any", "init, eval", "0", "train"), "success-policy/never-met");
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("('init' has replicas 0, 'eval' never starts)") != std::string::npos);
    CHECK(Only(make("Any", "init, eval", "0", "init"), "success-policy/never-met").empty());
  }
  SUBCASE("no replicated job ever creates a Job") {
    // init and extra have no replicas, train waits for itself, eval for train.
    auto f = Only(make("All", "init", "0", "train", "0"), "success-policy/never-met");
    REQUIRE(f.size() == 1);
    CHECK(f[0].message.find("no replicated job ever creates a Job") != std::string::npos);
    CHECK(Only(make("All", "init", "1", "train", "0"), "success-policy/never-met").empty());
  }
  SUBCASE("All over replicas-0 targets is met by the first success of another job") {
    auto f = Only(make("All", "init", "0", "init"), "success-policy/premature");
    REQUIRE(f.size() == 1);
    CHECK(f[0].field == "spec.successPolicy.targetReplicatedJobs");
    CHECK(f[0].message.find("expects 0 successes") != std::string::npos);
    CHECK(Only(make("All", "init", "2", "init"), "success-policy/premature").empty());
    // All waiting for a target that never starts is the dependsOn rules' finding, not this one.
    CHECK(Only(make("All", "eval", "1", "train"), "success-policy/premature").empty());
    CHECK(Only(make("All", "eval", "1", "train"), "success-policy/never-met").empty());
  }
  SUBCASE("a replicated job behind one that never starts") {
    std::string bad = make("All", "eval", "1", "train");
    auto f = Only(bad, "depends-on/never-starts");
    REQUIRE(f.size() == 1);
    CHECK(f[0].field == "spec.replicatedJobs[2].dependsOn[0].name");
    CHECK(f[0].mark.line == 14);
    CHECK(f[0].message.find("'eval' depends on 'train', which never starts") != std::string::npos);
    CHECK(Only(bad, "depends-on/self").size() == 1);  // the root, train, once
    CHECK(Only(make("All", "eval", "1", "init"), "depends-on/never-starts").empty());
  }
}

TEST_CASE("analysis: a restart with a budget of 0 fails the JobSet instead") {
  const std::string rules =
      "    rules:\n"
      "    - name: restartWorkers\n"
      "      action: RestartJobSet\n"
      "    - name: ignoreMax\n"
      "      action: RestartJobSetAndIgnoreMaxRestarts\n";
  auto f = Only(Manifest("  failurePolicy:\n" + rules), "failure-policy/restart-without-budget");
  REQUIRE(f.size() == 1);
  CHECK(f[0].field == "spec.failurePolicy.rules[0].action");
  CHECK(f[0].message.find("rule 'restartWorkers' never restarts anything") != std::string::npos);
  CHECK(Only(Manifest("  failurePolicy:\n    maxRestarts: 0\n" + rules),
             "failure-policy/restart-without-budget")
            .size() == 1);
  CHECK(Only(Manifest("  failurePolicy:\n    maxRestarts: 2\n" + rules),
             "failure-policy/restart-without-budget")
            .empty());
  // failurePolicy: {} is the plain fail-fast policy: no restart rule, nothing to say.
  CHECK(Only(Manifest("  failurePolicy: {}\n"), "failure-policy/restart-without-budget").empty());
}

}  // namespace jobset

namespace jobset {

TEST_CASE("analysis: an ignore-max restart reachable from an application error loops forever") {
  std::string bad = Manifest(
      "  failurePolicy:\n"
      "    maxRestarts: 3\n"
      "    rules:\n"
      "    - name: alwaysRestart\n"
      "      action: RestartJobSetAndIgnoreMaxRestarts\n");
  auto f = Only(bad, "failure-policy/unbounded-restarts");
  REQUIRE(f.size() == 1);
  CHECK(f[0].field == "spec.failurePolicy.rules[0].action");
  CHECK(f[0].mark.line == 10);
  CHECK(f[0].message ==
        "rule 'alwaysRestart' restarts forever on an application error: when a Job of "
        "'workers' fails with BackoffLimitExceeded, RestartJobSetAndIgnoreMaxRestarts restarts "
        "it without counting, so a bug that fails every run never stops");
  // Host maintenance only (PodFailurePolicy): application errors fall through to the default,
  // counted RestartJobSet.
  std::string good = Manifest(
      "  failurePolicy:\n"
      "    maxRestarts: 3\n"
      "    rules:\n"
      "    - name: hostMaintenance\n"
      "      action: RestartJobSetAndIgnoreMaxRestarts\n"
      "      onJobFailureReasons: [PodFailurePolicy]\n",
      kPfp);
  CHECK(Only(good, "failure-policy/unbounded-restarts").empty());
  CHECK(Only(good, "failure-policy/max-restarts-unused").empty());
}

TEST_CASE("analysis: maxRestarts that no failure can consume") {
  std::string bad = Manifest(
      "  failurePolicy:\n"
      "    maxRestarts: 5\n"
      "    rules:\n"
      "    - action: FailJobSet\n");
  auto f = Only(bad, "failure-policy/max-restarts-unused");
  REQUIRE(f.size() == 1);
  CHECK(f[0].mark.line == 7);
  CHECK(f[0].message.find("maxRestarts is 5 but no failure can use it") == 0);
  // A conditional FailJobSet leaves the default, counted RestartJobSet for other messages.
  std::string good = Manifest(
      "  failurePolicy:\n"
      "    maxRestarts: 5\n"
      "    rules:\n"
      "    - action: FailJobSet\n"
      "      onJobFailureMessagePatterns: [\"exit code 42\"]\n");
  CHECK(Only(good, "failure-policy/max-restarts-unused").empty());
}

}  // namespace jobset

namespace jobset {

TEST_CASE(
    "analysis: a pod failure policy on exit codes makes PodFailurePolicy an application error") {
  std::string job =
      "podFailurePolicy:\n"
      "  rules:\n"
      "  - action: FailJob\n"
      "    onExitCodes: {containerName: main, operator: In, values: [42]}\n";
  std::string policy =
      "  failurePolicy:\n"
      "    maxRestarts: 2\n"
      "    rules:\n"
      "    - name: retryPodFailures\n"
      "      action: RestartJobSetAndIgnoreMaxRestarts\n"
      "      onJobFailureReasons: [PodFailurePolicy]\n";
  auto f = Only(Manifest(policy, job), "failure-policy/unbounded-restarts");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.find("fails with PodFailurePolicy") != std::string::npos);
  // The same rule on DisruptionTarget (host maintenance) is the intended use.
  CHECK(Only(Manifest(policy, kPfp), "failure-policy/unbounded-restarts").empty());
}

TEST_CASE("analysis: in-place restarts spend maxRestarts on container restarts") {
  // A catch-all FailJobSet would leave maxRestarts unused with Recreate, not with InPlaceRestart.
  FeatureGates gates;
  gates.in_place_restart = true;
  const std::string job =
      "backoffLimit: 2147483647\npodReplacementPolicy: Failed\ncompletions: 2\nparallelism: 2\n";
  std::string in_place = Manifest(
      "  failurePolicy:\n"
      "    maxRestarts: 3\n"
      "    restartStrategy: InPlaceRestart\n"
      "    rules:\n"
      "    - action: FailJobSet\n",
      job);
  CHECK(Only(in_place, "failure-policy/max-restarts-unused", gates).empty());
  auto neg = Only(Manifest("  failurePolicy:\n"
                           "    maxRestarts: -1\n"
                           "    restartStrategy: InPlaceRestart\n",
                           job),
                  "failure-policy/negative-max-restarts", gates);
  REQUIRE(neg.size() == 1);
  CHECK(neg[0].message.find("first reconcile") != std::string::npos);
  // With a budget of 0 the first container restart fails the JobSet.
  auto zero = Only(Manifest("  failurePolicy:\n"
                            "    restartStrategy: InPlaceRestart\n",
                            job),
                   "failure-policy/restart-without-budget", gates);
  REQUIRE(zero.size() == 1);
  CHECK(zero[0].field == "spec.failurePolicy.maxRestarts");
  CHECK(zero[0].message.find("nothing is ever restarted in place") != std::string::npos);
  CHECK(Only(in_place, "failure-policy/restart-without-budget", gates).empty());
}

}  // namespace jobset

namespace jobset {

TEST_CASE("analysis: an unknown annotation in JobSet's namespace is ignored, with a did-you-mean") {
  std::string yaml =
      "apiVersion: jobset.x-k8s.io/v1alpha2\n"
      "kind: JobSet\n"
      "metadata:\n"
      "  name: train\n"
      "  annotations:\n"
      "    jobset.sigs.k8s.io/exclusive-topology: cloud.google.com/gke-nodepool\n"
      "    alpha.jobset.sigs.k8s.io/node-selector: \"true\"\n"
      "    example.com/jobset.sigs.k8s.io-note: free\n"
      "spec:\n"
      "  replicatedJobs:\n"
      "  - name: workers\n"
      "    template:\n"
      "      metadata:\n"
      "        annotations:\n"
      "          alpha.jobset.sigs.k8s.io/exclusive-topolgy: zone\n"
      "          jobset.sigs.k8s.io/jobset-name: copied\n"
      "      spec:\n"
      "        template:\n"
      "          metadata:\n"
      "            annotations: {jobset.sigs.k8s.io/team: ml}\n"
      "          spec:\n"
      "            restartPolicy: Never\n"
      "            containers: [{name: main, image: busybox}]\n";
  std::vector<Finding> fs = Only(yaml, "jobset/unknown-annotation");
  REQUIRE(fs.size() == 3);
  CHECK(fs[0].severity == Severity::kWarning);
  CHECK(fs[0].field == "metadata.annotations[jobset.sigs.k8s.io/exclusive-topology]");
  CHECK(fs[0].message ==
        "annotation 'jobset.sigs.k8s.io/exclusive-topology' is in the JobSet controller's "
        "namespace but is no key it knows, so it is ignored; did you mean "
        "'alpha.jobset.sigs.k8s.io/exclusive-topology'?");
  CHECK(fs[0].mark.line == 6);
  CHECK(fs[0].mark.column == 5);
  CHECK(fs[1].field ==
        "spec.replicatedJobs[0].template.metadata.annotations[alpha.jobset.sigs.k8s.io/"
        "exclusive-topolgy]");
  CHECK(fs[1].message.find("did you mean 'alpha.jobset.sigs.k8s.io/exclusive-topology'?") !=
        std::string::npos);
  CHECK(fs[2].field ==
        "spec.replicatedJobs[0].template.spec.template.metadata.annotations[jobset.sigs.k8s.io/"
        "team]");
  CHECK(fs[2].message.find("did you mean") == std::string::npos);
  // Known keys, user-set or controller-set, and other namespaces are quiet.
  CHECK(Only(Manifest(""), "jobset/unknown-annotation").empty());
}

}  // namespace jobset

// --- Hostile input (issue #19): sizes the CRD leaves free cost linear time -----------------

namespace jobset {
namespace {

// A JobSet (restartStrategy InPlaceRestart, which skips the policy simulation) with `n`
// replicated jobs rj-0.. and `n` failure policy rules r-0.., rule k targeting rj-k on reason
// PodFailurePolicy, which no Job template can fail with; then a copy of rule 0's criteria.
// Each rjob i > 0 depends on rj-(i-1) and rj-0 on itself.
Node WidePolicy(int n) {
  Node rjs = Node::Seq(), rules = Node::Seq();
  for (int i = 0; i < n; ++i) {
    const std::string name = "rj-" + std::to_string(i);
    Node rj = Node::Map();
    rj.Set("name", Node::String(name));
    rj.Set("replicas", Node::Int(1));
    Node d = Node::Map();
    d.Set("name", Node::String(i ? "rj-" + std::to_string(i - 1) : name));
    d.Set("status", Node::String("Ready"));
    rj.Set("dependsOn", Node::Seq()).items.push_back(std::move(d));
    rjs.items.push_back(std::move(rj));  // No template: the analysis needs none.
  }
  for (int k = 0; k <= n; ++k) {
    Node r = Node::Map();
    r.Set("name", Node::String("r-" + std::to_string(k)));
    r.Set("action", Node::String("FailJobSet"));
    r.Set("onJobFailureReasons", Node::Seq()).items.push_back(Node::String("PodFailurePolicy"));
    r.Set("targetReplicatedJobs", Node::Seq())
        .items.push_back(Node::String("rj-" + std::to_string(k == n ? 0 : k)));
    rules.items.push_back(std::move(r));
  }
  Node js = Node::Map();
  js.Set("apiVersion", Node::String("jobset.x-k8s.io/v1alpha2"));
  js.Set("kind", Node::String("JobSet"));
  js.Set("metadata", Node::Map()).Set("name", Node::String("wide"));
  Node& spec = js.Set("spec", Node::Map());
  Node& fp = spec.Set("failurePolicy", Node::Map());
  fp.Set("maxRestarts", Node::Int(3));
  fp.Set("restartStrategy", Node::String("InPlaceRestart"));
  fp.Set("rules", std::move(rules));
  spec.Set("replicatedJobs", std::move(rjs));
  return js;
}

std::vector<const Finding*> OfRule(const std::vector<Finding>& all, std::string_view rule) {
  std::vector<const Finding*> out;
  for (const Finding& f : all)
    if (f.rule == rule) out.push_back(&f);
  return out;
}

TEST_CASE("analysis: 200,000 rules over 200,000 replicated jobs take linear time") {
  // Before: each rule looked at every replicated job (4e10 name comparisons), every rule was
  // compared with every earlier one (2e10 pairs), and each dependsOn searched the list before
  // it (2e10 comparisons): minutes.
  const int n = HostileSize(200000);
  const Node js = WidePolicy(n);
  std::vector<Finding> out;
  FindingSink sink(js, &out);
  AnalyzeJobSet(js, FeatureGates{}, &sink);
  // Each rule waits for a reason its one target cannot fail with.
  std::vector<const Finding*> unreachable = OfRule(out, "failure-policy/unreachable-reason");
  REQUIRE(unreachable.size() == static_cast<size_t>(n) + 1);
  CHECK(unreachable[7]->field == "spec.failurePolicy.rules[7].onJobFailureReasons[0]");
  CHECK(unreachable[7]->message ==
        "rule 'r-7' waits for reason PodFailurePolicy, which replicated job 'rj-7' cannot fail "
        "with: its Job template has no podFailurePolicy rule with action FailJob");
  CHECK(unreachable[n]->message.find("replicated job 'rj-0' cannot") != std::string::npos);
  // The last rule repeats the first one's criteria: found whatever the length of the list.
  std::vector<const Finding*> shadowed = OfRule(out, "failure-policy/shadowed-rule");
  REQUIRE(shadowed.size() == 1);
  const std::string last = std::to_string(n);
  CHECK(shadowed[0]->field == "spec.failurePolicy.rules[" + last + "].name");
  CHECK(shadowed[0]->message == "rule 'r-" + last +
                                    "' can never fire: the earlier rule 'r-0' matches every "
                                    "failure it matches, and the first matching rule wins");
  // rj-0 depends on itself, so none of the chain ever starts.
  CHECK(OfRule(out, "depends-on/self").size() == 1);
  std::vector<const Finding*> never = OfRule(out, "depends-on/never-starts");
  REQUIRE(never.size() == static_cast<size_t>(n) - 1);
  CHECK(never.back()->message == "replicated job 'rj-" + std::to_string(n - 1) +
                                     "' depends on 'rj-" + std::to_string(n - 2) +
                                     "', which never starts, so its Jobs are never created either");
}

TEST_CASE("analysis: a rule is shadowed by the earliest rule that covers it, across groups") {
  // Rules with the same criteria are compared once as a group: a later copy is still reported
  // against an earlier rule of another group when that one comes first.
  std::vector<Finding> f = Only(Manifest("  failurePolicy:\n"
                                         "    maxRestarts: 3\n"
                                         "    rules:\n"
                                         "    - name: specific\n"
                                         "      action: FailJobSet\n"
                                         "      onJobFailureReasons: [BackoffLimitExceeded]\n"
                                         "    - name: all\n"
                                         "      action: RestartJobSet\n"
                                         "    - name: again\n"
                                         "      action: FailJobSet\n"
                                         "      onJobFailureReasons: [BackoffLimitExceeded]\n"
                                         "    - name: all2\n"
                                         "      action: FailJobSet\n"),
                                "failure-policy/shadowed-rule");
  REQUIRE(f.size() == 2);
  CHECK(f[0].field == "spec.failurePolicy.rules[2].name");
  CHECK(f[0].message.find("earlier rule 'specific'") != std::string::npos);
  CHECK(f[1].field == "spec.failurePolicy.rules[3].name");
  CHECK(f[1].message.find("earlier rule 'all'") != std::string::npos);
}

// A JobSet (restartStrategy Recreate, maxRestarts 3) with `n` replicated jobs rj-0.. without
// templates (their Jobs can fail with BackoffLimitExceeded only) and the rules `rule(k)` for k in
// [0, rules).
template <typename MakeRule>
Node RecreatePolicy(int n, int rules, MakeRule rule) {
  Node rjs = Node::Seq(), list = Node::Seq();
  for (int i = 0; i < n; ++i) {
    Node rj = Node::Map();
    rj.Set("name", Node::String("rj-" + std::to_string(i)));
    rj.Set("replicas", Node::Int(1));
    rjs.items.push_back(std::move(rj));
  }
  for (int k = 0; k < rules; ++k) list.items.push_back(rule(k));
  Node js = Node::Map();
  js.Set("apiVersion", Node::String("jobset.x-k8s.io/v1alpha2"));
  js.Set("kind", Node::String("JobSet"));
  js.Set("metadata", Node::Map()).Set("name", Node::String("wide"));
  Node& spec = js.Set("spec", Node::Map());
  Node& fp = spec.Set("failurePolicy", Node::Map());
  fp.Set("maxRestarts", Node::Int(3));
  fp.Set("rules", std::move(list));
  spec.Set("replicatedJobs", std::move(rjs));
  return js;
}

Node PolicyRule(const std::string& name, const std::string& action) {
  Node r = Node::Map();
  r.Set("name", Node::String(name));
  r.Set("action", Node::String(action));
  return r;
}

TEST_CASE("analysis: the restart checks over 70,000 rules, rule k targeting replicated job k") {
  // Before: the policy kept a flag per rule and replicated job (4.9 GB here) and each
  // (replicated job, reason) looked at every rule: 1e10 rule checks.
  const int n = HostileSize(70000);
  const Node js = RecreatePolicy(n, n, [](int k) {
    Node r = PolicyRule("r-" + std::to_string(k), "RestartJobSetAndIgnoreMaxRestarts");
    r.Set("onJobFailureReasons", Node::Seq()).items.push_back(Node::String("BackoffLimitExceeded"));
    r.Set("targetReplicatedJobs", Node::Seq())
        .items.push_back(Node::String("rj-" + std::to_string(k)));
    return r;
  });
  std::vector<Finding> out;
  FindingSink sink(js, &out);
  AnalyzeJobSet(js, FeatureGates{}, &sink);
  std::vector<const Finding*> unbounded = OfRule(out, "failure-policy/unbounded-restarts");
  REQUIRE(unbounded.size() == static_cast<size_t>(n));
  CHECK(unbounded[9]->field == "spec.failurePolicy.rules[9].action");
  CHECK(unbounded[9]->message ==
        "rule 'r-9' restarts forever on an application error: when a Job of 'rj-9' fails with "
        "BackoffLimitExceeded, RestartJobSetAndIgnoreMaxRestarts restarts it without counting, "
        "so a bug that fails every run never stops");
  // Every failure a Job can have restarts without counting: maxRestarts is never used.
  CHECK(OfRule(out, "failure-policy/max-restarts-unused").size() == 1);
}

TEST_CASE("analysis: 50,000 conditional rules for every replicated job of 50,000") {
  // Rules with message patterns and no targets are in the chain of decisions of every
  // replicated job: before, each replicated job walked all of them (2.5e9 decisions, twice).
  const int n = HostileSize(50000);
  const Node js = RecreatePolicy(n, n + 1, [n](int k) {
    if (k == n) return PolicyRule("last", "FailJobSet");
    Node r = PolicyRule("r-" + std::to_string(k), "RestartJobSetAndIgnoreMaxRestarts");
    r.Set("onJobFailureMessagePatterns", Node::Seq()).items.push_back(Node::String("oom"));
    return r;
  });
  std::vector<Finding> out;
  FindingSink sink(js, &out);
  AnalyzeJobSet(js, FeatureGates{}, &sink);
  std::vector<const Finding*> unbounded = OfRule(out, "failure-policy/unbounded-restarts");
  REQUIRE(unbounded.size() == static_cast<size_t>(n));
  const std::string last = std::to_string(n - 1);
  CHECK(unbounded.back()->field == "spec.failurePolicy.rules[" + last + "].action");
  CHECK(unbounded.back()->message ==
        "rule 'r-" + last +
            "' restarts forever on an application error: when a Job of 'rj-0' fails with "
            "BackoffLimitExceeded and a matching message, RestartJobSetAndIgnoreMaxRestarts "
            "restarts it without counting, so a bug that fails every run never stops");
  // Every chain ends with the unconditional FailJobSet: no failure uses maxRestarts.
  CHECK(OfRule(out, "failure-policy/max-restarts-unused").size() == 1);
}

}  // namespace
}  // namespace jobset
