#include "validation/jobset/replay.h"

#include <doctest/doctest.h>

#include "tests/test_size.h"
#include "validation/core/loader.h"
#include "validation/jobset/validation.h"

namespace jobset {

TEST_CASE("replay: --fail values, one failure or several per step") {
  StepSpec step;
  std::string error;
  REQUIRE(ParseFailFlag("workers/3:PodFailurePolicy:exit code 143, signal: TERM", &step, &error));
  REQUIRE(step.size() == 1);  // the comma belongs to the message: no RJOB/INDEX: follows it
  CHECK(step[0].rjob == "workers");
  CHECK(step[0].index == 3);
  CHECK(step[0].reason == "PodFailurePolicy");
  CHECK(step[0].message == "exit code 143, signal: TERM");

  StepSpec two;
  REQUIRE(ParseFailFlag("a/0:DeadlineExceeded,b/12:FailedIndexes:msg", &two, &error));
  REQUIRE(two.size() == 2);
  CHECK(two[1].rjob == "b");
  CHECK(two[1].index == 12);
  CHECK(two[1].message == "msg");

  StepSpec empty_reason;
  REQUIRE(ParseFailFlag("a/0:", &empty_reason, &error));
  CHECK(empty_reason[0].reason.empty());

  for (const char* bad : {"workers", "workers/x:R", "/0:R", "workers/0", "a b/0:R", "a/0:R"}) {
    StepSpec s;
    CHECK_MESSAGE(!ParseFailFlag(bad, &s, &error), bad);
  }
}

TEST_CASE("replay: an unknown failure reason is an error that lists the known ones") {
  StepSpec step;
  std::string error;
  CHECK_FALSE(ParseFailFlag("workers/0:PodFailurPolicy", &step, &error));
  CHECK(error ==
        "'workers/0:PodFailurPolicy': 'PodFailurPolicy' is not a Job failure reason "
        "(BackoffLimitExceeded, DeadlineExceeded, FailedIndexes, MaxFailedIndexesExceeded, "
        "PodFailurePolicy); did you mean 'PodFailurePolicy'?");
  CHECK_FALSE(ParseFailFlag("a/0:BackoffLimitExceeded,b/1:podfailurepolicy", &step, &error));
  CHECK(error.find("did you mean 'PodFailurePolicy'?") != std::string::npos);
  for (const std::string& reason : JobFailureReasons()) {
    StepSpec ok;
    CHECK_MESSAGE(ParseFailFlag("a/0:" + reason, &ok, &error), reason);
  }
}

TEST_CASE("replay: scenario files name the field that is wrong") {
  SourceFile f = ParseSource("s.yaml",
                             "steps:\n"
                             "- fail: [{job: workers/0, reason: PodFailurePolicy, message: m}]\n"
                             "- fail:\n"
                             "  - {job: a/1, reason: DeadlineExceeded}\n"
                             "  - {job: b/2}\n");
  std::vector<StepSpec> steps;
  std::string error;
  REQUIRE(ParseScenarioSteps(f.documents[0].root, &steps, &error));
  REQUIRE(steps.size() == 2);
  CHECK(steps[0][0].message == "m");
  CHECK(steps[1].size() == 2);
  CHECK(steps[1][1].reason.empty());

  SourceFile bad = ParseSource("s.yaml", "steps:\n- fail: [{job: nope}]\n");
  steps.clear();
  CHECK_FALSE(ParseScenarioSteps(bad.documents[0].root, &steps, &error));
  CHECK(error == "steps[0].fail[0].job: want RJOB/INDEX, e.g. workers/0");
  SourceFile typo = ParseSource("s.yaml", "steps:\n- fail: [{job: w/0, reason: Deadline}]\n");
  steps.clear();
  CHECK_FALSE(ParseScenarioSteps(typo.documents[0].root, &steps, &error));
  CHECK(error ==
        "steps[0].fail[0].reason: 'Deadline' is not a Job failure reason (BackoffLimitExceeded, "
        "DeadlineExceeded, FailedIndexes, MaxFailedIndexesExceeded, PodFailurePolicy)");
  SourceFile none = ParseSource("s.yaml", "fail: []\n");
  CHECK_FALSE(ParseScenarioSteps(none.documents[0].root, &steps, &error));
}

TEST_CASE("replay: steps run through the engine with list order deciding ties") {
  SourceFile f =
      ParseSource("j.yaml",
                  "apiVersion: jobset.x-k8s.io/v1alpha2\n"
                  "kind: JobSet\n"
                  "metadata: {name: js}\n"
                  "spec:\n"
                  "  failurePolicy:\n"
                  "    maxRestarts: 1\n"
                  "  replicatedJobs:\n"
                  "  - name: rj\n"
                  "    replicas: 2\n"
                  "    template: {spec: {template: {spec: {containers: [{name: c}]}}}}\n");
  PreparedPolicy policy = PreparePolicy(DecodeJobSet(f.documents[0].root), FeatureGates{});
  ReplayResult result;
  std::string error;
  std::vector<StepSpec> steps = {{{"rj", 1, "BackoffLimitExceeded", ""}, {"rj", 0, "X", ""}},
                                 {{"rj", 0, "BackoffLimitExceeded", ""}}};
  REQUIRE(Replay(policy, steps, &result, &error));
  REQUIRE(result.steps.size() == 2);
  CHECK(result.steps[0].failed == std::vector<std::string>{"js-rj-1", "js-rj-0"});
  REQUIRE(result.steps[0].outcome.passes.size() == 1);  // one global restart for both
  CHECK(result.steps[0].outcome.passes[0].index == 1);  // the first listed failed first
  CHECK(result.state.terminal_state == TerminalState::kFailed);
  CHECK(MessageText(policy, result.state.failed.text) ==
        "jobset failed due to reaching max number of restarts (first failed job: js-rj-0)");

  ReplayResult out_of_range;
  CHECK_FALSE(Replay(policy, {{{"rj", 2, "R", ""}}}, &out_of_range, &error));
  CHECK(error == "step 1: rj/2 is outside its 2 replicas");
}

}  // namespace jobset

