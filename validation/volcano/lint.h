// Linting Volcano batch.volcano.sh/v1alpha1 Jobs: what kube-apiserver with the Volcano CRD and
// admission webhooks decides, and the quirks it accepts that will not do what was meant.
#pragma once

#include <vector>

#include "validation/core/finding.h"
#include "validation/core/node.h"

namespace jobset {

/// Checks one Volcano Job as kube-apiserver would on CREATE (volcano-sh/volcano@ed72c7c8): CRD
/// defaults, the mutating webhook's defaults, metadata and the CRD schema, then the validating
/// webhook's CREATE rules (not for fields the schema already rejected), then our warnings.
std::vector<Finding> LintVolcanoJob(const Node& object);

/// Checks an UPDATE: the CRD schema on the new object (CRD defaults applied to both), then the
/// validating webhook's UPDATE rules (first error only). Create-time rules are not re-run.
std::vector<Finding> LintVolcanoUpdate(const Node& old_object, const Node& new_object);

/// Our own warnings (docs/rules/volcano/) on a defaulted Job; `original` is the object as written,
/// to tell an explicit 0 (which upstream replaces) from a defaulted value.
void AnalyzeVolcanoJob(const Node& original, const Node& defaulted, std::vector<Finding>* out);

}  // namespace jobset
