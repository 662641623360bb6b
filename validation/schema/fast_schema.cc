// The fast validity check. Every rule below mirrors one valijson keyword as
// valijson/validation_visitor.hpp applies it with kStrongTypes to a NodeAdapter
// (validation/schema/node_adapter.h); a keyword whose behaviour is not mirrored makes its schema
// unsupported, and reaching an unsupported schema makes the verdict kUnsure.
//
// The verdict is the conjunction of the keywords, as valijson's is: a single violated keyword
// makes the object invalid whatever the unsupported schemas elsewhere would say.
#include "validation/schema/fast_schema.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <unordered_map>
#include <utility>

#include "validation/schema/list_type.h"

namespace jobset {

using Json = nlohmann::json;

namespace {

/// One bit per JSON Schema type name.
enum TypeBit : uint8_t {
  kNullBit = 1,
  kBooleanBit = 2,
  kIntegerBit = 4,
  kNumberBit = 8,
  kStringBit = 16,
  kArrayBit = 32,
  kObjectBit = 64,
};

/// The type names a value of kind `kind` satisfies with strong types: NodeAdapter's isInteger
/// is a kInt, its isNumber a kInt or a kFloat; a string is never a number, whatever it holds.
uint8_t KindBits(Node::Kind kind) {
  switch (kind) {
    case Node::Kind::kNull:
      return kNullBit;
    case Node::Kind::kBool:
      return kBooleanBit;
    case Node::Kind::kInt:
      return kIntegerBit | kNumberBit;
    case Node::Kind::kFloat:
      return kNumberBit;
    case Node::Kind::kString:
      return kStringBit;
    case Node::Kind::kSeq:
      return kArrayBit;
    case Node::Kind::kMap:
      return kObjectBit;
  }
  return 0;
}

/// The bit of a type name; 0 for "any" (left to valijson) and names valijson refuses.
uint8_t TypeNameBit(const Json& name) {
  if (!name.is_string()) return 0;
  const std::string& s = name.get_ref<const std::string&>();
  if (s == "null") return kNullBit;
  if (s == "boolean") return kBooleanBit;
  if (s == "integer") return kIntegerBit;
  if (s == "number") return kNumberBit;
  if (s == "string") return kStringBit;
  if (s == "array") return kArrayBit;
  if (s == "object") return kObjectBit;
  return 0;
}

/// The length valijson gives a string: utils::u8_strlen of its c_str(), step by step. It counts
/// "characters" up to the first NUL, a character being one byte and every continuation byte
/// (10xxxxxx) after it, and it stops, without counting it, at a character that decodes to 0:
/// an overlong NUL (C0 80, E0 80 80, F0 80 80 80, F8 80 80 80 80). For well-formed UTF-8 this is
/// the number of code points. nullopt for a character of more than six bytes, where valijson
/// reads past the end of its table of offsets.
std::optional<uint64_t> ValijsonLength(std::string_view s) {
  auto byte = [&](size_t at) { return static_cast<unsigned char>(s[at]); };
  auto continuation = [&](size_t at) { return (byte(at) & 0xC0) == 0x80; };
  uint64_t count = 0;
  size_t i = 0;
  const size_t n = s.size();
  while (i < n && byte(i) != 0) {
    const size_t start = i++;
    while (i < n && continuation(i)) ++i;
    const size_t size = i - start;
    if (size > 6) return std::nullopt;
    // The lead byte whose sequence of `size` bytes, all others 0x80, decodes to 0 (none for one
    // byte, which is not NUL here, nor for six, whose offset valijson keeps truncated to 32
    // bits).
    static constexpr unsigned char kZeroLead[7] = {0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0};
    if (kZeroLead[size] != 0 && byte(start) == kZeroLead[size]) {
      bool zero = true;
      for (size_t k = start + 1; k < i; ++k) zero = zero && byte(k) == 0x80;
      if (zero) break;
    }
    ++count;
  }
  return count;
}

/// The value of minItems, maxItems, minLength or maxLength: a non-negative integer (valijson
/// refuses other values, or reads a float through a conversion we do not repeat).
bool CountLimit(const Json& v, uint64_t* out) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
    *out = u;
    return true;
  }
  if (v.is_number_integer() && v.get<int64_t>() >= 0) {
    *out = static_cast<uint64_t>(v.get<int64_t>());
    return true;
  }
  return false;
}

