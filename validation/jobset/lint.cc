#include "validation/jobset/lint.h"

#include "validation/core/finding_sink.h"
#include "validation/jobset/analysis.h"
#include "validation/jobset/child_checks.h"
#include "validation/jobset/defaults.h"
#include "validation/jobset/types.h"
#include "validation/jobset/validation.h"

namespace jobset {

std::vector<Finding> LintJobSet(const Node& object, const FeatureGates& gates,
                                const CompiledSchema* schema) {
  Node defaulted = object;
  return LintJobSetInPlace(&defaulted, gates, schema);
}

std::vector<Finding> LintJobSetInPlace(Node* object, const FeatureGates& gates,
                                       const CompiledSchema* schema) {
  // kube-apiserver's order: CRD defaults on decode, the mutating webhook, then the schema and
  // CEL, then the validating webhook. Positions survive: defaulted values have none and are
  // placed at the nearest value the file holds.
  std::vector<PatchOp> patch;
  ApplyCrdDefaults(object, &patch);
  ApplyWebhookDefaults(object, &patch);
  const Node& defaulted = *object;
  std::vector<Finding> findings;
  if (schema) findings = ValidateSchema(*schema, defaulted);
  FindingSink sink(defaulted, &findings);
  const JobSet js = DecodeJobSet(defaulted);  // Once for the three.
  ValidateApiServerRules(js, defaulted, &sink);
  ValidateWebhookCreate(js, defaulted, gates, &sink);
  AnalyzeJobSet(js, gates, &sink);
  ValidateChildJobs(js, &sink);
  return findings;
}

}  // namespace jobset
