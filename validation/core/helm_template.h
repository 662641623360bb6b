// Helm chart templates: files that are Go templates of YAML, not YAML, until `helm template`.
#pragma once

#include <string_view>

#include "validation/core/node.h"

namespace jobset {

/// Where `text` first uses Helm template syntax: an action `{{ ... }}` whose body starts (after
/// an optional `-` and spaces) with `.` or `$` (`.Values.x`, `$var`), a comment `/*`, or a word of
/// Go's template language or a common Helm function (`if`, `range`, `end`, `include`, `toYaml`,
/// ...). Placeholders of other tools are not (Argo's `{{inputs.parameters.x}}`,
/// FrameworkController's `{{FC_TASK_INDEX}}`, GitHub Actions' `${{ ... }}`). An unknown mark
/// when there is none.
Mark FindHelmTemplateAction(std::string_view text);

}  // namespace jobset
