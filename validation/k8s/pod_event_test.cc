// Tests of the pod event vocabulary: the parser (every word, its errors), the printer (round
// trip), and the failed pod each event leaves (pod_event.h's assumptions).
#include "validation/k8s/pod_event.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/core/loader.h"

namespace jobset {
namespace {

// The error of parsing `text` ("" when it parses).
std::string ParseError(const std::string& text) {
  PodEvent event;
  std::string error;
  return ParsePodEvent(text, &event, &error) ? "" : error;
}

PodEvent Parse(const std::string& text) {
  PodEvent event;
  std::string error;
  REQUIRE_MESSAGE(ParsePodEvent(text, &event, &error), error);
  return event;
}

// A shape with regular containers `containers` and init containers `inits` (a name ending in
// '+' is a sidecar), restartPolicy Never.
PodShape Shape(std::vector<std::string> containers, std::vector<std::string> inits = {}) {
  PodShape shape;
  shape.containers = std::move(containers);
  for (std::string& name : inits) {
    const bool sidecar = name.back() == '+';
    if (sidecar) name.pop_back();
    shape.init_containers.push_back(name);
    shape.init_is_sidecar.push_back(sidecar);
  }
  shape.restart_policy = "Never";
  return shape;
}

// The container statuses as "name=code" ("name=-" when not terminated).
std::string Statuses(const std::vector<PodContainerStatus>& statuses) {
  std::string out;
  for (const PodContainerStatus& s : statuses) {
    if (!out.empty()) out += " ";
    out += s.name + "=" + (s.exit_code ? std::to_string(*s.exit_code) : "-");
    if (!s.reason.empty()) out += "/" + s.reason;
  }
  return out;
}

// The conditions as "Type=Status[/Reason]".
std::string Conditions(const FailedPod& pod) {
  std::string out;
  for (const PodStatusCondition& c : pod.conditions) {
    if (!out.empty()) out += " ";
    out += c.type + "=" + c.status + (c.reason.empty() ? "" : "/" + c.reason);
  }
  return out;
}

TEST_CASE("pod_event: every word parses and prints back") {
  for (const char* text :
       {"exit=42", "exit=1@trainer", "exit=255", "oom", "oom@w", "drain", "preempted", "taint",
        "node-lost", "evicted", "storage-evicted", "shutdown", "deadline", "delete"}) {
    CAPTURE(text);
    CHECK(PodEventText(Parse(text)) == text);
  }
  CHECK(Parse("exit=42@trainer").exit_code == 42);
  CHECK(Parse("exit=42@trainer").container == "trainer");
  CHECK(Parse("node-lost").kind == PodEventKind::kNodeLost);
  CHECK(PodEventWords().size() == 11);
  CHECK(PodEventWords()[0] == "exit=N");
}

TEST_CASE("pod_event: parser errors say what is wrong and what is valid") {
  const std::string valid =
      "valid events: exit=N[@CONTAINER], oom[@CONTAINER], drain, preempted, taint, node-lost, "
      "evicted, storage-evicted, shutdown, deadline, delete";
  CHECK(ParseError("") == "empty pod event; " + valid);
  CHECK(ParseError("drian") == "unknown pod event \"drian\"; did you mean 'drain'? " + valid);
  CHECK(ParseError("nodelost") ==
        "unknown pod event \"nodelost\"; did you mean 'node-lost'? " + valid);
  CHECK(ParseError("reboot") == "unknown pod event \"reboot\"; " + valid);
  CHECK(ParseError("exit") == "pod event \"exit\" needs an exit code: exit=N (1 to 255)");
  CHECK(ParseError("exit@a") == "pod event \"exit@a\" needs an exit code: exit=N (1 to 255)");
  CHECK(ParseError("exit=0") ==
        "pod event \"exit=0\": exit code 0 is a success, not a failure (exit=N takes N from 1 "
        "to 255)");
  CHECK(ParseError("exit=256") ==
        "pod event \"exit=256\": exit code \"256\" is not a number from 1 to 255");
  CHECK(ParseError("exit=-1") ==
        "pod event \"exit=-1\": exit code \"-1\" is not a number from 1 to 255");
  CHECK(ParseError("exit=4x") ==
        "pod event \"exit=4x\": exit code \"4x\" is not a number from 1 to 255");
  CHECK(ParseError("exit=") == "pod event \"exit=\": exit code \"\" is not a number from 1 to 255");
  CHECK(ParseError("drain@w") == "pod event \"drain@w\": only exit=N and oom name a container");
  CHECK(ParseError("oom@") == "pod event \"oom@\": expected one container name after '@'");
  CHECK(ParseError("oom@a@b") == "pod event \"oom@a@b\": expected one container name after '@'");
}

TEST_CASE("pod_event: events a pod cannot meet") {
  const PodShape shape = Shape({"trainer", "logger"}, {"setup", "proxy+"});
  CHECK(PodEventError(Parse("exit=1@trainer"), shape) == "");
  CHECK(PodEventError(Parse("exit=1@setup"), shape) == "");
  CHECK(PodEventError(Parse("exit=1"), shape) == "");
  CHECK(PodEventError(Parse("drain"), shape) == "");
  CHECK(PodEventError(Parse("exit=1@trainr"), shape) ==
        "the pod template has no container \"trainr\"; did you mean 'trainer'? its "
        "containers: trainer, logger (init containers: setup, proxy)");
  CHECK(PodEventError(Parse("oom@proxy"), shape) ==
        "container proxy is a sidecar (an init container with restartPolicy Always): the "
        "kubelet restarts it, so its exit fails no pod");
  CHECK(PodEventError(Parse("deadline"), shape) ==
        "the pod template sets no activeDeadlineSeconds, so its pods have no deadline");
  CHECK(PodEventError(Parse("oom"), Shape({})) == "the pod template has no containers");
}

TEST_CASE("pod_event: the shape of a pod template") {
  SourceFile f = ParseSource(
      "t.yaml",
      "{spec: {restartPolicy: Never, activeDeadlineSeconds: 60, containers: [{name: b}, {name: "
      "a}], initContainers: [{name: init}, {name: side, restartPolicy: Always}]}}");
  const PodShape shape = PodShapeOf(f.documents[0].root);
  CHECK(shape.containers == std::vector<std::string>{"b", "a"});
  CHECK(shape.init_containers == std::vector<std::string>{"init", "side"});
  CHECK(shape.init_is_sidecar == std::vector<bool>{false, true});
  CHECK(shape.restart_policy == "Never");
  CHECK(shape.has_active_deadline);
}

TEST_CASE("pod_event: the failed pod each event leaves") {
  const PodShape shape = Shape({"trainer", "logger"}, {"setup", "proxy+"});
  const std::string kubelet =
      "PodReadyToStartContainers=False Initialized=True Ready=False/PodFailed "
      "ContainersReady=False/PodFailed PodScheduled=True";
  SUBCASE("exit: the named container fails, the others end 0, statuses sorted by name") {
    FailedPod pod = FailedPodAfter(Parse("exit=42@trainer"), shape, "ns", "p-0");
    CHECK(pod.pod_namespace == "ns");
    CHECK(pod.name == "p-0");
    CHECK(pod.phase == "Failed");
    CHECK(Statuses(pod.container_statuses) == "logger=0/Completed trainer=42/Error");
    CHECK(Statuses(pod.init_container_statuses) == "setup=0/Completed proxy=143/Error");
    CHECK(Conditions(pod) == kubelet);
  }
  SUBCASE("exit without a container: the first regular container in spec order") {
    FailedPod pod = FailedPodAfter(Parse("exit=3"), shape, "ns", "p");
    CHECK(Statuses(pod.container_statuses) == "logger=0/Completed trainer=3/Error");
  }
  SUBCASE("exit of an init container: the regular containers never ran") {
    FailedPod pod = FailedPodAfter(Parse("exit=2@setup"),
                                   Shape({"main"}, {"proxy+", "setup", "late"}), "ns", "p");
    CHECK(Statuses(pod.container_statuses) == "main=-");
    CHECK(Statuses(pod.init_container_statuses) == "proxy=143/Error setup=2/Error late=-");
    CHECK(Conditions(pod).find("Initialized=False") != std::string::npos);
  }
  SUBCASE("oom: 137 OOMKilled") {
    FailedPod pod = FailedPodAfter(Parse("oom@logger"), shape, "ns", "p");
    CHECK(Statuses(pod.container_statuses) == "logger=137/OOMKilled trainer=0/Completed");
  }
  SUBCASE("drain, preempted, taint: DisruptionTarget first, every container 143") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"drain", "EvictionByEvictionAPI"},
        {"preempted", "PreemptionByScheduler"},
        {"taint", "DeletionByTaintManager"}};
    for (const auto& [word, reason] : cases) {
      CAPTURE(word);
      FailedPod pod = FailedPodAfter(Parse(word), shape, "ns", "p");
      CHECK(pod.reason == "");
      CHECK(Statuses(pod.container_statuses) == "logger=143/Error trainer=143/Error");
      CHECK(Statuses(pod.init_container_statuses) == "setup=0/Completed proxy=143/Error");
      CHECK(Conditions(pod) == "DisruptionTarget=True/" + reason + " " + kubelet);
    }
    CHECK(FailedPodAfter(Parse("drain"), shape, "ns", "p").conditions[0].message ==
          "Eviction API: evicting");
  }
  SUBCASE("node-lost: no container terminated, DisruptionTarget DeletionByPodGC last") {
    FailedPod pod = FailedPodAfter(Parse("node-lost"), shape, "ns", "p");
    CHECK(pod.phase == "Failed");
    CHECK(Statuses(pod.container_statuses) == "logger=- trainer=-");
    CHECK(Statuses(pod.init_container_statuses) == "setup=0/Completed proxy=-");
    CHECK(Conditions(pod) ==
          "PodReadyToStartContainers=True Initialized=True Ready=False ContainersReady=True "
          "PodScheduled=True DisruptionTarget=True/DeletionByPodGC");
    CHECK(pod.conditions.back().message == "PodGC: node no longer exists");
  }
  SUBCASE("evicted: pod reason Evicted, TerminationByKubelet, 137") {
    FailedPod pod = FailedPodAfter(Parse("evicted"), shape, "ns", "p");
    CHECK(pod.reason == "Evicted");
    CHECK(pod.message == "The node was low on resource: memory. ");
    CHECK(Statuses(pod.container_statuses) == "logger=137/Error trainer=137/Error");
    CHECK(Conditions(pod) == "DisruptionTarget=True/TerminationByKubelet " + kubelet);
    CHECK(pod.conditions[0].message == pod.message);
  }
  SUBCASE("storage-evicted: pod reason Evicted, no DisruptionTarget") {
    FailedPod pod = FailedPodAfter(Parse("storage-evicted"), shape, "ns", "p");
    CHECK(pod.reason == "Evicted");
    CHECK(Conditions(pod) == kubelet);
  }
  SUBCASE("shutdown, deadline, delete") {
    FailedPod shutdown = FailedPodAfter(Parse("shutdown"), shape, "ns", "p");
    CHECK(shutdown.reason == "Terminated");
    CHECK(Conditions(shutdown) == "DisruptionTarget=True/TerminationByKubelet " + kubelet);
    FailedPod deadline = FailedPodAfter(Parse("deadline"), shape, "ns", "p");
    CHECK(deadline.reason == "DeadlineExceeded");
    CHECK(deadline.message == "Pod was active on the node longer than the specified deadline");
    CHECK(Conditions(deadline) == kubelet);
    FailedPod deleted = FailedPodAfter(Parse("delete"), shape, "ns", "p");
    CHECK(deleted.reason == "");
    CHECK(Conditions(deleted) == kubelet);
    CHECK(Statuses(deleted.container_statuses) == "logger=143/Error trainer=143/Error");
  }
}

}  // namespace
}  // namespace jobset
