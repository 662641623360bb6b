#include "validation/jobset/keys.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace jobset {

TEST_CASE("jobset keys: the namespace and the keys upstream defines") {
  CHECK(InJobSetKeyNamespace("jobset.sigs.k8s.io/anything"));
  CHECK(InJobSetKeyNamespace("alpha.jobset.sigs.k8s.io/exclusive-topology"));
  CHECK_FALSE(InJobSetKeyNamespace("kueue.x-k8s.io/queue-name"));
  CHECK_FALSE(InJobSetKeyNamespace("beta.jobset.sigs.k8s.io/x"));
  CHECK_FALSE(InJobSetKeyNamespace("myjobset.sigs.k8s.io/x"));
  const auto& keys = KnownJobSetKeys();
  for (const char* k :
       {"alpha.jobset.sigs.k8s.io/exclusive-topology", "alpha.jobset.sigs.k8s.io/node-selector",
        "jobset.sigs.k8s.io/disable-in-place-restart"}) {
    CHECK_MESSAGE(std::find(keys.begin(), keys.end(), k) != keys.end(), k);
  }
  for (const std::string& k : keys) CHECK_MESSAGE(InJobSetKeyNamespace(k), k);
}

TEST_CASE("jobset keys: the nearest key keeps the right prefix") {
  CHECK(NearestJobSetKey("jobset.sigs.k8s.io/exclusive-topology") ==
        "alpha.jobset.sigs.k8s.io/exclusive-topology");
  CHECK(NearestJobSetKey("alpha.jobset.sigs.k8s.io/exclusive-topolgy") ==
        "alpha.jobset.sigs.k8s.io/exclusive-topology");
  CHECK(NearestJobSetKey("jobset.sigs.k8s.io/node-selector") ==
        "alpha.jobset.sigs.k8s.io/node-selector");
  CHECK(NearestJobSetKey("alpha.jobset.sigs.k8s.io/disable-inplace-restart") ==
        "jobset.sigs.k8s.io/disable-in-place-restart");
  CHECK(NearestJobSetKey("jobset.sigs.k8s.io/team").empty());
}

}  // namespace jobset
