// Small string helpers that several parts of the validator need, written once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// `s` without the leading characters that are in `chars` (by default spaces and tabs).
std::string_view TrimLeft(std::string_view s, std::string_view chars = " \t");

/// `s` without the trailing characters that are in `chars` (by default spaces and tabs).
std::string_view TrimRight(std::string_view s, std::string_view chars = " \t");

/// `s` without the leading and trailing characters that are in `chars` (by default spaces and
/// tabs); "" when every character is one of them.
std::string_view Trim(std::string_view s, std::string_view chars = " \t");

/// Whether `v` holds an element equal to `s`.
bool Contains(const std::vector<std::string>& v, std::string_view s);

/// `text` cut at every `sep`: one part more than there are separators, empty parts kept ("" gives
/// one empty part, "a,,b" gives "a", "", "b"). The parts point into `text`.
std::vector<std::string_view> Split(std::string_view text, char sep);

}  // namespace jobset
