// What ValidateSchema decides with, exposed for tests that compare the fast check with valijson.
// Not for other callers: ValidateSchema is the interface.
#pragma once

#include <nlohmann/json.hpp>

#include "validation/core/node.h"
#include "validation/schema/fast_schema.h"
#include "validation/schema/schema.h"

namespace jobset {

/// A Node as nlohmann::json (keys sorted), the form valijson and the CRD import work on.
nlohmann::json SchemaJson(const Node& n);

/// The fast check's verdict on `object`, the one ValidateSchema consults first.
FastVerdict FastSchemaVerdict(const CompiledSchema& schema, const Node& object);

/// valijson's verdict on `object`: whether it is valid (kStrongTypes over NodeAdapter, as
/// ValidateSchema runs it), without the fast check.
bool ValijsonSchemaValid(const CompiledSchema& schema, const Node& object);

/// The built-in JobSet schema before compiling: schemas/jobset.v1alpha2.json with the
/// definitions of schemas/jobset.v1alpha2.crd.json; null when either is missing or they clash.
nlohmann::json BuiltinJobSetDocument();

/// The built-in Volcano Job schema before compiling: schemas/volcano.v1alpha1.json with the
/// definitions of schemas/volcano.v1alpha1.crd.json and the JobSet schema's ObjectMeta; null
/// when a file is missing or they clash.
nlohmann::json BuiltinVolcanoJobDocument();

}  // namespace jobset
