#include "validation/core/strings.h"

#include <algorithm>

namespace jobset {

std::string_view TrimLeft(std::string_view s, std::string_view chars) {
  const size_t b = s.find_first_not_of(chars);
  return b == std::string_view::npos ? std::string_view() : s.substr(b);
}

std::string_view TrimRight(std::string_view s, std::string_view chars) {
  const size_t e = s.find_last_not_of(chars);
  return e == std::string_view::npos ? std::string_view() : s.substr(0, e + 1);
}

std::string_view Trim(std::string_view s, std::string_view chars) {
  return TrimRight(TrimLeft(s, chars), chars);
}

bool Contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t pos = 0;
  for (;;) {
    const size_t next = text.find(sep, pos);
    parts.push_back(text.substr(pos, next == std::string_view::npos ? next : next - pos));
    if (next == std::string_view::npos) return parts;
    pos = next + 1;
  }
}

}  // namespace jobset
