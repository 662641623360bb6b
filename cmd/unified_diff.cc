#include "cmd/unified_diff.h"

#include <algorithm>
#include <vector>

namespace jobset {
namespace {

// Lines with their terminating newline (the last one may lack it).
std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t eol = text.find('\n', at);
    size_t end = eol == std::string_view::npos ? text.size() : eol + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  return lines;
}

// One step of the edit script: keep, delete ('-') or insert ('+'); `a` and `b` are the
// positions in the old and new lines (the line itself for keep/delete and keep/insert).
struct Op {
  char kind;
  int a, b;
};

// Myers' O(ND) shortest edit script between a and b.
std::vector<Op> EditScript(const std::vector<std::string_view>& a,
                           const std::vector<std::string_view>& b) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  // Common prefix and suffix need no search.
  int prefix = 0;
  while (prefix < n && prefix < m && a[prefix] == b[prefix]) ++prefix;
  int suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix && a[n - 1 - suffix] == b[m - 1 - suffix])
    ++suffix;
  const int n2 = n - prefix - suffix, m2 = m - prefix - suffix;
  const int max = n2 + m2;
  std::vector<int> v(2 * max + 3, 0);
  const int off = max + 1;
  std::vector<std::vector<int>> trace;  // trace[d][k + d]: V after step d
  auto eq = [&](int x, int y) { return a[prefix + x] == b[prefix + y]; };
  for (int d = 0; d <= max; ++d) {
    bool done = false;
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1]
                                                                       : v[off + k - 1] + 1;
      int y = x - k;
      while (x < n2 && y < m2 && eq(x, y)) ++x, ++y;
      v[off + k] = x;
      if (x >= n2 && y >= m2) done = true;
    }
    trace.emplace_back(v.begin() + off - d, v.begin() + off + d + 1);
    if (done) break;
  }
  std::vector<Op> middle;
  int x = n2, y = m2;
  for (int d = static_cast<int>(trace.size()) - 1; d >= 0; --d) {
    int prev_x = 0, prev_y = 0;
    if (d > 0) {
      const std::vector<int>& pv = trace[d - 1];
      auto at = [&](int k) { return pv[k + d - 1]; };
      int k = x - y;
      int prev_k = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
      prev_x = at(prev_k);
      prev_y = prev_x - prev_k;
    }
    while (x > prev_x && y > prev_y) {
      --x, --y;
      middle.push_back({' ', prefix + x, prefix + y});
    }
    if (d > 0) {
      if (x == prev_x)
        middle.push_back({'+', prefix + x, prefix + prev_y});
      else
        middle.push_back({'-', prefix + prev_x, prefix + y});
    }
    x = prev_x, y = prev_y;
  }
  std::vector<Op> ops;
  for (int i = 0; i < prefix; ++i) ops.push_back({' ', i, i});
  ops.insert(ops.end(), middle.rbegin(), middle.rend());
  for (int i = 0; i < suffix; ++i) ops.push_back({' ', n - suffix + i, m - suffix + i});
  return ops;
}

// "-start,count" as diff -u writes it: the count only when it is not 1; an empty range starts
// at the line before it.
std::string Range(int start, int count) {
  if (count == 1) return std::to_string(start + 1);
  return std::to_string(count == 0 ? start : start + 1) + "," + std::to_string(count);
}

}  // namespace

std::string UnifiedDiff(std::string_view before, std::string_view after, std::string_view from,
                        std::string_view to, int context) {
  if (before == after) return "";
  std::vector<std::string_view> a = SplitLines(before), b = SplitLines(after);
  std::vector<Op> ops = EditScript(a, b);
  std::string out = "--- " + std::string(from) + "\n+++ " + std::string(to) + "\n";
  auto line = [&](char kind, std::string_view text) {
    out += kind;
    out.append(text);
    if (text.empty() || text.back() != '\n') out += "\n\\ No newline at end of file\n";
  };
  const size_t size = ops.size();
  size_t i = 0;
  while (i < size) {
    size_t change = i;
    while (change < size && ops[change].kind == ' ') ++change;
    if (change == size) break;
    size_t start = change >= i + context ? change - context : i;
    size_t last = change, e = change;
    for (; e < size; ++e) {
      if (ops[e].kind != ' ')
        last = e;
      else if (e - last > static_cast<size_t>(2 * context))
        break;
    }
    size_t end = std::min(size, last + context + 1);
    int old_count = 0, new_count = 0;
    for (size_t k = start; k < end; ++k) {
      if (ops[k].kind != '+') ++old_count;
      if (ops[k].kind != '-') ++new_count;
    }
    out +=
        "@@ -" + Range(ops[start].a, old_count) + " +" + Range(ops[start].b, new_count) + " @@\n";
    for (size_t k = start; k < end; ++k)
      line(ops[k].kind, ops[k].kind == '+' ? b[ops[k].b] : a[ops[k].a]);
    i = end;
  }
  return out;
}

}  // namespace jobset
