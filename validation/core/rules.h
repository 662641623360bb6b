// The rules of reading a file, whatever its kind: YAML syntax, encoding, limits, and naming a
// kind we lint. The loader (validation/core/loader.cc) and the lint driver report them.
//
// Each id is a constant its checks report under (FindingSink takes a RuleId, not a string),
// and each has one row here, assembled into the registry by validation/lint/rule_registry.h.
// docs/rules/<id>.md documents each rule.
#pragma once

#include <span>

#include "validation/core/rule_registry.h"

namespace jobset {

inline constexpr RuleId kYamlSyntax{"yaml/syntax"};
inline constexpr RuleId kYamlDuplicateKey{"yaml/duplicate-key"};
inline constexpr RuleId kInputTooLarge{"input/too-large"};
inline constexpr RuleId kInputBinary{"input/binary"};
inline constexpr RuleId kInputInvalidUtf8{"input/invalid-utf8"};
inline constexpr RuleId kInputTooDeep{"input/too-deep"};
inline constexpr RuleId kInputTooManyValues{"input/too-many-values"};
inline constexpr RuleId kInputUnknownApiVersion{"input/unknown-api-version"};
inline constexpr RuleId kInputUnknownKind{"input/unknown-kind"};
inline constexpr RuleId kInputHelmTemplate{"input/helm-template"};

/// The registry rows of the rules above, in the order `lint --list-rules` prints them.
std::span<const RuleInfo> InputRules();

}  // namespace jobset
