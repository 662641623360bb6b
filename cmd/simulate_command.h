// `kubectl jobset simulate`: replay failures through the controller's algorithm, or estimate
// what a policy costs under a failure model (--monte-carlo).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace jobset {

/// The flags of `simulate`.
struct SimulateFlags {
  std::vector<std::string> paths;
  std::vector<std::string> fail;  ///< --fail values, one step each.
  std::string scenario;           ///< --scenario FILE.
  std::string output = "text";    ///< text | json
  std::string feature_gates;
  // --monte-carlo.
  bool monte_carlo = false;
  int64_t runs = 10000;
  uint64_t seed = 1;
  int64_t nodes = 0;
  std::string node_mttf, run_time, restart_time = "1m", job_restart_time = "30s";
  std::string checkpoint_interval = "0s";
  std::string fault_mix;
  // The pre-flight node check (netcheck): faulty arrivals, and the check compared with none.
  double arrive_faulty = 0;  ///< --arrive-faulty FRACTION of nodes faulty at the start.
  std::string faulty_fails_after = "10m";  ///< --faulty-fails-after DURATION.
  std::string node_check;      ///< --node-check DURATION of one round: also run with the check.
  double node_check_miss = 0;  ///< --node-check-miss P: chance a faulty node passes.
  /// Whether those two were given, so that an explicit 0 beats a scenario's model value.
  bool arrive_faulty_given = false, node_check_miss_given = false;
  std::string plot;  ///< --plot FILE.svg
  int threads = 0;
  std::string color = "auto";
};

/// Runs the simulation. Exit status 0; 2 for usage errors and unreadable input.
int RunSimulate(const SimulateFlags& flags, std::ostream& out, std::ostream& err);

/// Adds the `simulate` command to `app`, its flags bound to `flags` (arrive_faulty_given and
/// node_check_miss_given set once it is parsed); returns it.
CLI::App* AddSimulateCommand(CLI::App& app, SimulateFlags* flags);

}  // namespace jobset
