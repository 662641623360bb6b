#include "validation/volcano/types.h"

#include <algorithm>
#include <unordered_set>

#include "validation/core/field_path.h"
#include "validation/sim/duration.h"

namespace jobset {
namespace {

// Reads an integer field; a value of another type is noted as a problem and skipped.
bool ReadInt(const Node& parent, std::string_view key, const std::string& path, int64_t* out,
             std::vector<std::string>* problems) {
  const Node* v = FindPresent(&parent, key);
  if (!v) return false;
  if (!v->is_int()) {
    problems->push_back(Child(path, key) + ": want an integer, got " + Node::KindName(v->kind) +
                        " (ignored)");
    return false;
  }
  *out = v->integer;
  return true;
}

std::string ReadString(const Node& parent, std::string_view key, const std::string& path,
                       std::vector<std::string>* problems) {
  const Node* v = FindPresent(&parent, key);
  if (!v) return "";
  if (!v->is_string()) {
    problems->push_back(Child(path, key) + ": want a string, got " + Node::KindName(v->kind) +
                        " (ignored)");
    return "";
  }
  return v->text;
}

std::vector<VolcanoPolicy> DecodePolicies(const Node& parent, const std::string& path,
                                          std::vector<std::string>* problems) {
  std::vector<VolcanoPolicy> out;
  const Node* list = parent.Find("policies");
  if (!list || list->is_null()) return out;
  std::string base = Child(path, "policies");
  if (!list->is_seq()) {
    problems->push_back(base + ": want a list (ignored)");
    return out;
  }
  for (size_t i = 0; i < list->items.size(); ++i) {
    const Node& item = list->items[i];
    VolcanoPolicy p;
    p.path = Index(base, i);
    p.mark = item.mark;
    if (!item.is_map()) {
      problems->push_back(p.path + ": want a mapping (ignored)");
      continue;
    }
    std::unordered_set<std::string> seen;  // De-duplicated as the controller does.
    auto add_event = [&](const std::string& e) {
      if (!e.empty() && seen.insert(e).second) p.events.push_back(e);
    };
    if (const Node* events = item.Find("events"); events && events->is_seq()) {
      for (size_t k = 0; k < events->items.size(); ++k) {
        if (events->items[k].is_string())
          add_event(events->items[k].text);
        else
          problems->push_back(Index(Child(p.path, "events"), k) + ": want a string (ignored)");
      }
    } else if (events && !events->is_null()) {
      problems->push_back(Child(p.path, "events") + ": want a list (ignored)");
    }
    add_event(ReadString(item, "event", p.path, problems));
    p.has_exit_code = ReadInt(item, "exitCode", p.path, &p.exit_code, problems);
    p.action = ReadString(item, "action", p.path, problems);
    p.timeout = ReadString(item, "timeout", p.path, problems);
    if (!p.timeout.empty()) {
      std::string error;
      if (ParseGoDuration(p.timeout, &p.timeout_s, &error)) {
        p.has_timeout = p.timeout_s > 0;
      } else {
        problems->push_back(Child(p.path, "timeout") + ": " + error + " (ignored)");
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

bool IsVolcanoJob(const Node& object) {
  return object.StringOr("apiVersion") == "batch.volcano.sh/v1alpha1" &&
         object.StringOr("kind") == "Job";
}

VolcanoJob DecodeVolcanoJob(const Node& object) {
  VolcanoJob job;
  if (const Node* meta = object.Find("metadata")) {
    job.name = ReadString(*meta, "name", "metadata", &job.problems);
  }
  static const Node kEmpty = Node::Map();
  const Node* spec = object.Find("spec");
  if (!spec || !spec->is_map()) {
    if (spec && !spec->is_null()) job.problems.push_back("spec: want a mapping (ignored)");
    spec = &kEmpty;
  }
  int64_t max_retry = 0;
  ReadInt(*spec, "maxRetry", "spec", &max_retry, &job.problems);
  // CRD default for an absent value, mutating webhook for 0 (mutate_job.go).
  job.max_retry = max_retry == 0 ? 3 : max_retry;
  if (max_retry == 0) job.defaulted.push_back("spec.maxRetry: 3");
  job.has_min_success = ReadInt(*spec, "minSuccess", "spec", &job.min_success, &job.problems);

  if (const Node* tasks = spec->Find("tasks"); tasks && tasks->is_seq()) {
    job.task_index.reserve(tasks->items.size());
    for (size_t i = 0; i < tasks->items.size(); ++i) {
      const Node& item = tasks->items[i];
      std::string path = Index("spec.tasks", i);
      if (!item.is_map()) {
        job.problems.push_back(path + ": want a mapping (ignored)");
        continue;
      }
      VolcanoTask t;
      t.name = ReadString(item, "name", path, &job.problems);
      if (t.name.empty()) {
        t.name = "default" + std::to_string(i);
        job.defaulted.push_back(Child(path, "name") + ": " + t.name);
      }
      ReadInt(item, "replicas", path, &t.replicas, &job.problems);
      if (const Node* pp = item.Find("partitionPolicy"); pp && pp->is_map()) {
        std::string pp_path = Child(path, "partitionPolicy");
        t.has_partition = true;
        ReadInt(*pp, "totalPartitions", pp_path, &t.partition.total_partitions, &job.problems);
        ReadInt(*pp, "partitionSize", pp_path, &t.partition.partition_size, &job.problems);
        ReadInt(*pp, "minPartitions", pp_path, &t.partition.min_partitions, &job.problems);
      }
      if (!ReadInt(item, "minAvailable", path, &t.min_available, &job.problems)) {
        // mutate_job.go at ed72c7c8 (v1.16-alpha): partitions only when minPartitions > 0.
        t.min_available = t.has_partition && t.partition.min_partitions > 0
                              ? t.partition.min_partitions * t.partition.partition_size
                              : t.replicas;
        job.defaulted.push_back(Child(path, "minAvailable") + ": " +
                                std::to_string(t.min_available));
      }
      int64_t task_retry = 0;
      ReadInt(item, "maxRetry", path, &task_retry, &job.problems);
      t.max_retry = task_retry == 0 ? 3 : task_retry;
      t.policies = DecodePolicies(item, path, &job.problems);
      t.policy_index = IndexVolcanoPolicies(t.policies);
      if (!job.task_index.emplace(t.name, static_cast<int>(job.tasks.size())).second) {
        // The webhook rejects this; the controller would look the name up to the first.
        job.problems.push_back(Child(path, "name") + ": duplicate task name '" + t.name +
                               "': the controller finds the first task of that name");
      }
      job.tasks.push_back(std::move(t));
    }
  } else if (tasks && !tasks->is_null()) {
    job.problems.push_back("spec.tasks: want a list (ignored)");
  }

  // mutate_job.go: 0 means unset; the sum uses the defaulted task values.
  ReadInt(*spec, "minAvailable", "spec", &job.min_available, &job.problems);
  if (job.min_available == 0) {
    for (const VolcanoTask& t : job.tasks) job.min_available += t.min_available;
    job.defaulted.push_back("spec.minAvailable: " + std::to_string(job.min_available));
  }
  job.policies = DecodePolicies(*spec, "spec", &job.problems);
  job.policy_index = IndexVolcanoPolicies(job.policies);
  return job;
}

VolcanoPolicyIndex IndexVolcanoPolicies(const std::vector<VolcanoPolicy>& policies) {
  VolcanoPolicyIndex index;
  for (size_t i = 0; i < policies.size(); ++i) {
    const VolcanoPolicy& p = policies[i];
    const int at = static_cast<int>(i);
    for (const std::string& e : p.events) {
      if (e == "*") {
        index.first_star = std::min(index.first_star, at);
        if (p.has_timeout) index.first_star_timeout = std::min(index.first_star_timeout, at);
      } else if (e != "PodPending" || p.has_timeout) {
        index.first_named.emplace(e, at);  // Keeps the first.
      }
    }
    if (p.has_exit_code) index.first_code.emplace(p.exit_code, at);
  }
  return index;
}

int FindVolcanoTask(const VolcanoJob& job, std::string_view name) {
  auto it = job.task_index.find(name);
  return it == job.task_index.end() ? -1 : it->second;
}

std::string VolcanoPodName(const VolcanoJob& job, int task, int64_t index) {
  return job.name + "-" + job.tasks[task].name + "-" + std::to_string(index);
}

}  // namespace jobset
