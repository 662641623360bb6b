#include "validation/lint/rule_registry.h"

#include <span>

#include "validation/core/rules.h"
#include "validation/k8s/rules.h"
#include "validation/lint/kinds.h"
#include "validation/schema/rules.h"

namespace jobset {

const std::vector<RuleInfo>& AllRules() {
  static const std::vector<RuleInfo> rules = [] {
    // The kind-neutral rules, then every kind's in table order, then the child objects'.
    std::vector<std::span<const RuleInfo>> groups = {InputRules(), SchemaRules()};
    for (const KindHandler& kind : SupportedKinds()) groups.push_back(kind.rules());
    groups.push_back(ChildRules());
    std::vector<RuleInfo> all;
    for (std::span<const RuleInfo> group : groups)
      all.insert(all.end(), group.begin(), group.end());
    return all;
  }();
  return rules;
}

const RuleInfo* FindRule(std::string_view id) { return FindRuleIn(AllRules(), id); }

}  // namespace jobset
