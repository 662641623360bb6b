#include "validation/jobset/fault_mix.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace jobset {

TEST_CASE("monte carlo: ParseFaultMix") {
  std::vector<FaultKind> f;
  std::string error;
  REQUIRE(ParseFaultMix("PodFailurePolicy=0.9,BackoffLimitExceeded=0.1", &f, &error));
  REQUIRE(f.size() == 2);
  CHECK(f[0].reason == "PodFailurePolicy");
  CHECK(f[0].message.empty());
  CHECK(f[0].weight == 0.9);
  CHECK(f[0].rjob_name.empty());
  CHECK(f[0].rjob == -1);
  CHECK(f[1].reason == "BackoffLimitExceeded");

  REQUIRE(ParseFaultMix(
      "PodFailurePolicy:failed with exit code 143 a=b=90%@workers, DeadlineExceeded=10", &f,
      &error));
  REQUIRE(f.size() == 2);
  CHECK(f[0].message == "failed with exit code 143 a=b");
  CHECK(f[0].weight == 90);
  CHECK(f[0].rjob_name == "workers");
  CHECK(f[1].reason == "DeadlineExceeded");
  CHECK(f[1].weight == 10);

  JobSet js;
  js.name = "js";
  for (const char* name : {"driver", "workers"}) {
    ReplicatedJob rj;
    rj.name = name;
    js.replicated_jobs.push_back(rj);
  }
  const PreparedPolicy p = PreparePolicy(js, {});
  REQUIRE(ResolveFaultMix(p, &f, &error));
  CHECK(f[0].rjob == 1);
  CHECK(f[1].rjob == -1);
  REQUIRE(ParseFaultMix("X=1@drivers", &f, &error));
  CHECK_FALSE(ResolveFaultMix(p, &f, &error));
  CHECK(error ==
        "fault mix: unknown replicated job \"drivers\" for reason \"X\" (replicated jobs: "
        "driver, workers)");

  const std::vector<FaultKind> kept = f;
  for (const char* bad : {"", " ", "A", "A=", "A=0", "A=-1", "A=x", "=1", ":m=1", "A=1,",
                          "A=1,,B=2", "A=1@", "A=1e999", "A=nan"}) {
    CAPTURE(bad);
    error.clear();
    CHECK_FALSE(ParseFaultMix(bad, &f, &error));
    CHECK_FALSE(error.empty());
  }
  CHECK(f.size() == kept.size());  // Untouched on error.
  ParseFaultMix("A=x", &f, &error);
  CHECK(error == "fault mix item \"A=x\": weight \"x\" is not a number");
}

TEST_CASE("monte carlo: BindFaultMix binds as ResolveFaultMix does, without touching the kinds") {
  JobSet js;
  js.name = "js";
  for (const char* name : {"driver", "workers", "driver"}) {
    ReplicatedJob rj;
    rj.name = name;
    js.replicated_jobs.push_back(rj);
  }
  const PreparedPolicy p = PreparePolicy(js, {});
  std::vector<FaultKind> f;
  std::string error;
  REQUIRE(ParseFaultMix("A=1@driver,B=1,C=1@workers", &f, &error));
  f[1].rjob = 2;  // An index, as a caller may set without a name.
  std::vector<int> rjobs = {9, 9, 9, 9};
  REQUIRE(BindFaultMix(p, f, &rjobs, &error));
  CHECK(rjobs == std::vector<int>{0, 2, 1});  // The first "driver" wins.
  CHECK(f[0].rjob == -1);
  std::vector<FaultKind> resolved = f;
  REQUIRE(ResolveFaultMix(p, &resolved, &error));
  for (size_t k = 0; k < f.size(); ++k) CHECK(resolved[k].rjob == rjobs[k]);

  REQUIRE(ParseFaultMix("A=1@workers,B=1@ps,C=1@driver", &f, &error));
  CHECK_FALSE(BindFaultMix(p, f, &rjobs, &error));
  CHECK(error ==
        "fault mix: unknown replicated job \"ps\" for reason \"B\" (replicated jobs: "
        "driver, workers, driver)");
  CHECK(rjobs == std::vector<int>{1});  // The kinds before the unknown name.
}

}  // namespace jobset
