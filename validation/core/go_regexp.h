// Failure-message patterns are Go regexps (RE2 syntax) in the controller; RE2 in C++ accepts a
// little more than Go does. These helpers keep our verdicts to Go's.
#pragma once

#include <re2/re2.h>

#include <string>
#include <string_view>

namespace jobset {

/// RE2 options with Go's regexp defaults: UTF-8, case-sensitive, `.` does not match newline,
/// no error logging.
re2::RE2::Options GoRegexpOptions();

/// The reason Go's regexp.Compile rejects `pattern` (as RE2 reports it, or for `\C`, which only
/// C++ RE2 accepts), or "" when it compiles.
std::string GoRegexpError(std::string_view pattern);

}  // namespace jobset
