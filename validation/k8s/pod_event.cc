#include "validation/k8s/pod_event.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "validation/core/suggest.h"

namespace jobset {
namespace {

// The word of each PodEventKind, in enum order.
constexpr std::array<std::string_view, 11> kWords = {
    "exit",     "oom",       "drain",   "preempted",
    "taint",    "node-lost", "evicted", "storage-evicted",
    "shutdown", "deadline",  "delete"};

constexpr int32_t kGracefulKillExitCode = 143;  // 128 + SIGTERM.
constexpr int32_t kHardKillExitCode = 137;      // 128 + SIGKILL.
constexpr int32_t kMaxExitCode = 255;

// What a pod-level event (every kind but exit and oom) writes on the pod besides its containers.
struct PodLevelFacts {
  std::string_view disruption_reason;  // DisruptionTarget's reason; "" writes none.
  std::string_view disruption_message;
  std::string_view pod_reason;
  std::string_view pod_message;
  int32_t kill_exit_code = kGracefulKillExitCode;
};

// The facts of each pod-level event (pod_event.h lists the upstream writer of each).
PodLevelFacts PodLevelFactsOf(PodEventKind kind) {
  constexpr std::string_view kPressure = "The node was low on resource: memory. ";
  constexpr std::string_view kShutdown =
      "Pod was terminated in response to imminent node shutdown.";
  switch (kind) {
    case PodEventKind::kDrain:
      return {"EvictionByEvictionAPI", "Eviction API: evicting", "", ""};
    case PodEventKind::kPreempted:
      return {"PreemptionByScheduler",
              "default-scheduler: preempting to accommodate a higher priority pod", "", ""};
    case PodEventKind::kTaint:
      return {"DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint", "", ""};
    case PodEventKind::kNodeLost:
      return {"DeletionByPodGC", "PodGC: node no longer exists", "", ""};
    case PodEventKind::kEvicted:
      return {"TerminationByKubelet", kPressure, "Evicted", kPressure, kHardKillExitCode};
    case PodEventKind::kStorageEvicted:
      return {"", "", "Evicted",
              "Pod ephemeral local storage usage exceeds the total limit of containers 1Gi. ",
              kHardKillExitCode};
    case PodEventKind::kShutdown:
      return {"TerminationByKubelet", kShutdown, "Terminated", kShutdown};
    case PodEventKind::kDeadline:
      return {"", "", "DeadlineExceeded",
              "Pod was active on the node longer than the specified deadline"};
    default:
      return {};
  }
}

// What joins a name to the sentence after it: the "did you mean" (`did_you_mean`) when there is
// one, else "; ".
std::string Separator(const std::string& did_you_mean) {
  return did_you_mean.empty() ? "; " : did_you_mean + " ";
}

bool NamesContainer(PodEventKind kind) {
  return kind == PodEventKind::kExit || kind == PodEventKind::kOom;
}

std::string ValidWords() {
  std::string s = "valid events: ";
  const std::vector<std::string>& words = PodEventWords();
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) s += ", ";
    s += words[i];
    if (NamesContainer(static_cast<PodEventKind>(i))) s += "[@CONTAINER]";
  }
  return s;
}

// The exit code of `text` (1 to 255), or an error.
bool ParseExitCode(std::string_view event, std::string_view text, int32_t* code,
                   std::string* error) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string prefix = "pod event \"" + std::string(event) + "\": ";
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0 ||
      value > kMaxExitCode) {
    *error = prefix + "exit code \"" + std::string(text) + "\" is not a number from 1 to 255";
    return false;
  }
  if (value == 0) {
    *error = prefix + "exit code 0 is a success, not a failure (exit=N takes N from 1 to 255)";
    return false;
  }
  *code = value;
  return true;
}

// The kind whose word is `word`, or an error with the valid words and the nearest one.
bool ParseWord(std::string_view event, std::string_view word, PodEventKind* kind,
               std::string* error) {
  if (word == "exit") {
    *error = "pod event \"" + std::string(event) + "\" needs an exit code: exit=N (1 to 255)";
    return false;
  }
  for (size_t i = 0; i < kWords.size(); ++i) {
    if (kWords[i] == word) {
      *kind = static_cast<PodEventKind>(i);
      return true;
    }
  }
  *error = "unknown pod event \"" + std::string(event) + "\"" +
           Separator(DidYouMean(word, std::vector<std::string>(kWords.begin(), kWords.end()))) +
           ValidWords();
  return false;
}

