#include "validation/jobset/validation.h"

#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "validation/core/k8s_names.h"
#include "validation/core/name_index.h"
#include "validation/core/strings.h"
#include "validation/jobset/rules.h"
#include "validation/jobset/types.h"
#include "validation/schema/rules.h"

namespace jobset {
namespace {

// The webhook's rule name pattern (the length is checked on its own).
bool RuleNamePatternMatches(std::string_view name) {
  static const RE2 rule_name("[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?");
  return RE2::FullMatch(re2::StringPiece(name.data(), name.size()), rule_name);
}

constexpr int64_t kMaxInt32 = 2147483647;
constexpr char kRJobs[] = "spec.replicatedJobs";
constexpr char kRules[] = "spec.failurePolicy.rules";

// "[0 1]", as Go prints a []int.
std::string GoIntList(const std::vector<size_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + std::to_string(v[i]);
  return s + "]";
}

/// The replicated jobs' names and the first position of each, built once per JobSet so that a
/// name is found in constant time however many replicated jobs there are.
struct RJobNames {
  std::vector<std::string> names;
  NameIndex index;
};

/// Indexes the replicated jobs of `js` by name.
RJobNames IndexRJobNames(const JobSet& js) {
  RJobNames r;
  for (const ReplicatedJob& rj : js.replicated_jobs) r.names.push_back(rj.name);
  r.index = BuildNameIndex(r.names);
  return r;
}

/// The first position of the replicated job named `name`, -1 when there is none.
int FirstRJob(const RJobNames& rjobs, std::string_view name) {
  return FindName(rjobs.index, rjobs.names, name);
}

// --- Metadata and keyed lists ----------------------------------------------------------------

void ValidateMetadata(const JobSet& js, const Node& object, FindingSink* sink) {
  const Node* md = object.Find("metadata");
  if (js.name.empty() && js.generate_name.empty()) {
    sink->Field(kMetadataName, "metadata.name", "Required value", "",
                "name or generateName is required");
    return;
  }
  if (!js.name.empty()) {
    for (const std::string& e : DNS1123SubdomainErrors(js.name))
      sink->Field(kMetadataName, "metadata.name", "Invalid value", GoQuote(js.name), e);
  } else {
    // generateName is validated as a prefix: apimachinery masks a trailing '-' as 'a'.
    std::string prefix = js.generate_name;
    if (prefix.size() > 1 && prefix.back() == '-') prefix.back() = 'a';
    for (const std::string& e : DNS1123SubdomainErrors(prefix))
      sink->Field(kMetadataName, "metadata.generateName", "Invalid value",
                  GoQuote(js.generate_name), e);
  }
  if (!js.namespace_name.empty()) {
    for (const std::string& e : DNS1123LabelErrors(js.namespace_name))
      sink->Field(kMetadataNamespace, "metadata.namespace", "Invalid value",
                  GoQuote(js.namespace_name), e);
  }
  const Node* labels = md ? md->Find("labels") : nullptr;
  if (labels && labels->is_map()) {
    for (const MapEntry& e : labels->entries) {
      std::string path = "metadata.labels";
      for (const std::string& err : QualifiedNameErrors(e.key))
        sink->Field(kMetadataLabels, path, "Invalid value", GoQuote(e.key), err, Key(path, e.key),
                    PointAt::kKey);
      if (e.value.is_string()) {
        for (const std::string& err : LabelValueErrors(e.value.text))
          sink->Field(kMetadataLabels, path, "Invalid value", GoQuote(e.value.text), err,
                      Key(path, e.key));
      }
    }
  }
}

// list-type=map with key `name`: kube-apiserver reports the later duplicates.
void ValidateKeyedList(const Node* list, const std::string& path, FindingSink* sink) {
  if (!list || !list->is_seq()) return;
  std::set<std::string> seen;
  for (size_t i = 0; i < list->items.size(); ++i) {
    const Node& item = list->items[i];
    const Node* name = item.Find("name");
    if (!name || !name->is_string()) continue;
    if (!seen.insert(name->text).second) {
      sink->Field(kSchemaDuplicateKey, Index(path, i), "Duplicate value",
                  "map[string]interface {}{\"name\":" + GoQuote(name->text) + "}", "",
                  Child(Index(path, i), "name"));
    }
  }
}

// --- Webhook rules ---------------------------------------------------------------------------

// The subdomain, groupName and generated-name DNS-1035 checks, whose "too long" text upstream
// (ValidateCreate) replaces with its own.
void DNS1035WithOwnTooLong(RuleId rule, const std::string& path, std::string_view value,
                           const std::string& too_long, std::string rendered_value,
                           FindingSink* sink) {
  for (std::string e : DNS1035LabelErrors(value)) {
    if (e.find("must be no more than 63 characters") != std::string::npos) e = too_long;
    sink->Field(rule, path, "Invalid value", rendered_value, e);
  }
}

void ValidateManagedBy(const std::string& managed_by, FindingSink* sink) {
  const std::string path = "spec.managedBy";
  const RuleId rule = kManagedByFormat;
  if (managed_by.empty()) {
    sink->Field(rule, path, "Required value", "", "");
  } else {
    size_t slash = managed_by.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == managed_by.size()) {
      sink->Field(rule, path, "Invalid value", GoQuote(managed_by),
                  "must be a domain-prefixed path (such as \"acme.io/foo\")");
    } else {
      std::string host = managed_by.substr(0, slash), rest = managed_by.substr(slash + 1);
      for (const std::string& e : DNS1123SubdomainErrors(host))
        sink->Field(rule, path, "Invalid value", GoQuote(host), e);
      static const RE2 http_path("[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+");
      if (!RE2::FullMatch(rest, http_path)) {
        sink->Field(rule, path, "Invalid value", GoQuote(rest),
                    "Invalid path (regex used for validation is "
                    "'[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')");
      }
    }
  }
  if (managed_by.size() > 63)
    sink->Field(rule, path, "Too long", "", "may not be more than 63 bytes");
}

void ValidateReplicatedJob(const JobSet& js, size_t i, const std::string& N, const RJobNames& rjobs,
                           const FeatureGates& gates, FindingSink* sink) {
  const ReplicatedJob& rj = js.replicated_jobs[i];
  std::string base = Index(kRJobs, i);
  // parallelism x replicas fits in an int32.
  int64_t parallelism = rj.parallelism.value_or(1);
  int64_t product = 0;
  bool overflow = __builtin_mul_overflow(parallelism, rj.replicas, &product);
  if (overflow || product > kMaxInt32) {
    sink->Plain(kReplicatedJobReplicasParallelismOverflow, Child(base, "replicas"),
                "the product of replicas and parallelism must not exceed 2147483647 for "
                "replicatedJob '" +
                    rj.name + "'");
  }
  // groupName.
  std::string group = rj.group_name.value_or("default");
  DNS1035WithOwnTooLong(kReplicatedJobGroupName, Child(base, "groupName"), group,
                        ".spec.replicatedJob[].groupName is too long, must be less than 63 "
                        "characters",
                        GoQuote(group), sink);
  // The longest child Job name.
  std::string job_name = N + "-" + rj.name + "-" + std::to_string(rj.replicas - 1);
  DNS1035WithOwnTooLong(kReplicatedJobJobName, Child(base, "name"), job_name,
                        "JobSet name is too long, job names generated for this JobSet will "
                        "exceed 63 characters",
                        GoQuote(job_name), sink);
  // The longest pod name of an Indexed Job: reported with the job name as the value, as upstream
  // does.
  if (rj.completion_mode.value_or("Indexed") == "Indexed" && rj.completions) {
    std::string pod_name = job_name + "-" + std::to_string(*rj.completions - 1) + "-abcde";
    for (std::string e : DNS1035LabelErrors(pod_name)) {
      if (e.find("must be no more than 63 characters") != std::string::npos) {
        e = "JobSet name is too long, pod names generated for this JobSet will exceed 63 "
            "characters";
      }
      sink->Field(kReplicatedJobPodName, Child(base, "name"), "Invalid value", GoQuote(job_name),
                  e);
    }
  }
  // dependsOn: a replicated job may depend on itself or on any earlier one.
  for (size_t k = 0; k < rj.depends_on.size(); ++k) {
    const std::string& dep = rj.depends_on[k].name;
    const int first = FirstRJob(rjobs, dep);
    if (first < 0 || static_cast<size_t>(first) > i) {
      sink->Plain(kDependsOnUnknownReplicatedJob, Child(Index(Child(base, "dependsOn"), k), "name"),
                  "replicatedJob: " + rj.name + " cannot depend on replicatedJob: " + dep);
    }
  }
  // InPlaceRestart: backoffLimit, podReplacementPolicy, completions == parallelism.
  if (gates.in_place_restart && js.failure_policy &&
      js.failure_policy->restart_strategy == "InPlaceRestart") {
    std::string spec = Child(base, "template.spec");
    if (!rj.backoff_limit || *rj.backoff_limit != kMaxInt32) {
      sink->Field(kInPlaceRestartBackoffLimit, Child(spec, "backoffLimit"), "Invalid value",
                  rj.backoff_limit ? std::to_string(*rj.backoff_limit) : "null",
                  "replicatedJob " + rj.name +
                      ": must be set to 2147483647 (MaxInt32) when in-place restart is enabled");
    }
    if (!rj.pod_replacement_policy || *rj.pod_replacement_policy != "Failed") {
      sink->Field(
          kInPlaceRestartPodReplacementPolicy, Child(spec, "podReplacementPolicy"), "Invalid value",
          rj.pod_replacement_policy ? GoQuote(*rj.pod_replacement_policy) : "null",
          "replicatedJob " + rj.name + ": must be set to Failed when in-place restart is enabled");
    }
    if (!rj.completions || !rj.parallelism || *rj.completions != *rj.parallelism) {
      sink->Field(kInPlaceRestartCompletionsParallelism, Child(spec, "completions"),
                  "Invalid value", rj.completions ? std::to_string(*rj.completions) : "null",
                  "replicatedJob " + rj.name +
                      ": completions and parallelism must be set and equal to each other when "
                      "in-place restart is enabled");
    }
  }
}

void ValidateFailurePolicy(const JobSet& js, const RJobNames& rjobs, const FeatureGates& gates,
                           FindingSink* sink) {
  const FailurePolicy& fp = *js.failure_policy;
  // 1. RestartJob gate and the replicas cap.
  int first_restart_job = -1;
  for (size_t i = 0; i < fp.rules.size() && first_restart_job < 0; ++i) {
    const std::string& a = fp.rules[i].action;
    if (a == "RestartJob" || a == "RestartJobAndIgnoreMaxRestarts")
      first_restart_job = static_cast<int>(i);
  }
  if (first_restart_job >= 0) {
    std::string at = Child(Index(kRules, first_restart_job), "action");
    if (!gates.restart_job) {
      sink->Plain(kFailurePolicyRestartJobGate, at,
                  "RestartJob and RestartJobAndIgnoreMaxRestarts failure policy actions are not "
                  "allowed when RestartJob feature gate is disabled");
      return;  // upstream stops here: no other failure policy check runs
    }
    for (size_t i = 0; i < js.replicated_jobs.size(); ++i) {
      if (js.replicated_jobs[i].replicas > 1024) {
        sink->Plain(kFailurePolicyRestartJobReplicas, Child(Index(kRJobs, i), "replicas"),
                    "JobSet cannot have a failure policy rule with RestartJob or "
                    "RestartJobAndIgnoreMaxRestarts action and a replicated job with replicas > "
                    "1024");
        break;
      }
    }
  }
  // 2. Per rule.
  for (size_t i = 0; i < fp.rules.size(); ++i) {
    const FailurePolicyRule& r = fp.rules[i];
    std::string base = Index(kRules, i);
    if (r.name.empty() || r.name.size() > 128) {
      sink->Plain(kFailurePolicyRuleName, Child(base, "name"),
                  "invalid failure policy rule name of length " + std::to_string(r.name.size()) +
                      ", the rule name must be at least 1 characters long and at most 128 "
                      "characters long");
    }
    if (!RuleNamePatternMatches(r.name)) {
      sink->Plain(kFailurePolicyRuleName, Child(base, "name"),
                  "invalid failure policy rule name '" + r.name +
                      "', a failure policy rule name must start with an alphabetic character, "
                      "optionally followed by a string of alphanumeric characters or '_,:', and "
                      "must end with an alphanumeric character or '_'");
    }
    for (size_t k = 0; k < r.target_replicated_jobs.size(); ++k) {
      if (FirstRJob(rjobs, r.target_replicated_jobs[k]) < 0) {
        sink->Plain(kFailurePolicyUnknownTarget, Index(Child(base, "targetReplicatedJobs"), k),
                    "invalid replicatedJob name '" + r.target_replicated_jobs[k] +
                        "' in failure policy does not appear in .spec.ReplicatedJobs");
      }
    }
    for (size_t k = 0; k < r.on_job_failure_reasons.size(); ++k) {
      if (!Contains(JobFailureReasons(), r.on_job_failure_reasons[k])) {
        sink->Plain(kFailurePolicyUnknownReason, Index(Child(base, "onJobFailureReasons"), k),
                    "invalid job failure reason '" + r.on_job_failure_reasons[k] +
                        "' in failure policy is not a recognized job failure reason");
      }
    }
  }
  // 3. Uniqueness (upstream's order among several duplicated names is unspecified; we use the
  // order of first appearance).
  std::vector<std::pair<std::string_view, std::vector<size_t>>> by_name;
  std::unordered_map<std::string_view, size_t> slot_of;
  for (size_t i = 0; i < fp.rules.size(); ++i) {
    auto [it, added] = slot_of.try_emplace(fp.rules[i].name, by_name.size());
    if (added) by_name.push_back({fp.rules[i].name, {}});
    by_name[it->second].second.push_back(i);
  }
  for (const auto& [name, idx] : by_name) {
    if (idx.size() < 2) continue;
    sink->Plain(kFailurePolicyDuplicateRuleName, Child(Index(kRules, idx[1]), "name"),
                "rule names are not unique, rules with indices " + GoIntList(idx) +
                    " all have the same name '" + std::string(name) + "'");
  }
}

void ValidateCoordinator(const JobSet& js, const std::string& N, FindingSink* sink) {
  const Coordinator& c = *js.coordinator;
  const std::string base = "spec.coordinator";
  const ReplicatedJob* rj = nullptr;
  for (const ReplicatedJob& r : js.replicated_jobs)
    if (r.name == c.replicated_job) rj = &r;
  if (!rj) {
    sink->Plain(kCoordinatorUnknownReplicatedJob, Child(base, "replicatedJob"),
                "coordinator replicatedJob " + c.replicated_job + " does not exist");
  } else if (c.job_index < 0 || c.job_index >= rj->replicas) {
    sink->Plain(kCoordinatorJobIndex, Child(base, "jobIndex"),
                "coordinator job index " + std::to_string(c.job_index) +
                    " is invalid for replicatedJob " + rj->name);
  } else if (rj->completion_mode.value_or("Indexed") != "Indexed" || !rj->completions) {
    sink->Plain(kCoordinatorNotIndexed, Child(base, "replicatedJob"),
                "job for coordinator pod must be indexed completion mode, and completions "
                "number must be set");
  } else if (c.pod_index < 0 || c.pod_index >= *rj->completions) {
    sink->Plain(kCoordinatorPodIndex, Child(base, "podIndex"),
                "coordinator pod index " + std::to_string(c.pod_index) +
                    " is invalid for replicatedJob " + rj->name + " job index " +
                    std::to_string(c.job_index));
  }
  std::string subdomain = js.subdomain && !js.subdomain->empty() ? *js.subdomain : N;
  std::string endpoint = N + "-" + c.replicated_job + "-" + std::to_string(c.job_index) + "-" +
                         std::to_string(c.pod_index) + "." + subdomain;
  std::vector<std::string> errs = LabelValueErrors(endpoint);
  if (!errs.empty()) {
    std::string joined;
    for (const std::string& e : errs) joined += (joined.empty() ? "" : ", ") + e;
    sink->Plain(kCoordinatorLabelValue, base,
                "spec will lead to invalid label value \"" + endpoint +
                    "\" for coordinator label \"jobset.sigs.k8s.io/coordinator\" (long JobSet / "
                    "ReplicatedJob / SubDomain name?): " +
                    joined);
  }
}

// Marks in `mounted` the templates (by their index in `templates`) that a volumeMount of a pod
// template's containers or initContainers names.
void MarkMountedTemplates(const Node* pod_spec,
                          const std::unordered_map<std::string_view, size_t>& templates,
                          std::vector<bool>* mounted) {
  if (!pod_spec) return;
  for (const char* list : {"containers", "initContainers"}) {
    const Node* cs = pod_spec->Find(list);
    if (!cs || !cs->is_seq()) continue;
    for (const Node& c : cs->items) {
      const Node* mounts = c.Find("volumeMounts");
      if (!mounts || !mounts->is_seq()) continue;
      for (const Node& m : mounts->items) {
        if (auto it = templates.find(m.StringOr("name")); it != templates.end()) {
          (*mounted)[it->second] = true;
        }
      }
    }
  }
}

// Templates (at most 50 x 50 by the CRD) against the volumes and mounts of every replicated
// job, whose number the CRD does not bound: the template names are indexed once, and each volume
// and mount is looked up among them, so the check is linear in the volumes and mounts plus the
// templates, and its tables hold the templates only (not one entry per volume or mount: a hash
// table of a million names and its allocations cost more per name as it grows).
void ValidateVolumeClaimPolicies(const JobSet& js, const std::string& N, const Node& object,
                                 FindingSink* sink) {
  // The distinct template names, numbered in order of first appearance.
  std::unordered_map<std::string_view, size_t> templates;
  for (const VolumeClaimPolicy& p : js.volume_claim_policies) {
    for (const std::string& name : p.template_names) templates.emplace(name, templates.size());
  }
  // Per distinct template name: the pod volumes of that name, in order (replicated job, volume);
  // whether a mount names it.
  std::vector<std::vector<std::pair<size_t, size_t>>> volumes(templates.size());
  std::vector<bool> mounted(templates.size(), false);
  for (size_t r = 0; r < js.replicated_jobs.size(); ++r) {
    const Node* pod_spec = js.replicated_jobs[r].pod_spec;
    MarkMountedTemplates(pod_spec, templates, &mounted);
    const Node* vols = pod_spec ? pod_spec->Find("volumes") : nullptr;
    if (!vols || !vols->is_seq()) continue;
    for (size_t v = 0; v < vols->items.size(); ++v) {
      if (auto it = templates.find(vols->items[v].StringOr("name")); it != templates.end()) {
        volumes[it->second].emplace_back(r, v);
      }
    }
  }
  std::optional<std::string> rjobs_json;  // The value no-volume-mount reports, rendered once.
  std::set<std::string> seen;
  for (size_t pi = 0; pi < js.volume_claim_policies.size(); ++pi) {
    const VolumeClaimPolicy& p = js.volume_claim_policies[pi];
    for (size_t ti = 0; ti < p.template_names.size(); ++ti) {
      const std::string& name = p.template_names[ti];
      // Upstream reports "template[ti]" although the field is "templates".
      std::string reported = Index(Child(Index("spec.volumeClaimPolicies", pi), "template"), ti);
      std::string real = Index(Child(Index("spec.volumeClaimPolicies", pi), "templates"), ti);
      std::string name_path = Child(real, "metadata.name");
      if (!seen.insert(name).second) {
        sink->Field(kVolumeClaimPolicyDuplicateName, Child(reported, "name"), "Invalid value",
                    GoQuote(name), "names must be unique for VolumeClaimPolicies template",
                    name_path);
      }
      for (const std::string& e : DNS1123SubdomainErrors(name))
        sink->Field(kVolumeClaimPolicyName, Child(reported, "name"), "Invalid value", GoQuote(name),
                    e, name_path);
      if (name.size() + 1 + N.size() > 63) {
        sink->Field(kVolumeClaimPolicyNameTooLong, Child(reported, "name"), "Invalid value",
                    GoQuote(name), "VolumeClaimPolicies template name is too long", name_path);
      }
      const size_t t = templates.at(name);
      for (const auto& [r, v] : volumes[t]) {
        std::string path = Child(
            Index(Child(Child(Index(kRJobs, r), "template.spec.template.spec"), "volumes"), v),
            "name");
        sink->Field(kVolumeClaimPolicyVolumeConflict, path, "Invalid value", GoQuote(name),
                    "volume name conflicts with VolumeClaimPolicy template name: " + name);
      }
      if (!mounted[t]) {
        if (!rjobs_json) {
          const Node* rjs = FindPath(object, kRJobs);
          rjobs_json = rjs ? CompactJson(*rjs) : "null";
        }
        sink->Field(kVolumeClaimPolicyNoVolumeMount, kRJobs, "Invalid value", *rjobs_json,
                    "replicatedJob containers don't have a matching volumeMount: " + name +
                        " from VolumeClaimPolicies",
                    name_path);
      }
    }
  }
}

}  // namespace

