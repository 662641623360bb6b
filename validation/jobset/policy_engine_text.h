// The reasons and messages of a JobSet's conditions and events (kubernetes-sigs/jobset
// pkg/constants/constants.go), kept structured so that the engine's hot path builds no strings,
// and rendered on demand.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "validation/jobset/policy_engine_index.h"

namespace jobset {

/// The reason of a JobSet condition or event (pkg/constants/constants.go).
enum class StatusReason : uint8_t {
  kNone,
  // Condition Failed.
  kFailedJobs,
  kFailJobSetFailurePolicyAction,
  kReachedMaxRestarts,
  // Condition RestartingJobSet.
  kFailurePolicyRule,  ///< "FailurePolicy_<rule name>".
  kDefaultFailurePolicy,
  kJobsReady,
  kJobSetFailed,
  kJobSetCompleted,
  kJobSetSuspended,
  // Condition Completed.
  kAllJobsCompleted,
  // Events only.
  kRestartJobSetFailurePolicyAction,
  kRestartJobSetAndIgnoreMaxRestartsFailurePolicyAction,
  kRestartJobFailurePolicyAction,
  kRestartJobAndIgnoreMaxRestartsFailurePolicyAction,
};

/// The fixed part of a condition or event message (pkg/constants/constants.go).
enum class StatusMessage : uint8_t {
  kNone,
  kFailedJobs,          ///< "jobset failed due to one or more job failures"
  kReachedMaxRestarts,  ///< "jobset failed due to reaching max number of restarts"
  kApplyingAction,      ///< "applying <action> failure policy action"
  kAllJobsReady,        ///< "all jobs are ready"
  kJobSetFailed,        ///< "jobset failed"
  kJobSetCompleted,     ///< "jobset completed successfully"
  kJobSetSuspended,     ///< "jobset is suspended"
};

/// A condition's or event's reason and message, kept structured so that the hot path builds no
/// strings. The message gets " (first failed job: <job>)" when `rjob` >= 0.
struct StatusText {
  StatusReason reason = StatusReason::kNone;
  int rule = -1;  ///< kFailurePolicyRule: index into PreparedPolicy::rules.
  StatusMessage message = StatusMessage::kNone;
  PolicyAction action = PolicyAction::kUnknown;  ///< kApplyingAction: the action named.
  int rjob = -1;      ///< The first failed job's rjob index, or -1 for no job suffix.
  int64_t index = 0;  ///< The first failed job's index.
};

/// The reason as upstream writes it ("ReachedMaxRestarts", "FailurePolicy_<rule>", ...).
/// The view points into static storage or into `policy`.
std::string_view ReasonText(const PreparedPolicy& policy, const StatusText& text);

/// The message as upstream writes it, e.g. "jobset failed due to reaching max number of
/// restarts (first failed job: js-rj-1)".
std::string MessageText(const PreparedPolicy& policy, const StatusText& text);

/// True when both render to the same reason and the same message (updateCondition's comparison).
bool SameText(const PreparedPolicy& policy, const StatusText& a, const StatusText& b);

}  // namespace jobset
