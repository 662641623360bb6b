// A compiled validity check for the JSON Schemas that schema.cc hands to valijson. It decides
// "valid" or "invalid" exactly as valijson (kStrongTypes, over NodeAdapter) would for the keywords
// it knows, and says "unsure" when the object reaches a schema with any other keyword (and breaks
// none it knows); the caller then asks valijson. It never explains: findings still come from
// valijson and the Explainer.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

/// What the fast check says about an object.
enum class FastVerdict : uint8_t {
  kValid,    ///< valijson would accept the object.
  kInvalid,  ///< valijson would reject the object.
  kUnsure,   ///< The object reached a schema keyword the fast check does not decide.
};

/// A JSON Schema compiled to plain structs: `$ref`s resolved to pointers, properties sorted for
/// lookup, patterns compiled once. Immutable after Compile, so one instance serves any number of
/// threads at once.
class FastSchema {
 public:
  /// A schema whose root is unsupported: every check is unsure.
  FastSchema();
  ~FastSchema();
  FastSchema(FastSchema&&) noexcept;
  FastSchema& operator=(FastSchema&&) noexcept;
  FastSchema(const FastSchema&) = delete;
  FastSchema& operator=(const FastSchema&) = delete;

  /// Compiles `doc`, a draft-7 schema that valijson accepted, in which `pattern` has been renamed
  /// to `pattern_keyword` (an RE2 pattern). Never fails: the schemas it cannot decide (unknown
  /// keywords, anyOf/oneOf/not, references outside the document ...) are marked unsupported.
  static FastSchema Compile(const nlohmann::json& doc, std::string_view pattern_keyword);

  /// valijson's verdict on `object`, or kUnsure.
  FastVerdict Check(const Node& object) const;

 private:
  struct Rule;
  class Compiler;

  std::vector<std::unique_ptr<Rule>> rules_;  ///< Owns every compiled schema.
  const Rule* root_ = nullptr;
};

}  // namespace jobset
