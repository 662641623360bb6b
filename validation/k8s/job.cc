#include "validation/k8s/job.h"

#include "validation/core/k8s_names.h"
#include "validation/k8s/rules.h"

namespace jobset {
namespace {

const Node* Int(const Node& parent, std::string_view key) {
  const Node* n = parent.Find(key);
  return n && n->is_int() ? n : nullptr;
}

}  // namespace

std::vector<FieldError> ValidateJobSpec(const Node& job_spec, const PodTemplateOptions& options) {
  std::vector<FieldError> out;
  if (!job_spec.is_map()) return out;
  // validateJobSpec: counts and durations are not negative.
  for (const char* key : {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
                          "ttlSecondsAfterFinished", "backoffLimitPerIndex", "maxFailedIndexes"}) {
    if (const Node* n = Int(job_spec, key); n && n->integer < 0) {
      out.push_back({kChildJobNegativeValue, std::string("spec.") + key, "Invalid value",
                     std::to_string(n->integer), "must be greater than or equal to 0"});
    }
  }
  // Indexed: SetDefaults_Job gives completions and parallelism 1 when both are unset, and
  // parallelism 1 when only it is; completions unset with parallelism set stays unset.
  const Node* mode = job_spec.Find("completionMode");
  if (mode && mode->is_string() && mode->text == "Indexed") {
    const Node* parallelism = Int(job_spec, "parallelism");
    const Node* completions = job_spec.Find("completions");
    if (parallelism && (!completions || completions->is_null())) {
      out.push_back({kChildJobCompletions, "spec.completions", "Required value", "",
                     "when completion mode is Indexed", PointAt::kKey});
    }
    if (parallelism && parallelism->integer > 100000) {
      out.push_back({kChildJobParallelism, "spec.parallelism", "Invalid value",
                     std::to_string(parallelism->integer),
                     "must be less than or equal to 100000 when completion mode is Indexed"});
    }
  }
  const Node* tmpl = job_spec.Find("template");
  if (!tmpl || !tmpl->is_map()) return out;
  for (FieldError& e : ValidatePodTemplateSpec(*tmpl, options)) {
    e.path = "spec.template." + e.path;
    out.push_back(std::move(e));
  }
  // A Job's pods are OnFailure or Never; the core default (Always) for an empty one counts.
  const Node* spec = tmpl->Find("spec");
  const Node* rp = spec && spec->is_map() ? spec->Find("restartPolicy") : nullptr;
  const std::string policy = rp && rp->is_string() ? rp->text : std::string();
  if (policy.empty() || policy == "Always") {
    out.push_back({kChildJobRestartPolicy, "spec.template.spec.restartPolicy", "Required value", "",
                   "valid values: \"OnFailure\", \"Never\"", rp ? PointAt::kValue : PointAt::kKey});
  } else if (policy != "OnFailure" && policy != "Never") {
    out.push_back({kChildJobRestartPolicy, "spec.template.spec.restartPolicy", "Unsupported value",
                   GoQuote(policy), "supported values: \"OnFailure\", \"Never\""});
  }
  return out;
}

}  // namespace jobset
