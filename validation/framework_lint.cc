#include "validation/framework_lint.h"

#include <re2/re2.h>

#include <map>

#include "validation/field_path.h"
#include "validation/framework_types.h"
#include "validation/jobset_validation.h"
#include "validation/k8s_names.h"

namespace jobset {
namespace {

constexpr char kNamePattern[] = "^[a-z0-9]{1,63}$";

enum class Want { kString, kInteger, kBoolean, kObject, kArray };

const char* WantName(Want w) {
  switch (w) {
    case Want::kString:
      return "string";
    case Want::kInteger:
      return "integer";
    case Want::kBoolean:
      return "boolean";
    case Want::kObject:
      return "object";
    case Want::kArray:
      return "array";
  }
  return "";
}

bool Is(const Node& n, Want w) {
  switch (w) {
    case Want::kString:
      return n.is_string();
    case Want::kInteger:
      return n.is_int();
    case Want::kBoolean:
      return n.is_bool();
    case Want::kObject:
      return n.is_map();
    case Want::kArray:
      return n.is_seq();
  }
  return false;
}

// maxRetryCount -2 at the framework level.
bool FrameworkReruns(const Node& object) {
  const Node* max = FindPath(object, "spec.retryPolicy.maxRetryCount");
  return max && max->is_int() && max->integer == -2;
}

// A task role that runs a service, for which maxRetryCount -2 ("rerun after every completion")
// is upstream's documented setting (example/framework/basic/service.yaml and
// servicestateful.yaml of microsoft/frameworkcontroller): no minSucceededTaskCount condition,
// and pods that restart in place (restartPolicy Always, also the Pod default when omitted) or
// a Framework that reruns too (-2 at both levels, servicestateful's way with restartPolicy
// Never).
bool IsServiceRole(const Node& role, bool framework_reruns) {
  const Node* succeeded = FindPath(role, "frameworkAttemptCompletionPolicy.minSucceededTaskCount");
  if (succeeded && succeeded->is_int() && succeeded->integer >= 1) return false;
  const Node* restart = FindPath(role, "task.pod.spec.restartPolicy");
  if (!restart || restart->is_null() || (restart->is_string() && restart->text == "Always"))
    return true;
  const Node* max = FindPath(role, "task.retryPolicy.maxRetryCount");
  return framework_reruns && max && max->is_int() && max->integer == -2;
}

// A Framework whose every task role (with tasks) runs a service.
bool IsService(const Node& spec) {
  const Node* roles = spec.Find("taskRoles");
  if (!roles || !roles->is_seq()) return false;
  const Node* max = FindPath(spec, "retryPolicy.maxRetryCount");
  const bool reruns = max && max->is_int() && max->integer == -2;
  bool any = false;
  for (const Node& role : roles->items) {
    if (!role.is_map()) return false;
    const Node* number = role.Find("taskNumber");
    if (number && number->is_int() && number->integer == 0) continue;
    if (!IsServiceRole(role, reruns)) return false;
    any = true;
  }
  return any;
}

// The CRD's structural checks and the traps, over one object.
class Checker {
 public:
  Checker(const Node& object, std::vector<Finding>* out) : sink_(object, out) {}

  // The value under `key` of `parent` when it has the wanted type; nullptr when absent or null
  // (kube-apiserver prunes a null field that is not nullable) or of another type (reported).
  const Node* Get(const Node& parent, const std::string& path, std::string_view key, Want want) {
    const Node* n = parent.Find(key);
    std::string p = Child(path, key);
    return Typed(n, p, want);
  }

  const Node* Typed(const Node* n, const std::string& p, Want want) {
    if (!n || n->is_null()) return nullptr;
    if (Is(*n, want)) return n;
    std::string actual = GoQuote(Node::KindName(n->kind));
    sink_.Field("framework/type", p, "Invalid value", actual,
                p + " in body must be of type " + WantName(want) + ": " + actual);
    return nullptr;
  }

