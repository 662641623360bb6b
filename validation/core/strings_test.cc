#include "validation/core/strings.h"

#include <doctest/doctest.h>

namespace jobset {

using Parts = std::vector<std::string_view>;

TEST_CASE("strings: Trim drops spaces and tabs at both ends, or the characters given") {
  CHECK(Trim("  RestartJob\t") == "RestartJob");
  CHECK(Trim(" a b ") == "a b");
  CHECK(Trim(" \t ") == "");
  CHECK(Trim("") == "");
  CHECK(Trim("\nx\r") == "\nx\r");  // only spaces and tabs by default
  CHECK(Trim("\n x \n", " \t\n") == "x");
  CHECK(Trim(" \n ", " \t\n") == "");
}

TEST_CASE("strings: TrimLeft and TrimRight drop one end only") {
  CHECK(TrimLeft("\t key: v ") == "key: v ");
  CHECK(TrimRight(" line \r", " \t\r") == " line");
  CHECK(TrimLeft("   ") == "");
  CHECK(TrimRight("   ") == "");
  CHECK(TrimLeft("x") == "x");
}

TEST_CASE("strings: Contains compares whole elements") {
  const std::vector<std::string> names = {"driver", "workers"};
  CHECK(Contains(names, "workers"));
  CHECK_FALSE(Contains(names, "worker"));
  CHECK_FALSE(Contains({}, ""));
}

TEST_CASE("strings: Split keeps empty parts") {
  CHECK(Split("0/1/2", '/') == Parts{"0", "1", "2"});
  CHECK(Split("a,,b,", ',') == Parts{"a", "", "b", ""});
  CHECK(Split("", ',') == Parts{""});
  CHECK(Split("abc", ',') == Parts{"abc"});
}

}  // namespace jobset

namespace jobset {

TEST_CASE("strings: Join puts the separator between parts only") {
  CHECK(Join({}) == "");
  CHECK(Join({"a"}) == "a");
  CHECK(Join({"a", "", "b"}) == "a, , b");
  CHECK(Join({"a", "b"}, "; ") == "a; b");
}

TEST_CASE("strings: ParseInt64 reads the whole text or nothing") {
  int64_t v = 5;
  CHECK(ParseInt64("42", &v));
  CHECK(v == 42);
  CHECK(ParseInt64("-7", &v));
  CHECK(v == -7);
  CHECK_FALSE(ParseInt64("", &v));
  CHECK_FALSE(ParseInt64("12x", &v));
  CHECK_FALSE(ParseInt64(" 1", &v));
  CHECK_FALSE(ParseInt64("99999999999999999999", &v));
  CHECK(v == -7);
  CHECK(ParseInt64Or("3", -1) == 3);
  CHECK(ParseInt64Or("x", -1) == -1);
}

TEST_CASE("strings: GoQuote renders strings as Go's %q") {
  CHECK(GoQuote("") == "\"\"");
  CHECK(GoQuote("train") == "\"train\"");
  CHECK(GoQuote("a\"b") == "\"a\\\"b\"");
  CHECK(GoQuote("a\\b") == "\"a\\\\b\"");
  CHECK(GoQuote("a\nb") == "\"a\\nb\"");
  CHECK(GoQuote("a\tb") == "\"a\\tb\"");
  CHECK(GoQuote("a\rb") == "\"a\\rb\"");
  CHECK(GoQuote(std::string("a\x01"
                            "b")) == "\"a\\x01b\"");
  CHECK(GoQuote("a\x7f") == "\"a\\x7f\"");
  CHECK(GoQuote("caf\xc3\xa9") == "\"caf\xc3\xa9\"");  // printable UTF-8 stays as is
  CHECK(GoQuote("it's") == "\"it's\"");
}

TEST_CASE("strings: the other quotings differ from GoQuote only on control bytes") {
  CHECK(GoQuotePrintable("a\"b\\c") == GoQuote("a\"b\\c"));
  CHECK(GoQuotePrintable("a\tb") == "\"a\tb\"");
  CHECK(JsonQuote("a\"b\\c") == GoQuote("a\"b\\c"));
  CHECK(JsonQuote("a\x01") == "\"a\\u0001\"");
  CHECK(JsonQuote("a\xff") == "\"a\xef\xbf\xbd\"");  // invalid UTF-8 replaced
}

TEST_CASE("strings: numbers as Go and C print them") {
  CHECK(ShortestFloatText(1.5) == "1.5");
  CHECK(ShortestFloatText(100) == "100");
  CHECK(ShortestFloatText(1e21) == "1e+21");
  CHECK(ShortestFloatText(0.1) == "0.1");
  CHECK(FormatG(0.1) == "0.1");
  CHECK(FormatG(1234567) == "1.23457e+06");
}

}  // namespace jobset
