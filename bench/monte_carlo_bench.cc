// The Monte Carlo benchmark: simulated node failures per second per core of RunMonteCarlo on a
// realistic policy and a 15,000-node model, on one thread and on two, in one process.
//
//   monte_carlo_bench [--runs N] [--repeat R] [--seed S]
//
// Prints a table and a JSON line. Throughput is failures per CPU second of the process (what a
// core delivers, unaffected by other load on the machine); the speed-up is the wall-clock ratio
// of one thread to two (meaningful only on an otherwise idle machine: the load averages are
// printed alongside). The best of R repeats is kept for each thread count. A last row measures,
// for comparison, one thread matching reasons and message patterns (RE2) on every failure
// instead of once per fault kind (FailureModel::precompute_matches = false).

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "validation/jobset/monte_carlo.h"
#include "validation/jobset/policy_engine.h"
#include "validation/jobset/types.h"

namespace jobset::bench {
namespace {

/// A 15,001-node training JobSet: one driver pod and 3,750 worker Jobs of 4 pods, one node per
/// pod. Host maintenance (exit 143 via a pod failure policy) restarts the JobSet without using
/// budget, any driver failure is fatal, everything else takes the default (counted) restart.
JobSet MakeJobSet() {
  JobSet js;
  js.name = "llm-pretrain";
  ReplicatedJob driver;
  driver.name = "driver";
  driver.replicas = 1;
  ReplicatedJob workers;
  workers.name = "workers";
  workers.replicas = 3750;
  workers.parallelism = 4;
  workers.completions = 4;
  js.replicated_jobs = {driver, workers};
  FailurePolicy fp;
  fp.max_restarts = 100;
  FailurePolicyRule maintenance;
  maintenance.name = "host-maintenance";
  maintenance.action = "RestartJobSetAndIgnoreMaxRestarts";
  maintenance.on_job_failure_reasons = {"PodFailurePolicy"};
  maintenance.on_job_failure_message_patterns = {"exit code 143", "reason=Maintenance"};
  maintenance.target_replicated_jobs = {"workers"};
  FailurePolicyRule fatal;
  fatal.name = "driver-fatal";
  fatal.action = "FailJobSet";
  fatal.target_replicated_jobs = {"driver"};
  fp.rules = {maintenance, fatal};
  js.failure_policy = fp;
  return js;
}

/// Node MTTF 1 year, 3 days of training: about 125 node failures per run.
FailureModel MakeModel(int64_t runs, uint64_t seed) {
  FailureModel m;
  m.node_mttf_s = 365 * 86400.0;
  m.run_time_s = 3 * 86400.0;
  m.restart_time_s = 60;
  m.job_restart_time_s = 30;
  m.checkpoint_interval_s = 600;
  m.faults = DefaultFaultMix();
  m.runs = runs;
  m.seed = seed;
  return m;
}

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

long MaxRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

/// One measurement: the best wall time and the best CPU time over the repeats.
struct Measure {
  int threads = 0;
  double wall_s = 0;
  double cpu_s = 0;
  MonteCarloResult result;
  double FailuresPerCpuSecond() const {
    return static_cast<double>(result.failures_simulated) / cpu_s;
  }
  double FailuresPerWallSecond() const {
    return static_cast<double>(result.failures_simulated) / wall_s;
  }
};

Measure Run(const PreparedPolicy& policy, const JobSet& js, const FailureModel& model, int threads,
            int repeat) {
  Measure m;
  m.threads = threads;
  for (int i = 0; i < repeat; ++i) {
    const double cpu0 = CpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    MonteCarloResult r = RunMonteCarlo(policy, js, model, threads);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = CpuSeconds() - cpu0;
    if (!r.error.empty()) {
      std::fprintf(stderr, "monte_carlo_bench: %s\n", r.error.c_str());
      std::exit(1);
    }
    if (i == 0 || wall < m.wall_s) m.wall_s = wall;
    if (i == 0 || cpu < m.cpu_s) m.cpu_s = cpu;
    m.result = std::move(r);
  }
  return m;
}

int Main(int argc, char** argv) {
  int64_t runs = 20000;
  int repeat = 3;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--runs" || arg == "--repeat" || arg == "--seed") && i + 1 < argc) {
      const char* value = argv[++i];
      if (arg == "--runs") runs = std::strtoll(value, nullptr, 10);
      if (arg == "--repeat") repeat = std::max(1, std::atoi(value));
      if (arg == "--seed") seed = std::strtoull(value, nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: monte_carlo_bench [--runs N] [--repeat R] [--seed S]\n");
      return 2;
    }
  }
  const JobSet js = MakeJobSet();
  const PreparedPolicy policy = PreparePolicy(js, FeatureGates{});
  const FailureModel model = MakeModel(runs, seed);

