#include "validation/k8s/pod_security.h"

#include "validation/core/k8s_names.h"
#include "validation/core/strings.h"
#include "validation/k8s/rules.h"

namespace jobset::pod {
namespace {

// validation.InclusiveRangeError(0, math.MaxInt32), the range of IsValidUserID/IsValidGroupID.
constexpr char kIdRange[] = "must be between 0 and 2147483647, inclusive";
constexpr int64_t kMaxId = 2147483647;

// A user or group id (IsValidUserID, IsValidGroupID).
void Id(PodCheck& pc, const Node& sc, const char* key, const std::string& at) {
  if (const Node* id = Int(sc, key); id && (id->integer < 0 || id->integer > kMaxId)) {
    Add(pc, kChildSecurityContext, at + "." + key, kInvalid, std::to_string(id->integer), kIdRange);
  }
}

// validateSeccompProfileField.
void Seccomp(PodCheck& pc, const Node& sc, const std::string& at) {
  const Node* sp = Present(sc, "seccompProfile");
  if (!sp || !sp->is_map()) return;
  const std::string path = at + ".seccompProfile";
  const Node* type = Str(*sp, "type");
  const std::string t = type ? type->text : "";
  if (t.empty()) {
    Add(pc, kChildSecurityContext, path + ".type", kRequired, "",
        "type is required when seccompProfile is set", PointAt::kKey);
  } else if (!OneOf(t, {"Localhost", "RuntimeDefault", "Unconfined"})) {
    Add(pc, kChildSecurityContext, path + ".type", kUnsupported, GoQuote(t),
        Supported({"Localhost", "RuntimeDefault", "Unconfined"}));
  } else if (t == "Localhost" && !Present(*sp, "localhostProfile")) {
    Add(pc, kChildSecurityContext, path + ".localhostProfile", kRequired, "",
        "must be set when seccomp type is Localhost", PointAt::kKey);
  }
}

}  // namespace

// ValidateSecurityContext: the ids, procMount and seccompProfile of a container.
void ContainerSecurityContext(PodCheck& pc, const Node& c, const std::string& at) {
  const Node* sc = Present(c, "securityContext");
  if (!sc || !sc->is_map()) return;
  const std::string path = at + ".securityContext";
  Id(pc, *sc, "runAsUser", path);
  Id(pc, *sc, "runAsGroup", path);
  if (const Node* pm = Str(*sc, "procMount")) {
    if (!OneOf(pm->text, {"Default", "Unmasked"})) {
      Add(pc, kChildSecurityContext, path + ".procMount", kUnsupported, GoQuote(pm->text),
          Supported({"Default", "Unmasked"}));
    }
    if (pc.host_users && pm->text == "Unmasked") {
      Add(pc, kChildSecurityContext, path + ".procMount", kInvalid, GoQuote(pm->text),
          "`hostUsers` must be false to use `Unmasked`");
    }
  }
  Seccomp(pc, *sc, path);
}

// validatePodSpecSecurityContext: ids, shareProcessNamespace with hostPID,
// fsGroupChangePolicy, seccompProfile. (hostPID and shareProcessNamespace are fields of the
// v1 pod spec that the internal type keeps in its security context, hence the path.)
void PodSecurityContext(PodCheck& pc, const Node& spec) {
  const std::string at = "spec.securityContext";
  const Node* sc = Present(spec, "securityContext");
  if (sc && !sc->is_map()) return;
  const Node empty;
  const Node& ctx = sc ? *sc : empty;
  Id(pc, ctx, "fsGroup", at);
  Id(pc, ctx, "runAsUser", at);
  Id(pc, ctx, "runAsGroup", at);
  if (const Node* groups = Present(ctx, "supplementalGroups"); groups && groups->is_seq()) {
    for (size_t g = 0; g < groups->items.size(); ++g) {
      const Node& id = groups->items[g];
      if (id.is_int() && (id.integer < 0 || id.integer > kMaxId)) {
        Add(pc, kChildSecurityContext, Index(at + ".supplementalGroups", g), kInvalid,
            std::to_string(id.integer), kIdRange);
      }
    }
  }
  const Node* share = Present(spec, "shareProcessNamespace");
  const Node* host_pid = Present(spec, "hostPID");
  if (share && share->is_bool() && share->text == "true" && host_pid && host_pid->is_bool() &&
      host_pid->text == "true") {
    Add(pc, kChildSecurityContext, at + ".shareProcessNamespace", kInvalid, "true",
        "ShareProcessNamespace and HostPID cannot both be enabled", PointAt::kValue,
        "spec.shareProcessNamespace");
  }
  if (const Node* p = Str(ctx, "fsGroupChangePolicy");
      p && !OneOf(p->text, {"Always", "OnRootMismatch"})) {
    Add(pc, kChildSecurityContext, at + ".fsGroupChangePolicy", kUnsupported, GoQuote(p->text),
        Supported({"Always", "OnRootMismatch"}));
  }
  Seccomp(pc, ctx, at);
}

}  // namespace jobset::pod