  // An integer field with bounds; returns the node when it is an integer.
  const Node* Integer(const Node& parent, const std::string& path, std::string_view key,
                      int64_t min, std::optional<int64_t> max = std::nullopt) {
    const Node* n = Get(parent, path, key, Want::kInteger);
    if (!n) return nullptr;
    std::string p = Child(path, key);
    if (n->integer < min) {
      sink_.Field("framework/minimum", p, "Invalid value", std::to_string(n->integer),
                  p + " in body should be greater than or equal to " + std::to_string(min));
    } else if (max && n->integer > *max) {
      sink_.Field("framework/minimum", p, "Invalid value", std::to_string(n->integer),
                  p + " in body should be less than or equal to " + std::to_string(*max));
    }
    return n;
  }

  void Pattern(const Node& value, const std::string& p, const char* rule) {
    static const re2::RE2 re(kNamePattern);
    if (re2::RE2::PartialMatch(value.text, re)) return;
    sink_.Field(rule, p, "Invalid value", GoQuote(value.text),
                p + " in body should match '" + kNamePattern + "'");
  }

  // Fields the CRD schema does not know are pruned without an error.
  void Unknown(const Node& map, const std::string& path, std::initializer_list<const char*> known) {
    for (const MapEntry& e : map.entries) {
      bool ok = false;
      for (const char* k : known) ok = ok || e.key == k;
      if (ok) continue;
      std::string p = Child(path, e.key);
      sink_.Own("framework/unknown-field", Severity::kWarning, p,
                "unknown field " + GoQuote(p) +
                    ": the Framework CRD's structural schema prunes it silently, so the "
                    "controller sees the field's zero value",
                {}, PointAt::kKey);
    }
  }

  void Metadata(const Node& object) {
    const Node* meta = Get(object, "", "metadata", Want::kObject);
    const Node* name = meta ? Get(*meta, "metadata", "name", Want::kString) : nullptr;
    const Node* generate = meta ? Get(*meta, "metadata", "generateName", Want::kString) : nullptr;
    if (name) {
      Pattern(*name, "metadata.name", "framework/name");
    } else if (generate) {
      // The API server appends 5 characters of [a-z0-9] and then validates the name.
      static const re2::RE2 prefix("^[a-z0-9]{0,58}$");
      if (!re2::RE2::FullMatch(generate->text, prefix)) {
        sink_.Field("framework/name", "metadata.name", "Invalid value",
                    GoQuote(generate->text + "xxxxx"),
                    std::string("metadata.name in body should match '") + kNamePattern + "'",
                    "metadata.generateName");
      }
    } else {
      sink_.Field("framework/name", "metadata.name", "Required value",
                  "name or generateName is required", "", meta ? "metadata" : "");
    }
  }

  // `role` is the task role whose task retry policy this is; nullptr for the framework's.
  void Retry(const Node& parent, const std::string& path, const Node* role) {
    const bool task = role != nullptr;
    const Node* rp = Get(parent, path, "retryPolicy", Want::kObject);
    if (!rp) return;
    std::string p = Child(path, "retryPolicy");
    Unknown(*rp, p, {"fancyRetryPolicy", "maxRetryCount"});
    const Node* fancy = Get(*rp, p, "fancyRetryPolicy", Want::kBoolean);
    const Node* max = Integer(*rp, p, "maxRetryCount", -2);
    const char* who = task ? "a task" : "the Framework";
    if (fancy && fancy->boolean) {
      std::string bound =
          max && max->integer >= 0
              ? "maxRetryCount " + std::to_string(max->integer) + " only bounds Unknown failures"
              : "nothing bounds them";
      sink_.Own("framework/unbounded-transient-retries", Severity::kInfo,
                Child(p, "fancyRetryPolicy"),
                std::string("fancyRetryPolicy retries every Transient failure of ") + who +
                    " (exit codes 200, 201, 130, 131, 137, 143, evictions, pods deleted by "
                    "others) without counting it: " +
                    bound + ", so one that keeps failing that way is retried forever");
    }
    const bool service =
        task ? IsServiceRole(*role, FrameworkReruns(sink_.object())) : IsService(parent);
    if (max && max->integer == -2 && !service) {
      std::string what =
          task ? "a succeeded task is rerun forever and never completes, so its role's "
                 "minSucceededTaskCount and the all-tasks-completed condition are never reached"
               : "the Framework never completes: every FrameworkAttempt that succeeds starts a "
                 "new one (service semantics)";
      sink_.Own("framework/rerun-succeeded", Severity::kWarning, Child(p, "maxRetryCount"),
                "maxRetryCount -2 retries after every completion, Succeeded included: " + what);
    }
  }

