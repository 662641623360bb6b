// A typed view of a JobSet (jobset.x-k8s.io/v1alpha2): the fields admission and the failure
// policy engine read. Decoded from a document leniently: a value of the wrong type is left at
// its zero value (the schema check reports it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

inline constexpr char kJobSetApiVersion[] = "jobset.x-k8s.io/v1alpha2";
inline constexpr char kJobSetKind[] = "JobSet";

/// spec.replicatedJobs[].dependsOn[].
struct DependsOn {
  std::string name;
  std::string status;  ///< "Ready" or "Complete".
};

/// spec.replicatedJobs[]: one group of identical child Jobs.
struct ReplicatedJob {
  std::string name;
  std::optional<std::string> group_name;  ///< CRD default "default".
  int64_t replicas = 1;                   ///< CRD default 1.
  bool has_depends_on = false;            ///< The key is present (even as an empty list).
  std::vector<DependsOn> depends_on;
  // From template.spec (batch/v1 JobSpec).
  std::optional<int64_t> parallelism, completions, backoff_limit, backoff_limit_per_index,
      max_failed_indexes, active_deadline_seconds;
  std::optional<std::string> completion_mode;  ///< Webhook default "Indexed".
  std::optional<std::string> pod_replacement_policy;
  const Node* job_spec = nullptr;  ///< template.spec, for checks that read further.
  const Node* pod_spec = nullptr;  ///< template.spec.template.spec.
};

/// spec.failurePolicy.rules[].
struct FailurePolicyRule {
  std::string name;    ///< After defaulting: failurePolicyRule<i> when omitted.
  std::string action;  ///< FailJobSet, RestartJobSet, RestartJobSetAndIgnoreMaxRestarts, ...
  std::vector<std::string> on_job_failure_reasons;
  std::vector<std::string> on_job_failure_message_patterns;
  std::vector<std::string> target_replicated_jobs;
};

/// spec.failurePolicy. Absent is different from `{}`: see JobSet::failure_policy.
struct FailurePolicy {
  int64_t max_restarts = 0;
  std::string restart_strategy = "Recreate";
  std::vector<FailurePolicyRule> rules;
};

/// spec.successPolicy.
struct SuccessPolicy {
  std::string op = "All";
  std::vector<std::string> target_replicated_jobs;
};

/// spec.coordinator.
struct Coordinator {
  std::string replicated_job;
  int64_t job_index = 0;
  int64_t pod_index = 0;
};

/// spec.volumeClaimPolicies[].
struct VolumeClaimPolicy {
  std::vector<std::string> template_names;
  std::optional<std::string> when_deleted;
};

/// The fields of a JobSet that admission and the controller's failure handling read.
struct JobSet {
  std::string name, generate_name, namespace_name;
  std::vector<ReplicatedJob> replicated_jobs;
  std::optional<FailurePolicy> failure_policy;
  std::optional<SuccessPolicy> success_policy;
  std::optional<std::string> startup_policy_order;
  bool has_network = false;
  std::optional<std::string> subdomain;
  std::optional<std::string> managed_by;
  std::optional<Coordinator> coordinator;
  std::vector<VolumeClaimPolicy> volume_claim_policies;
  bool suspend = false;
};

/// True when the document is a JobSet of the version we check.
bool IsJobSet(const Node& object);

/// Decodes the typed view. `object` must outlive the result (job_spec/pod_spec point into it).
JobSet DecodeJobSet(const Node& object);

/// The name admission validates with: metadata.name, else the name the apiserver would
/// generate from generateName (prefix cut to 58 bytes, then 5 random characters), else "".
std::string NameForValidation(const JobSet& js);

}  // namespace jobset
