#include "validation/framework/replay.h"

#include <doctest/doctest.h>

#include "tests/test_size.h"
#include "validation/core/loader.h"

namespace jobset {
namespace {

// A Framework with roles given as "name taskNumber [minFailed minSucceeded]" ("-" omits the
// completion policy), the framework policy `fw_retry` and every task's `task_retry`.
Framework Make(std::vector<std::string> roles, std::string fw_retry = "{}",
               std::string task_retry = "{}", std::string extra = "") {
  std::string yaml =
      "apiVersion: frameworkcontroller.microsoft.com/v1\nkind: Framework\nmetadata: {name: fw}\n"
      "spec:\n  retryPolicy: " +
      fw_retry + "\n" + extra + "  taskRoles:\n";
  for (const std::string& r : roles) {
    char name[32];
    long number = 0, failed = 0, succeeded = 0;
    int n = std::sscanf(r.c_str(), "%31s %ld %ld %ld", name, &number, &failed, &succeeded);
    yaml += "  - name: " + std::string(name) + "\n    taskNumber: " + std::to_string(number) + "\n";
    if (n == 4) {
      yaml +=
          "    frameworkAttemptCompletionPolicy: {minFailedTaskCount: " + std::to_string(failed) +
          ", minSucceededTaskCount: " + std::to_string(succeeded) + "}\n";
    }
    yaml += "    task: {retryPolicy: " + task_retry + "}\n";
  }
  SourceFile f = ParseSource("fw.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return DecodeFramework(f.documents[0].root);
}

// Steps from --fail texts, one each.
FrameworkReplayResult Run(const Framework& fw, std::vector<std::string> fails) {
  std::vector<FrameworkStepSpec> steps;
  std::string error;
  for (const std::string& f : fails) {
    FrameworkStepSpec step;
    REQUIRE_MESSAGE(ParseFrameworkFailFlag(f, &step, &error), error);
    steps.push_back(step);
  }
  FrameworkReplayResult r;
  REQUIRE_MESSAGE(ReplayFramework(fw, steps, &r, &error), error);
  return r;
}

}  // namespace

TEST_CASE("framework replay: --fail and scenario parsing") {
  FrameworkStepSpec step;
  std::string error;
  REQUIRE(ParseFrameworkFailFlag("worker/3:137,ps/0:Succeeded", &step, &error));
  REQUIRE(step.size() == 2);
  CHECK(step[0].role == "worker");
  CHECK(step[0].index == 3);
  CHECK(step[0].status.phrase == "ContainerSigKillReceived");
  CHECK(step[1].status.code == 0);
  for (const char* bad : {"worker", "worker/x:1", "/0:1", "worker/0", "worker/0:Evicted"}) {
    FrameworkStepSpec s;
    CHECK_MESSAGE(!ParseFrameworkFailFlag(bad, &s, &error), bad);
  }

  SourceFile f =
      ParseSource("s.yaml",
                  "steps:\n"
                  "- complete: [{task: worker/0, code: 137}]\n"
                  "- fail: [{task: ps/1, code: PodEvicted}, {task: ps/0, code: '-9+Permanent'}]\n");
  std::vector<FrameworkStepSpec> steps;
  REQUIRE_MESSAGE(ParseFrameworkScenario(f.documents[0].root, &steps, &error), error);
  REQUIRE(steps.size() == 2);
  CHECK(steps[1][0].status.code == -1000);
  CHECK(steps[1][1].status.type.permanent);

  SourceFile bad = ParseSource("s.yaml", "steps:\n- complete: [{task: worker, code: 1}]\n");
  CHECK(!ParseFrameworkScenario(bad.documents[0].root, &steps, &error));
  CHECK(error == "steps[0].complete[0].task: want TASKROLE/INDEX, e.g. worker/0");
  SourceFile bad_code = ParseSource("s.yaml", "steps:\n- complete: [{task: w/0, code: -220}]\n");
  CHECK(!ParseFrameworkScenario(bad_code.documents[0].root, &steps, &error));
  CHECK(error.rfind("steps[0].complete[0].code: -220 FrameworkAttemptCompletion", 0) == 0);
}

TEST_CASE("framework replay: unknown roles and indexes are usage errors") {
  Framework fw = Make({"worker 2 1 -1"});
  FrameworkReplayResult r;
  std::string error;
  FrameworkStepSpec step;
  REQUIRE(ParseFrameworkFailFlag("workers/0:1", &step, &error));
  CHECK(!ReplayFramework(fw, {step}, &r, &error));
  CHECK(error == "step 1: no task role 'workers'");
  step.clear();
  REQUIRE(ParseFrameworkFailFlag("worker/2:1", &step, &error));
  CHECK(!ReplayFramework(fw, {step}, &r, &error));
  CHECK(error == "step 1: worker/2 is outside its 2 tasks (taskNumber)");
}

// The manual's FrameworkAttemptCompletionPolicy table, and what omitted and -1 counts do.
TEST_CASE("framework completion: DEFAULT (1, -1) fails at the first failed task") {
  Framework fw = Make({"a 2 1 -1", "b 1 1 -1"});
  FrameworkReplayResult r = Run(fw, {"a/1:1"});
  REQUIRE(r.completed);
  CHECK(r.final_attempt.status.code == 1);  // the trigger task's status, copied
  CHECK(r.final_attempt.message ==
        "FailedTaskCount 1 has reached MinFailedTaskCount 1 in the TaskRole");
  CHECK(r.final_attempt.trigger_role == "a");
  CHECK(r.final_attempt.trigger_index == 1);
  CHECK(r.final_attempt.stopped == std::vector<std::string>{"fw-a-0", "fw-b-0"});
  CHECK(r.tasks[1][0].status.code == -220);

  FrameworkReplayResult ok = Run(fw, {"a/0:0", "b/0:0", "a/1:0"});
  REQUIRE(ok.completed);
  CHECK(ok.steps[1].state == "AttemptRunning");
  CHECK(ok.final_attempt.status.type.succeeded);
  // Every task completed: the trigger is the last one to complete, as upstream's
  // NewCompletedTaskTriggeredCompletionStatus reports it.
  CHECK(ok.final_attempt.trigger_role == "a");
  CHECK(ok.final_attempt.trigger_index == 1);
  CHECK(ok.final_attempt.message ==
        "CompletedTaskCount 3 has reached TotalTaskCount 3 and no user specified conditions in "
        "FrameworkAttemptCompletionPolicy have ever been triggered");
}

TEST_CASE("framework completion: omitted counts, every task failed, completes Succeeded") {
  Framework fw = Make({"a 2", "b 1"});
  CHECK(!fw.task_roles[0].completion.min_failed_set);
  FrameworkReplayResult r = Run(fw, {"a/0:1", "a/1:210", "b/0:-1200"});
  CHECK(r.steps[0].state == "AttemptRunning");
  CHECK(r.steps[1].state == "AttemptRunning");
  REQUIRE(r.completed);
  CHECK(r.final_attempt.status.code == 0);
  CHECK(r.final_attempt.status.phrase == "Succeeded");
}

TEST_CASE("framework completion: -1 counts are disabled like omitted ones") {
  Framework fw = Make({"a 2 -1 -1"});
  FrameworkReplayResult r = Run(fw, {"a/0:1", "a/1:0"});
  REQUIRE(r.completed);
  CHECK(r.final_attempt.status.type.succeeded);
  CHECK(r.final_attempt.trigger_role == "a");
  CHECK(r.final_attempt.trigger_index == 1);
  // 0 written explicitly is the same.
  FrameworkReplayResult z = Run(Make({"a 1 0 0"}), {"a/0:1"});
  CHECK(z.final_attempt.status.type.succeeded);
}

TEST_CASE("framework completion: MapReduce (minFailed k) tolerates k-1 failed tasks") {
  Framework fw = Make({"map 4 2 -1"});
  FrameworkReplayResult tolerated = Run(fw, {"map/0:1", "map/1:0", "map/2:0", "map/3:0"});
  REQUIRE(tolerated.completed);
  CHECK(tolerated.final_attempt.status.type.succeeded);
  FrameworkReplayResult failed = Run(fw, {"map/0:1", "map/1:2"});
  REQUIRE(failed.completed);
  CHECK(failed.final_attempt.status.code == 2);
  CHECK(failed.final_attempt.message ==
        "FailedTaskCount 2 has reached MinFailedTaskCount 2 in the TaskRole");
}

TEST_CASE("framework completion: TensorFlow (worker minSucceeded = taskNumber)") {
  Framework fw = Make({"ps 2 1 -1", "worker 2 1 2"});
  FrameworkReplayResult r = Run(fw, {"worker/0:0", "worker/1:0"});
  CHECK(r.steps[0].state == "AttemptRunning");
  REQUIRE(r.completed);
  CHECK(r.final_attempt.status.type.succeeded);
  CHECK(r.final_attempt.message ==
        "SucceededTaskCount 2 has reached MinSucceededTaskCount 2 in the TaskRole");
  CHECK(r.final_attempt.stopped == std::vector<std::string>{"fw-ps-0", "fw-ps-1"});
  // A parameter server failing first fails the attempt.
  FrameworkReplayResult f = Run(fw, {"worker/0:0", "ps/1:-1000"});
  CHECK(f.final_attempt.status.code == -1000);
}

TEST_CASE("framework completion: Arbitrator Dominated and First Completed Task Dominated") {
  Framework arb = Make({"arbitrator 1 1 1", "a 3 -1 -1"});
  FrameworkReplayResult r = Run(arb, {"a/0:1", "a/1:1", "a/2:1"});
  CHECK(!r.completed);
  CHECK(r.state == "AttemptRunning");
  FrameworkReplayResult done = Run(arb, {"a/0:1", "arbitrator/0:0"});
  CHECK(done.final_attempt.status.type.succeeded);
  CHECK(done.final_attempt.trigger_role == "arbitrator");

  Framework first = Make({"a 3 1 1"});
  CHECK(Run(first, {"a/2:0"}).final_attempt.status.type.succeeded);
  CHECK(Run(first, {"a/2:3"}).final_attempt.status.code == 3);
}

TEST_CASE("framework completion: counts above taskNumber never trigger") {
  Framework fw = Make({"a 2 3 3"});
  FrameworkReplayResult r = Run(fw, {"a/0:1", "a/1:1"});
  REQUIRE(r.completed);
  CHECK(r.final_attempt.status.type.succeeded);
  CHECK(r.final_attempt.trigger_role == "a");
  CHECK(r.final_attempt.trigger_index == 1);
}

TEST_CASE("framework completion: no tasks, Create and Stop") {
  FrameworkReplayResult none = Run(Make({"a 0 1 1"}), {});
  CHECK(!none.completed);
  CHECK(none.state == "AttemptRunning");

  Framework create = Make({"a 1 1 -1"}, "{}", "{}", "  executionType: Create\n");
  FrameworkReplayResult c = Run(create, {"a/0:1"});
  CHECK(c.state == "AttemptCreationPending");
  CHECK(c.steps[0].events[0].ignored);

  Framework stop = Make({"a 1 1 -1"}, "{maxRetryCount: -2}", "{}", "  executionType: Stop\n");
  FrameworkReplayResult s = Run(stop, {"a/0:1"});
  REQUIRE(s.at_start.size() == 1);
  CHECK(s.at_start[0].status.code == -210);
  CHECK(s.at_start[0].message == "User has requested to stop the Framework");
  CHECK(s.at_start[0].trigger_role.empty());
  CHECK(!s.at_start[0].decision.should_retry);  // not even with -2
  CHECK(s.completed);
  CHECK(s.steps[0].events[0].ignored);
  CHECK(s.steps[0].events[0].ignored_why == "the Framework is already Completed");
}

TEST_CASE("framework replay: task retries, framework retries and budgets that reset") {
  // Batch without Task Fault Tolerance: tasks never retry; the framework retries up to 2 times
  // an Unknown failure, freely a Transient one.
  Framework fw = Make({"w 2 1 -1"}, "{fancyRetryPolicy: true, maxRetryCount: 2}",
                      "{fancyRetryPolicy: false, maxRetryCount: 0}");
  FrameworkReplayResult r = Run(fw, {"w/0:137", "w/1:1", "w/0:1", "w/0:1", "w/1:0"});
  // 137 is Transient: the attempt fails with it and the framework retries it for free.
  REQUIRE(r.steps[0].attempts.size() == 1);
  CHECK(r.steps[0].attempts[0].decision.should_retry);
  CHECK(!r.steps[0].attempts[0].decision.accountable);
  CHECK(r.steps[0].attempts[0].counters.total == 1);
  CHECK(r.steps[0].attempts[0].counters.accountable == 0);
  CHECK(r.steps[1].events[0].framework_attempt_id == 1);
  CHECK(r.steps[1].attempts[0].counters.accountable == 1);
  CHECK(r.steps[2].attempts[0].counters.accountable == 2);
  REQUIRE(r.steps[3].attempts.size() == 1);
  CHECK(!r.steps[3].attempts[0].decision.should_retry);
  CHECK(r.steps[3].attempts[0].decision.reason ==
        "AccountableRetriedCount 2 has reached MaxRetryCount 2");
  CHECK(r.completed);
  CHECK(r.steps[4].events[0].ignored);

  // Task retries: the budget of a task resets with every FrameworkAttempt.
  Framework tasks = Make({"w 1 1 -1"}, "{maxRetryCount: 1}", "{maxRetryCount: 1}");
  FrameworkReplayResult t = Run(tasks, {"w/0:1", "w/0:1", "w/0:1", "w/0:1"});
  CHECK(t.steps[0].events[0].decision.should_retry);
  CHECK(t.steps[0].events[0].counters.accountable == 1);
  CHECK(t.steps[1].attempts.size() == 1);            // task budget spent: the attempt fails
  CHECK(t.steps[2].events[0].task_attempt_id == 0);  // a fresh task in attempt 1
  CHECK(t.steps[2].events[0].decision.should_retry);
  CHECK(t.completed);
  CHECK(t.counters.total == 1);
}

TEST_CASE("framework replay: Service tasks never complete; -2 reruns a succeeded framework") {
  Framework service = Make({"s 1 1 -1"}, "{maxRetryCount: -2}", "{maxRetryCount: -2}");
  FrameworkReplayResult r = Run(service, {"s/0:0", "s/0:210", "s/0:0"});
  CHECK(!r.completed);
  CHECK(r.steps[2].events[0].counters.total == 3);
  CHECK(r.steps[2].attempts.empty());

  Framework rerun = Make({"s 1 1 -1"}, "{maxRetryCount: -2}", "{maxRetryCount: 0}");
  FrameworkReplayResult again = Run(rerun, {"s/0:0", "s/0:0"});
  CHECK(!again.completed);
  CHECK(again.counters.total == 2);
  CHECK(again.steps[1].attempts[0].status.type.succeeded);
}

TEST_CASE("framework replay: a Transient Conflict framework retry waits 60-900 s") {
  Framework fw = Make({"w 1 1 -1"}, "{fancyRetryPolicy: true, maxRetryCount: 0}");
  FrameworkReplayResult r = Run(fw, {"w/0:201"});
  REQUIRE(r.steps[0].attempts.size() == 1);
  CHECK(r.steps[0].attempts[0].decision.delay_min == 60);
  CHECK(r.steps[0].attempts[0].decision.delay_max == 900);
}

TEST_CASE("framework replay: several completions in one step, in order") {
  Framework fw = Make({"a 2 1 -1"}, "{maxRetryCount: 1}");
  FrameworkReplayResult r = Run(fw, {"a/0:1,a/1:0"});
  // a/0 fails the attempt; a/1 then completes in the new attempt 1.
  REQUIRE(r.steps[0].events.size() == 2);
  CHECK(r.steps[0].events[1].framework_attempt_id == 1);
  CHECK(!r.steps[0].events[1].ignored);
  CHECK(r.state == "AttemptRunning");
}

}  // namespace jobset

namespace jobset {
namespace {

// What the policy under test decided at each step: "free", "counted", "done" (no retry), or
// "-" (the completion was ignored: the Framework had completed). `framework`: the framework
// policy is under test (each completion fails the attempt); else the task policy.
std::vector<std::string> Decisions(const FrameworkReplayResult& r, bool framework) {
  std::vector<std::string> out;
  for (const FrameworkReplayStep& s : r.steps) {
    const TaskCompletionEvent& e = s.events[0];
    const RetryDecision* d = &e.decision;
    if (framework && !s.attempts.empty()) d = &s.attempts[0].decision;
    if (e.ignored)
      out.push_back("-");
    else if (framework && s.attempts.empty())
      out.push_back("running");
    else
      out.push_back(!d->should_retry ? "done" : d->accountable ? "counted" : "free");
  }
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

// Every row of the manual's RetryPolicy table, replayed at the task level and at the framework
// level, with the same completions: Transient 200, Unknown 1 (three times), Permanent 210,
// Succeeded 0.
TEST_CASE("framework replay: the manual's RetryPolicy rows, task and framework level") {
  const std::vector<std::string> completions = {"w/0:200", "w/0:1",   "w/0:1",
                                                "w/0:1",   "w/0:210", "w/0:0"};
  struct Row {
    const char* name;
    const char* policy;
    Strings expected;
  };
  const Row rows[] = {
      {"DEFAULT", "{fancyRetryPolicy: false, maxRetryCount: 0}", {"done", "-", "-", "-", "-", "-"}},
      {"Service",
       "{fancyRetryPolicy: false, maxRetryCount: -2}",
       {"counted", "counted", "counted", "counted", "counted", "counted"}},
      {"Blind Batch",
       "{fancyRetryPolicy: false, maxRetryCount: -1}",
       {"counted", "counted", "counted", "counted", "counted", "done"}},
      {"Batch with Task Fault Tolerance",
       "{fancyRetryPolicy: true, maxRetryCount: 2}",
       {"free", "counted", "counted", "done", "-", "-"}},
      {"Debug Mode",
       "{fancyRetryPolicy: true, maxRetryCount: 0}",
       {"free", "done", "-", "-", "-", "-"}},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    // Task level: the framework never retries (DEFAULT).
    FrameworkReplayResult task = Run(Make({"w 1 1 -1"}, "{}", row.policy), completions);
    CHECK(Decisions(task, false) == row.expected);
    // Framework level: tasks never retry, so every completion ends the attempt.
    FrameworkReplayResult fw = Run(Make({"w 1 1 -1"}, row.policy, "{}"), completions);
    CHECK(Decisions(fw, true) == row.expected);
  }
  // Batch without Task Fault Tolerance: the task never retries, the framework does.
  FrameworkReplayResult without =
      Run(Make({"w 1 1 -1"}, "{fancyRetryPolicy: true, maxRetryCount: 2}", "{}"), completions);
  CHECK(Decisions(without, true) == Strings{"free", "counted", "counted", "done", "-", "-"});
  CHECK(without.steps[0].events[0].decision.reason ==
        "AccountableRetriedCount 0 has reached MaxRetryCount 0");
  CHECK(without.final_attempt.status.code == 1);
}

}  // namespace jobset

// --- Hostile input (issue #19) ------------------------------------------------------------

namespace jobset {

TEST_CASE("framework replay: 200,000 completions over 200,000 task roles") {
  // Before: each completion searched the roles by name and recounted every task for the
  // completion policy (4e10 steps each way).
  const int n = HostileSize(200000);
  Framework fw;
  fw.name = "fw";
  std::vector<FrameworkStepSpec> steps(1);
  for (int k = 0; k < n; ++k) {
    FrameworkTaskRole role;
    role.name = "r" + std::to_string(k);
    role.task_number = 1;
    fw.task_roles.push_back(role);
    TaskCompletionSpec c;
    c.role = "r" + std::to_string(n - 1 - k);
    c.status = CompletionStatus{0, "Succeeded", CompletionType{true, false, false, false}};
    steps[0].push_back(c);
  }
  FrameworkReplayResult r;
  std::string error;
  REQUIRE_MESSAGE(ReplayFramework(fw, steps, &r, &error), error);
  REQUIRE(r.completed);
  CHECK(r.final_attempt.trigger_role == "r0");
  CHECK(r.final_attempt.message ==
        "CompletedTaskCount " + std::to_string(n) + " has reached TotalTaskCount " +
            std::to_string(n) +
            " and no user specified conditions in FrameworkAttemptCompletionPolicy have ever "
            "been triggered");
  REQUIRE(r.steps.size() == 1);
  CHECK(r.steps[0].events.size() == static_cast<size_t>(n));
}

}  // namespace jobset
