// Linting a FrameworkController Framework: what kube-apiserver rejects through the Framework
// CRD's OpenAPI schema (there is no admission webhook; the schema is schemas/framework.v1.json,
// checked by the schema engine of validation/schema/schema.h), and the traps it accepts
// (docs/contract/framework.md).
#pragma once

#include <vector>

#include "validation/core/finding.h"
#include "validation/core/node.h"

namespace jobset {

struct SchemaReport;

/// How the findings of the Framework schema (BuiltinFrameworkSchema) read: kube-apiserver's words
/// with Go's quoting, under the framework/* rule ids; unknown fields are warnings (the structural
/// schema prunes them); a null task role is not reported.
const SchemaReport& FrameworkSchemaReport();

/// Checks one Framework object: errors for what the CRD schema rejects (framework/name,
/// framework/task-role-name, framework/execution-type, framework/type, framework/minimum), a
/// warning for each field it prunes (framework/unknown-field), and warnings and infos for what
/// the controller accepts but will not do as meant. Schema findings come first, in document
/// order.
std::vector<Finding> LintFramework(const Node& object);

}  // namespace jobset
