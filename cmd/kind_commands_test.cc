#include "cmd/kind_commands.h"

#include <doctest/doctest.h>

#include "validation/core/loader.h"

namespace jobset {

TEST_CASE("kind commands: every supported kind is bound, in table order") {
  const std::vector<KindCommands>& bound = KindCommandBindings();
  REQUIRE(bound.size() == SupportedKinds().size());
  for (size_t i = 0; i < bound.size(); ++i) {
    const KindHandler& row = SupportedKinds()[i];
    CAPTURE(row.title);
    CHECK(bound[i].kind == row.id);
    // JobSet is explained and simulated by RunExplain and RunSimulate themselves; every other
    // kind brings both of its own.
    bool own = row.id != KindId::kJobSet;
    CHECK((bound[i].explain != nullptr) == own);
    CHECK((bound[i].simulate != nullptr) == own);
  }
}

TEST_CASE("kind commands: an object finds its kind's commands by apiVersion and kind") {
  for (const KindHandler& row : SupportedKinds()) {
    CAPTURE(row.title);
    SourceFile f = ParseSource("t.yaml", "apiVersion: " + std::string(row.api_version) +
                                             "\nkind: " + std::string(row.kind) + "\n");
    REQUIRE(!f.documents.empty());
    const KindCommands* commands = OwnKindCommands(f.documents[0].root);
    if (row.id == KindId::kJobSet) {
      CHECK((commands == nullptr));
    } else {
      REQUIRE((commands != nullptr));
      CHECK(commands->kind == row.id);
    }
  }
  SourceFile job = ParseSource("t.yaml", "apiVersion: batch/v1\nkind: Job\n");
  CHECK(OwnKindCommands(job.documents[0].root) == nullptr);
}

}  // namespace jobset
