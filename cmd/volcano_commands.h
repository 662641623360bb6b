// `explain` and `simulate` for Volcano batch.volcano.sh/v1alpha1 Jobs (the KindCommands entry of
// cmd/kind_commands.cc); the contract is docs/contract/volcano-sim.md.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "cmd/explain_command.h"
#include "cmd/simulate_command.h"
#include "validation/core/node.h"

namespace jobset {

/// For each task and event, which policy fires (task policies before job policies) and what the
/// job does; then the policies that never fire and the retry budget. Text or markdown to `out`,
/// or one entry appended to `objects` for -o json. Returns 0, or 2 with a message on `err`.
int ExplainVolcanoJobCommand(const Node& object, const std::string& file, const ExplainFlags& flags,
                             std::ostream& out, nlohmann::ordered_json* objects, std::ostream& err);

/// Replays --fail values (`TASK/INDEX:EVENT[:EXITCODE]`, ...) or a --scenario file through the
/// lifecycle semantics; text or json. Returns 0, or 2 for a usage error (JobSet-style values,
/// --feature-gates, --monte-carlo) with a message on `err`.
int SimulateVolcanoJobCommand(const Node& object, const std::string& file,
                              const SimulateFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace jobset
