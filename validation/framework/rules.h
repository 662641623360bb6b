// The rules of the FrameworkController Framework kind (frameworkcontroller.microsoft.com/v1):
// ids framework/*.
//
// Each id is a constant its checks report under (FindingSink takes a RuleId, not a string),
// and each has one row here, assembled into the registry by validation/lint/rule_registry.h.
// docs/rules/<id>.md documents each rule.
#pragma once

#include <span>

#include "validation/core/rule_registry.h"

namespace jobset {

inline constexpr RuleId kFrameworkName{"framework/name"};
inline constexpr RuleId kFrameworkTaskRoleName{"framework/task-role-name"};
inline constexpr RuleId kFrameworkExecutionType{"framework/execution-type"};
inline constexpr RuleId kFrameworkType{"framework/type"};
inline constexpr RuleId kFrameworkMinimum{"framework/minimum"};
inline constexpr RuleId kFrameworkUnknownField{"framework/unknown-field"};
inline constexpr RuleId kFrameworkMinFailedOmitted{"framework/min-failed-omitted"};
inline constexpr RuleId kFrameworkFailuresSucceed{"framework/failures-succeed"};
inline constexpr RuleId kFrameworkCompletionCountUnreachable{
    "framework/completion-count-unreachable"};
inline constexpr RuleId kFrameworkRerunSucceeded{"framework/rerun-succeeded"};
inline constexpr RuleId kFrameworkUnboundedTransientRetries{
    "framework/unbounded-transient-retries"};
inline constexpr RuleId kFrameworkDuplicateTaskRole{"framework/duplicate-task-role"};
inline constexpr RuleId kFrameworkNoTasks{"framework/no-tasks"};
inline constexpr RuleId kFrameworkExecutionStop{"framework/execution-stop"};
inline constexpr RuleId kFrameworkNegativeDeletionTimeout{"framework/negative-deletion-timeout"};
inline constexpr RuleId kFrameworkExecutionCreate{"framework/execution-create"};

/// The registry rows of the rules above, in the order `lint --list-rules` prints them.
std::span<const RuleInfo> FrameworkRules();

}  // namespace jobset
