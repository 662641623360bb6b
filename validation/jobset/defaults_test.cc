// Tests of defaulting: the CRD structural defaults (the CRD of kubernetes-sigs/jobset@08dfbdfd) and
// the upstream mutating webhook's defaults (pkg/webhooks/jobset_webhook.go, Default), with the JSON
// patch each records.
#include "validation/jobset/defaults.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/core/field_path.h"
#include "validation/core/loader.h"

namespace jobset {
namespace {

struct Defaulted {
  Node object;
  std::vector<PatchOp> patch;
};

Node Parse(const std::string& yaml) {
  SourceFile file = ParseSource("test.yaml", yaml);
  REQUIRE(file.documents.size() == 1);
  REQUIRE(file.documents[0].parsed);
  return file.documents[0].root;
}

// A value written in YAML flow style, e.g. "{operator: All}".
Node Value(const std::string& flow) {
  Node root = Parse("v: " + flow + "\n");
  return *root.Find("v");
}

Defaulted Crd(const std::string& yaml) {
  Defaulted d{Parse(yaml), {}};
  ApplyCrdDefaults(&d.object, &d.patch);
  return d;
}

Defaulted Webhook(const std::string& yaml) {
  Defaulted d{Parse(yaml), {}};
  ApplyWebhookDefaults(&d.object, &d.patch);
  return d;
}

// The patch paths, one per line, so a failed CHECK shows the whole patch.
std::string Paths(const std::vector<PatchOp>& patch) {
  std::string out;
  for (const PatchOp& op : patch) out += op.path + "\n";
  return out;
}

const PatchOp* FindOp(const std::vector<PatchOp>& patch, std::string_view path) {
  for (const PatchOp& op : patch) {
    if (op.path == path) return &op;
  }
  return nullptr;
}

// `path` in the tree equals `expected`, and the patch adds exactly that value at `pointer`.
void CheckDefault(const Defaulted& d, std::string_view path, std::string_view pointer,
                  const Node& expected) {
  CAPTURE(path);
  const Node* n = FindPath(d.object, path);
  REQUIRE(n != nullptr);
  CHECK(*n == expected);
  CHECK_FALSE(n->mark.known());  // a defaulted value comes from no file position
  const PatchOp* op = FindOp(d.patch, pointer);
  REQUIRE(op != nullptr);
  CHECK(op->value == expected);
}

// `path` in the tree still holds what the file said, and no patch op touches `pointer`.
void CheckKept(const Defaulted& d, std::string_view path, std::string_view pointer,
               const Node& expected) {
  CAPTURE(path);
  const Node* n = FindPath(d.object, path);
  REQUIRE(n != nullptr);
  CHECK(*n == expected);
  CHECK(n->mark.known());
  CHECK(FindOp(d.patch, pointer) == nullptr);
}

constexpr char kMinimal[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: workers
    template:
      spec:
        template:
          spec:
            containers: [{name: main, image: busybox}]
)";

// --- CRD defaults -------------------------------------------------------------------------

TEST_CASE("defaults: CRD sets groupName default and replicas 1 on every replicated job") {
  Defaulted d = Crd(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: leader
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  - name: workers
    groupName: pool-b
    replicas: 4
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)");
  CheckDefault(d, "spec.replicatedJobs[0].groupName", "/spec/replicatedJobs/0/groupName",
               Node::String("default"));
  CheckDefault(d, "spec.replicatedJobs[0].replicas", "/spec/replicatedJobs/0/replicas",
               Node::Int(1));
  CheckKept(d, "spec.replicatedJobs[1].groupName", "/spec/replicatedJobs/1/groupName",
            Node::String("pool-b"));
  CheckKept(d, "spec.replicatedJobs[1].replicas", "/spec/replicatedJobs/1/replicas", Node::Int(4));
  CHECK(Paths(d.patch) ==
        "/spec/replicatedJobs/0/groupName\n"
        "/spec/replicatedJobs/0/replicas\n");
}

TEST_CASE("defaults: CRD keeps replicas 0 and an explicit empty groupName") {
  Defaulted d = Crd(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: workers
    groupName: ""
    replicas: 0
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
)");
  CheckKept(d, "spec.replicatedJobs[0].groupName", "/spec/replicatedJobs/0/groupName",
            Node::String(""));
  CheckKept(d, "spec.replicatedJobs[0].replicas", "/spec/replicatedJobs/0/replicas", Node::Int(0));
  CHECK(d.patch.empty());
}

TEST_CASE("defaults: CRD sets restartStrategy Recreate only when failurePolicy is present") {
  Defaulted with = Crd(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    maxRestarts: 3
  replicatedJobs: []
)");
  CheckDefault(with, "spec.failurePolicy.restartStrategy", "/spec/failurePolicy/restartStrategy",
               Node::String("Recreate"));
  CHECK(Paths(with.patch) == "/spec/failurePolicy/restartStrategy\n");

  Defaulted explicit_strategy = Crd(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    restartStrategy: BlockingRecreate
)");
  CheckKept(explicit_strategy, "spec.failurePolicy.restartStrategy",
            "/spec/failurePolicy/restartStrategy", Node::String("BlockingRecreate"));
  CHECK(explicit_strategy.patch.empty());

  Defaulted without = Crd(kMinimal);
  CHECK(FindPath(without.object, "spec.failurePolicy") == nullptr);
  CHECK(FindOp(without.patch, "/spec/failurePolicy/restartStrategy") == nullptr);
  CHECK(FindOp(without.patch, "/spec/failurePolicy") == nullptr);
}

TEST_CASE("defaults: CRD sets whenDeleted Delete only inside an existing retentionPolicy") {
  Defaulted d = Crd(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  volumeClaimPolicies:
  - templates: [{metadata: {name: data}}]
    retentionPolicy: {}
  - templates: [{metadata: {name: scratch}}]
  - templates: [{metadata: {name: logs}}]
    retentionPolicy: {whenDeleted: Retain}
)");
  CheckDefault(d, "spec.volumeClaimPolicies[0].retentionPolicy.whenDeleted",
               "/spec/volumeClaimPolicies/0/retentionPolicy/whenDeleted", Node::String("Delete"));
  CHECK(FindPath(d.object, "spec.volumeClaimPolicies[1].retentionPolicy") == nullptr);
  CheckKept(d, "spec.volumeClaimPolicies[2].retentionPolicy.whenDeleted",
            "/spec/volumeClaimPolicies/2/retentionPolicy/whenDeleted", Node::String("Retain"));
  CHECK(Paths(d.patch) == "/spec/volumeClaimPolicies/0/retentionPolicy/whenDeleted\n");
}

TEST_CASE("defaults: CRD defaults do nothing without a spec") {
  Defaulted d = Crd("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: x}\n");
  CHECK(d.patch.empty());
  CHECK(FindPath(d.object, "spec") == nullptr);
}

// --- Webhook defaults (Default) ------------------------------------------------------------

TEST_CASE("defaults: the webhook's defaults on a minimal JobSet, in the webhook's order") {
  Defaulted d = Webhook(kMinimal);
  CheckDefault(d, "spec.successPolicy", "/spec/successPolicy", Value("{operator: All}"));
  CheckDefault(d, "spec.startupPolicy", "/spec/startupPolicy",
               Value("{startupPolicyOrder: AnyOrder}"));
  CheckDefault(d, "spec.replicatedJobs[0].template.spec.completionMode",
               "/spec/replicatedJobs/0/template/spec/completionMode", Node::String("Indexed"));
  CheckDefault(d, "spec.replicatedJobs[0].template.spec.template.spec.restartPolicy",
               "/spec/replicatedJobs/0/template/spec/template/spec/restartPolicy",
               Node::String("OnFailure"));
  // An empty network object is added, then enableDNSHostnames and publishNotReadyAddresses
  // fill it in.
  const PatchOp* network = FindOp(d.patch, "/spec/network");
  REQUIRE(network != nullptr);
  CHECK(network->value == Node::Map());
  CHECK(*FindPath(d.object, "spec.network") ==
        Value("{enableDNSHostnames: true, publishNotReadyAddresses: true}"));
  CheckDefault(d, "spec.network.enableDNSHostnames", "/spec/network/enableDNSHostnames",
               Node::Bool(true));
  CheckDefault(d, "spec.network.publishNotReadyAddresses", "/spec/network/publishNotReadyAddresses",
               Node::Bool(true));
  CHECK(Paths(d.patch) ==
        "/spec/successPolicy\n"
        "/spec/startupPolicy\n"
        "/spec/replicatedJobs/0/template/spec/completionMode\n"
        "/spec/replicatedJobs/0/template/spec/template/spec/restartPolicy\n"
        "/spec/network\n"
        "/spec/network/enableDNSHostnames\n"
        "/spec/network/publishNotReadyAddresses\n");
  // The webhook does not create what upstream's Default leaves alone.
  for (const char* absent :
       {"spec.failurePolicy", "spec.managedBy", "spec.suspend", "spec.coordinator",
        "spec.ttlSecondsAfterFinished", "spec.network.subdomain", "spec.replicatedJobs[0].replicas",
        "spec.replicatedJobs[0].template.spec.parallelism",
        "spec.replicatedJobs[0].template.spec.completions",
        "spec.replicatedJobs[0].template.spec.backoffLimit"}) {
    CAPTURE(absent);
    CHECK(FindPath(d.object, absent) == nullptr);
  }
}

TEST_CASE("defaults: successPolicy, startupPolicy replace an explicit null, keep explicit ones") {
  Defaulted nulls = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  successPolicy: null
  startupPolicy: ~
  network: {}
)");
  CHECK(*FindPath(nulls.object, "spec.successPolicy") == Value("{operator: All}"));
  CHECK(*FindPath(nulls.object, "spec.startupPolicy") == Value("{startupPolicyOrder: AnyOrder}"));
  CHECK(FindOp(nulls.patch, "/spec/successPolicy") != nullptr);
  CHECK(FindOp(nulls.patch, "/spec/startupPolicy") != nullptr);

