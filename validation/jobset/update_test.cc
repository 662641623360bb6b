// Tests of JobSet UPDATE admission (the CRD's CEL transition rules and
// ValidateUpdate of kubernetes-sigs/jobset@08dfbdfd pkg/webhooks/jobset_webhook.go):
// every step, with the exact upstream renderings.
#include "validation/jobset/update.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "tests/test_size.h"
#include "validation/core/loader.h"
#include "validation/schema/schema.h"

namespace jobset {
namespace {

using Findings = std::vector<Finding>;

// A JobSet with two replicated jobs; tokens are replaced per test.
constexpr char kBase[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: js
SUSPEND
spec:
  MANAGED
  failurePolicy:
    maxRestarts: MAXRESTARTS
  network:
    enableDNSHostnames: true
  successPolicy:
    operator: All
  startupPolicy:
    startupPolicyOrder: AnyOrder
  replicatedJobs:
  - name: leader
    replicas: 1
    template:
      spec:
        completionMode: LEADERMODE
        parallelism: 1
        completions: 1
        template:
          metadata:
            LABELS
          spec:
            restartPolicy: OnFailure
            NODESELECTOR
            containers:
            - name: c
              image: IMAGE
  - name: workers
    replicas: REPLICAS
    DEPENDSON
    template:
      spec:
        completionMode: Indexed
        parallelism: PARALLELISM
        completions: COMPLETIONS
        template:
          spec:
            restartPolicy: OnFailure
            containers:
            - name: c
              image: img
STATUS
)";

struct Knobs {
  std::string suspend = "false";
  std::string managed;  // "" = no managedBy.
  std::string max_restarts = "3";
  std::string leader_mode = "Indexed";
  std::string labels = "labels: {app: a}";
  std::string node_selector = "nodeSelector: {pool: a}";
  std::string image = "img";
  std::string replicas = "2";
  std::string depends_on = "dependsOn: [{name: leader, status: Ready}]";
  std::string parallelism = "4";
  std::string completions = "4";
  std::string status;  // A condition type that is True in status ("" = none).
};

std::string Sub(std::string text, std::string_view token, std::string_view value) {
  size_t at = text.find(token);
  REQUIRE_MESSAGE(at != std::string::npos, token);
  text.replace(at, token.size(), value);
  return text;
}

Node Build(const Knobs& k) {
  std::string y = kBase;
  y = Sub(y, "SUSPEND\n", "");
  y = Sub(y, "spec:\n  MANAGED\n",
          "spec:\n  suspend: " + k.suspend + "\n" +
              (k.managed.empty() ? "" : "  managedBy: " + k.managed + "\n"));
  y = Sub(y, "MAXRESTARTS", k.max_restarts);
  y = Sub(y, "LEADERMODE", k.leader_mode);
  y = Sub(y, "LABELS", k.labels.empty() ? "{}" : k.labels);
  y = Sub(y, "NODESELECTOR", k.node_selector.empty() ? "hostNetwork: false" : k.node_selector);
  y = Sub(y, "IMAGE", k.image);
  y = Sub(y, "REPLICAS", k.replicas);
  y = Sub(y, "DEPENDSON", k.depends_on.empty() ? "groupName: default" : k.depends_on);
  y = Sub(y, "PARALLELISM", k.parallelism);
  y = Sub(y, "COMPLETIONS", k.completions);
  y = Sub(y, "STATUS\n",
          k.status.empty()
              ? ""
              : "status:\n  conditions:\n  - type: " + k.status + "\n    status: \"True\"\n");
  SourceFile file = ParseSource("t.yaml", y);
  REQUIRE(file.documents.size() == 1);
  REQUIRE_MESSAGE(file.documents[0].parsed, y);
  return file.documents[0].root;
}

Node Parse(const std::string& yaml) {
  SourceFile file = ParseSource("t.yaml", yaml);
  REQUIRE(file.documents.size() == 1);
  REQUIRE(file.documents[0].parsed);
  return file.documents[0].root;
}

FeatureGates Elastic() {
  FeatureGates g;
  g.elastic_jobset = true;
  return g;
}

std::vector<std::string> Upstream(const Findings& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) {
    CHECK(f.severity == Severity::kError);
    CHECK(f.message == f.upstream);
    out.push_back(f.upstream);
  }
  return out;
}

std::vector<std::string> Update(const Knobs& old_knobs, const Knobs& new_knobs,
                                FeatureGates gates = {}) {
  return Upstream(ValidateUpdate(Build(old_knobs), Build(new_knobs), gates));
}

using Strings = std::vector<std::string>;

constexpr char kImmutableSuffix[] = ": field is immutable";

// The masked new replicated jobs as the error prints them, after the CRD defaults
// (groupName is appended where it was missing).
std::string RJobsJson(std::string_view leader_labels, std::string_view leader_selector,
                      std::string_view image, std::string_view replicas,
                      std::string_view workers_pc) {
  return std::string(R"([{"name":"leader","replicas":1,"template":{"spec":{"completionMode":)"
                     R"("Indexed","parallelism":1,"completions":1,"template":{"metadata":{)") +
         std::string(leader_labels) + R"(},"spec":{"restartPolicy":"OnFailure",)" +
         std::string(leader_selector) + R"(,"containers":[{"name":"c","image":")" +
         std::string(image) + R"("}]}}}},"groupName":"default"},{"name":"workers","replicas":)" +
         std::string(replicas) +
         R"(,"dependsOn":[{"name":"leader","status":"Ready"}],"template":{"spec":{)"
         R"("completionMode":"Indexed",)" +
         std::string(workers_pc) +
         R"(,"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c",)"
         R"("image":"img"}]}}}},"groupName":"default"}])";
}

}  // namespace

