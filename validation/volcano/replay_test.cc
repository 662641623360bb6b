#include "validation/volcano/replay.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <random>
#include <string>

#include "tests/test_size.h"
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

namespace jobset {
namespace {

// A random small job whose PodFailed no policy takes, with TaskCompleted and other policies of
// random actions (some delayed), random minAvailable, minSuccess and maxRetry.
std::string RandomOthersJob(std::mt19937& rng) {
  const char* actions[] = {"CompleteJob", "RestartJob",   "RestartTask",
                           "AbortJob",    "TerminateJob", "RestartPod"};
  auto policy = [&](const char* event) {
    std::string p = std::string("    - {event: ") + event + ", action: " + actions[rng() % 6];
    if (rng() % 4 == 0) p += ", timeout: 1m";
    return p + "}\n";
  };
  std::string y =
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\nspec:\n"
      "  maxRetry: " +
      std::to_string(1 + rng() % 3) + "\n";
  if (rng() % 3 == 0) y += "  minAvailable: " + std::to_string(rng() % 6) + "\n";
  if (rng() % 4 == 0) y += "  minSuccess: " + std::to_string(1 + rng() % 5) + "\n";
  if (rng() % 2)
    y += "  policies:\n" + std::string(rng() % 2 ? policy("TaskCompleted") : "") +
         policy(rng() % 2 ? "PodEvicted" : "TaskCompleted");
  y += "  tasks:\n";
  const int tasks = 1 + static_cast<int>(rng() % 3);
  for (int t = 0; t < tasks; ++t) {
    const int64_t replicas = static_cast<int64_t>(rng() % 5);
    y += "  - name: t" + std::to_string(t) + "\n    replicas: " + std::to_string(replicas) + "\n";
    if (rng() % 2) y += "    minAvailable: " + std::to_string(rng() % (replicas + 2)) + "\n";
    if (rng() % 2) y += "    policies:\n" + policy("TaskCompleted");
  }
  return y;
}

TEST_CASE("volcano explain: a dead policy names its first takers, and it costs the cells once") {
  // 5,000 tasks whose own policy takes PodEvicted, 5,000 job policies on PodEvicted and exit
  // codes: every job policy is dead. Comparing each policy with every cell was 10,000 x 35,000.
  std::string yaml =
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: big}\nspec:\n"
      "  policies:\n";
  const int n = HostileSize(5000, 10);  // More than the 8 takers a dead policy names.
  for (int k = 0; k < n; ++k) {
    yaml += k % 2 ? "  - {event: PodEvicted, action: AbortJob}\n"
                  : "  - {exitCode: " + std::to_string(k % 7 + 1) + ", action: AbortJob}\n";
  }
  yaml += "  tasks:\n";
  for (int t = 0; t < n; ++t) {
    yaml += "  - name: t" + std::to_string(t) +
            "\n    replicas: 1\n    policies: [{event: '*', action: RestartTask}]\n";
  }
  const VolcanoJob job = DecodeTestJob(yaml);
  const std::vector<VolcanoExplainCell> cells = ExplainVolcanoJob(job);
  CHECK(cells.size() == static_cast<size_t>(n) * 12 + 1);  // 7 codes, another, 4 events; Unknown
  const std::vector<VolcanoDeadPolicy> dead = DeadVolcanoPolicies(job, cells);
  REQUIRE(dead.size() == static_cast<size_t>(n));
  CHECK(dead[1].policy->path == "spec.policies[1]");
  std::string first8;
  for (int t = 0; t < 8; ++t) {
    first8 += (t ? ", spec.tasks[" : "spec.tasks[") + std::to_string(t) + "].policies[0]";
  }
  CHECK(dead[0].why == "taken first by " + first8 + " and others");
  CHECK(dead[1].why == "taken first by " + first8 + " and others");
}

TEST_CASE("volcano: the end when the other pods succeed is the per-pod replay's") {
  // PhaseWhenOthersSucceed makes one request per task instead of one per pod: the pod-by-pod
  // replay (one PodSucceeded per other pod, as `explain` did before) must end the same.
  std::mt19937 rng(7);
  int compared = 0;
  const int rounds = RandomTrials(3000);
  for (int round = 0; round < rounds; ++round) {
    const std::string yaml = RandomOthersJob(rng);
    const VolcanoJob job = DecodeTestJob(yaml);
    for (size_t t = 0; t < job.tasks.size(); ++t) {
      VolcanoPhase fast = VolcanoPhase::kRunning;
      if (!PhaseWhenOthersSucceed(job, static_cast<int>(t), 1, &fast)) continue;
      std::vector<VolcanoStep> steps = {{{job.tasks[t].name, 0, "PodFailed", true, 1, ""}}, {}};
      for (size_t u = 0; u < job.tasks.size(); ++u)
        for (int64_t i = 0; i < job.tasks[u].replicas; ++i)
          if (u != t || i != 0)
            steps[1].push_back({job.tasks[u].name, i, "PodSucceeded", false, 0, ""});
      VolcanoReplayResult slow;
      std::string error;
      REQUIRE_MESSAGE(ReplayVolcano(job, steps, &slow, &error), yaml << error);
      CHECK_MESSAGE(VolcanoPhaseName(fast) == VolcanoPhaseName(slow.state.phase),
                    yaml << "task " << t);
      ++compared;
    }
  }
  CHECK(compared > rounds);  // Each job has more than one task.
}

TEST_CASE("volcano: the end when the other pods succeed costs tasks, not pods") {
  // 1,000 tasks of 1,000 pods: a request per pod made a step of a million events per task.
  std::string yaml =
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: big}\nspec:\n"
      "  tasks:\n";
  for (int t = 0; t < 1000; ++t) {
    yaml += "  - {name: t" + std::to_string(t) + ", replicas: 1000}\n";
  }
  const VolcanoJob job = DecodeTestJob(yaml);
  for (int t = 0; t < 1000; t += 100) {
    VolcanoPhase end = VolcanoPhase::kRunning;
    REQUIRE(PhaseWhenOthersSucceed(job, t, 1, &end));
    CHECK(end == VolcanoPhase::kFailed);  // every task's minAvailable is its replicas
  }
}

}  // namespace
}  // namespace jobset