// --- Entry points ----------------------------------------------------------------------------

bool IsValidRuleName(std::string_view name) {
  return !name.empty() && name.size() <= 128 && RuleNamePatternMatches(name);
}

void ValidateApiServerRules(const Node& object, FindingSink* sink) {
  ValidateApiServerRules(DecodeJobSet(object), object, sink);
}

void ValidateApiServerRules(const JobSet& js, const Node& object, FindingSink* sink) {
  ValidateMetadata(js, object, sink);
  const Node* rjs = FindPath(object, kRJobs);
  ValidateKeyedList(rjs, kRJobs, sink);
  if (rjs && rjs->is_seq()) {
    for (size_t i = 0; i < rjs->items.size(); ++i)
      ValidateKeyedList(rjs->items[i].Find("dependsOn"), Child(Index(kRJobs, i), "dependsOn"),
                        sink);
  }
  // CEL on spec: InOrder startup and dependsOn are mutually exclusive.
  if (js.startup_policy_order && *js.startup_policy_order == "InOrder") {
    for (const ReplicatedJob& rj : js.replicated_jobs) {
      if (rj.has_depends_on) {
        sink->Field(kJobSetStartupPolicyDependsOn, "spec", "Invalid value", "\"object\"",
                    "StartupPolicy and DependsOn APIs are mutually exclusive",
                    "spec.startupPolicy.startupPolicyOrder");
        break;
      }
    }
  }
  // CEL on each volume claim policy: templates must not set a namespace.
  if (const Node* vcps = FindPath(object, "spec.volumeClaimPolicies"); vcps && vcps->is_seq()) {
    for (size_t i = 0; i < vcps->items.size(); ++i) {
      const Node* ts = vcps->items[i].Find("templates");
      if (!ts || !ts->is_seq()) continue;
      for (size_t t = 0; t < ts->items.size(); ++t) {
        const Node* md = ts->items[t].Find("metadata");
        const Node* ns = md ? md->Find("namespace") : nullptr;
        if (ns && ns->is_string() && !ns->text.empty()) {
          std::string path = Index("spec.volumeClaimPolicies", i);
          sink->Field(kVolumeClaimPolicyNamespace, path, "Invalid value", "\"object\"",
                      "namespace cannot be set for VolumeClaimPolicies templates",
                      Child(Index(Child(path, "templates"), t), "metadata.namespace"));
          break;
        }
      }
    }
  }
}

