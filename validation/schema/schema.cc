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
#include "validation/schema/fast_schema.h"
#include "validation/schema/node_adapter.h"  // First: configures valijson.
#include "validation/schema/rules.h"
#include "validation/schema/schema_internal.h"

namespace jobset {

using Json = nlohmann::json;

/// A JSON Schema document and valijson's compiled form of it. Immutable once built.
struct CompiledSchema {
  Json doc;  ///< The schema as valijson compiled it (patterns renamed, see below).
  valijson::Schema schema;
  FastSchema fast;  ///< The same schema for the fast check (compiled from `doc`).
};

namespace {

// valijson matches `pattern` with std::regex, whose backtracking recursion can overflow the
// stack on long input, and whose syntax is not Go's. Patterns are therefore renamed to this
// keyword before compiling, and matched with RE2 (the syntax Kubernetes uses) instead.
constexpr char kPatternKey[] = "x-jobset-re2-pattern";

constexpr char kBuiltinSchemaName[] = "jobset.v1alpha2.json";
constexpr char kVolcanoSchemaName[] = "volcano.v1alpha1.json";
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

/// Renames `pattern` to kPatternKey in every schema of `s` (walking only schema positions, so
/// that a property that happens to be called "pattern" keeps its name).
void RenamePatterns(Json& s) {
  if (!s.is_object()) return;
  if (auto it = s.find("pattern"); it != s.end() && it->is_string()) {
    Json pattern = std::move(*it);
    s.erase(it);
    s[kPatternKey] = std::move(pattern);
  }
  for (const char* key : {"properties", "definitions"}) {
    if (auto it = s.find(key); it != s.end() && it->is_object()) {
      for (auto& [name, sub] : it->items()) RenamePatterns(sub);
    }
  }
  for (const char* key : {"additionalProperties", "items", "not"}) {
    if (auto it = s.find(key); it != s.end()) {
      if (it->is_array()) {
        for (Json& sub : *it) RenamePatterns(sub);
      } else {
        RenamePatterns(*it);
      }
    }
  }
  for (const char* key : {"allOf", "anyOf", "oneOf"}) {
    if (auto it = s.find(key); it != s.end() && it->is_array()) {
      for (Json& sub : *it) RenamePatterns(sub);
    }
  }
}

/// Compiles a JSON Schema (draft 7) document; nullptr and a message when valijson refuses it.
std::shared_ptr<const CompiledSchema> Compile(Json doc, std::string* error) {
  auto out = std::make_shared<CompiledSchema>();
  out->doc = std::move(doc);
  RenamePatterns(out->doc);
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.addConstraintBuilder(kPatternKey, new Re2PatternBuilder());
    valijson::adapters::NlohmannJsonAdapter adapter(out->doc);
    parser.populateSchema(adapter, out->schema);
  } catch (const std::exception& e) {
    if (error) *error = std::string("invalid schema: ") + e.what();
    return nullptr;
  }
  out->fast = FastSchema::Compile(out->doc, kPatternKey);
  return out;
}

// ---- Rendering values the way Kubernetes field errors do --------------------------------------

/// A string in double quotes with JSON escapes (what Go's %q gives for ordinary text).
std::string Quote(std::string_view s) {
  return Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// The shortest text that reads back as `d` ("1.5", "100", "1e+21").
std::string DoubleText(double d) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(d);
}

/// A Node as compact JSON.
Json NodeToJson(const Node& n) {
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
      for (const Node& item : n.items) a.push_back(NodeToJson(item));
      return a;
    }
    case Node::Kind::kMap: {
      Json o = Json::object();
      for (const MapEntry& e : n.entries) o[e.key] = NodeToJson(e.value);
      return o;
    }
  }
  return nullptr;
}

