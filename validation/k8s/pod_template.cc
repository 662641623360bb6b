#include "validation/k8s/pod_template.h"

#include <set>
#include <string_view>

#include "validation/core/k8s_names.h"
#include "validation/core/strings.h"
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

class Validator {
 public:
  Validator(const PodTemplateOptions& options, std::vector<FieldError>* out)
      : options_(options), out_(out) {}

  void Spec(const Node& spec) {
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
        Container(cs->items[i], Index(std::string("spec.") + list, i), volumes, &names);
      }
    }
    // Pod level.
    if (const Node* rp = Str(spec, "restartPolicy");
        rp && !rp->text.empty() && !OneOf(rp->text, {"Always", "OnFailure", "Never"})) {
      Add(kChildRestartPolicy, "spec.restartPolicy", kUnsupported, GoQuote(rp->text),
          Supported({"Always", "OnFailure", "Never"}));
    }
    if (const Node* dp = Str(spec, "dnsPolicy"); dp && !dp->text.empty()) {
      if (!OneOf(dp->text, {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"})) {
        Add(kChildDnsPolicy, "spec.dnsPolicy", kUnsupported, GoQuote(dp->text),
            Supported({"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}));
      } else if (dp->text == "None" && !Present(spec, "dnsConfig")) {
        Add(kChildDnsPolicy, "spec.dnsConfig", kRequired, "",
            "must provide `dnsConfig` when `dnsPolicy` is None");
      }
    }
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
           PointAt at = PointAt::kValue) {
    out_->push_back(
        {rule, std::move(path), std::move(type), std::move(value), std::move(detail), at});
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

  // validateContainerCommon, then the name's uniqueness and the handlers (validateContainers),
  // in upstream's order.
  void Container(const Node& c, const std::string& at, const std::set<std::string>& volumes,
                 std::set<std::string>* names) {
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
    if (name && !name->text.empty() && !names->insert(name->text).second && options_.duplicates) {
      Add(kChildContainerName, at + ".name", kDuplicate, GoQuote(name->text), "");
    }
    if (const Node* l = Present(c, "lifecycle"); l && l->is_map()) {
      for (const char* hook : {"postStart", "preStop"}) {
        if (const Node* h = Present(*l, hook); h && h->is_map())
          Handler(*h, at + ".lifecycle." + hook, {"exec", "httpGet", "tcpSocket", "sleep"});
      }
    }
    for (const char* probe : {"livenessProbe", "readinessProbe", "startupProbe"}) {
      if (const Node* p = Present(c, probe); p && p->is_map())
        Handler(*p, at + "." + probe, {"exec", "httpGet", "tcpSocket", "grpc"});
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
      if (!Present(h, kind)) continue;
      if (n++ > 0) {
        Add(kChildProbeHandler, at + "." + kind, "Forbidden", "",
            "may not specify more than 1 handler type", PointAt::kKey);
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
  const Node* spec = tmpl.is_map() ? tmpl.Find("spec") : nullptr;
  if (!spec || !spec->is_map()) return out;
  Validator(options, &out).Spec(*spec);
  return out;
}

}  // namespace jobset
