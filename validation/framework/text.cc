#include "validation/framework/text.h"

namespace jobset {

std::string CompletionText(const CompletionStatus& s) {
  return std::to_string(s.code) + (s.phrase.empty() ? "" : " " + s.phrase) + " " +
         CompletionTypeText(s.type);
}

}  // namespace jobset
