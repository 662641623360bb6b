#include "validation/core/rule_registry.h"

namespace jobset {

const RuleInfo* FindRuleIn(std::span<const RuleInfo> rules, std::string_view id) {
  for (const RuleInfo& r : rules) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

const char* RuleSourceName(RuleSource s) {
  switch (s) {
    case RuleSource::kInput:
      return "input";
    case RuleSource::kSchema:
      return "schema";
    case RuleSource::kWebhook:
      return "webhook";
    case RuleSource::kAnalysis:
      return "analysis";
    case RuleSource::kChild:
      return "child";
  }
  return "";
}

}  // namespace jobset
