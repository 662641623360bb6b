// What becomes of a batch/v1 Job when one pod failure event (pod_event.h) keeps happening to its
// pods: the reason and exact message of the Job's Failed condition, after the Job controller
// (kubernetes/kubernetes pkg/controller/job/job_controller.go syncJob, getFailJobMessage,
// pastBackoffLimitOnFailure; pod_failure_policy.go matchPodFailurePolicy; indexed_job_utils.go
// isIndexFailed, getNewIndexFailureCounts), and the events a Job's pod template can produce.
//
// Contract: a pure function of the Job spec Node (as the API server stores it, after
// SetDefaults_Job: backoffLimit 6, or MaxInt32 when backoffLimitPerIndex is set; completionMode
// NonIndexed) and the event. "Keeps happening" means: to every replacement pod of one index (for
// a Job without backoffLimitPerIndex, any index: the count is the Job's), the other indexes
// succeeding. A message that names the failed pod names it `<namespace>/<pod>`
// (kPodPlaceholder), which FillPodPlaceholder replaces. The Job-level activeDeadlineSeconds
// (DeadlineExceeded) is no pod event; its message is kJobDeadlineExceededMessage.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"
#include "validation/k8s/pod_event.h"
#include "validation/k8s/pod_failure_policy.h"

namespace jobset {

/// The messages of the Job's Failed condition, one per reason (k8s.io/api batch/v1 JobReason*;
/// job_controller.go syncJob), byte for byte. PodFailurePolicy has two format strings
/// (matchPodFailurePolicy), written by pod_failure_policy.cc; they are kept here for reference.
inline constexpr std::string_view kJobBackoffLimitExceededMessage =
    "Job has reached the specified backoff limit";
inline constexpr std::string_view kJobDeadlineExceededMessage =
    "Job was active longer than specified deadline";
/// Upstream writes "maximal", not "maximum".
inline constexpr std::string_view kJobMaxFailedIndexesExceededMessage =
    "Job has exceeded the specified maximal number of failed indexes";
inline constexpr std::string_view kJobFailedIndexesMessage = "Job has failed indexes";
inline constexpr std::string_view kJobPodFailurePolicyExitCodeFormat =
    "Container %s for pod %s/%s failed with exit code %v matching %v rule at index %d";
inline constexpr std::string_view kJobPodFailurePolicyConditionFormat =
    "Pod %s/%s has condition %v matching %v rule at index %d";

/// The Job's Failed reasons (batch/v1 JobReason*).
inline constexpr std::string_view kJobReasonPodFailurePolicy = "PodFailurePolicy";
inline constexpr std::string_view kJobReasonBackoffLimitExceeded = "BackoffLimitExceeded";
inline constexpr std::string_view kJobReasonDeadlineExceeded = "DeadlineExceeded";
inline constexpr std::string_view kJobReasonMaxFailedIndexesExceeded = "MaxFailedIndexesExceeded";
inline constexpr std::string_view kJobReasonFailedIndexes = "FailedIndexes";

/// The pod in a message: `<namespace>/<pod>`, for the caller to fill.
inline constexpr std::string_view kPodPlaceholder = "<namespace>/<pod>";

/// The fields of a JobSpec that decide how pod failures end the Job, defaulted as SetDefaults_Job.
struct JobFailureSpec {
  std::optional<PodFailurePolicy> pod_failure_policy;  ///< Unset: the Job has none.
  int64_t backoff_limit = 6;                           ///< 6, or MaxInt32 with a per-index limit.
  std::optional<int64_t> backoff_limit_per_index;      ///< Indexed Jobs only.
  std::optional<int64_t> max_failed_indexes;           ///< With backoffLimitPerIndex only.
  bool indexed = false;                                ///< completionMode Indexed.
  std::string restart_policy;                          ///< The pod template's, as written.
  PodShape pod;                                        ///< The pod template's containers.
};

/// The Job's outcome when one pod event keeps happening to its pods.
struct JobFailureOutcome {
  bool fails_job = true;  ///< False: the event never fails the Job (an Ignore rule).
  /// The Failed condition's reason and message (the message names the pod as kPodPlaceholder);
  /// empty when the event never fails the Job.
  std::string reason;
  std::string message;
  int rule_index = -1;      ///< The podFailurePolicy rule that matched; -1: none.
  std::string rule_action;  ///< That rule's action ("" when none matched).
  bool counts = true;       ///< Counts against backoffLimit (or backoffLimitPerIndex).
  /// After how many such failures (pod failures, or in-place container restarts with
  /// restartPolicy OnFailure) the Job fails; 0 when it never does.
  int64_t failures_to_fail = 0;
  /// FailedIndexes: the Job fails only once every other index has finished too.
  bool waits_for_other_indexes = false;
  bool restarts_in_place = false;  ///< The container restarts in the same pod (OnFailure).
};

/// One event a pod template can produce, with the Job's outcome.
struct PossibleJobFailureEvent {
  PodEvent event;                 ///< For other_exit_codes, a representative code.
  bool other_exit_codes = false;  ///< Stands for every exit code the policy does not name.
  JobFailureOutcome outcome;
};

/// The failure fields of the JobSpec `job_spec`, defaulted, with the shape of its template.
JobFailureSpec DecodeJobFailureSpec(const Node& job_spec);

/// The Job's outcome when `event` keeps happening to its pods. `event` must be one that
/// PodEventError accepts for `spec.pod`.
JobFailureOutcome JobOutcomeOf(const JobFailureSpec& spec, const PodEvent& event);

/// `message` with kPodPlaceholder replaced by `pod_namespace`/`pod_name`.
std::string FillPodPlaceholder(std::string_view message, std::string_view pod_namespace,
                               std::string_view pod_name);

/// The pod events a Job's pods can meet, derived from its pod template `pod_template` (a
/// PodTemplateSpec Node) and the JobSpec `job_spec`: per container and non-sidecar init
/// container, each non-zero exit code its podFailurePolicy names for it and one class "any other
/// exit code", and an OOM kill; then every pod-level event (deadline only when the template sets
/// activeDeadlineSeconds); each with its outcome. A container is named (`@c`) only when the pod
/// has more than one container.
std::vector<PossibleJobFailureEvent> PossibleJobFailureEvents(const Node& job_spec,
                                                              const Node& pod_template);

}  // namespace jobset
