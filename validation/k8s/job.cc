#include "validation/k8s/job.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_set>

#include "validation/core/field_path.h"
#include "validation/core/k8s_names.h"
#include "validation/k8s/rules.h"

namespace jobset {
namespace {

// k8s.io/apimachinery field.NotSupported's detail: the values quoted, in the order given
// (upstream passes a sorted set for the pod failure policy and replacement policy enums).
std::string Supported(std::initializer_list<const char*> values) {
  std::string s = "supported values: ";
  bool first = true;
  for (const char* v : values) {
    if (!first) s += ", ";
    s += GoQuote(v);
    first = false;
  }
  return s;
}

// validatePodFailurePolicyRuleOnExitCodes: the operator, the container and the values.
void ValidateOnExitCodes(const Node& codes, const std::string& path,
                         const std::unordered_set<std::string_view>& containers,
                         std::vector<FieldError>* out) {
  const Node* op = codes.Find("operator");
  const std::string op_text = op && op->is_string() ? op->text : std::string();
  if (!op_text.empty() && op_text != "In" && op_text != "NotIn") {
    out->push_back({kJobTemplateUnsupportedValue, path + ".operator", "Unsupported value",
                    GoQuote(op_text), Supported({"In", "NotIn"})});
  }
  if (const Node* name = codes.Find("containerName");
      name && name->is_string() && !containers.count(name->text)) {
    out->push_back({kJobTemplateExitCodeContainer, path + ".containerName", "Invalid value",
                    GoQuote(name->text),
                    "must be one of the container or initContainer names in the pod template"});
  }
  const Node* values = codes.Find("values");
  if (!values || !values->is_seq()) return;
  constexpr size_t kMaxValues = 255;  // maxPodFailurePolicyOnExitCodesValues
  if (values->items.size() > kMaxValues) {
    out->push_back({kJobTemplateExitCodeCount, path + ".values", "Too many",
                    std::to_string(values->items.size()),
                    "must have at most " + std::to_string(kMaxValues) + " items"});
  }
  if (op_text != "In") return;
  for (size_t v = 0; v < values->items.size(); ++v) {
    if (values->items[v].is_int() && values->items[v].integer == 0) {
      out->push_back({kJobTemplateExitCodeZero, Index(path + ".values", v), "Invalid value", "0",
                      "must not be 0 for the In operator"});
    }
  }
}

// validatePodFailurePolicy and validatePodFailurePolicyRule: each rule's action and exit codes.
void ValidatePodFailurePolicy(const Node& job_spec, const Node& pfp, std::vector<FieldError>* out) {
  const Node* rules = pfp.Find("rules");
  if (!rules || !rules->is_seq()) return;
  std::unordered_set<std::string_view> containers;
  const Node* tmpl = job_spec.Find("template");
  const Node* pod = tmpl && tmpl->is_map() ? tmpl->Find("spec") : nullptr;
  for (const char* list : {"containers", "initContainers"}) {
    const Node* cs = pod && pod->is_map() ? pod->Find(list) : nullptr;
    if (cs && cs->is_seq())
      for (const Node& c : cs->items)
        if (c.is_map()) containers.insert(c.StringOr("name"));
  }
  const bool per_index = FindPresent(&job_spec, "backoffLimitPerIndex") != nullptr;
  for (size_t k = 0; k < rules->items.size(); ++k) {
    const Node& rule = rules->items[k];
    if (!rule.is_map()) continue;
    const std::string path = Index("spec.podFailurePolicy.rules", k);
    const Node* action = rule.Find("action");
    const std::string a = action && action->is_string() ? action->text : std::string();
    if (a == "FailIndex") {
      if (!per_index) {
        out->push_back({kJobTemplateFailIndexWithoutBackoffLimitPerIndex, path + ".action",
                        "Invalid value", GoQuote(a),
                        "requires the backoffLimitPerIndex to be set"});
      }
    } else if (!a.empty() && a != "Count" && a != "FailJob" && a != "Ignore") {
      out->push_back({kJobTemplateUnsupportedValue, path + ".action", "Unsupported value",
                      GoQuote(a), Supported({"Count", "FailIndex", "FailJob", "Ignore"})});
    }
    if (const Node* codes = rule.Find("onExitCodes"); codes && codes->is_map()) {
      ValidateOnExitCodes(*codes, path + ".onExitCodes", containers, out);
    }
  }
}

// field.TooMany's text.
std::string AtMost(int n) { return "must have at most " + std::to_string(n) + " items"; }

// validatePodFailurePolicy, in the parts ValidatePodFailurePolicy does not report (the
// job-template/* rules: unsupported actions and operators, FailIndex without
// backoffLimitPerIndex, unknown containers, exit code 0 with In, more than 255 exit codes).
// Repeated exit codes are left to the CRD schema too (onExitCodes.values is a set).
void PodFailurePolicy(const Node& pfp, std::vector<FieldError>* out) {
  const Node* rules = pfp.Find("rules");
  if (!rules || !rules->is_seq()) return;
  const std::string rules_path = "spec.podFailurePolicy.rules";
  if (rules->items.size() > 20) {
    out->push_back({kChildJobPodFailurePolicy, rules_path, "Too many",
                    std::to_string(rules->items.size()), AtMost(20)});
  }
  for (size_t i = 0; i < rules->items.size(); ++i) {
    const Node& rule = rules->items[i];
    if (!rule.is_map()) continue;
    const std::string path = Index(rules_path, i);
    if (const Node* action = rule.Find("action");
        action && action->is_string() && action->text.empty()) {
      out->push_back({kChildJobPodFailurePolicy, path + ".action", "Required value", "",
                      "valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]"});
    }
    const Node* codes = rule.Find("onExitCodes");
    if (codes && codes->is_null()) codes = nullptr;
    if (codes && codes->is_map()) {
      const std::string codes_path = path + ".onExitCodes";
      if (const Node* op = codes->Find("operator"); op && op->is_string() && op->text.empty()) {
        out->push_back({kChildJobPodFailurePolicy, codes_path + ".operator", "Required value", "",
                        "valid values: [\"In\" \"NotIn\"]"});
      }
      if (const Node* values = codes->Find("values"); values && values->is_seq()) {
        if (values->items.empty()) {
          out->push_back({kChildJobPodFailurePolicy, codes_path + ".values", "Invalid value", "[]",
                          "at least one value is required"});
        }
        bool ordered = true;
        for (size_t j = 1; j < values->items.size(); ++j) {
          const Node& a = values->items[j - 1];
          const Node& b = values->items[j];
          if (a.is_int() && b.is_int() && a.integer > b.integer) ordered = false;
        }
        if (!ordered) {
          out->push_back({kChildJobPodFailurePolicy, codes_path + ".values", "Invalid value",
                          CompactJson(*values), "must be ordered"});
        }
      }
    }
    const Node* conditions = rule.Find("onPodConditions");
    const size_t n_conditions = conditions && conditions->is_seq() ? conditions->items.size() : 0;
    if (n_conditions > 20) {
      out->push_back({kChildJobPodFailurePolicy, path + ".onPodConditions", "Too many",
                      std::to_string(n_conditions), AtMost(20)});
    }
    for (size_t j = 0; j < n_conditions; ++j) {
      const Node& pattern = conditions->items[j];
      const std::string pattern_path = Index(path + ".onPodConditions", j);
      if (const Node* type = pattern.Find("type"); type && type->is_string()) {
        for (const std::string& e : QualifiedNameErrors(type->text))
          out->push_back({kChildJobPodFailurePolicy, pattern_path + ".type", "Invalid value",
                          GoQuote(type->text), e});
      }
      // SetDefaults_Job gives an empty status True.
      const Node* status = pattern.Find("status");
      if (status && status->is_string() && !status->text.empty() && status->text != "True" &&
          status->text != "False" && status->text != "Unknown") {
        out->push_back({kChildJobPodFailurePolicy, pattern_path + ".status", "Unsupported value",
                        GoQuote(status->text),
                        "supported values: \"False\", \"True\", \"Unknown\""});
      }
    }
    if (codes && n_conditions > 0) {
      out->push_back({kChildJobPodFailurePolicy, path, "Invalid value", "",
                      "specifying both OnExitCodes and OnPodConditions is not supported"});
    }
    if (!codes && n_conditions == 0) {
      out->push_back({kChildJobPodFailurePolicy, path, "Invalid value", "",
                      "specifying one of OnExitCodes and OnPodConditions is required",
                      PointAt::kKey});
    }
  }
}

// validateSuccessPolicy (an Indexed Job's: the JobSet webhook defaults completionMode to
// Indexed), without the succeededIndexes grammar.
void SuccessPolicy(const Node& job_spec, const Node& sp, std::vector<FieldError>* out) {
  const Node* mode = job_spec.Find("completionMode");
  if (mode && mode->is_string() && mode->text != "Indexed") return;
  const Node* rules = sp.Find("rules");
  const size_t n = rules && rules->is_seq() ? rules->items.size() : 0;
  const std::string rules_path = "spec.successPolicy.rules";
  if (n == 0) {
    out->push_back({kChildJobSuccessPolicy, rules_path, "Required value", "",
                    "at least one rules must be specified when the successPolicy is specified",
                    PointAt::kKey});
  }
  if (n > 20) {
    out->push_back({kChildJobSuccessPolicy, rules_path, "Too many", std::to_string(n), AtMost(20)});
  }
  const Node* completions = FindInt(&job_spec, "completions");
  for (size_t i = 0; i < n; ++i) {
    const Node& rule = rules->items[i];
    if (!rule.is_map()) continue;
    const std::string path = Index(rules_path, i);
    const Node* count = rule.Find("succeededCount");
    const Node* indexes = rule.Find("succeededIndexes");
    if ((!count || count->is_null()) && (!indexes || indexes->is_null())) {
      out->push_back({kChildJobSuccessPolicy, path, "Required value", "",
                      "at least one of succeededCount or succeededIndexes must be specified",
                      PointAt::kKey});
    }
    if (count && count->is_int()) {
      if (count->integer < 0) {
        out->push_back({kChildJobSuccessPolicy, path + ".succeededCount", "Invalid value",
                        std::to_string(count->integer), "must be greater than or equal to 0"});
      }
      if (completions && count->integer > completions->integer) {
        out->push_back({kChildJobSuccessPolicy, path + ".succeededCount", "Invalid value",
                        std::to_string(count->integer),
                        "must be less than or equal to " + std::to_string(completions->integer) +
                            " (the number of specified completions)"});
      }
    }
  }
}

}  // namespace

std::vector<FieldError> ValidateJobSpec(const Node& job_spec, const PodTemplateOptions& options) {
  std::vector<FieldError> out;
  if (!job_spec.is_map()) return out;
  // validateJobSpec: counts and durations are not negative.
  for (const char* key : {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
                          "ttlSecondsAfterFinished", "backoffLimitPerIndex", "maxFailedIndexes"}) {
    if (const Node* n = FindInt(&job_spec, key); n && n->integer < 0) {
      out.push_back({kChildJobNegativeValue, std::string("spec.") + key, "Invalid value",
                     std::to_string(n->integer), "must be greater than or equal to 0"});
    }
  }
  // validateJobSpec: maxFailedIndexes counts the indexes that exhausted backoffLimitPerIndex.
  const Node* per_index = FindPresent(&job_spec, "backoffLimitPerIndex");
  const Node* max_failed = FindPresent(&job_spec, "maxFailedIndexes");
  if (max_failed && !per_index) {
    FieldError e{kJobTemplateMaxFailedIndexesWithoutBackoffLimitPerIndex,
                 "spec.backoffLimitPerIndex",
                 "Required value",
                 "",
                 "when maxFailedIndexes is specified",
                 PointAt::kKey};
    e.locate = "spec.maxFailedIndexes";
    out.push_back(std::move(e));
  }
  const Node* mode_set = FindPresent(&job_spec, "completionMode");
  if (mode_set && mode_set->is_string() && mode_set->text != "NonIndexed" &&
      mode_set->text != "Indexed") {
    out.push_back({kJobTemplateUnsupportedValue, "spec.completionMode", "Unsupported value",
                   GoQuote(mode_set->text), Supported({"NonIndexed", "Indexed"})});
  }
  // Indexed: SetDefaults_Job gives completions and parallelism 1 when both are unset, and
  // parallelism 1 when only it is; completions unset with parallelism set stays unset.
  const Node* mode = job_spec.Find("completionMode");
  if (mode && mode->is_string() && mode->text == "Indexed") {
    const Node* parallelism = FindInt(&job_spec, "parallelism");
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
  // The per-index fields need an Indexed Job (SetDefaults_Job makes an unset mode NonIndexed).
  if (!mode_set || (mode_set->is_string() && mode_set->text == "NonIndexed")) {
    for (const Node* n : {per_index, max_failed}) {
      if (!n || !n->is_int()) continue;
      out.push_back({kJobTemplateBackoffLimitPerIndexNotIndexed,
                     n == per_index ? "spec.backoffLimitPerIndex" : "spec.maxFailedIndexes",
                     "Invalid value", std::to_string(n->integer),
                     "requires indexed completion mode"});
    }
  }
  const Node* pfp = FindPresent(&job_spec, "podFailurePolicy");
  if (pfp && pfp->is_map()) ValidatePodFailurePolicy(job_spec, *pfp, &out);
  // validatePodReplacementPolicy: with a pod failure policy only Failed.
  if (const Node* prp = FindPresent(&job_spec, "podReplacementPolicy"); prp && prp->is_string()) {
    if (pfp && prp->text != "Failed") {
      out.push_back({kJobTemplateUnsupportedValue, "spec.podReplacementPolicy", "Unsupported value",
                     GoQuote(prp->text), Supported({"Failed"})});
    } else if (!pfp && prp->text != "Failed" && prp->text != "TerminatingOrFailed") {
      out.push_back({kJobTemplateUnsupportedValue, "spec.podReplacementPolicy", "Unsupported value",
                     GoQuote(prp->text), Supported({"Failed", "TerminatingOrFailed"})});
    }
  }
  if (pfp && pfp->is_map()) PodFailurePolicy(*pfp, &out);
  if (const Node* sp = job_spec.Find("successPolicy"); sp && sp->is_map()) {
    SuccessPolicy(job_spec, *sp, &out);
  }
  const Node* tmpl = job_spec.Find("template");
  if (!tmpl || !tmpl->is_map()) return out;
  for (FieldError& e : ValidatePodTemplateSpec(*tmpl, options)) {
    e.path = "spec.template." + e.path;
    if (!e.locate.empty()) e.locate = "spec.template." + e.locate;
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
  } else if (pfp && policy != "Never") {
    // A pod failure policy judges failed pods; with OnFailure the kubelet restarts containers.
    FieldError e{kJobTemplatePodFailurePolicyRestartPolicy, "spec.template.spec.restartPolicy",
                 "Invalid value", GoQuote(policy),
                 "only \"Never\" is supported when podFailurePolicy is specified"};
    if (!rp->mark.known()) {
      // Not in the file: a default of the parent's admission put it there.
      e.locate = "spec.podFailurePolicy";
      e.at = PointAt::kKey;
      e.note = "the pod template sets no restartPolicy; " + policy + " is its default";
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace jobset
