// The kinds lint understands, told apart by apiVersion and kind, each with its own checks.
#pragma once

#include <string_view>
#include <vector>

#include "validation/core/finding.h"
#include "validation/core/node.h"

namespace jobset {

struct LintOptions;

/// One supported kind: how to recognise it and how to check one object of it.
struct KindHandler {
  std::string_view api_version;  ///< e.g. "jobset.x-k8s.io/v1alpha2".
  std::string_view kind;         ///< e.g. "JobSet".
  /// Checks one object as the API server (and our analysis) would on CREATE. Findings are
  /// placed in `object` (line and column) but carry no file.
  std::vector<Finding> (*lint)(const Node& object, const LintOptions& options);
  std::string_view title;  ///< For people: "JobSet", "Volcano Job", ...
  /// A word that only this project's API groups hold ("volcano"): an apiVersion group with it
  /// is a misspelling of ours, as is one a few edits away.
  std::string_view group_word;
};

/// Every supported kind, JobSet first.
const std::vector<KindHandler>& SupportedKinds();

/// The handler for this object's apiVersion and kind, or nullptr (the document is skipped).
const KindHandler* FindKindHandler(const Node& object);

/// For an object no handler takes: whether it means to be a supported kind but names it wrong, so
/// that kubectl and the API server would refuse it ("no matches for kind"). That is: the group of
/// a supported kind with a version it does not serve (jobset.x-k8s.io/v1alpha1); a group a few
/// edits from ours, or holding our group's word (jobsets.x-k8s.io, batch.volcano.io), with our
/// kind; our group and version with a kind close to ours (Jobset, JobSets, "job set"); no
/// apiVersion with one of our kinds; our apiVersion without a kind. A kind is compared with
/// "Job" (Volcano's) only by case, spaces and a plural, and only in a Volcano group, so that
/// batch/v1 Jobs and the kinds of other groups stay skipped. Sets `*finding` (rule
/// input/unknown-api-version or input/unknown-kind, at the value, with "did you mean").
bool FindIdentityProblem(const Node& object, Finding* finding);

}  // namespace jobset
