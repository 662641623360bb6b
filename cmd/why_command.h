// `kubectl jobset why NAME`: what happened to a live workload and what happens next, read from
// the cluster through `kubectl get ... -o json` (argument vectors, no shell) or from a dump file.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/diagnosis.h"
#include "validation/core/workload_dump.h"
#include "validation/jobset/feature_gates.h"

namespace jobset {

/// The flags of `why`.
struct WhyFlags {
  std::string target;  ///< NAME or KIND/NAME; empty: list the JobSets.
  std::string file;    ///< -f: a dump file (or - for standard input) instead of the cluster.
  std::string namespace_name, context, kubeconfig;
  bool all_namespaces = false;
  std::string output = "text";  ///< text | json | markdown
  std::string color = "auto";   ///< auto | always | never
  bool watch = false;
  std::string feature_gates;
};

/// Diagnoses one object of a kind from a dump (the signature every kind's diagnosis has; kinds
/// without gates ignore them).
using DiagnoseFn = bool (*)(const WorkloadDump& dump, std::string_view name,
                            const FeatureGates& gates, Diagnosis* out, std::string* error);

/// One kind `why` knows: the words that name it, how kubectl reads it and its children, and its
/// diagnosis.
struct WhyKind {
  std::string_view title;               ///< "JobSet", "Volcano Job", "Framework".
  std::string_view api_group;           ///< "jobset.x-k8s.io": the listing's objects.
  std::string_view object_kind;         ///< "JobSet", "Job", "Framework".
  std::vector<std::string_view> names;  ///< KIND words: "jobset", "jobsets.jobset.x-k8s.io"...
  std::string_view resource;            ///< Fully qualified resource for kubectl get.
  std::string_view child_resources;     ///< "jobs.batch,pods".
  std::string_view child_label;         ///< Label on children whose value is the name.
  DiagnoseFn diagnose;                  ///< Fills a Diagnosis from a dump.
};

/// The kinds `why` knows, JobSet first (the default when no KIND/ is given).
const std::vector<WhyKind>& WhyKinds();

/// The kubectl argument vectors (without the binary) that read `name` of `kind` with its
/// children and events, honouring -n, --context and --kubeconfig.
std::vector<std::vector<std::string>> WhyKubectlCalls(const WhyKind& kind, std::string_view name,
                                                      const WhyFlags& flags);

/// The one-line message for a failed kubectl call: an RBAC refusal names the verb, resource and
/// namespace it lacks; NotFound names the object.
std::string KubectlErrorMessage(std::string_view stderr_text, int status);

/// Renders `d` as text (with ANSI colour when `color`), JSON or Markdown.
void RenderDiagnosis(const Diagnosis& d, std::string_view format, bool color, std::ostream& out);

/// Runs `why`. Exit status: 0 healthy, succeeded or suspended; 1 failed, restarting or stuck; 2 a
/// usage or access error (message on `err`).
int RunWhy(const WhyFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace jobset
