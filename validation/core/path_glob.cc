#include "validation/core/path_glob.h"

namespace jobset {
namespace {

// One character of a class "[...]" at `p` (just after '['); `*end` gets the index after ']'.
bool ClassMatch(std::string_view pattern, size_t p, char c, size_t* end) {
  bool negate = p < pattern.size() && (pattern[p] == '!' || pattern[p] == '^');
  if (negate) ++p;
  bool found = false;
  size_t i = p;
  for (; i < pattern.size() && (pattern[i] != ']' || i == p); ++i) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      if (pattern[i] <= c && c <= pattern[i + 2]) found = true;
      i += 2;
    } else if (pattern[i] == c) {
      found = true;
    }
  }
  if (i >= pattern.size()) return false;  // no closing ']': matches nothing
  *end = i + 1;
  return found != negate && c != '/';
}

bool Match(std::string_view pattern, std::string_view path) {
  size_t p = 0, s = 0;
  while (p < pattern.size()) {
    char c = pattern[p];
    if (c == '*') {
      bool any_depth = p + 1 < pattern.size() && pattern[p + 1] == '*';
      size_t rest = p + (any_depth ? 2 : 1);
      // "**/" also matches no folder at all.
      if (any_depth && rest < pattern.size() && pattern[rest] == '/' &&
          Match(pattern.substr(rest + 1), path.substr(s))) {
        return true;
      }
      for (size_t k = s;; ++k) {
        if (Match(pattern.substr(rest), path.substr(k))) return true;
        if (k == path.size() || (!any_depth && path[k] == '/')) return false;
      }
    }
    if (s == path.size()) return false;
    if (c == '?') {
      if (path[s] == '/') return false;
      ++p;
    } else if (c == '[') {
      size_t end = 0;
      if (!ClassMatch(pattern, p + 1, path[s], &end)) return false;
      p = end;
    } else {
      if (c != path[s]) return false;
      ++p;
    }
    ++s;
  }
  return s == path.size();
}

std::string_view Clean(std::string_view s) {
  while (s.substr(0, 2) == "./") s.remove_prefix(2);
  return s;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view path) { return Match(pattern, path); }

bool PathExcluded(const std::vector<std::string>& patterns, std::string_view path) {
  path = Clean(path);
  for (std::string_view pattern : patterns) {
    pattern = Clean(pattern);
    while (pattern.size() > 1 && pattern.back() == '/') pattern.remove_suffix(1);
    if (pattern.empty()) continue;
    if (pattern.find('/') == std::string_view::npos) {
      // Any one name in the path.
      size_t start = 0;
      while (start <= path.size()) {
        size_t slash = path.find('/', start);
        size_t end = slash == std::string_view::npos ? path.size() : slash;
        if (Match(pattern, path.substr(start, end - start))) return true;
        if (slash == std::string_view::npos) break;
        start = slash + 1;
      }
      continue;
    }
    // The path, or a folder it is in.
    for (size_t end = 0; end <= path.size(); ++end) {
      if (end != path.size() && path[end] != '/') continue;
      if (end > 0 && Match(pattern, path.substr(0, end))) return true;
    }
  }
  return false;
}

}  // namespace jobset
