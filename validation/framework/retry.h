// FrameworkController's completion codes and its retry decision (RetryPolicySpec.ShouldRetry),
// as in pkg/apis/frameworkcontroller/v1/{completion.go,funcs.go} (at
// microsoft/frameworkcontroller@d6e70787).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "validation/framework/types.h"

namespace jobset {

/// A CompletionType: Succeeded, or Failed with attributes.
struct CompletionType {
  bool succeeded = false;
  bool transient = false;
  bool permanent = false;
  bool conflict = false;  ///< Only meaningful with transient.
};

/// How the retry algorithm reads a type: Succeeded, or Failed Transient / Permanent / Unknown.
enum class FailureClass { kSucceeded, kTransient, kPermanent, kUnknown };

/// The class of a type (Transient wins over Permanent; no attribute is Unknown).
FailureClass ClassOf(const CompletionType& type);

/// "Succeeded", "Transient", "Permanent" or "Unknown".
const char* FailureClassName(FailureClass c);

/// The type as Go's %v prints the struct: `{Failed [Transient Conflict]}`, `{Succeeded []}`.
std::string CompletionTypeText(const CompletionType& type);

/// A completion code with its phrase and type.
struct CompletionStatus {
  int64_t code = 0;
  std::string phrase;
  CompletionType type;
};

/// The codes the controller knows: its predefined codes (completion.go) and then the default
/// podFailureSpec of example/config/default/frameworkcontroller.yaml, in that order.
const std::vector<CompletionStatus>& KnownCompletionCodes();

/// Reads a task completion as `simulate` takes it: a code (`137`, `-1000`) or a phrase
/// (`PodEvicted`, `Succeeded`), optionally followed by `+`-joined attributes that replace the
/// known type (`-1500+Transient`, `3+Permanent`, `7+Transient+Conflict`, `9+Unknown`). A code
/// that is not known is `ContainerUnrecognizedFailed` (Unknown) when it is a positive exit code;
/// other unknown codes need attributes. Codes only the controller gives (-120, -210, -220, -230)
/// are refused with the reason. `exit=CODE[/REASON]` and `pod=REASON` describe the failed pod
/// instead, classified as the controller does (ClassifyPodFailure).
bool ParseTaskCompletion(std::string_view text, CompletionStatus* out, std::string* error);

/// The two retry counters of a task or framework.
struct RetryCounters {
  int64_t total = 0;        ///< TotalRetriedCount (= the current attempt's id).
  int64_t accountable = 0;  ///< AccountableRetriedCount.
};

/// What ShouldRetry decided.
struct RetryDecision {
  bool should_retry = false;
  bool accountable = false;
  /// The delay is a uniform random integer in [delay_min, delay_max] seconds (0 for tasks).
  int64_t delay_min = 0, delay_max = 0;
  std::string reason;  ///< The controller's reason text.
};

/// RetryPolicySpec.ShouldRetry. `min_delay`/`max_delay` are the Transient Conflict delay bounds
/// (framework: 60 and 900 by default; tasks: 0 and 0).
RetryDecision ShouldRetry(const FrameworkRetryPolicy& policy, const CompletionStatus& status,
                          const RetryCounters& counters, int64_t min_delay, int64_t max_delay);

/// The default frameworkMin/MaxRetryDelaySecForTransientConflictFailed.
inline constexpr int64_t kFrameworkMinConflictDelaySec = 60;
inline constexpr int64_t kFrameworkMaxConflictDelaySec = 900;

}  // namespace jobset
