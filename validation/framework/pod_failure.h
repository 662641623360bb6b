// FrameworkController's pod failure matching (microsoft/frameworkcontroller@d6e70787,
// pkg/apis/frameworkcontroller/v1/completion.go, PodFailureSpec matching): which completion code a
// failed pod gets, from the predefined codes (200, 201, 210) and then the default podFailureSpec of
// example/config/default/frameworkcontroller.yaml, first match wins.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "validation/framework/retry.h"

namespace jobset {

/// A failed pod as `simulate` describes it: its status.reason, and at most one terminated
/// container with a non-zero exit code (and its reason).
struct PodFailure {
  std::string pod_reason;
  std::optional<int64_t> exit_code;  ///< The container's exit code, when a container failed.
  std::string container_reason;      ///< e.g. OOMKilled, ContainerCannotRun.
};

/// Parses `exit=CODE[/REASON]` (a container terminated with CODE, reason REASON) or
/// `pod=REASON` (the pod's status.reason, e.g. Evicted).
bool ParsePodFailure(std::string_view text, PodFailure* out, std::string* error);

/// The completion status the controller gives the failed pod: the first matching code of the
/// predefined codes and the default podFailureSpec, else ContainerUnrecognizedFailed with the
/// container's exit code, else -300 PodFailedWithoutFailedContainer.
CompletionStatus ClassifyPodFailure(const PodFailure& pod);

}  // namespace jobset
