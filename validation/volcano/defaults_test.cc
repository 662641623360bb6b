// Tests of Volcano Job defaulting: the CRD defaults (the CRD of volcano-sh/volcano@ed72c7c8) and
// the upstream mutating webhook's patch (mutate_job.go), op by op and in upstream's order.
#include "validation/volcano/defaults.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/core/field_path.h"
#include "validation/core/json_node.h"
#include "validation/core/loader.h"

namespace jobset {
namespace {

Node Parse(const std::string& yaml) {
  SourceFile file = ParseSource("test.yaml", yaml);
  REQUIRE(file.documents.size() == 1);
  REQUIRE(file.documents[0].parsed);
  return file.documents[0].root;
}

// "op path value" per line, so a failed CHECK shows the whole patch.
std::string Text(const std::vector<PatchOp>& patch) {
  std::string out;
  for (const PatchOp& op : patch)
    out += op.op + " " + op.path + " " + NodeToJsonText(op.value) + "\n";
  return out;
}

std::string Json(const Node* n) { return n ? NodeToJsonText(*n) : "<absent>"; }

constexpr char kHead[] = "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: j\n";

TEST_CASE("volcano defaults: CRD defaults fill absent fields only") {
  Node o = Parse(std::string(kHead) +
                 "spec:\n  networkTopology: {highestTierAllowed: 1}\n  tasks:\n  - name: w\n"
                 "    partitionPolicy: {totalPartitions: 1, partitionSize: 1,\n"
                 "      networkTopology: {}}\n");
  std::vector<PatchOp> patch;
  ApplyVolcanoCrdDefaults(&o, &patch);
  CHECK(Text(patch) ==
        "add /spec/maxRetry 3\n"
        "add /spec/networkTopology/mode \"hard\"\n"
        "add /spec/queue \"default\"\n"
        "add /spec/tasks/0/partitionPolicy/minPartitions 0\n"
        "add /spec/tasks/0/partitionPolicy/networkTopology/mode \"hard\"\n");
  // Explicit values, zero included, survive (the webhook is what rewrites a 0).
  Node kept = Parse(std::string(kHead) + "spec:\n  maxRetry: 0\n  queue: q\n");
  patch.clear();
  ApplyVolcanoCrdDefaults(&kept, &patch);
  CHECK(patch.empty());
  CHECK(Json(FindPath(kept, "spec.maxRetry")) == "0");
}

TEST_CASE("volcano defaults: the webhook's patch, in upstream order") {
  Node o = Parse(std::string(kHead) +
                 "spec:\n  maxRetry: 0\n  minAvailable: 0\n  plugins:\n    mpi: []\n  tasks:\n"
                 "  - replicas: 2\n    template:\n      spec:\n        hostNetwork: true\n"
                 "        containers: [{name: c, image: i}]\n"
                 "  - name: w\n    replicas: 8\n    maxRetry: 5\n"
                 "    partitionPolicy: {totalPartitions: 2, partitionSize: 4, minPartitions: 1}\n"
                 "  - name: x\n    replicas: 3\n    minAvailable: 1\n");
  std::vector<PatchOp> patch;
  ApplyVolcanoWebhookDefaults(&o, "kube-batch", &patch);
  REQUIRE(patch.size() == 6);
  CHECK(Text({patch[0], patch[1], patch[2]}) ==
        "add /spec/queue \"default\"\nadd /spec/schedulerName \"kube-batch\"\n"
        "add /spec/maxRetry 3\n");
  CHECK(patch[3].op == "replace");
  CHECK(patch[3].path == "/spec/tasks");
  // Task 0: name default0, dnsPolicy for hostNetwork, minAvailable = replicas, maxRetry 3.
  CHECK(Json(FindPath(o, "spec.tasks[0].name")) == "\"default0\"");
  CHECK(Json(FindPath(o, "spec.tasks[0].template.spec.dnsPolicy")) ==
        "\"ClusterFirstWithHostNet\"");
  CHECK(Json(FindPath(o, "spec.tasks[0].minAvailable")) == "2");
  CHECK(Json(FindPath(o, "spec.tasks[0].maxRetry")) == "3");
  // Task 1: minPartitions*partitionSize; its own maxRetry kept.
  CHECK(Json(FindPath(o, "spec.tasks[1].minAvailable")) == "4");
  CHECK(Json(FindPath(o, "spec.tasks[1].maxRetry")) == "5");
  CHECK(Json(FindPath(o, "spec.tasks[2].minAvailable")) == "1");
  CHECK(patch[3].value == *FindPath(o, "spec.tasks"));
  // Job minAvailable: the sum of the (defaulted) task values; an explicit 0 counts as unset.
  CHECK(Text({patch[4]}) == "add /spec/minAvailable 7\n");
  // Plugins: svc and ssh for mpi.
  CHECK(patch[5].op == "replace");
  CHECK(patch[5].path == "/spec/plugins");
  CHECK(NodeToJsonText(patch[5].value) == R"({"mpi":[],"svc":[],"ssh":[]})");
}

TEST_CASE("volcano defaults: minPartitions 0 or absent defaults task minAvailable to replicas") {
  // v1.16 (issue #5401): v1.14/v1.15 gave minPartitions*partitionSize = 0 here.
  Node o = Parse(std::string(kHead) +
                 "spec:\n  tasks:\n  - name: w\n    replicas: 8\n"
                 "    partitionPolicy: {totalPartitions: 2, partitionSize: 4}\n");
  std::vector<PatchOp> patch;
  ApplyVolcanoCrdDefaults(&o, &patch);
  ApplyVolcanoWebhookDefaults(&o, kVolcanoDefaultScheduler, &patch);
  CHECK(Json(FindPath(o, "spec.tasks[0].minAvailable")) == "8");
  CHECK(Json(FindPath(o, "spec.minAvailable")) == "8");
  CHECK(Json(FindPath(o, "spec.schedulerName")) == "\"volcano\"");
}

TEST_CASE("volcano defaults: a complete job gets no tasks op; plugins are replaced anyway") {
  Node o = Parse(std::string(kHead) +
                 "spec:\n  queue: q\n  schedulerName: s\n  maxRetry: 2\n  minAvailable: 1\n"
                 "  plugins:\n    svc: []\n    pytorch: [\"--port=1\"]\n"
                 "  tasks:\n  - name: w\n    replicas: 1\n    minAvailable: 1\n    maxRetry: 1\n");
  Node before = o;
  std::vector<PatchOp> patch;
  ApplyVolcanoWebhookDefaults(&o, kVolcanoDefaultScheduler, &patch);
  REQUIRE(patch.size() == 1);
  CHECK(Text(patch) == "replace /spec/plugins {\"svc\":[],\"pytorch\":[\"--port=1\"]}\n");
  CHECK(o == before);
  // ray wants svc (the optional MutatingAdmissionPolicy forgets it; the webhook does not).
  Node ray = Parse(std::string(kHead) + "spec:\n  plugins:\n    ray: []\n  tasks: []\n");
  patch.clear();
  ApplyVolcanoWebhookDefaults(&ray, kVolcanoDefaultScheduler, &patch);
  CHECK(Json(FindPath(ray, "spec.plugins")) == R"({"ray":[],"svc":[]})");
  // No tasks to change: no tasks op, and minAvailable is the empty sum.
  CHECK(Json(FindPath(ray, "spec.minAvailable")) == "0");
  for (const PatchOp& op : patch) CHECK(op.path != "/spec/tasks");
}

TEST_CASE("volcano defaults: no spec, nothing to patch") {
  Node o = Parse(std::string(kHead));
  std::vector<PatchOp> patch;
  ApplyVolcanoCrdDefaults(&o, &patch);
  ApplyVolcanoWebhookDefaults(&o, kVolcanoDefaultScheduler, &patch);
  CHECK(patch.empty());
}

}  // namespace
}  // namespace jobset
