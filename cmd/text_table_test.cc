#include "cmd/text_table.h"

#include <doctest/doctest.h>

#include <sstream>

namespace jobset {

TEST_CASE("text_table: display width counts columns, not bytes") {
  CHECK(DisplayWidth("") == 0);
  CHECK(DisplayWidth("workers") == 7);
  CHECK(DisplayWidth("é") == 1);         // 2 bytes, precomposed
  CHECK(DisplayWidth("e\u0301") == 1);   // e + combining acute accent
  CHECK(DisplayWidth("訓練") == 4);      // CJK: wide
  CHECK(DisplayWidth("한국어") == 6);    // Hangul syllables: wide
  CHECK(DisplayWidth("ｗ") == 2);        // fullwidth Latin
  CHECK(DisplayWidth("🚀") == 2);         // emoji
  CHECK(DisplayWidth("a\u200Bb") == 2);  // zero-width space
  CHECK(DisplayWidth("\xff\xfe") == 2);  // not UTF-8: a column per byte
  CHECK(DisplayWidth("\xe8\xa8") == 2);  // a cut sequence
  CHECK(DisplayWidth("\xc0\xaf") == 2);  // an overlong encoding of '/'
}

TEST_CASE("text_table: text columns line up when cells are not ASCII") {
  std::ostringstream out;
  PrintTable({{"NAME", "ACTION"}, {"訓練", "FAIL"}, {"café", "restart"}, {"abc", "x"}}, false, out);
  CHECK(out.str() ==
        "  NAME   ACTION\n"
        "  訓練   FAIL\n"
        "  café   restart\n"
        "  abc    x\n");
}

TEST_CASE("text_table: a Markdown cell never breaks its row or its table") {
  CHECK(MarkdownCell("plain") == "plain");
  CHECK(MarkdownCell("a|b") == "a\\|b");
  CHECK(MarkdownCell("C:\\dir\\") == "C:\\\\dir\\\\");
  CHECK(MarkdownCell("two\nlines\r\nthree\rfour") == "two<br>lines<br>three<br>four");
  CHECK(MarkdownCell("<b>x</b>") == "&lt;b>x&lt;/b>");
  CHECK(MarkdownCell("Running -> Failed") == "Running -> Failed");
  CHECK(MarkdownCell("訓練") == "訓練");

  std::ostringstream out;
  PrintTable({{"RULE|NAME", "B"}, {"x|y\nz", "ok\\"}}, true, out);
  CHECK(out.str() ==
        "| **RULE\\|NAME** | **B** |\n"
        "|---|---|\n"
        "| x\\|y<br>z | ok\\\\ |\n");
}

}  // namespace jobset
