// Monte Carlo simulation of a JobSet failure policy under a node failure model: what the policy
// costs (`simulate --monte-carlo`). Each simulated run replays node failures, one at a time,
// through the controller's algorithm (policy_engine.h) and charges the restarts it orders.
//
// The model (FailureModel):
//   - The JobSet spans N nodes. Node failures arrive as a Poisson process of rate N/MTTF, during
//     productive time only: while the JobSet or a Job is being recreated nothing runs, so
//     nothing fails (downtime does not advance the failure clock).
//   - A failure hits a uniformly random node: its replicated job is drawn in proportion to the
//     replicated job's nodes, the job index uniformly, then a fault kind by weight among the
//     kinds that surface in that replicated job (weights renormalised). When no kind applies to
//     that replicated job, the failure is absorbed: it is counted (failures_ignored) and has no
//     effect, as if the workload tolerated it.
//   - The failure is one step of ApplyFailures (one failed Job per step). A global restart
//     (RestartJobSet*, including the default action) costs restart_time_s of downtime; an
//     individual restart (RestartJob*) costs job_restart_time_s, for the whole JobSet (a
//     synchronous job waits for the recreated one). During downtime all N nodes are idle:
//     wasted. A restart also rolls progress back to the last checkpoint (checkpoint_interval_s;
//     0 keeps all progress); the lost progress × N is wasted too. After each restart the jobs
//     are ready again (MarkJobsReady).
//   - A FailJobSet or ReachedMaxRestarts makes the run fail: all its node-time (N × wall time)
//     is wasted. A stuck controller (RestartJob* with gate RestartJob off, an unknown action)
//     never finishes: the run is counted as stuck and stops. A run with more than
//     max_failures_per_run failures is counted as unbounded and stops.
//   - Progress reaching run_time_s completes the run; its time to finish is productive time
//     plus downtime.
//
// Runs are independent: run i draws from its own generator seeded from (seed, i), and results
// are merged in run order, so a seed gives the same result whatever the thread count (the
// driver, generator and summaries are every kind's: validation/sim/). Memory
// does not depend on the pod count (pods and jobs are never materialised; only the controller's
// per-index restart counters, one per Job, exist once a RestartJob action runs) and grows with
// the run count only by one time-to-finish sample per completed run.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "validation/jobset/fault_mix.h"
#include "validation/jobset/policy_engine.h"
#include "validation/jobset/types.h"
#include "validation/sim/driver.h"
#include "validation/sim/summary.h"

