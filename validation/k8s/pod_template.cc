#include "validation/k8s/pod_template.h"

#include <arpa/inet.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "validation/core/field_path.h"
#include "validation/core/k8s_names.h"
#include "validation/core/strings.h"
#include "validation/k8s/quantity.h"
#include "validation/k8s/rules.h"

namespace jobset {
namespace {

constexpr char kInvalid[] = "Invalid value";
constexpr char kRequired[] = "Required value";
constexpr char kUnsupported[] = "Unsupported value";
constexpr char kDuplicate[] = "Duplicate value";

// The string under `key` of a map, or nullptr (absent, null, or not a string).
const Node* Str(const Node& parent, std::string_view key) {
  const Node* n = parent.is_map() ? parent.Find(key) : nullptr;
  return n && n->is_string() ? n : nullptr;
}

// The value under `key`, when it is neither absent nor null.
const Node* Present(const Node& parent, std::string_view key) {
  const Node* n = parent.is_map() ? parent.Find(key) : nullptr;
  return n && !n->is_null() ? n : nullptr;
}

// "supported values: "A", "B"", as field.NotSupported renders its list.
std::string Supported(std::initializer_list<const char*> values) {
  std::string s = "supported values: ";
  bool first = true;
  for (const char* v : values) {
    s += (first ? "" : ", ") + GoQuote(v);
    first = false;
  }
  return s;
}

bool OneOf(std::string_view v, std::initializer_list<const char*> values) {
  for (const char* x : values)
    if (v == x) return true;
  return false;
}

// The integer under `key`, or nullptr.
const Node* Int(const Node& parent, std::string_view key) {
  const Node* n = parent.is_map() ? parent.Find(key) : nullptr;
  return n && n->is_int() ? n : nullptr;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// pkg/apis/core/helper: the resource name predicates of validateContainerResourceName and
// validateResourceRequirements.
bool IsHugePages(std::string_view name) { return StartsWith(name, "hugepages-"); }

bool IsStandardResourceName(std::string_view name) {
  static constexpr std::string_view kStandard[] = {"cpu",
                                                   "memory",
                                                   "ephemeral-storage",
                                                   "requests.cpu",
                                                   "requests.memory",
                                                   "requests.ephemeral-storage",
                                                   "limits.cpu",
                                                   "limits.memory",
                                                   "limits.ephemeral-storage",
                                                   "pods",
                                                   "resourcequotas",
                                                   "services",
                                                   "replicationcontrollers",
                                                   "secrets",
                                                   "configmaps",
                                                   "persistentvolumeclaims",
                                                   "storage",
                                                   "requests.storage",
                                                   "services.nodeports",
                                                   "services.loadbalancers"};
  return std::find(std::begin(kStandard), std::end(kStandard), name) != std::end(kStandard) ||
         IsHugePages(name) || StartsWith(name, "requests.hugepages-");
}

bool IsStandardContainerResourceName(std::string_view name) {
  return name == "cpu" || name == "memory" || name == "ephemeral-storage" || IsHugePages(name);
}

bool IsNativeResource(std::string_view name) {
  return name.find('/') == std::string_view::npos ||
         name.find("kubernetes.io/") != std::string_view::npos;
}

bool IsExtendedResourceName(std::string_view name) {
  if (IsNativeResource(name) || StartsWith(name, "requests.")) return false;
  return QualifiedNameErrors("requests." + std::string(name)).empty();
}

bool IsIntegerResourceName(std::string_view name) {
  static constexpr std::string_view kInteger[] = {"pods",
                                                  "resourcequotas",
                                                  "services",
                                                  "replicationcontrollers",
                                                  "secrets",
                                                  "configmaps",
                                                  "persistentvolumeclaims",
                                                  "services.nodeports",
                                                  "services.loadbalancers"};
  return std::find(std::begin(kInteger), std::end(kInteger), name) != std::end(kInteger) ||
         IsExtendedResourceName(name);
}

bool IsOvercommitAllowed(std::string_view name) {
  return IsNativeResource(name) && !IsHugePages(name);
}

// netutils.ParseIPSloppy: an IPv6 address, or four dot-separated decimal bytes (leading zeros
// allowed).
bool IsIp(const std::string& s) {
  in6_addr v6;
  if (s.find(':') != std::string::npos) return inet_pton(AF_INET6, s.c_str(), &v6) == 1;
  int parts = 0;
  size_t i = 0;
  while (i <= s.size()) {
    size_t end = s.find('.', i);
    if (end == std::string::npos) end = s.size();
    const std::string part = s.substr(i, end - i);
    if (part.empty() || part.size() > 3 ||
        !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoi(part) > 255) {
      return false;
    }
    ++parts;
    i = end + 1;
  }
  return parts == 4;
}

// validation.InclusiveRangeError(0, math.MaxInt32), the range of IsValidUserID/IsValidGroupID.
constexpr char kIdRange[] = "must be between 0 and 2147483647, inclusive";
constexpr int64_t kMaxId = 2147483647;

class Validator {
 public:
  Validator(const PodTemplateOptions& options, std::vector<FieldError>* out)
      : options_(options), out_(out) {}

  // ValidatePodTemplateSpec: the template's labels and annotations (paths "labels" and
  // "annotations", as upstream names them: the PodTemplateSpec embeds its ObjectMeta).
  void Metadata(const Node& tmpl) {
    const Node* md = Present(tmpl, "metadata");
    if (!md || !md->is_map()) return;
    if (const Node* labels = Present(*md, "labels"); labels && labels->is_map()) {
      Labels(*labels, kChildTemplateMetadata, "labels", "metadata.labels");
    }
    if (const Node* annotations = Present(*md, "annotations");
        annotations && annotations->is_map()) {
      size_t total = 0;
      for (const MapEntry& e : annotations->entries) {
        total += e.key.size() + (e.value.is_string() ? e.value.text.size() : 0);
        if (Skip(e.key)) continue;
        // Annotation keys are qualified names once lower-cased.
        std::string lower = e.key;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        for (const std::string& err : QualifiedNameErrors(lower))
          Add(kChildTemplateMetadata, "annotations", kInvalid, GoQuote(e.key), err, PointAt::kKey,
              Key("metadata.annotations", e.key));
      }
      if (total > 262144) {
        Add(kChildTemplateMetadata, "annotations", "Too long", "",
            "may not be more than 262144 bytes", PointAt::kKey, "metadata.annotations");
      }
    }
  }

  void Spec(const Node& spec) {
    if (const Node* g = Int(spec, "terminationGracePeriodSeconds")) grace_ = g->integer;
    if (const Node* hu = Present(spec, "hostUsers"); hu && hu->is_bool()) {
      host_users_ = hu->text == "true";
    }
    std::set<std::string> volumes = Volumes(spec);
    for (const std::string& v : options_.added_volumes) volumes.insert(v);
    const Node* containers = Present(spec, "containers");
    if (!containers || (containers->is_seq() && containers->items.empty())) {
      Add(kChildContainersRequired, "spec.containers", kRequired, "", "", PointAt::kKey);
    }
    // Container names are unique across containers and init containers (an init container
    // may not reuse a container's name or an earlier init container's).
    std::set<std::string> names;
    for (const char* list : {"containers", "initContainers"}) {
      const Node* cs = Present(spec, list);
      if (!cs || !cs->is_seq()) continue;
      for (size_t i = 0; i < cs->items.size(); ++i) {
        Container(cs->items[i], Index(std::string("spec.") + list, i), volumes, &names,
                  std::string_view(list) == "initContainers");
      }
    }
    // Pod level.
    if (const Node* rp = Str(spec, "restartPolicy");
        rp && !rp->text.empty() && !OneOf(rp->text, {"Always", "OnFailure", "Never"})) {
      Add(kChildRestartPolicy, "spec.restartPolicy", kUnsupported, GoQuote(rp->text),
          Supported({"Always", "OnFailure", "Never"}));
    }
    if (const Node* dp = Str(spec, "dnsPolicy");
        dp && !dp->text.empty() &&
        !OneOf(dp->text, {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"})) {
      Add(kChildDnsPolicy, "spec.dnsPolicy", kUnsupported, GoQuote(dp->text),
          Supported({"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}));
    }
    NodeSelector(spec);
    PodSecurityContext(spec);
    if (const Node* affinity = Present(spec, "affinity"); affinity && affinity->is_map()) {
      Affinity(*affinity);
    }
    DnsConfig(spec);
    TopologySpread(spec);
    if (const Node* ts = Present(spec, "tolerations"); ts && ts->is_seq()) {
      for (size_t k = 0; k < ts->items.size(); ++k)
        Toleration(ts->items[k], Index("spec.tolerations", k));
    }
  }

 private:
  bool Skip(std::string_view s) const {
    return options_.placeholders && s.find("{{") != std::string_view::npos;
  }

  void Add(RuleId rule, std::string path, std::string type, std::string value, std::string detail,
           PointAt at = PointAt::kValue, std::string locate = "") {
    out_->push_back({rule, std::move(path), std::move(type), std::move(value), std::move(detail),
                     at, std::move(locate)});
  }

  // validateVolumes: names (required, DNS-1123 label, unique); the names mounts may use.
  std::set<std::string> Volumes(const Node& spec) {
    std::set<std::string> names;
    const Node* vs = Present(spec, "volumes");
    if (!vs || !vs->is_seq()) return names;
    for (size_t k = 0; k < vs->items.size(); ++k) {
      const Node* name = Str(vs->items[k], "name");
      if (!name) continue;
      std::string path = Index("spec.volumes", k) + ".name";
      if (name->text.empty()) {
        Add(kChildVolumeName, path, kRequired, "", "");
      } else if (!Skip(name->text)) {
        for (const std::string& e : DNS1123LabelErrors(name->text))
          Add(kChildVolumeName, path, kInvalid, GoQuote(name->text), e);
      }
      if (!names.insert(name->text).second && options_.duplicates && !name->text.empty()) {
        Add(kChildVolumeName, path, kDuplicate, GoQuote(name->text), "");
      }
    }
    return names;
  }

  // validateContainerCommon, then the name's uniqueness and the handlers (validateContainers,
  // validateInitContainers), in upstream's order.
  void Container(const Node& c, const std::string& at, const std::set<std::string>& volumes,
                 std::set<std::string>* names, bool init) {
    if (!c.is_map()) return;
    const Node* name = Str(c, "name");
    if (name && name->text.empty()) {
      Add(kChildContainerName, at + ".name", kRequired, "", "");
    } else if (name && !Skip(name->text)) {
      for (const std::string& e : DNS1123LabelErrors(name->text))
        Add(kChildContainerName, at + ".name", kInvalid, GoQuote(name->text), e);
    }
    // Absent, null or "" (another type is the schema's to report).
    if (const Node* image = Present(c, "image");
        !image || (image->is_string() && image->text.empty())) {
      Add(kChildImage, at + ".image", kRequired, "", "");
    }
    if (const Node* p = Str(c, "terminationMessagePolicy");
        p && !p->text.empty() && !OneOf(p->text, {"File", "FallbackToLogsOnError"})) {
      Add(kChildTerminationMessagePolicy, at + ".terminationMessagePolicy", kUnsupported,
          GoQuote(p->text), Supported({"File", "FallbackToLogsOnError"}));
    }
    Ports(c, at);
    Env(c, at);
    Mounts(c, at, volumes);
    if (const Node* p = Str(c, "imagePullPolicy");
        p && !p->text.empty() && !OneOf(p->text, {"Always", "IfNotPresent", "Never"})) {
      Add(kChildImagePullPolicy, at + ".imagePullPolicy", kUnsupported, GoQuote(p->text),
          Supported({"Always", "IfNotPresent", "Never"}));
    }
    Resources(c, at);
    ContainerSecurityContext(c, at);
    if (name && !name->text.empty() && !names->insert(name->text).second && options_.duplicates) {
      Add(kChildContainerName, at + ".name", kDuplicate, GoQuote(name->text), "");
    }
    // An init container takes hooks and probes only as a sidecar (restartPolicy Always).
    const Node* restart = Str(c, "restartPolicy");
    if (init && !(restart && restart->text == "Always")) {
      for (const char* field : {"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"}) {
        if (Present(c, field)) {
          Add(kChildProbeSettings, at + "." + field, "Forbidden", "",
              "may not be set for init containers without restartPolicy=Always", PointAt::kKey);
        }
      }
      return;
    }
    if (const Node* l = Present(c, "lifecycle"); l && l->is_map()) {
      for (const char* hook : {"postStart", "preStop"}) {
        if (const Node* h = Present(*l, hook); h && h->is_map())
          Handler(*h, at + ".lifecycle." + hook, {"exec", "httpGet", "tcpSocket", "sleep"});
      }
    }
    for (const char* probe : {"livenessProbe", "readinessProbe", "startupProbe"}) {
      if (const Node* p = Present(c, probe); p && p->is_map()) Probe(*p, at + "." + probe, probe);
    }
  }

  // validateProbe, then validateLivenessProbe / validateReadinessProbe / validateStartupProbe.
  // A zero period, timeout or threshold is defaulted (SetDefaults_Probe) and not reported.
  void Probe(const Node& p, const std::string& at, std::string_view kind) {
    Handler(p, at, {"exec", "httpGet", "tcpSocket", "grpc"});
    for (const char* f : {"initialDelaySeconds", "timeoutSeconds", "periodSeconds",
                          "successThreshold", "failureThreshold"}) {
      if (const Node* n = Int(p, f); n && n->integer < 0) {
        Add(kChildProbeSettings, at + "." + f, kInvalid, std::to_string(n->integer),
            "must be greater than or equal to 0");
      }
    }
    const Node* grace = Int(p, "terminationGracePeriodSeconds");
    if (grace && grace->integer <= 0) {
      Add(kChildProbeSettings, at + ".terminationGracePeriodSeconds", kInvalid,
          std::to_string(grace->integer), "must be greater than 0");
    }
    if (kind == "readinessProbe") {
      if (grace) {
        Add(kChildProbeSettings, at + ".terminationGracePeriodSeconds", kInvalid,
            std::to_string(grace->integer), "must not be set for readinessProbes");
      }
    } else if (const Node* st = Int(p, "successThreshold");
               st && st->integer != 0 && st->integer != 1) {
      Add(kChildProbeSettings, at + ".successThreshold", kInvalid, std::to_string(st->integer),
          "must be 1");
    }
  }

  // validateExecAction, validateHTTPGetAction, validateTCPSocketAction, validateGRPCAction,
  // validateSleepAction: the one handler a probe or hook sets.
  void Action(std::string_view kind, const Node& a, const std::string& at) {
    if (!a.is_map()) return;
    if (kind == "exec") {
      const Node* command = Present(a, "command");
      if (!command || (command->is_seq() && command->items.empty())) {
        Add(kChildProbeSettings, at + ".command", kRequired, "", "", PointAt::kKey);
      }
    } else if (kind == "httpGet" || kind == "tcpSocket" || kind == "grpc") {
      // ValidatePortNumOrName (a gRPC port is a number).
      if (const Node* port = Present(a, "port"); port && port->is_int()) {
        if (port->integer < 1 || port->integer > 65535) {
          Add(kChildProbeSettings, at + ".port", kInvalid, std::to_string(port->integer),
              "must be between 1 and 65535, inclusive");
        }
      } else if (port && port->is_string() && kind != "grpc" && !Skip(port->text)) {
        for (const std::string& e : PortNameErrors(port->text))
          Add(kChildProbeSettings, at + ".port", kInvalid, GoQuote(port->text), e);
      }
      if (const Node* scheme = Str(a, "scheme"); kind == "httpGet" && scheme &&
                                                 !scheme->text.empty() &&
                                                 !OneOf(scheme->text, {"HTTP", "HTTPS"})) {
        Add(kChildProbeSettings, at + ".scheme", kUnsupported, GoQuote(scheme->text),
            Supported({"HTTP", "HTTPS"}));
      }
    } else if (kind == "sleep") {
      const Node* seconds = Int(a, "seconds");
      if (!seconds) return;
      const int64_t s = seconds->integer;
      const std::string g = std::to_string(grace_);
      if (options_.zero_sleep && (s < 0 || s > grace_)) {
        Add(kChildProbeSettings, at, kInvalid, std::to_string(s),
            "must be non-negative and less than terminationGracePeriodSeconds (" + g + ")",
            PointAt::kValue, at + ".seconds");
      } else if (!options_.zero_sleep && (s <= 0 || s > grace_)) {
        Add(kChildProbeSettings, at, kInvalid, std::to_string(s),
            "must be greater than 0 and less than terminationGracePeriodSeconds (" + g +
                "). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.",
            PointAt::kValue, at + ".seconds");
      }
    }
  }

  // ValidateContainerResourceRequirements (validateResourceRequirements with
  // validateContainerResourceName): names, quantities, requests against limits. Map entries
  // are checked in document order (upstream walks Go maps, in random order).
  void Resources(const Node& c, const std::string& at) {
    const Node* r = Present(c, "resources");
    if (!r || !r->is_map()) return;
    const std::string base = at + ".resources";
    const Node* limits = Present(*r, "limits");
    const Node* requests = Present(*r, "requests");
    if (limits && !limits->is_map()) limits = nullptr;
    if (requests && !requests->is_map()) requests = nullptr;
    static const std::vector<MapEntry> kNoEntries;
    std::map<std::string, Quantity> limit_values;
    bool cpu_or_memory = false, hugepages = false;
    for (const MapEntry& e : limits ? limits->entries : kNoEntries) {
      const std::string path = Key(base + ".limits", e.key);
      ResourceName(e.key, path);
      std::optional<Quantity> q = ResourceQuantity(e.key, e.value, path);
      if (q) limit_values[e.key] = *q;
      if (IsHugePages(e.key)) {
        hugepages = true;
        if (q) HugePageValue(e.key, *q, path);
      }
      cpu_or_memory = cpu_or_memory || e.key == "cpu" || e.key == "memory";
    }
    for (const MapEntry& e : requests ? requests->entries : kNoEntries) {
      const std::string path = Key(base + ".requests", e.key);
      ResourceName(e.key, path);
      std::optional<Quantity> q = ResourceQuantity(e.key, e.value, path);
      auto limit = limit_values.find(e.key);
      if (limit != limit_values.end() && q) {
        const int cmp = Compare(*q, limit->second);
        const std::string bound = e.key + " limit of " + QuantityString(limit->second);
        if (cmp != 0 && !IsOvercommitAllowed(e.key)) {
          Add(kChildResourceLimit, base + ".requests", kInvalid, GoQuote(QuantityString(*q)),
              "must be equal to " + bound, PointAt::kValue, path);
        } else if (cmp > 0) {
          Add(kChildResourceLimit, base + ".requests", kInvalid, GoQuote(QuantityString(*q)),
              "must be less than or equal to " + bound, PointAt::kValue, path);
        }
      } else if (!(limits && limits->Find(e.key)) && !IsOvercommitAllowed(e.key)) {
        Add(kChildResourceLimit, base + ".limits", kRequired, "",
            "Limit must be set for non overcommitable resources", PointAt::kKey, path);
      }
      if (IsHugePages(e.key)) {
        hugepages = true;
        if (q) HugePageValue(e.key, *q, path);
      }
      cpu_or_memory = cpu_or_memory || e.key == "cpu" || e.key == "memory";
    }
    if (hugepages && !cpu_or_memory) {
      Add(kChildResourceLimit, base, "Forbidden", "", "HugePages require cpu or memory",
          PointAt::kKey);
    }
  }

  // validateContainerResourceName.
  void ResourceName(const std::string& name, const std::string& path) {
    if (Skip(name)) return;
    const std::vector<std::string> errs = QualifiedNameErrors(name);
    for (const std::string& e : errs)
      Add(kChildResourceName, path, kInvalid, GoQuote(name), e, PointAt::kKey);
    const bool qualified = name.find('/') != std::string::npos;
    if (errs.empty() && !qualified && !IsStandardResourceName(name)) {
      Add(kChildResourceName, path, kInvalid, GoQuote(name),
          "must be a standard resource type or fully qualified", PointAt::kKey);
    }
    if (!qualified) {
      if (!IsStandardContainerResourceName(name)) {
        Add(kChildResourceName, path, kInvalid, GoQuote(name),
            "must be a standard resource for containers", PointAt::kKey);
      }
    } else if (!IsNativeResource(name) && !IsExtendedResourceName(name)) {
      Add(kChildResourceName, path, kInvalid, GoQuote(name),
          "doesn't follow extended resource name standard", PointAt::kKey);
    }
  }

  // The quantity of a resource (ValidateResourceQuantityValue: not negative, whole for
  // extended resources), or nullopt when it is not one.
  std::optional<Quantity> ResourceQuantity(const std::string& name, const Node& v,
                                           const std::string& path) {
    std::string text;
    if (v.is_int()) {
      text = std::to_string(v.integer);
    } else if (v.is_number() || v.is_string()) {
      text = v.text;
    } else {
      return std::nullopt;  // The schema reports the type.
    }
    if (Skip(text)) return std::nullopt;
    ParsedQuantity parsed = ParseQuantity(text);
    if (!parsed.value) {
      if (options_.quantity_syntax)
        Add(kChildResourceQuantity, path, kInvalid, GoQuote(text), parsed.error);
      return std::nullopt;
    }
    const Quantity& q = *parsed.value;
    if (Compare(q, Quantity{}) < 0) {
      Add(kChildResourceQuantity, path, kInvalid, GoQuote(QuantityString(q)),
          "must be greater than or equal to 0");
    }
    if (IsIntegerResourceName(name) && !IsWholeNumber(q)) {
      Add(kChildResourceQuantity, path, kInvalid, GoQuote(QuantityString(q)), "must be an integer");
    }
    return q;
  }

  // validateResourceQuantityHugePageValue: a whole number of pages of the name's size.
  void HugePageValue(const std::string& name, const Quantity& q, const std::string& path) {
    ParsedQuantity page = ParseQuantity(name.substr(std::string_view("hugepages-").size()));
    bool divisible = false;
    if (page.value && Compare(*page.value, Quantity{}) > 0 && IsWholeNumber(*page.value)) {
      std::optional<int64_t> v = IntegerValue(q), size = IntegerValue(*page.value);
      divisible = v && size && *size > 0 && *v % *size == 0;
    }
    if (!divisible) {
      const std::string text = QuantityString(q);
      Add(kChildResourceQuantity, path, kInvalid, GoQuote(text),
          text + " is not positive integer multiple of " + name);
    }
  }

  // A user or group id (IsValidUserID, IsValidGroupID).
  void Id(const Node& sc, const char* key, const std::string& at) {
    if (const Node* id = Int(sc, key); id && (id->integer < 0 || id->integer > kMaxId)) {
      Add(kChildSecurityContext, at + "." + key, kInvalid, std::to_string(id->integer), kIdRange);
    }
  }

  // validateSeccompProfileField.
  void Seccomp(const Node& sc, const std::string& at) {
    const Node* sp = Present(sc, "seccompProfile");
    if (!sp || !sp->is_map()) return;
    const std::string path = at + ".seccompProfile";
    const Node* type = Str(*sp, "type");
    const std::string t = type ? type->text : "";
    if (t.empty()) {
      Add(kChildSecurityContext, path + ".type", kRequired, "",
          "type is required when seccompProfile is set", PointAt::kKey);
    } else if (!OneOf(t, {"Localhost", "RuntimeDefault", "Unconfined"})) {
      Add(kChildSecurityContext, path + ".type", kUnsupported, GoQuote(t),
          Supported({"Localhost", "RuntimeDefault", "Unconfined"}));
    } else if (t == "Localhost" && !Present(*sp, "localhostProfile")) {
      Add(kChildSecurityContext, path + ".localhostProfile", kRequired, "",
          "must be set when seccomp type is Localhost", PointAt::kKey);
    }
  }

  // ValidateSecurityContext: the ids, procMount and seccompProfile of a container.
  void ContainerSecurityContext(const Node& c, const std::string& at) {
    const Node* sc = Present(c, "securityContext");
    if (!sc || !sc->is_map()) return;
    const std::string path = at + ".securityContext";
    Id(*sc, "runAsUser", path);
    Id(*sc, "runAsGroup", path);
    if (const Node* pm = Str(*sc, "procMount")) {
      if (!OneOf(pm->text, {"Default", "Unmasked"})) {
        Add(kChildSecurityContext, path + ".procMount", kUnsupported, GoQuote(pm->text),
            Supported({"Default", "Unmasked"}));
      }
      if (host_users_ && pm->text == "Unmasked") {
        Add(kChildSecurityContext, path + ".procMount", kInvalid, GoQuote(pm->text),
            "`hostUsers` must be false to use `Unmasked`");
      }
    }
    Seccomp(*sc, path);
  }

  // validatePodSpecSecurityContext: ids, shareProcessNamespace with hostPID,
  // fsGroupChangePolicy, seccompProfile. (hostPID and shareProcessNamespace are fields of the
  // v1 pod spec that the internal type keeps in its security context, hence the path.)
  void PodSecurityContext(const Node& spec) {
    const std::string at = "spec.securityContext";
    const Node* sc = Present(spec, "securityContext");
    if (sc && !sc->is_map()) return;
    const Node empty;
    const Node& ctx = sc ? *sc : empty;
    Id(ctx, "fsGroup", at);
    Id(ctx, "runAsUser", at);
    Id(ctx, "runAsGroup", at);
    if (const Node* groups = Present(ctx, "supplementalGroups"); groups && groups->is_seq()) {
      for (size_t g = 0; g < groups->items.size(); ++g) {
        const Node& id = groups->items[g];
        if (id.is_int() && (id.integer < 0 || id.integer > kMaxId)) {
          Add(kChildSecurityContext, Index(at + ".supplementalGroups", g), kInvalid,
              std::to_string(id.integer), kIdRange);
        }
      }
    }
    const Node* share = Present(spec, "shareProcessNamespace");
    const Node* host_pid = Present(spec, "hostPID");
    if (share && share->is_bool() && share->text == "true" && host_pid && host_pid->is_bool() &&
        host_pid->text == "true") {
      Add(kChildSecurityContext, at + ".shareProcessNamespace", kInvalid, "true",
          "ShareProcessNamespace and HostPID cannot both be enabled", PointAt::kValue,
          "spec.shareProcessNamespace");
    }
    if (const Node* p = Str(ctx, "fsGroupChangePolicy");
        p && !OneOf(p->text, {"Always", "OnRootMismatch"})) {
      Add(kChildSecurityContext, at + ".fsGroupChangePolicy", kUnsupported, GoQuote(p->text),
          Supported({"Always", "OnRootMismatch"}));
    }
    Seccomp(ctx, at);
  }

  // validatePodDNSConfig: None needs a config with a nameserver; at most 3 nameservers, IP
  // addresses; at most 32 search domains of 2048 characters in all; option names. (The search
  // domains' own grammar, relaxed by a feature gate, is not checked.)
  void DnsConfig(const Node& spec) {
    const std::string at = "spec.dnsConfig";
    const Node* dp = Str(spec, "dnsPolicy");
    const Node* dc = Present(spec, "dnsConfig");
    if (dc && !dc->is_map()) return;
    const Node* ns = dc ? Present(*dc, "nameservers") : nullptr;
    const size_t n_ns = ns && ns->is_seq() ? ns->items.size() : 0;
    if (dp && dp->text == "None") {
      if (!dc) {
        Add(kChildDnsPolicy, at, kRequired, "", "must provide `dnsConfig` when `dnsPolicy` is None",
            PointAt::kKey);
        return;
      }
      if (n_ns == 0) {
        Add(kChildDnsPolicy, at + ".nameservers", kRequired, "",
            "must provide at least one DNS nameserver when `dnsPolicy` is None", PointAt::kKey);
        return;
      }
    }
    if (!dc) return;
    if (n_ns > 3) {
      Add(kChildDnsPolicy, at + ".nameservers", kInvalid, CompactJson(*ns),
          "must not have more than 3 nameservers");
    }
    for (size_t i = 0; i < n_ns; ++i) {
      const Node& ip = ns->items[i];
      if (ip.is_string() && !Skip(ip.text) && !IsIp(ip.text)) {
        Add(kChildDnsPolicy, Index(at + ".nameservers", i), kInvalid, GoQuote(ip.text),
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
      }
    }
    if (const Node* searches = Present(*dc, "searches"); searches && searches->is_seq()) {
      size_t chars = 0;
      for (const Node& d : searches->items) chars += (chars ? 1 : 0) + d.text.size();
      if (searches->items.size() > 32) {
        Add(kChildDnsPolicy, at + ".searches", kInvalid, CompactJson(*searches),
            "must not have more than 32 search paths");
      }
      if (chars > 2048) {
        Add(kChildDnsPolicy, at + ".searches", kInvalid, CompactJson(*searches),
            "must not have more than 2048 characters (including spaces) in the search list");
      }
    }
    if (const Node* options = Present(*dc, "options"); options && options->is_seq()) {
      for (size_t i = 0; i < options->items.size(); ++i) {
        const Node* name = Str(options->items[i], "name");
        if (options->items[i].is_map() && (!name || name->text.empty())) {
          Add(kChildDnsPolicy, Index(at + ".options", i), kRequired, "", "must not be empty",
              PointAt::kKey);
        }
      }
    }
  }

  // validateTopologySpreadConstraints (without matchLabelKeys, whose rules depend on feature
  // gates).
  void TopologySpread(const Node& spec) {
    const Node* tscs = Present(spec, "topologySpreadConstraints");
    if (!tscs || !tscs->is_seq()) return;
    for (size_t i = 0; i < tscs->items.size(); ++i) {
      const Node& c = tscs->items[i];
      if (!c.is_map()) continue;
      const std::string at = Index("spec.topologySpreadConstraints", i);
      if (const Node* skew = Int(c, "maxSkew"); skew && skew->integer <= 0) {
        Add(kChildTopologySpread, at + ".maxSkew", kInvalid, std::to_string(skew->integer),
            "must be greater than zero");
      }
      const Node* key = Str(c, "topologyKey");
      if (key && key->text.empty()) {
        Add(kChildTopologySpread, at + ".topologyKey", kRequired, "", "can not be empty");
      }
      const Node* when = Str(c, "whenUnsatisfiable");
      const std::string w = when ? when->text : "";
      if (when && !OneOf(w, {"DoNotSchedule", "ScheduleAnyway"})) {
        Add(kChildTopologySpread, at + ".whenUnsatisfiable", kUnsupported, GoQuote(w),
            Supported({"DoNotSchedule", "ScheduleAnyway"}));
      }
      // ValidateSpreadConstraintNotRepeat: the first of a repeated pair is reported. The JobSet
      // CRD keys the list by the pair, and rejects the repeat itself.
      for (size_t j = i + 1; key && when && options_.duplicates && j < tscs->items.size(); ++j) {
        const Node* k2 = Str(tscs->items[j], "topologyKey");
        const Node* w2 = Str(tscs->items[j], "whenUnsatisfiable");
        if (k2 && w2 && k2->text == key->text && w2->text == w) {
          Add(kChildTopologySpread, at + ".{topologyKey, whenUnsatisfiable}", kDuplicate,
              GoQuote("{" + key->text + ", " + w + "}"), "", PointAt::kValue, at);
          break;
        }
      }
      if (const Node* min = Int(c, "minDomains")) {
        if (min->integer <= 0) {
          Add(kChildTopologySpread, at + ".minDomains", kInvalid, std::to_string(min->integer),
              "must be greater than zero");
        }
        if (w != "DoNotSchedule") {
          Add(kChildTopologySpread, at + ".minDomains", kInvalid, std::to_string(min->integer),
              "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " + w);
        }
      }
      for (const char* policy : {"nodeAffinityPolicy", "nodeTaintsPolicy"}) {
        if (const Node* p = Str(c, policy); p && !OneOf(p->text, {"Honor", "Ignore"})) {
          Add(kChildTopologySpread, at + "." + policy, kUnsupported, GoQuote(p->text),
              Supported({"Honor", "Ignore"}));
        }
      }
      if (const Node* sel = Present(c, "labelSelector"); sel && sel->is_map())
        LabelSelector(*sel, at + ".labelSelector", kChildTopologySpread);
    }
  }

  // ValidateLabels: each key a qualified name, each value a label value; errors name `field`
  // and point at the entry (`at`.KEY).
  void Labels(const Node& map, RuleId rule, const std::string& field, const std::string& at) {
    for (const MapEntry& e : map.entries) {
      const std::string where = Key(at, e.key);
      if (!Skip(e.key)) {
        for (const std::string& err : QualifiedNameErrors(e.key))
          Add(rule, field, kInvalid, GoQuote(e.key), err, PointAt::kKey, where);
      }
      if (e.value.is_string() && !Skip(e.value.text)) {
        for (const std::string& err : LabelValueErrors(e.value.text))
          Add(rule, field, kInvalid, GoQuote(e.value.text), err, PointAt::kValue, where);
      }
    }
  }

  // ValidateLabels on spec.nodeSelector: errors name the map, and point at the entry.
  void NodeSelector(const Node& spec) {
    const Node* ns = Present(spec, "nodeSelector");
    if (!ns || !ns->is_map()) return;
    Labels(*ns, kChildNodeSelector, "spec.nodeSelector", "spec.nodeSelector");
  }

  // validateAffinity: node affinity, pod affinity, pod anti-affinity.
  void Affinity(const Node& affinity) {
    const std::string at = "spec.affinity";
    if (const Node* na = Present(affinity, "nodeAffinity"); na && na->is_map()) {
      const std::string path = at + ".nodeAffinity";
      if (const Node* req = Present(*na, "requiredDuringSchedulingIgnoredDuringExecution");
          req && req->is_map()) {
        // ValidateNodeSelector.
        const std::string terms_path =
            path + ".requiredDuringSchedulingIgnoredDuringExecution" + ".nodeSelectorTerms";
        const Node* terms = Present(*req, "nodeSelectorTerms");
        if (!terms || (terms->is_seq() && terms->items.empty())) {
          Add(kChildNodeAffinity, terms_path, kRequired, "",
              "must have at least one node selector term", PointAt::kKey);
        } else if (terms->is_seq()) {
          for (size_t i = 0; i < terms->items.size(); ++i)
            NodeSelectorTerm(terms->items[i], Index(terms_path, i), false);
        }
      }
      if (const Node* pref = Present(*na, "preferredDuringSchedulingIgnoredDuringExecution");
          pref && pref->is_seq()) {
        // ValidatePreferredSchedulingTerms: invalid label values are allowed here.
        const std::string pref_path = path + ".preferredDuringSchedulingIgnoredDuringExecution";
        for (size_t i = 0; i < pref->items.size(); ++i) {
          const Node& term = pref->items[i];
          Weight(term, Index(pref_path, i), kChildNodeAffinity);
          if (const Node* p = Present(term, "preference"); p && p->is_map())
            NodeSelectorTerm(*p, Index(pref_path, i) + ".preference", true);
        }
      }
    }
    for (const char* kind : {"podAffinity", "podAntiAffinity"}) {
      const Node* pa = Present(affinity, kind);
      if (!pa || !pa->is_map()) continue;
      const std::string path = at + "." + kind;
      if (const Node* req = Present(*pa, "requiredDuringSchedulingIgnoredDuringExecution");
          req && req->is_seq()) {
        for (size_t i = 0; i < req->items.size(); ++i) {
          PodAffinityTerm(req->items[i],
                          Index(path + ".requiredDuringSchedulingIgnoredDuringExecution", i));
        }
      }
      if (const Node* pref = Present(*pa, "preferredDuringSchedulingIgnoredDuringExecution");
          pref && pref->is_seq()) {
        for (size_t i = 0; i < pref->items.size(); ++i) {
          const std::string term_path =
              Index(path + ".preferredDuringSchedulingIgnoredDuringExecution", i);
          Weight(pref->items[i], term_path, kChildPodAffinity);
          if (const Node* t = Present(pref->items[i], "podAffinityTerm"); t && t->is_map())
            PodAffinityTerm(*t, term_path + ".podAffinityTerm");
        }
      }
    }
  }

  void Weight(const Node& term, const std::string& at, RuleId rule) {
    if (const Node* w = Int(term, "weight"); w && (w->integer <= 0 || w->integer > 100)) {
      Add(rule, at + ".weight", kInvalid, std::to_string(w->integer), "must be in the range 1-100");
    }
  }

  // One requirement of a selector's matchExpressions: ValidateNodeSelectorRequirement when
  // `numeric_operators` (Gt and Lt take one value), else metav1's
  // ValidateLabelSelectorRequirement (Gt and Lt are not operators). The values are label values
  // when `check_values`.
  void SelectorRequirement(const Node& rq, const std::string& path, RuleId rule,
                           bool numeric_operators, bool check_values) {
    if (!rq.is_map()) return;
    const Node* op_node = Str(rq, "operator");
    const std::string op = op_node ? op_node->text : "";
    const Node* values = Present(rq, "values");
    const size_t n = values && values->is_seq() ? values->items.size() : 0;
    if (op == "In" || op == "NotIn") {
      if (n == 0) {
        Add(rule, path + ".values", kRequired, "",
            "must be specified when `operator` is 'In' or 'NotIn'", PointAt::kKey);
      }
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (n > 0) {
        Add(rule, path + ".values", "Forbidden", "",
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", PointAt::kKey);
      }
    } else if (numeric_operators && (op == "Gt" || op == "Lt")) {
      if (n != 1) {
        Add(rule, path + ".values", kRequired, "",
            "must be specified single value when `operator` is 'Lt' or 'Gt'", PointAt::kKey);
      }
    } else {
      Add(rule, path + ".operator", kInvalid, GoQuote(op), "not a valid selector operator",
          op_node ? PointAt::kValue : PointAt::kKey);
    }
    const Node* key = Str(rq, "key");
    if (key && !Skip(key->text)) {
      for (const std::string& e : QualifiedNameErrors(key->text))
        Add(rule, path + ".key", kInvalid, GoQuote(key->text), e);
    }
    if (check_values) LabelValues(values, path + ".values", rule);
  }

  // ValidateNodeSelectorTerm: matchExpressions (ValidateNodeSelectorRequirement) and matchFields
  // (ValidateNodeFieldSelectorRequirement).
  void NodeSelectorTerm(const Node& term, const std::string& at, bool allow_invalid_values) {
    if (!term.is_map()) return;
    if (const Node* exprs = Present(term, "matchExpressions"); exprs && exprs->is_seq()) {
      for (size_t j = 0; j < exprs->items.size(); ++j) {
        SelectorRequirement(exprs->items[j], Index(at + ".matchExpressions", j), kChildNodeAffinity,
                            /*numeric_operators=*/true, /*check_values=*/!allow_invalid_values);
      }
    }
    if (const Node* fields = Present(term, "matchFields"); fields && fields->is_seq()) {
      for (size_t j = 0; j < fields->items.size(); ++j) {
        const Node& rq = fields->items[j];
        if (!rq.is_map()) continue;
        const std::string path = Index(at + ".matchFields", j);
        const Node* op_node = Str(rq, "operator");
        const std::string op = op_node ? op_node->text : "";
        const Node* values = Present(rq, "values");
        const size_t n = values && values->is_seq() ? values->items.size() : 0;
        if (op == "In" || op == "NotIn") {
          if (n != 1) {
            Add(kChildNodeAffinity, path + ".values", kRequired, "",
                "must be only one value when `operator` is 'In' or 'NotIn' for node field "
                "selector",
                PointAt::kKey);
          }
        } else {
          Add(kChildNodeAffinity, path + ".operator", kInvalid, GoQuote(op),
              "not a valid selector operator", op_node ? PointAt::kValue : PointAt::kKey);
        }
        const Node* key = Str(rq, "key");
        const std::string k = key ? key->text : "";
        if (k != "metadata.name") {
          Add(kChildNodeAffinity, path + ".key", kInvalid, GoQuote(k),
              "not a valid field selector key", key ? PointAt::kValue : PointAt::kKey);
        } else if (n > 0) {
          for (size_t i = 0; i < n; ++i) {
            const Node& v = values->items[i];
            if (!v.is_string() || Skip(v.text)) continue;
            for (const std::string& e : DNS1123SubdomainErrors(v.text))
              Add(kChildNodeAffinity, Index(path + ".values", i), kInvalid, GoQuote(v.text), e);
          }
        }
      }
    }
  }

  // IsValidLabelValue on each string of `values`.
  void LabelValues(const Node* values, const std::string& at, RuleId rule) {
    if (!values || !values->is_seq()) return;
    for (size_t i = 0; i < values->items.size(); ++i) {
      const Node& v = values->items[i];
      if (!v.is_string() || Skip(v.text)) continue;
      for (const std::string& e : LabelValueErrors(v.text))
        Add(rule, Index(at, i), kInvalid, GoQuote(v.text), e);
    }
  }

  // validatePodAffinityTerm: the label and namespace selectors (ValidateLabelSelector), the
  // namespaces, and the topologyKey.
  void PodAffinityTerm(const Node& term, const std::string& at) {
    if (!term.is_map()) return;
    for (const char* selector : {"labelSelector", "namespaceSelector"}) {
      if (const Node* s = Present(term, selector); s && s->is_map())
        LabelSelector(*s, at + "." + selector, kChildPodAffinity);
    }
    if (const Node* namespaces = Present(term, "namespaces"); namespaces && namespaces->is_seq()) {
      for (const Node& ns : namespaces->items) {
        if (!ns.is_string() || Skip(ns.text)) continue;
        for (const std::string& e : DNS1123LabelErrors(ns.text))
          Add(kChildPodAffinity, at + ".namespace", kInvalid, GoQuote(ns.text), e, PointAt::kValue,
              at + ".namespaces");
      }
    }
    const Node* key = Present(term, "topologyKey");
    if (key && !key->is_string()) return;  // The schema reports the type.
    const std::string k = key ? key->text : "";
    if (Skip(k)) return;
    const PointAt point = key ? PointAt::kValue : PointAt::kKey;
    if (k.empty()) {
      Add(kChildPodAffinity, at + ".topologyKey", kRequired, "", "can not be empty", point);
    }
    for (const std::string& e : QualifiedNameErrors(k))
      Add(kChildPodAffinity, at + ".topologyKey", kInvalid, GoQuote(k), e, point);
  }

  // metav1 validation ValidateLabelSelector: matchExpressions
  // (ValidateLabelSelectorRequirement), then matchLabels (ValidateLabels).
  void LabelSelector(const Node& s, const std::string& at, RuleId rule) {
    if (const Node* exprs = Present(s, "matchExpressions"); exprs && exprs->is_seq()) {
      for (size_t j = 0; j < exprs->items.size(); ++j) {
        SelectorRequirement(exprs->items[j], Index(at + ".matchExpressions", j), rule,
                            /*numeric_operators=*/false, /*check_values=*/true);
      }
    }
    if (const Node* labels = Present(s, "matchLabels"); labels && labels->is_map()) {
      const std::string path = at + ".matchLabels";
      Labels(*labels, rule, path, path);
    }
  }

  // validateContainerPorts.
  void Ports(const Node& c, const std::string& at) {
    const Node* ports = Present(c, "ports");
    if (!ports || !ports->is_seq()) return;
    std::set<std::string> names;
    for (size_t j = 0; j < ports->items.size(); ++j) {
      const Node& port = ports->items[j];
      if (!port.is_map()) continue;
      std::string path = Index(at + ".ports", j);
      if (const Node* name = Str(port, "name"); name && !name->text.empty() && !Skip(name->text)) {
        std::vector<std::string> errs = PortNameErrors(name->text);
        for (const std::string& e : errs)
          Add(kChildPortName, path + ".name", kInvalid, GoQuote(name->text), e);
        if (errs.empty() && !names.insert(name->text).second) {
          Add(kChildPortName, path + ".name", kDuplicate, GoQuote(name->text), "");
        }
      }
      if (const Node* cp = Present(port, "containerPort"); cp && cp->is_int()) {
        if (cp->integer == 0) {
          Add(kChildContainerPort, path + ".containerPort", kRequired, "", "");
        } else if (cp->integer < 1 || cp->integer > 65535) {
          Add(kChildContainerPort, path + ".containerPort", kInvalid, std::to_string(cp->integer),
              "must be between 1 and 65535, inclusive");
        }
      }
      if (const Node* hp = Present(port, "hostPort");
          hp && hp->is_int() && hp->integer != 0 && (hp->integer < 1 || hp->integer > 65535)) {
        Add(kChildContainerPort, path + ".hostPort", kInvalid, std::to_string(hp->integer),
            "must be between 1 and 65535, inclusive");
      }
      if (const Node* p = Str(port, "protocol");
          p && !p->text.empty() && !OneOf(p->text, {"TCP", "UDP", "SCTP"})) {
        Add(kChildPortProtocol, path + ".protocol", kUnsupported, GoQuote(p->text),
            Supported({"SCTP", "TCP", "UDP"}));
      }
    }
  }

  // validateEnv: the names only.
  void Env(const Node& c, const std::string& at) {
    const Node* env = Present(c, "env");
    if (!env || !env->is_seq()) return;
    for (size_t j = 0; j < env->items.size(); ++j) {
      const Node* name = Str(env->items[j], "name");
      if (!name) continue;
      std::string path = Index(at + ".env", j) + ".name";
      if (name->text.empty()) {
        Add(kChildEnvName, path, kRequired, "", "");
        continue;
      }
      if (Skip(name->text)) continue;
      for (const std::string& e : EnvNameErrors(name->text))
        Add(kChildEnvName, path, kInvalid, GoQuote(name->text), e);
    }
  }

  std::vector<std::string> EnvNameErrors(std::string_view name) const {
    std::vector<std::string> errs;
    if (!options_.legacy_env_names) {
      for (char ch : name) {
        if (ch < 0x20 || ch > 0x7e || ch == '=') {
          errs.push_back(
              "a valid environment variable name must consist only of printable ASCII "
              "characters other than '='");
          break;
        }
      }
      return errs;
    }
    // IsEnvVarName: [-._a-zA-Z][-._a-zA-Z0-9]*, then hasChDirPrefix.
    auto alpha = [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '-' || ch == '.' ||
             ch == '_';
    };
    bool ok = !name.empty() && alpha(name[0]);
    for (char ch : name) ok = ok && (alpha(ch) || (ch >= '0' && ch <= '9'));
    if (!ok) {
      errs.push_back(
          "a valid environment variable name must consist of alphabetic characters, digits, "
          "'_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or "
          "'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is "
          "'[-._a-zA-Z][-._a-zA-Z0-9]*')");
    }
    if (name == ".") {
      errs.push_back("must not be '.'");
    } else if (name == "..") {
      errs.push_back("must not be '..'");
    } else if (name.substr(0, 2) == "..") {
      errs.push_back("must not start with '..'");
    }
    return errs;
  }

  // validateVolumeMounts: the volume exists; mountPath set and unique in the container.
  void Mounts(const Node& c, const std::string& at, const std::set<std::string>& volumes) {
    const Node* mounts = Present(c, "volumeMounts");
    if (!mounts || !mounts->is_seq()) return;
    std::set<std::string> paths;
    for (size_t j = 0; j < mounts->items.size(); ++j) {
      const Node& m = mounts->items[j];
      std::string path = Index(at + ".volumeMounts", j);
      if (const Node* name = Str(m, "name")) {
        if (name->text.empty()) {
          Add(kChildVolumeMount, path + ".name", kRequired, "", "");
        } else if (!volumes.count(name->text) && !Skip(name->text)) {
          Add(kChildVolumeMount, path + ".name", "Not found", GoQuote(name->text), "");
        }
      }
      if (const Node* mp = Str(m, "mountPath")) {
        if (mp->text.empty()) {
          Add(kChildVolumeMount, path + ".mountPath", kRequired, "", "");
        } else if (!paths.insert(mp->text).second && options_.duplicates) {
          Add(kChildVolumeMount, path + ".mountPath", kInvalid, GoQuote(mp->text),
              "must be unique");
        }
      }
    }
  }

  // validateHandler / validateLifecycleHandler: exactly one handler type.
  void Handler(const Node& h, const std::string& at, std::initializer_list<const char*> kinds) {
    int n = 0;
    for (const char* kind : kinds) {
      const Node* action = Present(h, kind);
      if (!action) continue;
      if (n++ > 0) {
        Add(kChildProbeHandler, at + "." + kind, "Forbidden", "",
            "may not specify more than 1 handler type", PointAt::kKey);
      } else {
        Action(kind, *action, at + "." + kind);
      }
    }
    if (n == 0)
      Add(kChildProbeHandler, at, kRequired, "", "must specify a handler type", PointAt::kKey);
  }

  // ValidateTolerations.
  void Toleration(const Node& t, const std::string& at) {
    if (!t.is_map()) return;
    const Node* key_node = Str(t, "key");
    const Node* op_node = Str(t, "operator");
    const Node* value_node = Str(t, "value");
    const Node* effect_node = Str(t, "effect");
    const std::string key = key_node ? key_node->text : "";
    const std::string op = op_node ? op_node->text : "";
    const std::string value = value_node ? value_node->text : "";
    const std::string effect = effect_node ? effect_node->text : "";
    if (!key.empty() && !Skip(key)) {
      for (const std::string& e : QualifiedNameErrors(key))
        Add(kChildToleration, at + ".key", kInvalid, GoQuote(key), e);
    }
    if (key.empty() && op != "Exists") {
      Add(kChildToleration, at + ".operator", kInvalid, GoQuote(op),
          "operator must be Exists when `key` is empty, which means \"match all values and all "
          "keys\"",
          op_node ? PointAt::kValue : PointAt::kKey);
    }
    const Node* seconds = Present(t, "tolerationSeconds");
    if (seconds && effect != "NoExecute") {
      Add(kChildToleration, at + ".effect", kInvalid, GoQuote(effect),
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
          effect_node ? PointAt::kValue : PointAt::kKey);
    }
    if (op.empty() || op == "Equal") {
      if (!Skip(value)) {
        std::vector<std::string> errs = LabelValueErrors(value);
        std::string joined;
        for (size_t i = 0; i < errs.size(); ++i) joined += (i ? ";" : "") + errs[i];
        if (!errs.empty()) {
          Add(kChildToleration, at + ".operator", kInvalid, GoQuote(value), joined,
              op_node ? PointAt::kValue : PointAt::kKey);
        }
      }
    } else if (op == "Exists") {
      if (!value.empty()) {
        // The whole toleration, as JSON in the field order of core.Toleration.
        std::string json = "{";
        auto field = [&](const char* name, const std::string& v) {
          if (v.empty()) return;
          json += (json.size() > 1 ? "," : "") + std::string("\"") + name + "\":" + GoQuote(v);
        };
        field("key", key);
        field("operator", op);
        field("value", value);
        field("effect", effect);
        if (seconds && seconds->is_int()) {
          json += (json.size() > 1 ? "," : "") + std::string("\"tolerationSeconds\":") +
                  std::to_string(seconds->integer);
        }
        json += "}";
        Add(kChildToleration, at + ".operator", kInvalid, json,
            "value must be empty when `operator` is 'Exists'");
      }
    } else {
      Add(kChildToleration, at + ".operator", kUnsupported, GoQuote(op),
          Supported({"Equal", "Exists"}));
    }
    if (!effect.empty() && !OneOf(effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"})) {
      Add(kChildToleration, at + ".effect", kUnsupported, GoQuote(effect),
          Supported({"NoSchedule", "PreferNoSchedule", "NoExecute"}));
    }
  }

  const PodTemplateOptions& options_;
  std::vector<FieldError>* out_;
  int64_t grace_ = 30;      ///< spec.terminationGracePeriodSeconds, defaulted.
  bool host_users_ = true;  ///< spec.hostUsers, defaulted.
};

}  // namespace

std::vector<std::string> PortNameErrors(std::string_view name) {
  std::vector<std::string> errs;
  if (name.size() > 15) errs.push_back(MaxLenError(15));
  bool charset = !name.empty(), letter = false;
  for (char ch : name) {
    charset = charset && ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-');
    letter = letter || (ch >= 'a' && ch <= 'z');
  }
  if (!charset)
    errs.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!letter) errs.push_back("must contain at least one letter (a-z)");
  if (name.find("--") != std::string_view::npos)
    errs.push_back("must not contain consecutive hyphens");
  if (!name.empty() && (name.front() == '-' || name.back() == '-'))
    errs.push_back("must not begin or end with a hyphen");
  return errs;
}

std::vector<FieldError> ValidatePodTemplateSpec(const Node& tmpl,
                                                const PodTemplateOptions& options) {
  std::vector<FieldError> out;
  if (!tmpl.is_map()) return out;
  Validator v(options, &out);
  v.Metadata(tmpl);
  const Node* spec = tmpl.Find("spec");
  if (spec && spec->is_map()) v.Spec(*spec);
  return out;
}

}  // namespace jobset
