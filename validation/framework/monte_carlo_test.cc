#include "validation/framework/monte_carlo.h"

#include <doctest/doctest.h>

#include <cmath>

#include "tests/test_size.h"
#include "validation/core/loader.h"

namespace jobset {
namespace {

Framework Make(const std::string& roles_yaml, const std::string& fw_retry) {
  SourceFile f = ParseSource("fw.yaml",
                             "apiVersion: frameworkcontroller.microsoft.com/v1\nkind: Framework\n"
                             "metadata: {name: fw}\nspec:\n  retryPolicy: " +
                                 fw_retry + "\n  taskRoles:\n" + roles_yaml);
  REQUIRE(f.documents[0].parsed);
  return DecodeFramework(f.documents[0].root);
}

const char kWorkers[] =
    "  - name: w\n    taskNumber: 4\n"
    "    frameworkAttemptCompletionPolicy: {minFailedTaskCount: 1, minSucceededTaskCount: -1}\n"
    "    task: {retryPolicy: {fancyRetryPolicy: false, maxRetryCount: 0}}\n";

FrameworkFailureModel Model(const char* mix) {
  FrameworkFailureModel m;
  m.node_mttf_s = 100 * 3600;
  m.run_time_s = 100 * 3600;
  m.runs = 2000;
  std::string error;
  REQUIRE_MESSAGE(ParseFrameworkFaultMix(mix, &m.faults, &error), error);
  return m;
}

}  // namespace

TEST_CASE("framework monte carlo: fault mixes") {
  std::vector<FrameworkFault> mix;
  std::string error;
  REQUIRE(ParseFrameworkFaultMix("exit=137/OOMKilled=20%,PodEvicted=0.8@w", &mix, &error));
  REQUIRE(mix.size() == 2);
  CHECK(mix[0].status.code == -1200);
  CHECK(mix[0].weight == doctest::Approx(0.2));
  CHECK(mix[1].role == "w");
  for (const char* bad : {"", "PodEvicted", "PodEvicted=0", "PodEvicted=x", "0=1", "-220=1"})
    CHECK_MESSAGE(!ParseFrameworkFaultMix(bad, &mix, &error), bad);
  CHECK(DefaultFrameworkFaultMix().size() == 2);
}

TEST_CASE("framework monte carlo: the policies decide how runs end") {
  // DEFAULT everywhere: about 1 - e^-4 of the runs meet a failure and fail.
  Framework plain = Make(kWorkers, "{fancyRetryPolicy: false, maxRetryCount: 0}");
  FrameworkMonteCarloResult r = RunFrameworkMonteCarlo(plain, Model("1=1"));
  REQUIRE(r.error.empty());
  CHECK(r.nodes == 4);
  CHECK(r.p_fail == doctest::Approx(1 - std::exp(-4.0)).epsilon(0.05));
  CHECK(r.p_complete + r.p_fail == doctest::Approx(1));
  CHECK(r.mean_restarts == 0);
  // Same seed, same result.
  FrameworkMonteCarloResult again = RunFrameworkMonteCarlo(plain, Model("1=1"));
  CHECK(again.p_fail == r.p_fail);
  CHECK(again.time_to_finish.p50 == r.time_to_finish.p50);

  // Fancy framework retries: evictions never fail the run; they cost restarts.
  Framework fancy = Make(kWorkers, "{fancyRetryPolicy: true, maxRetryCount: 0}");
  FrameworkMonteCarloResult f = RunFrameworkMonteCarlo(fancy, Model("PodEvicted=1"));
  CHECK(f.p_complete == 1);
  CHECK(f.mean_restarts == doctest::Approx(4).epsilon(0.1));
  CHECK(f.mean_counted_restarts == 0);
  CHECK(f.time_to_finish.p99 > f.time_to_finish.p50);
  CHECK(f.mean_wasted_node_hours > 0);

  // Omitted completion counts: a failed task leaves the attempt running without it.
  Framework omitted =
      Make("  - name: w\n    taskNumber: 4\n    task: {retryPolicy: {maxRetryCount: 0}}\n", "{}");
  FrameworkMonteCarloResult o = RunFrameworkMonteCarlo(omitted, Model("1=1"));
  CHECK(o.p_stuck == doctest::Approx(1 - std::exp(-4.0)).epsilon(0.05));
  // With a single task, that failure completes the attempt as Succeeded: a false success.
  Framework single =
      Make("  - name: w\n    taskNumber: 1\n    task: {retryPolicy: {maxRetryCount: 0}}\n", "{}");
  FrameworkMonteCarloResult s = RunFrameworkMonteCarlo(single, Model("1=1"));
  CHECK(s.p_false_success == doctest::Approx(1 - std::exp(-1.0)).epsilon(0.05));

  // maxRetryCount -2: the Framework never ends.
  Framework service = Make(kWorkers, "{maxRetryCount: -2}");
  CHECK(RunFrameworkMonteCarlo(service, Model("1=1")).p_unbounded == 1);

  // Task retries with a budget: counted per task, reset with every attempt.
  Framework retried = Make(
      "  - name: w\n    taskNumber: 4\n"
      "    frameworkAttemptCompletionPolicy: {minFailedTaskCount: 1, minSucceededTaskCount: -1}\n"
      "    task: {retryPolicy: {maxRetryCount: 5}}\n",
      "{}");
  FrameworkMonteCarloResult t = RunFrameworkMonteCarlo(retried, Model("1=1"));
  CHECK(t.p_complete > 0.99);
  CHECK(t.mean_task_restarts == doctest::Approx(4).epsilon(0.1));

  // A fault kind limited to a role that does not exist is an error.
  FrameworkFailureModel bad = Model("1=1@nosuch");
  CHECK(RunFrameworkMonteCarlo(plain, bad).error ==
        "--fault-mix: no task role 'nosuch' (roles: w)");
}

TEST_CASE("framework monte carlo: same seed, same result on 1, 2 and 4 threads") {
  // Task and framework retries with budgets, three fault kinds: every random draw is taken.
  Framework fw = Make(
      "  - name: ps\n    taskNumber: 2\n"
      "    frameworkAttemptCompletionPolicy: {minFailedTaskCount: 1, minSucceededTaskCount: -1}\n"
      "    task: {retryPolicy: {fancyRetryPolicy: true, maxRetryCount: 1}}\n"
      "  - name: w\n    taskNumber: 6\n"
      "    frameworkAttemptCompletionPolicy: {minFailedTaskCount: 2, minSucceededTaskCount: -1}\n"
      "    task: {retryPolicy: {maxRetryCount: 1}}\n",
      "{maxRetryCount: 3}");
  FrameworkFailureModel m = Model("PodEvicted=0.6,1=0.2@w,exit=137/OOMKilled=0.2");
  m.node_mttf_s = 50 * 3600;
  m.checkpoint_interval_s = 3600;
  m.runs = 3000;  // 12 chunks, the last one partial.
  m.seed = 11;
  const FrameworkMonteCarloResult one = RunFrameworkMonteCarlo(fw, m, 1);
  REQUIRE(one.error.empty());
  CHECK(one.runs == 3000);
  CHECK(one.completed > 0);
  CHECK(one.failed > 0);
  CHECK(one.mean_restarts > 0);
  CHECK(one.mean_task_restarts > 0);
  for (int threads : {2, 4}) {
    CAPTURE(threads);
    const FrameworkMonteCarloResult r = RunFrameworkMonteCarlo(fw, m, threads);
    CHECK(r.completed == one.completed);
    CHECK(r.failed == one.failed);
    CHECK(r.stuck == one.stuck);
    CHECK(r.false_success == one.false_success);
    CHECK(r.mean_restarts == one.mean_restarts);
    CHECK(r.mean_counted_restarts == one.mean_counted_restarts);
    CHECK(r.mean_task_restarts == one.mean_task_restarts);
    CHECK(r.mean_failures == one.mean_failures);
    CHECK(r.mean_wasted_node_hours == one.mean_wasted_node_hours);
    CHECK(r.time_to_finish.samples == one.time_to_finish.samples);
    CHECK(r.time_to_finish.mean == one.time_to_finish.mean);
  }
  m.seed = 12;
  CHECK(RunFrameworkMonteCarlo(fw, m, 2).time_to_finish.samples != one.time_to_finish.samples);
}

}  // namespace jobset

