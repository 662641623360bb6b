// `lint --fix`: certain repairs of findings as text edits that keep everything else of the file
// (comments, key order, quoting, blank lines) byte for byte.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/finding.h"
#include "validation/lint.h"
#include "validation/loader.h"
#include "validation/node.h"

namespace jobset {

/// Attaches a fix to each finding of `object` that has a certain one:
/// `failure-policy/duplicate-rule-name` (the first rule that wrote the name keeps it, the others
/// get `<name>_<n>`) and `job-template/pod-failure-policy-restart-policy` (`restartPolicy:
/// Never` in the pod template). `object` is a parsed document of `text` (or a `kind: List`
/// item) without aliases; `line_starts` is LineStarts(text).
void AttachFixes(const Node& object, std::string_view text, const std::vector<size_t>& line_starts,
                 std::vector<Finding>* findings);

/// What fixing one file did.
struct FixOutcome {
  std::string text;   ///< The fixed text (SourceFile::text: without the byte order mark).
  FileResult result;  ///< The findings that remain.
  int fixed = 0;      ///< Fixes applied.
  /// Set when a fix would have broken the file (a bug): `text` is then the last good text.
  std::string error;
};

/// Applies the fixes of the unsuppressed findings of `file`, lints the result and repeats (a fix
/// that overlapped another one is applied on the next pass) until nothing is left to fix.
FixOutcome FixSource(const SourceFile& file, const LintOptions& options);

}  // namespace jobset
