// JSON Schema validation with valijson over our Node tree, and the conversion of a CRD's
// OpenAPI v3 schema to JSON Schema.
//
// A compiled fast check (fast_schema.h) first decides the objects it can, valid ones above all;
// valijson decides the others. When an object is not valid, valijson's error contexts tell which
// nodes failed; each failing node is then re-checked here against the keywords of the schemas
// that apply to it, which gives exactly one finding per violated keyword, in the words
// kube-apiserver uses, without valijson's cascaded summaries.
#include "validation/schema/schema.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <utility>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "validation/core/embedded.h"
#include "validation/core/field_path.h"
#include "validation/core/strings.h"
#include "validation/schema/crd_import.h"
#include "validation/schema/fast_schema.h"
#include "validation/schema/list_type.h"
#include "validation/schema/node_adapter.h"  // First: configures valijson.
#include "validation/schema/rules.h"
#include "validation/schema/schema_internal.h"

namespace jobset {

using Json = nlohmann::json;

/// A JSON Schema document, its fast check, and valijson's compiled form of it, made on first
/// need. Immutable once built (the valijson form is made once, under `once`).
struct CompiledSchema {
  Json doc;         ///< The schema as valijson compiles it (patterns renamed, see below).
  FastSchema fast;  ///< The same schema for the fast check (compiled from `doc`).

  /// valijson's form of `doc`. The built-in schemas make it when an object is first found not
  /// valid (most never are: the fast check decides them), which keeps it out of the start-up
  /// time of a lint run; --crd schemas make it at once, to report a schema valijson refuses.
  const valijson::Schema& Valijson() const;

  mutable std::once_flag once;
  /// Made under `once`; empty (accepting everything) when valijson refuses `doc`.
  mutable std::unique_ptr<valijson::Schema> schema;
};

namespace {

// valijson matches `pattern` with std::regex, whose backtracking recursion can overflow the
// stack on long input, and whose syntax is not Go's. Patterns are therefore renamed to this
// keyword before compiling, and matched with RE2 (the syntax Kubernetes uses) instead.
constexpr char kPatternKey[] = "x-jobset-re2-pattern";

constexpr char kBuiltinSchemaName[] = "jobset.v1alpha2.json";
constexpr char kGeneratedSchemaName[] = "jobset.v1alpha2.crd.json";
constexpr char kVolcanoSchemaName[] = "volcano.v1alpha1.json";
constexpr char kVolcanoGeneratedSchemaName[] = "volcano.v1alpha1.crd.json";
constexpr char kFrameworkSchemaName[] = "framework.v1.json";

// ---- The RE2 pattern keyword ----------------------------------------------------------------

/// valijson constraint: a string must contain a match of an RE2 pattern (Go regexp semantics).
class Re2PatternConstraint : public valijson::constraints::PolyConstraint {
 public:
  explicit Re2PatternConstraint(std::shared_ptr<const re2::RE2> re) : re_(std::move(re)) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    if (!target.isString()) return true;
    if (re2::RE2::PartialMatch(target.getString(), *re_)) return true;
    if (results) results->pushError(context, "Failed to match pattern '" + re_->pattern() + "'.");
    return false;
  }

 private:
  valijson::constraints::Constraint* cloneInto(void* where) const override {
    return new (where) Re2PatternConstraint(*this);
  }
  size_t sizeOf() const override { return sizeof(Re2PatternConstraint); }

  std::shared_ptr<const re2::RE2> re_;
};

/// Makes Re2PatternConstraint from the value of kPatternKey.
class Re2PatternBuilder : public valijson::ConstraintBuilder {
 public:
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
    std::string pattern;
    if (!value.getString(pattern)) valijson::throwRuntimeError("pattern must be a string");
    auto re = std::make_shared<const re2::RE2>(pattern, re2::RE2::Quiet);
    if (!re->ok()) valijson::throwRuntimeError("invalid pattern '" + pattern + "': " + re->error());
    return new Re2PatternConstraint(std::move(re));
  }
};

/// A schema value as JSON (valijson hands keyword values to builders as adapters).
Json AdapterJson(const valijson::adapters::Adapter& a) {
  if (a.isBool()) return a.asBool();
  if (a.isInteger()) return a.asInteger();
  if (a.isDouble()) return a.asDouble();
  if (a.isString()) return a.asString();
  if (a.isArray()) {
    Json out = Json::array();
    a.applyToArray([&](const valijson::adapters::Adapter& item) {
      out.push_back(AdapterJson(item));
      return true;
    });
    return out;
  }
  if (a.isObject()) {
    Json out = Json::object();
    a.applyToObject([&](const std::string& key, const valijson::adapters::Adapter& value) {
      out[key] = AdapterJson(value);
      return true;
    });
    return out;
  }
  return nullptr;
}

