// The kinds lint understands, told apart by apiVersion and kind, each with its own checks.
#pragma once

#include <string_view>
#include <vector>

#include "validation/finding.h"
#include "validation/node.h"

namespace jobset {

struct LintOptions;

/// One supported kind: how to recognise it and how to check one object of it.
struct KindHandler {
  std::string_view api_version;  ///< e.g. "jobset.x-k8s.io/v1alpha2".
  std::string_view kind;         ///< e.g. "JobSet".
  /// Checks one object as the API server (and our analysis) would on CREATE. Findings are
  /// placed in `object` (line and column) but carry no file.
  std::vector<Finding> (*lint)(const Node& object, const LintOptions& options);
};

/// Every supported kind, JobSet first.
const std::vector<KindHandler>& SupportedKinds();

/// The handler for this object's apiVersion and kind, or nullptr (the document is skipped).
const KindHandler* FindKindHandler(const Node& object);

}  // namespace jobset
