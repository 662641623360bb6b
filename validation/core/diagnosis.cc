#include "validation/core/diagnosis.h"

namespace jobset {

std::string_view HealthName(Health health) {
  switch (health) {
    case Health::kHealthy:
      return "Healthy";
    case Health::kSucceeded:
      return "Succeeded";
    case Health::kSuspended:
      return "Suspended";
    case Health::kRestarting:
      return "Restarting";
    case Health::kFailed:
      return "Failed";
    case Health::kStuck:
      return "Stuck";
  }
  return "Healthy";
}

int HealthExitCode(Health health) {
  switch (health) {
    case Health::kHealthy:
    case Health::kSucceeded:
    case Health::kSuspended:
      return 0;
    case Health::kRestarting:
    case Health::kFailed:
    case Health::kStuck:
      return 1;
  }
  return 1;
}

}  // namespace jobset
