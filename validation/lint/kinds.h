// The kind table: every supported kind, told apart by apiVersion and kind, with everything the
// validation core knows of it (identity, kubectl words, lint, fixes, update check, defaults,
// render, diagnose, rules). Adding a kind means a folder validation/<kind>/ and one row in
// SupportedKinds (kinds.cc), then one entry in each face's binding array (cmd/kind_commands.cc,
// KindAdmissions in webhook/admission_handler.cc).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/child_objects.h"
#include "validation/core/finding.h"
#include "validation/core/node.h"
#include "validation/core/rule_registry.h"

namespace jobset {

struct Diagnosis;
struct FeatureGates;
struct LintOptions;
struct PatchOp;
struct WorkloadDump;

/// A supported kind, as the faces (cmd/, webhook/) bind their own per-kind functions to it: each
/// face holds one binding array with an entry for every id, checked by its tests.
enum class KindId { kJobSet, kVolcanoJob, kFramework };

/// How many KindId values there are (one row of SupportedKinds, and of each face's binding
/// array, per value): raise it with the enum.
inline constexpr size_t kKindCount = 3;

/// One supported kind: its identity and what the validation core does with one object of it.
/// The table of them (SupportedKinds) is the one place a kind is declared.
struct KindHandler {
  KindId id;
  std::string_view api_version;  ///< The one served group/version, e.g. "jobset.x-k8s.io/v1alpha2".
  std::string_view kind;         ///< e.g. "JobSet".
  /// Checks one object as the API server (and our analysis) would on CREATE. Findings are
  /// placed in `object` (line and column) but carry no file.
  std::vector<Finding> (*lint)(const Node& object, const LintOptions& options);
  std::string_view title;  ///< For people: "JobSet", "Volcano Job", ...
  /// A word that only this project's API groups hold ("volcano"): an apiVersion group with it
  /// is a misspelling of ours, as is one a few edits away.
  std::string_view group_word;
  /// `lint --fix`: attaches the certain fixes to the kind's findings on `object`, a document of
  /// `text` (line_starts = LineStarts(text)). nullptr: the kind has no fixes.
  void (*attach_fixes)(const Node& object, std::string_view text,
                       const std::vector<size_t>& line_starts, std::vector<Finding>* findings);
  /// The CRD's structural defaults, as kube-apiserver applies them on decode. nullptr: none.
  void (*crd_defaults)(Node* object, std::vector<PatchOp>* patch);
  /// The upstream mutating webhook's defaults (with its default settings), on a CRD-defaulted
  /// object. nullptr: the kind has no mutating webhook.
  void (*webhook_defaults)(Node* object, std::vector<PatchOp>* patch);
  /// Checks an UPDATE from `old_object` to `new_object` as the API server and the upstream
  /// webhook would; findings are placed in `new_object`. nullptr: no update rules upstream.
  std::vector<Finding> (*update)(const Node& old_object, const Node& new_object,
                                 const LintOptions& options);
  /// `render`: the child objects the kind's controller creates for one object as written (the
  /// kind applies its own defaults first).
  ChildObjects (*render)(const Node& object, const ChildOptions& options);
  /// `why`: diagnoses object `name` of `dump` (kinds without feature gates ignore `gates`).
  /// Gives false and a message when the dump has no such object.
  bool (*diagnose)(const WorkloadDump& dump, std::string_view name, const FeatureGates& gates,
                   Diagnosis* out, std::string* error);
  /// The rule ids the kind's checks report (its folder's `rules`), for the registry.
  std::span<const RuleInfo> (*rules)();
  /// The kind in running text, one object: "JobSet", "Volcano Job", "Framework".
  std::string_view noun;
  /// The words kubectl takes for the kind, the short one first: "vcjob", "vcjobs",
  /// "jobs.batch.volcano.sh", ... (`why KIND/NAME`).
  std::vector<std::string_view> resource_words;
  /// The fully qualified resource kubectl reads the kind as: "jobsets.jobset.x-k8s.io".
  std::string_view resource;
  /// The resources of its children, for one `kubectl get`: "jobs.batch,pods".
  std::string_view child_resources;
  /// The label on its children whose value is the parent's name.
  std::string_view child_label;
};

/// Every supported kind, JobSet first; the row of KindId k is at index k.
const std::vector<KindHandler>& SupportedKinds();

/// The row of `id`.
const KindHandler& FindKind(KindId id);

/// The row one of whose resource_words is `word` ("vcjob", "jobsets.jobset.x-k8s.io"), or
/// nullptr.
const KindHandler* FindKindByResourceWord(std::string_view word);

/// The handler for this object's apiVersion and kind, or nullptr (the document is skipped).
const KindHandler* FindKindHandler(const Node& object);

/// The API group of a kind ("jobset.x-k8s.io").
std::string_view ApiGroupOf(const KindHandler& kind);

/// The version a kind's API serves ("v1alpha2").
std::string_view ServedVersionOf(const KindHandler& kind);

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
