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
    auto in_parent = [&](const std::string& p) {
      return child.base.empty() ? p : child.base + "." + p;
    };
    sink->ChildError(e.rule, in_parent(e.path), std::move(message), e.at,
                     e.locate.empty() ? std::string() : in_parent(e.locate), e.note);
  }
}

}  // namespace jobset
