#include "validation/jobset/defaults.h"

namespace jobset {
namespace {

// Makes sure `parent[key]` is a mapping, creating it (and recording the add) when absent or
// null. Returns nullptr when it holds something else (the schema check reports that).
Node* EnsureMap(Node* parent, std::string_view key, const std::string& pointer,
                std::vector<PatchOp>* patch) {
  Node* n = parent->Find(key);
  if (n && n->is_map()) return n;
  if (n && !n->is_null()) return nullptr;
  Node& created = parent->Set(key, Node::Map());
  patch->push_back({pointer, created});
  return &created;
}

// Sets `parent[key] = value` when absent or null, recording the add.
void DefaultField(Node* parent, std::string_view key, const std::string& pointer, Node value,
                  std::vector<PatchOp>* patch) {
  Node* n = parent->Find(key);
  if (n && !n->is_null()) return;
  patch->push_back({pointer, value});
  parent->Set(key, std::move(value));
}

Node* Spec(Node* object) {
  Node* spec = object->Find("spec");
  return spec && spec->is_map() ? spec : nullptr;
}

std::string RJobPointer(size_t i) { return "/spec/replicatedJobs/" + std::to_string(i); }

}  // namespace

void ApplyCrdDefaults(Node* object, std::vector<PatchOp>* patch) {
  Node* spec = Spec(object);
  if (!spec) return;
  if (Node* rjs = spec->Find("replicatedJobs"); rjs && rjs->is_seq()) {
    for (size_t i = 0; i < rjs->items.size(); ++i) {
      Node& rj = rjs->items[i];
      if (!rj.is_map()) continue;
      DefaultField(&rj, "groupName", RJobPointer(i) + "/groupName", Node::String("default"), patch);
      DefaultField(&rj, "replicas", RJobPointer(i) + "/replicas", Node::Int(1), patch);
    }
  }
  if (Node* fp = spec->Find("failurePolicy"); fp && fp->is_map()) {
    DefaultField(fp, "restartStrategy", "/spec/failurePolicy/restartStrategy",
                 Node::String("Recreate"), patch);
  }
  if (Node* vcps = spec->Find("volumeClaimPolicies"); vcps && vcps->is_seq()) {
    for (size_t i = 0; i < vcps->items.size(); ++i) {
      Node* rp = vcps->items[i].Find("retentionPolicy");
      if (rp && rp->is_map()) {
        DefaultField(
            rp, "whenDeleted",
            "/spec/volumeClaimPolicies/" + std::to_string(i) + "/retentionPolicy/whenDeleted",
            Node::String("Delete"), patch);
      }
    }
  }
}

void ApplyWebhookDefaults(Node* object, std::vector<PatchOp>* patch) {
  Node* spec = Spec(object);
  if (!spec) return;
  // successPolicy {operator: All}, startupPolicy {startupPolicyOrder: AnyOrder}.
  if (Node* sp = spec->Find("successPolicy"); !sp || sp->is_null()) {
    Node v = Node::Map();
    v.Set("operator", Node::String("All"));
    DefaultField(spec, "successPolicy", "/spec/successPolicy", v, patch);
  }
  if (Node* st = spec->Find("startupPolicy"); !st || st->is_null()) {
    Node v = Node::Map();
    v.Set("startupPolicyOrder", Node::String("AnyOrder"));
    DefaultField(spec, "startupPolicy", "/spec/startupPolicy", v, patch);
  }
  // completionMode Indexed and restartPolicy OnFailure, per replicated job.
  if (Node* rjs = spec->Find("replicatedJobs"); rjs && rjs->is_seq()) {
    for (size_t i = 0; i < rjs->items.size(); ++i) {
      Node& rj = rjs->items[i];
      if (!rj.is_map()) continue;
      std::string base = RJobPointer(i);
      Node* tmpl = EnsureMap(&rj, "template", base + "/template", patch);
      Node* job_spec = tmpl ? EnsureMap(tmpl, "spec", base + "/template/spec", patch) : nullptr;
      if (!job_spec) continue;
      DefaultField(job_spec, "completionMode", base + "/template/spec/completionMode",
                   Node::String("Indexed"), patch);
      Node* pod_tmpl = EnsureMap(job_spec, "template", base + "/template/spec/template", patch);
      Node* pod_spec =
          pod_tmpl ? EnsureMap(pod_tmpl, "spec", base + "/template/spec/template/spec", patch)
                   : nullptr;
      if (!pod_spec) continue;
      Node* rp = pod_spec->Find("restartPolicy");
      if (!rp || rp->is_null() || (rp->is_string() && rp->text.empty())) {
        Node v = Node::String("OnFailure");
        patch->push_back({base + "/template/spec/template/spec/restartPolicy", v});
        pod_spec->Set("restartPolicy", v);
      }
    }
  }
  // network, then its enableDNSHostnames and publishNotReadyAddresses.
  if (Node* net = EnsureMap(spec, "network", "/spec/network", patch)) {
    DefaultField(net, "enableDNSHostnames", "/spec/network/enableDNSHostnames", Node::Bool(true),
                 patch);
    DefaultField(net, "publishNotReadyAddresses", "/spec/network/publishNotReadyAddresses",
                 Node::Bool(true), patch);
  }
  // Rule names, only when a failure policy exists.
  if (Node* fp = spec->Find("failurePolicy"); fp && fp->is_map()) {
    if (Node* rules = fp->Find("rules"); rules && rules->is_seq()) {
      for (size_t i = 0; i < rules->items.size(); ++i) {
        Node& rule = rules->items[i];
        if (!rule.is_map()) continue;
        Node* name = rule.Find("name");
        if (!name || name->is_null() || (name->is_string() && name->text.empty())) {
          Node v = Node::String("failurePolicyRule" + std::to_string(i));
          patch->push_back({"/spec/failurePolicy/rules/" + std::to_string(i) + "/name", v});
          rule.Set("name", v);
        }
      }
    }
  }
  // retentionPolicy {whenDeleted: Delete}.
  if (Node* vcps = spec->Find("volumeClaimPolicies"); vcps && vcps->is_seq()) {
    for (size_t i = 0; i < vcps->items.size(); ++i) {
      Node& vcp = vcps->items[i];
      if (!vcp.is_map()) continue;
      if (Node* rp = vcp.Find("retentionPolicy"); !rp || rp->is_null()) {
        Node v = Node::Map();
        v.Set("whenDeleted", Node::String("Delete"));
        DefaultField(&vcp, "retentionPolicy",
                     "/spec/volumeClaimPolicies/" + std::to_string(i) + "/retentionPolicy", v,
                     patch);
      }
    }
  }
}

}  // namespace jobset
