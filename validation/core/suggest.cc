#include "validation/core/suggest.h"

#include <algorithm>

namespace jobset {
namespace {

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// The word in lower case without the separators people put in or leave out of a name.
std::string Squashed(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '-' || c == '_' || c == '.' || c == ' ') continue;
    out += Lower(c);
  }
  return out;
}

}  // namespace

int EditDistance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  // Three rows of the dynamic programme: two back (for swaps), one back, and this one.
  std::vector<int> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= m; ++j) {
      const int cost = Lower(a[i - 1]) == Lower(b[j - 1]) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && Lower(a[i - 1]) == Lower(b[j - 2]) &&
          Lower(a[i - 2]) == Lower(b[j - 1]))
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(cur);
  }
  return prev[m];
}

std::string Nearest(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string squashed = Squashed(word);
  for (const std::string& c : candidates)
    if (c == word) return c;
  for (const std::string& c : candidates)
    if (!squashed.empty() && Squashed(c) == squashed) return c;
  const int limit = std::max(1, static_cast<int>(word.size()) / 3);
  std::string best;
  int best_distance = limit + 1;
  for (const std::string& c : candidates) {
    const int d = EditDistance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string NearestCommand(std::string_view word, const std::vector<std::string>& commands) {
  if (word.empty()) return "";
  std::string best;
  int best_distance = 3;
  for (const std::string& c : commands) {
    const int d = EditDistance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  if (!best.empty()) return best;
  for (const std::string& c : commands)
    if (c.size() > word.size() && EditDistance(word, c.substr(0, word.size())) == 0) return c;
  return "";
}

std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string nearest = Nearest(word, candidates);
  return nearest.empty() ? "" : "; did you mean '" + nearest + "'?";
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace jobset