// --- Nothing changed, or only what is mutable --------------------------------------------------

TEST_CASE("update: an unchanged JobSet is accepted") {
  CHECK(Update({}, {}).empty());
  CHECK(Update({}, {}, Elastic()).empty());
}

TEST_CASE("update: suspend, metadata and status may change freely") {
  Knobs suspended;
  suspended.suspend = "true";
  CHECK(Update({}, suspended).empty());
  CHECK(Update(suspended, {}).empty());
  Node old_js = Build({}), new_js = Build({});
  new_js.Find("metadata")->Set("labels", Parse("{team: a}"));
  new_js.Find("metadata")->Set("annotations", Parse("{note: b}"));
  new_js.Set("status", Parse("{restarts: 3}"));
  CHECK(ValidateUpdate(old_js, new_js, {}).empty());
}

TEST_CASE("update: coordinator and ttlSecondsAfterFinished have no rule at all") {
  Node old_js = Build({}), new_js = Build({});
  new_js.Find("spec")->Set("ttlSecondsAfterFinished", Node::Int(60));
  new_js.Find("spec")->Set("coordinator", Parse("{replicatedJob: leader}"));
  CHECK(ValidateUpdate(old_js, new_js, {}).empty());
}

// --- CEL transition rules ------------------------------------------------------------------------

TEST_CASE("update: each self == oldSelf field is immutable when present in both objects") {
  struct Case {
    const char* key;
    const char* old_value;
    const char* new_value;
    const char* type;
  };
  const Case cases[] = {
      {"failurePolicy", "{maxRestarts: 3}", "{maxRestarts: 4}", "object"},
      {"network", "{enableDNSHostnames: true}", "{enableDNSHostnames: false}", "object"},
      {"successPolicy", "{operator: All}", "{operator: Any}", "object"},
      {"startupPolicy", "{startupPolicyOrder: AnyOrder}", "{startupPolicyOrder: InOrder}",
       "object"},
      {"volumeClaimPolicies", "[{templates: [{metadata: {name: a}}]}]",
       "[{templates: [{metadata: {name: b}}]}]", "array"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.key);
    Node old_js = Build({}), new_js = Build({});
    old_js.Find("spec")->Set(c.key, Parse(c.old_value));
    new_js.Find("spec")->Set(c.key, Parse(c.new_value));
    CHECK(Upstream(ValidateUpdate(old_js, new_js, {})) ==
          Strings{"spec." + std::string(c.key) + ": Invalid value: \"" + c.type +
                  "\": Value is immutable"});
    const Findings f = ValidateTransitionRules(old_js, new_js);
    REQUIRE(f.size() == 1);
    CHECK(f[0].rule == "update/immutable");
    CHECK(f[0].field == "spec." + std::string(c.key));
    // Equal values, with the keys in another order, pass.
    Node same = Build({});
    same.Find("spec")->Set(c.key, Parse(c.old_value));
    CHECK(ValidateUpdate(old_js, same, {}).empty());
  }
}

TEST_CASE("update: adding or removing a whole CEL-immutable field is not a transition") {
  for (const char* key : {"failurePolicy", "network", "successPolicy", "startupPolicy"}) {
    CAPTURE(key);
    Node with = Build({}), without = Build({});
    Node* spec = without.Find("spec");
    for (auto it = spec->entries.begin(); it != spec->entries.end(); ++it) {
      if (it->key == key) {
        spec->entries.erase(it);
        break;
      }
    }
    CHECK(ValidateUpdate(with, without, {}).empty());
    CHECK(ValidateUpdate(without, with, {}).empty());
  }
  Node old_js = Build({}), new_js = Build({});
  new_js.Find("spec")->Set("volumeClaimPolicies", Parse("[{templates: [{metadata: {name: a}}]}]"));
  CHECK(ValidateUpdate(old_js, new_js, {}).empty());
  // A null value is pruned by the API server: the same as absent.
  new_js.Find("spec")->Set("failurePolicy", Node());
  CHECK(ValidateUpdate(old_js, new_js, {}).empty());
}

