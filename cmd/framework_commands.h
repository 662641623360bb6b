// `explain` and `simulate` for FrameworkController Frameworks
// (frameworkcontroller.microsoft.com/v1): the retry and completion behaviour a spec amounts to, in
// terms of the FrameworkType tables of the FrameworkController user manual, and a replay of task
// completions.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "cmd/explain_command.h"
#include "cmd/simulate_command.h"
#include "validation/core/node.h"

namespace jobset {

/// Explains one Framework (KindCommands::explain): text or markdown to `out`, or one entry
/// appended to `objects` for `-o json`.
int ExplainFramework(const Node& object, const std::string& file, const ExplainFlags& flags,
                     std::ostream& out, nlohmann::ordered_json* objects, std::ostream& err);

/// Replays the task completions of --fail / --scenario through one Framework
/// (KindCommands::simulate). --monte-carlo is a usage error.
int SimulateFramework(const Node& object, const std::string& file, const SimulateFlags& flags,
                      std::ostream& out, std::ostream& err);

}  // namespace jobset
