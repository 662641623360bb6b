#include "validation/core/child_objects.h"

#include <algorithm>

namespace jobset {

std::string CheckChildGroups(const Node* groups, std::string_view count_key,
                             const ChildOptions& options, std::string_view parent,
                             std::string_view group) {
  std::string names;
  bool found = false;
  int64_t total = 0;
  if (groups != nullptr && groups->is_seq()) {
    for (const Node& g : groups->items) {
      if (!g.is_map()) continue;
      std::string_view name = g.StringOr("name");
      names += (names.empty() ? "" : ", ") + std::string(name);
      found = found || name == options.only;
      const Node* n = g.Find(count_key);
      if ((options.only.empty() || name == options.only) && n && n->is_int() && n->integer > 0)
        total += std::min<int64_t>(n->integer, kMaxChildPods + 1);
    }
  }
  std::string object(parent);
  if (!options.only.empty() && !found) {
    return object + " has no " + std::string(group) + " \"" + options.only + "\"" +
           (names.empty() ? "" : " (it has " + names + ")");
  }
  if (total > kMaxChildPods) {
    return object + " has " + std::to_string(total) + " pods or more; render stops at " +
           std::to_string(kMaxChildPods);
  }
  return "";
}

}  // namespace jobset
