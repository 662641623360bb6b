#include "validation/volcano/defaults.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace jobset {
namespace {

bool IsEmptyString(const Node* n) {
  return !n || n->is_null() || (n->is_string() && n->text.empty());
}

// Sets `parent[key] = value` when absent or null, recording an "add".
void DefaultAbsent(Node* parent, std::string_view key, const std::string& pointer, Node value,
                   std::vector<PatchOp>* patch) {
  if (FindPresent(parent, key) != nullptr) return;
  patch->push_back({pointer, value});
  parent->Set(key, std::move(value));
}

void DefaultTopologyMode(Node* holder, const std::string& pointer, std::vector<PatchOp>* patch) {
  Node* nt = holder->Find("networkTopology");
  if (nt && nt->is_map()) {
    DefaultAbsent(nt, "mode", pointer + "/networkTopology/mode", Node::String("hard"), patch);
  }
}

// Step 4 for one task; true when it changed.
bool DefaultTask(Node* task, size_t index) {
  bool changed = false;
  if (IsEmptyString(task->Find("name"))) {
    task->Set("name", Node::String("default" + std::to_string(index)));
    changed = true;
  }
  Node* tmpl = task->Find("template");
  Node* pod = tmpl && tmpl->is_map() ? tmpl->Find("spec") : nullptr;
  if (pod && pod->is_map()) {
    const Node* host = pod->Find("hostNetwork");
    if (host && host->is_bool() && host->boolean && IsEmptyString(pod->Find("dnsPolicy"))) {
      pod->Set("dnsPolicy", Node::String("ClusterFirstWithHostNet"));
      changed = true;
    }
  }
  if (FindPresent(task, "minAvailable") == nullptr) {
    int64_t min = IntOr(task->Find("replicas"), 0);
    const Node* pp = task->Find("partitionPolicy");
    if (pp && pp->is_map() && IntOr(pp->Find("minPartitions"), 0) > 0) {
      min = IntOr(pp->Find("minPartitions"), 0) * IntOr(pp->Find("partitionSize"), 0);
    }
    task->Set("minAvailable", Node::Int(min));
    changed = true;
  }
  if (IsZeroInt(task->Find("maxRetry"))) {
    task->Set("maxRetry", Node::Int(3));
    changed = true;
  }
  return changed;
}

}  // namespace

std::string TextOf(const Node* n) { return n && n->is_string() ? n->text : ""; }

bool IsZeroInt(const Node* n) { return !n || n->is_null() || (n->is_int() && n->integer == 0); }

int64_t IntOr(const Node* n, int64_t fallback) {
  if (!n || !n->is_int()) return fallback;
  // Volcano's fields are int32: a larger value never decodes upstream. Clamped, products and
  // sums of them cannot overflow here.
  return std::clamp<int64_t>(n->integer, std::numeric_limits<int32_t>::min(),
                             std::numeric_limits<int32_t>::max());
}

void ApplyVolcanoCrdDefaults(Node* object, std::vector<PatchOp>* patch) {
  Node* spec = object->Find("spec");
  if (!spec || !spec->is_map()) return;
  DefaultAbsent(spec, "maxRetry", "/spec/maxRetry", Node::Int(3), patch);
  DefaultTopologyMode(spec, "/spec", patch);
  DefaultAbsent(spec, "queue", "/spec/queue", Node::String("default"), patch);
  Node* tasks = spec->Find("tasks");
  if (!tasks || !tasks->is_seq()) return;
  for (size_t i = 0; i < tasks->items.size(); ++i) {
    Node* pp = tasks->items[i].Find("partitionPolicy");
    if (!pp || !pp->is_map()) continue;
    std::string base = "/spec/tasks/" + std::to_string(i) + "/partitionPolicy";
    DefaultAbsent(pp, "minPartitions", base + "/minPartitions", Node::Int(0), patch);
    DefaultTopologyMode(pp, base, patch);
  }
}

void ApplyVolcanoWebhookDefaults(Node* object, std::string_view scheduler_name,
                                 std::vector<PatchOp>* patch) {
  Node* spec = object->Find("spec");
  if (!spec || !spec->is_map()) return;
  auto add = [&](std::string_view key, Node value) {
    patch->push_back({"/spec/" + std::string(key), value});
    spec->Set(key, std::move(value));
  };
  if (IsEmptyString(spec->Find("queue"))) add("queue", Node::String("default"));
  if (IsEmptyString(spec->Find("schedulerName"))) {
    add("schedulerName", Node::String(std::string(scheduler_name.empty() ? kVolcanoDefaultScheduler
                                                                         : scheduler_name)));
  }
  if (IsZeroInt(spec->Find("maxRetry"))) add("maxRetry", Node::Int(3));
  Node* tasks = spec->Find("tasks");
  if (tasks && tasks->is_seq()) {
    bool changed = false;
    for (size_t i = 0; i < tasks->items.size(); ++i) {
      if (tasks->items[i].is_map()) changed = DefaultTask(&tasks->items[i], i) || changed;
    }
    if (changed) patch->push_back({"/spec/tasks", *tasks, "replace"});
  }
  if (IsZeroInt(spec->Find("minAvailable"))) {
    int64_t sum = 0;
    if (tasks && tasks->is_seq()) {
      for (const Node& t : tasks->items) {
        const Node* min = t.Find("minAvailable");
        sum += min && min->is_int() ? IntOr(min, 0) : IntOr(t.Find("replicas"), 0);
      }
    }
    add("minAvailable", Node::Int(sum));
  }
  Node* plugins = spec->Find("plugins");
  if (plugins && plugins->is_map()) {
    bool wants_svc = false;
    for (const char* p : {"tensorflow", "mpi", "pytorch", "ray"})
      wants_svc |= plugins->Find(p) != nullptr;
    if (wants_svc && !plugins->Find("svc")) plugins->Set("svc", Node::Seq());
    if (plugins->Find("mpi") && !plugins->Find("ssh")) plugins->Set("ssh", Node::Seq());
    patch->push_back({"/spec/plugins", *plugins, "replace"});
  }
}

}  // namespace jobset
