#include "validation/jobset/types.h"

namespace jobset {
namespace {

std::optional<int64_t> IntField(const Node* map, std::string_view key) {
  const Node* n = map ? map->Find(key) : nullptr;
  if (n && n->is_int()) return n->integer;
  return std::nullopt;
}

std::optional<std::string> StringField(const Node* map, std::string_view key) {
  const Node* n = map ? map->Find(key) : nullptr;
  if (n && n->is_string()) return n->text;
  return std::nullopt;
}

std::vector<std::string> StringList(const Node* map, std::string_view key) {
  std::vector<std::string> out;
  const Node* n = map ? map->Find(key) : nullptr;
  if (!n || !n->is_seq()) return out;
  for (const Node& item : n->items) {
    if (item.is_string()) out.push_back(item.text);
  }
  return out;
}

ReplicatedJob DecodeReplicatedJob(const Node& n) {
  ReplicatedJob rj;
  rj.name = std::string(n.StringOr("name"));
  rj.group_name = StringField(&n, "groupName");
  if (auto r = IntField(&n, "replicas")) rj.replicas = *r;
  if (const Node* deps = n.Find("dependsOn"); deps && !deps->is_null()) {
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
    rj.parallelism = IntField(spec, "parallelism");
    rj.completions = IntField(spec, "completions");
    rj.backoff_limit = IntField(spec, "backoffLimit");
    rj.backoff_limit_per_index = IntField(spec, "backoffLimitPerIndex");
    rj.max_failed_indexes = IntField(spec, "maxFailedIndexes");
    rj.active_deadline_seconds = IntField(spec, "activeDeadlineSeconds");
    rj.completion_mode = StringField(spec, "completionMode");
    rj.pod_replacement_policy = StringField(spec, "podReplacementPolicy");
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
    if (auto m = IntField(fp, "maxRestarts")) p.max_restarts = *m;
    if (auto s = StringField(fp, "restartStrategy")) p.restart_strategy = *s;
    if (const Node* rules = fp->Find("rules"); rules && rules->is_seq()) {
      for (size_t i = 0; i < rules->items.size(); ++i) {
        const Node& r = rules->items[i];
        FailurePolicyRule rule;
        rule.name = std::string(r.StringOr("name"));
        rule.action = std::string(r.StringOr("action"));
        rule.on_job_failure_reasons = StringList(&r, "onJobFailureReasons");
        rule.on_job_failure_message_patterns = StringList(&r, "onJobFailureMessagePatterns");
        rule.target_replicated_jobs = StringList(&r, "targetReplicatedJobs");
        p.rules.push_back(std::move(rule));
      }
    }
    js.failure_policy = std::move(p);
  }
  if (const Node* sp = spec->Find("successPolicy"); sp && sp->is_map()) {
    SuccessPolicy s;
    if (auto op = StringField(sp, "operator")) s.op = *op;
    s.target_replicated_jobs = StringList(sp, "targetReplicatedJobs");
    js.success_policy = std::move(s);
  }
  if (const Node* st = spec->Find("startupPolicy"); st && st->is_map()) {
    js.startup_policy_order = StringField(st, "startupPolicyOrder");
  }
  if (const Node* net = spec->Find("network"); net && net->is_map()) {
    js.has_network = true;
    js.subdomain = StringField(net, "subdomain");
  }
  js.managed_by = StringField(spec, "managedBy");
  if (const Node* c = spec->Find("coordinator"); c && c->is_map()) {
    Coordinator co;
    co.replicated_job = std::string(c->StringOr("replicatedJob"));
    co.job_index = IntField(c, "jobIndex").value_or(0);
    co.pod_index = IntField(c, "podIndex").value_or(0);
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
        p.when_deleted = StringField(rp, "whenDeleted");
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
