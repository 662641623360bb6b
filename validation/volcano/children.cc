#include "validation/volcano/children.h"

#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "validation/core/patch.h"
#include "validation/volcano/defaults.h"
#include "validation/volcano/distributed_plugins.h"

namespace jobset {

namespace {

const Node* MapAt(const Node* n, std::string_view key) {
  if (n == nullptr || !n->is_map()) return nullptr;
  const Node* v = n->Find(key);
  return v != nullptr && v->is_map() ? v : nullptr;
}

const Node* SeqAt(const Node* n, std::string_view key) {
  if (n == nullptr || !n->is_map()) return nullptr;
  const Node* v = n->Find(key);
  return v != nullptr && v->is_seq() ? v : nullptr;
}

Node* EnsureSeq(Node* parent, std::string_view key) {
  Node* v = parent->Find(key);
  if (v == nullptr || !v->is_seq()) v = &parent->Set(key, Node::Seq());
  return v;
}

Node Str(std::string s) { return Node::String(std::move(s)); }

// The ssh plugin's default key path, SSHAbsolutePath of plugins/ssh/const.go: a path inside the
// container.
constexpr char kSshAbsolutePath[] = "/root/.ssh";

bool EmptyString(const Node* n) { return n == nullptr || !n->is_string() || n->text.empty(); }

// The 12 random [0-9a-z] characters of GenRandomStr(12), as a stable placeholder.
std::string RandomPlaceholder(size_t index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%012zu", index);
  return buf;
}

// Appends `item` to the `list` sequence of every container (and init container when `init`).
void AppendToContainers(Node* pod_spec, std::string_view list, const std::vector<Node>& items,
                        bool init) {
  for (const char* key : {"containers", "initContainers"}) {
    if (!init && std::string_view(key) == "initContainers") continue;
    Node* containers = pod_spec->Find(key);
    if (containers == nullptr || !containers->is_seq()) continue;
    for (Node& c : containers->items) {
      if (!c.is_map()) continue;
      Node* seq = EnsureSeq(&c, list);
      for (const Node& item : items) seq->items.push_back(item);
    }
  }
}

Node EnvVar(std::string name, std::string value) {
  Node e = Node::Map();
  e.Set("name", Str(std::move(name)));
  e.Set("value", Str(std::move(value)));
  return e;
}

// The value of a Go flag `--name=value` (or `-name=value`) among a plugin's arguments.
std::string FlagValue(const Node* args, std::string_view name, std::string fallback) {
  if (args == nullptr || !args->is_seq()) return fallback;
  for (const Node& a : args->items) {
    if (!a.is_string()) continue;
    std::string_view s = a.text;
    while (!s.empty() && s.front() == '-') s.remove_prefix(1);
    if (s.substr(0, name.size()) != name) continue;
    s.remove_prefix(name.size());
    if (s.empty()) return "true";  // a bare boolean flag
    if (s.front() == '=') return std::string(s.substr(1));
  }
  return fallback;
}

std::string Upper(std::string s) {
  for (char& c : s) {
    c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return s;
}

// One of the job's volumes as its pods mount it: volume name, claim name and mount path.
struct JobVolume {
  std::string volume_name, claim, mount_path;
};

// What every pod of a Volcano Job takes from the job (defaults applied).
struct VolcanoJobView {
  const Node& job;
  std::string name;
  std::string ns = {}, scheduler = {}, priority = {}, queue = {};
  std::string restarts = {};  // The job version and retry count: ChildOptions::restarts.
  const Node* job_annotations = nullptr;
  const Node* job_labels = nullptr;
  const Node* plugins = nullptr;
  const Node* tasks = nullptr;
  std::vector<JobVolume> volumes = {};
  Node owners = {};  // The pods' ownerReferences.
};

// metadata.name, else generateName with a placeholder suffix; "" when neither is set.
std::string JobName(const Node* meta) {
  std::string name = meta ? std::string(meta->StringOr("name")) : "";
  if (name.empty() && meta && !meta->StringOr("generateName").empty())
    name = std::string(meta->StringOr("generateName")) + "xxxxx";
  return name;
}

// The note for plugins Volcano does not know (the webhook rejects the job), or "".
std::string UnknownPluginsNote(const Node* plugins, const std::string& name) {
  if (!plugins) return "";
  std::string unknown;
  for (const MapEntry& p : plugins->entries) {
    if (p.key == "env" || p.key == "svc" || p.key == "ssh" || IsDistributedPlugin(p.key)) continue;
    unknown += (unknown.empty() ? "" : ", ") + p.key;
  }
  if (unknown.empty()) return "";
  return "Volcano Job " + name + ": " + unknown +
         " is not a Volcano plugin (the webhook rejects the job): not rendered";
}

// The job's volumes: claim name and mount path, each PVC once (duplicates are skipped).
std::vector<JobVolume> JobVolumes(const Node* spec, const std::string& name) {
  std::vector<JobVolume> volumes;
  const Node* vs = SeqAt(spec, "volumes");
  if (!vs) return volumes;
  for (size_t i = 0; i < vs->items.size(); ++i) {
    const Node& v = vs->items[i];
    if (!v.is_map()) continue;
    std::string claim(v.StringOr("volumeClaimName"));
    if (claim.empty()) claim = name + "-pvc-" + RandomPlaceholder(i);
    bool dup = false;
    for (const JobVolume& seen : volumes) dup = dup || seen.claim == claim;
    if (dup) continue;
    volumes.push_back(
        {name + "-" + RandomPlaceholder(i), claim, std::string(v.StringOr("mountPath"))});
  }
  return volumes;
}

// The pods' ownerReferences: the job, as their controller.
Node OwnerReferences(const std::string& name) {
  Node owner = Node::Map();
  owner.Set("apiVersion", Str(kVolcanoApiVersion));
  owner.Set("kind", Str(kVolcanoKind));
  owner.Set("name", Str(name));
  owner.Set("uid", Str(kPlaceholderUid));
  owner.Set("controller", Node::Bool(true));
  owner.Set("blockOwnerDeletion", Node::Bool(true));
  Node owners = Node::Seq();
  owners.items.push_back(owner);
  return owners;
}

// The view of `job` (defaults applied) its pods are rendered from.
VolcanoJobView ViewJob(const Node& job, const Node* meta, const Node* spec, std::string name,
                       const ChildOptions& options) {
  VolcanoJobView v{job, std::move(name)};
  v.ns = meta ? std::string(meta->StringOr("namespace")) : "";
  v.scheduler = spec->StringOr("schedulerName");
  v.priority = spec->StringOr("priorityClassName");
  v.queue = spec->StringOr("queue");
  v.restarts = std::to_string(options.restarts);
  v.job_annotations = MapAt(meta, "annotations");
  v.job_labels = MapAt(meta, "labels");
  v.plugins = MapAt(spec, "plugins");
  v.tasks = SeqAt(spec, "tasks");
  v.volumes = JobVolumes(spec, v.name);
  v.owners = OwnerReferences(v.name);
  return v;
}

// The job's scheduler, priority class and volumes on a pod's spec.
void ApplyJobToPodSpec(const VolcanoJobView& v, Node* pod_spec) {
  if (EmptyString(pod_spec->Find("schedulerName")) && !v.scheduler.empty())
    pod_spec->Set("schedulerName", Str(v.scheduler));
  if (EmptyString(pod_spec->Find("priorityClassName")) && !v.priority.empty())
    pod_spec->Set("priorityClassName", Str(v.priority));
  for (const JobVolume& jv : v.volumes) {
    Node vol = Node::Map();
    vol.Set("name", Str(jv.volume_name));
    Node src = Node::Map();
    src.Set("claimName", Str(jv.claim));
    vol.Set("persistentVolumeClaim", std::move(src));
    EnsureSeq(pod_spec, "volumes")->items.push_back(std::move(vol));
    Node mount = Node::Map();
    mount.Set("mountPath", Str(jv.mount_path));
    mount.Set("name", Str(jv.volume_name));
    AppendToContainers(pod_spec, "volumeMounts", {mount}, false);
  }
}

// The annotations of pod `index` of task `t` (named `task`, spec `task_spec`).
Node PodAnnotations(const VolcanoJobView& v, const Node& t, const Node* tmeta,
                    const std::string& task, const std::string& task_spec,
                    const std::string& index) {
  Node annotations = MapAt(tmeta, "annotations") ? *MapAt(tmeta, "annotations") : Node::Map();
  annotations.Set("volcano.sh/task-index", Str(index));
  annotations.Set("volcano.sh/task-spec", Str(task_spec));
  annotations.Set("scheduling.k8s.io/group-name", Str(v.name + "-" + kPlaceholderUid));
  annotations.Set("volcano.sh/job-name", Str(v.name));
  annotations.Set("volcano.sh/queue-name", Str(v.queue));
  annotations.Set("volcano.sh/job-version", Str(v.restarts));
  annotations.Set("volcano.sh/template-uid", Str(v.name + "-" + task));
  annotations.Set("volcano.sh/job-retry-count", Str(v.restarts));
  if (std::string_view policy = t.StringOr("topologyPolicy"); !policy.empty())
    annotations.Set("volcano.sh/numa-topology-policy", Str(std::string(policy)));
  if (const Node* ja = v.job_annotations) {
    for (const char* key :
         {"volcano.sh/preemptable", "volcano.sh/cooldown-time", "volcano.sh/revocable-zone"}) {
      if (const Node* a = ja->Find(key)) annotations.Set(key, *a);
    }
    if (const Node* a = ja->Find("volcano.sh/jdb-min-available")) {
      annotations.Set("volcano.sh/jdb-min-available", *a);
    } else if (const Node* u = ja->Find("volcano.sh/jdb-max-unavailable")) {
      annotations.Set("volcano.sh/jdb-max-unavailable", *u);
    }
  }
  return annotations;
}

// The labels of pod `ix` of task `t`.
Node PodLabels(const VolcanoJobView& v, const Node& t, const Node* tmeta, int64_t ix,
               const std::string& task_spec, const std::string& index) {
  Node labels = MapAt(tmeta, "labels") ? *MapAt(tmeta, "labels") : Node::Map();
  labels.Set("volcano.sh/task-index", Str(index));
  labels.Set("volcano.sh/job-name", Str(v.name));
  labels.Set("volcano.sh/task-spec", Str(task_spec));
  labels.Set("volcano.sh/job-namespace", Str(v.ns));
  labels.Set("volcano.sh/queue-name", Str(v.queue));
  if (v.job_labels) {
    for (const char* key : {"volcano.sh/preemptable", "volcano.sh/cooldown-time"}) {
      if (const Node* l = v.job_labels->Find(key)) labels.Set(key, *l);
    }
  }
  if (const Node* pp = MapAt(&t, "partitionPolicy")) {
    const Node* size = pp->Find("partitionSize");
    int64_t id = size && size->is_int() && size->integer > 0 ? ix / size->integer : 0;
    labels.Set("volcano.sh/partition-id", Str(std::to_string(id)));
  }
  return labels;
}

// The svc plugin on pod `pod_name`: hostname and subdomain, the hosts environment of every task
// (unless --inject-hosts-env=false), the hosts ConfigMap mounted at /etc/volcano.
void ApplySvcPlugin(const VolcanoJobView& v, const Node& args, const std::string& pod_name,
                    Node* pod_spec) {
  if (EmptyString(pod_spec->Find("hostname"))) pod_spec->Set("hostname", Str(pod_name));
  if (EmptyString(pod_spec->Find("subdomain"))) pod_spec->Set("subdomain", Str(v.name));
  std::string cm = v.name + "-svc";
  if (FlagValue(&args, "inject-hosts-env", "true") != "false") {
    std::vector<Node> env;
    for (const Node& other : v.tasks->items) {
      if (!other.is_map()) continue;
      std::string key = Upper(std::string(other.StringOr("name")));
      for (const std::string& var : {"VC_" + key + "_HOSTS", "VC_" + key + "_NUM"}) {
        Node ref = Node::Map();
        ref.Set("name", Str(cm));
        ref.Set("key", Str(var));
        Node from = Node::Map();
        from.Set("configMapKeyRef", std::move(ref));
        Node e = Node::Map();
        e.Set("name", Str(var));
        e.Set("valueFrom", std::move(from));
        env.push_back(std::move(e));
      }
    }
    AppendToContainers(pod_spec, "env", env, true);
  }
  Node vol = Node::Map();
  vol.Set("name", Str(cm));
  Node src = Node::Map();
  src.Set("name", Str(cm));
  vol.Set("configMap", std::move(src));
  EnsureSeq(pod_spec, "volumes")->items.push_back(std::move(vol));
  Node mount = Node::Map();
  mount.Set("mountPath", Str("/etc/volcano"));
  mount.Set("name", Str(cm));
  AppendToContainers(pod_spec, "volumeMounts", {mount}, true);
}

// The ssh plugin: the job's key Secret mounted at the key path.
void ApplySshPlugin(const VolcanoJobView& v, const Node& args, Node* pod_spec) {
  std::string secret = v.name + "-ssh";
  std::string path = FlagValue(&args, "ssh-key-file-path", kSshAbsolutePath);
  Node items = Node::Seq();
  for (const char* key : {"id_rsa", "id_rsa.pub", "authorized_keys", "config"}) {
    Node item = Node::Map();
    item.Set("key", Str(key));
    item.Set("path", Str(std::string(".ssh/") + key));
    items.items.push_back(std::move(item));
  }
  Node src = Node::Map();
  src.Set("secretName", Str(secret));
  src.Set("items", std::move(items));
  src.Set("defaultMode", Node::Int(path == kSshAbsolutePath ? 0600 : 0644));
  Node vol = Node::Map();
  vol.Set("name", Str(secret));
  vol.Set("secret", std::move(src));
  EnsureSeq(pod_spec, "volumes")->items.push_back(std::move(vol));
  Node mount = Node::Map();
  mount.Set("mountPath", Str(path));
  mount.Set("subPath", Str(".ssh"));
  mount.Set("name", Str(secret));
  AppendToContainers(pod_spec, "volumeMounts", {mount}, true);
}

// The job's plugins, in the order written, on one pod. A distributed plugin's error ends the
// rendering (syncJob returns on the first plugin error, before it creates any pod): the note.
std::string ApplyPlugins(const VolcanoJobView& v, const std::string& pod_name,
                         const std::string& task_spec, int64_t ix, Node* pod_spec,
                         Node* annotations) {
  if (!v.plugins) return "";
  const std::string index = std::to_string(ix);
  for (const MapEntry& p : v.plugins->entries) {
    if (p.key == "env") {
      AppendToContainers(pod_spec, "env",
                         {EnvVar("VK_TASK_INDEX", index), EnvVar("VC_TASK_INDEX", index)}, true);
    } else if (p.key == "svc") {
      ApplySvcPlugin(v, p.value, pod_name, pod_spec);
    } else if (p.key == "ssh") {
      ApplySshPlugin(v, p.value, pod_spec);
    } else if (IsDistributedPlugin(p.key)) {
      VolcanoPluginPod plugin_pod{v.name, pod_name, task_spec, ix, pod_spec, annotations};
      if (std::string error = ApplyDistributedPlugin(p.key, p.value, v.job, &plugin_pod);
          !error.empty()) {
        return "Volcano Job " + v.name + ": plugin " + p.key + " fails (" + error +
               "): the controller creates no pods";
      }
    }
  }
  return "";
}

// A Pod object.
Node MakePod(const VolcanoJobView& v, const std::string& pod_name, Node labels, Node annotations,
             Node pod_spec) {
  Node m = Node::Map();
  m.Set("name", Str(pod_name));
  if (!v.ns.empty()) m.Set("namespace", Str(v.ns));
  m.Set("labels", std::move(labels));
  m.Set("annotations", std::move(annotations));
  m.Set("ownerReferences", v.owners);
  Node pod = Node::Map();
  pod.Set("apiVersion", Str("v1"));
  pod.Set("kind", Str("Pod"));
  pod.Set("metadata", std::move(m));
  pod.Set("spec", std::move(pod_spec));
  return pod;
}

// The pods of task `t` into result->objects; on a plugin error, no pods and the note (false).
bool RenderTaskPods(const VolcanoJobView& v, const Node& t, ChildObjects* result) {
  std::string task(t.StringOr("name"));
  const Node* r = t.Find("replicas");
  int64_t replicas = r && r->is_int() && r->integer > 0 ? r->integer : 0;
  const Node* tmpl = MapAt(&t, "template");
  const Node* tmeta = MapAt(tmpl, "metadata");
  std::string task_spec = task.empty() ? "default" : task;
  for (int64_t ix = 0; ix < replicas; ++ix) {
    std::string pod_name = v.name + "-" + task + "-" + std::to_string(ix);
    std::string index = std::to_string(ix);
    Node pod_spec = MapAt(tmpl, "spec") ? *MapAt(tmpl, "spec") : Node::Map();
    ApplyJobToPodSpec(v, &pod_spec);
    Node annotations = PodAnnotations(v, t, tmeta, task, task_spec, index);
    Node labels = PodLabels(v, t, tmeta, ix, task_spec, index);
    if (std::string note = ApplyPlugins(v, pod_name, task_spec, ix, &pod_spec, &annotations);
        !note.empty()) {
      result->objects.clear();
      result->note = std::move(note);
      return false;
    }
    result->objects.push_back(
        MakePod(v, pod_name, std::move(labels), std::move(annotations), std::move(pod_spec)));
  }
  return true;
}

}  // namespace

ChildObjects RenderVolcanoJobPods(const Node& input, const ChildOptions& options) {
  ChildObjects result;
  if (!input.is_map()) {
    result.error = "the Volcano Job is not a mapping";
    return result;
  }
  Node job = input;
  std::vector<PatchOp> patch;
  ApplyVolcanoCrdDefaults(&job, &patch);
  ApplyVolcanoWebhookDefaults(&job, kVolcanoDefaultScheduler, &patch);

  const Node* meta = MapAt(&job, "metadata");
  std::string name = JobName(meta);
  if (name.empty()) {
    result.error = "the Volcano Job has no metadata.name";
    return result;
  }
  const Node* spec = MapAt(&job, "spec");
  if (spec == nullptr) {
    if (!options.only.empty()) {
      result.error = "Volcano Job " + name + " has no task \"" + options.only + "\"";
    } else {
      result.note = "Volcano Job " + name + " has no spec: no pods";
    }
    return result;
  }
  result.error =
      CheckChildGroups(SeqAt(spec, "tasks"), "replicas", options, "Volcano Job " + name, "task");
  if (!result.error.empty()) return result;
  const VolcanoJobView view = ViewJob(job, meta, spec, name, options);
  if (std::string note = UnknownPluginsNote(view.plugins, name); !note.empty()) {
    result.note = std::move(note);
  }
  if (!view.tasks) return result;
  for (const Node& t : view.tasks->items) {
    if (!t.is_map()) continue;
    if (!options.only.empty() && std::string_view(t.StringOr("name")) != options.only) continue;
    if (!RenderTaskPods(view, t, &result)) return result;
  }
  return result;
}

}  // namespace jobset