// --- Hostile input (issue #19) ------------------------------------------------------------

namespace jobset {

TEST_CASE("replay: 500,000 steps over 500,000 replicated jobs find each by name at once") {
  // Before: each failure searched the replicated job list by name: 1.25e11 comparisons.
  const int n = HostileSize(500000);
  JobSet js;
  for (int i = 0; i < n; ++i) {
    ReplicatedJob rj;
    rj.name = "rj-" + std::to_string(i);
    rj.replicas = 1;
    js.replicated_jobs.push_back(std::move(rj));
  }
  const PreparedPolicy policy = PreparePolicy(js, FeatureGates{});
  // From the last replicated job to the first; no failure policy, so the first failure fails
  // the JobSet and the later ones find it terminal.
  std::vector<StepSpec> steps;
  for (int i = n - 1; i >= 0; --i) {
    steps.push_back({FailureSpec{"rj-" + std::to_string(i), 0, "BackoffLimitExceeded", ""}});
  }
  steps.push_back({FailureSpec{"rj-" + std::to_string(n), 0, "BackoffLimitExceeded", ""}});
  ReplayResult result;
  std::string error;
  CHECK_FALSE(Replay(policy, steps, &result, &error));
  CHECK(error ==
        "step " + std::to_string(n + 1) + ": no replicated job 'rj-" + std::to_string(n) + "'");
  REQUIRE(result.steps.size() == static_cast<size_t>(n));
  CHECK(result.steps[0].failed == std::vector<std::string>{JobName(policy, n - 1, 0)});
  CHECK(result.steps[0].terminal_state == TerminalState::kFailed);
  CHECK(result.steps.back().failed == std::vector<std::string>{JobName(policy, 0, 0)});
}

}  // namespace jobset
