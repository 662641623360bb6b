#include "validation/jobset/children.h"

#include <doctest/doctest.h>

#include <string>

#include "tests/children_test_util.h"
#include "validation/core/sha1.h"

namespace jobset {

namespace {

const char kJobSet[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: pytorch
  namespace: ml
spec:
  replicatedJobs:
  - name: driver
    template:
      spec:
        template:
          spec:
            containers: [{name: main, image: busybox}]
  - name: workers
    replicas: 3
    template:
      metadata:
        labels: {team: vision}
      spec:
        parallelism: 2
        completions: 2
        template:
          metadata:
            labels: {app: trainer}
          spec:
            containers: [{name: main, image: busybox}]
)";

}  // namespace

TEST_CASE("jobset children: the headless Service, then one Job per replica, named as upstream") {
  ChildObjects c = RenderJobSetChildren(ParseOne(kJobSet), {});
  REQUIRE(c.error.empty());
  REQUIRE(c.objects.size() == 5);
  const Node& svc = c.objects[0];
  CHECK(Text(svc, {"kind"}) == "Service");
  CHECK(Text(svc, {"metadata", "name"}) == "pytorch");
  CHECK(Text(svc, {"metadata", "namespace"}) == "ml");
  CHECK(Text(svc, {"spec", "clusterIP"}) == "None");
  CHECK(Text(svc, {"spec", "selector", "jobset.sigs.k8s.io/jobset-name"}) == "pytorch");
  CHECK(At(svc, {"spec", "publishNotReadyAddresses"})->boolean);
  const char* names[] = {"pytorch-driver-0", "pytorch-workers-0", "pytorch-workers-1",
                         "pytorch-workers-2"};
  for (int i = 0; i < 4; ++i) {
    CHECK(Text(c.objects[i + 1], {"kind"}) == "Job");
    CHECK(Text(c.objects[i + 1], {"apiVersion"}) == "batch/v1");
    CHECK(Text(c.objects[i + 1], {"metadata", "name"}) == names[i]);
  }
}

TEST_CASE("jobset children: the controller's labels and annotations on the Job and its pods") {
  ChildObjects c = RenderJobSetChildren(ParseOne(kJobSet), {});
  REQUIRE(c.objects.size() == 5);
  const Node& job = c.objects[3];  // pytorch-workers-1
  for (const char* where : {"job", "pod"}) {
    CAPTURE(where);
    const Node* meta = std::string(where) == "job" ? At(job, {"metadata"})
                                                   : At(job, {"spec", "template", "metadata"});
    REQUIRE(meta != nullptr);
    for (const char* list : {"labels", "annotations"}) {
      CAPTURE(list);
      const Node& m = *meta->Find(list);
      CHECK(m.StringOr("jobset.sigs.k8s.io/jobset-name") == "pytorch");
      CHECK(m.StringOr("jobset.sigs.k8s.io/jobset-uid") == kPlaceholderUid);
      CHECK(m.StringOr("jobset.sigs.k8s.io/replicatedjob-name") == "workers");
      CHECK(m.StringOr("jobset.sigs.k8s.io/restart-attempt") == "0");
      CHECK(m.StringOr("jobset.sigs.k8s.io/replicatedjob-replicas") == "3");
      CHECK(m.StringOr("jobset.sigs.k8s.io/global-replicas") == "4");
      CHECK(m.StringOr("jobset.sigs.k8s.io/job-index") == "1");
      CHECK(m.StringOr("jobset.sigs.k8s.io/job-global-index") == "2");
      CHECK(m.StringOr("jobset.sigs.k8s.io/group-name") == "default");
      CHECK(m.StringOr("jobset.sigs.k8s.io/group-replicas") == "4");
      CHECK(m.StringOr("jobset.sigs.k8s.io/job-group-index") == "2");
      CHECK(m.StringOr("jobset.sigs.k8s.io/job-key") == Sha1Hex("ml/pytorch-workers-1"));
      CHECK(m.Find("jobset.sigs.k8s.io/coordinator") == nullptr);
      CHECK(m.Find("jobset.sigs.k8s.io/job-restart-attempt") == nullptr);
    }
  }
  // The template's own labels stay, first.
  CHECK(At(job, {"metadata", "labels"})->entries[0].key == "team");
  CHECK(At(job, {"spec", "template", "metadata", "labels"})->entries[0].key == "app");
  // The webhook's defaults, the JobSpec verbatim, hostnames, suspend, owner.
  CHECK(Text(job, {"spec", "completionMode"}) == "Indexed");
  CHECK(At(job, {"spec", "parallelism"})->integer == 2);
  CHECK(Text(job, {"spec", "template", "spec", "restartPolicy"}) == "OnFailure");
  CHECK(Text(job, {"spec", "template", "spec", "subdomain"}) == "pytorch");
  CHECK(At(job, {"spec", "suspend"})->is_bool());
  CHECK_FALSE(At(job, {"spec", "suspend"})->boolean);
  const Node* owners = At(job, {"metadata", "ownerReferences"});
  REQUIRE((owners && owners->items.size() == 1));
  CHECK(owners->items[0].StringOr("kind") == "JobSet");
  CHECK(owners->items[0].StringOr("name") == "pytorch");
  CHECK(owners->items[0].Find("controller")->boolean);
}

TEST_CASE("jobset children: --restarts N, suspend, the coordinator, the network subdomain") {
  std::string text = kJobSet;
  text.replace(text.find("spec:\n  replicatedJobs"), 5,
               "spec:\n  suspend: true\n  network: {subdomain: net}\n"
               "  coordinator: {replicatedJob: driver}\n ");
  ChildObjects c = RenderJobSetChildren(ParseOne(text), {"", 2});
  REQUIRE(c.error.empty());
  REQUIRE(c.objects.size() == 5);
  CHECK(Text(c.objects[0], {"metadata", "name"}) == "net");
  const Node& job = c.objects[1];
  CHECK(Text(job, {"metadata", "labels", "jobset.sigs.k8s.io/restart-attempt"}) == "2");
  CHECK(Text(job, {"spec", "template", "metadata", "annotations",
                   "jobset.sigs.k8s.io/restart-attempt"}) == "2");
  CHECK(At(job, {"spec", "suspend"})->boolean);
  CHECK(Text(job, {"spec", "template", "spec", "subdomain"}) == "net");
  CHECK(Text(job, {"metadata", "labels", "jobset.sigs.k8s.io/coordinator"}) ==
        "pytorch-driver-0-0.net");
}

TEST_CASE("jobset children: exclusive placement by nodeSelector adds the selector and toleration") {
  std::string text = kJobSet;
  text.replace(text.find("  namespace: ml\n"), 15,
               "  namespace: ml\n  annotations:\n"
               "    alpha.jobset.sigs.k8s.io/exclusive-topology: cloud.google.com/gke-nodepool\n"
               "    alpha.jobset.sigs.k8s.io/node-selector: \"true\"\n");
  ChildObjects c = RenderJobSetChildren(ParseOne(text), {});
  REQUIRE(c.objects.size() == 5);
  const Node& job = c.objects[2];  // pytorch-workers-0
  CHECK(Text(job, {"metadata", "annotations", "alpha.jobset.sigs.k8s.io/exclusive-topology"}) ==
        "cloud.google.com/gke-nodepool");
  CHECK(At(job, {"metadata", "labels", "alpha.jobset.sigs.k8s.io/exclusive-topology"}) == nullptr);
  CHECK(Text(job, {"spec", "template", "spec", "nodeSelector",
                   "alpha.jobset.sigs.k8s.io/namespaced-job"}) == "ml_pytorch-workers-0");
  const Node* tolerations = At(job, {"spec", "template", "spec", "tolerations"});
  REQUIRE((tolerations && tolerations->items.size() == 1));
  CHECK(tolerations->items[0].StringOr("key") == "alpha.jobset.sigs.k8s.io/no-schedule");
  CHECK(tolerations->items[0].StringOr("operator") == "Exists");
  CHECK(tolerations->items[0].StringOr("effect") == "NoSchedule");

  // The topology alone (the affinity strategy): no nodeSelector, no toleration.
  std::string affinity = kJobSet;
  affinity.replace(affinity.find("  namespace: ml\n"), 15,
                   "  namespace: ml\n  annotations:\n"
                   "    alpha.jobset.sigs.k8s.io/exclusive-topology: zone\n");
  ChildObjects a = RenderJobSetChildren(ParseOne(affinity), {});
  CHECK(At(a.objects[2], {"spec", "template", "spec", "nodeSelector"}) == nullptr);
  CHECK(At(a.objects[2], {"spec", "template", "spec", "tolerations"}) == nullptr);
}

TEST_CASE("jobset children: volume claim policies give PVCs and the volumes mounted") {
  Node js = ParseOne(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: ckpt}
spec:
  volumeClaimPolicies:
  - templates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
    - metadata: {name: unused}
      spec: {accessModes: [ReadWriteOnce]}
  replicatedJobs:
  - name: w
    template:
      spec:
        template:
          spec:
            containers:
            - name: main
              volumeMounts: [{name: data, mountPath: /data}]
)");
  ChildObjects c = RenderJobSetChildren(js, {});
  REQUIRE(c.objects.size() == 4);  // Service, two PVCs, one Job
  CHECK(Text(c.objects[1], {"kind"}) == "PersistentVolumeClaim");
  CHECK(Text(c.objects[1], {"metadata", "name"}) == "data-ckpt");
  CHECK(Text(c.objects[1], {"metadata", "labels", "jobset.sigs.k8s.io/jobset-name"}) == "ckpt");
  CHECK(At(c.objects[1], {"metadata", "ownerReferences"}) != nullptr);  // whenDeleted: Delete
  CHECK(Text(c.objects[2], {"metadata", "name"}) == "unused-ckpt");
  const Node* volumes = At(c.objects[3], {"spec", "template", "spec", "volumes"});
  REQUIRE((volumes && volumes->items.size() == 1));
  CHECK(volumes->items[0].StringOr("name") == "data");
  CHECK(Text(volumes->items[0], {"persistentVolumeClaim", "claimName"}) == "data-ckpt");
  // No namespace: none on the children, "default" in the job key.
  CHECK(At(c.objects[3], {"metadata", "namespace"}) == nullptr);
  CHECK(Text(c.objects[3], {"metadata", "labels", "jobset.sigs.k8s.io/job-key"}) ==
        Sha1Hex("default/ckpt-w-0"));
}

