#include "validation/lint/rule_registry.h"

#include <span>

#include "validation/core/rules.h"
#include "validation/framework/rules.h"
#include "validation/jobset/rules.h"
#include "validation/k8s/rules.h"
#include "validation/schema/rules.h"
#include "validation/volcano/rules.h"

namespace jobset {

const std::vector<RuleInfo>& AllRules() {
  static const std::vector<RuleInfo> rules = [] {
    std::vector<RuleInfo> all;
    for (std::span<const RuleInfo> system : {InputRules(), SchemaRules(), JobSetRules(),
                                             VolcanoRules(), FrameworkRules(), ChildRules()}) {
      all.insert(all.end(), system.begin(), system.end());
    }
    return all;
  }();
  return rules;
}

const RuleInfo* FindRule(std::string_view id) { return FindRuleIn(AllRules(), id); }

}  // namespace jobset