TEST_CASE("update: failurePolicy compares its defaulted form") {
  // restartStrategy is a CRD default: explicit Recreate equals omitted.
  Node old_js = Build({}), new_js = Build({});
  old_js.Find("spec")->Set("failurePolicy", Parse("{maxRestarts: 3, restartStrategy: Recreate}"));
  CHECK(ValidateUpdate(old_js, new_js, {}).empty());
  new_js.Find("spec")->Set("failurePolicy", Parse("{maxRestarts: 3, rules: []}"));
  CHECK(Upstream(ValidateUpdate(old_js, new_js, {})) ==
        Strings{"spec.failurePolicy: Invalid value: \"object\": Value is immutable"});
}

TEST_CASE("update: dependsOn is immutable per replicated job, matched by name, as a set") {
  Knobs changed;
  changed.depends_on = "dependsOn: [{name: leader, status: Complete}]";
  CHECK(Update({}, changed) ==
        Strings{"spec.replicatedJobs[1].dependsOn: Invalid value: \"array\": Value is immutable"});

  // Adding or removing dependsOn is no transition; the webhook's replicatedJobs rule catches it.
  Knobs none;
  none.depends_on = "";
  Strings added = Update(none, {});
  REQUIRE(added.size() == 1);
  CHECK(added[0].rfind("spec.replicatedJobs: Invalid value: [", 0) == 0);

  // list-type=map: the same items in another order are equal for CEL, but not for the
  // webhook's deep equality of the whole list.
  Knobs two, swapped;
  two.depends_on = "dependsOn: [{name: leader, status: Ready}, {name: workers, status: Ready}]";
  swapped.depends_on = "dependsOn: [{name: workers, status: Ready}, {name: leader, status: Ready}]";
  Node old_js = Build(two), new_js = Build(swapped);
  CHECK(ValidateTransitionRules(old_js, new_js).empty());
  Strings reordered = Upstream(ValidateUpdate(old_js, new_js, {}));
  REQUIRE(reordered.size() == 1);
  CHECK(reordered[0].rfind("spec.replicatedJobs: Invalid value: ", 0) == 0);

  // Correlation is by name: the dependsOn of a moved replicated job is still compared.
  Node moved = Build(changed);
  std::vector<Node>& items = moved.Find("spec")->Find("replicatedJobs")->items;
  std::swap(items[0], items[1]);
  CHECK(Upstream(ValidateTransitionRules(Build({}), moved)) ==
        Strings{"spec.replicatedJobs[0].dependsOn: Invalid value: \"array\": Value is immutable"});
}

// Hostile sizes: these pairings cost O(n^2) before (minutes here); the test's ctest TIMEOUT
// (CMakeLists.txt) fails them if they do again.
namespace {

// A JobSet with `n` replicated jobs rj-0.. (in reverse order when `reversed`), each depending
// on the one before it, and `depends` items in the dependsOn of the last one.
Node WideJobSet(int n, bool reversed, int depends = 0) {
  Node rjs = Node::Seq();
  for (int k = 0; k < n; ++k) {
    int i = reversed ? n - 1 - k : k;
    Node rj = Node::Map();
    rj.Set("name", Node::String("rj-" + std::to_string(i)));
    rj.Set("replicas", Node::Int(1));
    Node deps = Node::Seq();
    if (i > 0) {
      Node d = Node::Map();
      d.Set("name", Node::String("rj-" + std::to_string(i - 1)));
      d.Set("status", Node::String("Ready"));
      deps.items.push_back(std::move(d));
    }
    if (i == n - 1) {
      for (int j = 0; j < depends; ++j) {
        int at = reversed ? depends - 1 - j : j;
        Node d = Node::Map();
        d.Set("name", Node::String("dep-" + std::to_string(at)));
        d.Set("status", Node::String("Complete"));
        deps.items.push_back(std::move(d));
      }
    }
    if (!deps.items.empty()) rj.Set("dependsOn", std::move(deps));
    Node c = Node::Map();
    c.Set("name", Node::String("c"));
    c.Set("image", Node::String("img"));
    Node pod = Node::Map();
    pod.Set("spec", Node::Map()).Set("containers", Node::Seq()).items.push_back(std::move(c));
    rj.Set("template", Node::Map()).Set("spec", Node::Map()).Set("template", std::move(pod));
    rjs.items.push_back(std::move(rj));
  }
  Node js = Node::Map();
  js.Set("apiVersion", Node::String("jobset.x-k8s.io/v1alpha2"));
  js.Set("kind", Node::String("JobSet"));
  js.Set("metadata", Node::Map()).Set("name", Node::String("wide"));
  js.Set("spec", Node::Map()).Set("replicatedJobs", std::move(rjs));
  return js;
}

}  // namespace

