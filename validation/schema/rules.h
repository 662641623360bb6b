// kube-apiserver's rules common to every kind: object metadata and the violations of a CRD's
// OpenAPI schema (validation/schema/schema.cc), reported under these ids unless a kind maps them
// to its own (SchemaReport::rules).
//
// Each id is a constant its checks report under (FindingSink takes a RuleId, not a string),
// and each has one row here, assembled into the registry by validation/lint/rule_registry.h.
// docs/rules/<id>.md documents each rule.
#pragma once

#include <span>

#include "validation/core/rule_registry.h"

namespace jobset {

inline constexpr RuleId kMetadataName{"metadata/name"};
inline constexpr RuleId kMetadataNamespace{"metadata/namespace"};
inline constexpr RuleId kMetadataLabels{"metadata/labels"};
inline constexpr RuleId kSchemaUnknownField{"schema/unknown-field"};
inline constexpr RuleId kSchemaType{"schema/type"};
inline constexpr RuleId kSchemaEnum{"schema/enum"};
inline constexpr RuleId kSchemaRequired{"schema/required"};
inline constexpr RuleId kSchemaMinimum{"schema/minimum"};
inline constexpr RuleId kSchemaMaxItems{"schema/max-items"};
inline constexpr RuleId kSchemaInvalid{"schema/invalid"};
inline constexpr RuleId kSchemaDuplicateKey{"schema/duplicate-key"};

/// The registry rows of the rules above, in the order `lint --list-rules` prints them.
std::span<const RuleInfo> SchemaRules();

}  // namespace jobset
