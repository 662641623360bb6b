#include "validation/framework/children.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "validation/framework/types.h"

namespace jobset {

namespace {

const Node* MapAt(const Node* n, std::string_view key) {
  if (n == nullptr || !n->is_map()) return nullptr;
  const Node* v = n->Find(key);
  return v != nullptr && v->is_map() ? v : nullptr;
}

Node Str(std::string s) { return Node::String(std::move(s)); }

// Every occurrence of each `from` in `s` replaced, left to right, as Go's strings.Replacer.
std::string ReplaceAll(std::string_view s,
                       const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    bool replaced = false;
    if (s[i] == '{') {
      for (const auto& [from, to] : pairs) {
        if (s.substr(i, from.size()) == from) {
          out += to;
          i += from.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += s[i++];
  }
  return out;
}

// The placeholders replaced in every key and string value of `n` (upstream replaces them in
// the template's JSON text).
void ReplacePlaceholders(Node* n, const std::vector<std::pair<std::string, std::string>>& pairs) {
  if (n->is_string() && n->text.find("{{") != std::string::npos) {
    n->text = ReplaceAll(n->text, pairs);
  } else if (n->is_seq()) {
    for (Node& item : n->items) ReplacePlaceholders(&item, pairs);
  } else if (n->is_map()) {
    for (MapEntry& e : n->entries) {
      if (e.key.find("{{") != std::string::npos) e.key = ReplaceAll(e.key, pairs);
      ReplacePlaceholders(&e.value, pairs);
    }
  }
}

Node EnvVar(std::string name, std::string value) {
  Node e = Node::Map();
  e.Set("name", Str(std::move(name)));
  e.Set("value", Str(std::move(value)));
  return e;
}

// What every pod of a Framework takes from it.
struct FrameworkView {
  std::string name, ns;
  std::string configmap;         // GetConfigMapName.
  std::string attempt;           // The framework attempt: ChildOptions::restarts.
  std::string attempt_instance;  // GetFrameworkAttemptInstanceUID.
  Node owner;                    // The pods' owner: the attempt's ConfigMap.
};

// The pods' ownerReference: the attempt's ConfigMap `configmap`, as their controller.
Node ConfigMapOwner(const std::string& configmap) {
  Node owner = Node::Map();
  owner.Set("apiVersion", Str("v1"));
  owner.Set("kind", Str("ConfigMap"));
  owner.Set("name", Str(configmap));
  owner.Set("uid", Str(kPlaceholderUid));
  owner.Set("controller", Node::Bool(true));
  owner.Set("blockOwnerDeletion", Node::Bool(true));
  return owner;
}

// The FC_* keys of pod `pod_name` (task `index` of `role`), in the controller's order: the
// pod's annotations and its containers' environment.
std::vector<std::pair<std::string, std::string>> PodKeys(const FrameworkView& v,
                                                         const std::string& role,
                                                         const std::string& index,
                                                         const std::string& pod_name) {
  return {
      {"FC_FRAMEWORK_NAMESPACE", v.ns},
      {"FC_FRAMEWORK_NAME", v.name},
      {"FC_TASKROLE_NAME", role},
      {"FC_TASK_INDEX", index},
      {"FC_CONFIGMAP_NAME", v.configmap},
      {"FC_POD_NAME", pod_name},
      {"FC_FRAMEWORK_UID", kPlaceholderUid},
      {"FC_FRAMEWORK_ATTEMPT_ID", v.attempt},
      {"FC_FRAMEWORK_ATTEMPT_INSTANCE_UID", v.attempt_instance},
      {"FC_CONFIGMAP_UID", kPlaceholderUid},
      {"FC_TASKROLE_UID", kPlaceholderUid},
      {"FC_TASK_UID", kPlaceholderUid},
      {"FC_TASK_ATTEMPT_ID", "0"},
  };
}

// The pod's metadata: the template's, then name and namespace, owner, annotations, labels.
Node PodMetadata(const FrameworkView& v, const Node& tmpl, const std::string& role,
                 const std::string& index, const std::string& pod_name,
                 const std::vector<std::pair<std::string, std::string>>& keys) {
  Node m = MapAt(&tmpl, "metadata") ? *MapAt(&tmpl, "metadata") : Node::Map();
  m.Set("name", Str(pod_name));
  if (!v.ns.empty()) {
    m.Set("namespace", Str(v.ns));
  } else if (m.Find("namespace") != nullptr) {
    m.Set("namespace", Str(""));
  }
  Node* owners = m.Find("ownerReferences");
  if (owners == nullptr || !owners->is_seq()) owners = &m.Set("ownerReferences", Node::Seq());
  owners->items.push_back(v.owner);
  Node* annotations = m.Find("annotations");
  if (annotations == nullptr || !annotations->is_map())
    annotations = &m.Set("annotations", Node::Map());
  for (const auto& [k, value] : keys) annotations->Set(k, Str(value));
  Node* labels = m.Find("labels");
  if (labels == nullptr || !labels->is_map()) labels = &m.Set("labels", Node::Map());
  labels->Set("FC_FRAMEWORK_NAME", Str(v.name));
  labels->Set("FC_TASKROLE_NAME", Str(role));
  labels->Set("FC_TASK_INDEX", Str(index));
  return m;
}

// The environment the controller puts in front of every container's own: the keys, the pod's
// uid and the task attempt instance.
std::vector<Node> PodEnv(const std::vector<std::pair<std::string, std::string>>& keys) {
  std::vector<Node> env;
  for (const auto& [k, value] : keys) env.push_back(EnvVar(k, value));
  Node pod_uid = Node::Map();
  pod_uid.Set("name", Str("FC_POD_UID"));
  Node field = Node::Map();
  field.Set("fieldPath", Str("metadata.uid"));
  Node from = Node::Map();
  from.Set("fieldRef", std::move(field));
  pod_uid.Set("valueFrom", std::move(from));
  env.push_back(std::move(pod_uid));
  env.push_back(EnvVar("FC_TASK_ATTEMPT_INSTANCE_UID", "0_$(FC_POD_UID)"));
  return env;
}

// The template's pod spec with `env` before each container's own and terminationMessagePolicy
// defaulted to FallbackToLogsOnError.
Node PodSpec(const Node& tmpl, const std::vector<Node>& env) {
  Node pod_spec = MapAt(&tmpl, "spec") ? *MapAt(&tmpl, "spec") : Node::Map();
  for (const char* list : {"containers", "initContainers"}) {
    Node* containers = pod_spec.Find(list);
    if (containers == nullptr || !containers->is_seq()) continue;
    for (Node& c : containers->items) {
      if (!c.is_map()) continue;
      Node merged = Node::Seq();
      merged.items = env;
      if (const Node* own = c.Find("env"); own && own->is_seq())
        merged.items.insert(merged.items.end(), own->items.begin(), own->items.end());
      c.Set("env", std::move(merged));
      const Node* tmp = c.Find("terminationMessagePolicy");
      if (tmp == nullptr || !tmp->is_string() || tmp->text.empty())
        c.Set("terminationMessagePolicy", Str("FallbackToLogsOnError"));
    }
  }
  return pod_spec;
}

// Pod `i` of task role `role` from its template `pod_template` (nullptr: empty).
Node RenderPod(const FrameworkView& v, const std::string& role, const Node* pod_template,
               int64_t i) {
  std::string index = std::to_string(i);
  std::string pod_name = v.name + "-" + role + "-" + index;  // GetPodName
  Node tmpl = pod_template ? *pod_template : Node::Map();
  ReplacePlaceholders(&tmpl, {{"{{FC_FRAMEWORK_NAMESPACE}}", v.ns},
                              {"{{FC_FRAMEWORK_NAME}}", v.name},
                              {"{{FC_TASKROLE_NAME}}", role},
                              {"{{FC_TASK_INDEX}}", index},
                              {"{{FC_CONFIGMAP_NAME}}", v.configmap},
                              {"{{FC_POD_NAME}}", pod_name}});
  const auto keys = PodKeys(v, role, index, pod_name);
  Node m = PodMetadata(v, tmpl, role, index, pod_name, keys);
  Node pod_spec = PodSpec(tmpl, PodEnv(keys));
  Node pod = Node::Map();
  pod.Set("apiVersion", Str("v1"));
  pod.Set("kind", Str("Pod"));
  pod.Set("metadata", std::move(m));
  pod.Set("spec", std::move(pod_spec));
  return pod;
}

}  // namespace

ChildObjects RenderFrameworkPods(const Node& fw, const ChildOptions& options) {
  ChildObjects result;
  if (!fw.is_map()) {
    result.error = "the Framework is not a mapping";
    return result;
  }
  const Node* meta = MapAt(&fw, "metadata");
  std::string name = meta ? std::string(meta->StringOr("name")) : "";
  if (name.empty()) {
    result.error = "the Framework has no metadata.name";
    return result;
  }
  std::string ns = meta ? std::string(meta->StringOr("namespace")) : "";
  const Node* spec = MapAt(&fw, "spec");
  const Node* roles = spec ? spec->Find("taskRoles") : nullptr;
  if (roles == nullptr || !roles->is_seq() || roles->items.empty()) {
    if (!options.only.empty()) {
      result.error = "Framework " + name + " has no task role \"" + options.only + "\"";
    } else {
      result.note = "Framework " + name + " has no task roles: no pods";
    }
    return result;
  }
  result.error = CheckChildGroups(roles, "taskNumber", options, "Framework " + name, "task role");
  if (!result.error.empty()) return result;
  FrameworkView v{name, ns, name + "-attempt", std::to_string(options.restarts), "", Node()};
  v.attempt_instance = v.attempt + "_" + kPlaceholderUid;
  v.owner = ConfigMapOwner(v.configmap);
  for (const Node& r : roles->items) {
    if (!r.is_map()) continue;
    std::string role(r.StringOr("name"));
    if (!options.only.empty() && role != options.only) continue;
    const Node* n = r.Find("taskNumber");
    int64_t tasks = n && n->is_int() && n->integer > 0 ? n->integer : 0;
    const Node* pod_template = MapAt(MapAt(&r, "task"), "pod");
    for (int64_t i = 0; i < tasks; ++i)
      result.objects.push_back(RenderPod(v, role, pod_template, i));
  }
  return result;
}

}  // namespace jobset
