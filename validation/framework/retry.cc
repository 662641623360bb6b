#include "validation/framework/retry.h"

#include <charconv>

#include "validation/core/suggest.h"
#include "validation/framework/pod_failure.h"

namespace jobset {
namespace {

CompletionType Failed(bool transient, bool permanent, bool conflict = false) {
  return CompletionType{false, transient, permanent, conflict};
}

const CompletionType kSucceededType{true, false, false, false};
const CompletionType kTransient = Failed(true, false);
const CompletionType kPermanent = Failed(false, true);
const CompletionType kUnknown = Failed(false, false);

bool ParseInt(std::string_view text, int64_t* out) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && p == text.data() + text.size() && !text.empty();
}

// The attributes after the code: "Transient", "Permanent", "Conflict", "Unknown" joined by '+'.
bool ParseAttributes(std::string_view text, CompletionType* type, std::string* error) {
  *type = kUnknown;
  while (!text.empty()) {
    size_t plus = text.find('+');
    std::string_view a = text.substr(0, plus);
    if (a == "Transient") {
      type->transient = true;
    } else if (a == "Permanent") {
      type->permanent = true;
    } else if (a == "Conflict") {
      type->conflict = true;
    } else if (a != "Unknown") {
      *error = "unknown attribute '" + std::string(a) +
               "': want Transient, Permanent, Conflict or Unknown";
      return false;
    }
    text = plus == std::string_view::npos ? std::string_view() : text.substr(plus + 1);
  }
  return true;
}

}  // namespace

FailureClass ClassOf(const CompletionType& type) {
  if (type.succeeded) return FailureClass::kSucceeded;
  if (type.transient) return FailureClass::kTransient;
  if (type.permanent) return FailureClass::kPermanent;
  return FailureClass::kUnknown;
}

const char* FailureClassName(FailureClass c) {
  switch (c) {
    case FailureClass::kSucceeded:
      return "Succeeded";
    case FailureClass::kTransient:
      return "Transient";
    case FailureClass::kPermanent:
      return "Permanent";
    case FailureClass::kUnknown:
      return "Unknown";
  }
  return "";
}

std::string CompletionTypeText(const CompletionType& type) {
  std::string attrs;
  auto add = [&](bool on, const char* name) {
    if (on) attrs += (attrs.empty() ? "" : " ") + std::string(name);
  };
  add(type.transient, "Transient");
  add(type.permanent, "Permanent");
  add(type.conflict, "Conflict");
  return std::string("{") + (type.succeeded ? "Succeeded" : "Failed") + " [" + attrs + "]}";
}

const std::vector<CompletionStatus>& KnownCompletionCodes() {
  static const std::vector<CompletionStatus> codes = {
      // Predefined (completion.go).
      {200, "ContainerTransientFailed", kTransient},
      {201, "ContainerTransientConflictFailed", Failed(true, false, true)},
      {210, "ContainerPermanentFailed", kPermanent},
      {0, "Succeeded", kSucceededType},
      {-100, "ConfigMapExternalDeleted", kTransient},
      {-101, "PodExternalDeleted", kTransient},
      {-110, "ConfigMapLocalCacheCreationTimeout", kTransient},
      {-111, "PodLocalCacheCreationTimeout", kTransient},
      {-120, "PodCreationTransientError", kTransient},
      {-200, "PodCreationPermanentError", kPermanent},
      {-210, "StopFrameworkRequested", kPermanent},
      {-220, "FrameworkAttemptCompletion", kPermanent},
      {-230, "DeleteTaskRequested", kPermanent},
      {-300, "PodFailedWithoutFailedContainer", kUnknown},
      {-310, "PodCreationUnknownError", kUnknown},
      // The default podFailureSpec (example/config/default/frameworkcontroller.yaml).
      {-1000, "PodEvicted", kTransient},
      {-1001, "PodNodeLost", kTransient},
      {-1002, "PodScheduledToInsufficientResourceNode", kTransient},
      {-1003, "PodPreemptedForCriticalPod", kTransient},
      {-1004, "PodDeadlineExceeded", kPermanent},
      {-1005, "PodNodeAdmissionForbidden", kPermanent},
      {-1006, "PodNodeAdmissionUnexpectedError", kTransient},
      {-1200, "ContainerDockerOOMKilled", kPermanent},
      {-1201, "ContainerDockerCreationError", kUnknown},
      {-1202, "ContainerDockerStartCmdPermissionDenied", kPermanent},
      {-1203, "ContainerDockerStartCmdNotFound", kPermanent},
      {-1204, "ContainerDockerStartUnknownError", kUnknown},
      {130, "ContainerSigIntReceived", kTransient},
      {131, "ContainerSigQuitReceived", kTransient},
      {132, "ContainerSigIllReceived", kPermanent},
      {134, "ContainerSigAbrtReceived", kUnknown},
      {135, "ContainerSigBusReceived", kPermanent},
      {136, "ContainerSigFpeReceived", kPermanent},
      {137, "ContainerSigKillReceived", kTransient},
      {139, "ContainerSigSegvReceived", kPermanent},
      {141, "ContainerSigPipeReceived", kPermanent},
      {143, "ContainerSigTermReceived", kTransient},
  };
  return codes;
}