/// A bound (minimum ...) as valijson keeps it: a double, from a float or from an int64.
bool BoundValue(const Json& v, double* out) {
  if (v.is_number_float()) {
    *out = v.get<double>();
    return true;
  }
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return false;  // valijson reads it as an int64: it wraps.
    }
    *out = static_cast<double>(v.get<int64_t>());
    return true;
  }
  if (v.is_number_integer()) {
    *out = static_cast<double>(v.get<int64_t>());
    return true;
  }
  return false;
}

/// Whether `s` has no NUL: valijson passes property names through c_str().
bool NoNul(const std::string& s) { return s.find('\0') == std::string::npos; }

}  // namespace

/// One compiled schema: the keywords valijson would check on a value, as plain data.
struct FastSchema::Rule {
  /// A bound of minimum, exclusiveMinimum, maximum or exclusiveMaximum.
  struct Bound {
    double limit;
    bool exclusive;
  };
  /// An enum value: null, a boolean or a string (enums of other values are unsupported).
  struct EnumValue {
    Node::Kind kind;
    bool boolean;
    std::string text;
  };
  /// What additionalProperties says about the entries `properties` does not match.
  enum class Extra : uint8_t {
    kAny,     ///< Absent or true: anything goes.
    kNone,    ///< false: there must be none.
    kSchema,  ///< A schema each of them must satisfy.
  };

  /// The schema has a keyword (or a form of one) the fast check does not decide.
  bool unsupported = false;

  bool has_type = false;
  uint8_t types = 0;  ///< TypeBits.
  bool has_enum = false;
  std::vector<EnumValue> enum_values;
  /// `format` is present: valijson's FormatConstraint reads every value as a string first,
  /// which fails hard (throwRuntimeError) for a non-empty object or array, so those are left to
  /// valijson. (The formats it checks, date, time and date-time, make the schema unsupported.)
  bool format_reads_strings = false;

  std::vector<Bound> minimums, maximums;  ///< Numbers (kInt and kFloat).
  std::optional<uint64_t> min_length, max_length;
  std::shared_ptr<const re2::RE2> pattern;  ///< Strings must contain a match.
  std::optional<uint64_t> min_items, max_items;
  const Rule* items = nullptr;           ///< Each item of an array (the object form of `items`).
  std::optional<ListUniqueness> unique;  ///< kListUniqueKeyword: no duplicate items or keys.

  std::vector<std::string> required;
  /// valijson builds a PropertiesConstraint: `properties` or `additionalProperties` is present.
  bool has_properties = false;
  /// Sorted by name length, then name: the properties of one length are
  /// properties[by_length[n], by_length[n + 1]), so a lookup compares few names, of equal length.
  std::vector<std::pair<std::string, const Rule*>> properties;
  std::vector<uint32_t> by_length;  ///< Longest name + 2 entries (empty without properties).
  Extra extra = Extra::kAny;
  const Rule* extra_schema = nullptr;  ///< For Extra::kSchema.

  std::vector<const Rule*> all_of;

  /// valijson's verdict on `value` under this schema, or kUnsure.
  FastVerdict Check(const Node& value) const;

 private:
  /// Whether `value` equals one of enum_values.
  bool InEnum(const Node& value) const;
  /// The verdict of required, properties and additionalProperties on a mapping.
  FastVerdict CheckObject(const Node& value) const;
  /// The schema of property `name`, and its index in `properties`; nullptr when it has none.
  const Rule* Property(const std::string& name, size_t* index) const;
};

