#include "validation/k8s/pod_check.h"

#include "validation/core/k8s_names.h"
#include "validation/core/strings.h"

namespace jobset::pod {

const Node* Str(const Node& parent, std::string_view key) {
  const Node* n = parent.is_map() ? parent.Find(key) : nullptr;
  return n && n->is_string() ? n : nullptr;
}

const Node* Present(const Node& parent, std::string_view key) {
  const Node* n = parent.is_map() ? parent.Find(key) : nullptr;
  return n && !n->is_null() ? n : nullptr;
}

const Node* Int(const Node& parent, std::string_view key) {
  const Node* n = parent.is_map() ? parent.Find(key) : nullptr;
  return n && n->is_int() ? n : nullptr;
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

bool Skip(const PodCheck& pc, std::string_view s) {
  return pc.options.placeholders && s.find("{{") != std::string_view::npos;
}

void Add(PodCheck& pc, RuleId rule, std::string path, std::string type, std::string value,
         std::string detail, PointAt at, std::string locate) {
  pc.out->push_back({rule, std::move(path), std::move(type), std::move(value), std::move(detail),
                     at, std::move(locate)});
}

// ValidateLabels: each key a qualified name, each value a label value; errors name `field`
// and point at the entry (`at`.KEY).
void Labels(PodCheck& pc, const Node& map, RuleId rule, const std::string& field,
            const std::string& at) {
  for (const MapEntry& e : map.entries) {
    const std::string where = Key(at, e.key);
    if (!Skip(pc, e.key)) {
      for (const std::string& err : QualifiedNameErrors(e.key))
        Add(pc, rule, field, kInvalid, GoQuote(e.key), err, PointAt::kKey, where);
    }
    if (e.value.is_string() && !Skip(pc, e.value.text)) {
      for (const std::string& err : LabelValueErrors(e.value.text))
        Add(pc, rule, field, kInvalid, GoQuote(e.value.text), err, PointAt::kValue, where);
    }
  }
}

}  // namespace jobset::pod
