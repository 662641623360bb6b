// The registry of lint rules: every finding names one of these ids.
#pragma once

#include <string_view>
#include <vector>

#include "validation/core/finding.h"

namespace jobset {

/// Where a rule's verdict comes from.
enum class RuleSource {
  kInput,     ///< Reading the file: syntax, encoding, limits.
  kSchema,    ///< The CRD's OpenAPI schema and CEL rules (kube-apiserver).
  kWebhook,   ///< The upstream JobSet validating webhook.
  kAnalysis,  ///< Our own analysis: accepted upstream, but will not do what was meant.
};

/// One rule: a stable id, its default severity, and a one-line summary. Its doc page is
/// docs/rules/<id>.md.
struct RuleInfo {
  std::string_view id;
  Severity severity;
  RuleSource source;
  std::string_view summary;
};

/// Every rule, grouped by source, in a stable order.
const std::vector<RuleInfo>& AllRules();

/// The rule with this id, or nullptr.
const RuleInfo* FindRule(std::string_view id);

/// "input", "schema", "webhook" or "analysis".
const char* RuleSourceName(RuleSource s);

}  // namespace jobset
