#include "validation/core/text_edit.h"

#include <algorithm>

namespace jobset {

bool EditsOverlap(const TextEdit& a, const TextEdit& b) {
  if (a.length == 0 && b.length == 0) return a.offset == b.offset;
  if (a.length == 0) return a.offset > b.offset && a.offset < b.offset + b.length;
  if (b.length == 0) return b.offset > a.offset && b.offset < a.offset + a.length;
  return a.offset < b.offset + b.length && b.offset < a.offset + a.length;
}

std::string ApplyEdits(std::string_view text, std::vector<TextEdit> edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const TextEdit& a, const TextEdit& b) { return a.offset < b.offset; });
  std::string out;
  out.reserve(text.size());
  size_t at = 0;
  for (const TextEdit& e : edits) {
    if (e.offset < at || e.offset + e.length > text.size()) continue;
    out.append(text.substr(at, e.offset - at));
    out += e.text;
    at = e.offset + e.length;
  }
  out.append(text.substr(at));
  return out;
}

std::vector<size_t> LineStarts(std::string_view text) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts.push_back(i + 1);
  return starts;
}

size_t OffsetOf(const std::vector<size_t>& line_starts, std::string_view text, Mark mark) {
  if (!mark.known() || mark.column < 1 || static_cast<size_t>(mark.line) > line_starts.size())
    return std::string_view::npos;
  size_t offset = line_starts[mark.line - 1] + (mark.column - 1);
  // The line's newline is just before the next line's start: no scan of a long line per mark.
  size_t line_end = static_cast<size_t>(mark.line) < line_starts.size() ? line_starts[mark.line] - 1
                                                                        : text.size();
  return offset <= line_end ? offset : std::string_view::npos;
}

}  // namespace jobset
