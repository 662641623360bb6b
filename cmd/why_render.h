// How `why` prints a Diagnosis: text (with ANSI colour), JSON or Markdown, and the one-line
// events of --watch.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "validation/core/diagnosis.h"

namespace jobset {

/// Renders `d` as text (with ANSI colour when `color`), JSON or Markdown (`format`).
void RenderDiagnosis(const Diagnosis& d, std::string_view format, bool color, std::ostream& out);

/// --watch: one line for an attempt not printed before (a JSON object for `format` json).
void RenderWatchAttempt(const Diagnosis& d, const Attempt& a, std::string_view format,
                        std::ostream& out);

/// --watch: one line for a change of the workload's state (a JSON object for `format` json).
void RenderWatchState(const Diagnosis& d, std::string_view format, std::ostream& out);

}  // namespace jobset
