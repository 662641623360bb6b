// A typed view of a FrameworkController Framework (frameworkcontroller.microsoft.com/v1): the
// fields its retry and completion algorithms read. Decoded leniently: the controller has no
// defaulting, so an omitted field or a value of the wrong type is Go's zero value (lint reports
// the wrong type).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

inline constexpr char kFrameworkApiVersion[] = "frameworkcontroller.microsoft.com/v1";
inline constexpr char kFrameworkKind[] = "Framework";

/// spec.retryPolicy and spec.taskRoles[].task.retryPolicy (RetryPolicySpec).
struct FrameworkRetryPolicy {
  bool fancy = false;           ///< fancyRetryPolicy.
  int64_t max_retry_count = 0;  ///< maxRetryCount: -2, -1 or N >= 0.
  bool max_set = false;         ///< maxRetryCount was written (as an integer).
};

/// spec.taskRoles[].frameworkAttemptCompletionPolicy (CompletionPolicySpec).
struct FrameworkCompletionPolicy {
  int64_t min_failed = 0;     ///< minFailedTaskCount; acts only when >= 1.
  int64_t min_succeeded = 0;  ///< minSucceededTaskCount; acts only when >= 1.
  bool min_failed_set = false, min_succeeded_set = false;
};

/// spec.taskRoles[]: taskNumber identical tasks, indexes 0..taskNumber-1.
struct FrameworkTaskRole {
  std::string name;
  int64_t task_number = 0;
  FrameworkCompletionPolicy completion;
  FrameworkRetryPolicy retry;  ///< task.retryPolicy.
  std::optional<int64_t> pod_graceful_deletion_timeout_sec;
};

/// A Framework as the controller reads it.
struct Framework {
  std::string name;            ///< metadata.name.
  std::string execution_type;  ///< "" (behaves as Start), Create, Start or Stop.
  FrameworkRetryPolicy retry;  ///< spec.retryPolicy.
  std::vector<FrameworkTaskRole> task_roles;
};

/// Whether `object` has the Framework apiVersion and kind.
bool IsFramework(const Node& object);

/// Decodes a Framework without defaults (there are none upstream).
Framework DecodeFramework(const Node& object);

/// Σ taskNumber over all task roles (negative counts as 0).
int64_t TotalTaskNumber(const Framework& fw);

/// The pod of a task: `{framework}-{taskRole}-{taskIndex}` (stable across retries).
std::string FrameworkPodName(const Framework& fw, const std::string& role, int64_t index);

}  // namespace jobset
