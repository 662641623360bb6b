// explain and simulate bound to the kind table (validation/lint/kinds.h): one entry per
// supported kind, so that RunExplain and RunSimulate dispatch on the kind an object is, never on
// its apiVersion or kind strings. (render and why need no output of their own per kind: they use
// the row's render and diagnose.)
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
#include "validation/lint/kinds.h"

namespace jobset {

/// What `explain` and `simulate` do with one object of a kind. JobSet's are null:
/// RunExplain and RunSimulate handle JobSets themselves (several at once, defaulted and linted as
/// loaded, with the policy table and Monte Carlo of their own).
struct KindCommands {
  KindId kind;
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

/// The binding of every supported kind, in SupportedKinds() order (one entry per KindId).
const std::vector<KindCommands>& KindCommandBindings();

/// The commands of `object`'s kind when that kind has its own (not JobSet), else nullptr.
const KindCommands* OwnKindCommands(const Node& object);

/// One object of a kind with its own commands, as read from a file (not defaulted: each kind
/// defaults its own).
struct OtherObject {
  std::string file;
  std::unique_ptr<Node> object;
  const KindCommands* commands = nullptr;
};

}  // namespace jobset