TEST_CASE("update: 100,000 replicated jobs are paired by name in linear time") {
  // Each new item looked for its old one through the whole old list: 1e10 comparisons.
  const int n = HostileSize(100000);
  Node old_js = WideJobSet(n, false), new_js = WideJobSet(n, true);
  CHECK(ValidateTransitionRules(old_js, new_js).empty());  // Same dependsOn, other order.
  // The dependsOn of the last job, now first in the list, changes.
  Node* last = &new_js.Find("spec")->Find("replicatedJobs")->items[0];
  last->Find("dependsOn")->items[0].Set("status", Node::String("Complete"));
  CHECK(Upstream(ValidateTransitionRules(old_js, new_js)) ==
        Strings{"spec.replicatedJobs[0].dependsOn: Invalid value: \"array\": Value is immutable"});
}

TEST_CASE("update: a dependsOn of 100,000 items is compared as a set in linear time") {
  // Each old item looked for its new one through the whole new list: 5e9 comparisons.
  const int n = HostileSize(100000);
  Node old_js = WideJobSet(3, false, n), new_js = WideJobSet(3, false, n);
  std::vector<Node>& deps =
      new_js.Find("spec")->Find("replicatedJobs")->items[2].Find("dependsOn")->items;
  std::reverse(deps.begin() + 1, deps.end());
  CHECK(ValidateTransitionRules(old_js, new_js).empty());
  deps[1].Set("status", Node::String("Ready"));
  CHECK(Upstream(ValidateTransitionRules(old_js, new_js)) ==
        Strings{"spec.replicatedJobs[2].dependsOn: Invalid value: \"array\": Value is immutable"});
}

TEST_CASE("update: labels of 300,000 keys are compared in linear time") {
  // CEL and semantic equality looked every key of one mapping up in the other: 4.5e10.
  Node old_js = WideJobSet(2, false), new_js;
  Node labels = Node::Map();
  for (int i = 0; i < HostileSize(300000); ++i) {
    labels.entries.push_back(MapEntry{"k" + std::to_string(i), {}, Node::String("v")});
  }
  Node* pod = old_js.Find("spec")
                  ->Find("replicatedJobs")
                  ->items[1]
                  .Find("template")
                  ->Find("spec")
                  ->Find("template");
  pod->Set("metadata", Node::Map()).entries.push_back(MapEntry{"labels", {}, labels});
  old_js.Find("spec")
      ->Set("network", Node::Map())
      .entries.push_back(MapEntry{"labels", {}, labels});
  new_js = old_js;
  std::reverse(labels.entries.begin(), labels.entries.end());
  new_js.Find("spec")->Find("network")->Find("labels")->entries = labels.entries;
  CHECK(ValidateUpdate(old_js, new_js, {}).empty());
  labels.entries[0].value = Node::String("changed");
  new_js.Find("spec")
      ->Find("replicatedJobs")
      ->items[1]
      .Find("template")
      ->Find("spec")
      ->Find("template")
      ->Find("metadata")
      ->Find("labels")
      ->entries = labels.entries;
  Strings changed = Upstream(ValidateUpdate(old_js, new_js, {}));
  REQUIRE(changed.size() == 1);
  CHECK(changed[0].rfind("spec.replicatedJobs: Invalid value: [", 0) == 0);
}

TEST_CASE("update: CEL errors stop the update before the webhook runs") {
  Knobs changed;
  changed.max_restarts = "5";
  changed.replicas = "3";
  changed.managed = "example.com/other";
  CHECK(Update({}, changed) ==
        Strings{"spec.failurePolicy: Invalid value: \"object\": Value is immutable"});
  // All transition errors together, in the CRD's property order.
  Node old_js = Build({}), new_js = Build(changed);
  new_js.Find("spec")->Set("successPolicy", Parse("{operator: Any}"));
  new_js.Find("spec")->Set("network", Parse("{enableDNSHostnames: false}"));
  CHECK(Upstream(ValidateUpdate(old_js, new_js, {})) ==
        Strings{"spec.failurePolicy: Invalid value: \"object\": Value is immutable",
                "spec.network: Invalid value: \"object\": Value is immutable",
                "spec.successPolicy: Invalid value: \"object\": Value is immutable"});
}

// --- ValidateUpdate: replicatedJobs -----------------------------------------------------------

TEST_CASE("update: any change to a replicated job is rejected with the new list") {
  Knobs changed;
  changed.replicas = "3";
  Strings got = Update({}, changed);
  CHECK(got == Strings{"spec.replicatedJobs: Invalid value: " +
                       RJobsJson(R"("labels":{"app":"a"})", R"("nodeSelector":{"pool":"a"})", "img",
                                 "3", R"("parallelism":4,"completions":4)") +
                       kImmutableSuffix});
  Findings f = ValidateUpdate(Build({}), Build(changed), {});
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "update/replicated-jobs-immutable");
  CHECK(f[0].field == "spec.replicatedJobs");

  Knobs image;
  image.image = "img:2";
  CHECK(Update({}, image).size() == 1);
  Knobs mode;
  mode.leader_mode = "NonIndexed";
  CHECK(Update({}, mode).size() == 1);
}

