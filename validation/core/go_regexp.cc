#include "validation/core/go_regexp.h"

namespace jobset {

re2::RE2::Options GoRegexpOptions() {
  re2::RE2::Options options;
  options.set_log_errors(false);
  return options;
}

std::string GoRegexpError(std::string_view pattern) {
  // `\C` (any byte) exists in C++ RE2 only; Go reports an invalid escape.
  for (size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] != '\\') continue;
    if (pattern[i + 1] == 'C') return "invalid escape sequence: `\\C`";
    ++i;  // skip the escaped character
  }
  re2::RE2 re(re2::StringPiece(pattern.data(), pattern.size()), GoRegexpOptions());
  return re.ok() ? "" : re.error();
}

}  // namespace jobset
