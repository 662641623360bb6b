// "Did you mean ...?": the nearest of a few known words to a misspelt one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// The Levenshtein distance of two strings (insertions, deletions and substitutions of bytes),
/// ignoring ASCII case.
size_t EditDistance(std::string_view a, std::string_view b);

/// The candidate nearest to `word`: at most `max_distance` edits away (ties: the first), or one
/// that starts with `word` (as Cobra suggests commands). "" when none is near.
std::string Nearest(std::string_view word, const std::vector<std::string>& candidates,
                    size_t max_distance = 2);

}  // namespace jobset
