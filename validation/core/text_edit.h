// Text edits by byte offset: how fixes change a file without re-serialising it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

/// Replace `length` bytes at byte `offset` with `text` (an insertion when `length` is 0).
struct TextEdit {
  size_t offset = 0;
  size_t length = 0;
  std::string text;
};

/// True when the two edits touch the same bytes, or insert at the same place, so that applying
/// both has no single meaning. Edits that only meet at a boundary do not overlap.
bool EditsOverlap(const TextEdit& a, const TextEdit& b);

/// Applies edits that do not overlap (in any order) and returns the new text. Edits out of
/// range are ignored.
std::string ApplyEdits(std::string_view text, std::vector<TextEdit> edits);

/// Byte offsets of the start of each line (line 1 first), to turn marks into offsets.
std::vector<size_t> LineStarts(std::string_view text);

/// The byte offset of `mark` (1-based line, 1-based byte column) or npos when it is not in the
/// text. `line_starts` must be LineStarts(text); the cost does not depend on the line's length.
size_t OffsetOf(const std::vector<size_t>& line_starts, std::string_view text, Mark mark);

}  // namespace jobset