  Defaulted kept = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  successPolicy:
    operator: Any
    targetReplicatedJobs: [leader]
  startupPolicy:
    startupPolicyOrder: InOrder
  network: {enableDNSHostnames: true, publishNotReadyAddresses: true}
)");
  CheckKept(kept, "spec.successPolicy", "/spec/successPolicy",
            Value("{operator: Any, targetReplicatedJobs: [leader]}"));
  CheckKept(kept, "spec.startupPolicy", "/spec/startupPolicy",
            Value("{startupPolicyOrder: InOrder}"));
  CHECK(kept.patch.empty());
}

TEST_CASE("defaults: completionMode and restartPolicy never overwrite NonIndexed or Always") {
  Defaulted d = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: driver
    template:
      spec:
        completionMode: NonIndexed
        template:
          spec:
            restartPolicy: Always
            containers: [{name: main, image: busybox}]
  - name: workers
    template:
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: main, image: busybox}]
)");
  CheckKept(d, "spec.replicatedJobs[0].template.spec.completionMode",
            "/spec/replicatedJobs/0/template/spec/completionMode", Node::String("NonIndexed"));
  CheckKept(d, "spec.replicatedJobs[0].template.spec.template.spec.restartPolicy",
            "/spec/replicatedJobs/0/template/spec/template/spec/restartPolicy",
            Node::String("Always"));
  CheckDefault(d, "spec.replicatedJobs[1].template.spec.completionMode",
               "/spec/replicatedJobs/1/template/spec/completionMode", Node::String("Indexed"));
  CheckKept(d, "spec.replicatedJobs[1].template.spec.template.spec.restartPolicy",
            "/spec/replicatedJobs/1/template/spec/template/spec/restartPolicy",
            Node::String("Never"));
}

