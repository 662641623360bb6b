#include "validation/volcano/replay.h"

#include <doctest/doctest.h>

#include "validation/volcano/test_job.h"

namespace jobset {
namespace {

const char kJob[] =
    "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: mpi}\nspec:\n"
    "  maxRetry: 2\n"
    "  policies:\n"
    "  - {event: PodEvicted, action: RestartJob}\n"
    "  - {exitCode: 3, action: AbortJob}\n"
    "  - {event: JobUpdated, action: RestartJob}\n"
    "  tasks:\n"
    "  - name: master\n    replicas: 1\n"
    "    policies:\n"
    "    - {event: TaskCompleted, action: CompleteJob}\n"
    "    - {event: Unknown, action: AbortJob}\n"
    "    - {event: PodPending, action: RestartJob}\n"
    "  - name: worker\n    replicas: 2\n"
    "    policies:\n"
    "    - {event: PodEvicted, action: RestartTask}\n";

}  // namespace

TEST_CASE("volcano replay: --fail values") {
  VolcanoStep step;
  std::string error;
  REQUIRE(ParseVolcanoFail("worker/3:PodFailed:137,master:TaskCompleted,Unknown", &step, &error));
  REQUIRE(step.size() == 3);
  CHECK(step[0].task == "worker");
  CHECK(step[0].index == 3);
  CHECK(step[0].event == "PodFailed");
  CHECK(step[0].has_exit_code);
  CHECK(step[0].exit_code == 137);
  CHECK(step[1].task == "master");
  CHECK(step[1].index == -1);
  CHECK_FALSE(step[1].has_exit_code);
  CHECK(step[2].task.empty());
  CHECK(step[2].event == "Unknown");

  VolcanoStep command;
  REQUIRE(ParseVolcanoFail("Command:ResumeJob", &command, &error));
  CHECK(command[0].command == "ResumeJob");

  VolcanoStep negative;
  REQUIRE(ParseVolcanoFail("w/0:PodFailed:-1", &negative, &error));
  CHECK(negative[0].exit_code == -1);

  VolcanoStep s;
  CHECK_FALSE(ParseVolcanoFail("workers/0:PodFailurePolicy:exit code 143", &s, &error));
  CHECK(error ==
        "'workers/0:PodFailurePolicy:exit code 143': 'PodFailurePolicy' is a JobSet failure "
        "reason; a Volcano Job replays events: TASK/INDEX:EVENT[:EXITCODE] with EVENT one of "
        "PodFailed, PodEvicted, PodPending, PodRunning, PodSucceeded, TaskCompleted, "
        "TaskFailed, Unknown");
  CHECK_FALSE(ParseVolcanoFail("worker/0:PodFailed:exit code 143", &s, &error));
  CHECK(error ==
        "'worker/0:PodFailed:exit code 143': EXITCODE: want an integer (the first container's "
        "exit code)");
  CHECK_FALSE(ParseVolcanoFail("worker/x:PodFailed", &s, &error));
  CHECK(error == "'worker/x:PodFailed': INDEX: want a pod index, e.g. worker/0");
  for (const char* bad : {"worker", "worker/0", "worker/0:", "*", "worker/0:Crashed",
                          "Command:", ":PodFailed", "w/0:PodFailed:1:2"}) {
    VolcanoStep b;
    CHECK_MESSAGE(!ParseVolcanoFail(bad, &b, &error), bad);
  }
}

TEST_CASE("volcano replay: scenario files name the field that is wrong") {
  SourceFile f = ParseSource("s.yaml",
                             "steps:\n"
                             "- events: [{task: worker, index: 1, event: PodFailed, exitCode: 1}]\n"
                             "- events:\n"
                             "  - {event: Unknown}\n"
                             "  - {command: ResumeJob}\n");
  std::vector<VolcanoStep> steps;
  std::string error;
  REQUIRE(ParseVolcanoScenario(f.documents[0].root, &steps, &error));
  REQUIRE(steps.size() == 2);
  CHECK(steps[0][0].exit_code == 1);
  CHECK(steps[0][0].index == 1);
  CHECK(steps[1][1].command == "ResumeJob");

  auto fails = [&](const char* yaml) {
    SourceFile bad = ParseSource("s.yaml", yaml);
    std::vector<VolcanoStep> s;
    CHECK_FALSE(ParseVolcanoScenario(bad.documents[0].root, &s, &error));
    return error;
  };
  CHECK(fails("steps:\n- fail: [{job: workers/0, reason: PodFailurePolicy}]\n") ==
        "steps[0].fail: that is the JobSet form; a Volcano Job's step lists events: [{task, "
        "index, event, exitCode}]");
  CHECK(fails("steps:\n- events: [{task: w, index: one, event: PodFailed}]\n") ==
        "steps[0].events[0].index: want an integer");
  CHECK(fails("steps:\n- events: [{task: w, index: 0}]\n") == "steps[0].events[0].event: required");
  CHECK(fails("steps:\n- events: [{task: w, index: 0, event: PodFailed, exit: 1}]\n") ==
        "steps[0].events[0].exit: unknown field (task, index, event, exitCode, command)");
  CHECK(fails("events: []\n") == "steps: want a list of {events: [...]}");
}

TEST_CASE("volcano replay: steps run in order and errors name the step") {
  VolcanoJob job = DecodeTestJob(kJob);
  std::vector<VolcanoStep> steps;
  std::string error;
  for (const char* f : {"worker/1:PodEvicted", "master/0:PodEvicted"}) {
    VolcanoStep step;
    REQUIRE(ParseVolcanoFail(f, &step, &error));
    steps.push_back(step);
  }
  VolcanoReplayResult result;
  REQUIRE(ReplayVolcano(job, steps, &result, &error));
  REQUIRE(result.steps.size() == 2);
  CHECK(result.steps[0].events[0].match.action == VolcanoAction::kRestartTask);
  CHECK(result.steps[0].phase == VolcanoPhase::kRunning);
  CHECK(result.steps[1].events[0].match.action == VolcanoAction::kRestartJob);
  CHECK(result.steps[1].phase == VolcanoPhase::kFailed);  // maxRetry 2: the second restart
  CHECK(result.state.retry_count == 2);

  VolcanoStep bad;
  REQUIRE(ParseVolcanoFail("worker/2:PodFailed", &bad, &error));
  steps.push_back(bad);
  VolcanoReplayResult r2;
  CHECK_FALSE(ReplayVolcano(job, steps, &r2, &error));
  CHECK(error == "step 3: worker/2 is outside its 2 replicas");
}

TEST_CASE("volcano explain: one cell per task and event, and the policies that never fire") {
  VolcanoJob job = DecodeTestJob(kJob);
  std::vector<VolcanoExplainCell> cells = ExplainVolcanoJob(job);
  // Per task: PodFailed exit 3, other codes, PodEvicted, PodPending, TaskCompleted, TaskFailed.
  REQUIRE(cells.size() == 2 * 6 + 1);
  const VolcanoExplainCell& code3 = cells[0];
  CHECK(code3.event == "PodFailed");
  CHECK(code3.has_exit_code);
  CHECK(code3.exit_code == 3);
  CHECK(code3.outcome.events[0].match.action == VolcanoAction::kAbortJob);
  CHECK(code3.outcome.phase == VolcanoPhase::kAborted);
  CHECK(cells[1].other_exit_codes);
  CHECK_FALSE(cells[1].has_exit_code);
  CHECK(cells[1].outcome.events[0].match.kind == VolcanoMatchKind::kNone);
  CHECK(cells[4].event == "TaskCompleted");
  CHECK(cells[4].outcome.phase == VolcanoPhase::kCompleted);
  CHECK(cells[8].event == "PodEvicted");
  CHECK(cells[8].task == 1);
  CHECK(cells[8].outcome.events[0].match.action == VolcanoAction::kRestartTask);
  CHECK(cells[8].outcome.retry_count == 1);
  CHECK(cells[12].event == "Unknown");
  CHECK(cells[12].outcome.events[0].match.kind == VolcanoMatchKind::kNone);

  std::vector<VolcanoDeadPolicy> dead = DeadVolcanoPolicies(job, cells);
  REQUIRE(dead.size() == 3);
  CHECK(dead[0].policy->path == "spec.tasks[0].policies[1]");
  CHECK(dead[0].why == "Unknown carries no task: only job policies see it");
  CHECK(dead[1].policy->path == "spec.tasks[0].policies[2]");
  CHECK(dead[1].why == "PodPending fires a policy only with a timeout");
  CHECK(dead[2].policy->path == "spec.policies[2]");
  CHECK(dead[2].why == "the controller never emits JobUpdated");
}

}  // namespace jobset