/// valijson constraint: the items of a list-type set, or the keys of a list-type map, are unique.
class ListUniqueConstraint : public valijson::constraints::PolyConstraint {
 public:
  explicit ListUniqueConstraint(std::shared_ptr<const ListUniqueness> unique)
      : unique_(std::move(unique)) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    // ValidateSchema always validates Nodes; another adapter is left unchecked.
    const auto* adapter = dynamic_cast<const NodeAdapter*>(&target);
    if (!adapter || !adapter->node() || !adapter->node()->is_seq()) return true;
    if (FindListDuplicates(*adapter->node(), *unique_).empty()) return true;
    if (results) results->pushError(context, "Duplicate list items.");
    return false;
  }

 private:
  valijson::constraints::Constraint* cloneInto(void* where) const override {
    return new (where) ListUniqueConstraint(*this);
  }
  size_t sizeOf() const override { return sizeof(ListUniqueConstraint); }

  std::shared_ptr<const ListUniqueness> unique_;
};

/// Makes ListUniqueConstraint from the value of kListUniqueKeyword.
class ListUniqueBuilder : public valijson::ConstraintBuilder {
 public:
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
    std::optional<ListUniqueness> unique = ParseListUniqueness(AdapterJson(value));
    if (!unique) valijson::throwRuntimeError(std::string("invalid ") + kListUniqueKeyword);
    return new ListUniqueConstraint(std::make_shared<const ListUniqueness>(std::move(*unique)));
  }
};

/// The schema `s` refers to with `$ref` (within `root`), or `s` itself.
const Json& Dereferenced(const Json& s, const Json& root) {
  const Json* at = &s;
  for (int hops = 0; hops < 32 && at->is_object(); ++hops) {
    auto ref = at->find("$ref");
    if (ref == at->end() || !ref->is_string()) break;
    const std::string& target = ref->get_ref<const std::string&>();
    if (target.empty() || target[0] != '#') break;
    try {
      at = &root.at(Json::json_pointer(target.substr(1)));
    } catch (const std::exception&) {
      break;  // valijson reports the dangling reference.
    }
  }
  return *at;
}

/// Prepares every schema of `s` (walking only schema positions, so that a property that happens
/// to be called "pattern" keeps its name) for valijson and the fast check: `pattern` is renamed
/// to kPatternKey; x-kubernetes-list-type set and map (with x-kubernetes-list-map-keys and the
/// defaults of the key fields, read from `root`) become kListUniqueKeyword; the annotations of
/// generated schemas (format, nullable and the other x-kubernetes-* markers, whose meaning the
/// conversion already put into type and additionalProperties) are dropped, as --crd always did.
void PrepareKeywords(Json& s, const Json& root) {
  if (!s.is_object()) return;
  // One pass over the keywords: the subschemas first (each is prepared on its own, and what
  // the list-type step below reads of them, `properties` and `default`, stays as it is), and
  // whether `s` has anything to rename or drop (most schemas have not: no lookups for them).
  bool rewrite = false;
  for (auto& [key, sub] : s.get_ref<Json::object_t&>()) {
    if (key == "properties" || key == "definitions") {
      if (sub.is_object()) {
        for (auto& [name, schema] : sub.items()) PrepareKeywords(schema, root);
      }
    } else if (key == "additionalProperties" || key == "items" || key == "not") {
      if (sub.is_array()) {
        for (Json& schema : sub) PrepareKeywords(schema, root);
      } else {
        PrepareKeywords(sub, root);
      }
    } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
      if (sub.is_array()) {
        for (Json& schema : sub) PrepareKeywords(schema, root);
      }
    } else if (key == "pattern" || key == "format" || key == "nullable" ||
               key.rfind("x-kubernetes-", 0) == 0) {
      rewrite = true;
    }
  }
  if (!rewrite) return;
  if (auto it = s.find("pattern"); it != s.end() && it->is_string()) {
    Json pattern = std::move(*it);
    s.erase(it);
    s[kPatternKey] = std::move(pattern);
  }
  if (auto type = s.find("x-kubernetes-list-type"); type != s.end() && type->is_string()) {
    Json unique;
    if (*type == "set") unique = {{"set", true}};
    auto keys = s.find("x-kubernetes-list-map-keys");
    if (*type == "map" && keys != s.end() && keys->is_array()) {
      Json defaults = Json::object();
      if (auto items = s.find("items"); items != s.end()) {
        const Json& item = Dereferenced(*items, root);
        auto props = item.is_object() ? item.find("properties") : item.end();
        for (const Json& key : *keys) {
          if (!key.is_string() || props == item.end() || !props->is_object()) continue;
          auto field = props->find(key.get<std::string>());
          if (field == props->end()) continue;
          const Json& field_schema = Dereferenced(*field, root);
          if (auto d = field_schema.find("default"); d != field_schema.end()) {
            defaults[key.get<std::string>()] = *d;
          }
        }
      }
      unique = {{"keys", *keys}};
      if (!defaults.empty()) unique["defaults"] = std::move(defaults);
    }
    if (!unique.is_null()) s[kListUniqueKeyword] = std::move(unique);
  }
  for (const char* key :
       {"format", "nullable", "x-kubernetes-list-type", "x-kubernetes-list-map-keys",
        "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-embedded-resource", "x-kubernetes-map-type"}) {
    s.erase(key);
  }
}

