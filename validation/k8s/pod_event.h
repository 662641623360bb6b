// The user's vocabulary of pod failure events, one model for every kind, and the failed pod each
// event leaves behind, as the Job controller reads it (pod_failure_policy.h's FailedPod).
//
// Words: `exit=N` and `oom` (each optionally `@CONTAINER`), `drain`, `preempted`, `taint`,
// `node-lost`, `evicted`, `storage-evicted`, `shutdown`, `deadline`, `delete`. ParsePodEvent and
// PodEventText are inverses on every event ParsePodEvent accepts.
//
// What each event leaves on the pod (FailedPodAfter), after the producers named in
// docs/pod-failure-chain.md:
//   exit=N     the container (default: the first regular container in spec order) terminated
//              with reason Error and exit code N; the pod Failed (restartPolicy Never).
//   oom        the container terminated with reason OOMKilled and exit code 137.
//   drain      DisruptionTarget EvictionByEvictionAPI "Eviction API: evicting" (eviction.go,
//              addConditionAndDeletePod), then a graceful delete.
//   preempted  DisruptionTarget PreemptionByScheduler "default-scheduler: preempting to
//              accommodate a higher priority pod" (kube-scheduler preemption), graceful delete.
//   taint      DisruptionTarget DeletionByTaintManager "Taint manager: deleting due to NoExecute
//              taint" (tainteviction, addConditionAndDeletePod), graceful delete.
//   node-lost  the Node object is gone: pod GC (gcOrphaned) sets phase Failed and
//              DisruptionTarget DeletionByPodGC "PodGC: node no longer exists"; no kubelet
//              finalised the pod, so no container is terminated.
//   evicted    kubelet node-pressure eviction (eviction_manager, evictPod): pod reason Evicted,
//              message "The node was low on resource: memory. ", DisruptionTarget
//              TerminationByKubelet with the same message.
//   storage-evicted  kubelet local-storage eviction: pod reason Evicted, no DisruptionTarget.
//   shutdown   graceful node shutdown (nodeshutdown_manager, killPods): pod reason Terminated,
//              DisruptionTarget TerminationByKubelet "Pod was terminated in response to imminent
//              node shutdown."
//   deadline   the pod's activeDeadlineSeconds (kubelet active_deadline.go): pod reason
//              DeadlineExceeded, no DisruptionTarget.
//   delete     a plain DELETE (kubectl delete pod, drain --disable-eviction): no condition.
//
// Assumptions, where the outcome depends on the application or the runtime:
//   - A graceful kill (drain, preempted, taint, shutdown, deadline, delete) ends every running
//     container, sidecars included, with exit code 143 (reason Error): the process dies of
//     SIGTERM. One that handled SIGTERM and exited 0 would instead leave a Succeeded pod.
//   - An OOM kill and a hard eviction (evicted, storage-evicted; grace 1 s) end with 137 (the
//     runtime's 128 + SIGKILL).
//   - On exit=N or oom of a regular container, the other regular containers end 0 (Completed)
//     and sidecars are then stopped gracefully (143); the pod is Failed.
//   - On exit=N or oom of an init container, the init containers before it ended 0, those after
//     it and the regular containers never started (no terminated state), running sidecars are
//     stopped (143).
//   - Sidecars (init containers with restartPolicy Always) are restarted by the kubelet, so an
//     exit or OOM of a sidecar fails no pod (PodEventError).
//   - Conditions, in the order the kubelet writes them (generateAPIPodStatus keeps conditions it
//     does not own first): DisruptionTarget (status True, with its reason and message) when the
//     event writes one, then PodReadyToStartContainers False, Initialized (False when an init
//     container failed, else True), Ready False and ContainersReady False (reason PodFailed),
//     PodScheduled True. For node-lost no kubelet reorders them: the pod keeps what it had while
//     running, Ready False (the node lifecycle controller), and DisruptionTarget comes last.
//   - Container statuses are sorted by name as the kubelet does (SortedContainerStatuses); init
//     container statuses, sidecars included, are in spec order.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"
#include "validation/k8s/pod_failure_policy.h"

namespace jobset {

/// What happened to the pod.
enum class PodEventKind {
  kExit,            ///< `exit=N[@CONTAINER]`: a container exited with code N (not 0).
  kOom,             ///< `oom[@CONTAINER]`: a container was OOM-killed.
  kDrain,           ///< `drain`: the eviction API (kubectl drain).
  kPreempted,       ///< `preempted`: kube-scheduler preemption.
  kTaint,           ///< `taint`: the taint manager (a NoExecute taint the pod does not tolerate).
  kNodeLost,        ///< `node-lost`: the node is gone; pod GC fails and deletes the pod.
  kEvicted,         ///< `evicted`: kubelet node-pressure eviction.
  kStorageEvicted,  ///< `storage-evicted`: kubelet ephemeral-storage eviction.
  kShutdown,        ///< `shutdown`: graceful node shutdown.
  kDeadline,        ///< `deadline`: the pod's activeDeadlineSeconds.
  kDelete,          ///< `delete`: a plain DELETE of the pod.
};

/// One pod failure event as the user writes it.
struct PodEvent {
  PodEventKind kind = PodEventKind::kExit;
  int32_t exit_code = 1;  ///< kExit only; never 0.
  std::string container;  ///< kExit and kOom: the container; empty = the first regular one.
};

/// The containers of a pod template, as far as a pod event needs them.
struct PodShape {
  std::vector<std::string> containers;       ///< Regular containers, in spec order.
  std::vector<std::string> init_containers;  ///< Init containers (sidecars too), in spec order.
  std::vector<bool> init_is_sidecar;         ///< Per init container: restartPolicy Always.
  std::string restart_policy;                ///< The pod's restartPolicy as written ("" unset).
  bool has_active_deadline = false;          ///< spec.activeDeadlineSeconds is set.
};

/// The shape of a PodTemplateSpec Node (`metadata` and `spec`); an absent or ill-typed field
/// reads as empty.
PodShape PodShapeOf(const Node& pod_template);

/// The words of the vocabulary, for "valid words" lists and completion: "exit=N", "oom",
/// "drain", ... in PodEventKind order.
const std::vector<std::string>& PodEventWords();

/// Parses one event (`exit=42`, `exit=1@trainer`, `oom@w`, `drain`, ...) into `*event`. On a
/// mistake returns false and sets `*error` to a message that names the text, says what is wrong
/// and lists the valid words (with "did you mean" for a near miss).
bool ParsePodEvent(std::string_view text, PodEvent* event, std::string* error);

/// The event as ParsePodEvent reads it back (`exit=42@trainer`, `drain`).
std::string PodEventText(const PodEvent& event);

/// Why `event` cannot happen to a pod of `shape` ("" when it can): a container the pod does not
/// have (naming those it has), an exit or OOM of a sidecar, or a pod without containers.
std::string PodEventError(const PodEvent& event, const PodShape& shape);

/// The failed pod `event` leaves behind (see the header comment for every assumption), named
/// `pod_namespace`/`pod_name`. `event` must be one PodEventError accepts for `shape`.
FailedPod FailedPodAfter(const PodEvent& event, const PodShape& shape,
                         const std::string& pod_namespace, const std::string& pod_name);

}  // namespace jobset