TEST_CASE("update: adding, removing, renaming or reordering replicated jobs is rejected") {
  Node old_js = Build({});
  Node added = Build({}), removed = Build({}), renamed = Build({}), reordered = Build({});
  std::vector<Node>& add = added.Find("spec")->Find("replicatedJobs")->items;
  add.push_back(add[0]);
  add.back().Set("name", Node::String("extra"));
  removed.Find("spec")->Find("replicatedJobs")->items.pop_back();
  renamed.Find("spec")->Find("replicatedJobs")->items[0].Set("name", Node::String("boss"));
  std::vector<Node>& order = reordered.Find("spec")->Find("replicatedJobs")->items;
  std::swap(order[0], order[1]);
  for (const Node* n : {&added, &removed, &renamed, &reordered}) {
    Strings got = Upstream(ValidateUpdate(old_js, *n, {}));
    REQUIRE(got.size() == 1);
    CHECK(got[0].rfind("spec.replicatedJobs: Invalid value: [{", 0) == 0);
    CHECK(got[0].size() > std::string(kImmutableSuffix).size());
    CHECK(got[0].substr(got[0].size() - std::string(kImmutableSuffix).size()) == kImmutableSuffix);
  }
  // Without any replicated jobs the list prints as null.
  Node none = Build({});
  Node* spec = none.Find("spec");
  for (auto it = spec->entries.begin(); it != spec->entries.end(); ++it) {
    if (it->key == "replicatedJobs") {
      spec->entries.erase(it);
      break;
    }
  }
  CHECK(Upstream(ValidateUpdate(old_js, none, {})) ==
        Strings{"spec.replicatedJobs: Invalid value: null: field is immutable"});
}

TEST_CASE("update: equality is semantic: defaults, nulls and empty collections") {
  // CRD defaults: replicas and groupName omitted on one side.
  Node old_js = Build({}), new_js = Build({});
  Node& leader = new_js.Find("spec")->Find("replicatedJobs")->items[0];
  leader.entries.erase(leader.entries.begin() + 1);  // replicas: 1
  REQUIRE(leader.Find("replicas") == nullptr);
  CHECK(ValidateUpdate(old_js, new_js, {}).empty());
  // null, [] and {} equal an absent field (Go's nil maps, slices and zero structs).
  Node& tmpl_spec = *new_js.Find("spec")
                         ->Find("replicatedJobs")
                         ->items[1]
                         .Find("template")
                         ->Find("spec")
                         ->Find("template")
                         ->Find("spec");
  tmpl_spec.Set("volumes", Node::Seq());
  tmpl_spec.Set("securityContext", Node::Map());
  tmpl_spec.Set("affinity", Node());
  CHECK(ValidateUpdate(old_js, new_js, {}).empty());
  // Map key order does not matter.
  Node reordered = Build({});
  std::vector<MapEntry>& entries = reordered.Find("spec")->Find("replicatedJobs")->items[1].entries;
  std::swap(entries[0], entries[2]);
  CHECK(ValidateUpdate(old_js, reordered, {}).empty());
  // A scalar is never vacant: false is not absent.
  Knobs selector_gone;
  selector_gone.node_selector = "";
  CHECK(Update({}, selector_gone).size() == 1);
}

// --- ValidateUpdate: suspended JobSets--------------------------------------------------------

TEST_CASE("update: while suspended, pod template scheduling fields may change") {
  Knobs old_knobs, new_knobs;
  old_knobs.suspend = "true";
  new_knobs.suspend = "true";
  new_knobs.labels = "labels: {app: b, queue: q}";
  new_knobs.node_selector = "nodeSelector: {pool: b}";
  CHECK(Update(old_knobs, new_knobs).empty());
  // Added or removed entirely.
  Knobs no_labels = new_knobs;
  no_labels.labels = "";
  no_labels.node_selector = "";
  CHECK(Update(old_knobs, no_labels).size() == 1);  // hostNetwork: false is not masked.
  Node old_js = Build(old_knobs), new_js = Build(old_knobs);
  Node& pod = *new_js.Find("spec")
                   ->Find("replicatedJobs")
                   ->items[0]
                   .Find("template")
                   ->Find("spec")
                   ->Find("template");
  pod.Find("metadata")->Set("annotations", Parse("{kueue: admitted}"));
  pod.Find("metadata")->Set("labels", Node());
  pod.Find("spec")->Set("tolerations", Parse("[{key: k, operator: Exists}]"));
  pod.Find("spec")->Set("schedulingGates", Parse("[{name: g}]"));
  pod.Find("spec")->Set("nodeSelector", Parse("{zone: z}"));
  CHECK(ValidateUpdate(old_js, new_js, {}).empty());
  // Metadata created where the old template had none.
  Node bare_old = Build(old_knobs), bare_new = Build(old_knobs);
  Node& old_workers_pod = *bare_old.Find("spec")
                               ->Find("replicatedJobs")
                               ->items[1]
                               .Find("template")
                               ->Find("spec")
                               ->Find("template");
  Node& new_workers_pod = *bare_new.Find("spec")
                               ->Find("replicatedJobs")
                               ->items[1]
                               .Find("template")
                               ->Find("spec")
                               ->Find("template");
  REQUIRE(old_workers_pod.Find("metadata") == nullptr);
  new_workers_pod.Set("metadata", Parse("{labels: {x: y}, annotations: {a: b}}"));
  CHECK(ValidateUpdate(bare_old, bare_new, {}).empty());
  Node labelled_old = bare_new, unlabelled_new = bare_old;
  CHECK(ValidateUpdate(labelled_old, unlabelled_new, {}).empty());
}

