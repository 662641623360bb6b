#include "validation/core/finding.h"

namespace jobset {

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kInfo:
      return "info";
  }
  return "error";
}

bool ParseSeverity(std::string_view text, Severity* out) {
  if (text == "error")
    *out = Severity::kError;
  else if (text == "warning")
    *out = Severity::kWarning;
  else if (text == "info")
    *out = Severity::kInfo;
  else
    return false;
  return true;
}

}  // namespace jobset
