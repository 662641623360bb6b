// JSON and the document model: nlohmann::json <-> Node, and JSON text parsed straight into a
// Node with bounded nesting (for bodies that come over the network).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "validation/core/node.h"

namespace jobset {

/// Bounds on JSON text parsed by ParseJson.
struct JsonParseLimits {
  /// Deepest nesting of objects and arrays accepted; the top-level container is depth 1.
  int max_depth = 1000;
};

/// Parses one JSON value from `text` into `*out` (no marks: line 0). Object keys keep their
/// order; a key repeated in one object keeps its first position and its last value, as Go's
/// decoder does. Integers become kInt (an unsigned value above INT64_MAX becomes kFloat);
/// other numbers kFloat with the text as written.
///
/// Strict RFC 8259, with nlohmann's choices (a UTF-8 BOM is skipped; strings must be valid
/// UTF-8 with paired surrogates). Our own parser, iterative, several times faster than
/// nlohmann's (the webhook's hot path); it stops as soon as the nesting exceeds
/// `limits.max_depth`, so hostile input costs neither deep recursion nor a large tree. Gives
/// false and a one-line message (syntax error with its 1-based byte offset, or the depth
/// limit).
bool ParseJson(std::string_view text, const JsonParseLimits& limits, Node* out, std::string* error);

/// Converts a nlohmann value into a Node (recursive: bound the depth of untrusted input first,
/// e.g. by parsing it with ParseJson instead).
Node JsonToNode(const nlohmann::json& value);
/// The same for an order-preserving nlohmann value (keys keep their order in the Node).
Node JsonToNode(const nlohmann::ordered_json& value);

/// Converts a Node into an order-preserving nlohmann value. kInt becomes an integer, kFloat a
/// floating-point number, mappings objects in entry order. Marks are dropped.
nlohmann::ordered_json NodeToJson(const Node& node);

/// Compact JSON text of a Node: always valid JSON (strings that are not UTF-8 have their bad
/// bytes replaced by U+FFFD).
std::string NodeToJsonText(const Node& node);

/// Appends `s` to `out` as a JSON string (quoted, escaped; bytes that are not UTF-8 become
/// U+FFFD), as NodeToJsonText writes strings.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace jobset