/// valijson's form of `doc`; an empty schema and a message when valijson refuses it.
std::unique_ptr<valijson::Schema> PopulateValijson(const Json& doc, std::string* error) {
  auto schema = std::make_unique<valijson::Schema>();
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.addConstraintBuilder(kPatternKey, new Re2PatternBuilder());
    parser.addConstraintBuilder(kListUniqueKeyword, new ListUniqueBuilder());
    valijson::adapters::NlohmannJsonAdapter adapter(doc);
    parser.populateSchema(adapter, *schema);
  } catch (const std::exception& e) {
    if (error) *error = std::string("invalid schema: ") + e.what();
    return nullptr;
  }
  return schema;
}

/// Compiles a JSON Schema (draft 7) document. `eager`: make valijson's form now, and give
/// nullptr and a message when valijson refuses the document; else on first need.
std::shared_ptr<const CompiledSchema> Compile(Json doc, std::string* error, bool eager) {
  auto out = std::make_shared<CompiledSchema>();
  out->doc = std::move(doc);
  PrepareKeywords(out->doc, out->doc);
  if (eager) {
    std::call_once(out->once, [&] { out->schema = PopulateValijson(out->doc, error); });
    if (!out->schema) return nullptr;
  }
  out->fast = FastSchema::Compile(out->doc, kPatternKey);
  return out;
}

// ---- Rendering values the way Kubernetes field errors do --------------------------------------

