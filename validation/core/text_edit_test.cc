#include "validation/core/text_edit.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace jobset {

TEST_CASE("text_edit: edits apply in offset order whatever order they come in") {
  CHECK(ApplyEdits("abcdef", {{4, 1, "E"}, {0, 0, ">"}, {1, 2, ""}}) == ">adEf");
  CHECK(ApplyEdits("abc", {{3, 0, "!"}}) == "abc!");
  CHECK(ApplyEdits("abc", {}) == "abc");
  // Out of range: ignored rather than read past the end.
  CHECK(ApplyEdits("abc", {{2, 5, "x"}}) == "abc");
}

TEST_CASE("text_edit: overlap means the same bytes or the same insertion point") {
  CHECK(EditsOverlap({2, 3, "x"}, {4, 1, "y"}));
  CHECK(EditsOverlap({5, 0, "a"}, {5, 0, "b"}));
  CHECK(EditsOverlap({5, 0, "a"}, {4, 3, "b"}));
  CHECK_FALSE(EditsOverlap({2, 3, "x"}, {5, 1, "y"}));  // they only meet
  CHECK_FALSE(EditsOverlap({5, 0, "a"}, {5, 2, "b"}));  // insertion before a replacement
  CHECK_FALSE(EditsOverlap({7, 0, "a"}, {5, 2, "b"}));  // insertion after it
}

TEST_CASE("text_edit: marks become byte offsets (columns count bytes, as the parser's do)") {
  std::string text = "a:\n  \xC3\xA9: 1\nlast";
  std::vector<size_t> lines = LineStarts(text);
  REQUIRE(lines.size() == 3);
  CHECK(OffsetOf(lines, text, Mark{1, 1}) == 0);
  CHECK(OffsetOf(lines, text, Mark{2, 7}) == text.find('1'));
  CHECK(OffsetOf(lines, text, Mark{3, 5}) == text.size());  // end of the last line
  CHECK(OffsetOf(lines, text, Mark{3, 6}) == std::string::npos);
  CHECK(OffsetOf(lines, text, Mark{4, 1}) == std::string::npos);
  CHECK(OffsetOf(lines, text, Mark{}) == std::string::npos);
  CHECK(OffsetOf(lines, text, Mark{1, 3}) == 2);  // the newline ends its line
  CHECK(OffsetOf(lines, text, Mark{1, 4}) == std::string::npos);
}

TEST_CASE("text_edit: a mark costs the same however long its line is") {
  // Before: each mark looked for the end of its line, so a one-line 8 MB JSON file with a
  // million findings read 8e12 bytes (minutes).
  std::string text = "{" + std::string(8 << 20, ' ') + "}\n";
  std::vector<size_t> lines = LineStarts(text);
  size_t sum = 0;
  for (int i = 1; i <= 1000000; ++i) sum += OffsetOf(lines, text, Mark{1, i});
  CHECK(sum == 1000000ull * 999999 / 2);
  CHECK(OffsetOf(lines, text, Mark{1, (8 << 20) + 3}) == text.size() - 1);
  CHECK(OffsetOf(lines, text, Mark{1, (8 << 20) + 4}) == std::string::npos);
  CHECK(OffsetOf(lines, text, Mark{2, 1}) == text.size());
}

}  // namespace jobset
