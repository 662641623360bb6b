// explain and simulate for the supported kinds other than JobSet (Volcano Job, Framework):
// one table, so each kind plugs in its own functions and RunExplain/RunSimulate dispatch on it.
#pragma once

#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "cmd/explain_command.h"
#include "cmd/simulate_command.h"
#include "validation/core/node.h"

namespace jobset {

/// What `explain` and `simulate` do with one object of a kind other than JobSet.
struct KindCommands {
  std::string_view api_version;  ///< e.g. "batch.volcano.sh/v1alpha1".
  std::string_view kind;         ///< e.g. "Job".
  /// Explains one object: text or markdown to `out`, or, for `-o json`, one entry appended to
  /// `objects` (an array; the caller prints {"objects": [...]}). Returns 0, or 2 with a message
  /// on `err`.
  int (*explain)(const Node& object, const std::string& file, const ExplainFlags& flags,
                 std::ostream& out, nlohmann::ordered_json* objects, std::ostream& err);
  /// Simulates one object as `flags` ask (--fail / --scenario in this kind's own terms, or
  /// --monte-carlo). Returns the exit status (0, or 2 for a usage error, message on `err`).
  int (*simulate)(const Node& object, const std::string& file, const SimulateFlags& flags,
                  std::ostream& out, std::ostream& err);
};

/// The kinds other than JobSet that explain and simulate understand.
const std::vector<KindCommands>& OtherKindCommands();

/// One object of another kind, as read from a file (not defaulted: each kind defaults its own).
struct OtherObject {
  std::string file;
  std::unique_ptr<Node> object;
  const KindCommands* commands = nullptr;
};

}  // namespace jobset
