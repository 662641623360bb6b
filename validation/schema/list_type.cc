#include "validation/schema/list_type.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>

#include "validation/core/k8s_names.h"
#include "validation/core/strings.h"

namespace jobset {

namespace {

using Json = nlohmann::json;

/// A scalar JSON value as a Node; nullopt for lists and objects (no key default is one).
std::optional<Node> ScalarNode(const Json& j) {
  if (j.is_null()) return std::nullopt;
  if (j.is_boolean()) return Node::Bool(j.get<bool>());
  if (j.is_number_integer() && !j.is_number_unsigned()) return Node::Int(j.get<int64_t>());
  if (j.is_string()) return Node::String(j.get<std::string>());
  if (j.is_number()) {
    Node n;
    n.kind = Node::Kind::kFloat;
    n.number = j.get<double>();
    return n;
  }
  return std::nullopt;
}

/// The entries of a mapping by key, the first of each name (as a decoded JSON object keeps one).
std::map<std::string_view, const Node*> SortedEntries(const Node& n) {
  std::map<std::string_view, const Node*> out;
  for (const MapEntry& e : n.entries) out.emplace(e.key, &e.value);
  return out;
}

/// `n` as Go's %#v prints the unstructured value (map[string]interface{}, []interface{}, int64,
/// float64, string, bool, nil) that kube-apiserver decodes it to.
std::string GoSharpV(const Node& n) {
  switch (n.kind) {
    case Node::Kind::kNull:
      return "interface {}(nil)";
    case Node::Kind::kBool:
      return n.boolean ? "true" : "false";
    case Node::Kind::kInt:
      return std::to_string(n.integer);
    case Node::Kind::kFloat:
      return ShortestFloatText(n.number);
    case Node::Kind::kString:
      return GoQuote(n.text);
    case Node::Kind::kSeq: {
      std::string out = "[]interface {}{";
      for (size_t i = 0; i < n.items.size(); ++i) out += (i ? ", " : "") + GoSharpV(n.items[i]);
      return out + "}";
    }
    case Node::Kind::kMap: {
      std::string out = "map[string]interface {}{";
      bool first = true;
      for (const auto& [key, value] : SortedEntries(n)) {
        out += (first ? "" : ", ") + GoQuote(key) + ":" + GoSharpV(*value);
        first = false;
      }
      return out + "}";
    }
  }
  return "";
}

/// An item of a set as field.Duplicate prints it: strings quoted, numbers and booleans bare,
/// null as null, lists and maps as %#v.
std::string SetItemText(const Node& n) {
  // Scalars print the same with %v, %q and %#v.
  return n.is_null() ? "null" : GoSharpV(n);
}

/// A text that two values share exactly when Go compares them equal after decoding (kinds
/// tagged, so 1 and 1.0, int64 and float64, differ; maps regardless of key order).
void Canonical(const Node& n, std::string* out) {
  switch (n.kind) {
    case Node::Kind::kNull:
      *out += 'n';
      return;
    case Node::Kind::kBool:
      *out += n.boolean ? 't' : 'f';
      return;
    case Node::Kind::kInt:
      *out += 'i' + std::to_string(n.integer) + ';';
      return;
    case Node::Kind::kFloat:
      *out += 'd' + ShortestFloatText(n.number) + ';';
      return;
    case Node::Kind::kString:
      *out += 's' + std::to_string(n.text.size()) + ':' + n.text;
      return;
    case Node::Kind::kSeq:
      *out += '[';
      for (const Node& item : n.items) Canonical(item, out);
      *out += ']';
      return;
    case Node::Kind::kMap:
      *out += '{';
      for (const auto& [key, value] : SortedEntries(n)) {
        *out += std::to_string(key.size()) + ':' + std::string(key);
        Canonical(*value, out);
      }
      *out += '}';
      return;
  }
}

}  // namespace

std::optional<ListUniqueness> ParseListUniqueness(const Json& value) {
  if (!value.is_object()) return std::nullopt;
  ListUniqueness out;
  if (auto set = value.find("set"); set != value.end()) {
    if (!set->is_boolean() || !set->get<bool>() || value.size() != 1) return std::nullopt;
    out.set = true;
    return out;
  }
  auto keys = value.find("keys");
  if (keys == value.end() || !keys->is_array() || keys->empty()) return std::nullopt;
  const Json* defaults = nullptr;
  if (auto d = value.find("defaults"); d != value.end()) {
    if (!d->is_object()) return std::nullopt;
    defaults = &*d;
  }
  for (const Json& key : *keys) {
    if (!key.is_string()) return std::nullopt;
    out.keys.push_back(key.get<std::string>());
    std::optional<Node> def;
    if (defaults) {
      if (auto it = defaults->find(out.keys.back()); it != defaults->end()) def = ScalarNode(*it);
    }
    out.defaults.push_back(std::move(def));
  }
  return out;
}

std::vector<ListDuplicate> FindListDuplicates(const Node& list, const ListUniqueness& unique) {
  std::vector<ListDuplicate> out;
  if (!list.is_seq() || list.items.size() < 2) return out;
  // Upstream (validateListSet) counts each value and reports the index where it is seen the
  // second time.
  std::unordered_map<std::string, int> seen;
  std::string canonical;
  for (size_t i = 0; i < list.items.size(); ++i) {
    const Node& item = list.items[i];
    canonical.clear();
    std::string shown;
    if (unique.set) {
      Canonical(item, &canonical);
    } else {
      if (!item.is_map() && !item.is_null()) return {};  // "must be an object": a type error.
      // The key fields the item has, as a map. The API server prunes null fields and applies
      // defaults before it validates: a missing or null key takes its default, if any.
      std::vector<std::pair<std::string_view, const Node*>> present;
      for (size_t k = 0; item.is_map() && k < unique.keys.size(); ++k) {
        const Node* v = item.Find(unique.keys[k]);
        if (!v || v->is_null()) v = unique.defaults[k] ? &*unique.defaults[k] : nullptr;
        if (v) present.emplace_back(unique.keys[k], v);
      }
      std::sort(present.begin(), present.end());
      shown = "map[string]interface {}{";
      for (size_t p = 0; p < present.size(); ++p) {
        canonical += std::to_string(present[p].first.size()) + ':' + std::string(present[p].first);
        Canonical(*present[p].second, &canonical);
        shown += (p ? ", " : "") + GoQuote(present[p].first) + ":" + GoSharpV(*present[p].second);
      }
      shown += "}";
    }
    if (++seen[canonical] == 2) {
      out.push_back({i, unique.set ? SetItemText(item) : std::move(shown)});
    }
  }
  return out;
}

}  // namespace jobset