// --- Hostile input (issue #19): the pod model ------------------------------------------------
// Jobs of a million pods (the most explain and simulate model): a request, a restart or an
// explain cell must not cost the job's pods. The names of these cases say "million-pod".

namespace jobset {
namespace {

// A Volcano Job of `tasks` tasks t0, t1, ... of `replicas` pods each, with `spec_extra` (ending
// in a newline) before the tasks and `task_extra` (flow mapping entries) in each task.
VolcanoJob WideJob(int tasks, int64_t replicas, const std::string& spec_extra,
                   const std::string& task_extra = "") {
  std::string yaml =
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: big}\nspec:\n" +
      spec_extra + "  tasks:\n";
  for (int t = 0; t < tasks; ++t) {
    yaml += "  - {name: t" + std::to_string(t) + ", replicas: " + std::to_string(replicas) +
            task_extra + "}\n";
  }
  VolcanoJob job = DecodeTestJob(yaml);
  REQUIRE(job.problems.empty());
  return job;
}

// The pods of `state` in `phase`, over all tasks.
int64_t PodsIn(const VolcanoState& state, VolcanoPodPhase phase) {
  return state.pods.JobCounts()[phase];
}

}  // namespace

TEST_CASE("volcano replay: 40,000 RestartJob steps of a million-pod job") {
  // Before: every restart killed, recreated and recounted each of the million pods.
  const VolcanoJob job = WideJob(1, 1'000'000,
                                 "  maxRetry: 2147483647\n"
                                 "  policies:\n  - {event: PodEvicted, action: RestartJob}\n");
  const int n = HostileSize(40000);
  std::vector<VolcanoStep> steps;
  for (int i = 0; i < n; ++i)
    steps.push_back({{"t0", i * int64_t{7919} % 1'000'000, "PodEvicted", false, 0, ""}});
  VolcanoReplayResult r;
  std::string error;
  REQUIRE_MESSAGE(ReplayVolcano(job, steps, &r, &error), error);
  REQUIRE(r.steps.size() == static_cast<size_t>(n));
  CHECK(r.state.retry_count == n);
  CHECK(r.state.version == n);
  CHECK(r.state.phase == VolcanoPhase::kRunning);
  const VolcanoStepOutcome& last = r.steps.back();
  CHECK(last.events[0].match.action == VolcanoAction::kRestartJob);
  CHECK_FALSE(last.events[0].request.stale);
  CHECK(last.settled == std::vector<VolcanoPhase>{VolcanoPhase::kPending, VolcanoPhase::kRunning});
  CHECK(last.retry_count == n);
  CHECK(PodsIn(r.state, VolcanoPodPhase::kRunning) == 1'000'000);
}

TEST_CASE(
    "volcano replay: 100,000 PodFailed requests no policy acts on in one step of a "
    "million-pod job") {
  // Before: each request's sync recounted the million pods.
  const VolcanoJob job = WideJob(1, 1'000'000, "");
  const int n = HostileSize(100000);
  std::vector<VolcanoStep> steps(1);
  for (int i = 0; i < n; ++i) steps[0].push_back({"t0", int64_t{10} * i, "PodFailed", true, 1, ""});
  VolcanoReplayResult r;
  std::string error;
  REQUIRE_MESSAGE(ReplayVolcano(job, steps, &r, &error), error);
  REQUIRE(r.steps[0].events.size() == static_cast<size_t>(n));
  int64_t synced = 0;
  for (const VolcanoEventOutcome& e : r.steps[0].events) {
    synced += e.match.kind == VolcanoMatchKind::kNone && e.after == VolcanoPhase::kRunning &&
              e.note.empty();
  }
  CHECK(synced == n);
  CHECK(r.state.phase == VolcanoPhase::kRunning);
  CHECK(r.state.retry_count == 0);
  CHECK(PodsIn(r.state, VolcanoPodPhase::kFailed) == n);
  CHECK(PodsIn(r.state, VolcanoPodPhase::kRunning) == 1'000'000 - n);
}

