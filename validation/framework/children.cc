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

  std::string configmap = name + "-attempt";  // GetConfigMapName
  std::string attempt = std::to_string(options.restarts);
  std::string attempt_instance = attempt + "_" + kPlaceholderUid;  // GetFrameworkAttemptInstanceUID
  Node owner = Node::Map();
  owner.Set("apiVersion", Str("v1"));
  owner.Set("kind", Str("ConfigMap"));
  owner.Set("name", Str(configmap));
  owner.Set("uid", Str(kPlaceholderUid));
  owner.Set("controller", Node::Bool(true));
  owner.Set("blockOwnerDeletion", Node::Bool(true));

  for (const Node& r : roles->items) {
    if (!r.is_map()) continue;
    std::string role(r.StringOr("name"));
    if (!options.only.empty() && role != options.only) continue;
    const Node* n = r.Find("taskNumber");
    int64_t tasks = n && n->is_int() && n->integer > 0 ? n->integer : 0;
    const Node* pod_template = MapAt(MapAt(&r, "task"), "pod");
    for (int64_t i = 0; i < tasks; ++i) {
      std::string index = std::to_string(i);
      std::string pod_name = name + "-" + role + "-" + index;  // GetPodName
      Node tmpl = pod_template ? *pod_template : Node::Map();
      ReplacePlaceholders(&tmpl, {{"{{FC_FRAMEWORK_NAMESPACE}}", ns},
                                  {"{{FC_FRAMEWORK_NAME}}", name},
                                  {"{{FC_TASKROLE_NAME}}", role},
                                  {"{{FC_TASK_INDEX}}", index},
                                  {"{{FC_CONFIGMAP_NAME}}", configmap},
                                  {"{{FC_POD_NAME}}", pod_name}});
      // metadata: the template's, then name and namespace, owner, annotations, labels.
      Node m = MapAt(&tmpl, "metadata") ? *MapAt(&tmpl, "metadata") : Node::Map();
      m.Set("name", Str(pod_name));
      if (!ns.empty()) {
        m.Set("namespace", Str(ns));
      } else if (m.Find("namespace") != nullptr) {
        m.Set("namespace", Str(""));
      }
      Node* owners = m.Find("ownerReferences");
      if (owners == nullptr || !owners->is_seq()) owners = &m.Set("ownerReferences", Node::Seq());
      owners->items.push_back(owner);
      const std::vector<std::pair<std::string, std::string>> keys = {
          {"FC_FRAMEWORK_NAMESPACE", ns},
          {"FC_FRAMEWORK_NAME", name},
          {"FC_TASKROLE_NAME", role},
          {"FC_TASK_INDEX", index},
          {"FC_CONFIGMAP_NAME", configmap},
          {"FC_POD_NAME", pod_name},
          {"FC_FRAMEWORK_UID", kPlaceholderUid},
          {"FC_FRAMEWORK_ATTEMPT_ID", attempt},
          {"FC_FRAMEWORK_ATTEMPT_INSTANCE_UID", attempt_instance},
          {"FC_CONFIGMAP_UID", kPlaceholderUid},
          {"FC_TASKROLE_UID", kPlaceholderUid},
          {"FC_TASK_UID", kPlaceholderUid},
          {"FC_TASK_ATTEMPT_ID", "0"},
      };
      {
        Node* annotations = m.Find("annotations");
        if (annotations == nullptr || !annotations->is_map())
          annotations = &m.Set("annotations", Node::Map());
        for (const auto& [k, v] : keys) annotations->Set(k, Str(v));
      }
      {
        Node* labels = m.Find("labels");
        if (labels == nullptr || !labels->is_map()) labels = &m.Set("labels", Node::Map());
        labels->Set("FC_FRAMEWORK_NAME", Str(name));
        labels->Set("FC_TASKROLE_NAME", Str(role));
        labels->Set("FC_TASK_INDEX", Str(index));
      }
      std::vector<Node> env;
      for (const auto& [k, v] : keys) env.push_back(EnvVar(k, v));
      {
        Node pod_uid = Node::Map();
        pod_uid.Set("name", Str("FC_POD_UID"));
        Node field = Node::Map();
        field.Set("fieldPath", Str("metadata.uid"));
        Node from = Node::Map();
        from.Set("fieldRef", std::move(field));
        pod_uid.Set("valueFrom", std::move(from));
        env.push_back(std::move(pod_uid));
      }
      env.push_back(EnvVar("FC_TASK_ATTEMPT_INSTANCE_UID", "0_$(FC_POD_UID)"));

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
      Node pod = Node::Map();
      pod.Set("apiVersion", Str("v1"));
      pod.Set("kind", Str("Pod"));
      pod.Set("metadata", std::move(m));
      pod.Set("spec", std::move(pod_spec));
      result.objects.push_back(std::move(pod));
    }
  }
  return result;
}

}  // namespace jobset
