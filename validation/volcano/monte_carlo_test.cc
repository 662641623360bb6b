#include "validation/volcano/monte_carlo.h"

#include <doctest/doctest.h>

#include "tests/test_size.h"
#include "validation/core/loader.h"

namespace jobset {
namespace {

VolcanoJob Job(const std::string& spec_extra) {
  SourceFile f = ParseSource("job.yaml",
                             "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n"
                             "metadata: {name: j}\nspec:\n" +
                                 spec_extra +
                                 "  tasks:\n"
                                 "  - {name: master, replicas: 1}\n"
                                 "  - {name: worker, replicas: 3}\n");
  REQUIRE(!f.documents.empty());
  return DecodeVolcanoJob(f.documents[0].root);
}

VolcanoFailureModel Model(double mttf_h, double run_h) {
  VolcanoFailureModel m;
  m.node_mttf_s = mttf_h * 3600;
  m.run_time_s = run_h * 3600;
  m.restart_time_s = 60;
  m.job_restart_time_s = 30;
  m.faults = DefaultVolcanoFaultMix();
  m.runs = 2000;
  return m;
}

int64_t Ends(const VolcanoMonteCarloResult& r) {
  return r.completed + r.failed_retries + r.failed_at_end + r.aborted + r.terminated +
         r.completed_early + r.unbounded;
}

}  // namespace

TEST_CASE("volcano monte carlo: fault mixes in Volcano terms") {
  std::vector<VolcanoFaultKind> faults;
  std::string error;
  REQUIRE(ParseVolcanoFaultMix("PodEvicted=0.7,PodFailed:137=30%@worker", &faults, &error));
  REQUIRE(faults.size() == 2);
  CHECK(faults[0].event == "PodEvicted");
  CHECK_FALSE(faults[0].has_exit_code);
  CHECK(faults[1].has_exit_code);
  CHECK(faults[1].exit_code == 137);
  CHECK(faults[1].weight == 30);
  CHECK(faults[1].task == "worker");

  CHECK_FALSE(ParseVolcanoFaultMix("PodFailurePolicy:exit code 143=1", &faults, &error));
  CHECK(error ==
        "fault mix: 'PodFailurePolicy': a node failure surfaces as PodEvicted or "
        "PodFailed[:EXITCODE] for a Volcano Job (that is a JobSet failure reason)");
  CHECK_FALSE(ParseVolcanoFaultMix("PodFailed:x=1", &faults, &error));
  CHECK(error == "fault mix: 'PodFailed:x': only PodFailed takes an exit code, an integer");
  CHECK_FALSE(ParseVolcanoFaultMix("PodEvicted", &faults, &error));
  CHECK(error == "fault mix item \"PodEvicted\": want EVENT[:EXITCODE]=WEIGHT[@TASK]");
  CHECK(faults.size() == 2);  // untouched on error
}

TEST_CASE("volcano monte carlo: no failure, every run completes in the run time") {
  VolcanoJob job = Job("  policies:\n  - {event: PodEvicted, action: RestartJob}\n");
  VolcanoFailureModel m = Model(1e9, 24);
  VolcanoMonteCarloResult r = RunVolcanoMonteCarlo(job, m, 2);
  REQUIRE(r.error.empty());
  CHECK(r.nodes == 4);
  CHECK(r.completed == m.runs);
  CHECK(r.time_to_finish.p99 == doctest::Approx(24 * 3600));
  CHECK(r.mean_wasted_node_hours < 0.01);
}

TEST_CASE("volcano monte carlo: maxRetry bounds restarts; no policy leaves pods Failed") {
  // Failures every few hours of a 4-node job running 3 days: the budget runs out.
  VolcanoJob restart = Job("  maxRetry: 2\n  policies:\n  - {event: '*', action: RestartJob}\n");
  VolcanoFailureModel m = Model(24, 72);
  VolcanoMonteCarloResult r = RunVolcanoMonteCarlo(restart, m, 1);
  REQUIRE(r.error.empty());
  CHECK(Ends(r) == m.runs);
  CHECK(r.failed_retries > m.runs / 2);
  CHECK(r.mean_retries <= 2.0);
  CHECK(r.actions.size() == 1);
  CHECK(r.actions[0].first == "RestartJob");

  // Without policies an evicted pod is recreated and a failed one is left Failed: the job runs
  // to the end and fails there (every task's minAvailable is its replicas).
  VolcanoJob none = Job("");
  m.faults = {{"PodFailed", true, 1, 1, "worker"}};
  VolcanoMonteCarloResult left = RunVolcanoMonteCarlo(none, m, 1);
  CHECK(left.failed_retries == 0);
  CHECK(left.failed_at_end > m.runs / 2);
  CHECK(left.completed + left.failed_at_end == m.runs);
  CHECK(left.mean_absorbed > 0);  // later failures hit pods already Failed
}

TEST_CASE("volcano monte carlo: same seed, same result on 1, 2 and 4 threads") {
  VolcanoJob job =
      Job("  maxRetry: 4\n  policies:\n  - {event: PodEvicted, action: RestartJob}\n"
          "  - {exitCode: 1, action: RestartTask}\n");
  VolcanoFailureModel m = Model(24, 72);
  m.checkpoint_interval_s = 3600;
  m.faults = {{"PodEvicted", false, 0, 0.7, ""},
              {"PodFailed", true, 1, 0.2, "worker"},
              {"PodFailed", true, 137, 0.1, ""}};
  m.runs = 3000;  // 12 chunks, the last one partial.
  m.seed = 5;
  const VolcanoMonteCarloResult one = RunVolcanoMonteCarlo(job, m, 1);
  REQUIRE(one.error.empty());
  CHECK(one.runs == 3000);
  CHECK(one.completed > 0);
  CHECK(one.failed_retries > 0);
  for (int threads : {2, 4}) {
    CAPTURE(threads);
    const VolcanoMonteCarloResult r = RunVolcanoMonteCarlo(job, m, threads);
    CHECK(Ends(r) == Ends(one));
    CHECK(r.completed == one.completed);
    CHECK(r.failed_retries == one.failed_retries);
    CHECK(r.failed_at_end == one.failed_at_end);
    CHECK(r.mean_retries == one.mean_retries);
    CHECK(r.mean_failures == one.mean_failures);
    CHECK(r.mean_absorbed == one.mean_absorbed);
    CHECK(r.mean_wasted_node_hours == one.mean_wasted_node_hours);
    CHECK(r.actions == one.actions);
    CHECK(r.time_to_finish.samples == one.time_to_finish.samples);
    CHECK(r.time_to_finish.mean == one.time_to_finish.mean);
  }
  m.seed = 6;
  CHECK(RunVolcanoMonteCarlo(job, m, 2).time_to_finish.samples != one.time_to_finish.samples);
}

TEST_CASE("volcano monte carlo: invalid models are errors, nothing runs") {
  VolcanoJob job = Job("");
  VolcanoFailureModel m = Model(24, 72);
  m.faults = {{"PodEvicted", false, 0, 1, "ps"}};
  CHECK(RunVolcanoMonteCarlo(job, m, 1).error == "fault mix: no task 'ps' (tasks: master, worker)");
  m = Model(24, 0);
  CHECK(RunVolcanoMonteCarlo(job, m, 1).error == "--run-time must be positive");
  SourceFile twice =
      ParseSource("j.yaml",
                  "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nspec:\n  tasks:\n"
                  "  - {name: a, replicas: 0}\n  - {name: a, replicas: 2}\n");
  CHECK(RunVolcanoMonteCarlo(DecodeVolcanoJob(twice.documents[0].root), Model(24, 72), 1).error ==
        "task name 'a' is used twice (the API server rejects it)");
  SourceFile f = ParseSource("j.yaml", "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n");
  CHECK(RunVolcanoMonteCarlo(DecodeVolcanoJob(f.documents[0].root), Model(24, 72), 1).error ==
        "the job has no pod to fail (no task with replicas > 0)");
}

}  // namespace jobset