  void Spec(const Node& object) {
    const Node* spec = Get(object, "", "spec", Want::kObject);
    if (!spec) return;
    Unknown(*spec, "spec", {"description", "executionType", "retryPolicy", "taskRoles"});
    Get(*spec, "spec", "description", Want::kString);
    if (const Node* et = Get(*spec, "spec", "executionType", Want::kString)) {
      if (et->text != "Create" && et->text != "Start" && et->text != "Stop") {
        sink_.Field("framework/execution-type", "spec.executionType", "Unsupported value",
                    GoQuote(et->text), "supported values: \"Create\", \"Start\", \"Stop\"");
      } else if (et->text == "Stop") {
        sink_.Own("framework/execution-stop", Severity::kWarning, "spec.executionType",
                  "executionType Stop: the controller completes the first FrameworkAttempt at "
                  "once with code -210 StopFrameworkRequested and never retries it; no pod runs");
      } else if (et->text == "Create") {
        sink_.Own("framework/execution-create", Severity::kInfo, "spec.executionType",
                  "executionType Create: the Framework stays in AttemptCreationPending and no "
                  "pod is created until executionType is changed to Start");
      }
    }
    Retry(*spec, "spec", nullptr);
    const Node* roles = Get(*spec, "spec", "taskRoles", Want::kArray);
    if (roles) {
      for (size_t i = 0; i < roles->items.size(); ++i)
        TaskRole(roles->items[i], Index("spec.taskRoles", i));
    }
  }

  void TaskRole(const Node& item, const std::string& path) {
    const Node* role = Typed(&item, path, Want::kObject);
    if (!role) return;
    Unknown(*role, path, {"name", "taskNumber", "frameworkAttemptCompletionPolicy", "task"});
    if (const Node* name = Get(*role, path, "name", Want::kString))
      Pattern(*name, Child(path, "name"), "framework/task-role-name");
    Integer(*role, path, "taskNumber", 0, 10000);
    if (const Node* cp = Get(*role, path, "frameworkAttemptCompletionPolicy", Want::kObject)) {
      std::string p = Child(path, "frameworkAttemptCompletionPolicy");
      Unknown(*cp, p, {"minFailedTaskCount", "minSucceededTaskCount"});
      Integer(*cp, p, "minFailedTaskCount", -1);
      Integer(*cp, p, "minSucceededTaskCount", -1);
    }
    if (const Node* task = Get(*role, path, "task", Want::kObject)) {
      std::string p = Child(path, "task");
      Unknown(*task, p, {"retryPolicy", "podGracefulDeletionTimeoutSec", "pod"});
      Retry(*task, p, role);
      if (const Node* t = Get(*task, p, "podGracefulDeletionTimeoutSec", Want::kInteger);
          t && t->integer < 0) {
        sink_.Own("framework/negative-deletion-timeout", Severity::kWarning,
                  Child(p, "podGracefulDeletionTimeoutSec"),
                  "podGracefulDeletionTimeoutSec " + std::to_string(t->integer) +
                      " has always expired: a deleting pod is force-deleted at once (grace 0) "
                      "instead of being given time to stop");
      }
      Get(*task, p, "pod", Want::kObject);
    }
  }

