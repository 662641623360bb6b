#include "validation/volcano/children.h"

#include <doctest/doctest.h>

#include <string>

#include "tests/children_test_util.h"

namespace jobset {

namespace {

// The names of a container's env (or volumeMounts) list, space-separated.
std::string Names(const Node* list) {
  std::string out;
  if (list == nullptr) return out;
  for (const Node& i : list->items)
    out += (out.empty() ? "" : " ") + std::string(i.StringOr("name"));
  return out;
}

const char kJob[] = R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: mpi
  namespace: hpc
  annotations: {volcano.sh/preemptable: "true"}
spec:
  minAvailable: 3
  queue: research
  priorityClassName: high
  volumes:
  - {mountPath: /data, volumeClaimName: shared}
  plugins:
    env: []
    svc: []
    ssh: []
  tasks:
  - name: mpimaster
    replicas: 1
    template:
      metadata:
        labels: {role: master}
      spec:
        restartPolicy: OnFailure
        containers: [{name: main, image: mpi, env: [{name: OWN, value: "1"}]}]
  - name: mpi-worker
    replicas: 2
    template:
      spec:
        schedulerName: custom
        initContainers: [{name: init, image: busybox}]
        containers: [{name: main, image: mpi}]
)";

}  // namespace

TEST_CASE("volcano pods: one Pod per task replica, named <job>-<task>-<index>") {
  ChildObjects c = RenderVolcanoJobPods(ParseOne(kJob), {});
  REQUIRE(c.error.empty());
  CHECK(c.note.empty());
  REQUIRE(c.objects.size() == 3);
  CHECK(Text(c.objects[0], {"metadata", "name"}) == "mpi-mpimaster-0");
  CHECK(Text(c.objects[1], {"metadata", "name"}) == "mpi-mpi-worker-0");
  CHECK(Text(c.objects[2], {"metadata", "name"}) == "mpi-mpi-worker-1");
  for (const Node& pod : c.objects) {
    CHECK(Text(pod, {"kind"}) == "Pod");
    CHECK(Text(pod, {"apiVersion"}) == "v1");
    CHECK(Text(pod, {"metadata", "namespace"}) == "hpc");
    const Node* owners = At(pod, {"metadata", "ownerReferences"});
    REQUIRE((owners && owners->items.size() == 1));
    CHECK(owners->items[0].StringOr("kind") == "Job");
    CHECK(owners->items[0].StringOr("apiVersion") == "batch.volcano.sh/v1alpha1");
  }
}

TEST_CASE("volcano pods: the controller's labels and annotations, scheduler and priority") {
  ChildObjects c = RenderVolcanoJobPods(ParseOne(kJob), {});
  REQUIRE(c.objects.size() == 3);
  const Node& w1 = c.objects[2];
  CHECK(Text(w1, {"metadata", "annotations", "volcano.sh/task-index"}) == "1");
  CHECK(Text(w1, {"metadata", "annotations", "volcano.sh/task-spec"}) == "mpi-worker");
  CHECK(Text(w1, {"metadata", "annotations", "scheduling.k8s.io/group-name"}) ==
        std::string("mpi-") + kPlaceholderUid);
  CHECK(Text(w1, {"metadata", "annotations", "volcano.sh/job-name"}) == "mpi");
  CHECK(Text(w1, {"metadata", "annotations", "volcano.sh/queue-name"}) == "research");
  CHECK(Text(w1, {"metadata", "annotations", "volcano.sh/job-version"}) == "0");
  CHECK(Text(w1, {"metadata", "annotations", "volcano.sh/template-uid"}) == "mpi-mpi-worker");
  CHECK(Text(w1, {"metadata", "annotations", "volcano.sh/job-retry-count"}) == "0");
  CHECK(Text(w1, {"metadata", "annotations", "volcano.sh/preemptable"}) == "true");
  CHECK(Text(w1, {"metadata", "labels", "volcano.sh/task-index"}) == "1");
  CHECK(Text(w1, {"metadata", "labels", "volcano.sh/job-namespace"}) == "hpc");
  CHECK(Text(w1, {"metadata", "labels", "volcano.sh/queue-name"}) == "research");
  // The template's own scheduler wins; the Job's priority class fills the gap.
  CHECK(Text(w1, {"spec", "schedulerName"}) == "custom");
  CHECK(Text(w1, {"spec", "priorityClassName"}) == "high");
  CHECK(Text(c.objects[0], {"spec", "schedulerName"}) == "volcano");  // webhook default
  CHECK(Text(c.objects[0], {"metadata", "labels", "role"}) == "master");
  CHECK(c.objects[0].Find("metadata")->Find("labels")->entries[0].key == "role");
}