// The index of `name` in `names`, or -1.
int IndexOf(const std::vector<std::string>& names, std::string_view name) {
  auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

PodContainerStatus Terminated(const std::string& name, int32_t code, std::string_view reason) {
  return {name, code, std::string(reason)};
}

PodContainerStatus NotTerminated(const std::string& name) { return {name, std::nullopt, ""}; }

// The terminated state of a container killed with `code` (or ending on its own with 0).
PodContainerStatus Killed(const std::string& name, int32_t code) {
  return Terminated(name, code, code == 0 ? "Completed" : "Error");
}

// The statuses after an exit or OOM of the regular container `failed`: it ends with `code`
// (`reason`), the other regular containers end 0, init containers ended 0 and sidecars are
// stopped gracefully.
void ContainerFailed(const PodShape& shape, const std::string& failed, int32_t code,
                     std::string_view reason, FailedPod* pod) {
  for (const std::string& name : shape.containers)
    pod->container_statuses.push_back(name == failed ? Terminated(name, code, reason)
                                                     : Killed(name, 0));
  for (size_t i = 0; i < shape.init_containers.size(); ++i)
    pod->init_container_statuses.push_back(
        Killed(shape.init_containers[i], shape.init_is_sidecar[i] ? kGracefulKillExitCode : 0));
}

// The statuses after an exit or OOM of the init container at `failed`: those before it ended 0
// (sidecars stopped gracefully), those after it and the regular containers never started.
void InitContainerFailed(const PodShape& shape, size_t failed, int32_t code,
                         std::string_view reason, FailedPod* pod) {
  for (const std::string& name : shape.containers)
    pod->container_statuses.push_back(NotTerminated(name));
  for (size_t i = 0; i < shape.init_containers.size(); ++i) {
    const std::string& name = shape.init_containers[i];
    if (i == failed) {
      pod->init_container_statuses.push_back(Terminated(name, code, reason));
    } else if (i > failed) {
      pod->init_container_statuses.push_back(NotTerminated(name));
    } else {
      pod->init_container_statuses.push_back(
          Killed(name, shape.init_is_sidecar[i] ? kGracefulKillExitCode : 0));
    }
  }
}

// The statuses after the whole pod was killed with `code`: init containers ended 0, every
// running container (sidecars too) with `code`; for node-lost (`code` unset) nothing ran to an
// end after the init containers.
void PodKilled(const PodShape& shape, std::optional<int32_t> code, FailedPod* pod) {
  for (const std::string& name : shape.containers)
    pod->container_statuses.push_back(code ? Killed(name, *code) : NotTerminated(name));
  for (size_t i = 0; i < shape.init_containers.size(); ++i) {
    const std::string& name = shape.init_containers[i];
    if (!shape.init_is_sidecar[i]) {
      pod->init_container_statuses.push_back(Killed(name, 0));
    } else {
      pod->init_container_statuses.push_back(code ? Killed(name, *code) : NotTerminated(name));
    }
  }
}

// The conditions of a pod the kubelet finalised as Failed: `disruption` (if any) first, then the
// kubelet's own.
std::vector<PodStatusCondition> KubeletConditions(std::optional<PodStatusCondition> disruption,
                                                  bool initialized) {
  std::vector<PodStatusCondition> out;
  if (disruption) out.push_back(*disruption);
  out.push_back({"PodReadyToStartContainers", "False", "", ""});
  out.push_back({"Initialized", initialized ? "True" : "False", "", ""});
  out.push_back({"Ready", "False", "PodFailed", ""});
  out.push_back({"ContainersReady", "False", "PodFailed", ""});
  out.push_back({"PodScheduled", "True", "", ""});
  return out;
}

// The conditions of a pod on a lost node that pod GC failed: those it had while running, Ready
// False, then DisruptionTarget.
std::vector<PodStatusCondition> NodeLostConditions(PodStatusCondition disruption) {
  return {{"PodReadyToStartContainers", "True", "", ""},
          {"Initialized", "True", "", ""},
          {"Ready", "False", "", ""},
          {"ContainersReady", "True", "", ""},
          {"PodScheduled", "True", "", ""},
          std::move(disruption)};
}

// The pod after an exit or OOM of one container.
void ApplyContainerEvent(const PodEvent& event, const PodShape& shape, FailedPod* pod) {
  const bool oom = event.kind == PodEventKind::kOom;
  const int32_t code = oom ? kHardKillExitCode : event.exit_code;
  const std::string_view reason = oom ? "OOMKilled" : "Error";
  const std::string& name = event.container.empty() && !shape.containers.empty()
                                ? shape.containers.front()
                                : event.container;
  const int init = IndexOf(shape.init_containers, name);
  const bool in_init = IndexOf(shape.containers, name) < 0 && init >= 0;
  if (in_init) {
    InitContainerFailed(shape, static_cast<size_t>(init), code, reason, pod);
  } else {
    ContainerFailed(shape, name, code, reason, pod);
  }
  pod->conditions = KubeletConditions(std::nullopt, !in_init);
}

// The pod after a pod-level event.
void ApplyPodLevelEvent(PodEventKind kind, const PodShape& shape, FailedPod* pod) {
  const PodLevelFacts facts = PodLevelFactsOf(kind);
  pod->reason = std::string(facts.pod_reason);
  pod->message = std::string(facts.pod_message);
  std::optional<PodStatusCondition> disruption;
  if (!facts.disruption_reason.empty())
    disruption =
        PodStatusCondition{"DisruptionTarget", "True", std::string(facts.disruption_reason),
                           std::string(facts.disruption_message)};
  if (kind == PodEventKind::kNodeLost) {
    PodKilled(shape, std::nullopt, pod);
    pod->conditions = NodeLostConditions(*disruption);
    return;
  }
  PodKilled(shape, facts.kill_exit_code, pod);
  pod->conditions = KubeletConditions(disruption, true);
}

}  // namespace

