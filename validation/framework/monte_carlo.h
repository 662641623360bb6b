// Monte Carlo estimate of what a Framework's retry and completion policies cost under a node
// failure model (`simulate --monte-carlo` on a Framework).
//
// The model, as for JobSet (validation/jobset/monte_carlo.h) but in FrameworkController's terms:
//   - The Framework spans N nodes (default: one per task). Node failures arrive as a Poisson
//     process of rate N/MTTF during productive time; each hits a running task drawn uniformly,
//     and completes its attempt with a completion drawn by weight from the fault mix (among the
//     kinds that apply to the task's role).
//   - The task retry policy decides (ShouldRetry). A task retry costs task_restart_time_s of
//     downtime for the whole Framework (a synchronous job waits for the task). Otherwise the task
//     is completed and the completion policy is checked: a FrameworkAttempt that fails is
//     retried by the framework policy at the cost of restart_time_s (plus a Transient Conflict
//     delay drawn from 60-900 s), with fresh tasks, or the run fails. A restart also rolls
//     progress back to the last checkpoint (checkpoint_interval_s; 0 keeps it).
//   - A failed task that completes no FrameworkAttempt leaves the attempt running without it:
//     the run is counted as stuck (a synchronous job cannot finish). A FrameworkAttempt that
//     completes as Succeeded before the work is done (no minFailedTaskCount can trigger) counts
//     as a false success.
//   - When progress reaches run_time_s every task succeeds, in order, through the same policies:
//     the run completes if the Framework completes as Succeeded; it is unbounded if the
//     Framework reruns (maxRetryCount -2) or a task reruns after success.
// Runs are independent: run i draws from its own generator seeded from (seed, i), and chunks of
// runs are merged in order, so a seed gives the same result whatever the thread count (the
// driver, generator and summaries are every kind's: validation/sim/).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "validation/framework/retry.h"
#include "validation/framework/types.h"
#include "validation/sim/driver.h"
#include "validation/sim/summary.h"

namespace jobset {

/// One way a node failure surfaces as a task completion.
struct FrameworkFault {
  std::string text;  ///< As written: a code, a phrase, exit=.../pod=..., with attributes.
  CompletionStatus status;
  double weight = 1;
  std::string role;  ///< The task role it surfaces in; empty = any.
};

/// The failure model. Durations in seconds.
struct FrameworkFailureModel {
  int64_t nodes = 0;  ///< 0: one per task (Σ taskNumber).
  double node_mttf_s = 0;
  double run_time_s = 0;
  double restart_time_s = 60;       ///< Recreate a FrameworkAttempt.
  double task_restart_time_s = 30;  ///< Recreate one task's pod.
  double checkpoint_interval_s = 0;
  std::vector<FrameworkFault> faults;
  int64_t runs = 10000;
  uint64_t seed = 1;
  int64_t max_failures_per_run = 1'000'000;
};

/// Parses `CODE=WEIGHT[@TASKROLE],...`; CODE as ParseTaskCompletion (the weight follows the
/// last `=`, so `exit=137/OOMKilled=0.2` works). The weight is a positive number, optionally
/// with `%`.
bool ParseFrameworkFaultMix(std::string_view text, std::vector<FrameworkFault>* faults,
                            std::string* error);

/// The default mix: 90% evictions (-1000 PodEvicted, Transient), 10% an application error
/// (exit code 1, Unknown).
std::vector<FrameworkFault> DefaultFrameworkFaultMix();

/// The outcome. Means are per run over the runs done.
struct FrameworkMonteCarloResult {
  std::string error;  ///< Invalid model: nothing ran.
  int64_t runs = 0;   ///< Runs done (fewer than requested when cancelled).
  int64_t runs_requested = 0;
  bool cancelled = false;  ///< Stopped by the cancel flag: runs < runs_requested.
  int64_t completed = 0, failed = 0, stuck = 0, unbounded = 0, false_success = 0;
  double p_complete = 0, p_fail = 0, p_stuck = 0, p_unbounded = 0, p_false_success = 0;
  double mean_restarts = 0;          ///< Framework retries (new FrameworkAttempts).
  double mean_counted_restarts = 0;  ///< Accountable framework retries.
  double mean_task_restarts = 0;     ///< Task retries.
  double mean_failures = 0;
  /// N × (downtime + lost progress) for a completed run, N × wall time for a failed one or a
  /// false success; averaged over those runs.
  double mean_wasted_node_hours = 0;
  FinishTimes time_to_finish;  ///< Over completed runs (wall time).
  int64_t nodes = 0;
};

/// Runs model.runs simulated runs on `threads` threads (<= 0: the hardware's), with the
/// driver's cancellation and progress (validation/sim/driver.h). The result does not depend on
/// `threads`.
FrameworkMonteCarloResult RunFrameworkMonteCarlo(const Framework& fw,
                                                 const FrameworkFailureModel& model,
                                                 int threads = 0,
                                                 const std::atomic<bool>* cancel = nullptr,
                                                 SimProgress progress = nullptr);

}  // namespace jobset
