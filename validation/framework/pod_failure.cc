#include "validation/framework/pod_failure.h"

#include <re2/re2.h>

#include <charconv>
#include <vector>

namespace jobset {
namespace {

// One pattern of a CompletionCodeInfo: the pod reason, or a container's reason and exit codes
// (inclusive range). An empty field matches anything.
struct Pattern {
  const char* pod_reason = nullptr;
  const char* container_reason = nullptr;
  std::optional<int64_t> min_code, max_code;
};

struct CodeRule {
  int64_t code;
  std::vector<Pattern> patterns;  ///< Any of them.
};

// The predefined codes, then the default podFailureSpec, in the controller's order.
// (The -1203 alternative "code 128 with a message saying not found" needs the container's
// message, which a PodFailure does not carry.)
const std::vector<CodeRule>& Rules() {
  auto exit_code = [](int64_t c) { return Pattern{nullptr, nullptr, c, c}; };
  auto pod = [](const char* re) { return Pattern{re, nullptr, std::nullopt, std::nullopt}; };
  auto cannot_run = [](int64_t c) { return Pattern{nullptr, "(?i)^ContainerCannotRun$", c, c}; };
  static const std::vector<CodeRule> rules = {
      {200, {exit_code(200)}},
      {201, {exit_code(201)}},
      {210, {exit_code(210)}},
      {-1000, {pod("(?i)^Evicted$")}},
      {-1001, {pod("(?i)^NodeLost$")}},
      {-1002, {pod(R"((?i)^OutOf\S+$)")}},
      {-1003, {pod("(?i)^Preempting$")}},
      {-1004, {pod("(?i)^DeadlineExceeded$")}},
      {-1005, {pod("(?i)^Forbidden$")}},
      {-1006,
       {pod("(?i)^UnexpectedAdmissionError$"), pod("(?i)^UnknownReason$"),
        pod("(?i)^InvalidNodeInfo$"), pod("(?i)^UnexpectedPredicateFailureType$")}},
      {-1200, {Pattern{nullptr, "(?i)^OOMKilled$", 1, std::nullopt}}},
      {-1201, {cannot_run(125)}},
      {-1202, {cannot_run(126)}},
      {-1203, {cannot_run(127)}},
      {-1204, {cannot_run(128)}},
      {130, {exit_code(130)}},
      {131, {exit_code(131)}},
      {132, {exit_code(132)}},
      {134, {exit_code(134)}},
      {135, {exit_code(135)}},
      {136, {exit_code(136)}},
      {137, {exit_code(137)}},
      {139, {exit_code(139)}},
      {141, {exit_code(141)}},
      {143, {exit_code(143)}},
  };
  return rules;
}

bool Matches(const Pattern& p, const PodFailure& pod) {
  if (p.pod_reason && !re2::RE2::PartialMatch(pod.pod_reason, p.pod_reason)) return false;
  bool container = p.container_reason || p.min_code || p.max_code;
  if (!container) return true;
  // A container pattern needs a terminated container.
  if (!pod.exit_code) return false;
  if (p.container_reason && !re2::RE2::PartialMatch(pod.container_reason, p.container_reason))
    return false;
  if (p.min_code && *pod.exit_code < *p.min_code) return false;
  if (p.max_code && *pod.exit_code > *p.max_code) return false;
  return true;
}

CompletionStatus Known(int64_t code) {
  for (const CompletionStatus& c : KnownCompletionCodes())
    if (c.code == code) return c;
  return {};
}

}  // namespace

bool ParsePodFailure(std::string_view text, PodFailure* out, std::string* error) {
  if (text.rfind("pod=", 0) == 0) {
    out->pod_reason = std::string(text.substr(4));
    if (!out->pod_reason.empty()) return true;
  } else if (text.rfind("exit=", 0) == 0) {
    std::string_view rest = text.substr(5);
    size_t slash = rest.find('/');
    std::string_view number = rest.substr(0, slash);
    int64_t code = 0;
    auto [p, ec] = std::from_chars(number.data(), number.data() + number.size(), code);
    if (ec == std::errc() && p == number.data() + number.size() && !number.empty() && code != 0) {
      out->exit_code = code;
      if (slash != std::string_view::npos)
        out->container_reason = std::string(rest.substr(slash + 1));
      return true;
    }
  }
  *error = "'" + std::string(text) +
           "': want exit=CODE[/REASON] (a non-zero container exit code) or pod=REASON";
  return false;
}

CompletionStatus ClassifyPodFailure(const PodFailure& pod) {
  for (const CodeRule& rule : Rules()) {
    for (const Pattern& p : rule.patterns) {
      if (Matches(p, pod)) return Known(rule.code);
    }
  }
  if (pod.exit_code) {
    return CompletionStatus{*pod.exit_code, "ContainerUnrecognizedFailed",
                            CompletionType{false, false, false, false}};
  }
  return Known(-300);
}

}  // namespace jobset
