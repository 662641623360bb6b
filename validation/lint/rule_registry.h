// The registry of lint rules: every finding names one of these ids. Assembled from the rules
// files of the systems (validation/<system>/rules.h), which the core may not include.
#pragma once

#include <string_view>
#include <vector>

#include "validation/core/rule_registry.h"

namespace jobset {

/// Every rule, grouped by system and then by source, in a stable order: reading the input,
/// kube-apiserver's common checks, JobSet, Volcano, Framework.
const std::vector<RuleInfo>& AllRules();

/// The rule with this id, or nullptr.
const RuleInfo* FindRule(std::string_view id);

}  // namespace jobset