TEST_CASE("update: the suspend window opens when either the old or the new JobSet is suspended") {
  Knobs running, suspended, resumed;
  suspended.suspend = "true";
  resumed.labels = "labels: {app: b}";  // Resuming with new labels: allowed (old suspended).
  CHECK(Update(suspended, resumed).empty());
  Knobs suspending = resumed;
  suspending.suspend = "true";  // Suspending and relabelling at once: allowed.
  CHECK(Update(running, suspending).empty());
  // Neither suspended: the labels are immutable, and the new ones are printed.
  Strings got = Update(running, resumed);
  CHECK(got == Strings{"spec.replicatedJobs: Invalid value: " +
                       RJobsJson(R"("labels":{"app":"b"})", R"("nodeSelector":{"pool":"a"})", "img",
                                 "2", R"("parallelism":4,"completions":4)") +
                       kImmutableSuffix});
}

TEST_CASE("update: while suspended, other fields stay immutable, printed with the masked list") {
  Knobs old_knobs, new_knobs;
  old_knobs.suspend = "true";
  new_knobs.suspend = "true";
  new_knobs.labels = "labels: {app: b}";  // Masked: the old labels are printed.
  new_knobs.image = "img:2";
  CHECK(Update(old_knobs, new_knobs) ==
        Strings{"spec.replicatedJobs: Invalid value: " +
                RJobsJson(R"("labels":{"app":"a"})", R"("nodeSelector":{"pool":"a"})", "img:2", "2",
                          R"("parallelism":4,"completions":4)") +
                kImmutableSuffix});
}

TEST_CASE("update: the suspend mask pairs replicated jobs by name, not position") {
  Knobs old_knobs;
  old_knobs.suspend = "true";
  Node old_js = Build(old_knobs), new_js = Build(old_knobs);
  std::vector<Node>& items = new_js.Find("spec")->Find("replicatedJobs")->items;
  std::swap(items[0], items[1]);
  // Reordered: masked per name, but still a different list.
  CHECK(Upstream(ValidateUpdate(old_js, new_js, {})).size() == 1);
  // A renamed job has no old twin and is not masked.
  Node renamed = Build(old_knobs);
  Node& leader = renamed.Find("spec")->Find("replicatedJobs")->items[0];
  leader.Set("name", Node::String("boss"));
  Strings got = Upstream(ValidateUpdate(old_js, renamed, {}));
  REQUIRE(got.size() == 1);
  CHECK(got[0].find(R"({"name":"boss")") != std::string::npos);
}

// --- ValidateUpdate: ElasticJobSet ------------------------------------------------------------

TEST_CASE("update: without the ElasticJobSet gate, parallelism and completions are immutable") {
  Knobs scaled;
  scaled.parallelism = "8";
  scaled.completions = "8";
  CHECK(Update({}, scaled) ==
        Strings{"spec.replicatedJobs: Invalid value: " +
                RJobsJson(R"("labels":{"app":"a"})", R"("nodeSelector":{"pool":"a"})", "img", "2",
                          R"("parallelism":8,"completions":8)") +
                kImmutableSuffix});
}

TEST_CASE("update: ElasticJobSet lets Indexed jobs scale with parallelism == completions") {
  Knobs scaled;
  scaled.parallelism = "8";
  scaled.completions = "8";
  CHECK(Update({}, scaled, Elastic()).empty());
  Knobs down;
  down.parallelism = "1";
  down.completions = "1";
  CHECK(Update({}, down, Elastic()).empty());
  // Other changes are still caught by step 4, printed with the old parallelism/completions.
  Knobs both = scaled;
  both.replicas = "3";
  CHECK(Update({}, both, Elastic()) ==
        Strings{"spec.replicatedJobs: Invalid value: " +
                RJobsJson(R"("labels":{"app":"a"})", R"("nodeSelector":{"pool":"a"})", "img", "3",
                          R"("parallelism":4,"completions":4)") +
                kImmutableSuffix});
}

