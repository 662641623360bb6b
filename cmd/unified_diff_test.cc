#include "cmd/unified_diff.h"

#include <doctest/doctest.h>

namespace jobset {

TEST_CASE("unified_diff: equal texts give no diff") {
  CHECK(UnifiedDiff("a\nb\n", "a\nb\n", "a/f", "b/f").empty());
}

TEST_CASE("unified_diff: one inserted line with three lines of context, as diff -u") {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n";
  std::string after = "1\n2\n3\n4\nnew\n5\n6\n7\n8\n";
  CHECK(UnifiedDiff(before, after, "a/f.yaml", "b/f.yaml") ==
        "--- a/f.yaml\n+++ b/f.yaml\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+new\n 5\n 6\n 7\n");
}

TEST_CASE("unified_diff: changes far apart get their own hunks, near ones share one") {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += std::to_string(i) + "\n";
    after += (i == 2 || i == 18 ? "x" : std::to_string(i)) + "\n";
  }
  CHECK(UnifiedDiff(before, after, "a", "b") ==
        "--- a\n+++ b\n"
        "@@ -1,5 +1,5 @@\n 1\n-2\n+x\n 3\n 4\n 5\n"
        "@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+x\n 19\n 20\n");
  std::string near = before;
  near.replace(near.find("\n8\n") + 1, 1, "y");
  near.replace(near.find("2\n"), 1, "x");
  // Lines 2 and 8 are 5 lines apart (fewer than 2 x 3 lines of context): one hunk.
  CHECK(UnifiedDiff(before, near, "a", "b") ==
        "--- a\n+++ b\n@@ -1,11 +1,11 @@\n 1\n-2\n+x\n 3\n 4\n 5\n 6\n 7\n-8\n+y\n 9\n 10\n 11\n");
}

TEST_CASE("unified_diff: insertion at the top and empty ranges count from the line before") {
  CHECK(UnifiedDiff("a\n", "top\na\n", "a", "b") == "--- a\n+++ b\n@@ -1 +1,2 @@\n+top\n a\n");
  CHECK(UnifiedDiff("", "x\n", "a", "b") == "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n");
}

TEST_CASE("unified_diff: a last line without newline is marked") {
  CHECK(UnifiedDiff("a\nb", "a\nc", "a", "b") ==
        "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
        "\\ No newline at end of file\n");
}

}  // namespace jobset
