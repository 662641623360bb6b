// What every kind's --scenario document has alike: a top-level `steps` list, each item one step
// of the replay. Each kind reads the items (jobset/replay.h, volcano/replay.h,
// framework/replay.h).
#pragma once

#include <string>
#include <string_view>

#include "validation/core/node.h"

namespace jobset {

/// The `steps` list of a --scenario document. Null when it has none (no `steps`, or not a
/// list), with "steps: want a list of <shape>" in `error` (shape e.g. "{fail: [...]}").
const Node* ScenarioSteps(const Node& scenario, std::string_view shape, std::string* error);

}  // namespace jobset
