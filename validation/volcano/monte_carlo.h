// Monte Carlo simulation of a Volcano Job's lifecycle policies under a node failure model
// (`simulate --monte-carlo` on a Volcano Job): what the policies cost.
//
// The model (VolcanoFailureModel), the Volcano counterpart of jobset/monte_carlo.h's (the driver,
// generator and summaries are every kind's: validation/sim/):
//   - The job spans N nodes (default: one per pod, Σ task replicas). Node failures arrive as a
//     Poisson process of rate N/MTTF during productive time only (downtime does not advance
//     the failure clock).
//   - A failure surfaces as one event of the fault mix (PodEvicted, or PodFailed with an exit
//     code), drawn by weight, on a uniformly random pod (of the kind's task when it names one).
//     A failure that hits a pod that is not alive (left Failed earlier) is absorbed: counted,
//     no effect.
//   - The event is one step of ApplyVolcanoStep. A step that counts a retry is a restart: a
//     RestartJob costs restart_time_s of downtime, a RestartTask/Pod/Partition
//     job_restart_time_s; both roll progress back to the last checkpoint (checkpoint_interval_s;
//     0 keeps progress). A pod only recreated by the sync (PodEvicted with no policy) costs
//     job_restart_time_s and keeps progress. A pod left Failed (PodFailed with no policy) costs
//     nothing then, but stays Failed.
//   - The run ends when the job ends (Failed: maxRetry spent; Aborted; Terminated; Completed by
//     a policy before the work is done), or when progress reaches run_time_s: then every pod
//     still alive succeeds and the controller's sync judges the job by minAvailable and
//     minSuccess (TaskCompleted policies are not replayed then: which task finishes first is
//     the workload's business): Completed, or Failed when pods left Failed keep it short.
//   - Wasted node time: N × downtime and lost progress for a completed run, N × wall time for
//     any other end.
// Runs are independent: run i draws from a generator seeded from (seed, i), and chunks of runs
// are merged in order, so a seed gives the same result whatever the thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "validation/sim/driver.h"
#include "validation/sim/summary.h"
#include "validation/volcano/lifecycle.h"

namespace jobset {

/// One way a node failure surfaces for a Volcano Job.
struct VolcanoFaultKind {
  std::string event;  ///< PodEvicted or PodFailed.
  bool has_exit_code = false;
  int64_t exit_code = 0;  ///< PodFailed's first container exit code.
  double weight = 1;      ///< Relative weight (> 0).
  std::string task;       ///< As written after `@`; empty = any task.
};

/// The failure model. Durations are in seconds.
struct VolcanoFailureModel {
  int64_t nodes = 0;  ///< 0: one per pod.
  double node_mttf_s = 0, run_time_s = 0, restart_time_s = 0, job_restart_time_s = 0;
  double checkpoint_interval_s = 0;
  std::vector<VolcanoFaultKind> faults;  ///< Non-empty.
  int64_t runs = 10000;                  ///< At most 10,000,000.
  uint64_t seed = 1;
  int64_t max_failures_per_run = 100'000;  ///< More and the run counts as unbounded.
};

/// Parses `EVENT[:EXITCODE]=WEIGHT[@TASK],...`, e.g. `PodEvicted=0.9,PodFailed:143=0.1@worker`.
/// EVENT is PodEvicted or PodFailed; the weight is a positive number, optionally with `%`.
/// A JobSet mix (`PodFailurePolicy:...`) is an error that says so. Replaces `*faults`.
bool ParseVolcanoFaultMix(std::string_view text, std::vector<VolcanoFaultKind>* faults,
                          std::string* error);

/// 90% PodEvicted (the node went away and its pods were deleted), 10% PodFailed exit 143 (the
/// node was drained: SIGTERM).
std::vector<VolcanoFaultKind> DefaultVolcanoFaultMix();

/// The outcome of RunVolcanoMonteCarlo. Means are per run over `runs`.
struct VolcanoMonteCarloResult {
  std::string error;  ///< Invalid model or job: nothing ran.
  int64_t runs = 0;   ///< Runs done (fewer than requested when cancelled).
  int64_t runs_requested = 0;
  bool cancelled = false;  ///< Stopped by the cancel flag: runs < runs_requested.
  int64_t nodes = 0;
  int64_t completed = 0;        ///< The work was done and the job ended Completed.
  int64_t failed_retries = 0;   ///< Failed: a restart found maxRetry spent.
  int64_t failed_at_end = 0;    ///< The work was done but the job ended Failed (pods left Failed).
  int64_t aborted = 0;          ///< Aborted by a policy (waits for vcctl job resume).
  int64_t terminated = 0;       ///< Terminated by a policy.
  int64_t completed_early = 0;  ///< Completed by a policy before the work was done.
  int64_t unbounded = 0;        ///< More failures than max_failures_per_run.
  double mean_retries = 0, mean_failures = 0, mean_absorbed = 0;
  double mean_wasted_node_hours = 0;  ///< Over all runs but unbounded ones.
  double failure_rate = 0;            ///< N / MTTF, per second.
  /// Mean executed actions per run, by action name (RestartJob, ..., SyncJob), in
  /// VolcanoPolicyActions order then SyncJob; actions that never ran are left out.
  std::vector<std::pair<std::string, double>> actions;
  FinishTimes time_to_finish;  ///< Over completed runs (wall time).
};

/// Checks the model against the job: positive durations and weights, known tasks, a pod to fail.
/// "" when valid.
std::string ValidateVolcanoModel(const VolcanoJob& job, const VolcanoFailureModel& model);

/// Runs model.runs simulated runs on `threads` threads (<= 0: the hardware's), with the
/// driver's cancellation and progress (validation/sim/driver.h). The result does not depend on
/// `threads`.
VolcanoMonteCarloResult RunVolcanoMonteCarlo(const VolcanoJob& job,
                                             const VolcanoFailureModel& model, int threads,
                                             const std::atomic<bool>* cancel = nullptr,
                                             SimProgress progress = nullptr);

}  // namespace jobset
