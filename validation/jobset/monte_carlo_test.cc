#include "validation/jobset/monte_carlo.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/test_size.h"

namespace jobset {
namespace {

constexpr double kHour = 3600;

// A JobSet named "js" with replicated jobs {name, replicas} (parallelism unset: 1 pod per Job).
JobSet MakeJobSet(const std::vector<std::pair<std::string, int64_t>>& rjobs,
                  std::optional<FailurePolicy> failure_policy) {
  JobSet js;
  js.name = "js";
  for (const auto& [name, replicas] : rjobs) {
    ReplicatedJob rj;
    rj.name = name;
    rj.replicas = replicas;
    js.replicated_jobs.push_back(rj);
  }
  js.failure_policy = std::move(failure_policy);
  return js;
}

FailurePolicyRule Rule(std::string name, std::string action, std::vector<std::string> reasons = {},
                       std::vector<std::string> patterns = {},
                       std::vector<std::string> targets = {}) {
  FailurePolicyRule r;
  r.name = std::move(name);
  r.action = std::move(action);
  r.on_job_failure_reasons = std::move(reasons);
  r.on_job_failure_message_patterns = std::move(patterns);
  r.target_replicated_jobs = std::move(targets);
  return r;
}

FailurePolicy Policy(int64_t max_restarts, std::vector<FailurePolicyRule> rules = {}) {
  FailurePolicy fp;
  fp.max_restarts = max_restarts;
  fp.rules = std::move(rules);
  return fp;
}

FaultKind Kind(std::string reason, double weight, std::string message = "") {
  FaultKind k;
  k.reason = std::move(reason);
  k.message = std::move(message);
  k.weight = weight;
  return k;
}

// N = nodes, mean failures per run N·T/MTTF = `mu`, with run time 1.5 h.
FailureModel Model(double mu, int64_t runs = 20000) {
  FailureModel m;
  m.run_time_s = 1.5 * kHour;
  m.node_mttf_s = 100.0 * m.run_time_s / mu;  // With 100 nodes: N·T/MTTF = mu.
  m.restart_time_s = 60;
  m.job_restart_time_s = 20;
  m.faults = {Kind("BackoffLimitExceeded", 1)};
  m.runs = runs;
  m.seed = 42;
  return m;
}

// A JobSet of 100 single-pod jobs (100 nodes).
JobSet Hundred(std::optional<FailurePolicy> fp) { return MakeJobSet({{"w", 100}}, std::move(fp)); }

MonteCarloResult Run(const JobSet& js, const FailureModel& m, int threads = 2,
                     FeatureGates gates = {}) {
  const PreparedPolicy p = PreparePolicy(js, gates);
  MonteCarloResult r = RunMonteCarlo(p, js, m, threads);
  REQUIRE_MESSAGE(r.error.empty(), r.error);
  return r;
}

// |got - want| within 4 standard errors.
void CheckWithin(double got, double want, double standard_error) {
  INFO("got " << got << ", want " << want << " ± 4 × " << standard_error);
  CHECK(std::abs(got - want) <= 4 * standard_error);
}

double BinomialSe(double p, int64_t n) { return std::sqrt(p * (1 - p) / static_cast<double>(n)); }

// P(Poisson(mu) > k).
double PoissonTail(double mu, int k) {
  double term = std::exp(-mu), cdf = 0;
  for (int j = 0; j <= k; ++j) {
    cdf += term;
    term *= mu / (j + 1);
  }
  return 1 - cdf;
}

}  // namespace

TEST_CASE("monte carlo: no failure policy fails with P = 1 - exp(-N T / MTTF)") {
  const double mu = 1.5;
  const FailureModel m = Model(mu);
  const MonteCarloResult r = Run(Hundred(std::nullopt), m);
  CHECK(r.nodes == 100);
  CHECK(r.runs_done == m.runs);
  CHECK(r.completed + r.failed == m.runs);
  const double want = 1 - std::exp(-mu);
  CheckWithin(r.p_fail, want, BinomialSe(want, m.runs));
  CHECK(r.p_complete == doctest::Approx(1 - r.p_fail));
  CHECK(r.actions.no_policy_fail == r.failed);
  CHECK(r.mean_restarts == 0);
  // Every completed run saw no failure: it finished in exactly the run time.
  CHECK(r.time_to_finish.min == doctest::Approx(m.run_time_s));
  CHECK(r.time_to_finish.max == doctest::Approx(m.run_time_s));
  CHECK(r.mean_failures == doctest::Approx(r.p_fail));
}

TEST_CASE("monte carlo: a FailJobSet rule fails with P = 1 - exp(-N T / MTTF)") {
  const double mu = 1.2;
  FailureModel m = Model(mu);
  // Derived nodes: 25 jobs × parallelism 4 = 100.
  JobSet js = MakeJobSet({{"w", 25}}, Policy(3, {Rule("fatal", "FailJobSet")}));
  js.replicated_jobs[0].parallelism = 4;
  const MonteCarloResult r = Run(js, m);
  CHECK(r.nodes == 100);
  const double want = 1 - std::exp(-mu);
  CheckWithin(r.p_fail, want, BinomialSe(want, m.runs));
  CHECK(r.actions.fail_jobset == r.failed);
  // A failed run wastes all its node-time: N × E[time of the first failure | before T].
  const double rate = mu / m.run_time_s;
  const double p_ok = std::exp(-mu);
  const double mean_fail_time = 1 / rate - m.run_time_s * p_ok / (1 - p_ok);
  CHECK(r.mean_time_to_fail_s == doctest::Approx(mean_fail_time).epsilon(0.03));
  CHECK(r.mean_wasted_node_hours ==
        doctest::Approx(r.p_fail * 100 * r.mean_time_to_fail_s / kHour).epsilon(1e-9));
}

TEST_CASE("monte carlo: unlimited restarts average N T / MTTF restarts; downtime adds R each") {
  const double mu = 1.5;
  const FailureModel m = Model(mu);
  const MonteCarloResult r =
      Run(Hundred(Policy(0, {Rule("any", "RestartJobSetAndIgnoreMaxRestarts")})), m);
  CHECK(r.completed == m.runs);
  CHECK(r.p_complete == 1);
  // Failures happen during productive time only, so restarts ~ Poisson(N·T/MTTF) exactly.
  const double se = std::sqrt(mu / m.runs);
  CheckWithin(r.mean_restarts, mu, se);
  CHECK(r.mean_restarts == doctest::Approx(r.mean_failures));
  CHECK(r.mean_counted_restarts == 0);
  CHECK(r.actions.restart_jobset_ignore_max == doctest::Approx(r.mean_restarts * m.runs));
  // Time to finish = T + restarts × restart time.
  CheckWithin(r.time_to_finish.mean, m.run_time_s + mu * m.restart_time_s, m.restart_time_s * se);
  // Waste: all 100 nodes idle during each restart (progress kept: no rollback).
  CHECK(r.mean_wasted_node_hours ==
        doctest::Approx(r.mean_restarts * 100 * m.restart_time_s / kHour).epsilon(1e-9));
}

TEST_CASE("monte carlo: maxRestarts k with counted restarts fails with P(Poisson > k)") {
  const double mu = 1.5;
  const FailureModel m = Model(mu);
  for (int k : {0, 1, 2, 4}) {
    CAPTURE(k);
    const MonteCarloResult r = Run(Hundred(Policy(k)), m);  // The default action: RestartJobSet.
    const double want = PoissonTail(mu, k);
    CheckWithin(r.p_fail, want, BinomialSe(want, m.runs));
    CHECK(r.actions.reached_max == r.failed);
    CHECK(r.actions.restart_jobset == 0);
    CHECK(r.actions.default_restart == doctest::Approx(r.mean_restarts * m.runs));
    CHECK(r.mean_counted_restarts == doctest::Approx(r.mean_restarts));
  }
}

TEST_CASE("monte carlo: a restart from scratch matches (e^{λT} - 1)(1/λ + R)") {
  FailureModel m = Model(1.0);
  m.checkpoint_interval_s = m.run_time_s;  // Any restart loses all progress.
  m.restart_time_s = 600;
  const MonteCarloResult r =
      Run(Hundred(Policy(0, {Rule("any", "RestartJobSetAndIgnoreMaxRestarts")})), m);
  REQUIRE(r.completed == m.runs);
  const double rate = 1.0 / m.run_time_s;
  const double want = (std::exp(1.0) - 1) * (1 / rate + m.restart_time_s);
  double var = 0;
  for (double x : r.time_to_finish.samples) {
    var += (x - r.time_to_finish.mean) * (x - r.time_to_finish.mean);
  }
  var /= static_cast<double>(r.completed - 1);
  CheckWithin(r.time_to_finish.mean, want, std::sqrt(var / static_cast<double>(r.completed)));
  // Waste is the time beyond T on all nodes: downtime plus lost progress.
  CHECK(r.mean_wasted_node_hours ==
        doctest::Approx((r.time_to_finish.mean - m.run_time_s) * 100 / kHour).epsilon(1e-9));
}

TEST_CASE("monte carlo: checkpoint rollback increases the time to finish and the waste") {
  FailureModel m = Model(1.5, 5000);
  const JobSet js = Hundred(Policy(0, {Rule("any", "RestartJobSetAndIgnoreMaxRestarts")}));
  const MonteCarloResult kept = Run(js, m);
  m.checkpoint_interval_s = 1800;
  const MonteCarloResult rolled = Run(js, m);
  CHECK(rolled.time_to_finish.mean > kept.time_to_finish.mean + 60);
  CHECK(rolled.mean_wasted_node_hours > kept.mean_wasted_node_hours);
  CHECK(rolled.mean_restarts > kept.mean_restarts);  // More productive time, more failures.
}

TEST_CASE("monte carlo: no failures: no waste, finish time = run time exactly") {
  FailureModel m = Model(1.0, 1000);
  m.node_mttf_s = 1e300;
  MonteCarloResult r = Run(Hundred(Policy(0)), m);
  CHECK(r.completed == 1000);
  CHECK(r.failures_simulated == 0);
  CHECK(r.mean_wasted_node_hours == 0);
  CHECK(r.time_to_finish.p50 == m.run_time_s);
  CHECK(r.time_to_finish.p90 == m.run_time_s);
  CHECK(r.time_to_finish.p99 == m.run_time_s);
  CHECK(r.time_to_finish.mean == m.run_time_s);
  REQUIRE(r.time_to_finish.histogram.size() == kHistogramBins);
  CHECK(r.time_to_finish.histogram[0] == 1000);
  CHECK(r.time_to_finish.bin_width == 0);

  m.node_mttf_s = std::numeric_limits<double>::infinity();
  r = Run(Hundred(Policy(0)), m);
  CHECK(r.completed == 1000);
  CHECK(r.failure_rate == 0);
}

TEST_CASE("monte carlo: same seed, same result on 1, 2 and 4 threads; other seeds differ") {
  FailureModel m = Model(2.0, 3000);
  m.checkpoint_interval_s = 900;
  m.faults = {Kind("PodFailurePolicy", 0.6, "failed with exit code 143"),
              Kind("BackoffLimitExceeded", 0.3), Kind("DeadlineExceeded", 0.1)};
  const JobSet js = MakeJobSet({{"driver", 1}, {"workers", 99}},
                               Policy(3, {Rule("maintenance", "RestartJobAndIgnoreMaxRestarts",
                                               {"PodFailurePolicy"}, {"exit code 143"}),
                                          Rule("driver", "FailJobSet", {}, {}, {"driver"}),
                                          Rule("deadline", "RestartJob", {"DeadlineExceeded"})}));
  FeatureGates gates;
  gates.restart_job = true;
  const MonteCarloResult a = Run(js, m, 1, gates);
  for (int threads : {2, 4}) {
    CAPTURE(threads);
    const MonteCarloResult b = Run(js, m, threads, gates);
    CHECK(a.completed == b.completed);
    CHECK(a.failed == b.failed);
    CHECK(a.failures_simulated == b.failures_simulated);
    CHECK(a.mean_restarts == b.mean_restarts);
    CHECK(a.mean_job_restarts == b.mean_job_restarts);
    CHECK(a.mean_counted_restarts == b.mean_counted_restarts);
    CHECK(a.mean_wasted_node_hours == b.mean_wasted_node_hours);
    CHECK(a.time_to_finish.mean == b.time_to_finish.mean);
    CHECK(a.time_to_finish.samples == b.time_to_finish.samples);
    CHECK(a.time_to_finish.histogram == b.time_to_finish.histogram);
    CHECK(a.actions.restart_job_ignore_max == b.actions.restart_job_ignore_max);
    CHECK(a.actions.restart_job == b.actions.restart_job);
    CHECK(a.actions.default_restart == b.actions.default_restart);
  }
  // Every path was taken.
  CHECK(a.actions.restart_job_ignore_max > 0);
  CHECK(a.actions.restart_job > 0);
  CHECK(a.actions.default_restart > 0);
  CHECK(a.actions.reached_max > 0);
  CHECK(a.completed > 0);

  // Matching every failure's reason and message (RE2) decides the same as precomputing.
  m.precompute_matches = false;
  const MonteCarloResult d = Run(js, m, 2, gates);
  CHECK(d.time_to_finish.samples == a.time_to_finish.samples);
  CHECK(d.failures_simulated == a.failures_simulated);
  CHECK(d.actions.restart_job_ignore_max == a.actions.restart_job_ignore_max);
  CHECK(d.actions.restart_job == a.actions.restart_job);
  CHECK(d.actions.fail_jobset == a.actions.fail_jobset);
  CHECK(d.mean_wasted_node_hours == a.mean_wasted_node_hours);

  m.precompute_matches = true;
  m.seed = 43;
  const MonteCarloResult c = Run(js, m, 2, gates);
  CHECK(c.time_to_finish.samples != a.time_to_finish.samples);
  CHECK(c.failures_simulated != a.failures_simulated);
}

TEST_CASE("monte carlo: individual restarts cost the job restart time") {
  const double mu = 1.5;
  const FailureModel m = Model(mu);
  FeatureGates gates;
  gates.restart_job = true;
  const MonteCarloResult r =
      Run(Hundred(Policy(0, {Rule("any", "RestartJobAndIgnoreMaxRestarts")})), m, 2, gates);
  CHECK(r.completed == m.runs);
  CHECK(r.mean_restarts == 0);
  const double se = std::sqrt(mu / m.runs);
  CheckWithin(r.mean_job_restarts, mu, se);
  CheckWithin(r.time_to_finish.mean, m.run_time_s + mu * m.job_restart_time_s,
              m.job_restart_time_s * se);
}

TEST_CASE("monte carlo: the fault mix routes failures to the rules by weight") {
  const FailureModel base = Model(2.0, 5000);
  FailureModel m = base;
  m.faults = DefaultFaultMix();
  const JobSet js = Hundred(Policy(1000, {Rule("maintenance", "RestartJobSetAndIgnoreMaxRestarts",
                                               {"PodFailurePolicy"}, {"exit code 143$"}),
                                          Rule("other", "RestartJobSet", {"PodFailurePolicy"})}));
  const MonteCarloResult r = Run(js, m);
  const double n = static_cast<double>(r.actions.restart_jobset_ignore_max +
                                       r.actions.default_restart + r.actions.restart_jobset);
  REQUIRE(n > 1000);
  // The default mix's message ends "... at index 0", so the `$` pattern never matches: the
  // PodFailurePolicy failures fall through to the second rule.
  CHECK(r.actions.restart_jobset_ignore_max == 0);
  CheckWithin(r.actions.restart_jobset / n, 0.9, BinomialSe(0.9, static_cast<int64_t>(n)));
  CheckWithin(r.actions.default_restart / n, 0.1, BinomialSe(0.1, static_cast<int64_t>(n)));

  const JobSet js2 = Hundred(Policy(0, {Rule("maintenance", "RestartJobSetAndIgnoreMaxRestarts",
                                             {"PodFailurePolicy"}, {"exit code 143"})}));
  const MonteCarloResult r2 = Run(js2, m);
  // Counted default restarts with maxRestarts 0: the first BackoffLimitExceeded fails the run.
  CheckWithin(r2.p_fail, 1 - std::exp(-0.2), BinomialSe(1 - std::exp(-0.2), m.runs));
  // Restarts = PodFailurePolicy failures before min(T, the first BackoffLimitExceeded): with
  // a = 0.1·μ and b = 0.9·μ (per run time), E = b·E[m] and Var = b·E[m] + b²·Var(m) for
  // m = min(1, Exp(a)).
  const double a = 0.2, b = 1.8;
  const double em = (1 - std::exp(-a)) / a;
  const double em2 = 2 * (1 - std::exp(-a) * (1 + a)) / (a * a);
  const double var = b * em + b * b * (em2 - em * em);
  CheckWithin(r2.mean_restarts, b * em, std::sqrt(var / m.runs));
}

TEST_CASE("monte carlo: a kind bound to one replicated job; others absorb their failures") {
  const double mu = 1.6;
  FailureModel m = Model(mu);
  std::string error;
  REQUIRE(ParseFaultMix("BackoffLimitExceeded=1@b", &m.faults, &error));
  const JobSet js = MakeJobSet({{"a", 50}, {"b", 50}}, std::nullopt);
  const MonteCarloResult r = Run(js, m);
  CHECK(r.nodes == 100);
  const double want = 1 - std::exp(-mu / 2);
  CheckWithin(r.p_fail, want, BinomialSe(want, m.runs));
  CHECK(r.failures_ignored > 0);
  CHECK(r.failures_ignored < r.failures_simulated);

  // Explicit nodes are spread by the derived shares; rate follows the node count.
  m.nodes = 50;
  const MonteCarloResult half = Run(js, m);
  CHECK(half.nodes == 50);
  const double want_half = 1 - std::exp(-mu / 4);
  CheckWithin(half.p_fail, want_half, BinomialSe(want_half, m.runs));
}

TEST_CASE("monte carlo: RestartJob with the gate off leaves the run stuck") {
  const double mu = 1.5;
  const FailureModel m = Model(mu);
  const MonteCarloResult r = Run(Hundred(Policy(5, {Rule("job", "RestartJob")})), m);
  const double want = 1 - std::exp(-mu);
  CheckWithin(r.p_stuck, want, BinomialSe(want, m.runs));
  CHECK(r.stuck + r.completed == m.runs);
  CHECK(r.actions.stuck == r.stuck);
  CHECK(r.failed == 0);
  // Stuck runs waste without bound: the mean waste is over completed runs (here 0).
  CHECK(r.mean_wasted_node_hours == 0);
}

TEST_CASE("monte carlo: a run over max_failures_per_run counts as unbounded") {
  const double mu = 1.5;
  FailureModel m = Model(mu);
  m.max_failures_per_run = 1;
  const MonteCarloResult r =
      Run(Hundred(Policy(0, {Rule("any", "RestartJobSetAndIgnoreMaxRestarts")})), m);
  const double want = PoissonTail(mu, 1);
  CheckWithin(r.p_unbounded, want, BinomialSe(want, m.runs));
  CHECK(r.unbounded + r.completed == m.runs);
}

TEST_CASE("monte carlo: cancel returns a partial result; progress is reported") {
  FailureModel m = Model(1.5, 20'000'000);
  const JobSet js = Hundred(std::nullopt);
  const PreparedPolicy p = PreparePolicy(js, {});

  std::atomic<bool> cancel{true};
  MonteCarloResult r = RunMonteCarlo(p, js, m, 2, &cancel);
  CHECK(r.cancelled);
  CHECK(r.runs_done == 0);

  cancel = false;
  int calls = 0;
  int64_t last_done = -1;
  bool monotonic = true;
  const auto start = std::chrono::steady_clock::now();
  r = RunMonteCarlo(p, js, m, 2, &cancel, [&](int64_t done, int64_t total) {
    CHECK(total == m.runs);
    monotonic = monotonic && done >= last_done;
    last_done = done;
    ++calls;
    cancel = true;
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.cancelled);
  CHECK(r.runs_done > 0);
  CHECK(r.runs_done < m.runs);
  CHECK(monotonic);
  CHECK(calls >= 2);  // At least one periodic call and the final one.
  CHECK(last_done == r.runs_done);
  CHECK(r.completed + r.failed == r.runs_done);
  CHECK(r.p_complete + r.p_fail == doctest::Approx(1));
  CHECK(seconds < 5);

  // Without cancel, the final call reports every run.
  m.runs = 1000;
  last_done = -1;
  r = RunMonteCarlo(p, js, m, 1, nullptr, [&](int64_t done, int64_t) { last_done = done; });
  CHECK_FALSE(r.cancelled);
  CHECK(last_done == 1000);
}

TEST_CASE("monte carlo: 5 replicated jobs × 3,000 pods run without per-pod memory") {
  FailureModel m = Model(2.0, 2000);
  m.node_mttf_s = 15000.0 * m.run_time_s / 2.0;  // N·T/MTTF = 2 over 15,000 nodes.
  m.faults = DefaultFaultMix();
  const JobSet js = MakeJobSet(
      {{"a", 3000}, {"b", 3000}, {"c", 3000}, {"d", 3000}, {"e", 3000}},
      Policy(10, {Rule("maintenance", "RestartJob", {"PodFailurePolicy"}, {"exit code 143"})}));
  FeatureGates gates;
  gates.restart_job = true;
  const auto start = std::chrono::steady_clock::now();
  const MonteCarloResult r = Run(js, m, 2, gates);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.nodes == 15000);
  CHECK(r.runs_done == 2000);
  CHECK(r.completed + r.failed == 2000);
  CHECK(r.mean_failures == doctest::Approx(2.0).epsilon(0.1));
  CHECK(r.mean_job_restarts == doctest::Approx(1.8).epsilon(0.1));
  CHECK(seconds < 5);
}

TEST_CASE("monte carlo: ModelNodeCount derives nodes per pod or per job") {
  JobSet js = MakeJobSet({{"a", 3}, {"b", 2}}, std::nullopt);
  js.replicated_jobs[0].parallelism = 4;
  FailureModel m;
  CHECK(ModelNodeCount(js, m) == 14);
  m.nodes_per_pod = 2;
  CHECK(ModelNodeCount(js, m) == 28);
  m.nodes_per_job = 8;
  CHECK(ModelNodeCount(js, m) == 40);
  m.nodes = 7;
  CHECK(ModelNodeCount(js, m) == 7);
}

TEST_CASE("monte carlo: invalid models are reported, not run") {
  const JobSet js = Hundred(std::nullopt);
  const PreparedPolicy p = PreparePolicy(js, {});
  const auto error = [&](FailureModel m) { return RunMonteCarlo(p, js, m, 1).error; };
  FailureModel m = Model(1.0, 10);
  CHECK(error(m).empty());
  FailureModel bad = m;
  bad.node_mttf_s = 0;
  CHECK(error(bad) == "node MTTF must be positive");
  bad = m;
  bad.run_time_s = 0;
  CHECK(error(bad) == "run time must be positive");
  bad = m;
  bad.restart_time_s = -1;
  CHECK(error(bad) == "restart time must not be negative");
  bad = m;
  bad.runs = 100'000'001;
  CHECK(error(bad) == "runs must be at most 100000000");
  bad = m;
  bad.faults.clear();
  CHECK(error(bad) == "the fault mix is empty");
  bad = m;
  bad.faults[0].rjob_name = "nope";
  CHECK(error(bad) ==
        "fault mix: unknown replicated job \"nope\" for reason \"BackoffLimitExceeded\" "
        "(replicated jobs: w)");
  bad = m;
  bad.faults[0].rjob = 3;
  CHECK(error(bad).find("out of range") != std::string::npos);
  JobSet empty = MakeJobSet({{"w", 0}}, std::nullopt);
  CHECK(RunMonteCarlo(PreparePolicy(empty, {}), empty, m, 1).error.find("no pods") !=
        std::string::npos);
  m.runs = 0;
  const MonteCarloResult none = RunMonteCarlo(p, js, m, 2);
  CHECK(none.error.empty());
  CHECK(none.runs_done == 0);
  CHECK_FALSE(none.cancelled);
}

}  // namespace jobset

