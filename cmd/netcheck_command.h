// `kubectl jobset netcheck`: DLRover's node health check (`dlrover-run --network-check`), planned
// (which nodes are tested together in each round) and diagnosed from a job-master log.
#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace jobset {

/// The flags of `netcheck plan`.
struct NetcheckPlanFlags {
  int nodes = 0;
  std::string times;            ///< --times ID=SECONDS,... (ID: node rank).
  std::string node_groups;      ///< --node-groups SIZE or RANKS/RANKS/...
  std::string output = "text";  ///< text | json
};

/// The flags of `netcheck diagnose`.
struct NetcheckDiagnoseFlags {
  std::string path = "-";       ///< FILE, or - for standard input.
  std::string output = "text";  ///< text | json
};

/// Prints the groups of each round. Exit status 0, or 2 for a usage error.
int RunNetcheckPlan(const NetcheckPlanFlags& flags, std::ostream& out, std::ostream& err);

/// Diagnoses a log. Exit status 0 when the verdict has no fault node (also for a log without a
/// check), 1 when it has fault nodes, 2 for a usage error or an unreadable file.
int RunNetcheckDiagnose(const NetcheckDiagnoseFlags& flags, std::ostream& out, std::ostream& err);

/// The two subcommands of `netcheck`, to see which was parsed.
struct NetcheckCommands {
  CLI::App* plan;
  CLI::App* diagnose;
};

/// Adds `netcheck` with `plan` and `diagnose` to `app`, their flags bound to `plan` and
/// `diagnose`.
NetcheckCommands AddNetcheckCommand(CLI::App& app, NetcheckPlanFlags* plan,
                                    NetcheckDiagnoseFlags* diagnose);

}  // namespace jobset
