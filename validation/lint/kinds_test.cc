#include "validation/lint/kinds.h"

#include <doctest/doctest.h>

#include "validation/core/loader.h"
#include "validation/core/patch.h"
#include "validation/core/rule_registry.h"
#include "validation/lint/lint.h"
#include "validation/lint/rule_registry.h"

namespace jobset {
namespace {

// The identity problem of the first document of `yaml`: "rule@line:column: message", or "".
std::string Problem(const std::string& yaml) {
  SourceFile f = ParseSource("t.yaml", yaml);
  REQUIRE(!f.documents.empty());
  Finding finding;
  if (!FindIdentityProblem(f.documents[0].root, &finding)) return "";
  CHECK(finding.severity == Severity::kError);
  return finding.rule + "@" + std::to_string(finding.mark.line) + ":" +
         std::to_string(finding.mark.column) + ": " + finding.message;
}

}  // namespace

TEST_CASE("kinds: every row of the table is complete and found by its identity") {
  const std::vector<KindHandler>& kinds = SupportedKinds();
  REQUIRE(kinds.size() == kKindCount);
  CHECK(kinds[0].id == KindId::kJobSet);  // JobSet first: the default kind of every command
  for (size_t i = 0; i < kinds.size(); ++i) {
    const KindHandler& k = kinds[i];
    CAPTURE(k.title);
    CHECK(static_cast<size_t>(k.id) == i);
    CHECK(&FindKind(k.id) == &k);
    CHECK(!ApiGroupOf(k).empty());
    CHECK(!ServedVersionOf(k).empty());
    CHECK(std::string(ApiGroupOf(k)) + "/" + std::string(ServedVersionOf(k)) == k.api_version);
    CHECK(!k.kind.empty());
    CHECK(!k.title.empty());
    CHECK(ApiGroupOf(k).find(k.group_word) != std::string_view::npos);
    CHECK((k.lint != nullptr));
    // A kind with a mutating webhook has CRD defaults and update rules to go with it.
    if (k.webhook_defaults) CHECK((k.crd_defaults != nullptr));
    if (k.webhook_defaults) CHECK((k.update != nullptr));
    // Every face has what it needs: render, why (diagnose and the kubectl words), the registry.
    CHECK((k.render != nullptr));
    CHECK((k.diagnose != nullptr));
    REQUIRE((k.rules != nullptr));
    CHECK(!k.rules().empty());
    CHECK(!k.noun.empty());
    REQUIRE(!k.resource_words.empty());
    CHECK(k.resource.find(ApiGroupOf(k)) != std::string_view::npos);
    CHECK(!k.child_resources.empty());
    CHECK(!k.child_label.empty());
    for (std::string_view word : k.resource_words) {
      CAPTURE(word);
      CHECK(FindKindByResourceWord(word) == &k);
    }
    // Every rule of the kind is in the registry.
    for (const RuleInfo& rule : k.rules()) CHECK(FindRule(rule.id) != nullptr);
    for (const KindHandler& other : kinds) {
      if (&other != &k) CHECK(!(other.api_version == k.api_version && other.kind == k.kind));
    }
    std::string yaml = "apiVersion: " + std::string(k.api_version) +
                       "\nkind: " + std::string(k.kind) + "\nmetadata: {name: x}\n";
    SourceFile f = ParseSource("t.yaml", yaml);
    REQUIRE(!f.documents.empty());
    CHECK(FindKindHandler(f.documents[0].root) == &k);
  }
  // Fixes exist for JobSet findings only.
  CHECK((FindKind(KindId::kJobSet).attach_fixes != nullptr));
  CHECK((FindKind(KindId::kVolcanoJob).attach_fixes == nullptr));
  CHECK((FindKind(KindId::kFramework).attach_fixes == nullptr));
  CHECK(FindKindByResourceWord("vcjob") == &FindKind(KindId::kVolcanoJob));
  CHECK(FindKindByResourceWord("pods") == nullptr);
}

TEST_CASE("kinds: a row's hooks check and default its kind") {
  LintOptions options;
  SourceFile f = ParseSource("t.yaml",
                             "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: "
                             "x}\nspec:\n  tasks:\n  - name: t\n    replicas: 1\n    template:\n"
                             "      spec:\n        containers: [{name: c, image: i}]\n");
  const Node& job = f.documents[0].root;
  const KindHandler& volcano = FindKind(KindId::kVolcanoJob);
  CHECK(volcano.lint(job, options).empty());
  Node defaulted = job;
  std::vector<PatchOp> patch;
  volcano.crd_defaults(&defaulted, &patch);
  volcano.webhook_defaults(&defaulted, &patch);
  CHECK(defaulted.Find("spec")->StringOr("schedulerName") == "volcano");
  CHECK(defaulted.Find("spec")->StringOr("queue") == "default");
}

TEST_CASE("kinds: an unknown version of one of our groups is an error with the version to use") {
  CHECK(Problem("apiVersion: jobset.x-k8s.io/v1alpha1\nkind: JobSet\n") ==
        "input/unknown-api-version@1:13: no matches for kind \"JobSet\" in version "
        "\"jobset.x-k8s.io/v1alpha1\": the JobSet API serves only v1alpha2; did you mean "
        "apiVersion: jobset.x-k8s.io/v1alpha2?");
  CHECK(Problem("apiVersion: batch.volcano.sh/v1\nkind: Job\n")
            .find("input/unknown-api-version@1:13: no matches for kind \"Job\" in version "
                  "\"batch.volcano.sh/v1\": the Volcano Job API serves only v1alpha1; did you mean "
                  "apiVersion: batch.volcano.sh/v1alpha1?") == 0);
  CHECK(Problem("apiVersion: frameworkcontroller.microsoft.com/v2\nkind: Framework\n")
            .find("did you mean apiVersion: frameworkcontroller.microsoft.com/v1?") !=
        std::string::npos);
  // Both wrong: both named.
  CHECK(Problem("apiVersion: jobset.x-k8s.io/v1\nkind: jobset\n")
            .find("did you mean apiVersion: jobset.x-k8s.io/v1alpha2 and kind: JobSet?") !=
        std::string::npos);
}

TEST_CASE("kinds: a group a few edits from ours, or holding our word, is an error") {
  CHECK(Problem("apiVersion: jobsets.x-k8s.io/v1alpha2\nkind: JobSet\n") ==
        "input/unknown-api-version@1:13: no matches for kind \"JobSet\" in version "
        "\"jobsets.x-k8s.io/v1alpha2\": no API group jobsets.x-k8s.io; did you mean "
        "apiVersion: jobset.x-k8s.io/v1alpha2 (JobSet)?");
  CHECK(Problem("apiVersion: jobset.sigs.k8s.io/v1alpha2\nkind: JobSet\n")
            .find("input/unknown-api-version") == 0);
  CHECK(Problem("apiVersion: batch.volcano.io/v1alpha1\nkind: Job\n")
            .find("did you mean apiVersion: batch.volcano.sh/v1alpha1 (Volcano Job)?") !=
        std::string::npos);
}

TEST_CASE("kinds: a near miss of our kind under our apiVersion is an error") {
  for (const char* kind : {"Jobset", "JobSets", "job set", "JOBSET", "JobSte", "job-set"}) {
    CAPTURE(kind);
    CHECK(Problem(std::string("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: ") + kind + "\n")
              .find("input/unknown-kind@2:7: no matches for kind \"" + std::string(kind) +
                    "\" in version \"jobset.x-k8s.io/v1alpha2\"; did you mean kind: JobSet "
                    "(JobSet)?") == 0);
  }
  CHECK(Problem("apiVersion: batch.volcano.sh/v1alpha1\nkind: jobs\n")
            .find("did you mean kind: Job (Volcano Job)?") != std::string::npos);
  CHECK(Problem("apiVersion: frameworkcontroller.microsoft.com/v1\nkind: Framwork\n")
            .find("did you mean kind: Framework") != std::string::npos);
  CHECK(Problem("apiVersion: jobset.x-k8s.io/v1alpha2\nmetadata: {name: x}\n") ==
        "input/unknown-kind@1:13: kind not set; did you mean kind: JobSet (JobSet)?");
}

TEST_CASE("kinds: our kind without an apiVersion is an error") {
  CHECK(Problem("kind: JobSet\nmetadata: {name: x}\n") ==
        "input/unknown-api-version@1:7: apiVersion not set; did you mean apiVersion: "
        "jobset.x-k8s.io/v1alpha2 (JobSet)?");
  CHECK(Problem("kind: Job\n") ==
        "input/unknown-api-version@1:7: apiVersion not set; did you mean apiVersion: "
        "batch.volcano.sh/v1alpha1 (Volcano Job)? (a Kubernetes Job is apiVersion: batch/v1)");
  CHECK(Problem("kind: Jobset\n").find("and kind: JobSet") != std::string::npos);
}

TEST_CASE("kinds: other kinds, and other kinds of our groups, stay skipped quietly") {
  // Kubernetes' own Job: Volcano's kind is the same word.
  CHECK(Problem("apiVersion: batch/v1\nkind: Job\n").empty());
  CHECK(Problem("apiVersion: batch/v1\nkind: Jobs\n").empty());
  CHECK(Problem("apiVersion: batch/v1\nkind: JobSet\n").empty());  // another group's JobSet
  CHECK(Problem("kind: Jobs\n").empty());  // a near miss of "Job" may be Kubernetes'
  CHECK(Problem("apiVersion: v1\nkind: Pod\n").empty());
  CHECK(Problem("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\n").empty());
  CHECK(Problem("apiVersion: kind.x-k8s.io/v1alpha4\nkind: Cluster\n").empty());
  CHECK(Problem("apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n").empty());
  CHECK(Problem("apiVersion: flow.volcano.sh/v1alpha1\nkind: JobTemplate\n").empty());
  // Another kind of one of our groups: upstream's own sample of the jobset config type.
  CHECK(Problem("apiVersion: jobset.x-k8s.io/v1alpha1\nkind: Configuration\n").empty());
  CHECK(Problem("apiVersion: batch.volcano.sh/v1alpha1\nkind: CronJob\n").empty());
  CHECK(Problem("name: x\nimage: y\n").empty());
  CHECK(Problem("- a\n- b\n").empty());
  CHECK(Problem("apiVersion: 1\nkind: JobSet\n").empty());  // the schema of apiVersion is not ours
}

}  // namespace jobset