bool ParseTaskCompletion(std::string_view text, CompletionStatus* out, std::string* error) {
  size_t plus = text.find('+');
  std::string_view head = text.substr(0, plus);
  if (head.rfind("exit=", 0) == 0 || head.rfind("pod=", 0) == 0) {
    PodFailure pod;
    if (!ParsePodFailure(head, &pod, error)) return false;
    *out = ClassifyPodFailure(pod);
    return plus == std::string_view::npos ||
           ParseAttributes(text.substr(plus + 1), &out->type, error);
  }
  const CompletionStatus* known = nullptr;
  int64_t code = 0;
  bool numeric = ParseInt(head, &code);
  for (const CompletionStatus& c : KnownCompletionCodes()) {
    if (numeric ? c.code == code : c.phrase == head) known = &c;
  }
  if (!numeric && !known) {
    std::vector<std::string> phrases;
    for (const CompletionStatus& c : KnownCompletionCodes()) phrases.push_back(c.phrase);
    *error = "'" + std::string(head) + "' is neither a completion code nor a known phrase" +
             DidYouMean(head, phrases);
    return false;
  }
  if (known) {
    switch (known->code) {
      case -120:
        *error =
            "-120 PodCreationTransientError never completes a task attempt: the controller "
            "just retries the pod creation";
        return false;
      case -210:
      case -220:
      case -230:
        *error = std::to_string(known->code) + " " + known->phrase +
                 " is given by the controller (Stop, FrameworkAttempt completion, scale-down), "
                 "not by a task";
        return false;
      default:
        break;
    }
    *out = *known;
  } else {
    out->code = code;
    out->phrase = "ContainerUnrecognizedFailed";
    out->type = kUnknown;
  }
  if (plus != std::string_view::npos) {
    if (out->code == 0) {
      *error = "code 0 is Succeeded and takes no attributes";
      return false;
    }
    if (!ParseAttributes(text.substr(plus + 1), &out->type, error)) return false;
    if (!known) out->phrase = "";  // a code of the cluster's own podFailureSpec
  } else if (!known && code <= 0) {
    *error = "code " + std::to_string(code) +
             " is not a code the controller or its default podFailureSpec gives; for a code of "
             "your podFailureSpec add its attributes, e.g. " +
             std::to_string(code) + "+Transient";
    return false;
  }
  return true;
}

RetryDecision ShouldRetry(const FrameworkRetryPolicy& policy, const CompletionStatus& status,
                          const RetryCounters& counters, int64_t min_delay, int64_t max_delay) {
  RetryDecision d;
  const CompletionType& type = status.type;
  // 0. Completions the controller caused itself are never retried.
  if (status.code == -210 || status.code == -220 || status.code == -230) {
    d.reason = "CompletionCode is " + std::to_string(status.code) + ", " + status.phrase;
    return d;
  }
  // 1. The fancy policy decides Transient and Permanent failures by their type.
  if (policy.fancy && !type.succeeded) {
    if (type.transient) {
      d.should_retry = true;
      if (type.conflict) {
        d.delay_min = min_delay;
        d.delay_max = max_delay;
      }
      d.reason = "FancyRetryPolicy is true and CompletionType is " + CompletionTypeText(type);
      return d;
    }
    if (type.permanent) {
      d.reason = "FancyRetryPolicy is true and CompletionType is " + CompletionTypeText(type);
      return d;
    }
  }
  // 2. The normal policy, counted.
  const int64_t max = policy.max_retry_count;
  const std::string counts = "AccountableRetriedCount " + std::to_string(counters.accountable);
  if (max == -2 || (!type.succeeded && (max == -1 || counters.accountable < max))) {
    d.should_retry = true;
    d.accountable = true;
    d.reason = counts + " has not reached MaxRetryCount " + std::to_string(max);
    return d;
  }
  // 3. No retry.
  d.reason = type.succeeded ? "CompletionType is " + CompletionTypeText(type)
                            : counts + " has reached MaxRetryCount " + std::to_string(max);
  return d;
}

}  // namespace jobset
