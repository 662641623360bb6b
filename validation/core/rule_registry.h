// The row type of the registry of lint rules, and the id type every finding is reported under.
// Each system declares its rules (constants and rows) in its own rules file (core/rules.h for
// reading the input, schema/rules.h, jobset/rules.h, volcano/rules.h, framework/rules.h); the
// registry of them all is assembled above the systems, in validation/lint/rule_registry.h.
#pragma once

#include <span>
#include <string_view>

#include "validation/core/finding.h"

namespace jobset {

/// A rule's stable id, "group/name". Declared once, as a constant in the rules file of the
/// system that reports it; FindingSink takes only this type, so an emit site cannot name a rule
/// with a bare (possibly mistyped) string.
struct RuleId {
  /// Explicit, so that neither "group/name" nor {"group/name"} converts at an emit site.
  explicit constexpr RuleId(std::string_view id) : id(id) {}
  std::string_view id;
};

/// Where a rule's verdict comes from.
enum class RuleSource {
  kInput,     ///< Reading the file: syntax, encoding, limits.
  kSchema,    ///< The CRD's OpenAPI schema and CEL rules (kube-apiserver).
  kWebhook,   ///< The upstream JobSet validating webhook.
  kAnalysis,  ///< Our own analysis: accepted upstream, but will not do what was meant.
  /// kube-apiserver's validation of a child object (Job, Pod) the controller creates from this
  /// one: the object is accepted, every such child is rejected, so the workload never runs.
  kChild,
};

/// One rule: a stable id, its default severity, and a one-line summary. Its doc page is
/// docs/rules/<id>.md.
struct RuleInfo {
  std::string_view id;
  Severity severity;
  RuleSource source;
  std::string_view summary;
};

/// The rule with this id among `rules`, or nullptr.
const RuleInfo* FindRuleIn(std::span<const RuleInfo> rules, std::string_view id);

/// "input", "schema", "webhook", "analysis" or "child".
const char* RuleSourceName(RuleSource s);

}  // namespace jobset