TEST_CASE("volcano replay: every other pod of a million-pod job succeeds in one step") {
  // What `explain` asks for each task no policy restarts: a pod fails, then all the other pods
  // succeed. Before, explain replayed one PodSucceeded per pod, each counting the Succeeded pods
  // of its task: killed after 120 s on this million-pod job. PhaseWhenOthersSucceed costs the
  // tasks; the per-pod replay agrees with it (300,000 pods: its outcomes alone take 250 MB).
  const char kJob[] =
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: big}\nspec:\n"
      "  tasks:\n  - {name: a, replicas: 1}\n  - {name: b, replicas: %d}\n";
  char yaml[sizeof(kJob) + 16];
  std::snprintf(yaml, sizeof(yaml), kJob, 999'999);
  VolcanoPhase end = VolcanoPhase::kRunning;
  REQUIRE(PhaseWhenOthersSucceed(DecodeTestJob(yaml), 0, 1, &end));
  // Every pod finished, a is one short of its minAvailable (its replicas): the job fails.
  CHECK(end == VolcanoPhase::kFailed);

  const int64_t n = HostileSize(300'000);
  std::snprintf(yaml, sizeof(yaml), kJob, static_cast<int>(n));
  const VolcanoJob job = DecodeTestJob(yaml);
  std::vector<VolcanoStep> steps = {{{"a", 0, "PodFailed", true, 1, ""}}, {}};
  for (int64_t i = 0; i < n; ++i) steps[1].push_back({"b", i, "PodSucceeded", false, 0, ""});
  VolcanoReplayResult r;
  std::string error;
  REQUIRE_MESSAGE(ReplayVolcano(job, steps, &r, &error), error);
  CHECK(r.steps[0].phase == VolcanoPhase::kRunning);
  const std::vector<VolcanoEventOutcome>& events = r.steps[1].events;
  REQUIRE(events.size() == static_cast<size_t>(n));
  // Only b's last pod completes its task; a never completes.
  int64_t completed = 0;
  for (const VolcanoEventOutcome& e : events) completed += e.request.event == "TaskCompleted";
  CHECK(completed == 1);
  CHECK(events.front().request.event == "OutOfSync");
  CHECK(events.back().request.event == "TaskCompleted");
  CHECK(r.state.phase == VolcanoPhase::kFailed);
  CHECK(PodsIn(r.state, VolcanoPodPhase::kSucceeded) == n);
  CHECK(PodsIn(r.state, VolcanoPodPhase::kFailed) == 1);
  REQUIRE(PhaseWhenOthersSucceed(job, 0, 1, &end));
  CHECK(end == r.state.phase);
}

TEST_CASE("volcano explain: 50,000 tasks of 20 pods, a million-pod job") {
  // Before: each of the 250,001 cells started from a fresh job of a million pods, and each of
  // the 50,000 never-firing task policies looked at every cell.
  const int tasks = HostileSize(50000);
  const VolcanoJob job =
      WideJob(tasks, 20, "", ", policies: [{event: JobUpdated, action: AbortJob}]");
  const VolcanoJob small =
      WideJob(2, 20, "", ", policies: [{event: JobUpdated, action: AbortJob}]");
  const std::vector<VolcanoExplainCell> cells = ExplainVolcanoJob(job);
  const std::vector<VolcanoExplainCell> want = ExplainVolcanoJob(small);
  // Per task: PodFailed, PodEvicted, PodPending, TaskCompleted, TaskFailed; then Unknown.
  REQUIRE(want.size() == 2 * 5 + 1);
  REQUIRE(cells.size() == static_cast<size_t>(tasks) * 5 + 1);
  CHECK(want[2].event == "PodPending");
  CHECK(want[2].outcome.phase == VolcanoPhase::kPending);  // one pod short of minAvailable
  int64_t same = 0;
  for (size_t i = 0; i < cells.size(); ++i) {
    const VolcanoExplainCell& c = cells[i];
    const VolcanoExplainCell& w = i + 1 == cells.size() ? want.back() : want[i % 5];
    const int task = i + 1 == cells.size() ? -1 : static_cast<int>(i / 5);
    same += c.task == task && c.event == w.event && c.exit_code == w.exit_code &&
            c.outcome.events[0].match.kind == w.outcome.events[0].match.kind &&
            c.outcome.events[0].match.action == w.outcome.events[0].match.action &&
            c.outcome.phase == w.outcome.phase && c.outcome.retry_count == 0 &&
            c.outcome.settled == w.outcome.settled;
  }
  CHECK(same == static_cast<int64_t>(cells.size()));
  const std::vector<VolcanoDeadPolicy> dead = DeadVolcanoPolicies(job, cells);
  REQUIRE(dead.size() == static_cast<size_t>(tasks));
  CHECK(dead[0].policy->path == "spec.tasks[0].policies[0]");
  CHECK(dead.back().policy->path == "spec.tasks[" + std::to_string(tasks - 1) + "].policies[0]");
  CHECK(dead.back().why == "the controller never emits JobUpdated");
}

}  // namespace jobset
