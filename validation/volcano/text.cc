#include "validation/volcano/text.h"

namespace jobset {

std::string PolicyText(const VolcanoPolicy& p) {
  std::string events;
  for (const std::string& e : p.events) events += (events.empty() ? "" : ",") + e;
  if (p.has_exit_code)
    events += (events.empty() ? "" : ",") + ("exitCode " + std::to_string(p.exit_code));
  return events + " -> " + (p.action.empty() ? "\"\"" : p.action) +
         (p.timeout.empty() ? "" : " after " + p.timeout);
}

}  // namespace jobset
