#include "validation/framework/replay.h"

#include <charconv>
#include <string_view>
#include <unordered_map>

#include "validation/core/field_path.h"
#include "validation/sim/scenario.h"

namespace jobset {
namespace {

// Parses "ROLE/INDEX" at the start of `text`; returns the length consumed, or 0.
size_t ParseTaskRef(std::string_view text, std::string* role, int64_t* index) {
  size_t slash = text.find('/');
  if (slash == 0 || slash == std::string_view::npos) return 0;
  if (text.substr(0, slash).find_first_of(",: ") != std::string_view::npos) return 0;
  size_t end = slash + 1;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  auto [p, ec] = std::from_chars(text.data() + slash + 1, text.data() + end, *index);
  if (end == slash + 1 || ec != std::errc() || p != text.data() + end) return 0;
  *role = std::string(text.substr(0, slash));
  return end;
}

const CompletionStatus& AllCompletedStatus() {
  static const CompletionStatus s{0, "Succeeded", CompletionType{true, false, false, false}};
  return s;
}

const CompletionStatus& FrameworkAttemptCompletionStatus() {
  static const CompletionStatus s{-220, "FrameworkAttemptCompletion",
                                  CompletionType{false, false, true, false}};
  return s;
}

const CompletionStatus& StopStatus() {
  static const CompletionStatus s{-210, "StopFrameworkRequested",
                                  CompletionType{false, false, true, false}};
  return s;
}

std::vector<std::vector<SimTask>> FreshTasks(const Framework& fw) {
  std::vector<std::vector<SimTask>> tasks;
  for (const FrameworkTaskRole& r : fw.task_roles)
    tasks.emplace_back(static_cast<size_t>(r.task_number > 0 ? r.task_number : 0));
  return tasks;
}

// The FrameworkAttempt completed with `ev.status`: the remaining tasks get -220, then the
// framework retry policy decides between a new attempt and Completed.
void CompleteAttempt(const Framework& fw, FrameworkReplayResult* out, CompletionCounts* counts,
                     AttemptCompletionEvent ev) {
  ev.framework_attempt_id = out->counters.total;
  for (size_t r = 0; r < out->tasks.size(); ++r) {
    for (size_t i = 0; i < out->tasks[r].size(); ++i) {
      SimTask& t = out->tasks[r][i];
      if (t.completed) continue;
      t.completed = true;
      t.status = FrameworkAttemptCompletionStatus();
      ev.stopped.push_back(FrameworkPodName(fw, fw.task_roles[r].name, static_cast<int64_t>(i)));
    }
  }
  ev.decision = ShouldRetry(fw.retry, ev.status, out->counters, kFrameworkMinConflictDelaySec,
                            kFrameworkMaxConflictDelaySec);
  if (ev.decision.should_retry) {
    ++out->counters.total;
    if (ev.decision.accountable) ++out->counters.accountable;
    out->tasks = FreshTasks(fw);
    *counts = FreshCompletionCounts(fw);
    out->state = "AttemptRunning";
  } else {
    out->completed = true;
    out->state = "Completed";
  }
  ev.counters = out->counters;
  out->final_attempt = ev;
}

}  // namespace

bool ParseFrameworkFailFlag(std::string_view text, FrameworkStepSpec* out, std::string* error) {
  while (true) {
    TaskCompletionSpec c;
    size_t used = ParseTaskRef(text, &c.role, &c.index);
    if (!used || used >= text.size() || text[used] != ':') {
      *error = "'" + std::string(text) + "': want TASKROLE/INDEX:CODE[+ATTRIBUTES]";
      return false;
    }
    size_t comma = text.find(',', used);
    std::string_view completion = text.substr(used + 1, comma - used - 1);
    std::string why;
    if (!ParseTaskCompletion(completion, &c.status, &why)) {
      *error = "'" + std::string(text.substr(0, comma)) + "': " + why;
      return false;
    }
    out->push_back(std::move(c));
    if (comma == std::string_view::npos) return true;
    text = text.substr(comma + 1);
  }
}

bool ParseFrameworkScenario(const Node& scenario, std::vector<FrameworkStepSpec>* steps,
                            std::string* error) {
  const Node* list = ScenarioSteps(scenario, "{complete: [...]}", error);
  if (!list) return false;
  for (size_t s = 0; s < list->items.size(); ++s) {
    std::string base = Index("steps", s);
    const char* key = list->items[s].Find("complete") ? "complete" : "fail";
    const Node* items = list->items[s].Find(key);
    if (!items || !items->is_seq()) {
      *error = base + ".complete: want a list of task completions";
      return false;
    }
    FrameworkStepSpec step;
    for (size_t k = 0; k < items->items.size(); ++k) {
      const Node& item = items->items[k];
      std::string at = Index(Child(base, key), k);
      TaskCompletionSpec c;
      std::string_view task = item.StringOr("task");
      if (task.empty() || ParseTaskRef(task, &c.role, &c.index) != task.size()) {
        *error = at + ".task: want TASKROLE/INDEX, e.g. worker/0";
        return false;
      }
      const Node* code = item.Find("code");
      if (!code || !(code->is_int() || code->is_string())) {
        *error = at + ".code: want a completion code or phrase, e.g. 137 or PodEvicted";
        return false;
      }
      std::string why;
      if (!ParseTaskCompletion(code->is_int() ? std::to_string(code->integer) : code->text,
                               &c.status, &why)) {
        *error = at + ".code: " + why;
        return false;
      }
      step.push_back(std::move(c));
    }
    steps->push_back(std::move(step));
  }
  return true;
}

CompletionCounts FreshCompletionCounts(const Framework& fw) {
  CompletionCounts c;
  c.failed.assign(fw.task_roles.size(), 0);
  c.succeeded.assign(fw.task_roles.size(), 0);
  c.total = TotalTaskNumber(fw);
  return c;
}

void CountCompletion(CompletionCounts* counts, size_t role, const CompletionStatus& status) {
  (status.type.succeeded ? counts->succeeded : counts->failed)[role] += 1;
  counts->completed += 1;
}

AttemptVerdict CheckCompletionPolicy(const Framework& fw, const CompletionCounts& counts,
                                     size_t role, const CompletionStatus& status) {
  AttemptVerdict v;
  const FrameworkCompletionPolicy& policy = fw.task_roles[role].completion;
  const int64_t failed = counts.failed[role], succeeded = counts.succeeded[role];
  const int64_t completed = counts.completed, total = counts.total;
  if (!status.type.succeeded && policy.min_failed >= 1 && failed >= policy.min_failed) {
    v.complete = v.triggered_by_task = true;
    v.status = status;
    v.message = "FailedTaskCount " + std::to_string(failed) + " has reached MinFailedTaskCount " +
                std::to_string(policy.min_failed) + " in the TaskRole";
  } else if (status.type.succeeded && policy.min_succeeded >= 1 &&
             succeeded >= policy.min_succeeded) {
    v.complete = v.triggered_by_task = true;
    v.status = status;
    v.message = "SucceededTaskCount " + std::to_string(succeeded) +
                " has reached MinSucceededTaskCount " + std::to_string(policy.min_succeeded) +
                " in the TaskRole";
  } else if (total >= 1 && completed == total) {
    v.complete = true;
    v.status = AllCompletedStatus();
    v.message = "CompletedTaskCount " + std::to_string(completed) + " has reached TotalTaskCount " +
                std::to_string(total) +
                " and no user specified conditions in FrameworkAttemptCompletionPolicy have ever "
                "been triggered";
  }
  return v;
}

bool ReplayFramework(const Framework& fw, const std::vector<FrameworkStepSpec>& steps,
                     FrameworkReplayResult* out, std::string* error) {
  out->tasks = FreshTasks(fw);
  CompletionCounts counts = FreshCompletionCounts(fw);
  out->state = fw.execution_type == "Create" ? "AttemptCreationPending" : "AttemptRunning";
  if (fw.execution_type == "Stop") {
    AttemptCompletionEvent stop;
    stop.status = StopStatus();
    // The controller's diagnostic (pkg/controller/controller.go, syncFramework, at the same
    // commit): the attempt has no trigger task.
    stop.message = "User has requested to stop the Framework";
    CompleteAttempt(fw, out, &counts, stop);
    out->at_start.push_back(out->final_attempt);
  }
  // Task roles by name, the first of a name winning as the controller's lookups find it.
  std::unordered_map<std::string_view, int> role_of;
  for (size_t r = 0; r < fw.task_roles.size(); ++r) {
    role_of.emplace(fw.task_roles[r].name, static_cast<int>(r));
  }
  for (size_t s = 0; s < steps.size(); ++s) {
    FrameworkReplayStep step;
    for (const TaskCompletionSpec& c : steps[s]) {
      const auto found = role_of.find(c.role);
      const int role = found == role_of.end() ? -1 : found->second;
      std::string where = "step " + std::to_string(s + 1) + ": ";
      if (role < 0) {
        *error = where + "no task role '" + c.role + "'";
        return false;
      }
      const int64_t number = fw.task_roles[role].task_number;
      if (c.index < 0 || c.index >= number) {
        *error = where + c.role + "/" + std::to_string(c.index) + " is outside its " +
                 std::to_string(number > 0 ? number : 0) + " tasks (taskNumber)";
        return false;
      }
      TaskCompletionEvent ev;
      ev.role = c.role;
      ev.index = c.index;
      ev.pod = FrameworkPodName(fw, c.role, c.index);
      ev.status = c.status;
      ev.framework_attempt_id = out->counters.total;
      SimTask& task = out->tasks[role][static_cast<size_t>(c.index)];
      ev.task_attempt_id = task.counters.total;
      ev.counters = task.counters;
      if (out->completed) {
        ev.ignored = true;
        ev.ignored_why = "the Framework is already Completed";
      } else if (out->state == "AttemptCreationPending") {
        ev.ignored = true;
        ev.ignored_why = "executionType Create: no pod is created until it is changed to Start";
      } else if (task.completed) {
        ev.ignored = true;
        ev.ignored_why = "the task is already completed in this FrameworkAttempt";
      }
      if (ev.ignored) {
        step.events.push_back(std::move(ev));
        continue;
      }
      ev.decision = ShouldRetry(fw.task_roles[role].retry, c.status, task.counters, 0, 0);
      if (ev.decision.should_retry) {
        ++task.counters.total;
        if (ev.decision.accountable) ++task.counters.accountable;
      } else {
        task.completed = true;
        task.status = c.status;
        CountCompletion(&counts, static_cast<size_t>(role), c.status);
      }
      ev.counters = task.counters;
      step.events.push_back(std::move(ev));
      if (!task.completed) continue;
      AttemptVerdict v = CheckCompletionPolicy(fw, counts, static_cast<size_t>(role), c.status);
      if (!v.complete) continue;
      AttemptCompletionEvent done;
      done.status = v.status;
      done.message = v.message;
      // The task that just completed is the trigger for every condition, "all completed"
      // included: upstream's attemptToCompleteFrameworkAttempt passes it to
      // NewCompletedTaskTriggeredCompletionStatus (microsoft/frameworkcontroller,
      // pkg/controller/controller.go, commit d6e70787888dce7494add3e675504ccfadf893d5).
      done.trigger_role = c.role;
      done.trigger_index = c.index;
      CompleteAttempt(fw, out, &counts, done);
      step.events.back().completed_attempt = static_cast<int>(step.attempts.size());
      step.attempts.push_back(out->final_attempt);
    }
    step.state = out->state;
    out->steps.push_back(std::move(step));
  }
  return true;
}

}  // namespace jobset
