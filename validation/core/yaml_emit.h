// Writing a Node as YAML: block style, keys in the Node's order, so the output of one input is
// always the same bytes.
#pragma once

#include <string>

#include "validation/core/node.h"

namespace jobset {

/// `node` as a YAML document (no `---`), ending with a newline. Mappings and sequences in block
/// style (sequences under a key at the key's indentation, as kubectl prints them), empty ones as
/// `{}` and `[]`. A string is written plain only when every YAML reader takes it back as that
/// string (no YAML 1.1 boolean, null or number, no indicator); otherwise double-quoted, with
/// JSON's escapes (bytes that are not UTF-8 become U+FFFD). Integers and floats as numbers
/// (.inf, -.inf, .nan for the non-finite), booleans true/false, null as null.
std::string NodeToYaml(const Node& node);

}  // namespace jobset
