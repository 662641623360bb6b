#include "validation/framework/lint.h"

#include <re2/re2.h>

#include <map>

#include "validation/core/field_path.h"
#include "validation/core/finding_sink.h"
#include "validation/core/k8s_names.h"
#include "validation/framework/rules.h"
#include "validation/framework/types.h"
#include "validation/k8s/pod_template.h"
#include "validation/schema/schema.h"

namespace jobset {
namespace {

// The CRD's name pattern (NamingConvention), also in schemas/framework.v1.json.
constexpr char kNamePattern[] = "^[a-z0-9]{1,63}$";

// The value under `key` of `parent` when `parent` is a map and the value is of `kind`; nullptr
// when absent, null or of another type (which the schema reports).
const Node* Typed(const Node* parent, std::string_view key, Node::Kind kind) {
  if (!parent || !parent->is_map()) return nullptr;
  const Node* n = parent->Find(key);
  return n && n->kind == kind ? n : nullptr;
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

// The traps of a Framework the CRD schema admits (and the metadata.name rule the API server
// applies to every object), over one object. Values of the wrong type are skipped: the schema
// reports them.
class Checker {
 public:
  Checker(const Node& object, std::vector<Finding>* out) : sink_(object, out) {}

  void Metadata(const Node& object) {
    const Node* meta = Typed(&object, "metadata", Node::Kind::kMap);
    if (Typed(meta, "name", Node::Kind::kString)) return;  // The schema checks its pattern.
    if (const Node* generate = Typed(meta, "generateName", Node::Kind::kString)) {
      // The API server appends 5 characters of [a-z0-9] and then validates the name.
      static const re2::RE2 prefix("^[a-z0-9]{0,58}$");
      if (!re2::RE2::FullMatch(generate->text, prefix)) {
        sink_.Field(kFrameworkName, "metadata.name", "Invalid value",
                    GoQuote(generate->text + "xxxxx"),
                    std::string("metadata.name in body should match '") + kNamePattern + "'",
                    "metadata.generateName");
      }
    } else {
      sink_.Field(kFrameworkName, "metadata.name", "Required value",
                  "name or generateName is required", "", meta ? "metadata" : "");
    }
  }

  // `role` is the task role whose task retry policy this is; nullptr for the framework's.
  void Retry(const Node& parent, const std::string& path, const Node* role) {
    const bool task = role != nullptr;
    const Node* rp = Typed(&parent, "retryPolicy", Node::Kind::kMap);
    if (!rp) return;
    std::string p = Child(path, "retryPolicy");
    const Node* fancy = Typed(rp, "fancyRetryPolicy", Node::Kind::kBool);
    const Node* max = Typed(rp, "maxRetryCount", Node::Kind::kInt);
    const char* who = task ? "a task" : "the Framework";
    if (fancy && fancy->boolean) {
      std::string bound =
          max && max->integer >= 0
              ? "maxRetryCount " + std::to_string(max->integer) + " only bounds Unknown failures"
              : "nothing bounds them";
      sink_.Own(kFrameworkUnboundedTransientRetries, Severity::kInfo, Child(p, "fancyRetryPolicy"),
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
      sink_.Own(kFrameworkRerunSucceeded, Severity::kWarning, Child(p, "maxRetryCount"),
                "maxRetryCount -2 retries after every completion, Succeeded included: " + what);
    }
  }

  void Spec(const Node& object) {
    const Node* spec = Typed(&object, "spec", Node::Kind::kMap);
    if (!spec) return;
    if (const Node* et = Typed(spec, "executionType", Node::Kind::kString)) {
      if (et->text == "Stop") {
        sink_.Own(kFrameworkExecutionStop, Severity::kWarning, "spec.executionType",
                  "executionType Stop: the controller completes the first FrameworkAttempt at "
                  "once with code -210 StopFrameworkRequested and never retries it; no pod runs");
      } else if (et->text == "Create") {
        sink_.Own(kFrameworkExecutionCreate, Severity::kInfo, "spec.executionType",
                  "executionType Create: the Framework stays in AttemptCreationPending and no "
                  "pod is created until executionType is changed to Start");
      }
    }
    Retry(*spec, "spec", nullptr);
    if (const Node* roles = Typed(spec, "taskRoles", Node::Kind::kSeq)) {
      for (size_t i = 0; i < roles->items.size(); ++i)
        TaskRole(roles->items[i], Index("spec.taskRoles", i));
    }
  }

  void TaskRole(const Node& role, const std::string& path) {
    const Node* task = Typed(&role, "task", Node::Kind::kMap);
    if (!task) return;
    std::string p = Child(path, "task");
    Retry(*task, p, &role);
    if (const Node* t = Typed(task, "podGracefulDeletionTimeoutSec", Node::Kind::kInt);
        t && t->integer < 0) {
      sink_.Own(kFrameworkNegativeDeletionTimeout, Severity::kWarning,
                Child(p, "podGracefulDeletionTimeoutSec"),
                "podGracefulDeletionTimeoutSec " + std::to_string(t->integer) +
                    " has always expired: a deleting pod is force-deleted at once (grace 0) "
                    "instead of being given time to stop");
    }
  }

  // The traps of the completion policy, over the decoded Framework.
  void CompletionTraps(const Framework& fw) {
    const std::string roles = "spec.taskRoles";
    if (TotalTaskNumber(fw) == 0) {
      sink_.Own(kFrameworkNoTasks, Severity::kWarning, fw.task_roles.empty() ? "spec" : roles,
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
        sink_.Own(kFrameworkDuplicateTaskRole, Severity::kWarning, Child(path, "name"),
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
        sink_.Own(kFrameworkMinFailedOmitted, Severity::kWarning, Child(cp, "minFailedTaskCount"),
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
        sink_.Own(kFrameworkCompletionCountUnreachable, Severity::kWarning, Child(cp, key),
                  std::string(key) + " " + std::to_string(value) + " is more than taskNumber " +
                      std::to_string(r.task_number) + " of role " + GoQuote(r.name) +
                      ": the condition can never trigger");
      }
    }
    if (!can_fail && !any_omitted && any_completes) {
      sink_.Own(kFrameworkFailuresSucceed, Severity::kWarning, roles,
                "no task role has a minFailedTaskCount that can trigger (-1 disables it, a count "
                "above taskNumber is never reached): " +
                    all_succeed,
                {}, PointAt::kKey);
    }
  }

 private:
  FindingSink sink_;
};

// The pods the controller creates (frameworkcontroller pkg/apis/frameworkcontroller/v1
// funcs.go NewPod: pod "<framework>-<role>-<index>" from the role's task.pod, after the
// {{FC_...}} placeholders are replaced), as kube-apiserver validates a Pod on create. Nothing
// checks the template before: `task.pod` is preserve-unknown-fields in the CRD and there is
// no webhook, so each error means every pod of the role is refused.
void ValidateChildPods(const Node& object, const Framework& fw, std::vector<Finding>* out) {
  const Node* roles = FindPath(object, "spec.taskRoles");
  if (!roles || !roles->is_seq()) return;
  FindingSink sink(object, out);
  PodTemplateOptions options;
  options.placeholders = true;
  // Quantity syntax is the schema's (task.pod is checked against the pod template schema).
  for (size_t i = 0; i < roles->items.size() && i < fw.task_roles.size(); ++i) {
    const FrameworkTaskRole& role = fw.task_roles[i];
    const Node* pod = FindPath(roles->items[i], "task.pod");
    if (role.task_number <= 0 || !pod || !pod->is_map()) continue;
    ChildObject child{"Pod", fw.name + "-" + role.name + "-0", role.task_number,
                      Child(Index("spec.taskRoles", i), "task.pod")};
    ReportChildErrors(child, ValidatePodTemplateSpec(*pod, options), &sink);
  }
}

}  // namespace

const SchemaReport& FrameworkSchemaReport() {
  // Every keyword of schemas/framework.v1.json has its rule. A null task role has never been
  // reported (kube-apiserver would reject it: it prunes only null fields).
  static const SchemaReport report = [] {
    SchemaReport r;
    r.rules = {{"type", "", kFrameworkType},
               {"enum", "", kFrameworkExecutionType},
               {"pattern", "metadata.name", kFrameworkName},
               {"pattern", "", kFrameworkTaskRoleName},
               {"minimum", "", kFrameworkMinimum},
               {"maximum", "", kFrameworkMinimum},
               {"additionalProperties", "", kFrameworkUnknownField}};
    r.unknown_field_severity = Severity::kWarning;
    r.unknown_field_detail =
        "the Framework CRD's structural schema prunes it silently, so the controller sees the "
        "field's zero value";
    r.quote = &GoQuote;
    r.skip_null_items = true;
    // A task's pod is a core/v1 PodTemplateSpec: a wrong type, enum or quantity there is the
    // schema/* error it is in any pod template (the controller cannot decode the Framework, or
    // the API server refuses its pods); an unknown field is dropped when the controller decodes
    // the template, so it stays this kind's warning.
    static const SchemaReport pod = [] {
      SchemaReport p;
      p.rules = {{"additionalProperties", "", kFrameworkUnknownField}};
      p.unknown_field_severity = Severity::kWarning;
      p.unknown_field_detail =
          "the controller decodes task.pod into a core/v1 PodTemplateSpec, which has no such "
          "field: its pods do not get it";
      p.quote = &GoQuote;
      return p;
    }();
    r.subtree = ".task.pod.";
    r.subtree_report = &pod;
    return r;
  }();
  return report;
}

std::vector<Finding> LintFramework(const Node& object) {
  std::vector<Finding> findings;
  if (auto schema = BuiltinFrameworkSchema())
    findings = ValidateSchema(*schema, object, FrameworkSchemaReport());
  Checker c(object, &findings);
  c.Metadata(object);
  c.Spec(object);
  const Framework fw = DecodeFramework(object);
  c.CompletionTraps(fw);
  ValidateChildPods(object, fw, &findings);
  return findings;
}

}  // namespace jobset