// --- Hostile input (issue #19) ------------------------------------------------------------

namespace jobset {

TEST_CASE("framework monte carlo: 150,000 task roles of one task each") {
  // Before: each failure walked the roles to find its task, and each task that completed at
  // the end of a run recounted every task (2.25e10 steps per run).
  const int n = HostileSize(150000), failures = HostileSize(20000);
  std::string roles;
  for (int k = 0; k < n; ++k) {
    roles += "  - name: r" + std::to_string(k) +
             "\n    taskNumber: 1\n    task: {retryPolicy: {maxRetryCount: -1}}\n";
  }
  const Framework fw = Make(roles, "{maxRetryCount: 0}");
  FrameworkFailureModel m = Model("1=1");
  m.runs = 4;
  m.node_mttf_s = n * m.run_time_s / failures;  // 20,000 failures per run, each retried.
  m.task_restart_time_s = 0;
  const FrameworkMonteCarloResult r = RunFrameworkMonteCarlo(fw, m, 1);
  REQUIRE_MESSAGE(r.error.empty(), r.error);
  CHECK(r.nodes == n);
  CHECK(r.completed == 4);
  CHECK(r.mean_task_restarts == doctest::Approx(failures).epsilon(0.02));
  CHECK(r.mean_task_restarts == r.mean_failures);
}

}  // namespace jobset