  std::printf("machine: %u hardware threads, load %s\n", std::thread::hardware_concurrency(),
              LoadAverage().c_str());
  std::printf("model: %" PRId64
              " nodes, MTTF 365d, run 72h, restart 60s, checkpoint 10m, "
              "mix 90%% PodFailurePolicy(exit 143) / 10%% BackoffLimitExceeded, %" PRId64
              " runs, best of %d\n",
              ModelNodeCount(js, model), runs, repeat);

  // Warm-up: first-touch of the RE2 DFA, page faults of the sample vectors.
  {
    FailureModel warm = model;
    warm.runs = std::min<int64_t>(runs, 200);
    RunMonteCarlo(policy, js, warm, 1);
  }
  const Measure one = Run(policy, js, model, 1, repeat);
  const Measure two = Run(policy, js, model, 2, repeat);
  const double speedup = one.wall_s / two.wall_s;
  // For comparison: rule reasons and message patterns (RE2) matched on every failure.
  FailureModel unspecialised = model;
  unspecialised.precompute_matches = false;
  const Measure re2 = Run(policy, js, unspecialised, 1, repeat);

  const MonteCarloResult& r = one.result;
  std::printf(
      "result: pComplete %.4f pFail %.4f meanRestarts %.1f meanCountedRestarts %.2f "
      "meanFailures %.1f meanWastedNodeHours %.0f p50 %.0fs p90 %.0fs p99 %.0fs\n",
      r.p_complete, r.p_fail, r.mean_restarts, r.mean_counted_restarts, r.mean_failures,
      r.mean_wasted_node_hours, r.time_to_finish.p50, r.time_to_finish.p90, r.time_to_finish.p99);
  std::printf("%-14s %12s %9s %9s %22s %18s\n", "threads", "failures", "wall s", "cpu s",
              "failures/s/core (cpu)", "failures/s (wall)");
  for (const Measure* m : {&one, &two, &re2}) {
    std::printf("%-14s %12" PRId64 " %9.3f %9.3f %20.2fM %16.2fM\n",
                m == &re2   ? "1 (RE2/fail)"
                : m == &one ? "1"
                            : "2",
                m->result.failures_simulated, m->wall_s, m->cpu_s, m->FailuresPerCpuSecond() / 1e6,
                m->FailuresPerWallSecond() / 1e6);
  }
  const bool same = one.result.time_to_finish.samples == two.result.time_to_finish.samples &&
                    one.result.failures_simulated == two.result.failures_simulated &&
                    one.result.time_to_finish.samples == re2.result.time_to_finish.samples;
  std::printf(
      "2-thread speed-up (wall): %.2fx; per-core throughput at 2 threads: %.0f%% of 1; "
      "results identical: %s; goal 5M failures/s/core: %s; max RSS %ld KB; load now %s\n",
      speedup, 100 * two.FailuresPerCpuSecond() / one.FailuresPerCpuSecond(), same ? "yes" : "NO",
      one.FailuresPerCpuSecond() >= 5e6 ? "met" : "NOT met", MaxRssKb(), LoadAverage().c_str());
  std::printf("JSON {\"nodes\":%" PRId64 ",\"runs\":%" PRId64 ",\"failures\":%" PRId64
              ",\"failures_per_s_per_core_1t\":%.0f,\"failures_per_s_per_core_2t\":%.0f,"
              "\"failures_per_s_per_core_re2\":%.0f,\"wall_s_1t\":%.4f,\"wall_s_2t\":%.4f,"
              "\"speedup_2t\":%.3f,\"identical\":%s,\"max_rss_kb\":%ld}\n",
              r.nodes, runs, r.failures_simulated, one.FailuresPerCpuSecond(),
              two.FailuresPerCpuSecond(), re2.FailuresPerCpuSecond(), one.wall_s, two.wall_s,
              speedup, same ? "true" : "false", MaxRssKb());
  return 0;
}

}  // namespace
}  // namespace jobset::bench

int main(int argc, char** argv) { return jobset::bench::Main(argc, argv); }
