#include "validation/k8s/pod_resources.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

#include "validation/core/k8s_names.h"
#include "validation/core/strings.h"
#include "validation/k8s/quantity.h"
#include "validation/k8s/rules.h"

namespace jobset::pod {
namespace {

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

// validateContainerResourceName.
void ResourceName(PodCheck& pc, const std::string& name, const std::string& path) {
  if (Skip(pc, name)) return;
  const std::vector<std::string> errs = QualifiedNameErrors(name);
  for (const std::string& e : errs)
    Add(pc, kChildResourceName, path, kInvalid, GoQuote(name), e, PointAt::kKey);
  const bool qualified = name.find('/') != std::string::npos;
  if (errs.empty() && !qualified && !IsStandardResourceName(name)) {
    Add(pc, kChildResourceName, path, kInvalid, GoQuote(name),
        "must be a standard resource type or fully qualified", PointAt::kKey);
  }
  if (!qualified) {
    if (!IsStandardContainerResourceName(name)) {
      Add(pc, kChildResourceName, path, kInvalid, GoQuote(name),
          "must be a standard resource for containers", PointAt::kKey);
    }
  } else if (!IsNativeResource(name) && !IsExtendedResourceName(name)) {
    Add(pc, kChildResourceName, path, kInvalid, GoQuote(name),
        "doesn't follow extended resource name standard", PointAt::kKey);
  }
}

// The quantity of a resource (ValidateResourceQuantityValue: not negative, whole for
// extended resources), or nullopt when it is not one.
std::optional<Quantity> ResourceQuantity(PodCheck& pc, const std::string& name, const Node& v,
                                         const std::string& path) {
  std::string text;
  if (v.is_int()) {
    text = std::to_string(v.integer);
  } else if (v.is_number() || v.is_string()) {
    text = v.text;
  } else {
    return std::nullopt;  // The schema reports the type.
  }
  if (Skip(pc, text)) return std::nullopt;
  ParsedQuantity parsed = ParseQuantity(text);
  if (!parsed.value) {
    if (pc.options.quantity_syntax)
      Add(pc, kChildResourceQuantity, path, kInvalid, GoQuote(text), parsed.error);
    return std::nullopt;
  }
  const Quantity& q = *parsed.value;
  if (Compare(q, Quantity{}) < 0) {
    Add(pc, kChildResourceQuantity, path, kInvalid, GoQuote(QuantityString(q)),
        "must be greater than or equal to 0");
  }
  if (IsIntegerResourceName(name) && !IsWholeNumber(q)) {
    Add(pc, kChildResourceQuantity, path, kInvalid, GoQuote(QuantityString(q)),
        "must be an integer");
  }
  return q;
}

// validateResourceQuantityHugePageValue: a whole number of pages of the name's size.
void HugePageValue(PodCheck& pc, const std::string& name, const Quantity& q,
                   const std::string& path) {
  ParsedQuantity page = ParseQuantity(name.substr(std::string_view("hugepages-").size()));
  bool divisible = false;
  if (page.value && Compare(*page.value, Quantity{}) > 0 && IsWholeNumber(*page.value)) {
    std::optional<int64_t> v = IntegerValue(q), size = IntegerValue(*page.value);
    divisible = v && size && *size > 0 && *v % *size == 0;
  }
  if (!divisible) {
    const std::string text = QuantityString(q);
    Add(pc, kChildResourceQuantity, path, kInvalid, GoQuote(text),
        text + " is not positive integer multiple of " + name);
  }
}

}  // namespace

// ValidateContainerResourceRequirements (validateResourceRequirements with
// validateContainerResourceName): names, quantities, requests against limits. Map entries
// are checked in document order (upstream walks Go maps, in random order).
void ContainerResources(PodCheck& pc, const Node& c, const std::string& at) {
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
    ResourceName(pc, e.key, path);
    std::optional<Quantity> q = ResourceQuantity(pc, e.key, e.value, path);
    if (q) limit_values[e.key] = *q;
    if (IsHugePages(e.key)) {
      hugepages = true;
      if (q) HugePageValue(pc, e.key, *q, path);
    }
    cpu_or_memory = cpu_or_memory || e.key == "cpu" || e.key == "memory";
  }
  for (const MapEntry& e : requests ? requests->entries : kNoEntries) {
    const std::string path = Key(base + ".requests", e.key);
    ResourceName(pc, e.key, path);
    std::optional<Quantity> q = ResourceQuantity(pc, e.key, e.value, path);
    auto limit = limit_values.find(e.key);
    if (limit != limit_values.end() && q) {
      const int cmp = Compare(*q, limit->second);
      const std::string bound = e.key + " limit of " + QuantityString(limit->second);
      if (cmp != 0 && !IsOvercommitAllowed(e.key)) {
        Add(pc, kChildResourceLimit, base + ".requests", kInvalid, GoQuote(QuantityString(*q)),
            "must be equal to " + bound, PointAt::kValue, path);
      } else if (cmp > 0) {
        Add(pc, kChildResourceLimit, base + ".requests", kInvalid, GoQuote(QuantityString(*q)),
            "must be less than or equal to " + bound, PointAt::kValue, path);
      }
    } else if (!(limits && limits->Find(e.key)) && !IsOvercommitAllowed(e.key)) {
      Add(pc, kChildResourceLimit, base + ".limits", kRequired, "",
          "Limit must be set for non overcommitable resources", PointAt::kKey, path);
    }
    if (IsHugePages(e.key)) {
      hugepages = true;
      if (q) HugePageValue(pc, e.key, *q, path);
    }
    cpu_or_memory = cpu_or_memory || e.key == "cpu" || e.key == "memory";
  }
  if (hugepages && !cpu_or_memory) {
    Add(pc, kChildResourceLimit, base, "Forbidden", "", "HugePages require cpu or memory",
        PointAt::kKey);
  }
}

}  // namespace jobset::pod