TEST_CASE("volcano pods: job volumes, env, svc and ssh plugins") {
  ChildObjects c = RenderVolcanoJobPods(ParseOne(kJob), {});
  REQUIRE(c.objects.size() == 3);
  const Node& master = c.objects[0];
  const Node* volumes = At(master, {"spec", "volumes"});
  REQUIRE(volumes != nullptr);
  CHECK(Names(volumes) == "mpi-000000000000 mpi-svc mpi-ssh");
  CHECK(Text(volumes->items[0], {"persistentVolumeClaim", "claimName"}) == "shared");
  CHECK(Text(volumes->items[1], {"configMap", "name"}) == "mpi-svc");
  CHECK(Text(volumes->items[2], {"secret", "secretName"}) == "mpi-ssh");
  CHECK(At(volumes->items[2], {"secret", "defaultMode"})->integer == 0600);
  const Node& main = At(master, {"spec", "containers"})->items[0];
  CHECK(Names(main.Find("env")) ==
        "OWN VK_TASK_INDEX VC_TASK_INDEX VC_MPIMASTER_HOSTS VC_MPIMASTER_NUM VC_MPI_WORKER_HOSTS "
        "VC_MPI_WORKER_NUM");
  CHECK(Text(main.Find("env")->items[3], {"valueFrom", "configMapKeyRef", "name"}) == "mpi-svc");
  CHECK(Names(main.Find("volumeMounts")) == "mpi-000000000000 mpi-svc mpi-ssh");
  CHECK(Text(main.Find("volumeMounts")->items[0], {"mountPath"}) == "/data");
  CHECK(Text(main.Find("volumeMounts")->items[1], {"mountPath"}) == "/etc/volcano");
  CHECK(Text(main.Find("volumeMounts")->items[2], {"mountPath"}) == "/root/.ssh");
  // svc: hostname and subdomain.
  CHECK(Text(c.objects[2], {"spec", "hostname"}) == "mpi-mpi-worker-1");
  CHECK(Text(c.objects[2], {"spec", "subdomain"}) == "mpi");
  // Init containers get the plugins' env and mounts, not the job volumes.
  const Node& init = At(c.objects[1], {"spec", "initContainers"})->items[0];
  CHECK(Names(init.Find("volumeMounts")) == "mpi-svc mpi-ssh");
  CHECK(Text(init.Find("env")->items[0], {"value"}) == "0");
}

TEST_CASE("volcano pods: --restarts, --task, plugin flags, an unknown plugin, bad input") {
  ChildObjects r = RenderVolcanoJobPods(ParseOne(kJob), {"mpi-worker", 3});
  REQUIRE(r.objects.size() == 2);
  CHECK(Text(r.objects[0], {"metadata", "annotations", "volcano.sh/job-version"}) == "3");
  CHECK(Text(r.objects[0], {"metadata", "annotations", "volcano.sh/job-retry-count"}) == "3");

  ChildObjects missing = RenderVolcanoJobPods(ParseOne(kJob), {"worker", 0});
  CHECK(missing.error == "Volcano Job mpi has no task \"worker\" (it has mpimaster, mpi-worker)");

  std::string flags = kJob;
  flags.replace(
      flags.find("    svc: []\n    ssh: []\n"), 24,
      "    svc: [\"--inject-hosts-env=false\"]\n    ssh: [\"--ssh-key-file-path=/opt/keys\"]\n"
      "    pytorch: []\n    sshd: []\n");
  ChildObjects f = RenderVolcanoJobPods(ParseOne(flags), {});
  REQUIRE(f.objects.size() == 3);
  const Node& main = At(f.objects[0], {"spec", "containers"})->items[0];
  CHECK(Names(main.Find("env")) == "OWN VK_TASK_INDEX VC_TASK_INDEX");
  CHECK(Text(main.Find("volumeMounts")->items[2], {"mountPath"}) == "/opt/keys");
  CHECK(At(f.objects[0], {"spec", "volumes"})
            ->items[2]
            .Find("secret")
            ->Find("defaultMode")
            ->integer == 0644);
  // pytorch is rendered (without its master task it adds nothing); sshd is no plugin.
  CHECK(
      f.note ==
      "Volcano Job mpi: sshd is not a Volcano plugin (the webhook rejects the job): not rendered");

  CHECK_FALSE(RenderVolcanoJobPods(ParseOne("kind: Job\n"), {}).error.empty());
  ChildObjects odd = RenderVolcanoJobPods(
      ParseOne("kind: Job\nmetadata: {name: x}\nspec: {plugins: [], volumes: 3, tasks: [1, "
               "{name: t, replicas: 1, template: {spec: {containers: [1, {env: 2}]}}}]}\n"),
      {});
  CHECK(odd.error.empty());
  CHECK(odd.objects.size() == 1);
}

}  // namespace jobset
