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