namespace jobset {

TEST_CASE("monte carlo: faulty arrivals fail at the start; a pre-flight check catches them") {
  FailureModel m = Model(1.0, 20000);
  m.node_mttf_s = std::numeric_limits<double>::infinity();  // only the faulty arrivals fail
  m.arrive_faulty = 0.02;
  m.faulty_fails_after_s = 600;          // e.g. a collective timeout
  const JobSet js = Hundred(Policy(0));  // the first failure fails the JobSet
  const MonteCarloResult without = Run(js, m);
  CheckWithin(without.mean_faulty_nodes, 2.0, std::sqrt(100 * 0.02 * 0.98 / 20000));
  const double p_fail = 1 - std::pow(0.98, 100);
  CheckWithin(without.p_fail, p_fail, BinomialSe(p_fail, 20000));
  CHECK(without.mean_time_to_fail_s == 600);  // the first one fails the JobSet
  CHECK(without.mean_wasted_node_hours == doctest::Approx(100 * 600 / 3600.0 * without.p_fail));
  CHECK(without.mean_check_s == 0);

  m.node_check = true;
  m.node_check_round_s = 120;
  const MonteCarloResult caught = Run(js, m);
  CHECK(caught.p_fail == 0);
  CHECK(caught.mean_faulty_caught == caught.mean_faulty_nodes);
  // One round when nothing is caught, else 2 rounds, a job restart and a re-check round.
  const double p_any = 1 - std::pow(0.98, 100);
  CheckWithin(caught.mean_check_s, 120 + p_any * (240 + m.job_restart_time_s),
              (240 + m.job_restart_time_s) * BinomialSe(p_any, 20000));
  CHECK(caught.mean_wasted_node_hours == doctest::Approx(100 * caught.mean_check_s / 3600));
  CHECK(caught.time_to_finish.min >= m.run_time_s + 120);

  m.node_check_miss = 0.5;  // each faulty node slips through with chance 1/2
  const MonteCarloResult missed = Run(js, m, 1);
  const double p_slip = 1 - std::pow(0.99, 100);
  CheckWithin(missed.p_fail, p_slip, BinomialSe(p_slip, 20000));
  const MonteCarloResult again = Run(js, m, 2);
  CHECK(again.p_fail == missed.p_fail);  // same seed, same result, whatever the threads
  CHECK(again.mean_check_s == missed.mean_check_s);
  CHECK(again.time_to_finish.samples == missed.time_to_finish.samples);
}

TEST_CASE("monte carlo: faulty arrivals at scale, and their restarts") {
  FailureModel m = Model(1.0, 2000);
  m.node_mttf_s = std::numeric_limits<double>::infinity();
  m.arrive_faulty = 0.01;
  m.nodes = 10000;  // mean 100 faulty nodes: the normal approximation
  const MonteCarloResult r = Run(Hundred(Policy(1000)), m);
  CheckWithin(r.mean_faulty_nodes, 100, std::sqrt(99.0 / 2000));
  CHECK(r.p_complete == 1);
  CHECK(r.mean_failures == r.mean_faulty_nodes);  // one failure each, then replaced
  CHECK(r.mean_restarts == r.mean_faulty_nodes);

  m.arrive_faulty = 1.5;
  const PreparedPolicy p = PreparePolicy(Hundred(Policy(0)), {});
  CHECK(RunMonteCarlo(p, Hundred(Policy(0)), m, 1).error ==
        "the faulty-arrival fraction must be between 0 and 1");
}

}  // namespace jobset

