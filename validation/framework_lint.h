// Linting a FrameworkController Framework: what kube-apiserver rejects through the Framework
// CRD's OpenAPI schema (there is no admission webhook), and the traps it accepts
// (microsoft/frameworkcontroller@d6e70787, pkg/apis/frameworkcontroller/v1/types.go and funcs.go).
#pragma once

#include <vector>

#include "validation/finding.h"
#include "validation/node.h"

namespace jobset {

struct LintOptions;

/// Checks one Framework object: errors for what the CRD schema rejects (framework/name,
/// framework/task-role-name, framework/execution-type, framework/type, framework/minimum),
/// warnings and infos for what the controller accepts but will not do as meant.
std::vector<Finding> LintFramework(const Node& object, const LintOptions& options);

}  // namespace jobset
