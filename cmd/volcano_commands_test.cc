#include "cmd/volcano_commands.h"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "validation/core/loader.h"

namespace jobset {
namespace {

// The Volcano Job of `yaml`, explained as text.
std::string ExplainText(const std::string& yaml) {
  SourceFile f = ParseSource("job.yaml", yaml);
  REQUIRE(!f.documents.empty());
  std::ostringstream out, err;
  CHECK(ExplainVolcanoJobCommand(f.documents[0].root, "job.yaml", ExplainFlags{}, out, nullptr,
                                 err) == 0);
  return out.str();
}

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE("volcano explain: the 'other pods succeed' lines stop at 100 tasks, then say so") {
  std::string yaml =
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: wide}\nspec:\n"
      "  tasks:\n";
  for (int t = 0; t < 130; ++t) yaml += "  - {name: t" + std::to_string(t) + ", replicas: 2}\n";
  const std::string text = ExplainText(yaml);
  CHECK(Count(text, "when all the other pods succeed the job ends Failed") == 100);
  CHECK(text.find("a `t99` pod that fails stays Failed") != std::string::npos);
  CHECK(text.find("a `t100` pod that fails") == std::string::npos);
  CHECK(text.find("30 more tasks whose failed pods nothing restarts are not listed") !=
        std::string::npos);
}

TEST_CASE("volcano explain: a policy that never fires is named with its timeout") {
  // The one home of a policy's words (validation/volcano/text.h) keeps the timeout; explain's
  // own copy used to drop it.
  const std::string text = ExplainText(
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: late}\nspec:\n"
      "  policies:\n  - {event: JobUpdated, action: RestartJob, timeout: 10m}\n"
      "  tasks:\n  - {name: worker, replicas: 1}\n");
  CHECK(text.find("spec.policies[0] (JobUpdated -> RestartJob after 10m): the controller never "
                  "emits JobUpdated") != std::string::npos);
}

}  // namespace
}  // namespace jobset