/// A value as `field.Invalid` renders it: strings quoted, numbers and booleans bare, null as
/// null, lists and objects as compact JSON.
std::string RenderValue(const Node& n) {
  switch (n.kind) {
    case Node::Kind::kString:
      return Quote(n.text);
    case Node::Kind::kInt:
      return std::to_string(n.integer);
    case Node::Kind::kFloat:
      return DoubleText(n.number);
    case Node::Kind::kBool:
      return n.boolean ? "true" : "false";
    case Node::Kind::kNull:
      return "null";
    default:
      return NodeToJson(n).dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

/// A schema's number ("0", "2.5").
std::string NumberText(const Json& j) {
  if (j.is_number_integer()) return j.dump();
  return DoubleText(j.get<double>());
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

  // A string as the report quotes it.
  std::string Quoted(std::string_view s) const {
    return report_.quote ? report_.quote(s) : Quote(s);
  }
  // A value as `field.Invalid` renders it, strings quoted as the report says.
  std::string Rendered(const Node& n) const {
    return n.is_string() ? Quoted(n.text) : RenderValue(n);
  }

  // The rule id of a violation of `keyword` at `field`: the report's, else `rule`.
  RuleId RuleFor(std::string_view keyword, std::string_view field, RuleId rule) const {
    for (const SchemaRuleId& r : report_.rules) {
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
          std::string actual = Quote(Node::KindName(n.kind));
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
        std::string message = "unknown field " + Quoted(field);
        if (!report_.unknown_field_detail.empty()) message += ": " + report_.unknown_field_detail;
        Add("additionalProperties", kSchemaUnknownField, field, std::move(message),
            e.key_mark.known() ? e.key_mark : KeyMark(place), report_.unknown_field_severity);
      }
    }
  }

  void CheckArray(const Place& place, const Json& s) {
    const size_t size = place.node->items.size();
    const std::string p = Shown(place.path);
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

// ---- From a CRD's OpenAPI v3 schema to JSON Schema --------------------------------------------

/// Whether `n` is the boolean true.
bool IsTrue(const Node* n) { return n && n->is_bool() && n->boolean; }

/// Converts one OpenAPI v3 (structural) schema. `structural` is false inside allOf/anyOf/oneOf/
/// not, whose schemas only validate values and never decide which fields exist.
bool ConvertSchema(const Node& in, const std::string& where, bool structural, Json* out,
                   std::string* error);

/// Converts the schemas of an allOf/anyOf/oneOf list (value validations only).
bool ConvertList(const Node& in, const std::string& where, Json* out, std::string* error) {
  if (!in.is_seq()) {
    *error = where + ": must be a list of schemas";
    return false;
  }
  *out = Json::array();
  for (size_t i = 0; i < in.items.size(); ++i) {
    Json sub;
    if (!ConvertSchema(in.items[i], Index(where, i), false, &sub, error)) return false;
    out->push_back(std::move(sub));
  }
  return true;
}

/// Whether an anyOf/oneOf is only the `[{type: integer}, {type: string}]` spelling of
/// x-kubernetes-int-or-string.
bool IsIntOrStringAlternatives(const Node& list) {
  if (!list.is_seq() || list.items.size() != 2) return false;
  std::set<std::string> types;
  for (const Node& alt : list.items) {
    if (!alt.is_map() || alt.entries.size() != 1) return false;
    std::string_view type = alt.StringOr("type");
    if (type != "integer" && type != "string") return false;
    types.emplace(type);
  }
  return types.size() == 2;
}

bool ConvertSchema(const Node& in, const std::string& where, bool structural, Json* out,
                   std::string* error) {
  if (!in.is_map()) {
    *error = where + ": a schema must be a mapping";
    return false;
  }
  Json o = Json::object();
  const bool nullable = IsTrue(in.Find("nullable"));
  const bool int_or_string = IsTrue(in.Find("x-kubernetes-int-or-string"));
  const bool preserve_unknown = IsTrue(in.Find("x-kubernetes-preserve-unknown-fields"));
  const bool embedded = IsTrue(in.Find("x-kubernetes-embedded-resource"));

  std::vector<std::string> types;
  if (const Node* type = in.Find("type"); type && !type->is_null()) {
    static const std::set<std::string, std::less<>> kTypes = {"object",  "array",  "string",
                                                              "integer", "number", "boolean"};
    if (!type->is_string() || !kTypes.count(type->text)) {
      *error = Child(where, "type") + ": unsupported type " + RenderValue(*type);
      return false;
    }
    types.push_back(type->text);
  }
  if (int_or_string) types = {"integer", "string"};
  if (nullable && !types.empty()) types.push_back("null");
  if (types.size() == 1) o["type"] = types[0];
  if (types.size() > 1) o["type"] = types;

  for (const MapEntry& e : in.entries) {
    const std::string at = Child(where, e.key);
    const Node& v = e.value;
    if (e.key == "properties") {
      if (!v.is_map()) {
        *error = at + ": must be a mapping";
        return false;
      }
      Json props = Json::object();
      for (const MapEntry& p : v.entries) {
        Json sub;
        if (!ConvertSchema(p.value, Child(at, p.key), structural, &sub, error)) return false;
        props[p.key] = std::move(sub);
      }
      o["properties"] = std::move(props);
    } else if (e.key == "additionalProperties") {
      if (v.is_bool()) {
        o["additionalProperties"] = v.boolean;
      } else {
        Json sub;
        if (!ConvertSchema(v, at, structural, &sub, error)) return false;
        o["additionalProperties"] = std::move(sub);
      }
    } else if (e.key == "items") {
      Json sub;
      if (!ConvertSchema(v, at, structural, &sub, error)) return false;
      o["items"] = std::move(sub);
    } else if (e.key == "required") {
      if (!v.is_seq()) {
        *error = at + ": must be a list of strings";
        return false;
      }
      Json names = Json::array();
      for (const Node& name : v.items) {
        if (!name.is_string()) {
          *error = at + ": must be a list of strings";
          return false;
        }
        names.push_back(name.text);
      }
      if (!names.empty()) o["required"] = std::move(names);
    } else if (e.key == "enum") {
      if (!v.is_seq()) {
        *error = at + ": must be a list";
        return false;
      }
      Json values = NodeToJson(v);
      if (nullable) values.push_back(nullptr);
      o["enum"] = std::move(values);
    } else if (e.key == "minimum" || e.key == "maximum") {
      if (!v.is_number()) {
        *error = at + ": must be a number";
        return false;
      }
      // OpenAPI v3.0 spells an exclusive bound as a flag beside it; draft 7 as its own keyword.
      const char* exclusive_keyword = e.key == "minimum" ? "exclusiveMinimum" : "exclusiveMaximum";
      const std::string keyword = IsTrue(in.Find(exclusive_keyword)) ? exclusive_keyword : e.key;
      o[keyword] = NodeToJson(v);
    } else if (e.key == "minItems" || e.key == "maxItems" || e.key == "minLength" ||
               e.key == "maxLength") {
      if (!v.is_int() || v.integer < 0) {
        *error = at + ": must be a non-negative integer";
        return false;
      }
      o[e.key] = v.integer;
    } else if (e.key == "pattern") {
      if (!v.is_string()) {
        *error = at + ": must be a string";
        return false;
      }
      re2::RE2 re(v.text, re2::RE2::Quiet);
      if (!re.ok()) {
        *error = at + ": invalid regular expression: " + re.error();
        return false;
      }
      o["pattern"] = v.text;
    } else if (e.key == "allOf" || e.key == "anyOf" || e.key == "oneOf") {
      if (int_or_string && e.key != "allOf" && IsIntOrStringAlternatives(v)) continue;
      Json list;
      if (!ConvertList(v, at, &list, error)) return false;
      o[e.key] = std::move(list);
    } else if (e.key == "not") {
      Json sub;
      if (!ConvertSchema(v, at, false, &sub, error)) return false;
      o["not"] = std::move(sub);
    }
    // Everything else (description, format, default, nullable, example, x-kubernetes-*, ...)
    // is dropped: it does not reject values, or is handled above.
  }

  if (structural && embedded) {
    // An embedded resource always has apiVersion, kind and (validated) metadata.
    Json& props = o["properties"];
    if (!props.contains("apiVersion")) props["apiVersion"] = {{"type", "string"}};
    if (!props.contains("kind")) props["kind"] = {{"type", "string"}};
    if (!props.contains("metadata")) props["metadata"] = {{"$ref", "#/definitions/ObjectMeta"}};
  }
  // Pruning removes every field a structural object does not declare; strict field
  // validation reports them as unknown.
  const bool object =
      o.contains("properties") || std::find(types.begin(), types.end(), "object") != types.end();
  if (structural && object && !preserve_unknown && !o.contains("additionalProperties")) {
    o["additionalProperties"] = false;
  }
  *out = std::move(o);
  return true;
}

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

/// Compiles the embedded schema `name` as it is; nullptr when it is missing or invalid.
std::shared_ptr<const CompiledSchema> CompileEmbedded(const char* name) {
  const std::string* text = FindEmbedded(name);
  if (!text) return nullptr;
  Json doc = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return nullptr;
  std::string error;
  return Compile(std::move(doc), &error);
}

}  // namespace

std::shared_ptr<const CompiledSchema> BuiltinJobSetSchema() {
  // Compiled once, on first use; C++ makes the initialization thread-safe.
  static const std::shared_ptr<const CompiledSchema> compiled = CompileEmbedded(kBuiltinSchemaName);
  return compiled;
}

std::shared_ptr<const CompiledSchema> BuiltinFrameworkSchema() {
  static const std::shared_ptr<const CompiledSchema> compiled =
      CompileEmbedded(kFrameworkSchemaName);
  return compiled;
}

std::shared_ptr<const CompiledSchema> BuiltinVolcanoJobSchema() {
  static const std::shared_ptr<const CompiledSchema> compiled =
      []() -> std::shared_ptr<const CompiledSchema> {
    const std::string* text = FindEmbedded(kVolcanoSchemaName);
    std::shared_ptr<const CompiledSchema> jobset = BuiltinJobSetSchema();
    if (!text || !jobset) return nullptr;
    Json doc = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return nullptr;
    Json& defs = doc["definitions"];
    for (const char* name : {"ObjectMeta", "PodTemplateSpec"}) {
      CopyDefinition(jobset->doc.at("definitions"), name, &defs);
    }
    std::string error;
    return Compile(std::move(doc), &error);
  }();
  return compiled;
}

std::shared_ptr<const CompiledSchema> CompileCrdSchema(const Node& crd, const std::string& version,
                                                       std::string* error) {
  std::string ignored;
  if (!error) error = &ignored;
  if (!crd.is_map() || crd.StringOr("kind") != "CustomResourceDefinition" ||
      crd.StringOr("apiVersion").rfind("apiextensions.k8s.io/", 0) != 0) {
    *error = "not a CustomResourceDefinition (apiVersion " + Quote(crd.StringOr("apiVersion")) +
             ", kind " + Quote(crd.StringOr("kind")) + ")";
    return nullptr;
  }
  const Node* meta = crd.Find("metadata");
  const std::string crd_name = meta ? std::string(meta->StringOr("name")) : std::string();
  const std::string what = "CustomResourceDefinition " + Quote(crd_name);
  const Node* spec = crd.Find("spec");
  const Node* versions = spec ? spec->Find("versions") : nullptr;
  if (!versions || !versions->is_seq() || versions->items.empty()) {
    *error = what + " has no spec.versions";
    return nullptr;
  }
  const Node* chosen = nullptr;
  std::string names;
  for (const Node& v : versions->items) {
    const std::string_view name = v.StringOr("name");
    if (!names.empty()) names += ", ";
    names += name;
    const bool served = IsTrue(v.Find("served"));
    if (!chosen && (version.empty() ? served : name == version)) chosen = &v;
  }
  if (!chosen) {
    *error = version.empty()
                 ? what + " serves no version"
                 : what + " has no version " + Quote(version) + " (it has " + names + ")";
    return nullptr;
  }
  if (!IsTrue(chosen->Find("served"))) {
    *error = what + " does not serve version " + Quote(version);
    return nullptr;
  }
  const Node* schema = chosen->Find("schema");
  const Node* open_api = schema ? schema->Find("openAPIV3Schema") : nullptr;
  if (!open_api) {
    // apiextensions.k8s.io/v1beta1 could give one schema for all versions.
    const Node* validation = spec->Find("validation");
    open_api = validation ? validation->Find("openAPIV3Schema") : nullptr;
  }
  if (!open_api) {
    *error = what + " version " + Quote(std::string(chosen->StringOr("name"))) +
             " has no schema.openAPIV3Schema";
    return nullptr;
  }
  Json root;
  if (!ConvertSchema(*open_api, "openAPIV3Schema", true, &root, error)) return nullptr;

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
  return Compile(std::move(root), error);
}

FastVerdict FastSchemaVerdict(const CompiledSchema& schema, const Node& object) {
  return schema.fast.Check(object);
}

bool ValijsonSchemaValid(const CompiledSchema& schema, const Node& object) {
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  return validator.validate(schema.schema, NodeAdapter(object), &results);
}

std::vector<Finding> ValidateSchema(const CompiledSchema& schema, const Node& object,
                                    const SchemaReport& report) {
  // Most objects are valid: the fast check says so without valijson. When it finds the object
  // invalid, or cannot tell, valijson decides and explains, exactly as without the fast check.
  if (schema.fast.Check(object) == FastVerdict::kValid) return {};
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  if (validator.validate(schema.schema, NodeAdapter(object), &results)) return {};
  Explainer explainer(schema, object, report);
  valijson::ValidationResults::Error error;
  while (results.popError(error)) explainer.Explain(error);
  return explainer.Take();
}

}  // namespace jobset
