#include "validation/volcano/distributed_plugins.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/children_test_util.h"
#include "validation/volcano/children.h"

namespace jobset {

namespace {

// A Volcano Job with the given plugins and tasks (YAML flow text).
std::string Job(const std::string& plugins, const std::string& tasks) {
  return "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\nspec:\n"
         "  plugins: " +
         plugins + "\n  tasks: " + tasks + "\n";
}

// A task of `replicas` pods whose one container is named `container`.
std::string Task(const std::string& name, int replicas, const std::string& container = "c") {
  return "{name: " + name + ", replicas: " + std::to_string(replicas) +
         ", template: {spec: {containers: [{name: " + container + ", image: i}]}}}";
}

ChildObjects Render(const std::string& text, const std::string& only = "") {
  ChildObjects c = RenderVolcanoJobPods(ParseOne(text), {only, 0});
  REQUIRE(c.error == "");
  return c;
}

// "NAME=VALUE" for every env entry of container `i` of `pod` (VALUE empty for valueFrom).
std::vector<std::string> Env(const Node& pod, size_t i = 0, const char* list = "containers") {
  std::vector<std::string> out;
  const Node* env = At(pod.Find("spec")->Find(list)->items[i], {"env"});
  if (env == nullptr) return out;
  for (const Node& e : env->items)
    out.push_back(std::string(e.StringOr("name")) + "=" + std::string(e.StringOr("value")));
  return out;
}

// "NAME:PORT" for every port of container `i` of `pod`.
std::vector<std::string> Ports(const Node& pod, size_t i = 0, const char* list = "containers") {
  std::vector<std::string> out;
  const Node* ports = At(pod.Find("spec")->Find(list)->items[i], {"ports"});
  if (ports == nullptr) return out;
  for (const Node& p : ports->items)
    out.push_back(std::string(p.StringOr("name")) + ":" +
                  std::to_string(p.Find("containerPort")->integer));
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("pytorch plugin: master address, port, world size and ranks on every container") {
  ChildObjects c =
      Render(Job("{pytorch: [--master=m, --worker=w]}",
                 "[" + Task("m", 1) + ", " + Task("w", 2) + ", " + Task("x", 1) + "]"));
  REQUIRE(c.objects.size() == 4);
  // The webhook adds svc for pytorch: its env comes after pytorch's (written order).
  const Strings common = {"MASTER_ADDR=j-m-0.j", "MASTER_PORT=23456", "WORLD_SIZE=3"};
  Strings master = common, worker1 = common, other = common;
  master.push_back("RANK=0");
  worker1.push_back("RANK=2");
  for (Strings* s : {&master, &worker1, &other}) {
    for (const char* t : {"M", "W", "X"}) {
      s->push_back(std::string("VC_") + t + "_HOSTS=");
      s->push_back(std::string("VC_") + t + "_NUM=");
    }
  }
  CHECK(Env(c.objects[0]) == master);
  CHECK(Env(c.objects[2]) == worker1);  // j-w-1: rank index + 1
  CHECK(Env(c.objects[3]) == other);    // neither master nor worker: no RANK
  CHECK(Ports(c.objects[0]) == Strings{"pytorchjob-port:23456"});
  CHECK(At(c.objects[1], {"spec", "initContainers"}) == nullptr);  // wait-master is off

  // A container that already has the port keeps its own; the master's hostname and subdomain
  // make the address; --port as a separate argument, as Go's flag package reads it.
  ChildObjects own = Render(Job(
      "{pytorch: [--port, '29500'], svc: []}",
      "[{name: master, replicas: 1, template: {spec: {hostname: boss, subdomain: net, containers: "
      "[{name: c, image: i, ports: [{containerPort: 29500, name: own}]}]}}}, " +
          Task("worker", 1) + "]"));
  CHECK(Ports(own.objects[0]) == Strings{"own:29500"});
  CHECK(Env(own.objects[1])[0] == "MASTER_ADDR=boss.net");
  CHECK(Env(own.objects[1])[1] == "MASTER_PORT=29500");

  // A Job named by generateName: the address uses the name its pods get.
  std::string generated = Job("{pytorch: []}", "[" + Task("master", 1) + "]");
  generated.replace(generated.find("{name: j}"), 9, "{generateName: g-}");
  CHECK(Env(Render(generated).objects[0])[0] == "MASTER_ADDR=g-xxxxx-master-0.g-xxxxx");

  // No master task: the plugin adds nothing.
  ChildObjects none = Render(Job("{pytorch: [], svc: []}", "[" + Task("worker", 1) + "]"));
  CHECK(Ports(none.objects[0]).empty());
  CHECK(Env(none.objects[0]) == Strings{"VC_WORKER_HOSTS=", "VC_WORKER_NUM="});
}

TEST_CASE(
    "pytorch plugin: --wait-master-enabled gives workers the wait-for-master init container") {
  ChildObjects c =
      Render(Job("{pytorch: [--wait-master-enabled, --wait-master-timeout=60], svc: []}",
                 "[" + Task("master", 1) + ", " + Task("worker", 1) + "]"));
  CHECK(At(c.objects[0], {"spec", "initContainers"}) == nullptr);
  const Node* init = At(c.objects[1], {"spec", "initContainers"});
  REQUIRE(init != nullptr);
  REQUIRE(init->items.size() == 1);
  CHECK(Text(init->items[0], {"name"}) == "wait-for-master");
  CHECK(Text(init->items[0], {"image"}) == "busybox:1.36.1");
  const std::string script = init->items[0].Find("command")->items[2].text;
  CHECK(script.rfind("echo \"Waiting for master node j-master-0.j:23456 to be ready...\"\n"
                     "TIMEOUT=60\nELAPSED=0\n"
                     "until { nc -z j-master-0.j 23456 || echo > /dev/tcp/j-master-0.j/23456; }",
                     0) == 0);
  // svc, written after pytorch, reaches the init container too.
  CHECK(Env(c.objects[1], 0, "initContainers") ==
        Strings{"VC_MASTER_HOSTS=", "VC_MASTER_NUM=", "VC_WORKER_HOSTS=", "VC_WORKER_NUM="});
  // A bad value stops Go's flag parse: the flags after it keep their defaults, the int is 0.
  ChildObjects bad = Render(Job("{pytorch: [--port=abc, --wait-master-enabled], svc: []}",
                                "[" + Task("master", 1) + ", " + Task("worker", 1) + "]"));
  CHECK(At(bad.objects[1], {"spec", "initContainers"}) == nullptr);
  CHECK(Env(bad.objects[1])[1] == "MASTER_PORT=0");
}

TEST_CASE("tensorflow plugin: TF_CONFIG as Go's json.Marshal writes it") {
  ChildObjects c =
      Render(Job("{tensorflow: [--port=2223], svc: []}",
                 "[" + Task("ps", 1) + ", " + Task("worker", 2) + ", " + Task("chief", 1) + "]"));
  REQUIRE(c.objects.size() == 4);
  const std::string cluster =
      R"({"cluster":{"ps":["j-ps-0.j:2223"],"worker":["j-worker-0.j:2223","j-worker-1.j:2223"],)"
      R"("chief":["j-chief-0.j:2223"]},)";
  CHECK(Env(c.objects[2])[0] == "TF_CONFIG=" + cluster + R"("task":{"type":"worker","index":1}})");
  CHECK(Env(c.objects[3])[0] == "TF_CONFIG=" + cluster + R"("task":{"type":"chief","index":0}})");
  CHECK(Ports(c.objects[0]).empty());  // tensorflow opens no port

  // A renamed role keeps its TensorFlow type; a task of no role has its own name as its type.
  ChildObjects renamed = Render(Job("{tensorflow: [--worker=trainer], svc: []}",
                                    "[" + Task("trainer", 1) + ", " + Task("eval", 1) + "]"));
  CHECK(
      Env(renamed.objects[0])[0] ==
      R"(TF_CONFIG={"cluster":{"worker":["j-trainer-0.j:2222"]},"task":{"type":"worker","index":0}})");
  CHECK(
      Env(renamed.objects[1])[0] ==
      R"(TF_CONFIG={"cluster":{"worker":["j-trainer-0.j:2222"]},"task":{"type":"eval","index":0}})");

  // One task of one replica: stand-alone, no TF_CONFIG.
  ChildObjects alone = Render(Job("{tensorflow: [], svc: []}", "[" + Task("worker", 1) + "]"));
  CHECK(Env(alone.objects[0]) == Strings{"VC_WORKER_HOSTS=", "VC_WORKER_NUM="});
}

TEST_CASE("mpi plugin: mpijob-port in every container, MPI_HOST on the master") {
  const std::string tasks =
      "[{name: launcher, replicas: 1, template: {spec: {initContainers: [{name: init, image: i}], "
      "containers: [{name: c, image: i}]}}}, " +
      Task("node", 3) + "]";
  ChildObjects c = Render(Job("{mpi: [--master=launcher, --worker=node, --port=2222]}", tasks));
  REQUIRE(c.objects.size() == 4);
  // The webhook adds svc and ssh after mpi; mpi's env comes first.
  CHECK(Env(c.objects[0])[0] == "MPI_HOST=j-node-0.j,j-node-1.j,j-node-2.j");
  CHECK(Env(c.objects[0], 0, "initContainers")[0] == "MPI_HOST=j-node-0.j,j-node-1.j,j-node-2.j");
  CHECK(Ports(c.objects[0]) == Strings{"mpijob-port:2222"});
  CHECK(Ports(c.objects[0], 0, "initContainers") == Strings{"mpijob-port:2222"});
  CHECK(Ports(c.objects[1]) == Strings{"mpijob-port:2222"});
  CHECK(Env(c.objects[1])[0] != "MPI_HOST=j-node-0.j,j-node-1.j,j-node-2.j");

  // A worker template with its own hostname: one host stands for all.
  ChildObjects named = Render(
      Job("{mpi: [], svc: [], ssh: []}",
          "[" + Task("master", 1) +
              ", {name: worker, replicas: 2, template: {spec: {hostname: h, containers: [{name: c, "
              "image: i}]}}}]"));
  CHECK(Env(named.objects[0])[0] == "MPI_HOST=h.j");

  // A master without the worker task: nothing, not even the port.
  ChildObjects alone = Render(Job("{mpi: [], svc: [], ssh: []}", "[" + Task("master", 1) + "]"));
  CHECK(Ports(alone.objects[0]).empty());
}

TEST_CASE("ray plugin: the head's ports and commands, the workers' address") {
  ChildObjects c = Render(Job(
      "{ray: [--dashboardPort=8266], svc: []}",
      "[{name: head, replicas: 1, template: {spec: {containers: [{name: head, image: ray, ports: "
      "[{name: gcs-own, containerPort: 6379}]}, {name: side, image: s}]}}}, " +
          Task("worker", 2, "worker") + "]"));
  REQUIRE(c.objects.size() == 3);
  CHECK(Ports(c.objects[0]) == Strings{"gcs-own:6379", "dashboard:8266", "client-server:10001"});
  CHECK(Ports(c.objects[0], 1).empty());  // only the head container
  const Node* head = At(c.objects[0].Find("spec")->Find("containers")->items[0], {"command"});
  REQUIRE(head != nullptr);
  CHECK(head->items[2].text ==
        "ray start --head --block --dashboard-host=0.0.0.0 --port=6379 --dashboard-port=8266 "
        "--ray-client-server-port=10001");
  const Node* worker = At(c.objects[2].Find("spec")->Find("containers")->items[0], {"command"});
  REQUIRE(worker != nullptr);
  CHECK(worker->items[0].text == "sh");
  CHECK(worker->items[1].text == "-c");
  CHECK(worker->items[2].text == "ray start --block --address=j-head-0.j:6379");

  // Without the head task the controller's sync stops at the first pod: no pods at all.
  ChildObjects headless = RenderVolcanoJobPods(
      ParseOne(Job("{ray: [], svc: []}", "[" + Task("worker", 2, "worker") + "]")), {});
  CHECK(headless.error == "");
  CHECK(headless.objects.empty());
  CHECK(headless.note ==
        "Volcano Job j: plugin ray fails (job j doesn't have head task head): the controller "
        "creates no pods");
}

TEST_CASE("hcclrank plugin: hccl/rankIndex from RANK, else masters then workers") {
  ChildObjects c = Render(Job("{hcclrank: []}", "[" + Task("master", 2) + ", " + Task("worker", 2) +
                                                    ", " + Task("x", 1) + "]"));
  REQUIRE(c.objects.size() == 5);
  std::vector<std::string> ranks;
  for (const Node& pod : c.objects)
    ranks.push_back(Text(pod, {"metadata", "annotations", "hccl/rankIndex"}));
  CHECK(ranks == Strings{"0", "1", "2", "3", "<absent>"});

  // After pytorch (written first) it takes pytorch's RANK; an annotation set in the template
  // stays.
  ChildObjects after = Render(
      Job("{pytorch: [], hcclrank: []}",
          "[" + Task("master", 2) +
              ", {name: worker, replicas: 1, template: {metadata: {annotations: {hccl/rankIndex: "
              "'9'}}, spec: {containers: [{name: c, image: i}]}}}]"));
  CHECK(Text(after.objects[0], {"metadata", "annotations", "hccl/rankIndex"}) == "0");
  CHECK(Text(after.objects[1], {"metadata", "annotations", "hccl/rankIndex"}) == "0");
  CHECK(Text(after.objects[2], {"metadata", "annotations", "hccl/rankIndex"}) == "9");
  // Written before pytorch, it computes the rank itself.
  ChildObjects before = Render(Job("{hcclrank: [], pytorch: []}", "[" + Task("master", 2) + "]"));
  CHECK(Text(before.objects[1], {"metadata", "annotations", "hccl/rankIndex"}) == "1");
}

TEST_CASE("volcano plugins: only names that are no Volcano plugin are left in a note") {
  ChildObjects c =
      Render(Job("{pytorch: [], tensorflow: [], mpi: [], ray: [], hcclrank: [], sshd: []}",
                 "[" + Task("master", 1, "head") + ", " + Task("worker", 1) + ", " +
                     Task("head", 1, "head") + "]"));
  CHECK(c.note ==
        "Volcano Job j: sshd is not a Volcano plugin (the webhook rejects the job): not rendered");
  ChildObjects known = Render(Job("{pytorch: [], hcclrank: []}", "[" + Task("master", 1) + "]"));
  CHECK(known.note == "");
}

TEST_CASE("GoJsonString escapes as Go's encoding/json") {
  CHECK(GoJsonString("a\"b\\c") == R"("a\"b\\c")");
  CHECK(GoJsonString("<&>") == R"("\u003c\u0026\u003e")");
  CHECK(GoJsonString("\n\t\b\f\x01") == R"("\n\t\b\f\u0001")");
  CHECK(GoJsonString("\xe2\x80\xa8 é") == "\"\\u2028 é\"");
  CHECK(GoJsonString("\xff") == R"("\ufffd")");
}

}  // namespace jobset