TEST_CASE("update: ElasticJobSet checks the new values") {
  Knobs unequal;
  unequal.parallelism = "8";
  CHECK(Update({}, unequal, Elastic()) ==
        Strings{"spec.replicatedJobs[1].template.spec.completions: Invalid value: 4: completions "
                "must be equal to parallelism for Elastic Indexed Jobs"});
  Knobs zero;
  zero.parallelism = "0";
  zero.completions = "0";
  CHECK(Update({}, zero, Elastic()) ==
        Strings{"spec.replicatedJobs[1].template.spec.parallelism: Invalid value: 0: parallelism "
                "must be >= 1",
                "spec.replicatedJobs[1].template.spec.completions: Invalid value: 0: completions "
                "must be >= 1"});
  Knobs negative;
  negative.parallelism = "-1";
  CHECK(Update({}, negative, Elastic()) ==
        Strings{"spec.replicatedJobs[1].template.spec.parallelism: Invalid value: -1: "
                "parallelism must be >= 1",
                "spec.replicatedJobs[1].template.spec.completions: Invalid value: 4: completions "
                "must be equal to parallelism for Elastic Indexed Jobs"});
  // Only the changed value is range-checked; the equality check looks at both.
  Knobs old_zero;
  old_zero.completions = "0";
  old_zero.parallelism = "0";
  Knobs new_completions = old_zero;
  new_completions.completions = "2";
  CHECK(Update(old_zero, new_completions, Elastic()) ==
        Strings{"spec.replicatedJobs[1].template.spec.completions: Invalid value: 2: completions "
                "must be equal to parallelism for Elastic Indexed Jobs"});
  // Unchanged values are not checked at all, even when unequal.
  Knobs stale;
  stale.parallelism = "2";
  CHECK(Update(stale, stale, Elastic()).empty());
  Findings f = ValidateUpdate(Build({}), Build(unequal), Elastic());
  REQUIRE(f.size() == 1);
  CHECK(f[0].field == "spec.replicatedJobs[1].template.spec.completions");
  CHECK(f[0].rule == "update/elastic-completions");
  Findings z = ValidateUpdate(Build({}), Build(zero), Elastic());
  REQUIRE(z.size() == 2);
  CHECK(z[0].rule == "update/elastic-parallelism");
  CHECK(z[1].rule == "update/elastic-completions");
}

TEST_CASE("update: ElasticJobSet forbids scaling a Completed or Failed JobSet") {
  Knobs scaled;
  scaled.parallelism = "8";
  scaled.completions = "8";
  for (const char* condition : {"Completed", "Failed"}) {
    CAPTURE(condition);
    Knobs terminal;
    terminal.status = condition;
    Knobs new_knobs = scaled;
    new_knobs.status = condition;
    CHECK(Update(terminal, new_knobs, Elastic()) ==
          Strings{"spec.replicatedJobs[1].template.spec: Forbidden: Cannot mutate parallelism or "
                  "completions when JobSet is in a terminal state (Completed or Failed)"});
    Findings f = ValidateUpdate(Build(terminal), Build(new_knobs), Elastic());
    REQUIRE(f.size() == 1);
    CHECK(f[0].rule == "update/elastic-terminal");
    // Unchanged: nothing to forbid.
    CHECK(Update(terminal, terminal, Elastic()).empty());
  }
  // Only the old object's conditions count, and only when True.
  Knobs suspended_condition;
  suspended_condition.status = "Suspended";
  CHECK(Update(suspended_condition, scaled, Elastic()).empty());
  Node old_js = Build({});
  old_js.Set("status", Parse("{conditions: [{type: Completed, status: 'False'}]}"));
  CHECK(ValidateUpdate(old_js, Build(scaled), Elastic()).empty());
  Knobs new_terminal = scaled;
  new_terminal.status = "Failed";
  CHECK(Update({}, new_terminal, Elastic()).empty());
}

TEST_CASE("update: ElasticJobSet skips NonIndexed and new replicated jobs") {
  Knobs old_knobs;
  old_knobs.leader_mode = "NonIndexed";
  Node old_js = Build(old_knobs), new_js = Build(old_knobs);
  Node& leader_spec =
      *new_js.Find("spec")->Find("replicatedJobs")->items[0].Find("template")->Find("spec");
  leader_spec.Set("parallelism", Node::Int(3));
  leader_spec.Set("completions", Node::Int(3));
  Strings got = Upstream(ValidateUpdate(old_js, new_js, Elastic()));
  REQUIRE(got.size() == 1);
  CHECK(got[0].rfind("spec.replicatedJobs: Invalid value: ", 0) == 0);
  // The new completionMode decides: switching to Indexed is itself a change.
  Knobs indexed;
  CHECK(Update(old_knobs, indexed, Elastic()).size() == 1);
  // A renamed job has no old twin: not checked by step 2, rejected by step 4.
  Node renamed = Build({});
  Node& workers = renamed.Find("spec")->Find("replicatedJobs")->items[1];
  workers.Set("name", Node::String("w2"));
  workers.Find("template")->Find("spec")->Set("parallelism", Node::Int(0));
  got = Upstream(ValidateUpdate(Build({}), renamed, Elastic()));
  REQUIRE(got.size() == 1);
  CHECK(got[0].rfind("spec.replicatedJobs: Invalid value: ", 0) == 0);
}