TEST_CASE("defaults: replaces an empty restartPolicy") {
  Defaulted d = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: workers
    template:
      spec:
        template:
          spec:
            restartPolicy: ""
            containers: [{name: main, image: busybox}]
)");
  CheckDefault(d, "spec.replicatedJobs[0].template.spec.template.spec.restartPolicy",
               "/spec/replicatedJobs/0/template/spec/template/spec/restartPolicy",
               Node::String("OnFailure"));
}

TEST_CASE("defaults: network keeps enableDNSHostnames false and fills in only what is missing") {
  Defaulted d = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  network:
    enableDNSHostnames: false
    subdomain: training
)");
  CHECK(FindOp(d.patch, "/spec/network") == nullptr);
  CheckKept(d, "spec.network.enableDNSHostnames", "/spec/network/enableDNSHostnames",
            Node::Bool(false));
  CheckDefault(d, "spec.network.publishNotReadyAddresses", "/spec/network/publishNotReadyAddresses",
               Node::Bool(true));
  CheckKept(d, "spec.network.subdomain", "/spec/network/subdomain", Node::String("training"));

  Defaulted both = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  network:
    enableDNSHostnames: true
    publishNotReadyAddresses: false
)");
  CheckKept(both, "spec.network.publishNotReadyAddresses", "/spec/network/publishNotReadyAddresses",
            Node::Bool(false));
  CHECK(FindOp(both.patch, "/spec/network/enableDNSHostnames") == nullptr);
}

