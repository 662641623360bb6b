// What every kind's `simulate --monte-carlo` reads and does alike: the failure-model flags
// (--nodes, --runs, --seed and the Go durations), the progress bar on a terminal, and Ctrl-C,
// which stops the simulation and keeps the runs done (validation/sim/driver.h).
#pragma once

#include <atomic>
#include <iosfwd>
#include <string>
#include <string_view>

#include "cmd/simulate_command.h"
#include "cmd/simulate_inputs.h"
#include "validation/sim/driver.h"

namespace jobset {

/// Sets the model's nodes, runs and seed from `flags`, and its node MTTF, run time, restart
/// time, checkpoint interval and `*job_restart` (the kind's name for --job-restart-time) from
/// the durations given (a duration not given keeps the model's default). Fails with
/// "--monte-carlo needs --node-mttf and --run-time" followed by `hint` when one of those two is
/// missing, or with the duration's message ("--run-time: time: ...").
template <typename Model>
bool ReadModelFlags(const SimulateFlags& flags, std::string_view hint, Model* m,
                    double* job_restart, std::string* error) {
  if (flags.node_mttf.empty() || flags.run_time.empty()) {
    *error = "--monte-carlo needs --node-mttf and --run-time" + std::string(hint);
    return false;
  }
  m->nodes = flags.nodes;
  m->runs = flags.runs;
  m->seed = flags.seed;
  return ParseDurationFlag("node-mttf", flags.node_mttf, &m->node_mttf_s, error) &&
         ParseDurationFlag("run-time", flags.run_time, &m->run_time_s, error) &&
         ParseDurationFlag("restart-time", flags.restart_time, &m->restart_time_s, error) &&
         ParseDurationFlag("job-restart-time", flags.job_restart_time, job_restart, error) &&
         ParseDurationFlag("checkpoint-interval", flags.checkpoint_interval,
                           &m->checkpoint_interval_s, error);
}

/// Whether `flags` hold only what a Monte Carlo run of one object of `kind` (e.g. "a Volcano
/// Job") reads: false with "--plot is not supported for <kind>", or "--monte-carlo on <kind>
/// takes its model from flags, not --fail or --scenario" when --fail or --scenario is given.
bool CheckModelFlagsOnly(const SimulateFlags& flags, std::string_view kind, std::string* error);

/// While it lives, SIGINT (Ctrl-C) sets flag() instead of killing the process; the previous
/// handler comes back when it ends. One at a time.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  /// The flag a simulation watches (SimOptions::cancel).
  const std::atomic<bool>* flag() const;
  /// Whether Ctrl-C was pressed.
  bool interrupted() const;

 private:
  void (*previous_)(int);
};

/// A progress bar `label [####......] done/total` redrawn on `err` when it is a terminal (else
/// no callback). ClearProgress wipes it.
SimProgress ProgressBar(const std::string& label, std::ostream& err);

/// Wipes the progress bar's line when `err` is a terminal.
void ClearProgress(std::ostream& err);

}  // namespace jobset