  // The traps of the completion policy, over the decoded Framework.
  void CompletionTraps(const Framework& fw) {
    const std::string roles = "spec.taskRoles";
    if (TotalTaskNumber(fw) == 0) {
      sink_.Own("framework/no-tasks", Severity::kWarning, fw.task_roles.empty() ? "spec" : roles,
                "the Framework has no task (the sum of taskNumber is 0): its FrameworkAttempt "
                "never completes by the completion policy; only executionType Stop ends it");
      return;
    }
    // Whether a failed task of some role can fail the attempt.
    bool can_fail = false;
    for (const FrameworkTaskRole& r : fw.task_roles) {
      can_fail =
          can_fail || (r.completion.min_failed >= 1 && r.completion.min_failed <= r.task_number);
    }
    const std::string all_succeed =
        "a Framework whose tasks all fail completes as Succeeded (code 0, \"CompletedTaskCount n "
        "has reached TotalTaskCount n ...\")";
    bool any_omitted = false, any_completes = false;
    std::map<std::string, size_t> seen;
    for (size_t i = 0; i < fw.task_roles.size(); ++i) {
      const FrameworkTaskRole& r = fw.task_roles[i];
      std::string path = Index(roles, i);
      std::string cp = Child(path, "frameworkAttemptCompletionPolicy");
      if (auto [it, fresh] = seen.emplace(r.name, i); !fresh && !r.name.empty()) {
        sink_.Own("framework/duplicate-task-role", Severity::kWarning, Child(path, "name"),
                  "task role name " + GoQuote(r.name) + " is also used by " +
                      Index(roles, it->second) +
                      ": the controller finds the first role of a name and both roles create "
                      "the same pods " +
                      fw.name + "-" + r.name + "-<index>",
                  Child(Index(roles, it->second), "name"));
      }
      if (r.task_number <= 0) continue;
      // Tasks that rerun even after success (maxRetryCount -2, not fancy) never complete.
      bool never_complete = r.retry.max_retry_count == -2 && !r.retry.fancy;
      any_completes = any_completes || !never_complete;
      if (r.completion.min_failed == 0 && !never_complete) {
        any_omitted = true;
        std::string what = r.completion.min_failed_set ? "minFailedTaskCount is 0"
                                                       : "minFailedTaskCount is omitted (0)";
        sink_.Own("framework/min-failed-omitted", Severity::kWarning,
                  Child(cp, "minFailedTaskCount"),
                  what +
                      ", which disables the condition (there is no defaulting; the manual's "
                      "default 1 must be written): failed tasks of role " +
                      GoQuote(r.name) + " never fail the FrameworkAttempt" +
                      (can_fail ? "" : "; no role can, so " + all_succeed),
                  {}, PointAt::kKey);
      }
      for (auto [key, value] : {std::pair{"minFailedTaskCount", r.completion.min_failed},
                                std::pair{"minSucceededTaskCount", r.completion.min_succeeded}}) {
        if (value <= r.task_number) continue;
        sink_.Own("framework/completion-count-unreachable", Severity::kWarning, Child(cp, key),
                  std::string(key) + " " + std::to_string(value) + " is more than taskNumber " +
                      std::to_string(r.task_number) + " of role " + GoQuote(r.name) +
                      ": the condition can never trigger");
      }
    }
    if (!can_fail && !any_omitted && any_completes) {
      sink_.Own("framework/failures-succeed", Severity::kWarning, roles,
                "no task role has a minFailedTaskCount that can trigger (-1 disables it, a count "
                "above taskNumber is never reached): " +
                    all_succeed,
                {}, PointAt::kKey);
    }
  }

 private:
  FindingSink sink_;
};

}  // namespace

std::vector<Finding> LintFramework(const Node& object, const LintOptions& /*options*/) {
  std::vector<Finding> findings;
  Checker c(object, &findings);
  c.Unknown(object, "", {"apiVersion", "kind", "metadata", "spec", "status"});
  c.Metadata(object);
  c.Spec(object);
  c.CompletionTraps(DecodeFramework(object));
  return findings;
}

}  // namespace jobset
