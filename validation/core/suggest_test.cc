#include "validation/core/suggest.h"

#include <doctest/doctest.h>

namespace jobset {

TEST_CASE("suggest: edit distance counts swaps of neighbours as one edit") {
  CHECK(EditDistance("", "") == 0);
  CHECK(EditDistance("abc", "") == 3);
  CHECK(EditDistance("PodFailurPolicy", "PodFailurePolicy") == 1);
  CHECK(EditDistance("PodFialurePolicy", "PodFailurePolicy") == 1);
  CHECK(EditDistance("podfailurepolicy", "PodFailurePolicy") == 0);
  CHECK(EditDistance("kitten", "sitting") == 3);
}

TEST_CASE("suggest: the nearest known name, only when it is a likely typo") {
  const std::vector<std::string> reasons = {"BackoffLimitExceeded", "DeadlineExceeded",
                                            "FailedIndexes", "MaxFailedIndexesExceeded",
                                            "PodFailurePolicy"};
  CHECK(Nearest("PodFailurPolicy", reasons) == "PodFailurePolicy");
  CHECK(Nearest("BackOffLimitExceded", reasons) == "BackoffLimitExceeded");
  CHECK(Nearest("FailedIndexes", reasons) == "FailedIndexes");
  CHECK(Nearest("pod-failure-policy", reasons) == "PodFailurePolicy");
  CHECK(Nearest("OOMKilled", reasons).empty());
  CHECK(Nearest("", reasons).empty());
  CHECK(Nearest("job set", {"JobSet"}) == "JobSet");
  CHECK(Nearest("Jobset", {"JobSet"}) == "JobSet");
  CHECK(Nearest("JobSets", {"JobSet"}) == "JobSet");
  CHECK(Nearest("Job", {"JobSet"}).empty());

  CHECK(DidYouMean("PodFailurPolicy", reasons) == "; did you mean 'PodFailurePolicy'?");
  CHECK(DidYouMean("Timeout", reasons).empty());
  CHECK(JoinNames({"a", "b"}) == "a, b");
}

TEST_CASE("suggest: the nearest command, a prefix, or nothing") {
  std::vector<std::string> commands = {"lint", "explain", "simulate", "netcheck", "version"};
  CHECK(NearestCommand("lnit", commands) == "lint");
  CHECK(NearestCommand("simulat", commands) == "simulate");
  CHECK(NearestCommand("exp", commands) == "explain");  // a prefix, as Cobra suggests
  CHECK(NearestCommand("deploy", commands).empty());
  CHECK(NearestCommand("", commands).empty());
  CHECK(NearestCommand("lint", {"lint", "lint"}) == "lint");
}

}  // namespace jobset