TEST_CASE("update: ElasticJobSet and the suspend window combine") {
  Knobs old_knobs;
  old_knobs.suspend = "true";
  Knobs new_knobs = old_knobs;
  new_knobs.parallelism = "6";
  new_knobs.completions = "6";
  new_knobs.labels = "labels: {app: c}";
  CHECK(Update(old_knobs, new_knobs, Elastic()).empty());
  CHECK(Update(old_knobs, new_knobs).size() == 1);
}

TEST_CASE("update: parallelism or completions removed or added under ElasticJobSet") {
  Node old_js = Build({}), new_js = Build({});
  Node& spec =
      *new_js.Find("spec")->Find("replicatedJobs")->items[1].Find("template")->Find("spec");
  spec.entries.erase(spec.entries.begin() + 1);  // parallelism
  REQUIRE(spec.Find("parallelism") == nullptr);
  // Changed (4 -> nil) but nothing to range-check, and with one side nil no equality check.
  CHECK(ValidateUpdate(old_js, new_js, Elastic()).empty());
  CHECK(ValidateUpdate(new_js, old_js, Elastic()).empty());
}

// --- ValidateUpdate: managedBy -----------------------------------------------------------------

TEST_CASE("update: managedBy is immutable, nil-aware") {
  Knobs kueue, other;
  kueue.managed = "kueue.x-k8s.io/multikueue";
  other.managed = "example.com/other";
  CHECK(Update(kueue, other) ==
        Strings{"spec.managedBy: Invalid value: \"example.com/other\": field is immutable"});
  CHECK(Update(kueue, {}) == Strings{"spec.managedBy: Invalid value: null: field is immutable"});
  CHECK(Update({}, kueue) ==
        Strings{"spec.managedBy: Invalid value: \"kueue.x-k8s.io/multikueue\": field is "
                "immutable"});
  CHECK(Update(kueue, kueue).empty());
  Findings f = ValidateUpdate(Build(kueue), Build(other), {});
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "update/managed-by-immutable");
  CHECK(f[0].field == "spec.managedBy");
}

TEST_CASE("update: webhook errors come together, in upstream order") {
  Knobs changed;
  changed.replicas = "5";
  changed.managed = "example.com/other";
  changed.parallelism = "8";
  Strings got = Update({}, changed, Elastic());
  REQUIRE(got.size() == 3);
  CHECK(got[0] ==
        "spec.replicatedJobs[1].template.spec.completions: Invalid value: 4: completions must be "
        "equal to parallelism for Elastic Indexed Jobs");
  CHECK(got[1].rfind("spec.replicatedJobs: Invalid value: [", 0) == 0);
  CHECK(got[2] == "spec.managedBy: Invalid value: \"example.com/other\": field is immutable");
}

TEST_CASE("update: LintUpdate adds the schema and the API server rules, then the webhook") {
  FeatureGates gates;
  const std::shared_ptr<const CompiledSchema> crd = BuiltinJobSetSchema();
  // A schema error and a CEL error come together; the webhook is not called.
  Knobs bad;
  bad.max_restarts = "4";
  bad.replicas = "-1";
  Findings f = LintUpdate(Build({}), Build(bad), gates, crd.get());
  bool schema = false, cel = false;
  for (const Finding& x : f) {
    if (x.field == "spec.replicatedJobs[1].replicas") schema = true;
    if (x.rule == "update/immutable") cel = true;
    CHECK(x.rule != "update/replicated-jobs-immutable");
  }
  CHECK(schema);
  CHECK(cel);
  // A clean update passes, and a webhook-only problem is reported by the webhook.
  CHECK(LintUpdate(Build({}), Build({}), gates, crd.get()).empty());
  Knobs replicas;
  replicas.replicas = "3";
  f = LintUpdate(Build({}), Build(replicas), gates, crd.get());
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule == "update/replicated-jobs-immutable");
  // Gates come from the caller.
  Knobs scaled;
  scaled.parallelism = "6";
  scaled.completions = "6";
  CHECK(LintUpdate(Build({}), Build(scaled), gates, crd.get()).size() == 1);
  gates.elastic_jobset = true;
  CHECK(LintUpdate(Build({}), Build(scaled), gates, crd.get()).empty());
  // The API server's own rules (CEL on the new object) apply on UPDATE too.
  Knobs in_order;
  Node new_js = Build(in_order), old_js = Build(in_order);
  new_js.Find("spec")->Set("startupPolicy", Parse("{startupPolicyOrder: InOrder}"));
  old_js.Find("spec")->Set("startupPolicy", Parse("{startupPolicyOrder: InOrder}"));
  f = LintUpdate(old_js, new_js, gates, crd.get());
  REQUIRE(f.size() == 1);
  CHECK(f[0].upstream ==
        "spec: Invalid value: \"object\": StartupPolicy and DependsOn APIs are mutually exclusive");
}

}  // namespace jobset
