#include "validation/sim/fault_mix.h"

#include <doctest/doctest.h>

namespace jobset {
namespace {

constexpr FaultMixWords kWords = {"KEY[:DETAIL]=WEIGHT[@TARGET]", "key", "target name"};

}  // namespace

TEST_CASE("sim fault mix: items, details, weights and targets") {
  std::vector<FaultMixItem> items;
  std::string error;
  REQUIRE(ParseFaultMixItems(" A:x: y=z=90%@t , B=0.5", kWords, &items, &error));
  REQUIRE(items.size() == 2);
  CHECK(items[0].key == "A");
  CHECK(items[0].detail == "x: y=z");  // To the last `=`, as written.
  CHECK(items[0].weight == 90);
  CHECK(items[0].target == "t");
  CHECK(items[1].key == "B");
  CHECK(items[1].detail.empty());
  CHECK(items[1].weight == 0.5);
  CHECK(items[1].target.empty());
}

TEST_CASE("sim fault mix: errors quote the item in the kind's words; input kept") {
  std::vector<FaultMixItem> items = {FaultMixItem{}};
  std::string error;
  const std::pair<const char*, const char*> bad[] = {
      {"", "empty fault mix: want KEY[:DETAIL]=WEIGHT[@TARGET],..."},
      {"A", "fault mix item \"A\": want KEY[:DETAIL]=WEIGHT[@TARGET]"},
      {":m=1", "fault mix item \":m=1\": empty key"},
      {"A=1@", "fault mix item \"A=1@\": empty target name after @"},
      {"A=x", "fault mix item \"A=x\": weight \"x\" is not a number"},
      {"A=0", "fault mix item \"A=0\": weight must be positive"},
      {"A=1e999", "fault mix item \"A=1e999\": weight \"1e999\" is not a number"},
      {"A=1,", "fault mix: empty item in \"A=1,\""},
      {"A=1,,B=2", "fault mix: empty item in \"A=1,,B=2\""},
  };
  for (const auto& [text, want] : bad) {
    CAPTURE(text);
    CHECK_FALSE(ParseFaultMixItems(text, kWords, &items, &error));
    CHECK(error == want);
  }
  CHECK(items.size() == 1);
}

}  // namespace jobset
