#include "validation/sim/scenario.h"

#include <doctest/doctest.h>

#include "validation/core/loader.h"

namespace jobset {

TEST_CASE("scenario: the steps list, or a message that says the shape each kind wants") {
  SourceFile file = ParseSource("s.yaml", "steps:\n- {fail: [{job: workers/0}]}\n- {}\n");
  REQUIRE(!file.documents.empty());
  std::string error;
  const Node* steps = ScenarioSteps(file.documents[0].root, "{fail: [...]}", &error);
  REQUIRE(steps != nullptr);
  CHECK(steps->items.size() == 2);
  CHECK(error.empty());

  for (const char* text : {"steps: 3\n", "step: []\n", "[]\n"}) {
    CAPTURE(text);
    SourceFile bad = ParseSource("s.yaml", text);
    REQUIRE(!bad.documents.empty());
    CHECK(ScenarioSteps(bad.documents[0].root, "{events: [...]}", &error) == nullptr);
    CHECK(error == "steps: want a list of {events: [...]}");
  }
}

}  // namespace jobset