TEST_CASE("defaults: names unnamed failure policy rules failurePolicyRule<i> by their index") {
  Defaulted d = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    maxRestarts: 3
    rules:
    - action: FailJobSet
      onJobFailureReasons: [PodFailurePolicy]
    - name: keep_me
      action: RestartJobSet
    - name: ""
      action: RestartJobSetAndIgnoreMaxRestarts
    - action: FailJobSet
)");
  CheckDefault(d, "spec.failurePolicy.rules[0].name", "/spec/failurePolicy/rules/0/name",
               Node::String("failurePolicyRule0"));
  CheckKept(d, "spec.failurePolicy.rules[1].name", "/spec/failurePolicy/rules/1/name",
            Node::String("keep_me"));
  CheckDefault(d, "spec.failurePolicy.rules[2].name", "/spec/failurePolicy/rules/2/name",
               Node::String("failurePolicyRule2"));
  CheckDefault(d, "spec.failurePolicy.rules[3].name", "/spec/failurePolicy/rules/3/name",
               Node::String("failurePolicyRule3"));
  // The webhook does not default the failure policy's own fields.
  CHECK(FindPath(d.object, "spec.failurePolicy.restartStrategy") == nullptr);
}

TEST_CASE("defaults: keeps an explicit rule name that a later default rule name collides with") {
  Defaulted d = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy:
    rules:
    - name: failurePolicyRule1
      action: FailJobSet
    - action: RestartJobSet
)");
  CheckKept(d, "spec.failurePolicy.rules[0].name", "/spec/failurePolicy/rules/0/name",
            Node::String("failurePolicyRule1"));
  CheckDefault(d, "spec.failurePolicy.rules[1].name", "/spec/failurePolicy/rules/1/name",
               Node::String("failurePolicyRule1"));
}