PodShape PodShapeOf(const Node& pod_template) {
  PodShape shape;
  const Node* spec = pod_template.Find("spec");
  if (!spec || !spec->is_map()) return shape;
  if (const Node* cs = spec->Find("containers"); cs && cs->is_seq()) {
    for (const Node& c : cs->items)
      if (c.is_map()) shape.containers.emplace_back(c.StringOr("name"));
  }
  if (const Node* cs = spec->Find("initContainers"); cs && cs->is_seq()) {
    for (const Node& c : cs->items) {
      if (!c.is_map()) continue;
      shape.init_containers.emplace_back(c.StringOr("name"));
      shape.init_is_sidecar.push_back(c.StringOr("restartPolicy") == "Always");
    }
  }
  shape.restart_policy = std::string(spec->StringOr("restartPolicy"));
  const Node* deadline = spec->Find("activeDeadlineSeconds");
  shape.has_active_deadline = deadline && !deadline->is_null();
  return shape;
}

const std::vector<std::string>& PodEventWords() {
  static const std::vector<std::string> words = [] {
    std::vector<std::string> w(kWords.begin(), kWords.end());
    w[static_cast<size_t>(PodEventKind::kExit)] = "exit=N";
    return w;
  }();
  return words;
}

bool ParsePodEvent(std::string_view text, PodEvent* event, std::string* error) {
  if (text.empty()) {
    *error = "empty pod event; " + ValidWords();
    return false;
  }
  const size_t at = text.find('@');
  std::string_view word = text.substr(0, at);
  const size_t equals = word.find('=');
  PodEvent parsed;
  if (word.substr(0, equals) == "exit" && equals != std::string_view::npos) {
    if (!ParseExitCode(text, word.substr(equals + 1), &parsed.exit_code, error)) return false;
    parsed.kind = PodEventKind::kExit;
  } else if (!ParseWord(text, word, &parsed.kind, error)) {
    return false;
  }
  if (at != std::string_view::npos) {
    const std::string_view container = text.substr(at + 1);
    const std::string prefix = "pod event \"" + std::string(text) + "\": ";
    if (!NamesContainer(parsed.kind)) {
      *error = prefix + "only exit=N and oom name a container";
      return false;
    }
    if (container.empty() || container.find('@') != std::string_view::npos) {
      *error = prefix + "expected one container name after '@'";
      return false;
    }
    parsed.container = std::string(container);
  }
  *event = std::move(parsed);
  return true;
}

std::string PodEventText(const PodEvent& event) {
  std::string text(kWords[static_cast<size_t>(event.kind)]);
  if (event.kind == PodEventKind::kExit) text += "=" + std::to_string(event.exit_code);
  if (NamesContainer(event.kind) && !event.container.empty()) text += "@" + event.container;
  return text;
}

std::string PodEventError(const PodEvent& event, const PodShape& shape) {
  if (event.kind == PodEventKind::kDeadline && !shape.has_active_deadline)
    return "the pod template sets no activeDeadlineSeconds, so its pods have no deadline";
  if (!NamesContainer(event.kind)) return "";
  if (event.container.empty())
    return shape.containers.empty() ? "the pod template has no containers" : "";
  if (IndexOf(shape.containers, event.container) >= 0) return "";
  const int init = IndexOf(shape.init_containers, event.container);
  if (init >= 0 && shape.init_is_sidecar[static_cast<size_t>(init)])
    return "container " + event.container +
           " is a sidecar (an init container with restartPolicy Always): the kubelet restarts "
           "it, so its exit fails no pod";
  if (init >= 0) return "";
  std::string error = "the pod template has no container \"" + event.container + "\"" +
                      Separator(DidYouMean(event.container, shape.containers)) +
                      "its containers: " + JoinNames(shape.containers);
  if (!shape.init_containers.empty())
    error += " (init containers: " + JoinNames(shape.init_containers) + ")";
  return error;
}

FailedPod FailedPodAfter(const PodEvent& event, const PodShape& shape,
                         const std::string& pod_namespace, const std::string& pod_name) {
  FailedPod pod;
  pod.pod_namespace = pod_namespace;
  pod.name = pod_name;
  if (NamesContainer(event.kind)) {
    ApplyContainerEvent(event, shape, &pod);
  } else {
    ApplyPodLevelEvent(event.kind, shape, &pod);
  }
  std::stable_sort(
      pod.container_statuses.begin(), pod.container_statuses.end(),
      [](const PodContainerStatus& a, const PodContainerStatus& b) { return a.name < b.name; });
  return pod;
}

}  // namespace jobset
