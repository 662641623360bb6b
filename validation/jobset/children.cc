#include "validation/jobset/children.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "validation/core/patch.h"
#include "validation/core/sha1.h"
#include "validation/jobset/defaults.h"
#include "validation/jobset/types.h"

namespace jobset {

namespace {

// More children than this is not a manifest anyone reviews: refuse rather than print millions.
constexpr int64_t kMaxChildren = 100000;

constexpr char kController[] = "jobset.sigs.k8s.io/jobset-controller";
constexpr char kExclusiveKey[] = "alpha.jobset.sigs.k8s.io/exclusive-topology";
constexpr char kNodeSelectorStrategyKey[] = "alpha.jobset.sigs.k8s.io/node-selector";
constexpr char kNamespacedJobKey[] = "alpha.jobset.sigs.k8s.io/namespaced-job";
constexpr char kNoScheduleTaintKey[] = "alpha.jobset.sigs.k8s.io/no-schedule";

// One replicated job as the controller reads it (after the CRD defaults).
struct RJob {
  std::string name;
  std::string group;
  int64_t replicas = 0;
  const Node* tmpl = nullptr;  // template (the JobTemplateSpec), a mapping or nullptr
};

const Node* MapAt(const Node* n, std::string_view key) {
  if (n == nullptr || !n->is_map()) return nullptr;
  const Node* v = n->Find(key);
  return v != nullptr && v->is_map() ? v : nullptr;
}

// The mapping under `key`, made one (replacing null or a value of another type) when it is not.
Node* EnsureMap(Node* parent, std::string_view key) {
  Node* v = parent->Find(key);
  if (v == nullptr || !v->is_map()) v = &parent->Set(key, Node::Map());
  return v;
}

// The sequence under `key`, made one when it is not.
Node* EnsureSeq(Node* parent, std::string_view key) {
  Node* v = parent->Find(key);
  if (v == nullptr || !v->is_seq()) v = &parent->Set(key, Node::Seq());
  return v;
}

Node Str(std::string s) { return Node::String(std::move(s)); }

std::string Num(int64_t v) { return std::to_string(v); }

// metadata: name, namespace (when the JobSet has one), then the rest.
Node Metadata(const std::string& name, const std::string& ns) {
  Node meta = Node::Map();
  meta.Set("name", Str(name));
  if (!ns.empty()) meta.Set("namespace", Str(ns));
  return meta;
}

// ctrl.SetControllerReference(js, obj): the JobSet as the controlling owner.
Node OwnerReferences(const std::string& jobset_name) {
  Node ref = Node::Map();
  ref.Set("apiVersion", Str(kJobSetApiVersion));
  ref.Set("kind", Str(kJobSetKind));
  ref.Set("name", Str(jobset_name));
  ref.Set("uid", Str(kPlaceholderUid));
  ref.Set("controller", Node::Bool(true));
  ref.Set("blockOwnerDeletion", Node::Bool(true));
  Node refs = Node::Seq();
  refs.items.push_back(std::move(ref));
  return refs;
}

// What labelAndAnnotateObject adds for one Job, in its order.
struct JobKeys {
  std::vector<std::pair<std::string, std::string>> both;         // labels and annotations
  std::vector<std::pair<std::string, std::string>> annotations;  // the alpha placement keys
};

// Copies the exclusive-placement annotations of `from` (a JobSet's or a replicated job
// template's metadata.annotations) as labelAndAnnotateObject does: the topology, then the
// node-selector strategy only alongside it.
void PlacementAnnotations(const Node* from, JobKeys* keys) {
  if (from == nullptr) return;
  const Node* topology = from->Find(kExclusiveKey);
  if (topology == nullptr) return;
  keys->annotations.emplace_back(kExclusiveKey, topology->is_string() ? topology->text : "");
  if (const Node* strategy = from->Find(kNodeSelectorStrategyKey)) {
    keys->annotations.emplace_back(kNodeSelectorStrategyKey,
                                   strategy->is_string() ? strategy->text : "");
  }
}

// Sets `keys` on metadata.labels and metadata.annotations of `object` (a Job, or its pod
// template), keeping what is there and overwriting the controller's own keys in place.
void LabelAndAnnotate(Node* object, const JobKeys& keys) {
  Node* meta = EnsureMap(object, "metadata");
  // Both made first: adding one to `meta` may move the other.
  EnsureMap(meta, "labels");
  EnsureMap(meta, "annotations");
  Node* labels = meta->Find("labels");
  Node* annotations = meta->Find("annotations");
  for (const auto& [k, v] : keys.both) {
    labels->Set(k, Str(v));
    annotations->Set(k, Str(v));
  }
  for (const auto& [k, v] : keys.annotations) annotations->Set(k, Str(v));
}

// addVolumes' hasVolumeMount: a (init)container of the pod spec mounts a volume named `name`.
bool MountsVolume(const Node& pod_spec, std::string_view name) {
  for (const char* list : {"containers", "initContainers"}) {
    const Node* containers = pod_spec.Find(list);
    if (containers == nullptr || !containers->is_seq()) continue;
    for (const Node& c : containers->items) {
      const Node* mounts = c.is_map() ? c.Find("volumeMounts") : nullptr;
      if (mounts == nullptr || !mounts->is_seq()) continue;
      for (const Node& m : mounts->items) {
        if (m.is_map() && m.StringOr("name") == name) return true;
      }
    }
  }
  return false;
}

// The templates of spec.volumeClaimPolicies, each with its policy's whenDeleted.
struct ClaimTemplate {
  const Node* pvc;  // a PersistentVolumeClaim template (metadata, spec)
  std::string when_deleted;
};

std::vector<ClaimTemplate> ClaimTemplates(const Node& spec) {
  std::vector<ClaimTemplate> out;
  const Node* policies = spec.Find("volumeClaimPolicies");
  if (policies == nullptr || !policies->is_seq()) return out;
  for (const Node& policy : policies->items) {
    if (!policy.is_map()) continue;
    std::string when_deleted;
    if (const Node* rp = MapAt(&policy, "retentionPolicy"))
      when_deleted = std::string(rp->StringOr("whenDeleted"));
    const Node* templates = policy.Find("templates");
    if (templates == nullptr || !templates->is_seq()) continue;
    for (const Node& t : templates->items) {
      if (t.is_map()) out.push_back({&t, when_deleted});
    }
  }
  return out;
}

std::string TemplateName(const Node& pvc) {
  const Node* meta = MapAt(&pvc, "metadata");
  return meta ? std::string(meta->StringOr("name")) : "";
}

// What every child of a JobSet takes from it (defaults applied).
struct JobSetView {
  std::string name, ns;
  std::string hash_ns;  // The namespace the job keys hash (a placeholder when none).
  const Node* annotations = nullptr;
  std::vector<RJob> rjobs;
  int64_t global_replicas = 0;
  bool dns = false;     // spec.network.enableDNSHostnames.
  bool publish = true;  // spec.network.publishNotReadyAddresses.
  std::string subdomain;
  bool suspended = false;
  std::string coordinator;  // The coordinator's pod address, "" without one.
  std::vector<ClaimTemplate> claims;
};

// metadata.name, else generateName with a placeholder suffix; "" when neither is set.
std::string JobSetName(const Node* meta) {
  std::string name = meta ? std::string(meta->StringOr("name")) : "";
  if (name.empty() && meta && !meta->StringOr("generateName").empty()) {
    name = std::string(meta->StringOr("generateName")) + "xxxxx";
  }
  return name;
}

// The replicated jobs, with the sum of their replicas (capped, so that the cap is refused).
std::vector<RJob> ReplicatedJobs(const Node& spec, int64_t* global_replicas) {
  std::vector<RJob> rjobs;
  const Node* list = spec.Find("replicatedJobs");
  if (!list || !list->is_seq()) return rjobs;
  for (const Node& rj : list->items) {
    if (!rj.is_map()) continue;
    RJob r;
    r.name = std::string(rj.StringOr("name"));
    r.group = std::string(rj.StringOr("groupName"));
    if (const Node* n = rj.Find("replicas"); n && n->is_int() && n->integer > 0)
      r.replicas = n->integer;
    r.tmpl = MapAt(&rj, "template");
    if (r.replicas > kMaxChildren) r.replicas = kMaxChildren + 1;  // refused below
    *global_replicas += r.replicas;
    rjobs.push_back(std::move(r));
  }
  return rjobs;
}

// The error when --task names no replicated job, else "".
std::string MissingOnlyError(const std::vector<RJob>& rjobs, const std::string& name,
                             const std::string& only) {
  if (only.empty()) return "";
  bool found = false;
  std::string names;
  for (const RJob& r : rjobs) {
    found = found || r.name == only;
    names += (names.empty() ? "" : ", ") + r.name;
  }
  if (found) return "";
  return "JobSet " + name + " has no replicated job \"" + only + "\"" +
         (names.empty() ? "" : " (it has " + names + ")");
}

// spec.network, spec.suspend and spec.coordinator into `v`.
void ReadNetwork(const Node& spec, JobSetView* v) {
  v->subdomain = v->name;
  if (const Node* network = MapAt(&spec, "network")) {
    const Node* e = network->Find("enableDNSHostnames");
    v->dns = e && e->is_bool() && e->boolean;
    const Node* p = network->Find("publishNotReadyAddresses");
    if (p && p->is_bool()) v->publish = p->boolean;
    if (!network->StringOr("subdomain").empty()) v->subdomain = network->StringOr("subdomain");
  }
  const Node* suspend = spec.Find("suspend");
  v->suspended = suspend && suspend->is_bool() && suspend->boolean;
  if (const Node* c = MapAt(&spec, "coordinator")) {
    auto index = [&](std::string_view key) {
      const Node* i = c->Find(key);
      return i && i->is_int() ? i->integer : 0;
    };
    v->coordinator = v->name + "-" + std::string(c->StringOr("replicatedJob")) + "-" +
                     Num(index("jobIndex")) + "-" + Num(index("podIndex")) + "." + v->subdomain;
  }
}

// createHeadlessSvcIfNecessary's Service.
Node HeadlessService(const JobSetView& v) {
  Node svc = Node::Map();
  svc.Set("apiVersion", Str("v1"));
  svc.Set("kind", Str("Service"));
  Node& m = svc.Set("metadata", Metadata(v.subdomain, v.ns));
  m.Set("ownerReferences", OwnerReferences(v.name));
  Node& s = svc.Set("spec", Node::Map());
  s.Set("clusterIP", Str("None"));
  Node& selector = s.Set("selector", Node::Map());
  selector.Set("jobset.sigs.k8s.io/jobset-name", Str(v.name));
  s.Set("publishNotReadyAddresses", Node::Bool(v.publish));
  return svc;
}

// createPVCsIfNecessary's claim for template `t`, owned by the JobSet when whenDeleted is Delete.
Node Claim(const JobSetView& v, const ClaimTemplate& t) {
  Node pvc = Node::Map();
  pvc.Set("apiVersion", Str("v1"));
  pvc.Set("kind", Str("PersistentVolumeClaim"));
  Node& m = pvc.Set("metadata", Metadata(TemplateName(*t.pvc) + "-" + v.name, v.ns));
  const Node* tmeta = MapAt(t.pvc, "metadata");
  Node& labels = m.Set("labels", MapAt(tmeta, "labels") ? *MapAt(tmeta, "labels") : Node::Map());
  labels.Set("jobset.sigs.k8s.io/jobset-name", Str(v.name));
  if (const Node* a = MapAt(tmeta, "annotations")) m.Set("annotations", *a);
  if (t.when_deleted == "Delete") m.Set("ownerReferences", OwnerReferences(v.name));
  if (const Node* s = t.pvc->Find("spec")) pvc.Set("spec", *s);
  return pvc;
}

// Where a Job stands among its JobSet's: the replicas before its replicated job, in all and in
// its group, and the group's replicas.
struct JobPlace {
  int64_t global_before = 0;
  int64_t group_before = 0;
  int64_t group_replicas = 0;
};

// labelAndAnnotateObject's keys for Job `idx` of `r` (named `job_name`).
JobKeys KeysOf(const JobSetView& v, const RJob& r, int64_t idx, const std::string& job_name,
               const JobPlace& place, const ChildOptions& options) {
  JobKeys keys;
  keys.both = {
      {"jobset.sigs.k8s.io/jobset-name", v.name},
      {"jobset.sigs.k8s.io/jobset-uid", kPlaceholderUid},
      {"jobset.sigs.k8s.io/replicatedjob-name", r.name},
      {"jobset.sigs.k8s.io/restart-attempt", Num(options.restarts)},
      {"jobset.sigs.k8s.io/replicatedjob-replicas", Num(r.replicas)},
      {"jobset.sigs.k8s.io/global-replicas", Num(v.global_replicas)},
      {"jobset.sigs.k8s.io/job-index", Num(idx)},
      {"jobset.sigs.k8s.io/job-key", Sha1Hex(v.hash_ns + "/" + job_name)},
      {"jobset.sigs.k8s.io/job-global-index", Num(place.global_before + idx)},
      {"jobset.sigs.k8s.io/group-name", r.group},
      {"jobset.sigs.k8s.io/group-replicas", Num(place.group_replicas)},
      {"jobset.sigs.k8s.io/job-group-index", Num(place.group_before + idx)},
  };
  if (!v.coordinator.empty())
    keys.both.emplace_back("jobset.sigs.k8s.io/coordinator", v.coordinator);
  // The JobSet's placement annotations, then the replicated job's (which win).
  PlacementAnnotations(v.annotations, &keys);
  PlacementAnnotations(MapAt(MapAt(r.tmpl, "metadata"), "annotations"), &keys);
  return keys;
}

// The nodeSelector strategy of exclusive placement: a node selector for the Job and a
// toleration of the no-schedule taint.
void ExclusivePlacement(const JobSetView& v, const std::string& job_name, Node* pod_spec) {
  EnsureMap(pod_spec, "nodeSelector")->Set(kNamespacedJobKey, Str(v.hash_ns + "_" + job_name));
  Node toleration = Node::Map();
  toleration.Set("key", Str(kNoScheduleTaintKey));
  toleration.Set("operator", Str("Exists"));
  toleration.Set("effect", Str("NoSchedule"));
  EnsureSeq(pod_spec, "tolerations")->items.push_back(std::move(toleration));
}

// A volume for each claim template some container of the pod mounts.
void ClaimVolumes(const JobSetView& v, Node* pod_spec) {
  for (const ClaimTemplate& t : v.claims) {
    std::string tname = TemplateName(*t.pvc);
    if (!MountsVolume(*pod_spec, tname)) continue;
    Node volume = Node::Map();
    volume.Set("name", Str(tname));
    Node source = Node::Map();
    source.Set("claimName", Str(tname + "-" + v.name));
    volume.Set("persistentVolumeClaim", std::move(source));
    EnsureSeq(pod_spec, "volumes")->items.push_back(std::move(volume));
  }
}

// The Job `job_name` of `r`: template labels and annotations, the JobSpec verbatim, then the
// keys on both the Job and its pod template.
Node RenderJob(const JobSetView& v, const RJob& r, const std::string& job_name,
               const JobKeys& keys) {
  // Built apart, then put together (Set may move entries).
  const Node* tmeta = MapAt(r.tmpl, "metadata");
  Node m = Metadata(job_name, v.ns);
  if (const Node* l = MapAt(tmeta, "labels")) m.Set("labels", *l);
  if (const Node* a = MapAt(tmeta, "annotations")) m.Set("annotations", *a);
  Node holder = Node::Map();
  holder.Set("metadata", std::move(m));
  LabelAndAnnotate(&holder, keys);
  m = std::move(*holder.Find("metadata"));
  m.Set("ownerReferences", OwnerReferences(v.name));
  const Node* job_spec = MapAt(r.tmpl, "spec");
  Node jspec = job_spec ? *job_spec : Node::Map();
  Node* pod_template = EnsureMap(&jspec, "template");
  LabelAndAnnotate(pod_template, keys);
  Node* pod_spec = EnsureMap(pod_template, "spec");
  if (v.dns) pod_spec->Set("subdomain", Str(v.subdomain));
  // Both alpha annotations on the Job: the nodeSelector strategy of exclusive placement.
  const Node* job_annotations = m.Find("annotations");
  if (job_annotations->Find(kExclusiveKey) && job_annotations->Find(kNodeSelectorStrategyKey)) {
    ExclusivePlacement(v, job_name, pod_spec);
  }
  ClaimVolumes(v, pod_spec);
  jspec.Set("suspend", Node::Bool(v.suspended));
  Node job = Node::Map();
  job.Set("apiVersion", Str("batch/v1"));
  job.Set("kind", Str("Job"));
  job.Set("metadata", std::move(m));
  job.Set("spec", std::move(jspec));
  return job;
}

// The Jobs of every replicated job (of the one --task names) into result->objects.
void RenderJobs(const JobSetView& v, const ChildOptions& options, ChildObjects* result) {
  int64_t global_before = 0;  // replicas of the replicated jobs before this one
  for (const RJob& r : v.rjobs) {
    JobPlace place;
    place.global_before = global_before;
    for (const RJob& o : v.rjobs) {
      if (o.group != r.group) continue;
      if (&o == &r) place.group_before = place.group_replicas;
      place.group_replicas += o.replicas;
    }
    bool wanted = options.only.empty() || r.name == options.only;
    for (int64_t idx = 0; wanted && idx < r.replicas; ++idx) {
      std::string job_name = v.name + "-" + r.name + "-" + Num(idx);
      const JobKeys keys = KeysOf(v, r, idx, job_name, place, options);
      result->objects.push_back(RenderJob(v, r, job_name, keys));
    }
    global_before += r.replicas;
  }
}

}  // namespace

ChildObjects RenderJobSetChildren(const Node& input, const ChildOptions& options) {
  ChildObjects result;
  if (!input.is_map()) {
    result.error = "the JobSet is not a mapping";
    return result;
  }
  // The controller reads the stored object: CRD defaults, then the webhook's.
  Node js = input;
  std::vector<PatchOp> patch;
  ApplyCrdDefaults(&js, &patch);
  ApplyWebhookDefaults(&js, &patch);

  const Node* meta = MapAt(&js, "metadata");
  JobSetView v;
  v.name = JobSetName(meta);
  if (v.name.empty()) {
    result.error = "the JobSet has no metadata.name";
    return result;
  }
  const std::string& name = v.name;
  v.ns = meta ? std::string(meta->StringOr("namespace")) : "";
  v.hash_ns = v.ns.empty() ? kPlaceholderNamespace : v.ns;
  v.annotations = MapAt(meta, "annotations");
  const Node* spec = MapAt(&js, "spec");
  if (spec == nullptr) {
    if (!options.only.empty()) {
      result.error = "JobSet " + name + " has no replicated job \"" + options.only + "\"";
    } else {
      result.note = "JobSet " + name + " has no spec: no children";
    }
    return result;
  }
  if (const Node* managed = spec->Find("managedBy");
      managed && managed->is_string() && !managed->text.empty() && managed->text != kController) {
    result.note = "JobSet " + name + " is managed by " + managed->text +
                  ", not the JobSet controller: it creates no children for it";
    return result;
  }
  v.rjobs = ReplicatedJobs(*spec, &v.global_replicas);
  result.error = MissingOnlyError(v.rjobs, name, options.only);
  if (!result.error.empty()) return result;
  if (v.global_replicas > kMaxChildren) {
    result.error = "JobSet " + name + " has " + Num(v.global_replicas) +
                   " Jobs or more; render stops at " + Num(kMaxChildren);
    return result;
  }
  ReadNetwork(*spec, &v);
  v.claims = ClaimTemplates(*spec);
  // createHeadlessSvcIfNecessary: before any Job, only with DNS hostnames on.
  if (v.dns && options.only.empty()) result.objects.push_back(HeadlessService(v));
  if (options.only.empty()) {
    for (const ClaimTemplate& t : v.claims) result.objects.push_back(Claim(v, t));
  }
  RenderJobs(v, options, &result);
  return result;
}

}  // namespace jobset
