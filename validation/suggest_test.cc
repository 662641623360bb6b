#include "validation/suggest.h"

#include <doctest/doctest.h>

namespace jobset {

TEST_CASE("suggest: edit distance counts insertions, deletions and substitutions") {
  CHECK(EditDistance("", "") == 0);
  CHECK(EditDistance("lint", "lint") == 0);
  CHECK(EditDistance("lnit", "lint") == 2);  // a transposition is two edits
  CHECK(EditDistance("lin", "lint") == 1);
  CHECK(EditDistance("JobSet", "jobset") == 0);  // ASCII case is ignored
  CHECK(EditDistance("jobsets.x-k8s.io", "jobset.x-k8s.io") == 1);
  CHECK(EditDistance("kitten", "sitting") == 3);
}

TEST_CASE("suggest: the nearest candidate, a prefix, or nothing") {
  std::vector<std::string> commands = {"lint", "explain", "simulate", "netcheck", "version"};
  CHECK(Nearest("lnit", commands) == "lint");
  CHECK(Nearest("simulat", commands) == "simulate");
  CHECK(Nearest("exp", commands) == "explain");  // a prefix, as Cobra suggests
  CHECK(Nearest("deploy", commands).empty());
  CHECK(Nearest("", commands).empty());
  CHECK(Nearest("lint", {"lint", "lint"}) == "lint");
}

}  // namespace jobset
