#include "validation/volcano/text.h"

#include <doctest/doctest.h>

namespace jobset {

TEST_CASE("volcano text: a policy names its events, exit code, action and timeout") {
  VolcanoPolicy p;
  p.events = {"PodEvicted", "PodFailed"};
  p.action = "RestartJob";
  CHECK(PolicyText(p) == "PodEvicted,PodFailed -> RestartJob");
  p.timeout = "5m";
  CHECK(PolicyText(p) == "PodEvicted,PodFailed -> RestartJob after 5m");
  VolcanoPolicy code;
  code.has_exit_code = true;
  code.exit_code = 3;
  CHECK(PolicyText(code) == "exitCode 3 -> \"\"");
}

}  // namespace jobset