// --- Hostile input (issue #19) ------------------------------------------------------------

namespace jobset {

TEST_CASE("volcano monte carlo: a job of 200,000 tasks is decoded, checked and run") {
  // Before: decoding looked for each task's name among the tasks before it, and the model
  // check did it again for every task (2e10 comparisons each).
  const int n = HostileSize(200000);
  Node tasks = Node::Seq();
  for (int t = 0; t < n; ++t) {
    Node task = Node::Map();
    task.Set("name", Node::String("t" + std::to_string(t)));
    task.Set("replicas", Node::Int(1));
    tasks.items.push_back(std::move(task));
  }
  Node job = Node::Map();
  job.Set("apiVersion", Node::String("batch.volcano.sh/v1alpha1"));
  job.Set("kind", Node::String("Job"));
  job.Set("metadata", Node::Map()).Set("name", Node::String("wide"));
  job.Set("spec", Node::Map()).Set("tasks", std::move(tasks));
  const VolcanoJob decoded = DecodeVolcanoJob(job);
  REQUIRE(decoded.tasks.size() == static_cast<size_t>(n));
  CHECK(decoded.problems.empty());
  VolcanoFailureModel m = Model(1e30, 24);  // No failure: every run completes.
  m.runs = 2;
  const VolcanoMonteCarloResult r = RunVolcanoMonteCarlo(decoded, m, 1);
  REQUIRE_MESSAGE(r.error.empty(), r.error);
  CHECK(r.nodes == n);
  CHECK(r.completed == 2);
  // A name used twice is found however long the list.
  VolcanoJob twice = decoded;
  twice.tasks.back().name = "t7";
  CHECK(ValidateVolcanoModel(twice, m) ==
        "task name 't7' is used twice (the API server rejects it)");
}

}  // namespace jobset

namespace jobset {

TEST_CASE("volcano monte carlo: 20,000 failures of a million-pod job, each pod restarted") {
  // Before: each run started from a fresh job of a million pods, and each RestartPod recreated
  // and recounted all of them.
  SourceFile f = ParseSource("job.yaml",
                             "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\n"
                             "metadata: {name: big}\nspec:\n  maxRetry: 2147483647\n"
                             "  policies:\n  - {event: PodEvicted, action: RestartPod}\n"
                             "  - {event: PodFailed, action: RestartPod}\n"
                             "  tasks:\n  - {name: w, replicas: 1000000}\n");
  REQUIRE(!f.documents.empty());
  const VolcanoJob job = DecodeVolcanoJob(f.documents[0].root);
  VolcanoFailureModel m = Model(1, 24);
  const int failures = HostileSize(20000);
  m.node_mttf_s = 1e6 * m.run_time_s / failures;  // 20,000 failures per run.
  m.runs = 2;
  const VolcanoMonteCarloResult r = RunVolcanoMonteCarlo(job, m, 1);
  REQUIRE_MESSAGE(r.error.empty(), r.error);
  CHECK(r.nodes == 1'000'000);
  CHECK(r.completed == 2);
  CHECK(r.mean_failures > failures * 0.95);
  CHECK(r.mean_failures < failures * 1.05);
  // Every failure hits a live pod (restarted ones run again) and restarts it: one retry each.
  CHECK(r.mean_absorbed == 0);
  CHECK(r.mean_retries == r.mean_failures);
  REQUIRE(r.actions.size() == 1);
  CHECK(r.actions[0].first == "RestartPod");
  CHECK(r.actions[0].second == r.mean_failures);
}

}  // namespace jobset
