#include "validation/core/name_index.h"

#include <doctest/doctest.h>

namespace jobset {

TEST_CASE("name_index: finds each name at its first position, and nothing else") {
  const std::vector<std::string> names = {"driver", "workers", "", "driver", "ps", "workers"};
  std::vector<int> first;
  const NameIndex index = BuildNameIndex(names, &first);
  CHECK(first == std::vector<int>{0, 1, 2, 0, 4, 1});
  CHECK(FindName(index, names, "driver") == 0);
  CHECK(FindName(index, names, "workers") == 1);
  CHECK(FindName(index, names, "") == 2);
  CHECK(FindName(index, names, "ps") == 4);
  CHECK(FindName(index, names, "worker") == -1);
  CHECK(FindName(index, names, "Driver") == -1);
}

TEST_CASE("name_index: an empty list and a default index find nothing") {
  const std::vector<std::string> none;
  std::vector<int> first = {7};
  CHECK(FindName(BuildNameIndex(none, &first), none, "") == -1);
  CHECK(first.empty());
  const std::vector<std::string> names = {"a"};
  CHECK(FindName(NameIndex{}, names, "a") == -1);
}

TEST_CASE("name_index: 200,000 names, each of 100,000 twice") {
  std::vector<std::string> names;
  for (int i = 0; i < 200000; ++i) names.push_back("rj-" + std::to_string(i % 100000));
  std::vector<int> first;
  const NameIndex index = BuildNameIndex(names, &first);
  bool all = true;
  for (int i = 0; i < 200000; ++i) {
    all = all && first[i] == i % 100000 &&
          FindName(index, names, "rj-" + std::to_string(i % 100000)) == i % 100000;
  }
  CHECK(all);
  CHECK(FindName(index, names, "rj-100000") == -1);
  CHECK(FindName(index, names, "rj-") == -1);
  CHECK(index.slots.size() * 2 >= 100000 * 3);  // At most 2/3 full.
}

}  // namespace jobset
