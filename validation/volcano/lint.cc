#include "validation/volcano/lint.h"

#include <algorithm>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "validation/core/field_path.h"
#include "validation/core/finding_sink.h"
#include "validation/core/k8s_names.h"
#include "validation/schema/rules.h"
#include "validation/schema/schema.h"
#include "validation/volcano/defaults.h"
#include "validation/volcano/rules.h"
#include "validation/volcano/validation.h"

namespace jobset {
namespace {

void Warn(const Node& object, std::vector<Finding>* out, RuleId rule, std::string_view locate,
          std::string message, PointAt at = PointAt::kValue) {
  FindingSink(object, out).Own(rule, Severity::kWarning, locate, std::move(message), {}, at);
}

// kube-apiserver's metadata.name check for every object (ValidateObjectMeta).
void ValidateName(const Node& object, std::vector<Finding>* out) {
  const Node* md = object.Find("metadata");
  std::string name = TextOf(md ? md->Find("name") : nullptr);
  std::string generate = TextOf(md ? md->Find("generateName") : nullptr);
  auto add = [&](const std::string& field, const std::string& value, const std::string& detail) {
    Finding f;
    f.rule = kMetadataName.id;
    f.field = field;
    f.message = field + ": " + (value.empty() ? "Required value" : "Invalid value: " + value) +
                ": " + detail;
    f.upstream = f.message;
    f.mark = Locate(object, field);
    out->push_back(std::move(f));
  };
  if (name.empty() && generate.empty()) {
    return add("metadata.name", "", "name or generateName is required");
  }
  if (!name.empty()) {
    for (const std::string& e : DNS1123SubdomainErrors(name))
      add("metadata.name", GoQuote(name), e);
  }
}

bool IsRestart(std::string_view action) {
  return action == "RestartJob" || action == "RestartTask" || action == "RestartPod" ||
         action == "RestartPartition" || action == "ResumeJob";
}

// The events of a policy (`events` and `event`).
std::vector<std::string> EventsOf(const Node& p) {
  std::vector<std::string> out;
  if (const Node* es = p.Find("events"); es && es->is_seq()) {
    for (const Node& e : es->items) out.push_back(TextOf(&e));
  }
  if (!TextOf(p.Find("event")).empty()) out.push_back(TextOf(p.Find("event")));
  return out;
}

bool HasTimeout(const Node& p) {
  const Node* t = p.Find("timeout");
  return t && t->is_string() && !t->text.empty();
}

// Whether the controller's scan of `p` (applyPolicies) takes a request for `event`.
bool TakesEvent(const Node& p, std::string_view event) {
  for (const std::string& e : EventsOf(p)) {
    if ((e == event || e == "*") && (event != "PodPending" || HasTimeout(p))) return true;
  }
  return false;
}

// What the controller's first-match scan of one policy list (applyPolicies) takes, read once:
// the first policy taking a PodFailed request by its event, the first policy of each exit
// code, and the events some policy takes. Questions about the list are then lookups.
struct PolicyListIndex {
  bool is_list = false;
  long first_pod_failed = -1;                       ///< -1: none.
  std::unordered_map<int64_t, long> first_of_code;  ///< By `exitCode`.
  std::unordered_set<std::string> events;           ///< Taken, PodPending only with a timeout.
  bool star = false, star_pending = false;          ///< `*`, and `*` with a timeout.

  explicit PolicyListIndex(const Node* list) {
    if (!list || !list->is_seq()) return;
    is_list = true;
    for (size_t i = 0; i < list->items.size(); ++i) {
      const Node& p = list->items[i];
      const long at = static_cast<long>(i);
      if (first_pod_failed < 0 && TakesEvent(p, "PodFailed")) first_pod_failed = at;
      if (const Node* c = p.Find("exitCode"); c && c->is_int())
        first_of_code.emplace(c->integer, at);
      const bool timeout = HasTimeout(p);
      for (const std::string& e : EventsOf(p)) {
        if (e == "*") {
          star = true;
          star_pending = star_pending || timeout;
        } else if (e != "PodPending" || timeout) {
          events.insert(e);
        }
      }
    }
  }

