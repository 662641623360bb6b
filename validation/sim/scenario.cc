#include "validation/sim/scenario.h"

namespace jobset {

const Node* ScenarioSteps(const Node& scenario, std::string_view shape, std::string* error) {
  const Node* list = scenario.Find("steps");
  if (!list || !list->is_seq()) {
    *error = "steps: want a list of " + std::string(shape);
    return nullptr;
  }
  return list;
}

}  // namespace jobset
