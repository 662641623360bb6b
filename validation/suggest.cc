#include "validation/suggest.h"

#include <algorithm>
#include <cctype>

namespace jobset {
namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

}  // namespace

size_t EditDistance(std::string_view a, std::string_view b) {
  // One row of the dynamic programme at a time.
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      size_t substitute = diagonal + (Lower(a[i - 1]) == Lower(b[j - 1]) ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string Nearest(std::string_view word, const std::vector<std::string>& candidates,
                    size_t max_distance) {
  if (word.empty()) return "";
  std::string best;
  size_t best_distance = max_distance + 1;
  for (const std::string& c : candidates) {
    size_t d = EditDistance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  if (!best.empty()) return best;
  for (const std::string& c : candidates) {
    if (c.size() > word.size() && EditDistance(word, c.substr(0, word.size())) == 0) return c;
  }
  return "";
}

}  // namespace jobset
