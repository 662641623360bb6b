#include "cmd/other_kinds.h"

#include "cmd/framework_commands.h"
#include "cmd/volcano_commands.h"
#include "validation/framework/types.h"

namespace jobset {

const std::vector<KindCommands>& OtherKindCommands() {
  // Add a kind here: its apiVersion, kind, explain and simulate (declared in its own header).
  static const std::vector<KindCommands> kinds = {
      // Volcano Job (cmd/volcano_commands.h).
      {"batch.volcano.sh/v1alpha1", "Job", ExplainVolcanoJobCommand, SimulateVolcanoJobCommand},
      // FrameworkController Framework (cmd/framework_commands.h).
      {kFrameworkApiVersion, kFrameworkKind, &ExplainFramework, &SimulateFramework},
  };
  return kinds;
}

}  // namespace jobset
