#include "validation/core/rules.h"

namespace jobset {

std::span<const RuleInfo> InputRules() {
  using S = Severity;
  using R = RuleSource;
  static constexpr RuleInfo kRows[] = {
      // Reading the input.
      {kYamlSyntax.id, S::kError, R::kInput, "The document is not valid YAML or JSON."},
      {kYamlDuplicateKey.id, S::kWarning, R::kInput,
       "A mapping sets the same field twice; kubectl silently keeps the last value."},
      {kInputTooLarge.id, S::kError, R::kInput, "The file is larger than the reading limit."},
      {kInputBinary.id, S::kError, R::kInput, "The file holds binary data (a NUL byte)."},
      {kInputInvalidUtf8.id, S::kError, R::kInput, "The document is not valid UTF-8."},
      {kInputTooDeep.id, S::kError, R::kInput, "The document nests deeper than the limit."},
      {kInputTooManyValues.id, S::kError, R::kInput,
       "The document expands to too many values (an alias bomb)."},
      {kInputUnknownApiVersion.id, S::kError, R::kInput,
       "apiVersion is missing, or names a version or group our kinds are not served in."},
      {kInputUnknownKind.id, S::kError, R::kInput,
       "kind is missing, or misspells a kind of the apiVersion's group."},
      {kInputHelmTemplate.id, S::kInfo, R::kInput,
       "The file is a Helm chart template: render it with helm template, then lint that."},
  };
  return kRows;
}

}  // namespace jobset