TEST_CASE("defaults: no failurePolicy means no rule naming and no failurePolicy created") {
  Defaulted d = Webhook(kMinimal);
  CHECK(FindPath(d.object, "spec.failurePolicy") == nullptr);
  for (const PatchOp& op : d.patch) {
    CAPTURE(op.path);
    CHECK(op.path.rfind("/spec/failurePolicy", 0) == std::string::npos);
  }
  // An empty failurePolicy stays empty: there are no rules to name.
  Defaulted empty = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  failurePolicy: {}
)");
  CHECK(*FindPath(empty.object, "spec.failurePolicy") == Node::Map());
  CHECK(FindOp(empty.patch, "/spec/failurePolicy") == nullptr);
}

TEST_CASE("defaults: adds retentionPolicy {whenDeleted: Delete} where it is missing") {
  Defaulted d = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  volumeClaimPolicies:
  - templates: [{metadata: {name: data}}]
  - templates: [{metadata: {name: logs}}]
    retentionPolicy:
      whenDeleted: Retain
)");
  CheckDefault(d, "spec.volumeClaimPolicies[0].retentionPolicy",
               "/spec/volumeClaimPolicies/0/retentionPolicy", Value("{whenDeleted: Delete}"));
  CheckKept(d, "spec.volumeClaimPolicies[1].retentionPolicy",
            "/spec/volumeClaimPolicies/1/retentionPolicy", Value("{whenDeleted: Retain}"));
  CHECK(FindOp(d.patch, "/spec/volumeClaimPolicies/1/retentionPolicy/whenDeleted") == nullptr);
}

TEST_CASE("defaults: the full order: policies, each job, network, rule names, retention") {
  Defaulted d = Webhook(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: leader
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  - name: workers
    template: {spec: {template: {spec: {containers: [{name: main, image: busybox}]}}}}
  failurePolicy:
    rules:
    - action: FailJobSet
  volumeClaimPolicies:
  - templates: [{metadata: {name: data}}]
)");
  CHECK(Paths(d.patch) ==
        "/spec/successPolicy\n"
        "/spec/startupPolicy\n"
        "/spec/replicatedJobs/0/template/spec/completionMode\n"
        "/spec/replicatedJobs/0/template/spec/template/spec/restartPolicy\n"
        "/spec/replicatedJobs/1/template/spec/completionMode\n"
        "/spec/replicatedJobs/1/template/spec/template/spec/restartPolicy\n"
        "/spec/network\n"
        "/spec/network/enableDNSHostnames\n"
        "/spec/network/publishNotReadyAddresses\n"
        "/spec/failurePolicy/rules/0/name\n"
        "/spec/volumeClaimPolicies/0/retentionPolicy\n");
}

TEST_CASE("defaults: CRD then webhook defaults together, as kube-apiserver applies them") {
  Defaulted d{Parse(kMinimal), {}};
  ApplyCrdDefaults(&d.object, &d.patch);
  ApplyWebhookDefaults(&d.object, &d.patch);
  CHECK(Paths(d.patch) ==
        "/spec/replicatedJobs/0/groupName\n"
        "/spec/replicatedJobs/0/replicas\n"
        "/spec/successPolicy\n"
        "/spec/startupPolicy\n"
        "/spec/replicatedJobs/0/template/spec/completionMode\n"
        "/spec/replicatedJobs/0/template/spec/template/spec/restartPolicy\n"
        "/spec/network\n"
        "/spec/network/enableDNSHostnames\n"
        "/spec/network/publishNotReadyAddresses\n");
  // Defaulting twice changes nothing more.
  std::vector<PatchOp> again;
  ApplyCrdDefaults(&d.object, &again);
  ApplyWebhookDefaults(&d.object, &again);
  CHECK(Paths(again) == "");
}

TEST_CASE("defaults: PointerSegment escapes ~ and /") {
  CHECK(PointerSegment("plain") == "plain");
  CHECK(PointerSegment("a/b") == "a~1b");
  CHECK(PointerSegment("a~b") == "a~0b");
  CHECK(PointerSegment("~/") == "~0~1");
  CHECK(PointerSegment("") == "");
}

}  // namespace
}  // namespace jobset
