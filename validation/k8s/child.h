// What kube-apiserver says about a child object (a Job or Pod a controller creates from a
// parent object): field errors with paths relative to the child, and how they are reported at
// the parent's lines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "validation/core/field_path.h"
#include "validation/core/finding_sink.h"
#include "validation/core/rule_registry.h"

namespace jobset {

/// One field error as kube-apiserver renders it ("<path>: <type>[: <value>][: <detail>]"),
/// with the rule that reports it. `path` is relative to the validated object.
struct FieldError {
  RuleId rule;
  std::string path;    ///< e.g. "spec.containers[0].name".
  std::string type;    ///< "Invalid value", "Required value", "Unsupported value", ...
  std::string value;   ///< Rendered as upstream renders it ("\"x\"", 70000); "" to omit.
  std::string detail;  ///< "" to omit.
  PointAt at = PointAt::kValue;
  /// Where the finding points, relative to the child like `path`, when not at `path`: an error
  /// about a map ("...resources.requests") points at its offending entry, and a required field
  /// the file does not hold at the field that requires it. "" for `path` itself.
  std::string locate = {};
  /// A hint for the reader ("" for none), e.g. that the offending value is a default.
  std::string note = {};

  /// Where the finding points: `locate`, or else `path`.
  const std::string& Where() const { return locate.empty() ? path : locate; }

  /// The error as the API server prints it.
  std::string Text() const;
};

/// The children one template of a parent object renders, as the controller names them.
struct ChildObject {
  std::string kind;   ///< "Job" or "Pod".
  std::string name;   ///< The first child's name, e.g. "js-workers-0".
  int64_t count = 1;  ///< How many children the template renders (replicas, taskNumber).
  /// Where the child object's root is in the parent, e.g. "spec.replicatedJobs[0].template"
  /// (a child path "spec.x" is then at "spec.replicatedJobs[0].template.spec.x").
  std::string base;
};

/// Reports each error once for the template (not once per child), as an error of its rule at
/// the offending value in the parent: "child Job js-workers-0 would be rejected: <error>",
/// followed by " (affects N child Jobs)" when the template renders more than one.
void ReportChildErrors(const ChildObject& child, const std::vector<FieldError>& errors,
                       FindingSink* sink);

}  // namespace jobset
