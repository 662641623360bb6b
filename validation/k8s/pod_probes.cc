#include "validation/k8s/pod_probes.h"

#include <string_view>

#include "validation/core/k8s_names.h"
#include "validation/core/strings.h"
#include "validation/k8s/pod_template.h"
#include "validation/k8s/rules.h"

namespace jobset::pod {
namespace {

// validateExecAction, validateHTTPGetAction, validateTCPSocketAction, validateGRPCAction,
// validateSleepAction: the one handler a probe or hook sets.
void Action(PodCheck& pc, std::string_view kind, const Node& a, const std::string& at) {
  if (!a.is_map()) return;
  if (kind == "exec") {
    const Node* command = Present(a, "command");
    if (!command || (command->is_seq() && command->items.empty())) {
      Add(pc, kChildProbeSettings, at + ".command", kRequired, "", "", PointAt::kKey);
    }
  } else if (kind == "httpGet" || kind == "tcpSocket" || kind == "grpc") {
    // ValidatePortNumOrName (a gRPC port is a number).
    if (const Node* port = Present(a, "port"); port && port->is_int()) {
      if (port->integer < 1 || port->integer > 65535) {
        Add(pc, kChildProbeSettings, at + ".port", kInvalid, std::to_string(port->integer),
            "must be between 1 and 65535, inclusive");
      }
    } else if (port && port->is_string() && kind != "grpc" && !Skip(pc, port->text)) {
      for (const std::string& e : PortNameErrors(port->text))
        Add(pc, kChildProbeSettings, at + ".port", kInvalid, GoQuote(port->text), e);
    }
    if (const Node* scheme = Str(a, "scheme"); kind == "httpGet" && scheme &&
                                               !scheme->text.empty() &&
                                               !OneOf(scheme->text, {"HTTP", "HTTPS"})) {
      Add(pc, kChildProbeSettings, at + ".scheme", kUnsupported, GoQuote(scheme->text),
          Supported({"HTTP", "HTTPS"}));
    }
  } else if (kind == "sleep") {
    const Node* seconds = Int(a, "seconds");
    if (!seconds) return;
    const int64_t s = seconds->integer;
    const std::string g = std::to_string(pc.grace);
    if (pc.options.zero_sleep && (s < 0 || s > pc.grace)) {
      Add(pc, kChildProbeSettings, at, kInvalid, std::to_string(s),
          "must be non-negative and less than terminationGracePeriodSeconds (" + g + ")",
          PointAt::kValue, at + ".seconds");
    } else if (!pc.options.zero_sleep && (s <= 0 || s > pc.grace)) {
      Add(pc, kChildProbeSettings, at, kInvalid, std::to_string(s),
          "must be greater than 0 and less than terminationGracePeriodSeconds (" + g +
              "). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.",
          PointAt::kValue, at + ".seconds");
    }
  }
}

// validateHandler / validateLifecycleHandler: exactly one handler type.
void Handler(PodCheck& pc, const Node& h, const std::string& at,
             std::initializer_list<const char*> kinds) {
  int n = 0;
  for (const char* kind : kinds) {
    const Node* action = Present(h, kind);
    if (!action) continue;
    if (n++ > 0) {
      Add(pc, kChildProbeHandler, at + "." + kind, "Forbidden", "",
          "may not specify more than 1 handler type", PointAt::kKey);
    } else {
      Action(pc, kind, *action, at + "." + kind);
    }
  }
  if (n == 0)
    Add(pc, kChildProbeHandler, at, kRequired, "", "must specify a handler type", PointAt::kKey);
}

// validateProbe, then validateLivenessProbe / validateReadinessProbe / validateStartupProbe.
// A zero period, timeout or threshold is defaulted (SetDefaults_Probe) and not reported.
void Probe(PodCheck& pc, const Node& p, const std::string& at, std::string_view kind) {
  Handler(pc, p, at, {"exec", "httpGet", "tcpSocket", "grpc"});
  for (const char* f : {"initialDelaySeconds", "timeoutSeconds", "periodSeconds",
                        "successThreshold", "failureThreshold"}) {
    if (const Node* n = Int(p, f); n && n->integer < 0) {
      Add(pc, kChildProbeSettings, at + "." + f, kInvalid, std::to_string(n->integer),
          "must be greater than or equal to 0");
    }
  }
  const Node* grace = Int(p, "terminationGracePeriodSeconds");
  if (grace && grace->integer <= 0) {
    Add(pc, kChildProbeSettings, at + ".terminationGracePeriodSeconds", kInvalid,
        std::to_string(grace->integer), "must be greater than 0");
  }
  if (kind == "readinessProbe") {
    if (grace) {
      Add(pc, kChildProbeSettings, at + ".terminationGracePeriodSeconds", kInvalid,
          std::to_string(grace->integer), "must not be set for readinessProbes");
    }
  } else if (const Node* st = Int(p, "successThreshold");
             st && st->integer != 0 && st->integer != 1) {
    Add(pc, kChildProbeSettings, at + ".successThreshold", kInvalid, std::to_string(st->integer),
        "must be 1");
  }
}

}  // namespace

// The hooks and probes of container `c` at `at` (validateContainers, validateInitContainers):
// an init container takes them only as a sidecar (restartPolicy Always).
void ContainerHandlers(PodCheck& pc, const Node& c, const std::string& at, bool init) {
  const Node* restart = Str(c, "restartPolicy");
  if (init && !(restart && restart->text == "Always")) {
    for (const char* field : {"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"}) {
      if (Present(c, field)) {
        Add(pc, kChildProbeSettings, at + "." + field, "Forbidden", "",
            "may not be set for init containers without restartPolicy=Always", PointAt::kKey);
      }
    }
    return;
  }
  if (const Node* l = Present(c, "lifecycle"); l && l->is_map()) {
    for (const char* hook : {"postStart", "preStop"}) {
      if (const Node* h = Present(*l, hook); h && h->is_map())
        Handler(pc, *h, at + ".lifecycle." + hook, {"exec", "httpGet", "tcpSocket", "sleep"});
    }
  }
  for (const char* probe : {"livenessProbe", "readinessProbe", "startupProbe"}) {
    if (const Node* p = Present(c, probe); p && p->is_map()) Probe(pc, *p, at + "." + probe, probe);
  }
}

}  // namespace jobset::pod
