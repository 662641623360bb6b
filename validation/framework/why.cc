#include "validation/framework/why.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "validation/core/dump_history.h"
#include "validation/core/strings.h"
#include "validation/framework/replay.h"
#include "validation/framework/retry.h"
#include "validation/framework/text.h"
#include "validation/framework/types.h"
#include "validation/sim/duration.h"

namespace jobset {
namespace {

// A CompletionStatus as the controller wrote it (code, phrase, type, diagnostics).
bool ReadStatus(const Node* n, CompletionStatus* s, std::string* diagnostics) {
  int64_t code = 0;
  if (n == nullptr || !n->is_map() || !IntValue(n->Find("code"), &code)) return false;
  s->code = code;
  s->phrase = std::string(n->StringOr("phrase"));
  s->type = CompletionType{};
  const Node* type = n->Find("type");
  s->type.succeeded = type != nullptr && type->StringOr("name") == "Succeeded";
  if (const Node* attrs = FindPath(type, {"attributes"}); attrs && attrs->is_seq()) {
    for (const Node& a : attrs->items) {
      s->type.transient = s->type.transient || a.text == "Transient";
      s->type.permanent = s->type.permanent || a.text == "Permanent";
      s->type.conflict = s->type.conflict || a.text == "Conflict";
    }
  }
  *diagnostics = std::string(n->StringOr("diagnostics"));
  return true;
}

RetryCounters ReadCounters(const Node* rps) {
  RetryCounters c;
  IntValue(FindPath(rps, {"totalRetriedCount"}), &c.total);
  IntValue(FindPath(rps, {"accountableRetriedCount"}), &c.accountable);
  return c;
}

// Completions the controller gives itself (Stop, attempt completion, scale-down): results of a
// decision, not failures.
bool ControllerCode(int64_t code) { return code == -210 || code == -220 || code == -230; }

// Codes of the pod's environment rather than of its containers: deletions and timeouts of the
// controller's objects, and the default podFailureSpec's pod reasons (completion.go and
// example/config/default/frameworkcontroller.yaml at microsoft/frameworkcontroller@d6e70787).
std::string Category(const CompletionStatus& s) {
  const int64_t c = s.code;
  if (c == -100 || c == -101 || c == -110 || c == -111 || (c <= -1000 && c >= -1006))
    return "infrastructure";
  if (c > 0 || (c <= -1200 && c >= -1204)) return "application";
  return "";
}

// One task attempt as the copies of the Framework show it.
struct TaskAttemptSeen {
  int role = -1;
  int64_t index = 0, attempt = 0;
  RetryCounters before;  ///< The task's counters while this attempt ran.
  bool completed = false;
  CompletionStatus status;
  std::string diagnostics, started, ended, pod, node, detail;
};

// One FrameworkAttempt as the copies show it.
struct FrameworkAttemptSeen {
  int64_t id = 0;
  RetryCounters before;  ///< The framework's counters while this attempt ran.
  std::string started, ended;
  bool completed = false;
  CompletionStatus status;
  std::string diagnostics, trigger_message, trigger_role;
  int64_t trigger_index = -1;
  std::optional<int64_t> retry_delay;
  std::map<std::tuple<int, int64_t, int64_t>, TaskAttemptSeen> tasks;  ///< (role, index, attempt)
};

// "container trainer exited with code 137 (OOMKilled)", from the pod completion status.
std::string PodDetail(const Node* pod) {
  std::string text;
  std::string reason = std::string(StringValue(FindPath(pod, {"reason"})));
  if (!reason.empty()) text = "pod " + reason;
  if (const Node* containers = FindPath(pod, {"containers"}); containers && containers->is_seq()) {
    for (const Node& c : containers->items) {
      int64_t code = 0;
      if (!IntValue(c.Find("code"), &code) || code == 0) continue;
      std::string r = std::string(c.StringOr("reason"));
      text += (text.empty() ? "" : ", ") +
              ("container " + std::string(c.StringOr("name")) + " exited with code " +
               std::to_string(code) + (r.empty() ? "" : " (" + r + ")"));
    }
  }
  return text;
}

void ReadSnapshot(const Framework& fw, const Node& object,
                  std::map<int64_t, FrameworkAttemptSeen>* attempts) {
  const Node* status = object.Find("status");
  const Node* as = FindPath(status, {"attemptStatus"});
  if (as == nullptr || !as->is_map()) return;
  const Node* rps = FindPath(status, {"retryPolicyStatus"});
  int64_t id = 0;
  if (!IntValue(as->Find("id"), &id)) IntValue(FindPath(rps, {"totalRetriedCount"}), &id);
  const bool fresh = attempts->find(id) == attempts->end();
  FrameworkAttemptSeen& a = (*attempts)[id];
  a.id = id;
  if (fresh) a.before = ReadCounters(rps);
  if (a.started.empty()) a.started = std::string(StringValue(as->Find("startTime")));
  if (int64_t delay = 0; IntValue(FindPath(rps, {"retryDelaySec"}), &delay)) a.retry_delay = delay;
  if (!a.completed && ReadStatus(as->Find("completionStatus"), &a.status, &a.diagnostics)) {
    a.completed = true;
    a.ended = std::string(StringValue(as->Find("completionTime")));
    const Node* trigger = FindPath(as, {"completionStatus", "trigger"});
    a.trigger_message = std::string(StringValue(FindPath(trigger, {"message"})));
    a.trigger_role = std::string(StringValue(FindPath(trigger, {"taskRoleName"})));
    IntValue(FindPath(trigger, {"taskIndex"}), &a.trigger_index);
  }
  const Node* roles = as->Find("taskRoleStatuses");
  if (roles == nullptr || !roles->is_seq()) return;
  for (const Node& r : roles->items) {
    std::string role_name = std::string(r.StringOr("name"));
    int role = -1;
    for (size_t i = 0; i < fw.task_roles.size() && role < 0; ++i)
      if (fw.task_roles[i].name == role_name) role = static_cast<int>(i);
    const Node* tasks = r.Find("taskStatuses");
    if (role < 0 || tasks == nullptr || !tasks->is_seq()) continue;
    for (const Node& t : tasks->items) {
      int64_t index = 0, attempt = 0;
      IntValue(t.Find("index"), &index);
      const Node* tas = t.Find("attemptStatus");
      if (!IntValue(FindPath(tas, {"id"}), &attempt))
        IntValue(FindPath(&t, {"retryPolicyStatus", "totalRetriedCount"}), &attempt);
      auto key = std::make_tuple(role, index, attempt);
      const bool new_task = a.tasks.find(key) == a.tasks.end();
      TaskAttemptSeen& seen = a.tasks[key];
      seen.role = role;
      seen.index = index;
      seen.attempt = attempt;
      if (new_task) seen.before = ReadCounters(t.Find("retryPolicyStatus"));
      if (seen.started.empty())
        seen.started = std::string(StringValue(FindPath(tas, {"startTime"})));
      if (seen.pod.empty()) seen.pod = std::string(StringValue(FindPath(tas, {"podName"})));
      if (seen.node.empty()) seen.node = std::string(StringValue(FindPath(tas, {"podNodeName"})));
      if (!seen.completed &&
          ReadStatus(FindPath(tas, {"completionStatus"}), &seen.status, &seen.diagnostics)) {
        seen.completed = true;
        seen.ended = std::string(StringValue(FindPath(tas, {"completionTime"})));
        seen.detail = PodDetail(FindPath(tas, {"completionStatus", "pod"}));
      }
    }
  }
}

std::string CountedWords(const RetryDecision& d, const RetryCounters& after, int64_t max) {
  if (!d.accountable) return "free";
  return "counted " + std::to_string(after.accountable) + " of " +
         (max < 0 ? std::string("unlimited") : std::to_string(max));
}

std::string DelayWords(const RetryDecision& d, std::optional<int64_t> recorded) {
  if (recorded && *recorded > 0) return " after " + std::to_string(*recorded) + "s";
  if (d.delay_max > 0)
    return " after " + std::to_string(d.delay_min) + "-" + std::to_string(d.delay_max) + "s";
  return "";
}

std::string PolicyWords(const FrameworkRetryPolicy& p) {
  return "fancyRetryPolicy " + std::string(p.fancy ? "true" : "false") + ", maxRetryCount " +
         std::to_string(p.max_retry_count);
}

int64_t Limit(const FrameworkRetryPolicy& p) {
  return p.max_retry_count >= 0 ? p.max_retry_count : -1;
}

// A sample completion of each class, as the retry algorithm reads them (explain.cc's samples).
struct Sample {
  const char* words;
  CompletionStatus status;
};
const std::vector<Sample>& Samples() {
  static const std::vector<Sample> samples = {
      {"Transient failure (200; 137, 143, -1000 PodEvicted with the default podFailureSpec)",
       {200, "ContainerTransientFailed", {false, true, false, false}}},
      {"Permanent failure (210; 139, -1200 ContainerDockerOOMKilled with the default "
       "podFailureSpec)",
       {210, "ContainerPermanentFailed", {false, false, true, false}}},
      {"Unknown failure (an exit code no pattern names, e.g. 1)",
       {1, "ContainerUnrecognizedFailed", {false, false, false, false}}},
      {"success", {0, "Succeeded", {true, false, false, false}}},
  };
  return samples;
}

Health HealthOf(std::string_view state, const FrameworkAttemptSeen* current, bool will_retry,
                bool task_retried, std::string_view execution_type) {
  if (state == "Completed") {
    return current != nullptr && current->completed && current->status.type.succeeded
               ? Health::kSucceeded
               : Health::kFailed;
  }
  if (execution_type == "Create" && state == "AttemptCreationPending") return Health::kSuspended;
  if (current != nullptr && current->completed) {
    if (will_retry) return Health::kRestarting;
    return current->status.type.succeeded ? Health::kSucceeded : Health::kFailed;
  }
  if (current != nullptr && current->id > 0 && state != "AttemptRunning")
    return Health::kRestarting;
  return task_retried ? Health::kRestarting : Health::kHealthy;
}

// What every step of DiagnoseFramework reads: the Framework decoded (its last copy), what its
// status says, and every attempt its copies show.
struct FrameworkView {
  const Node* status = nullptr;  ///< status of the last copy, nullptr when absent.
  Framework fw;
  std::string state;       ///< status.state, "" when absent.
  RetryCounters counters;  ///< The framework's retryPolicyStatus.
  std::map<int64_t, FrameworkAttemptSeen> attempts;
  int64_t current_id = 0;  ///< The last FrameworkAttempt seen.
};

// What the timeline found, for the state, what happens next and the hazards.
struct FrameworkHistory {
  /// The completion texts of each task's failed attempts: restart loops.
  std::map<std::pair<int, int64_t>, std::vector<std::string>> codes_by_task;
  std::map<int64_t, std::vector<int64_t>> attempt_codes;  ///< Retried attempts, by their code.
  int64_t infra = 0;         ///< Retries after failures of the pod's environment.
  int64_t free_retries = 0;  ///< Retries that did not count.
  std::vector<std::string> infra_examples;
  std::vector<std::string> false_success;  ///< Attempts that succeeded though tasks failed.
  std::vector<std::string> missing_tasks;  ///< Task attempts no copy shows.
  CompletionCounts current_counts;         ///< The task completions of the current attempt.
  std::vector<std::pair<std::string, std::string>> gaps;  ///< (attempt ended, next started)
  bool will_retry = false;        ///< The current attempt completed and is retried.
  bool task_retried_now = false;  ///< A task of the current attempt was retried.
};

// The copies of the Framework called `name` in `dump`, oldest first.
std::vector<const Node*> FrameworkCopies(const WorkloadDump& dump, std::string_view name) {
  std::vector<const Node*> copies;
  for (const Node& o : dump.objects)
    if (IsFramework(o) && ObjectName(o) == name) copies.push_back(&o);
  return copies;
}

// Decodes the last of `copies`, fills the identity of `d` and reads every copy's attempts, with
// notes for a missing status and for several copies.
FrameworkView ReadFrameworkView(const std::vector<const Node*>& copies, std::string_view name,
                                Diagnosis* d) {
  const Node& object = *copies.back();
  FrameworkView v;
  v.fw = DecodeFramework(object);
  d->kind = kFrameworkKind;
  d->api_version = kFrameworkApiVersion;
  d->namespace_name = std::string(ObjectNamespace(object));
  d->name = std::string(name);
  v.status = object.Find("status");
  if (v.status == nullptr || !v.status->is_map()) {
    d->notes.push_back("status is missing: the controller has not synced the Framework yet");
  }
  v.state = std::string(StringValue(FindPath(v.status, {"state"})));
  if (v.status != nullptr && v.status->is_map() && v.state.empty())
    d->notes.push_back("status.state is missing");
  v.counters = ReadCounters(FindPath(v.status, {"retryPolicyStatus"}));
  for (const Node* copy : copies) ReadSnapshot(v.fw, *copy, &v.attempts);
  if (copies.size() > 1) {
    d->notes.push_back(std::to_string(copies.size()) +
                       " copies of the Framework in the dump: the history is what they show");
  }
  v.current_id = v.attempts.empty() ? 0 : v.attempts.rbegin()->first;
  return v;
}

// Adds a note to `d` for the FrameworkAttempts before the current one that no copy shows.
void NoteMissingAttempts(const FrameworkView& v, Diagnosis* d) {
  std::vector<int64_t> missing;
  for (int64_t id = 0; id < v.current_id; ++id)
    if (!v.attempts.count(id)) missing.push_back(id);
  if (missing.empty()) return;
  d->notes.push_back(
      std::to_string(missing.size()) + " FrameworkAttempt(s) before " +
      std::to_string(v.current_id) +
      " are not in the dump: a Framework's status keeps only the current attempt (record it "
      "with --watch to see every attempt)");
}

// The task attempts of `seen` that completed (not by the controller's own codes), in time
// order; notes in `history` the earlier task attempts no copy shows.
std::vector<const TaskAttemptSeen*> CompletedTasks(const Framework& fw,
                                                   const FrameworkAttemptSeen& seen, int64_t id,
                                                   FrameworkHistory* history) {
  std::vector<const TaskAttemptSeen*> done;
  for (const auto& [key, t] : seen.tasks) {
    if (t.completed && !ControllerCode(t.status.code)) done.push_back(&t);
    for (int64_t k = 0; k < t.attempt; ++k) {
      if (!seen.tasks.count(std::make_tuple(t.role, t.index, k))) {
        history->missing_tasks.push_back(fw.task_roles[t.role].name + "/" +
                                         std::to_string(t.index) + " attempt " + std::to_string(k) +
                                         " (FrameworkAttempt " + std::to_string(id) + ")");
      }
    }
  }
  std::stable_sort(done.begin(), done.end(),
                   [](const TaskAttemptSeen* x, const TaskAttemptSeen* y) {
                     return x->ended != y->ended && KubeTimeBefore(x->ended, y->ended);
                   });
  return done;
}

// The task completions of one FrameworkAttempt, decided again: their counts, the completion
// policy's verdict and the task that triggered it, and how many tasks failed.
struct TaskVerdicts {
  CompletionCounts counts;
  AttemptVerdict computed;
  std::string computed_trigger;
  int64_t failed_tasks = 0;
};

// Decides task completion `t` of attempt `id` again (task retry or TaskCompleted, then the
// completion policy): adds its cause to `a` (and names `a` after the first failure) and
// tallies `verdicts` and `history`.
void DecideTask(const FrameworkView& v, const TaskAttemptSeen& t, int64_t id, Attempt* a,
                TaskVerdicts* verdicts, FrameworkHistory* history) {
  const FrameworkTaskRole& role = v.fw.task_roles[t.role];
  const std::string task = role.name + "/" + std::to_string(t.index);
  RetryDecision decision = ShouldRetry(role.retry, t.status, t.before, 0, 0);
  RetryCounters after = t.before;
  std::string what;
  if (decision.should_retry) {
    ++after.total;
    if (decision.accountable) ++after.accountable;
    what = "task retry -> attempt " + std::to_string(after.total) + " (" +
           CountedWords(decision, after, Limit(role.retry)) + ")";
    if (!decision.accountable) ++history->free_retries;
    if (id == v.current_id) history->task_retried_now = true;
  } else {
    what = "no task retry -> TaskCompleted";
    CountCompletion(&verdicts->counts, static_cast<size_t>(t.role), t.status);
    AttemptVerdict verdict =
        CheckCompletionPolicy(v.fw, verdicts->counts, static_cast<size_t>(t.role), t.status);
    if (verdict.complete && !verdicts->computed.complete) {
      verdicts->computed = verdict;
      verdicts->computed_trigger = task;
    }
  }
  FailureCause cause;
  cause.object = "Pod " + (t.pod.empty() ? FrameworkPodName(v.fw, role.name, t.index) : t.pod);
  cause.category = Category(t.status);
  cause.text = "task " + task + " attempt " + std::to_string(t.attempt) + ": " +
               CompletionText(t.status) + (t.detail.empty() ? "" : ", " + t.detail) +
               (t.node.empty() ? "" : " on node " + t.node) + "; " + what + ": " + decision.reason;
  if (!t.status.type.succeeded) {
    ++verdicts->failed_tasks;
    history->codes_by_task[{t.role, t.index}].push_back(CompletionText(t.status));
    if (cause.category == "infrastructure" && decision.should_retry) {
      ++history->infra;
      history->infra_examples.push_back(task + " " + std::to_string(t.status.code) + " " +
                                        t.status.phrase);
    }
    if (a->failed.empty()) {
      a->failed = cause.object + " (task " + task + ", attempt " + std::to_string(t.attempt) + ")";
      a->reason = CompletionText(t.status);
      a->message = t.diagnostics.empty() ? t.detail : t.diagnostics;
      a->rule = "task retryPolicy of " + role.name + " (" + PolicyWords(role.retry) + ")";
      a->action = decision.should_retry ? "retry the task" : "complete the task";
      a->counted = decision.accountable;
    }
  }
  a->causes.push_back(std::move(cause));
}

// Decides completed FrameworkAttempt `seen` again (the framework's retry policy): sets the rule,
// action and outcome of `a` and tallies `history` (retries, restart loops, the gap to the next
// attempt, a success despite failed tasks).
void DecideFrameworkAttempt(const FrameworkView& v, const FrameworkAttemptSeen& seen,
                            const TaskVerdicts& verdicts, Attempt* a, FrameworkHistory* history) {
  const Framework& fw = v.fw;
  const int64_t id = seen.id;
  RetryDecision decision =
      ShouldRetry(fw.retry, seen.status, seen.before, kFrameworkMinConflictDelaySec,
                  kFrameworkMaxConflictDelaySec);
  RetryCounters after = seen.before;
  if (decision.should_retry) {
    ++after.total;
    if (decision.accountable) ++after.accountable;
  }
  std::string trigger =
      seen.trigger_message.empty() ? verdicts.computed.message : seen.trigger_message;
  std::string trigger_task =
      seen.trigger_role.empty()
          ? verdicts.computed_trigger
          : seen.trigger_role + "/" + std::to_string(std::max<int64_t>(seen.trigger_index, 0));
  if (seen.status.code == -210) {
    a->rule = "executionType Stop";
  } else if (!trigger.empty()) {
    a->rule = "FrameworkAttemptCompletionPolicy: " + trigger +
              (trigger_task.empty() ? "" : " (task " + trigger_task + ")");
  }
  if (a->failed.empty() && !seen.status.type.succeeded) {
    a->reason = CompletionText(seen.status);
    a->message = seen.diagnostics;
  }
  a->action = decision.should_retry ? "retry the Framework" : "complete the Framework";
  a->counted = decision.accountable;
  a->outcome = decision.should_retry
                   ? "retried -> FrameworkAttempt " + std::to_string(after.total) +
                         DelayWords(decision, seen.retry_delay) + " (" +
                         CountedWords(decision, after, Limit(fw.retry)) + "): " + decision.reason
                   : "Completed " +
                         std::string(seen.status.type.succeeded ? "Succeeded" : "Failed") + ": " +
                         CompletionText(seen.status) + ": " + decision.reason;
  if (decision.should_retry) {
    if (!decision.accountable) ++history->free_retries;
    if (Category(seen.status) == "infrastructure") ++history->infra;
    history->attempt_codes[seen.status.code].push_back(id);
    auto next = v.attempts.find(id + 1);
    if (next != v.attempts.end()) history->gaps.emplace_back(seen.ended, next->second.started);
  }
  if (id == v.current_id) history->will_retry = decision.should_retry;
  if (seen.status.type.succeeded && verdicts.failed_tasks > 0 && seen.status.code == 0 &&
      seen.trigger_message.rfind("CompletedTaskCount", 0) == 0) {
    history->false_success.push_back("FrameworkAttempt " + std::to_string(id) +
                                     " completed Succeeded "
                                     "though " +
                                     std::to_string(verdicts.failed_tasks) + " task(s) failed");
  }
}

// The attempt FrameworkAttempt `seen` was: its task completions and, when it completed, the
// framework's decision on it.
Attempt AttemptOf(const FrameworkView& v, const FrameworkAttemptSeen& seen,
                  FrameworkHistory* history) {
  Attempt a;
  a.number = seen.id;
  a.started = seen.started;
  a.ended = seen.ended;
  TaskVerdicts verdicts;
  verdicts.counts = FreshCompletionCounts(v.fw);
  for (const TaskAttemptSeen* t : CompletedTasks(v.fw, seen, seen.id, history)) {
    DecideTask(v, *t, seen.id, &a, &verdicts, history);
  }
  if (seen.id == v.current_id) history->current_counts = verdicts.counts;
  if (seen.completed) {
    DecideFrameworkAttempt(v, seen, verdicts, &a, history);
  } else {
    a.outcome = v.state.empty() ? "running" : v.state;
  }
  return a;
}

// Adds one attempt per FrameworkAttempt up to the current one to the timeline of `d` (those
// no copy shows as "not in the dump"), and a note for the task attempts no copy shows.
FrameworkHistory AddTimeline(const FrameworkView& v, Diagnosis* d) {
  FrameworkHistory history;
  history.current_counts = FreshCompletionCounts(v.fw);
  for (int64_t id = 0; id <= v.current_id && !v.attempts.empty(); ++id) {
    auto found = v.attempts.find(id);
    if (found == v.attempts.end()) {
      Attempt a;
      a.number = id;
      a.outcome = "retried (not in the dump)";
      d->timeline.push_back(std::move(a));
      continue;
    }
    d->timeline.push_back(AttemptOf(v, found->second, &history));
  }
  if (!history.missing_tasks.empty()) {
    d->notes.push_back("task attempts not in the dump: " + Join(history.missing_tasks));
  }
  return history;
}

// The current FrameworkAttempt as the copies show it, or nullptr.
const FrameworkAttemptSeen* CurrentAttempt(const FrameworkView& v) {
  auto it = v.attempts.find(v.current_id);
  return it == v.attempts.end() ? nullptr : &it->second;
}

// Sets the health, the state line and the conditions of `d`: the state, the current attempt's
// completion, accountableRetriedCount against maxRetryCount, the retry delay.
void AddHealthAndState(const FrameworkView& v, const FrameworkHistory& history, Diagnosis* d) {
  const Framework& fw = v.fw;
  const FrameworkAttemptSeen* current = CurrentAttempt(v);
  d->health =
      HealthOf(v.state, current, history.will_retry, history.task_retried_now, fw.execution_type);
  d->state = v.state.empty() ? "Unknown" : v.state;
  if (current != nullptr && current->completed) d->state += ": " + CompletionText(current->status);
  if (current != nullptr && current->completed && !current->trigger_message.empty())
    d->state += " (" + current->trigger_message + ")";
  d->state +=
      "; FrameworkAttempt " + std::to_string(v.current_id) + ", accountableRetriedCount " +
      std::to_string(v.counters.accountable) + " of " +
      (Limit(fw.retry) < 0 ? std::string("unlimited") : std::to_string(fw.retry.max_retry_count));
  if (const Node* rps = FindPath(v.status, {"retryPolicyStatus"}); rps != nullptr) {
    int64_t delay = 0;
    if (IntValue(rps->Find("retryDelaySec"), &delay))
      d->state += "; next attempt after " + std::to_string(delay) + "s";
  }
  if (!fw.execution_type.empty()) d->conditions.push_back("executionType " + fw.execution_type);
  if (std::string t = std::string(StringValue(FindPath(v.status, {"transitionTime"}))); !t.empty())
    d->conditions.push_back((v.state.empty() ? std::string("Unknown") : v.state) + " since " + t);
}

// Adds the budgets to `d`: the framework's accountableRetriedCount against its retry policy,
// and each retried task of the current attempt's (which resets with every FrameworkAttempt).
void AddBudgets(const FrameworkView& v, Diagnosis* d) {
  const Framework& fw = v.fw;
  BudgetCounter budget{"", "accountableRetriedCount", v.counters.accountable, Limit(fw.retry), ""};
  budget.note = "totalRetriedCount " + std::to_string(v.counters.total) + " (" +
                std::to_string(v.counters.total - v.counters.accountable) + " not counted); " +
                PolicyWords(fw.retry) +
                (fw.retry.max_retry_count == -2   ? ": retries after success too"
                 : fw.retry.max_retry_count == -1 ? ": retries every failure"
                                                  : "");
  d->budgets.push_back(std::move(budget));
  const FrameworkAttemptSeen* current = CurrentAttempt(v);
  if (current == nullptr) return;
  std::set<std::pair<int, int64_t>> listed;
  for (auto it = current->tasks.rbegin(); it != current->tasks.rend(); ++it) {
    const TaskAttemptSeen& t = it->second;
    if (t.attempt == 0 || !listed.insert({t.role, t.index}).second) continue;
    const FrameworkTaskRole& role = fw.task_roles[t.role];
    d->budgets.push_back({role.name + "/" + std::to_string(t.index), "accountableRetriedCount",
                          t.before.accountable, Limit(role.retry),
                          "task attempt " + std::to_string(t.attempt) + " (totalRetriedCount " +
                              std::to_string(t.before.total) +
                              "); resets with every FrameworkAttempt"});
  }
}

// What one more completion of class `sample` of a task of role `r` (at `counters`) does:
// a task retry, or TaskCompleted and what the completion policy and the framework's retry
// policy then decide.
NextStep NextForSample(const FrameworkView& v, const FrameworkHistory& history, size_t r,
                       int64_t index, const RetryCounters& counters, const Sample& sample) {
  const Framework& fw = v.fw;
  const FrameworkTaskRole& role = fw.task_roles[r];
  NextStep n;
  n.scope = role.name + "/" + std::to_string(index);
  n.reason = sample.words;
  RetryDecision decision = ShouldRetry(role.retry, sample.status, counters, 0, 0);
  n.rule = "task retryPolicy (" + PolicyWords(role.retry) + "): " + decision.reason;
  if (decision.should_retry) {
    RetryCounters after = counters;
    ++after.total;
    if (decision.accountable) ++after.accountable;
    n.action = "retry the task";
    n.counts = decision.accountable;
    n.effect = "task attempt " + std::to_string(after.total) + " (" +
               CountedWords(decision, after, Limit(role.retry)) + ")";
    return n;
  }
  n.action = "complete the task";
  CompletionCounts counts = history.current_counts;
  CountCompletion(&counts, r, sample.status);
  AttemptVerdict verdict = CheckCompletionPolicy(fw, counts, r, sample.status);
  if (!verdict.complete) {
    n.effect = "the FrameworkAttempt goes on (" + std::to_string(counts.completed) + " of " +
               std::to_string(counts.total) + " tasks completed)";
    return n;
  }
  RetryDecision fwd = ShouldRetry(fw.retry, verdict.status, v.counters,
                                  kFrameworkMinConflictDelaySec, kFrameworkMaxConflictDelaySec);
  RetryCounters after = v.counters;
  if (fwd.should_retry) {
    ++after.total;
    if (fwd.accountable) ++after.accountable;
  }
  n.counts = fwd.should_retry && fwd.accountable;
  n.effect = verdict.message + ": the FrameworkAttempt completes " +
             (verdict.status.type.succeeded ? "Succeeded" : "Failed") + "; " +
             (fwd.should_retry ? "the Framework retries it (FrameworkAttempt " +
                                     std::to_string(after.total) + DelayWords(fwd, std::nullopt) +
                                     ", " + CountedWords(fwd, after, Limit(fw.retry)) + ")"
                               : "the Framework completes: " + fwd.reason);
  return n;
}

// Adds to `d` what one more completion of each class would do to each task role (its running
// task with the most counted retries, the nearest to its limit); for a completed Framework or
// attempt, a note instead.
void AddWhatHappensNext(const FrameworkView& v, const FrameworkHistory& history, Diagnosis* d) {
  const FrameworkAttemptSeen* current = CurrentAttempt(v);
  if (v.state == "Completed") {
    d->notes.push_back("the Framework is Completed: final, nothing happens next");
    return;
  }
  if (current == nullptr) return;
  if (current->completed) {
    d->notes.push_back(
        "FrameworkAttempt " + std::to_string(v.current_id) + " is completed: " +
        (history.will_retry ? "the next thing is its retry" : "the Framework completes"));
    return;
  }
  for (size_t r = 0; r < v.fw.task_roles.size(); ++r) {
    const TaskAttemptSeen* pick = nullptr;
    for (const auto& [key, t] : current->tasks) {
      if (t.role != static_cast<int>(r) || t.completed) continue;
      if (pick == nullptr || t.before.accountable > pick->before.accountable) pick = &t;
    }
    if (pick == nullptr && v.fw.task_roles[r].task_number <= 0) continue;
    const RetryCounters counters = pick != nullptr ? pick->before : RetryCounters{};
    const int64_t index = pick != nullptr ? pick->index : 0;
    for (const Sample& sample : Samples()) {
      d->next.push_back(NextForSample(v, history, r, index, counters, sample));
    }
  }
}

// Adds the restart-loop hazards: a task that completed the same way more than once, and
// FrameworkAttempts retried after the same code.
void AddRestartLoops(const Framework& fw, const FrameworkHistory& history, Diagnosis* d) {
  for (const auto& [task, codes] : history.codes_by_task) {
    std::map<std::string, int> same;
    for (const std::string& c : codes) ++same[c];
    for (const auto& [code, n] : same) {
      if (n < 2) continue;
      d->hazards.push_back({"restart-loop", "task " + fw.task_roles[task.first].name + "/" +
                                                std::to_string(task.second) + " completed " +
                                                std::to_string(n) + " times with " + code +
                                                ": a retry does not change the outcome"});
    }
  }
  for (const auto& [code, ids] : history.attempt_codes) {
    if (ids.size() < 2) continue;
    d->hazards.push_back({"restart-loop", std::to_string(ids.size()) +
                                              " FrameworkAttempts ended with code " +
                                              std::to_string(code) + " and were retried"});
  }
}

// Adds the restart-time hazard: how long the framework's retries took, from each attempt's
// completion to the next attempt's start.
void AddRestartTime(const FrameworkHistory& history, Diagnosis* d) {
  int64_t gap_seconds = 0;
  int timed = 0;
  for (const auto& [ended, started] : history.gaps) {
    int64_t seconds = 0;
    if (KubeTimeSpan(ended, started, &seconds)) {
      gap_seconds += seconds;
      ++timed;
    }
  }
  if (timed == 0) return;
  d->hazards.push_back({"restart-time", std::to_string(timed) + " framework retr" +
                                            (timed == 1 ? "y" : "ies") + " took " +
                                            FormatDuration(static_cast<double>(gap_seconds)) +
                                            " from the attempt's completion to the next start"});
}

// Adds the pods-pending hazard: the Framework's Pods (label FC_FRAMEWORK_NAME) that are
// Pending now, with why.
void AddPendingPods(const WorkloadDump& dump, std::string_view name, Diagnosis* d) {
  std::vector<std::string> pending;
  for (const Node* o : ObjectsOfKind(dump, "", "Pod")) {
    if (LabelOf(*o, "FC_FRAMEWORK_NAME") != name) continue;
    if (!d->namespace_name.empty() && !ObjectNamespace(*o).empty() &&
        ObjectNamespace(*o) != d->namespace_name)
      continue;
    if (StringValue(FindPath(o, {"status", "phase"})) != "Pending") continue;
    std::string why = UnscheduledReason(*o);
    pending.push_back(std::string(ObjectName(*o)) + (why.empty() ? "" : " (" + why + ")"));
  }
  if (pending.empty()) return;
  d->hazards.push_back(
      {"pods-pending", std::to_string(pending.size()) + " pod(s) Pending: " + Join(pending)});
}

// Adds the hazards of the history to `d`: restart loops, retries after infrastructure
// failures, retries that did not count, successes despite failed tasks, the time retries took,
// and Pending pods.
void AddHazards(const WorkloadDump& dump, std::string_view name, const FrameworkView& v,
                const FrameworkHistory& history, Diagnosis* d) {
  AddRestartLoops(v.fw, history, d);
  if (history.infra > 0) {
    d->hazards.push_back(
        {"infrastructure-restarts",
         std::to_string(history.infra) + (history.infra == 1 ? " retry" : " retries") +
             " followed failures of the pod's environment, not of its containers" +
             (history.infra_examples.empty() ? "" : " (" + Join(history.infra_examples) + ")")});
  }
  if (history.free_retries > 0) {
    d->hazards.push_back(
        {"free-retries", std::to_string(history.free_retries) +
                             (history.free_retries == 1 ? " retry was" : " retries were") +
                             " not counted (Transient failures under "
                             "fancyRetryPolicy): maxRetryCount does not bound them"});
  }
  for (const std::string& f : history.false_success) {
    d->hazards.push_back({"success-despite-failures",
                          f + ": no task role has minFailedTaskCount >= 1, so the attempt "
                              "succeeds once every task completed"});
  }
  AddRestartTime(history, d);
  AddPendingPods(dump, name, d);
}

}  // namespace

bool DiagnoseFramework(const WorkloadDump& dump, std::string_view name, Diagnosis* out,
                       std::string* error) {
  const std::vector<const Node*> copies = FrameworkCopies(dump, name);
  if (copies.empty()) {
    *error = "no Framework (" + std::string(kFrameworkApiVersion) + ") named '" +
             std::string(name) + "' in the dump";
    return false;
  }
  const Node* roles_node = FindSeq(copies.back()->Find("spec"), "taskRoles");
  if (roles_node == nullptr || roles_node->items.empty()) {
    *error = "Framework " + std::string(name) + ": spec.taskRoles is missing or empty";
    return false;
  }
  Diagnosis d;
  const FrameworkView view = ReadFrameworkView(copies, name, &d);
  NoteMissingAttempts(view, &d);
  const FrameworkHistory history = AddTimeline(view, &d);
  AddHealthAndState(view, history, &d);
  AddBudgets(view, &d);
  AddWhatHappensNext(view, history, &d);
  AddHazards(dump, name, view, history, &d);
  *out = std::move(d);
  return true;
}

}  // namespace jobset