void ValidateWebhookCreate(const Node& object, const FeatureGates& gates, FindingSink* sink) {
  ValidateWebhookCreate(DecodeJobSet(object), object, gates, sink);
}

void ValidateWebhookCreate(const JobSet& js, const Node& object, const FeatureGates& gates,
                           FindingSink* sink) {
  const std::string N = NameForValidation(js);
  // The InPlaceRestart gate.
  if (!gates.in_place_restart && js.failure_policy &&
      js.failure_policy->restart_strategy == "InPlaceRestart") {
    sink->Plain(kFailurePolicyInPlaceRestartGate, "spec.failurePolicy.restartStrategy",
                "InPlaceRestart restart strategy cannot be set when InPlaceRestart feature gate "
                "is disabled");
  }
  // No dependsOn on the first replicated job.
  if (!js.replicated_jobs.empty() && js.replicated_jobs[0].has_depends_on) {
    sink->Plain(kDependsOnFirstReplicatedJob, "spec.replicatedJobs[0].dependsOn",
                "DependsOn can't be set for the first ReplicatedJob", PointAt::kKey);
  }
  // network.subdomain: DNS-1123 subdomain, then DNS-1035 label.
  if (js.has_network && js.subdomain && !js.subdomain->empty()) {
    const std::string path = "spec.network.subdomain";
    for (const std::string& e : DNS1123SubdomainErrors(*js.subdomain))
      sink->Field(kNetworkSubdomain, path, "Invalid value", GoQuote(*js.subdomain), e);
    DNS1035WithOwnTooLong(kNetworkSubdomain, path, *js.subdomain,
                          ".spec.network.subdomain is too long, must be less than 63 characters",
                          GoQuote(*js.subdomain), sink);
  }
  // managedBy.
  if (js.managed_by) ValidateManagedBy(*js.managed_by, sink);
  // Each replicated job, in order.
  const RJobNames rjobs = IndexRJobNames(js);
  for (size_t i = 0; i < js.replicated_jobs.size(); ++i)
    ValidateReplicatedJob(js, i, N, rjobs, gates, sink);
  // successPolicy targets.
  if (js.success_policy) {
    const auto& targets = js.success_policy->target_replicated_jobs;
    for (size_t k = 0; k < targets.size(); ++k) {
      if (FirstRJob(rjobs, targets[k]) < 0) {
        sink->Plain(kSuccessPolicyUnknownTarget,
                    Index("spec.successPolicy.targetReplicatedJobs", k),
                    "invalid replicatedJob name '" + targets[k] +
                        "' does not appear in .spec.ReplicatedJobs");
      }
    }
  }
  // validateFailurePolicy, validateCoordinator, validateVolumeClaimPolicies.
  if (js.failure_policy) ValidateFailurePolicy(js, rjobs, gates, sink);
  if (js.coordinator) ValidateCoordinator(js, N, sink);
  if (!js.volume_claim_policies.empty()) ValidateVolumeClaimPolicies(js, N, object, sink);
}

}  // namespace jobset
