// `lint --fix`: certain repairs of findings as text edits that keep everything else of the file
// (comments, key order, quoting, blank lines) byte for byte.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/core/finding.h"
#include "validation/core/loader.h"
#include "validation/core/node.h"

namespace jobset {

/// Attaches a fix to each finding of `object` that has a certain one:
/// `failure-policy/duplicate-rule-name` (the first rule that wrote the name keeps it, the others
/// get `<name>_<n>`) and `job-template/pod-failure-policy-restart-policy` (`restartPolicy:
/// Never` in the pod template; also on `child/job-restart-policy` when the Job template has a
/// podFailurePolicy, which the Job API then reports alone). `object` is a parsed document of `text`
/// (or a `kind: List` item) without aliases; `line_starts` is LineStarts(text).
void AttachFixes(const Node& object, std::string_view text, const std::vector<size_t>& line_starts,
                 std::vector<Finding>* findings);

}  // namespace jobset