bool FastSchema::Rule::InEnum(const Node& value) const {
  // valijson compares the schema's value with the target, strictly: a null only equals a null,
  // a boolean a boolean, a string a string with the same bytes.
  for (const EnumValue& e : enum_values) {
    if (e.kind != value.kind) continue;
    switch (e.kind) {
      case Node::Kind::kNull:
        return true;
      case Node::Kind::kBool:
        if (e.boolean == value.boolean) return true;
        break;
      case Node::Kind::kString:
        if (e.text == value.text) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

const FastSchema::Rule* FastSchema::Rule::Property(const std::string& name, size_t* index) const {
  const size_t length = name.size();
  if (length + 1 >= by_length.size()) return nullptr;
  for (size_t i = by_length[length], end = by_length[length + 1]; i < end; ++i) {
    if (std::memcmp(properties[i].first.data(), name.data(), length) == 0) {
      *index = i;
      return properties[i].second;
    }
  }
  return nullptr;
}

FastVerdict FastSchema::Rule::Check(const Node& value) const {
  if (unsupported) return FastVerdict::kUnsure;
  if (has_type && (types & KindBits(value.kind)) == 0) return FastVerdict::kInvalid;
  if (has_enum && !InEnum(value)) return FastVerdict::kInvalid;
  bool unsure = false;
  switch (value.kind) {
    case Node::Kind::kInt:
    case Node::Kind::kFloat: {
      // valijson compares doubles: an integer is converted (losing precision past 2^53, as
      // valijson does); a NaN fails no bound.
      const double d = value.is_int() ? static_cast<double>(value.integer) : value.number;
      for (const Bound& b : minimums) {
        if (b.exclusive ? d <= b.limit : d < b.limit) return FastVerdict::kInvalid;
      }
      for (const Bound& b : maximums) {
        if (b.exclusive ? d >= b.limit : d > b.limit) return FastVerdict::kInvalid;
      }
      break;
    }
    case Node::Kind::kString:
      if (min_length || max_length) {
        std::optional<uint64_t> length = ValijsonLength(value.text);
        if (!length) {
          unsure = true;
        } else if ((min_length && *length < *min_length) || (max_length && *length > *max_length)) {
          return FastVerdict::kInvalid;
        }
      }
      if (pattern && !re2::RE2::PartialMatch(value.text, *pattern)) return FastVerdict::kInvalid;
      break;
    case Node::Kind::kSeq: {
      const size_t size = value.items.size();
      if ((min_items && size < *min_items) || (max_items && size > *max_items)) {
        return FastVerdict::kInvalid;
      }
      if (format_reads_strings && size > 0) unsure = true;
      if (unique && !FindListDuplicates(value, *unique).empty()) return FastVerdict::kInvalid;
      if (items) {
        for (const Node& item : value.items) {
          FastVerdict v = items->Check(item);
          if (v == FastVerdict::kInvalid) return v;
          unsure = unsure || v == FastVerdict::kUnsure;
        }
      }
      break;
    }
    case Node::Kind::kMap: {
      if (format_reads_strings && !value.entries.empty()) unsure = true;
      FastVerdict v = CheckObject(value);
      if (v == FastVerdict::kInvalid) return v;
      unsure = unsure || v == FastVerdict::kUnsure;
      break;
    }
    default:
      break;
  }
  for (const Rule* sub : all_of) {
    FastVerdict v = sub->Check(value);
    if (v == FastVerdict::kInvalid) return v;
    unsure = unsure || v == FastVerdict::kUnsure;
  }
  return unsure ? FastVerdict::kUnsure : FastVerdict::kValid;
}

FastVerdict FastSchema::Rule::CheckObject(const Node& value) const {
  // NodeObject::find gives the first entry with the name, and none when its value is null.
  for (const std::string& name : required) {
    const MapEntry* found = nullptr;
    for (const MapEntry& e : value.entries) {
      if (e.key == name) {
        found = &e;
        break;
      }
    }
    if (!found || found->value.is_null()) return FastVerdict::kInvalid;
  }
  if (!has_properties) return FastVerdict::kValid;

  // valijson's PropertiesConstraint: each property found (first entry, non-null value) is
  // "matched" and checked against its schema. Then, without an additionalProperties schema, the
  // number of matched names must equal the number of entries (null-valued and repeated ones
  // included); with one, every entry whose name is not matched is checked against it.
  // state[i] for properties[i]: 0 not seen yet, 1 matched, 2 first seen with a null value.
  constexpr size_t kInline = 64;
  uint8_t inline_state[kInline] = {};
  std::vector<uint8_t> heap_state;
  uint8_t* state = inline_state;
  if (properties.size() > kInline) {
    heap_state.assign(properties.size(), 0);
    state = heap_state.data();
  }
  bool unsure = false;
  for (const MapEntry& e : value.entries) {
    size_t index = 0;
    if (const Rule* schema = Property(e.key, &index)) {
      uint8_t& s = state[index];
      if (s == 0) {
        s = e.value.is_null() ? 2 : 1;
        if (s == 1) {
          FastVerdict v = schema->Check(e.value);
          if (v == FastVerdict::kInvalid) return v;
          unsure = unsure || v == FastVerdict::kUnsure;
          continue;
        }
      } else if (s == 1) {
        // A repeated entry of a matched name: counted by getObjectSize, never checked.
        if (extra == Extra::kNone) return FastVerdict::kInvalid;
        continue;
      }
    }
    // Not matched: unknown, or its first entry is null.
    if (extra == Extra::kNone) return FastVerdict::kInvalid;
    if (extra == Extra::kSchema) {
      FastVerdict v = extra_schema->Check(e.value);
      if (v == FastVerdict::kInvalid) return v;
      unsure = unsure || v == FastVerdict::kUnsure;
    }
  }
  return unsure ? FastVerdict::kUnsure : FastVerdict::kValid;
}

/// Builds the rules of one schema document.
class FastSchema::Compiler {
 public:
  /// Compiles into `out`, which owns the rules.
  Compiler(const Json& doc, std::string_view pattern_keyword, FastSchema* out)
      : doc_(doc), pattern_keyword_(pattern_keyword), out_(out) {}

  /// The rule of schema `s` after following its `$ref`s (valijson ignores the other keywords of
  /// a schema that has one), compiled once per schema object so that recursive references end.
  const Rule* Compile(const Json& s) {
    const Json* target = &s;
    for (int hops = 0; target->is_object(); ++hops) {
      auto ref = target->find("$ref");
      if (ref == target->end()) break;
      if (hops == 32 || !ref->is_string()) return Unsupported();
      target = Resolve(ref->get_ref<const std::string&>());
      if (!target) return Unsupported();
    }
    // Boolean schemas (other than additionalProperties) are left to valijson.
    if (!target->is_object()) return Unsupported();
    if (auto it = memo_.find(target); it != memo_.end()) return it->second;
    Rule* rule = NewRule();
    memo_.emplace(target, rule);
    Fill(*target, rule);
    return rule;
  }

 private:
  Rule* NewRule() {
    out_->rules_.push_back(std::make_unique<Rule>());
    return out_->rules_.back().get();
  }

  const Rule* Unsupported() {
    if (!unsupported_) {
      Rule* r = NewRule();
      r->unsupported = true;
      unsupported_ = r;
    }
    return unsupported_;
  }

  // A reference into this document ("#" or "#/a/b"); nullptr for any other (another document,
  // escapes, trailing slashes, array indices), which valijson resolves its own way.
  const Json* Resolve(const std::string& ref) const {
    if (ref.empty() || ref[0] != '#') return nullptr;
    const Json* at = &doc_;
    if (ref.size() == 1) return at;
    if (ref[1] != '/') return nullptr;
    size_t start = 2;
    while (true) {
      size_t end = ref.find('/', start);
      std::string token = ref.substr(start, end == std::string::npos ? end : end - start);
      if (token.empty() || token.find_first_of("~%") != std::string::npos) return nullptr;
      if (!at->is_object()) return nullptr;
      auto it = at->find(token);
      if (it == at->end()) return nullptr;
      at = &*it;
      if (end == std::string::npos) return at;
      start = end + 1;
    }
  }

  void Fill(const Json& s, Rule* r) {
    for (auto it = s.begin(); it != s.end(); ++it) {
      if (!Keyword(it.key(), it.value(), r)) {
        r->unsupported = true;
        return;
      }
    }
    std::sort(r->properties.begin(), r->properties.end(), [](const auto& a, const auto& b) {
      return a.first.size() != b.first.size() ? a.first.size() < b.first.size() : a.first < b.first;
    });
    if (!r->properties.empty()) {
      // by_length[n] = index of the first property of length n or more.
      const size_t longest = r->properties.back().first.size();
      r->by_length.assign(longest + 2, 0);
      size_t i = 0;
      for (size_t n = 0; n <= longest + 1; ++n) {
        while (i < r->properties.size() && r->properties[i].first.size() < n) ++i;
        r->by_length[n] = static_cast<uint32_t>(i);
      }
    }
  }

  // Adds keyword `key` with value `v` to `r`; false when the fast check cannot decide it.
  bool Keyword(const std::string& key, const Json& v, Rule* r) {
    // Annotations: valijson keeps title and description, and never rejects a value for them.
    if (key == "$schema" || key == "$comment" || key == "title" || key == "description" ||
        key == "definitions" || key == "default") {
      return true;
    }
    if (key == kListUniqueKeyword) {
      r->unique = ParseListUniqueness(v);
      return r->unique.has_value();
    }
    if (key == pattern_keyword_) {
      if (!v.is_string()) return false;
      // Compiled once per text: the quantity pattern alone recurs in a dozen places of a pod.
      auto& re = patterns_[v.get_ref<const std::string&>()];
      if (!re)
        re = std::make_shared<const re2::RE2>(v.get_ref<const std::string&>(), re2::RE2::Quiet);
      r->pattern = re;
      return r->pattern->ok();
    }
    if (key == "type") {
      r->has_type = true;
      if (v.is_string()) {
        r->types = TypeNameBit(v);
        return r->types != 0;
      }
      if (!v.is_array() || v.empty()) return false;
      for (const Json& name : v) {
        uint8_t bit = TypeNameBit(name);
        if (bit == 0) return false;
        r->types |= bit;
      }
      return true;
    }
    if (key == "enum") {
      if (!v.is_array()) return false;
      r->has_enum = true;
      for (const Json& value : v) {
        if (value.is_null()) {
          r->enum_values.push_back({Node::Kind::kNull, false, {}});
        } else if (value.is_boolean()) {
          r->enum_values.push_back({Node::Kind::kBool, value.get<bool>(), {}});
        } else if (value.is_string()) {
          r->enum_values.push_back({Node::Kind::kString, false, value.get<std::string>()});
        } else {
          return false;  // Numbers, lists and objects compare in ways not mirrored here.
        }
      }
      return true;
    }
    if (key == "format") {
      if (!v.is_string()) return false;
      const std::string& format = v.get_ref<const std::string&>();
      if (format.empty() || format == "date" || format == "time" || format == "date-time") {
        return false;
      }
      r->format_reads_strings = true;
      return true;
    }
    if (key == "minimum" || key == "exclusiveMinimum" || key == "maximum" ||
        key == "exclusiveMaximum") {
      double limit = 0;
      if (!BoundValue(v, &limit)) return false;
      const bool exclusive = key == "exclusiveMinimum" || key == "exclusiveMaximum";
      const bool lower = key == "minimum" || key == "exclusiveMinimum";
      (lower ? r->minimums : r->maximums).push_back({limit, exclusive});
      return true;
    }
    if (key == "minItems" || key == "maxItems" || key == "minLength" || key == "maxLength") {
      uint64_t limit = 0;
      if (!CountLimit(v, &limit)) return false;
      if (key == "minItems") r->min_items = limit;
      if (key == "maxItems") r->max_items = limit;
      if (key == "minLength") r->min_length = limit;
      if (key == "maxLength") r->max_length = limit;
      return true;
    }
    if (key == "required") {
      if (!v.is_array()) return false;
      for (const Json& name : v) {
        if (!name.is_string() || !NoNul(name.get_ref<const std::string&>())) return false;
        r->required.push_back(name.get<std::string>());
      }
      return true;
    }
    if (key == "properties") {
      if (!v.is_object()) return false;
      r->has_properties = true;
      for (auto p = v.begin(); p != v.end(); ++p) {
        if (!NoNul(p.key())) return false;
        r->properties.emplace_back(p.key(), Compile(p.value()));
      }
      return true;
    }
    if (key == "additionalProperties") {
      r->has_properties = true;
      if (v.is_boolean()) {
        r->extra = v.get<bool>() ? Rule::Extra::kAny : Rule::Extra::kNone;
        return true;
      }
      if (!v.is_object()) return false;
      r->extra = Rule::Extra::kSchema;
      r->extra_schema = Compile(v);
      return true;
    }
    if (key == "items") {
      if (!v.is_object()) return false;  // The array form (and additionalItems) is not mirrored.
      r->items = Compile(v);
      return true;
    }
    if (key == "allOf") {
      if (!v.is_array()) return false;
      for (const Json& sub : v) r->all_of.push_back(Compile(sub));
      return true;
    }
    // anyOf, oneOf, not, if, const, contains, dependencies, patternProperties, propertyNames,
    // multipleOf, uniqueItems, minProperties, maxProperties, id, and keywords valijson ignores
    // but that we have not reviewed.
    return false;
  }

  const Json& doc_;
  std::string_view pattern_keyword_;
  FastSchema* out_;
  std::unordered_map<const Json*, const Rule*> memo_;
  std::unordered_map<std::string, std::shared_ptr<const re2::RE2>> patterns_;
  const Rule* unsupported_ = nullptr;
};

FastSchema::FastSchema() = default;
FastSchema::~FastSchema() = default;
FastSchema::FastSchema(FastSchema&&) noexcept = default;
FastSchema& FastSchema::operator=(FastSchema&&) noexcept = default;

FastSchema FastSchema::Compile(const Json& doc, std::string_view pattern_keyword) {
  FastSchema out;
  Compiler compiler(doc, pattern_keyword, &out);
  out.root_ = compiler.Compile(doc);
  return out;
}

FastVerdict FastSchema::Check(const Node& object) const {
  return root_ ? root_->Check(object) : FastVerdict::kUnsure;
}

}  // namespace jobset
