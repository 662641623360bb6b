#include "validation/core/node.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/core/json_node.h"

namespace jobset {
namespace {

Node Parse(const std::string& json) {
  Node n;
  std::string error;
  REQUIRE_MESSAGE(ParseJson(json, {}, &n, &error), error);
  return n;
}

}  // namespace

TEST_CASE("node: Present is \"there and not null\", also through a path") {
  Node n = Parse(R"({"a":null,"b":0,"c":{"d":null,"e":"x"}})");
  CHECK(FindPresent(&n, "a") == nullptr);
  CHECK(FindPresent(&n, "b") == n.Find("b"));
  CHECK(FindPresent(&n, "zz") == nullptr);
  CHECK(FindPresent(nullptr, "b") == nullptr);
  CHECK(FindPresent(n.Find("b"), "x") == nullptr);  // a key under a non-mapping is absent
  CHECK(FindPresentPath(&n, {"c", "d"}) == nullptr);
  CHECK(FindPresentPath(&n, {"c", "e"})->text == "x");
  CHECK(FindPresentPath(&n, {"a", "e"}) == nullptr);
  CHECK(Present(n.Find("a")) == nullptr);
  CHECK(Present(nullptr) == nullptr);
}

TEST_CASE("node: typed look-ups give nullptr or the fallback for another type") {
  Node n = Parse(R"({"s":"x","i":3,"f":1.5,"l":["a",1,"b"],"m":{}})");
  CHECK(FindString(&n, "s")->text == "x");
  CHECK(FindString(&n, "i") == nullptr);
  CHECK(FindInt(&n, "i")->integer == 3);
  CHECK(FindInt(&n, "f") == nullptr);
  CHECK(FindSeq(&n, "l") != nullptr);
  CHECK(FindSeq(&n, "m") == nullptr);
  CHECK(StringValue(n.Find("s")) == "x");
  CHECK(StringValue(n.Find("i")) == "");
  CHECK(StringValue(nullptr) == "");
  int64_t v = -1;
  CHECK(IntValue(n.Find("i"), &v));
  CHECK(v == 3);
  CHECK_FALSE(IntValue(n.Find("s"), &v));
  CHECK(v == 3);
  CHECK(IntOr(&n, "i") == 3);
  CHECK(IntOr(&n, "s", -1) == -1);
  CHECK(IntOr(nullptr, "i", 7) == 7);
  CHECK(StringItems(&n, "l") == std::vector<std::string>{"a", "b"});
  CHECK(StringItems(&n, "s").empty());
}

}  // namespace jobset