// --- Hostile input (issue #19) ------------------------------------------------------------

namespace jobset {

TEST_CASE("monte carlo: 50,000 replicated jobs and 50,000 rules, rule k targeting job k") {
  // Before: a flag per rule and replicated job (2.5 GB, copied once more for the fault mix), and
  // each of the 100,000 failures looked at every rule and every outcome until its own.
  const int n = HostileSize(50000);
  std::vector<std::pair<std::string, int64_t>> rjobs;
  std::vector<FailurePolicyRule> rules;
  for (int i = 0; i < n; ++i) {
    rjobs.emplace_back("rj-" + std::to_string(i), 1);
    rules.push_back(Rule("r-" + std::to_string(i), "RestartJobSetAndIgnoreMaxRestarts",
                         {"PodFailurePolicy"}, {}, {"rj-" + std::to_string(i)}));
  }
  const JobSet js = MakeJobSet(rjobs, Policy(1'000'000'000, std::move(rules)));
  const double mu = n;  // Failures per run.
  FailureModel m = Model(mu, 2);
  m.node_mttf_s = n * m.run_time_s / mu;
  m.restart_time_s = 0;
  m.faults = DefaultFaultMix();  // PodFailurePolicy 0.9 (the rules), BackoffLimitExceeded 0.1.
  const MonteCarloResult r = Run(js, m, 1);
  CHECK(r.nodes == n);
  CHECK(r.completed == 2);
  CheckWithin(r.mean_failures, mu, std::sqrt(mu / 2));
  const double total = static_cast<double>(r.failures_simulated);
  CheckWithin(r.actions.restart_jobset_ignore_max / total, 0.9,
              BinomialSe(0.9, r.failures_simulated));
  CHECK(r.actions.restart_jobset_ignore_max + r.actions.default_restart == r.failures_simulated);
}

TEST_CASE("monte carlo: 150,000 fault kinds, each bound to one of 150,000 replicated jobs") {
  // Before: each kind's replicated job was looked up by name in the list, and each replicated
  // job looked at every kind: 2e10 comparisons here.
  const int n = HostileSize(150000);
  std::vector<std::pair<std::string, int64_t>> rjobs;
  FailureModel m = Model(5, 10);
  m.faults.clear();
  for (int i = 0; i < n; ++i) {
    rjobs.emplace_back("rj-" + std::to_string(i), 1);
    m.faults.push_back(Kind("BackoffLimitExceeded", 1));
    m.faults.back().rjob_name = "rj-" + std::to_string(n - 1 - i);
  }
  m.node_mttf_s = n * m.run_time_s / 5;
  const JobSet js = MakeJobSet(rjobs, std::nullopt);
  const PreparedPolicy p = PreparePolicy(js, FeatureGates{});
  const MonteCarloResult r = RunMonteCarlo(p, js, m, 1);
  REQUIRE_MESSAGE(r.error.empty(), r.error);
  CHECK(r.failed == 10);  // No failure policy: the first failure fails the run.
  CHECK(r.actions.no_policy_fail == 10);
  CHECK(r.failures_ignored == 0);  // Every replicated job has its kind.

  m.faults.back().rjob_name = "rj-x";
  const std::string error = ValidateFailureModel(p, js, m);
  CHECK(error.starts_with(
      "fault mix: unknown replicated job \"rj-x\" for reason \"BackoffLimitExceeded\""));
}

TEST_CASE("monte carlo: 150,000 rules and 150,000 fault kinds of as many reasons") {
  // Before: the fault mix specialisation matched every rule against every kind (2.25e10 here:
  // minutes); now it costs the rules' patterns against the kinds' distinct messages. Rules x kinds
  // stay over 2^20 (SpecializeByMessage, not SpecializeByKind) at any size.
  const int n = HostileSize(150000, 1025);
  std::vector<FailurePolicyRule> rules;
  FailureModel m = Model(20, 5);
  m.faults.clear();
  for (int k = 0; k < n; ++k) {
    const std::string reason = "R-" + std::to_string(k);
    // Two rules in 500 also need an exit code of 10 to 19 in the message: one gets 13, the other
    // 0 (its kind takes the default action).
    rules.push_back(Rule("r-" + std::to_string(k), "RestartJobSetAndIgnoreMaxRestarts", {reason},
                         k % 500 == 13 || k % 500 == 0
                             ? std::vector<std::string>{"exit code 1[0-9]$"}
                             : std::vector<std::string>{}));
    m.faults.push_back(Kind(reason, 1, "exit code " + std::to_string(k % 20)));
  }
  m.restart_time_s = 0;
  const JobSet js = Hundred(Policy(1'000'000'000, std::move(rules)));
  const MonteCarloResult a = Run(js, m, 1);
  CHECK(a.completed == m.runs);
  CHECK(a.failures_simulated > 50);
  CHECK(a.actions.restart_jobset_ignore_max + a.actions.default_restart == a.failures_simulated);
  CHECK(a.actions.restart_jobset_ignore_max > 0);

  // Matching every failure's reason and message decides the same.
  m.precompute_matches = false;
  const MonteCarloResult b = Run(js, m, 1);
  CHECK(b.failures_simulated == a.failures_simulated);
  CHECK(b.actions.restart_jobset_ignore_max == a.actions.restart_jobset_ignore_max);
  CHECK(b.actions.default_restart == a.actions.default_restart);
  CHECK(b.time_to_finish.samples == a.time_to_finish.samples);
}

TEST_CASE("monte carlo: 60,000 rules with a message pattern and 60,000 distinct messages") {
  // Before: the fault mix specialisation ran every rule's pattern against every distinct message
  // (3.6e9 RE2 searches here: minutes); now one RE2::Set search per message. Rule k matches the
  // message of kind k alone ("err-1( |$)" does not match "err-12 on node"); even rules restart
  // without counting, odd ones count. Rules x kinds stay over 2^20 (SpecializeByMessage).
  const int n = HostileSize(60000, 1025);
  std::vector<FailurePolicyRule> rules;
  FailureModel m = Model(20, 2);
  m.faults.clear();
  for (int k = 0; k < n; ++k) {
    rules.push_back(Rule("r-" + std::to_string(k),
                         k % 2 ? "RestartJobSet" : "RestartJobSetAndIgnoreMaxRestarts", {},
                         {"err-" + std::to_string(k) + "( |$)"}));
    m.faults.push_back(Kind("BackoffLimitExceeded", 1, "err-" + std::to_string(k) + " on node"));
  }
  m.restart_time_s = 0;
  const JobSet js = Hundred(Policy(1'000'000'000, std::move(rules)));
  const MonteCarloResult a = Run(js, m, 1);
  CHECK(a.completed == m.runs);
  CHECK(a.failures_simulated > 20);
  CHECK(a.actions.default_restart == 0);  // Every message matches its rule.
  CHECK(a.actions.restart_jobset > 0);
  CHECK(a.actions.restart_jobset_ignore_max > 0);
  CHECK(a.actions.restart_jobset + a.actions.restart_jobset_ignore_max == a.failures_simulated);

  // Matching every failure's message with RE2 decides the same.
  m.precompute_matches = false;
  const MonteCarloResult b = Run(js, m, 1);
  CHECK(b.failures_simulated == a.failures_simulated);
  CHECK(b.actions.restart_jobset == a.actions.restart_jobset);
  CHECK(b.actions.restart_jobset_ignore_max == a.actions.restart_jobset_ignore_max);
  CHECK(b.time_to_finish.samples == a.time_to_finish.samples);
}

TEST_CASE("monte carlo: patterns decided once per message decide as RE2 on every failure") {
  // Kinds sharing messages, rules mixing patterns, reasons and targets: both ways agree.
  const JobSet js = MakeJobSet(
      {{"a", 40}, {"b", 60}}, Policy(3, {Rule("oom-b", "FailJobSet", {}, {"(?i)oom"}, {"b"}),
                                         Rule("code", "RestartJobSetAndIgnoreMaxRestarts",
                                              {"PodFailurePolicy"}, {"exit code 1[0-9]", "signal"}),
                                         Rule("never", "FailJobSet", {}, {"("}),
                                         Rule("deadline", "RestartJobSet", {"DeadlineExceeded"})}));
  // Without filler, the rules are decided per kind; with 270,000 rare filler kinds (over 2^20
  // rules x kinds), per message.
  for (const int filler : {0, 270000}) {
    CAPTURE(filler);
    FailureModel m = Model(3, 2000);
    m.faults = {
        Kind("PodFailurePolicy", 3, "exit code 13"),  Kind("PodFailurePolicy", 1, "OOMKilled"),
        Kind("BackoffLimitExceeded", 1, "OOMKilled"), Kind("DeadlineExceeded", 1, ""),
        Kind("PodFailurePolicy", 1, "exit code 2"),   Kind("PodFailurePolicy", 1, "signal 9")};
    for (int k = 0; k < filler; ++k) m.faults.push_back(Kind("Filler", 1e-9, "oom"));
    const MonteCarloResult a = Run(js, m, 2);
    m.precompute_matches = false;
    const MonteCarloResult b = Run(js, m, 2);
    CHECK(a.failed == b.failed);
    CHECK(a.completed == b.completed);
    CHECK(a.failures_simulated == b.failures_simulated);
    CHECK(a.actions.fail_jobset == b.actions.fail_jobset);
    CHECK(a.actions.restart_jobset == b.actions.restart_jobset);
    CHECK(a.actions.restart_jobset_ignore_max == b.actions.restart_jobset_ignore_max);
    CHECK(a.actions.default_restart == b.actions.default_restart);
    CHECK(a.actions.reached_max == b.actions.reached_max);
    CHECK(a.time_to_finish.samples == b.time_to_finish.samples);
    // Every rule that can match did.
    CHECK(a.actions.fail_jobset > 0);
    CHECK(a.actions.restart_jobset > 0);
    CHECK(a.actions.restart_jobset_ignore_max > 0);
    CHECK(a.actions.default_restart > 0);
  }
}

}  // namespace jobset