/// A value as `field.Invalid` renders it: strings quoted, numbers and booleans bare, null as
/// null, lists and objects as compact JSON.
std::string RenderValue(const Node& n) {
  switch (n.kind) {
    case Node::Kind::kString:
      return JsonQuote(n.text);
    case Node::Kind::kInt:
      return std::to_string(n.integer);
    case Node::Kind::kFloat:
      return ShortestFloatText(n.number);
    case Node::Kind::kBool:
      return n.boolean ? "true" : "false";
    case Node::Kind::kNull:
      return "null";
    default:
      return SchemaJson(n).dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

/// A schema's number ("0", "2.5").
std::string NumberText(const Json& j) {
  if (j.is_number_integer()) return j.dump();
  return ShortestFloatText(j.get<double>());
}

/// An enum value as `field.NotSupported` lists it.
std::string RenderJson(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// ---- Comparing Node values with schema values -------------------------------------------------

/// Whether `n` equals the schema value `j` (numbers by value, objects regardless of key order).
bool EqualsJson(const Node& n, const Json& j) {
  switch (n.kind) {
    case Node::Kind::kNull:
      return j.is_null();
    case Node::Kind::kBool:
      return j.is_boolean() && j.get<bool>() == n.boolean;
    case Node::Kind::kInt:
      if (j.is_number_integer()) {
        return j.is_number_unsigned()
                   ? n.integer >= 0 && j.get<uint64_t>() == static_cast<uint64_t>(n.integer)
                   : j.get<int64_t>() == n.integer;
      }
      return j.is_number_float() && j.get<double>() == n.number;
    case Node::Kind::kFloat:
      return j.is_number() && j.get<double>() == n.number;
    case Node::Kind::kString:
      return j.is_string() && j.get_ref<const std::string&>() == n.text;
    case Node::Kind::kSeq:
      if (!j.is_array() || j.size() != n.items.size()) return false;
      for (size_t i = 0; i < n.items.size(); ++i) {
        if (!EqualsJson(n.items[i], j[i])) return false;
      }
      return true;
    case Node::Kind::kMap:
      if (!j.is_object() || j.size() != n.entries.size()) return false;
      for (const MapEntry& e : n.entries) {
        auto it = j.find(e.key);
        if (it == j.end() || !EqualsJson(e.value, *it)) return false;
      }
      return true;
  }
  return false;
}

/// Whether `n` is of the JSON Schema type `type` (integers are numbers too).
bool HasType(const Node& n, std::string_view type) {
  if (type == "integer") return n.is_int();
  if (type == "number") return n.is_number();
  if (type == "string") return n.is_string();
  if (type == "boolean") return n.is_bool();
  if (type == "array") return n.is_seq();
  if (type == "object") return n.is_map();
  if (type == "null") return n.is_null();
  return false;
}

/// Number of code points of UTF-8 text (what JSON Schema and Kubernetes call length).
size_t CodePoints(std::string_view s) {
  size_t count = 0;
  for (unsigned char c : s) count += (c & 0xC0) != 0x80;
  return count;
}

// ---- Turning valijson's failures into findings ------------------------------------------------

/// A failing place of the object: the node, its Kubernetes path, where it is, and the schemas
/// that apply to it (after $ref and allOf, never through anyOf/oneOf alternatives).
struct Place {
  const Node* node = nullptr;
  std::string path;
  Mark key_mark;        ///< The key of its map entry (or the item itself, in a list).
  bool member = false;  ///< The value of a map entry (a field), not a list item.
  std::vector<const Json*> schemas;
};

/// Collects the findings of one ValidateSchema call.
class Explainer {
 public:
  Explainer(const CompiledSchema& schema, const Node& root, const SchemaReport& report)
      : schema_(schema), root_(root), report_(report) {}

  /// Explains one valijson error: re-checks the node it names (once per node).
  void Explain(const valijson::ValidationResults::Error& error) {
    Place place;
    if (!Resolve(error.context, &place)) return;
    const std::string& what = error.description;
    if (what.rfind("Failed to validate against any schemas allowed by anyOf", 0) == 0) {
      Composite(place, "anyOf", "must validate at least one schema (anyOf)");
    } else if (what.rfind("Failed to validate against any child schemas allowed by oneOf", 0) ==
                   0 ||
               what.rfind("Failed to validate against exactly one child schema", 0) == 0) {
      Composite(place, "oneOf", "must validate one and only one schema (oneOf)");
    } else if (what.rfind("Target should not validate against schema specified in 'not'", 0) == 0) {
      Composite(place, "not", "must not validate the schema (not)");
    }
    if (checked_.insert(place.node).second) Check(place);
  }

  /// The findings, in document order.
  std::vector<Finding> Take() {
    std::stable_sort(findings_.begin(), findings_.end(), [](const Finding& a, const Finding& b) {
      auto key = [](const Mark& m) {
        return std::make_pair(m.known() ? m.line : std::numeric_limits<int>::max(), m.column);
      };
      return key(a.mark) < key(b.mark);
    });
    return std::move(findings_);
  }

 private:
  // Adds `s` (after following $ref) and the members of its allOf to `out`.
  void Expand(const Json& s, std::vector<const Json*>* out, int depth = 0) const {
    if (!s.is_object() || depth > 64) return;
    if (auto ref = s.find("$ref"); ref != s.end() && ref->is_string()) {
      const std::string& target = ref->get_ref<const std::string&>();
      if (target.empty() || target[0] != '#') return;
      try {
        const Json& resolved = schema_.doc.at(Json::json_pointer(target.substr(1)));
        Expand(resolved, out, depth + 1);
      } catch (const std::exception&) {
        // valijson resolved every reference when it compiled the schema; nothing to do.
      }
      return;
    }
    out->push_back(&s);
    if (auto all = s.find("allOf"); all != s.end() && all->is_array()) {
      for (const Json& sub : *all) Expand(sub, out, depth + 1);
    }
  }

  // Follows valijson's context ("<root>", "[spec]", "[0]" ...) through the object and schema.
  bool Resolve(const std::vector<std::string>& context, Place* place) const {
    place->node = &root_;
    place->key_mark = root_.mark;
    Expand(schema_.doc, &place->schemas);
    for (size_t i = 1; i < context.size(); ++i) {
      const std::string& step = context[i];
      if (step.size() < 2 || step.front() != '[' || step.back() != ']') return false;
      std::string_view inner(step.data() + 1, step.size() - 2);
      const Node& node = *place->node;
      std::vector<const Json*> next;
      if (node.is_seq()) {
        size_t index = 0;
        auto [end, ec] = std::from_chars(inner.data(), inner.data() + inner.size(), index);
        if (ec != std::errc() || end != inner.data() + inner.size() || index >= node.items.size()) {
          return false;
        }
        for (const Json* s : place->schemas) {
          if (auto items = s->find("items"); items != s->end()) {
            if (items->is_object()) Expand(*items, &next);
            if (items->is_array() && index < items->size()) Expand((*items)[index], &next);
          }
        }
        place->node = &node.items[index];
        place->path = Index(place->path, index);
        place->key_mark = place->node->mark;
        place->member = false;
      } else if (node.is_map()) {
        const MapEntry* entry = node.FindEntry(inner);
        if (!entry) return false;
        std::string key(inner);
        for (const Json* s : place->schemas) {
          auto props = s->find("properties");
          if (props != s->end() && props->is_object() && props->contains(key)) {
            Expand((*props)[key], &next);
          } else if (auto extra = s->find("additionalProperties");
                     extra != s->end() && extra->is_object()) {
            Expand(*extra, &next);
          }
        }
        place->node = &entry->value;
        place->path = Child(place->path, inner);
        place->key_mark = entry->key_mark;
        place->member = true;
      } else {
        return false;
      }
      place->schemas = std::move(next);
    }
    return true;
  }

  // Where a finding about the value of `place` points.
  static Mark ValueMark(const Place& place) {
    return place.node->mark.known() ? place.node->mark : place.key_mark;
  }
  static Mark KeyMark(const Place& place) {
    return place.key_mark.known() ? place.key_mark : place.node->mark;
  }
  // How messages name a path (the root has none).
  static std::string Shown(const std::string& path) { return path.empty() ? "<root>" : path; }

  // The report of the violations at `field`.
  const SchemaReport& ReportFor(std::string_view field) const {
    if (report_.subtree_report && !report_.subtree.empty() &&
        (field.find(report_.subtree) != std::string_view::npos)) {
      return *report_.subtree_report;
    }
    return report_;
  }

  // A string as the report quotes it.
  std::string Quoted(std::string_view s) const {
    return report_.quote ? report_.quote(s) : JsonQuote(s);
  }
  // A value as `field.Invalid` renders it, strings quoted as the report says.
  std::string Rendered(const Node& n) const {
    return n.is_string() ? Quoted(n.text) : RenderValue(n);
  }

  // The rule id of a violation of `keyword` at `field`: the report's, else `rule`.
  RuleId RuleFor(std::string_view keyword, std::string_view field, RuleId rule) const {
    for (const SchemaRuleId& r : ReportFor(field).rules) {
      if (r.keyword == keyword && (r.field.empty() || r.field == field)) return r.rule;
    }
    return rule;
  }

  // Adds the finding of a violation of `keyword` (once per rule and field).
  void Add(std::string_view keyword, RuleId rule, const std::string& field, std::string message,
           Mark mark, Severity severity = Severity::kError) {
    std::string id(RuleFor(keyword, field, rule).id);
    if (!seen_.emplace(id, field).second) return;
    Finding f;
    f.rule = std::move(id);
    f.severity = severity;
    f.field = field;
    if (severity == Severity::kError) f.upstream = message;
    f.message = std::move(message);
    f.mark = mark;
    findings_.push_back(std::move(f));
  }

  void Composite(const Place& place, const char* keyword, const char* what) {
    std::string p = Shown(place.path);
    Add(keyword, kSchemaInvalid, place.path,
        p + ": Invalid value: " + Rendered(*place.node) + ": " + p + " in body " + what,
        ValueMark(place));
  }

  // Re-checks the node of `place` against the keywords of its schemas.
  void Check(const Place& place) {
    const Node& n = *place.node;
    const std::string p = Shown(place.path);
    // kube-apiserver drops null fields of known (non-nullable) properties before validating;
    // a null list item is still checked.
    if (n.is_null() && (place.member || report_.skip_null_items)) return;
    for (const Json* s : place.schemas) {
      if (auto type = s->find("type"); type != s->end()) {
        std::vector<std::string> types;
        if (type->is_string()) types.push_back(type->get<std::string>());
        if (type->is_array()) {
          for (const Json& t : *type) {
            if (t.is_string()) types.push_back(t.get<std::string>());
          }
        }
        bool ok = types.empty();
        std::string expected;
        for (const std::string& t : types) {
          ok = ok || HasType(n, t);
          if (!expected.empty()) expected += ',';
          expected += t;
        }
        if (!ok) {
          std::string actual = JsonQuote(Node::KindName(n.kind));
          Add("type", kSchemaType, place.path,
              p + ": Invalid value: " + actual + ": " + p + " in body must be of type " + expected +
                  ": " + actual,
              ValueMark(place));
          return;  // The other keywords would only repeat the same mistake.
        }
      }
      if (auto values = s->find("enum"); values != s->end() && values->is_array()) {
        bool found = false;
        std::string supported;
        for (const Json& v : *values) {
          found = found || EqualsJson(n, v);
          if (!supported.empty()) supported += ", ";
          supported += RenderJson(v);
        }
        if (!found) {
          Add("enum", kSchemaEnum, place.path,
              p + ": Unsupported value: " + Rendered(n) + ": supported values: " + supported,
              ValueMark(place));
        }
      }
      if (n.is_map()) CheckObject(place, *s);
      if (n.is_seq()) CheckArray(place, *s);
      if (n.is_string()) CheckString(place, *s);
      if (n.is_number()) CheckNumber(place, *s);
    }
  }

  void CheckObject(const Place& place, const Json& s) {
    const Node& n = *place.node;
    if (auto required = s.find("required"); required != s.end() && required->is_array()) {
      for (const Json& name : *required) {
        if (!name.is_string()) continue;
        const std::string& key = name.get_ref<const std::string&>();
        const Node* value = n.Find(key);
        if (!value || value->is_null()) {
          std::string field = Child(place.path, key);
          Add("required", kSchemaRequired, field, field + ": Required value", KeyMark(place));
        }
      }
    }
    auto extra = s.find("additionalProperties");
    if (extra != s.end() && extra->is_boolean() && !extra->get<bool>()) {
      auto props = s.find("properties");
      for (const MapEntry& e : n.entries) {
        if (props != s.end() && props->is_object() && props->contains(e.key)) continue;
        std::string field = Child(place.path, e.key);
        const SchemaReport& report = ReportFor(field);
        std::string message = "unknown field " + Quoted(field);
        if (!report.unknown_field_detail.empty()) message += ": " + report.unknown_field_detail;
        Add("additionalProperties", kSchemaUnknownField, field, std::move(message),
            e.key_mark.known() ? e.key_mark : KeyMark(place), report.unknown_field_severity);
      }
    }
  }

  void CheckArray(const Place& place, const Json& s) {
    const size_t size = place.node->items.size();
    const std::string p = Shown(place.path);
    if (auto unique = s.find(kListUniqueKeyword); unique != s.end()) {
      if (std::optional<ListUniqueness> u = ParseListUniqueness(*unique)) {
        for (const ListDuplicate& d : FindListDuplicates(*place.node, *u)) {
          // At the first key field of the item (its value), else at the item.
          const Node& item = place.node->items[d.index];
          Mark mark = item.mark;
          for (const std::string& key : u->keys) {
            if (const Node* v = item.is_map() ? item.Find(key) : nullptr) {
              mark = v->mark.known() ? v->mark : mark;
              break;
            }
          }
          std::string field = Index(place.path, d.index);
          Add("x-kubernetes-list-type", kSchemaDuplicateKey, field,
              field + ": Duplicate value: " + d.value, mark.known() ? mark : ValueMark(place));
        }
      }
    }
    if (auto max = s.find("maxItems");
        max != s.end() && max->is_number_integer() && size > max->get<uint64_t>()) {
      Add("maxItems", kSchemaMaxItems, place.path,
          p + ": Too many: " + std::to_string(size) + ": must have at most " + max->dump() +
              " items",
          ValueMark(place));
    }
    if (auto min = s.find("minItems");
        min != s.end() && min->is_number_integer() && size < min->get<uint64_t>()) {
      Add("minItems", kSchemaMaxItems, place.path,
          p + ": Invalid value: " + Rendered(*place.node) + ": " + p +
              " in body should have at least " + min->dump() + " items",
          ValueMark(place));
    }
  }

  void CheckString(const Place& place, const Json& s) {
    const std::string& text = place.node->text;
    const std::string p = Shown(place.path);
    const size_t length = CodePoints(text);
    if (auto max = s.find("maxLength");
        max != s.end() && max->is_number_integer() && length > max->get<uint64_t>()) {
      Add("maxLength", kSchemaInvalid, place.path,
          p + ": Too long: may not be more than " + max->dump() + " bytes", ValueMark(place));
    }
    if (auto min = s.find("minLength");
        min != s.end() && min->is_number_integer() && length < min->get<uint64_t>()) {
      Add("minLength", kSchemaInvalid, place.path,
          p + ": Invalid value: " + Quoted(text) + ": " + p + " in body should be at least " +
              min->dump() + " chars long",
          ValueMark(place));
    }
    if (auto pattern = s.find(kPatternKey); pattern != s.end() && pattern->is_string()) {
      const std::string& source = pattern->get_ref<const std::string&>();
      re2::RE2 re(source, re2::RE2::Quiet);
      if (re.ok() && !re2::RE2::PartialMatch(text, re)) {
        Add("pattern", kSchemaInvalid, place.path,
            p + ": Invalid value: " + Quoted(text) + ": " + p + " in body should match '" + source +
                "'",
            ValueMark(place));
      }
    }
  }

  void CheckNumber(const Place& place, const Json& s) {
    const Node& n = *place.node;
    const double value = n.is_int() ? static_cast<double>(n.integer) : n.number;
    const std::string p = Shown(place.path);
    auto bound = [&](const char* keyword, bool below, bool exclusive) {
      auto it = s.find(keyword);
      if (it == s.end() || !it->is_number()) return;
      double limit = it->get<double>();
      bool bad = below ? (exclusive ? value <= limit : value < limit)
                       : (exclusive ? value >= limit : value > limit);
      if (!bad) return;
      std::string relation = below ? (exclusive ? "greater than" : "greater than or equal to")
                                   : (exclusive ? "less than" : "less than or equal to");
      Add(keyword, kSchemaMinimum, place.path,
          p + ": Invalid value: " + Rendered(n) + ": " + p + " in body should be " + relation +
              " " + NumberText(*it),
          ValueMark(place));
    };
    bound("minimum", true, false);
    bound("exclusiveMinimum", true, true);
    bound("maximum", false, false);
    bound("exclusiveMaximum", false, true);
  }

  const CompiledSchema& schema_;
  const Node& root_;
  const SchemaReport& report_;
  std::set<const Node*> checked_;
  std::set<std::pair<std::string, std::string>> seen_;  // (rule, field)
  std::vector<Finding> findings_;
};

/// Copies into `defs` the definition `name` of `from` and every definition it refers to.
void CopyDefinition(const Json& from, const std::string& name, Json* defs) {
  if (defs->contains(name)) return;
  auto it = from.find(name);
  if (it == from.end()) return;
  (*defs)[name] = *it;
  std::vector<const Json*> stack = {&*it};
  while (!stack.empty()) {
    const Json* j = stack.back();
    stack.pop_back();
    if (j->is_object()) {
      if (auto ref = j->find("$ref"); ref != j->end() && ref->is_string()) {
        const std::string& target = ref->get_ref<const std::string&>();
        const std::string prefix = "#/definitions/";
        if (target.rfind(prefix, 0) == 0) CopyDefinition(from, target.substr(prefix.size()), defs);
      }
      for (const auto& [key, value] : j->items()) stack.push_back(&value);
    } else if (j->is_array()) {
      for (const Json& value : *j) stack.push_back(&value);
    }
  }
}

/// The embedded schema `name`, parsed; null when it is missing or not JSON.
Json EmbeddedJson(const char* name) {
  const std::string* text = FindEmbedded(name);
  if (!text) return nullptr;
  Json doc = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return nullptr;
  return doc;  // Moved: a conditional expression here would copy the whole tree.
}

}  // namespace

Json BuiltinJobSetDocument() {
  // The hand-written schema, completed with the definitions generated from the JobSet CRD
  // (schemas/jobset.v1alpha2.crd.json: the Job and Pod templates, claims and status).
  Json hand = EmbeddedJson(kBuiltinSchemaName);
  Json generated = EmbeddedJson(kGeneratedSchemaName);
  if (!hand.is_object() || !generated.is_object()) return nullptr;
  Json& defs = hand["definitions"];
  for (auto& [name, def] : generated["definitions"].items()) {
    if (defs.contains(name)) return nullptr;  // One of the two is wrong.
    defs[name] = std::move(def);
  }
  return hand;
}

// The built-in schemas are compiled once, on first use (C++ makes the initialization of a
// function-local static thread-safe: `lint -j` and the webhook's threads wait for the first),
// and never destroyed: freeing their trees at exit would only add to the run's time.

std::shared_ptr<const CompiledSchema> BuiltinJobSetSchema() {
  static const auto* const compiled =
      new std::shared_ptr<const CompiledSchema>([]() -> std::shared_ptr<const CompiledSchema> {
        Json doc = BuiltinJobSetDocument();
        if (doc.is_null()) return nullptr;
        std::string error;
        return Compile(std::move(doc), &error, /*eager=*/false);
      }());
  return *compiled;
}

std::shared_ptr<const CompiledSchema> BuiltinFrameworkSchema() {
  static const auto* const compiled =
      new std::shared_ptr<const CompiledSchema>([]() -> std::shared_ptr<const CompiledSchema> {
        // A task's pod is a core/v1 PodTemplateSpec, which the Framework CRD leaves open: the
        // definition generated from the JobSet CRD (the same type) checks it.
        Json doc = EmbeddedJson(kFrameworkSchemaName);
        Json generated = EmbeddedJson(kGeneratedSchemaName);
        if (!doc.is_object() || !generated.is_object()) return nullptr;
        CopyDefinition(generated["definitions"], "PodTemplateSpec", &doc["definitions"]);
        std::string error;
        return Compile(std::move(doc), &error, /*eager=*/false);
      }());
  return *compiled;
}

Json BuiltinVolcanoJobDocument() {
  // The root, completed with the definitions generated from the Volcano CRD and the
  // ObjectMeta of the hand-written JobSet schema (parsed, not compiled: a Volcano lint does not
  // build the JobSet schema).
  Json doc = EmbeddedJson(kVolcanoSchemaName);
  Json generated = EmbeddedJson(kVolcanoGeneratedSchemaName);
  Json jobset = EmbeddedJson(kBuiltinSchemaName);
  if (!doc.is_object() || !generated.is_object() || !jobset.is_object()) return nullptr;
  Json& defs = doc["definitions"];
  for (auto& [name, def] : generated["definitions"].items()) {
    if (defs.contains(name)) return nullptr;
    defs[name] = std::move(def);
  }
  CopyDefinition(jobset["definitions"], "ObjectMeta", &defs);
  return doc;
}

std::shared_ptr<const CompiledSchema> BuiltinVolcanoJobSchema() {
  static const auto* const compiled =
      new std::shared_ptr<const CompiledSchema>([]() -> std::shared_ptr<const CompiledSchema> {
        Json doc = BuiltinVolcanoJobDocument();
        if (doc.is_null()) return nullptr;
        std::string error;
        return Compile(std::move(doc), &error, /*eager=*/false);
      }());
  return *compiled;
}

std::shared_ptr<const CompiledSchema> CompileCrdSchema(const Node& crd, const std::string& version,
                                                       std::string* error) {
  std::string ignored;
  if (!error) error = &ignored;
  const Node* open_api = FindCrdSchema(crd, version, nullptr, error);
  if (!open_api) return nullptr;
  // The JobSet admission checks (validation/jobset/validation.cc, ValidateKeyedList) report
  // duplicate names of replicated jobs and of dependsOn, with or without a schema: the schema
  // leaves those two lists to them, as the built-in one does.
  CrdImportOptions options;
  options.skip_list_types = {"spec.replicatedJobs", "spec.replicatedJobs[].dependsOn"};
  Json root;
  if (!ConvertCrdSchema(*open_api, options, &root, error)) return nullptr;

  // The CRD's schema says nothing about the standard fields; the API server checks metadata
  // itself. Use our ObjectMeta definition for it.
  std::shared_ptr<const CompiledSchema> builtin = BuiltinJobSetSchema();
  if (!builtin) {
    *error = "the built-in schema is not available";
    return nullptr;
  }
  Json& props = root["properties"];
  if (!props.contains("apiVersion")) props["apiVersion"] = {{"type", "string"}};
  if (!props.contains("kind")) props["kind"] = {{"type", "string"}};
  props["metadata"] = {{"$ref", "#/definitions/ObjectMeta"}};
  Json defs = Json::object();
  CopyDefinition(builtin->doc.at("definitions"), "ObjectMeta", &defs);
  root["definitions"] = std::move(defs);
  return Compile(std::move(root), error, /*eager=*/true);
}

const valijson::Schema& CompiledSchema::Valijson() const {
  std::call_once(once, [this] {
    schema = PopulateValijson(doc, nullptr);
    if (!schema) schema = std::make_unique<valijson::Schema>();
  });
  return *schema;
}

FastVerdict FastSchemaVerdict(const CompiledSchema& schema, const Node& object) {
  return schema.fast.Check(object);
}

bool ValijsonSchemaValid(const CompiledSchema& schema, const Node& object) {
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  return validator.validate(schema.Valijson(), NodeAdapter(object), &results);
}

std::vector<Finding> ValidateSchema(const CompiledSchema& schema, const Node& object,
                                    const SchemaReport& report) {
  // Most objects are valid: the fast check says so without valijson. When it finds the object
  // invalid, or cannot tell, valijson decides and explains, exactly as without the fast check.
  if (schema.fast.Check(object) == FastVerdict::kValid) return {};
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  if (validator.validate(schema.Valijson(), NodeAdapter(object), &results)) return {};
  Explainer explainer(schema, object, report);
  valijson::ValidationResults::Error error;
  while (results.popError(error)) explainer.Explain(error);
  return explainer.Take();
}

nlohmann::json SchemaJson(const Node& n) {
  switch (n.kind) {
    case Node::Kind::kNull:
      return nullptr;
    case Node::Kind::kBool:
      return n.boolean;
    case Node::Kind::kInt:
      return n.integer;
    case Node::Kind::kFloat:
      return n.number;
    case Node::Kind::kString:
      return n.text;
    case Node::Kind::kSeq: {
      Json a = Json::array();
      for (const Node& item : n.items) a.push_back(SchemaJson(item));
      return a;
    }
    case Node::Kind::kMap: {
      Json o = Json::object();
      for (const MapEntry& e : n.entries) o[e.key] = SchemaJson(e.value);
      return o;
    }
  }
  return nullptr;
}

}  // namespace jobset
