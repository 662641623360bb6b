// What a Framework's spec amounts to: each retry policy's decision per completion class, each
// role's completion conditions, and the rows of the FrameworkController manual's FrameworkType
// tables (RetryPolicy and FrameworkAttemptCompletionPolicy) that the spec matches.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "validation/framework/replay.h"
#include "validation/framework/retry.h"
#include "validation/framework/types.h"

namespace jobset {

/// What a retry policy does, on its first completion, with one class of completion.
struct ClassDecision {
  FailureClass cls = FailureClass::kSucceeded;
  bool retry = false;
  bool accountable = false;
  /// Counted retries allowed (maxRetryCount) when they are bounded; nullopt when unbounded or
  /// when there is no retry.
  std::optional<int64_t> limit;
};

/// One retry policy: the framework's or a task role's.
struct RetryExplanation {
  std::string scope;  ///< "framework", or the task role's name.
  FrameworkRetryPolicy policy;
  std::string manual_type;  ///< The manual's RetryPolicy row ("DEFAULT", "Service", ...), or "".
  std::vector<ClassDecision> decisions;  ///< Succeeded, Transient, Permanent, Unknown.
};

/// The manual's RetryPolicy row for one policy, or "".
std::string RetryManualType(const FrameworkRetryPolicy& policy);

/// One task role's completion conditions.
struct RoleCompletion {
  const FrameworkTaskRole* role = nullptr;
  std::optional<int64_t> fails_at;     ///< minFailedTaskCount when it can trigger.
  std::optional<int64_t> succeeds_at;  ///< minSucceededTaskCount when it can trigger.
  std::string failed_off,
      succeeded_off;  ///< Why a condition cannot trigger ("omitted", "-1", ...).
};

/// How the first FrameworkAttempt ends when the last attempt of every task ends one way.
struct AllTasksOutcome {
  bool completes = false;  ///< False: some tasks are retried forever, or there are none.
  bool no_tasks = false;   ///< The sum of taskNumber is 0.
  AttemptVerdict verdict;
  RetryDecision framework;  ///< The framework retry decision on it.
};

/// The whole explanation.
struct FrameworkExplanation {
  std::string retry_type;               ///< The manual's row for the whole Framework, or "".
  std::string completion_type;          ///< The manual's completion row, or "".
  std::vector<RetryExplanation> retry;  ///< The framework's policy, then each role's.
  std::vector<RoleCompletion> roles;
  AllTasksOutcome all_fail;          ///< Every task fails with an Unknown failure (exit code 1).
  AllTasksOutcome all_succeed;       ///< Every task succeeds.
  std::vector<std::string> summary;  ///< Plain-language consequences.
};

/// Explains `fw`.
FrameworkExplanation ExplainFrameworkSpec(const Framework& fw);

}  // namespace jobset
