#include "validation/jobset/types.h"

namespace jobset {
namespace {

ReplicatedJob DecodeReplicatedJob(const Node& n) {
  ReplicatedJob rj;
  rj.name = std::string(n.StringOr("name"));
  rj.group_name = OptionalString(&n, "groupName");
  if (auto r = OptionalInt(&n, "replicas")) rj.replicas = *r;
  if (const Node* deps = FindPresent(&n, "dependsOn")) {
    rj.has_depends_on = true;
    if (deps->is_seq()) {
      for (const Node& d : deps->items) {
        rj.depends_on.push_back(
            {std::string(d.StringOr("name")), std::string(d.StringOr("status"))});
      }
    }
  }
  const Node* tmpl = n.Find("template");
  const Node* spec = tmpl ? tmpl->Find("spec") : nullptr;
  if (spec && spec->is_map()) {
    rj.job_spec = spec;
    rj.parallelism = OptionalInt(spec, "parallelism");
    rj.completions = OptionalInt(spec, "completions");
    rj.backoff_limit = OptionalInt(spec, "backoffLimit");
    rj.backoff_limit_per_index = OptionalInt(spec, "backoffLimitPerIndex");
    rj.max_failed_indexes = OptionalInt(spec, "maxFailedIndexes");
    rj.active_deadline_seconds = OptionalInt(spec, "activeDeadlineSeconds");
    rj.completion_mode = OptionalString(spec, "completionMode");
    rj.pod_replacement_policy = OptionalString(spec, "podReplacementPolicy");
    const Node* pod_tmpl = spec->Find("template");
    const Node* pod_spec = pod_tmpl ? pod_tmpl->Find("spec") : nullptr;
    if (pod_spec && pod_spec->is_map()) rj.pod_spec = pod_spec;
  }
  return rj;
}

}  // namespace

bool IsJobSet(const Node& object) {
  return object.StringOr("apiVersion") == kJobSetApiVersion &&
         object.StringOr("kind") == kJobSetKind;
}

JobSet DecodeJobSet(const Node& object) {
  JobSet js;
  if (const Node* md = object.Find("metadata")) {
    js.name = std::string(md->StringOr("name"));
    js.generate_name = std::string(md->StringOr("generateName"));
    js.namespace_name = std::string(md->StringOr("namespace"));
  }
  const Node* spec = object.Find("spec");
  if (!spec || !spec->is_map()) return js;
  if (const Node* rjs = spec->Find("replicatedJobs"); rjs && rjs->is_seq()) {
    js.replicated_jobs.reserve(rjs->items.size());
    for (const Node& n : rjs->items) js.replicated_jobs.push_back(DecodeReplicatedJob(n));
  }
  if (const Node* fp = spec->Find("failurePolicy"); fp && fp->is_map()) {
    FailurePolicy p;
    if (auto m = OptionalInt(fp, "maxRestarts")) p.max_restarts = *m;
    if (auto s = OptionalString(fp, "restartStrategy")) p.restart_strategy = *s;
    if (const Node* rules = fp->Find("rules"); rules && rules->is_seq()) {
      for (size_t i = 0; i < rules->items.size(); ++i) {
        const Node& r = rules->items[i];
        FailurePolicyRule rule;
        rule.name = std::string(r.StringOr("name"));
        rule.action = std::string(r.StringOr("action"));
        rule.on_job_failure_reasons = StringItems(&r, "onJobFailureReasons");
        rule.on_job_failure_message_patterns = StringItems(&r, "onJobFailureMessagePatterns");
        rule.target_replicated_jobs = StringItems(&r, "targetReplicatedJobs");
        p.rules.push_back(std::move(rule));
      }
    }
    js.failure_policy = std::move(p);
  }
  if (const Node* sp = spec->Find("successPolicy"); sp && sp->is_map()) {
    SuccessPolicy s;
    if (auto op = OptionalString(sp, "operator")) s.op = *op;
    s.target_replicated_jobs = StringItems(sp, "targetReplicatedJobs");
    js.success_policy = std::move(s);
  }
  if (const Node* st = spec->Find("startupPolicy"); st && st->is_map()) {
    js.startup_policy_order = OptionalString(st, "startupPolicyOrder");
  }
  if (const Node* net = spec->Find("network"); net && net->is_map()) {
    js.has_network = true;
    js.subdomain = OptionalString(net, "subdomain");
  }
  js.managed_by = OptionalString(spec, "managedBy");
  if (const Node* c = spec->Find("coordinator"); c && c->is_map()) {
    Coordinator co;
    co.replicated_job = std::string(c->StringOr("replicatedJob"));
    co.job_index = OptionalInt(c, "jobIndex").value_or(0);
    co.pod_index = OptionalInt(c, "podIndex").value_or(0);
    js.coordinator = co;
  }
  if (const Node* vcps = spec->Find("volumeClaimPolicies"); vcps && vcps->is_seq()) {
    for (const Node& v : vcps->items) {
      VolumeClaimPolicy p;
      if (const Node* ts = v.Find("templates"); ts && ts->is_seq()) {
        for (const Node& t : ts->items) {
          const Node* md = t.Find("metadata");
          p.template_names.push_back(md ? std::string(md->StringOr("name")) : "");
        }
      }
      if (const Node* rp = v.Find("retentionPolicy"))
        p.when_deleted = OptionalString(rp, "whenDeleted");
      js.volume_claim_policies.push_back(std::move(p));
    }
  }
  if (const Node* s = spec->Find("suspend"); s && s->is_bool()) js.suspend = s->boolean;
  return js;
}

std::string NameForValidation(const JobSet& js) {
  if (!js.name.empty()) return js.name;
  if (js.generate_name.empty()) return "";
  // Only the length and the prefix matter: the random suffix is always DNS-1035-safe.
  std::string prefix = js.generate_name.substr(0, std::min<size_t>(js.generate_name.size(), 58));
  return prefix + "xxxxx";
}

}  // namespace jobset