  /// The index of the first policy that takes a PodFailed request with exit code `code` (by
  /// its event or its exit code), or -1.
  long FirstTakingExitCode(int64_t code) const {
    auto it = first_of_code.find(code);
    long by_code = it == first_of_code.end() ? -1 : it->second;
    if (by_code < 0) return first_pod_failed;
    return first_pod_failed < 0 ? by_code : std::min(by_code, first_pod_failed);
  }

  /// Whether some policy takes a request for `event` (TakesEvent).
  bool AnyTakesEvent(std::string_view event) const {
    if (!is_list) return false;
    if (event == "PodPending") return star_pending || events.count(std::string(event));
    return star || events.count(std::string(event));
  }
};

// Policies the controller's first-match scan never reaches. Within a list, an exit code
// comes with a PodFailed event, so an earlier PodFailed or `*` policy takes it; a job-level
// policy only sees what no task policy took. Each list is indexed once (PolicyListIndex), so
// the check is linear in the number of policies and tasks.
void ShadowedPolicies(const Node& defaulted, std::vector<Finding>* out) {
  const Node* spec = defaulted.Find("spec");
  const Node* tasks = spec->Find("tasks");
  auto within = [&](const Node* list, const PolicyListIndex& index, const std::string& base) {
    if (!list || !list->is_seq()) return;
    for (size_t j = 0; j < list->items.size(); ++j) {
      const Node* c = list->items[j].Find("exitCode");
      if (!c || !c->is_int() || !EventsOf(list->items[j]).empty()) continue;
      long first = index.FirstTakingExitCode(c->integer);
      if (first >= 0 && first < static_cast<long>(j)) {
        Warn(defaulted, out, kVolcanoShadowedPolicy, Index(base, j) + ".exitCode",
             "exit code " + std::to_string(c->integer) + " comes with a PodFailed event, which " +
                 Index(base, static_cast<size_t>(first)) +
                 " takes first (the first matching policy wins): this policy never fires");
      }
    }
  };
  const Node* job = spec->Find("policies");
  within(job, PolicyListIndex(job), "spec.policies");
  std::vector<PolicyListIndex> task_lists;
  for (size_t t = 0; tasks && tasks->is_seq() && t < tasks->items.size(); ++t) {
    const Node* list = tasks->items[t].Find("policies");
    task_lists.emplace_back(list);
    within(list, task_lists.back(), Index("spec.tasks", t) + ".policies");
  }
  if (task_lists.empty() || !job || !job->is_seq()) return;
  // Only events that name a task go to task policies first (Unknown, `*` do not all): whether
  // every task takes each of them, and, for exit codes, the tasks no PodFailed policy covers
  // and how many of them take each code.
  std::unordered_map<std::string_view, bool> every_task_takes;
  for (std::string_view e :
       {"PodFailed", "PodEvicted", "PodPending", "TaskCompleted", "TaskFailed"}) {
    bool all = true;
    for (const PolicyListIndex& list : task_lists) all = all && list.AnyTakesEvent(e);
    every_task_takes[e] = all;
  }
  size_t tasks_by_code = 0;  // Tasks with no policy taking every PodFailed.
  std::unordered_map<int64_t, size_t> tasks_taking_code;
  for (const PolicyListIndex& list : task_lists) {
    if (list.first_pod_failed >= 0) continue;
    ++tasks_by_code;
    for (const auto& [code, at] : list.first_of_code) ++tasks_taking_code[code];
  }
  for (size_t j = 0; j < job->items.size(); ++j) {
    const Node& p = job->items[j];
    std::vector<std::string> events = EventsOf(p);
    const Node* c = p.Find("exitCode");
    bool shadowed;
    if (!events.empty()) {
      shadowed = true;
      for (const std::string& e : events) {
        auto it = every_task_takes.find(e);
        shadowed = shadowed && it != every_task_takes.end() && it->second;
      }
    } else if (c && c->is_int()) {
      // Every task takes the code: by a PodFailed policy, or by a policy of that exit code.
      auto it = tasks_taking_code.find(c->integer);
      shadowed = (it == tasks_taking_code.end() ? 0 : it->second) == tasks_by_code;
    } else {
      continue;
    }
    if (shadowed) {
      Warn(defaulted, out, kVolcanoShadowedPolicy, Index("spec.policies", j),
           "every task has a policy that takes " +
               (events.empty() ? "exit code " + std::to_string(c->integer)
                               : "what this policy handles") +
               " first (task policies win): this job-level policy never fires",
           PointAt::kValue);
    }
  }
}

// Calls `visit(policy, path, task_level)` for every policy of the job and its tasks.
template <class F>
void ForEachPolicy(const Node& object, F visit) {
  const Node* spec = object.Find("spec");
  if (!spec) return;
  auto list = [&](const Node* ps, const std::string& base, bool task) {
    if (!ps || !ps->is_seq()) return;
    for (size_t i = 0; i < ps->items.size(); ++i) {
      if (ps->items[i].is_map()) visit(ps->items[i], Index(base, i), task);
    }
  };
  list(spec->Find("policies"), "spec.policies", false);
  if (const Node* tasks = spec->Find("tasks"); tasks && tasks->is_seq()) {
    for (size_t t = 0; t < tasks->items.size(); ++t) {
      list(tasks->items[t].Find("policies"), Index("spec.tasks", t) + ".policies", true);
    }
  }
}

}  // namespace

void AnalyzeVolcanoJob(const Node& original, const Node& defaulted, std::vector<Finding>* out) {
  bool restarts = false;
  ForEachPolicy(defaulted, [&](const Node& p, const std::string& at, bool task) {
    std::string action = TextOf(p.Find("action"));
    restarts = restarts || IsRestart(action);
    const Node* code = p.Find("exitCode");
    bool has_events =
        !TextOf(p.Find("event")).empty() ||
        (p.Find("events") && p.Find("events")->is_seq() && !p.Find("events")->items.empty());
    if (code && code->is_int() && !has_events &&
        std::find(VolcanoPolicyActions().begin(), VolcanoPolicyActions().end(), action) ==
            VolcanoPolicyActions().end()) {
      Warn(defaulted, out, kVolcanoExitCodeAction, Child(at, "action"),
           "action " + GoQuote(action) + " of an exit-code policy is not a policy action (" +
               "nothing checks it): when exit code " + std::to_string(code->integer) +
               " occurs the controller only syncs the job");
    }
    std::vector<std::pair<std::string, std::string>> events;
    if (const Node* es = p.Find("events"); es && es->is_seq()) {
      for (size_t k = 0; k < es->items.size(); ++k)
        events.emplace_back(TextOf(&es->items[k]), Index(Child(at, "events"), k));
    }
    if (!TextOf(p.Find("event")).empty())
      events.emplace_back(TextOf(p.Find("event")), Child(at, "event"));
    const Node* timeout = p.Find("timeout");
    bool has_timeout = timeout && timeout->is_string() && !timeout->text.empty();
    for (const auto& [event, where] : events) {
      if (event == "JobUpdated") {
        Warn(defaulted, out, kVolcanoDeadEvent, where,
             "the job controller never emits JobUpdated (a spec change is handled as OutOfSync): "
             "this policy never fires");
      } else if (event == "PodPending" && !has_timeout) {
        Warn(defaulted, out, kVolcanoDeadEvent, where,
             "a PodPending policy fires only with a timeout (a pod that stays pending that "
             "long): without one it never fires");
      } else if (event == "Unknown" && task) {
        Warn(defaulted, out, kVolcanoDeadEvent, where,
             "the Unknown event comes from the PodGroup and names no task: in a task policy it "
             "never fires (move it to spec.policies)");
      }
    }
  });
  const Node* spec = defaulted.Find("spec");
  const Node* orig_spec = original.Find("spec");
  if (!spec || !spec->is_map()) return;
  ShadowedPolicies(defaulted, out);
  const Node* max_retry = spec->Find("maxRetry");
  if (restarts && max_retry && max_retry->is_int() && max_retry->integer == 1) {
    Warn(defaulted, out, kVolcanoMaxRetry, "spec.maxRetry",
         "maxRetry 1 allows no restart: the first restart or resume action ends the job Failed "
         "(maxRetry N allows N-1 restarts)");
  }
  // An explicit 0 is what Go reads as "unset": upstream replaces it.
  auto explicit_zero = [](const Node* n) { return n && n->is_int() && n->integer == 0; };
  if (orig_spec && orig_spec->is_map()) {
    if (explicit_zero(orig_spec->Find("maxRetry"))) {
      Warn(defaulted, out, kVolcanoZeroReplaced, "spec.maxRetry",
           "maxRetry: 0 is read as unset: the mutating webhook replaces it with 3");
    }
    if (explicit_zero(orig_spec->Find("minAvailable"))) {
      Warn(defaulted, out, kVolcanoZeroReplaced, "spec.minAvailable",
           "minAvailable: 0 is read as unset: the mutating webhook replaces it with " +
               std::to_string(IntOr(spec->Find("minAvailable"), 0)) +
               " (the sum of the tasks' minAvailable)");
    }
    const Node* tasks = orig_spec->Find("tasks");
    for (size_t i = 0; tasks && tasks->is_seq() && i < tasks->items.size(); ++i) {
      if (explicit_zero(tasks->items[i].Find("maxRetry"))) {
        Warn(defaulted, out, kVolcanoZeroReplaced, Index("spec.tasks", i) + ".maxRetry",
             "task maxRetry: 0 is read as unset: the mutating webhook replaces it with 3");
      }
    }
  }
  // Pod names: upstream checks <job>-<task>-<position in the list>; the pods are named with the
  // replica index.
  const Node* md = defaulted.Find("metadata");
  std::string job = TextOf(md ? md->Find("name") : nullptr);
  const Node* tasks = spec->Find("tasks");
  for (size_t i = 0; tasks && tasks->is_seq() && i < tasks->items.size(); ++i) {
    const Node& t = tasks->items[i];
    std::string name = TextOf(t.Find("name"));
    int64_t replicas = IntOr(t.Find("replicas"), 0);
    if (replicas < 1) continue;
    std::string checked = job + "-" + name + "-" + std::to_string(i);
    std::string last = job + "-" + name + "-" + std::to_string(replicas - 1);
    if (checked.size() <= 63 && last.size() > 63) {
      Warn(defaulted, out, kVolcanoPodNameLength, Index("spec.tasks", i) + ".name",
           "pod " + last + " is " + std::to_string(last.size()) +
               " characters: its hostname (the pod name) must be at most 63, so pods with "
               "high replica indexes fail (upstream checks only " +
               checked + ")");
    }
  }
}

std::vector<Finding> LintVolcanoJob(const Node& object) {
  // kube-apiserver's order: CRD defaults on decode, the mutating webhook, then metadata and
  // the schema, then the validating webhook (which a schema failure never reaches).
  Node defaulted = object;
  std::vector<PatchOp> patch;
  ApplyVolcanoCrdDefaults(&defaulted, &patch);
  ApplyVolcanoWebhookDefaults(&defaulted, kVolcanoDefaultScheduler, &patch);
  std::vector<Finding> findings;
  ValidateName(defaulted, &findings);
  if (auto schema = BuiltinVolcanoJobSchema()) {
    for (Finding& f : ValidateSchema(*schema, defaulted)) findings.push_back(std::move(f));
  }
  // A field the schema already rejects is not reported again by the webhook rules. A value of
  // the wrong type means the object does not even decode into Volcano's Go types: the webhook
  // could never judge it, so its rules are not run at all.
  std::set<std::string> rejected;
  bool undecodable = false;
  for (const Finding& f : findings) {
    rejected.insert(f.field);
    undecodable = undecodable || f.rule == kSchemaType.id;
  }
  std::vector<Finding> webhook;
  if (!undecodable) ValidateVolcanoCreate(defaulted, &webhook);
  for (Finding& f : webhook) {
    if (!rejected.count(f.field)) findings.push_back(std::move(f));
  }
  AnalyzeVolcanoJob(object, defaulted, &findings);
  // A value the defaults added has no position: point at where it would go in the file.
  for (Finding& f : findings) {
    if (!f.mark.known()) f.mark = Locate(object, f.field, PointAt::kKey);
  }
  return findings;
}

std::vector<Finding> LintVolcanoUpdate(const Node& old_object, const Node& new_object) {
  Node old_defaulted = old_object, new_defaulted = new_object;
  std::vector<PatchOp> patch;
  ApplyVolcanoCrdDefaults(&old_defaulted, &patch);
  ApplyVolcanoCrdDefaults(&new_defaulted, &patch);
  std::vector<Finding> findings;
  if (auto schema = BuiltinVolcanoJobSchema()) findings = ValidateSchema(*schema, new_defaulted);
  if (!findings.empty()) return findings;
  ValidateVolcanoUpdate(old_defaulted, new_defaulted, &findings);
  return findings;
}

}  // namespace jobset