TEST_CASE("jobset children: one replicated job, DNS hostnames off, managedBy, bad input") {
  ChildObjects only = RenderJobSetChildren(ParseOne(kJobSet), {"workers", 0});
  REQUIRE(only.objects.size() == 3);
  CHECK(Text(only.objects[0], {"metadata", "name"}) == "pytorch-workers-0");

  ChildObjects missing = RenderJobSetChildren(ParseOne(kJobSet), {"worker", 0});
  CHECK(missing.objects.empty());
  CHECK(missing.error ==
        "JobSet pytorch has no replicated job \"worker\" (it has driver, workers)");

  std::string off = kJobSet;
  off.replace(off.find("spec:\n  replicatedJobs"), 5,
              "spec:\n  network: {enableDNSHostnames: false}\n ");
  ChildObjects no_dns = RenderJobSetChildren(ParseOne(off), {});
  REQUIRE(no_dns.objects.size() == 4);
  CHECK(Text(no_dns.objects[0], {"kind"}) == "Job");
  CHECK(At(no_dns.objects[0], {"spec", "template", "spec", "subdomain"}) == nullptr);

  std::string managed = kJobSet;
  managed.replace(managed.find("spec:\n  replicatedJobs"), 5,
                  "spec:\n  managedBy: kueue.x-k8s.io/multikueue\n ");
  ChildObjects other = RenderJobSetChildren(ParseOne(managed), {});
  CHECK(other.objects.empty());
  CHECK(other.error.empty());
  CHECK(other.note.find("kueue.x-k8s.io/multikueue") != std::string::npos);

  CHECK_FALSE(
      RenderJobSetChildren(ParseOne("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\n"), {})
          .error.empty());
  ChildObjects no_spec = RenderJobSetChildren(ParseOne("kind: JobSet\nmetadata: {name: a}\n"), {});
  CHECK(no_spec.error.empty());
  CHECK(no_spec.objects.empty());
  CHECK(no_spec.note == "JobSet a has no spec: no children");
  CHECK_FALSE(RenderJobSetChildren(ParseOne("[1, 2]"), {}).error.empty());
  // Every field of the wrong type: rendered without a crash.
  ChildObjects odd = RenderJobSetChildren(
      ParseOne("kind: JobSet\nmetadata: {name: x, annotations: 3}\nspec:\n  network: 1\n"
               "  replicatedJobs: [7, {name: a, replicas: \"2\", template: {metadata: 1, spec: "
               "{template: {metadata: {labels: []}, spec: []}}}}]\n"),
      {});
  CHECK(odd.error.empty());
}

TEST_CASE("jobset children: a huge replica count is refused, not rendered") {
  std::string text = kJobSet;
  text.replace(text.find("replicas: 3"), 11, "replicas: 2000000000");
  ChildObjects c = RenderJobSetChildren(ParseOne(text), {});
  CHECK(c.objects.empty());
  CHECK(c.error.find("render stops at 100000") != std::string::npos);
}

}  // namespace jobset
