// Unified diffs (`diff -u` format), for `lint --diff`.
#pragma once

#include <string>
#include <string_view>

namespace jobset {

/// The unified diff from `before` to `after` by lines, with `context` lines around each change,
/// headed `--- <from>` and `+++ <to>` as `diff -u` writes it (without timestamps), so that
/// `patch` and `git apply` accept it. A last line without a newline is marked
/// `\ No newline at end of file`. Empty when the texts are equal.
std::string UnifiedDiff(std::string_view before, std::string_view after, std::string_view from,
                        std::string_view to, int context = 3);

}  // namespace jobset
