#include "validation/k8s/child.h"

namespace jobset {

std::string FieldError::Text() const {
  std::string text = path + ": " + type;
  if (!value.empty()) text += ": " + value;
  if (!detail.empty()) text += ": " + detail;
  return text;
}

void ReportChildErrors(const ChildObject& child, const std::vector<FieldError>& errors,
                       FindingSink* sink) {
  for (const FieldError& e : errors) {
    std::string message =
        "child " + child.kind + " " + child.name + " would be rejected: " + e.Text();
    if (child.count > 1) {
      message += " (affects " + std::to_string(child.count) + " child " + child.kind + "s)";
    }
    sink->ChildError(e.rule, child.base.empty() ? e.Where() : child.base + "." + e.Where(),
                     std::move(message), e.at);
  }
}

}  // namespace jobset
