// "Did you mean": the known name nearest to a misspelt one, for messages that reject a name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// Optimal-string-alignment distance (insertions, deletions, substitutions and swaps of two
/// neighbours each cost 1), comparing ASCII letters without regard to case.
int EditDistance(std::string_view a, std::string_view b);

/// The candidate nearest to `word`, or "" when none is near enough to be a likely typo: at most
/// max(1, len/3) edits away (ties go to the first candidate), or equal ignoring case, '-', '_',
/// '.' and spaces ("job set" for "JobSet"). An exact match is returned as itself.
std::string Nearest(std::string_view word, const std::vector<std::string>& candidates);

/// The command nearest to a mistyped one, as Cobra (kubectl's command library) suggests: at most
/// two edits away, or one that starts with `word`; "" when none is near.
std::string NearestCommand(std::string_view word, const std::vector<std::string>& commands);

/// "; did you mean 'X'?" for the nearest candidate, or "" when there is none.
std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates);

/// The candidates joined by ", " for a list of valid values in a message.
std::string JoinNames(const std::vector<std::string>& names);

}  // namespace jobset
