#include "validation/k8s/pod_template.h"

#include <arpa/inet.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "validation/core/field_path.h"
#include "validation/core/k8s_names.h"
#include "validation/core/strings.h"
#include "validation/k8s/pod_check.h"
#include "validation/k8s/pod_probes.h"
#include "validation/k8s/pod_resources.h"
#include "validation/k8s/pod_scheduling.h"
#include "validation/k8s/pod_security.h"
#include "validation/k8s/rules.h"

namespace jobset::pod {
namespace {

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

// ValidatePodTemplateSpec: the template's labels and annotations (paths "labels" and
// "annotations", as upstream names them: the PodTemplateSpec embeds its ObjectMeta).
void Metadata(PodCheck& pc, const Node& tmpl) {
  const Node* md = Present(tmpl, "metadata");
  if (!md || !md->is_map()) return;
  if (const Node* labels = Present(*md, "labels"); labels && labels->is_map()) {
    Labels(pc, *labels, kChildTemplateMetadata, "labels", "metadata.labels");
  }
  if (const Node* annotations = Present(*md, "annotations"); annotations && annotations->is_map()) {
    size_t total = 0;
    for (const MapEntry& e : annotations->entries) {
      total += e.key.size() + (e.value.is_string() ? e.value.text.size() : 0);
      if (Skip(pc, e.key)) continue;
      // Annotation keys are qualified names once lower-cased.
      std::string lower = e.key;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      for (const std::string& err : QualifiedNameErrors(lower))
        Add(pc, kChildTemplateMetadata, "annotations", kInvalid, GoQuote(e.key), err, PointAt::kKey,
            Key("metadata.annotations", e.key));
    }
    if (total > 262144) {
      Add(pc, kChildTemplateMetadata, "annotations", "Too long", "",
          "may not be more than 262144 bytes", PointAt::kKey, "metadata.annotations");
    }
  }
}

// validateVolumes: names (required, DNS-1123 label, unique); the names mounts may use.
std::set<std::string> Volumes(PodCheck& pc, const Node& spec) {
  std::set<std::string> names;
  const Node* vs = Present(spec, "volumes");
  if (!vs || !vs->is_seq()) return names;
  for (size_t k = 0; k < vs->items.size(); ++k) {
    const Node* name = Str(vs->items[k], "name");
    if (!name) continue;
    std::string path = Index("spec.volumes", k) + ".name";
    if (name->text.empty()) {
      Add(pc, kChildVolumeName, path, kRequired, "", "");
    } else if (!Skip(pc, name->text)) {
      for (const std::string& e : DNS1123LabelErrors(name->text))
        Add(pc, kChildVolumeName, path, kInvalid, GoQuote(name->text), e);
    }
    if (!names.insert(name->text).second && pc.options.duplicates && !name->text.empty()) {
      Add(pc, kChildVolumeName, path, kDuplicate, GoQuote(name->text), "");
    }
  }
  return names;
}

// validateContainerPorts.
void Ports(PodCheck& pc, const Node& c, const std::string& at) {
  const Node* ports = Present(c, "ports");
  if (!ports || !ports->is_seq()) return;
  std::set<std::string> names;
  for (size_t j = 0; j < ports->items.size(); ++j) {
    const Node& port = ports->items[j];
    if (!port.is_map()) continue;
    std::string path = Index(at + ".ports", j);
    if (const Node* name = Str(port, "name");
        name && !name->text.empty() && !Skip(pc, name->text)) {
      std::vector<std::string> errs = PortNameErrors(name->text);
      for (const std::string& e : errs)
        Add(pc, kChildPortName, path + ".name", kInvalid, GoQuote(name->text), e);
      if (errs.empty() && !names.insert(name->text).second) {
        Add(pc, kChildPortName, path + ".name", kDuplicate, GoQuote(name->text), "");
      }
    }
    if (const Node* cp = Present(port, "containerPort"); cp && cp->is_int()) {
      if (cp->integer == 0) {
        Add(pc, kChildContainerPort, path + ".containerPort", kRequired, "", "");
      } else if (cp->integer < 1 || cp->integer > 65535) {
        Add(pc, kChildContainerPort, path + ".containerPort", kInvalid, std::to_string(cp->integer),
            "must be between 1 and 65535, inclusive");
      }
    }
    if (const Node* hp = Present(port, "hostPort");
        hp && hp->is_int() && hp->integer != 0 && (hp->integer < 1 || hp->integer > 65535)) {
      Add(pc, kChildContainerPort, path + ".hostPort", kInvalid, std::to_string(hp->integer),
          "must be between 1 and 65535, inclusive");
    }
    if (const Node* p = Str(port, "protocol");
        p && !p->text.empty() && !OneOf(p->text, {"TCP", "UDP", "SCTP"})) {
      Add(pc, kChildPortProtocol, path + ".protocol", kUnsupported, GoQuote(p->text),
          Supported({"SCTP", "TCP", "UDP"}));
    }
  }
}

std::vector<std::string> EnvNameErrors(const PodCheck& pc, std::string_view name) {
  std::vector<std::string> errs;
  if (!pc.options.legacy_env_names) {
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

// validateEnv: the names only.
void Env(PodCheck& pc, const Node& c, const std::string& at) {
  const Node* env = Present(c, "env");
  if (!env || !env->is_seq()) return;
  for (size_t j = 0; j < env->items.size(); ++j) {
    const Node* name = Str(env->items[j], "name");
    if (!name) continue;
    std::string path = Index(at + ".env", j) + ".name";
    if (name->text.empty()) {
      Add(pc, kChildEnvName, path, kRequired, "", "");
      continue;
    }
    if (Skip(pc, name->text)) continue;
    for (const std::string& e : EnvNameErrors(pc, name->text))
      Add(pc, kChildEnvName, path, kInvalid, GoQuote(name->text), e);
  }
}

// validateVolumeMounts: the volume exists; mountPath set and unique in the container.
void Mounts(PodCheck& pc, const Node& c, const std::string& at,
            const std::set<std::string>& volumes) {
  const Node* mounts = Present(c, "volumeMounts");
  if (!mounts || !mounts->is_seq()) return;
  std::set<std::string> paths;
  for (size_t j = 0; j < mounts->items.size(); ++j) {
    const Node& m = mounts->items[j];
    std::string path = Index(at + ".volumeMounts", j);
    if (const Node* name = Str(m, "name")) {
      if (name->text.empty()) {
        Add(pc, kChildVolumeMount, path + ".name", kRequired, "", "");
      } else if (!volumes.count(name->text) && !Skip(pc, name->text)) {
        Add(pc, kChildVolumeMount, path + ".name", "Not found", GoQuote(name->text), "");
      }
    }
    if (const Node* mp = Str(m, "mountPath")) {
      if (mp->text.empty()) {
        Add(pc, kChildVolumeMount, path + ".mountPath", kRequired, "", "");
      } else if (!paths.insert(mp->text).second && pc.options.duplicates) {
        Add(pc, kChildVolumeMount, path + ".mountPath", kInvalid, GoQuote(mp->text),
            "must be unique");
      }
    }
  }
}

// validateContainerCommon, then the name's uniqueness and the handlers (validateContainers,
// validateInitContainers), in upstream's order.
void Container(PodCheck& pc, const Node& c, const std::string& at,
               const std::set<std::string>& volumes, std::set<std::string>* names, bool init) {
  if (!c.is_map()) return;
  const Node* name = Str(c, "name");
  if (name && name->text.empty()) {
    Add(pc, kChildContainerName, at + ".name", kRequired, "", "");
  } else if (name && !Skip(pc, name->text)) {
    for (const std::string& e : DNS1123LabelErrors(name->text))
      Add(pc, kChildContainerName, at + ".name", kInvalid, GoQuote(name->text), e);
  }
  // Absent, null or "" (another type is the schema's to report).
  if (const Node* image = Present(c, "image");
      !image || (image->is_string() && image->text.empty())) {
    Add(pc, kChildImage, at + ".image", kRequired, "", "");
  }
  if (const Node* p = Str(c, "terminationMessagePolicy");
      p && !p->text.empty() && !OneOf(p->text, {"File", "FallbackToLogsOnError"})) {
    Add(pc, kChildTerminationMessagePolicy, at + ".terminationMessagePolicy", kUnsupported,
        GoQuote(p->text), Supported({"File", "FallbackToLogsOnError"}));
  }
  Ports(pc, c, at);
  Env(pc, c, at);
  Mounts(pc, c, at, volumes);
  if (const Node* p = Str(c, "imagePullPolicy");
      p && !p->text.empty() && !OneOf(p->text, {"Always", "IfNotPresent", "Never"})) {
    Add(pc, kChildImagePullPolicy, at + ".imagePullPolicy", kUnsupported, GoQuote(p->text),
        Supported({"Always", "IfNotPresent", "Never"}));
  }
  ContainerResources(pc, c, at);
  ContainerSecurityContext(pc, c, at);
  if (name && !name->text.empty() && !names->insert(name->text).second && pc.options.duplicates) {
    Add(pc, kChildContainerName, at + ".name", kDuplicate, GoQuote(name->text), "");
  }
  ContainerHandlers(pc, c, at, init);
}

// validatePodDNSConfig: None needs a config with a nameserver; at most 3 nameservers, IP
// addresses; at most 32 search domains of 2048 characters in all; option names. (The search
// domains' own grammar, relaxed by a feature gate, is not checked.)
void DnsConfig(PodCheck& pc, const Node& spec) {
  const std::string at = "spec.dnsConfig";
  const Node* dp = Str(spec, "dnsPolicy");
  const Node* dc = Present(spec, "dnsConfig");
  if (dc && !dc->is_map()) return;
  const Node* ns = dc ? Present(*dc, "nameservers") : nullptr;
  const size_t n_ns = ns && ns->is_seq() ? ns->items.size() : 0;
  if (dp && dp->text == "None") {
    if (!dc) {
      Add(pc, kChildDnsPolicy, at, kRequired, "",
          "must provide `dnsConfig` when `dnsPolicy` is None", PointAt::kKey);
      return;
    }
    if (n_ns == 0) {
      Add(pc, kChildDnsPolicy, at + ".nameservers", kRequired, "",
          "must provide at least one DNS nameserver when `dnsPolicy` is None", PointAt::kKey);
      return;
    }
  }
  if (!dc) return;
  if (n_ns > 3) {
    Add(pc, kChildDnsPolicy, at + ".nameservers", kInvalid, CompactJson(*ns),
        "must not have more than 3 nameservers");
  }
  for (size_t i = 0; i < n_ns; ++i) {
    const Node& ip = ns->items[i];
    if (ip.is_string() && !Skip(pc, ip.text) && !IsIp(ip.text)) {
      Add(pc, kChildDnsPolicy, Index(at + ".nameservers", i), kInvalid, GoQuote(ip.text),
          "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
    }
  }
  if (const Node* searches = Present(*dc, "searches"); searches && searches->is_seq()) {
    size_t chars = 0;
    for (const Node& d : searches->items) chars += (chars ? 1 : 0) + d.text.size();
    if (searches->items.size() > 32) {
      Add(pc, kChildDnsPolicy, at + ".searches", kInvalid, CompactJson(*searches),
          "must not have more than 32 search paths");
    }
    if (chars > 2048) {
      Add(pc, kChildDnsPolicy, at + ".searches", kInvalid, CompactJson(*searches),
          "must not have more than 2048 characters (including spaces) in the search list");
    }
  }
  if (const Node* options = Present(*dc, "options"); options && options->is_seq()) {
    for (size_t i = 0; i < options->items.size(); ++i) {
      const Node* name = Str(options->items[i], "name");
      if (options->items[i].is_map() && (!name || name->text.empty())) {
        Add(pc, kChildDnsPolicy, Index(at + ".options", i), kRequired, "", "must not be empty",
            PointAt::kKey);
      }
    }
  }
}

void Spec(PodCheck& pc, const Node& spec) {
  if (const Node* g = Int(spec, "terminationGracePeriodSeconds")) pc.grace = g->integer;
  if (const Node* hu = Present(spec, "hostUsers"); hu && hu->is_bool()) {
    pc.host_users = hu->text == "true";
  }
  std::set<std::string> volumes = Volumes(pc, spec);
  for (const std::string& v : pc.options.added_volumes) volumes.insert(v);
  const Node* containers = Present(spec, "containers");
  if (!containers || (containers->is_seq() && containers->items.empty())) {
    Add(pc, kChildContainersRequired, "spec.containers", kRequired, "", "", PointAt::kKey);
  }
  // Container names are unique across containers and init containers (an init container
  // may not reuse a container's name or an earlier init container's).
  std::set<std::string> names;
  for (const char* list : {"containers", "initContainers"}) {
    const Node* cs = Present(spec, list);
    if (!cs || !cs->is_seq()) continue;
    for (size_t i = 0; i < cs->items.size(); ++i) {
      Container(pc, cs->items[i], Index(std::string("spec.") + list, i), volumes, &names,
                std::string_view(list) == "initContainers");
    }
  }
  // Pod level.
  if (const Node* rp = Str(spec, "restartPolicy");
      rp && !rp->text.empty() && !OneOf(rp->text, {"Always", "OnFailure", "Never"})) {
    Add(pc, kChildRestartPolicy, "spec.restartPolicy", kUnsupported, GoQuote(rp->text),
        Supported({"Always", "OnFailure", "Never"}));
  }
  if (const Node* dp = Str(spec, "dnsPolicy");
      dp && !dp->text.empty() &&
      !OneOf(dp->text, {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"})) {
    Add(pc, kChildDnsPolicy, "spec.dnsPolicy", kUnsupported, GoQuote(dp->text),
        Supported({"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}));
  }
  NodeSelector(pc, spec);
  PodSecurityContext(pc, spec);
  if (const Node* affinity = Present(spec, "affinity"); affinity && affinity->is_map()) {
    Affinity(pc, *affinity);
  }
  DnsConfig(pc, spec);
  TopologySpread(pc, spec);
  Tolerations(pc, spec);
}

}  // namespace
}  // namespace jobset::pod

namespace jobset {

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
  pod::PodCheck pc{options, &out};
  pod::Metadata(pc, tmpl);
  const Node* spec = tmpl.Find("spec");
  if (spec && spec->is_map()) pod::Spec(pc, *spec);
  return out;
}

}  // namespace jobset