namespace jobset {

/// The failure model of a Monte Carlo simulation. Durations are in seconds.
struct FailureModel {
  /// Nodes the JobSet spans; 0 = derived from the JobSet (see ModelNodeCount). Nodes are spread
  /// over the replicated jobs in proportion to their derived node counts.
  int64_t nodes = 0;
  int64_t nodes_per_pod = 1;  ///< For the derived count: nodes per pod (>= 1).
  int64_t nodes_per_job = 0;  ///< For the derived count: nodes per Job, when > 0 (pods ignored).
  double node_mttf_s = 0;     ///< Mean time to failure of one node (> 0; +inf: never fails).
  double run_time_s = 0;      ///< Failure-free time the job needs to finish (> 0).
  double restart_time_s = 0;  ///< Downtime of a global restart (recreate the whole JobSet).
  double job_restart_time_s = 0;  ///< Downtime of an individual restart (recreate one Job).
  /// 0: progress survives a restart (frequent checkpoints); > 0: a restart rolls progress back
  /// to the last multiple of this interval.
  double checkpoint_interval_s = 0;
  std::vector<FaultKind> faults;  ///< The fault mix (non-empty).
  int64_t runs = 10000;           ///< Simulated runs (at most 100,000,000).
  uint64_t seed = 1;              ///< Same seed, same result.
  /// A run with more failures than this stops and counts as unbounded (e.g. endless
  /// RestartJobSetAndIgnoreMaxRestarts under an extreme model).
  int64_t max_failures_per_run = 1'000'000;
  /// Decide each rule's reasons and message patterns once per fault kind (every failure of a
  /// kind carries the same reason and message) instead of matching them, RE2 included, on
  /// every failure. The result is the same either way; false is for tests and benchmarks.
  bool precompute_matches = true;
  /// Pre-flight node check (DLRover-style `--network-check`), off by default. When
  /// arrive_faulty > 0, each node is faulty at the start of a run with this chance (the count is
  /// binomial); a faulty node nobody caught fails after faulty_fails_after_s, one failure per
  /// node, each handled by the policy like any node failure (a restart replaces it with a
  /// healthy node).
  double arrive_faulty = 0;
  /// Run the check before each run: it takes one round of node_check_round_s when it catches
  /// no node, else two rounds plus a job restart (job_restart_time_s, the relaunch of the caught
  /// nodes) and one more round for their replacements; all N nodes are idle meanwhile (wasted).
  bool node_check = false;
  /// How long a faulty node nobody caught holds the job before it fails (e.g. a collective
  /// timeout): all N nodes wait, wasted, without progress.
  double faulty_fails_after_s = 0;
  double node_check_round_s = 0;  ///< Duration of one check round.
  double node_check_miss = 0;     ///< Chance that a faulty node passes the check.
};

/// How often each failure-policy outcome happened (totals over all runs, one per pass).
struct ActionCounts {
  int64_t fail_jobset = 0;                ///< A FailJobSet rule failed the JobSet.
  int64_t restart_jobset = 0;             ///< A RestartJobSet rule restarted the JobSet.
  int64_t restart_jobset_ignore_max = 0;  ///< A RestartJobSetAndIgnoreMaxRestarts rule.
  int64_t restart_job = 0;                ///< A RestartJob rule restarted one Job.
  int64_t restart_job_ignore_max = 0;     ///< A RestartJobAndIgnoreMaxRestarts rule.
  int64_t default_restart = 0;            ///< No rule matched: the default RestartJobSet restarted.
  int64_t reached_max = 0;                ///< A counted action hit maxRestarts: ReachedMaxRestarts.
  int64_t no_policy_fail = 0;  ///< No spec.failurePolicy: the first failure failed the JobSet.
  int64_t stuck = 0;           ///< A pass that errored (the run stopped, stuck).
};

/// The outcome of RunMonteCarlo. Means are per run over runs_done unless noted.
struct MonteCarloResult {
  std::string error;  ///< Invalid model or JobSet: nothing ran, everything else is zero.
  int64_t runs = 0;   ///< Requested.
  int64_t runs_done = 0;
  int64_t completed = 0, failed = 0, stuck = 0, unbounded = 0;
  double p_complete = 0, p_fail = 0, p_stuck = 0, p_unbounded = 0;
  double mean_restarts = 0;          ///< Global restarts (status.restarts).
  double mean_job_restarts = 0;      ///< Individual restarts (RestartJob*).
  double mean_counted_restarts = 0;  ///< CountedRestarts at the end of the run.
  double mean_failures = 0;          ///< Node failures per run, absorbed ones included.
  ActionCounts actions;              ///< Totals; divide by runs_done for means.
  /// N × (downtime + lost progress) for a completed run, N × its wall time for a failed run;
  /// averaged over completed and failed runs (stuck and unbounded runs waste without bound).
  double mean_wasted_node_hours = 0;
  double mean_time_to_fail_s = 0;  ///< Wall time of the failed runs, on average.
  FinishTimes time_to_finish;      ///< Over completed runs.
  int64_t nodes = 0;               ///< N, as used.
  double failure_rate = 0;         ///< N / MTTF: failures per productive second.
  int64_t failures_simulated = 0;  ///< Node failures drawn in total (absorbed ones included).
  int64_t failures_ignored = 0;    ///< Failures no fault kind applied to (absorbed).
  bool cancelled = false;          ///< Stopped by the cancel flag: runs_done < runs.
  double mean_faulty_nodes = 0;    ///< Nodes arriving faulty per run (arrive_faulty).
  double mean_faulty_caught = 0;   ///< Of them, caught by the pre-flight check per run.
  double mean_check_s = 0;         ///< Wall time of the pre-flight check per run.
};

/// Nodes of replicated job `rjob` by the derived count: replicas × (nodes_per_job when > 0,
/// else parallelism × nodes_per_pod; parallelism defaults to 1).
int64_t DerivedNodes(const ReplicatedJob& rjob, const FailureModel& model);

/// N: model.nodes when > 0, else Σ DerivedNodes over the replicated jobs.
int64_t ModelNodeCount(const JobSet& js, const FailureModel& model);

/// Checks the model against the JobSet and policy (positive durations and weights, resolvable
/// fault kinds, at least one node). "" when valid, else the first problem.
std::string ValidateFailureModel(const PreparedPolicy& policy, const JobSet& js,
                                 const FailureModel& model);

/// Progress callback: runs done so far and runs requested.
using MonteCarloProgress = SimProgress;

/// Runs model.runs simulated runs of `policy` (prepared from `js`) on `threads` threads (<= 0:
/// the hardware's), from the calling thread. `progress`, when set, is called from the calling
/// thread at most about 20 times a second, and once at the end. When `*cancel` turns true the
/// runs in flight are dropped and the partial result returns with cancelled = true. The result
/// does not depend on `threads`.
MonteCarloResult RunMonteCarlo(const PreparedPolicy& policy, const JobSet& js,
                               const FailureModel& model, int threads,
                               const std::atomic<bool>* cancel = nullptr,
                               MonteCarloProgress progress = nullptr);

}  // namespace jobset
