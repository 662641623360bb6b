#include "validation/jobset/feature_gates.h"

#include <doctest/doctest.h>

namespace jobset {

TEST_CASE("feature gates: the table is what the parser accepts and the formatter writes") {
  FeatureGates all;
  std::string error, text;
  for (const FeatureGateInfo& g : KnownFeatureGates()) {
    CHECK(!g.description.empty());
    FeatureGates one;
    REQUIRE_MESSAGE(ParseFeatureGates(std::string(g.name) + "=true", &one, &error), error);
    if (g.field == nullptr) continue;
    CHECK(one.*(g.field));
    CHECK(FormatFeatureGates(one) == std::string(g.name) + "=true");
    text += (text.empty() ? "" : ",") + std::string(g.name) + "=true";
  }
  REQUIRE(ParseFeatureGates(text, &all, &error));
  CHECK(all.restart_job);
  CHECK(all.in_place_restart);
  CHECK(all.elastic_jobset);
  CHECK(FormatFeatureGates(all) == text);
  CHECK_FALSE(ParseFeatureGates("RestartJobs=true", &all, &error));
  CHECK(error ==
        "unknown feature gate 'RestartJobs' (known: RestartJob, InPlaceRestart, ElasticJobSet, "
        "TLSOptions)");
  CHECK_FALSE(ParseFeatureGates("TLSOptions=false", &all, &error));
}

}  // namespace jobset
