#include "cmd/kind_commands.h"

#include "cmd/framework_commands.h"
#include "cmd/volcano_commands.h"

namespace jobset {

const std::vector<KindCommands>& KindCommandBindings() {
  // Bind a kind here, at the index of its KindId (a test checks every kind is bound).
  static const std::vector<KindCommands> kinds = {
      // JobSet: RunExplain and RunSimulate themselves.
      {KindId::kJobSet, nullptr, nullptr},
      // Volcano Job (cmd/volcano_commands.h).
      {KindId::kVolcanoJob, &ExplainVolcanoJobCommand, &SimulateVolcanoJobCommand},
      // FrameworkController Framework (cmd/framework_commands.h).
      {KindId::kFramework, &ExplainFramework, &SimulateFramework},
  };
  return kinds;
}

const KindCommands* OwnKindCommands(const Node& object) {
  const KindHandler* kind = FindKindHandler(object);
  if (kind == nullptr) return nullptr;
  const KindCommands& commands = KindCommandBindings()[static_cast<size_t>(kind->id)];
  return commands.explain != nullptr ? &commands : nullptr;
}

}  // namespace jobset
