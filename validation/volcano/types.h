// The typed, lenient view of a batch.volcano.sh/v1alpha1 Job that the lifecycle semantics
// (lifecycle.h) read: its tasks and LifecyclePolicies, with the defaults of the CRD and the
// mutating webhook applied (volcano-sh/volcano@ed72c7c8,
// pkg/webhooks/admission/jobs/mutate/mutate_job.go).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

/// Hashes task names for look-ups by string_view.
struct VolcanoNameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

/// One LifecyclePolicy of spec.policies or spec.tasks[i].policies.
struct VolcanoPolicy {
  std::string path;                 ///< spec.tasks[1].policies[0] or spec.policies[2].
  Mark mark;                        ///< Where the policy starts.
  std::vector<std::string> events;  ///< `events` then `event`, de-duplicated (as the controller).
  bool has_exit_code = false;
  int64_t exit_code = 0;
  std::string action;  ///< As written (exit-code policies' actions are never validated).
  bool has_timeout = false;
  double timeout_s = 0;
  std::string timeout;  ///< As written, e.g. "10m".
};

/// Where the first match of a request lies in one policy list (applyPolicies scans in order):
/// built by DecodeVolcanoJob, so that matching a request does not scan the list.
struct VolcanoPolicyIndex {
  static constexpr int kNone = std::numeric_limits<int>::max();
  /// The first policy naming each event (for PodPending, the first with a timeout).
  std::unordered_map<std::string, int, VolcanoNameHash, std::equal_to<>> first_named;
  int first_star = kNone;          ///< The first policy naming `*`.
  int first_star_timeout = kNone;  ///< The first naming `*` with a timeout (PodPending's).
  std::unordered_map<int64_t, int> first_code;  ///< The first exit-code policy of each code.
};

/// The index of `policies`.
VolcanoPolicyIndex IndexVolcanoPolicies(const std::vector<VolcanoPolicy>& policies);

/// A task's partition policy (the fields the semantics read).
struct VolcanoPartition {
  int64_t total_partitions = 0;
  int64_t partition_size = 0;
  int64_t min_partitions = 0;
};

/// One entry of spec.tasks.
struct VolcanoTask {
  std::string name;  ///< `default<i>` when empty (mutating webhook).
  int64_t replicas = 0;
  int64_t min_available = 0;  ///< Defaulted as the mutating webhook does.
  int64_t max_retry = 3;      ///< Task maxRetry (0 -> 3); only feeds TaskFailed.
  bool has_partition = false;
  VolcanoPartition partition;
  std::vector<VolcanoPolicy> policies;
  VolcanoPolicyIndex policy_index;  ///< Of `policies`.
};

/// A Volcano Job with the defaults the lifecycle semantics depend on applied, as the CRD and the
/// mutating webhook would on CREATE (mutate_job.go: maxRetry, task names, task minAvailable and
/// maxRetry, job minAvailable). Deliberately small: the full defaulting unit lives elsewhere.
struct VolcanoJob {
  std::string name;
  int64_t max_retry = 3;  ///< spec.maxRetry; 0 or absent -> 3.
  int64_t min_available = 0;
  bool has_min_success = false;
  int64_t min_success = 0;
  std::vector<VolcanoTask> tasks;
  std::vector<VolcanoPolicy> policies;  ///< spec.policies.
  VolcanoPolicyIndex policy_index;      ///< Of `policies`.
  /// Each task name's first index in `tasks` (FindVolcanoTask), filled by DecodeVolcanoJob.
  std::unordered_map<std::string, int, VolcanoNameHash, std::equal_to<>> task_index;
  std::vector<std::string> defaulted;  ///< "spec.maxRetry: 3", one line per default applied.
  std::vector<std::string> problems;   ///< Values that could not be read (field: what), skipped.
};

/// True for an object of apiVersion batch.volcano.sh/v1alpha1, kind Job.
bool IsVolcanoJob(const Node& object);

/// Decodes a Volcano Job leniently: a value of the wrong type is skipped with a problem noted,
/// never a crash.
VolcanoJob DecodeVolcanoJob(const Node& object);

/// The index of the first task named `name` (as the controller looks it up), or -1. O(1).
int FindVolcanoTask(const VolcanoJob& job, std::string_view name);

/// `<job>-<task>-<index>`, the name the controller gives a pod.
std::string VolcanoPodName(const VolcanoJob& job, int task, int64_t index);

}  // namespace jobset
