#include "cmd/framework_commands.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cmd/monte_carlo_flags.h"
#include "cmd/simulate_inputs.h"
#include "cmd/text_table.h"
#include "validation/core/loader.h"
#include "validation/framework/explain.h"
#include "validation/framework/lint.h"
#include "validation/framework/monte_carlo.h"
#include "validation/framework/replay.h"
#include "validation/framework/text.h"
#include "validation/lint/lint.h"

namespace jobset {
namespace {

using json = nlohmann::ordered_json;

// Says on `err` when the API server would reject the Framework (lint errors).
void NoteLintErrors(const Node& object, const std::string& file, const Framework& fw,
                    std::ostream& err) {
  int errors = 0;
  for (const Finding& f : LintFramework(object)) errors += f.severity == Severity::kError;
  if (errors > 0) {
    err << "warning: " << file << ": Framework " << fw.name << " has " << errors
        << " lint error(s): the API server would reject it (run kubectl jobset lint)\n";
  }
}

// ---- explain ---------------------------------------------------------------------------------

std::string DecisionWords(const ClassDecision& d) {
  if (!d.retry) return "done";
  if (!d.accountable) return "retry (free)";
  return d.limit ? "retry* (max " + std::to_string(*d.limit) + ")" : "retry* (always)";
}

std::string TypeOrDash(const std::string& t) { return t.empty() ? "(not in the table)" : t; }

std::string CountText(int64_t value, bool set) { return set ? std::to_string(value) : "omitted"; }

std::string FailsWords(const RoleCompletion& rc) {
  if (rc.fails_at) return "at " + std::to_string(*rc.fails_at) + " failed";
  return "never (" + rc.failed_off + ")";
}

std::string SucceedsWords(const RoleCompletion& rc) {
  if (rc.succeeds_at) return "at " + std::to_string(*rc.succeeds_at) + " succeeded";
  return "never (" + rc.succeeded_off + ")";
}

json DecisionJson(const ClassDecision& d) {
  return json{{"completion", FailureClassName(d.cls)},
              {"retry", d.retry},
              {"accountable", d.accountable},
              {"limit", d.limit ? json(*d.limit) : json(nullptr)}};
}

json OutcomeJson(const AllTasksOutcome& o) {
  if (!o.completes) return json{{"completes", false}};
  return json{{"completes", true},
              {"completionCode", o.verdict.status.code},
              {"completionType", o.verdict.status.type.succeeded ? "Succeeded" : "Failed"},
              {"message", o.verdict.message},
              {"frameworkRetry", o.framework.should_retry},
              {"frameworkRetryAccountable", o.framework.accountable}};
}

json ExplanationJson(const Framework& fw, const FrameworkExplanation& e) {
  json retry = json::array();
  for (const RetryExplanation& r : e.retry) {
    json decisions = json::array();
    for (const ClassDecision& d : r.decisions) decisions.push_back(DecisionJson(d));
    retry.push_back({{"scope", r.scope == "framework" ? "framework" : "task"},
                     {"taskRole", r.scope == "framework" ? json(nullptr) : json(r.scope)},
                     {"fancyRetryPolicy", r.policy.fancy},
                     {"maxRetryCount", r.policy.max_retry_count},
                     {"manualType", r.manual_type.empty() ? json(nullptr) : json(r.manual_type)},
                     {"decisions", std::move(decisions)}});
  }
  json roles = json::array();
  for (const RoleCompletion& rc : e.roles) {
    const FrameworkCompletionPolicy& c = rc.role->completion;
    roles.push_back(
        {{"name", rc.role->name},
         {"taskNumber", rc.role->task_number},
         {"minFailedTaskCount", c.min_failed_set ? json(c.min_failed) : json(nullptr)},
         {"minSucceededTaskCount", c.min_succeeded_set ? json(c.min_succeeded) : json(nullptr)},
         {"failsAttemptAt", rc.fails_at ? json(*rc.fails_at) : json(nullptr)},
         {"succeedsAttemptAt", rc.succeeds_at ? json(*rc.succeeds_at) : json(nullptr)}});
  }
  json o;
  o["apiVersion"] = kFrameworkApiVersion;
  o["kind"] = kFrameworkKind;
  o["name"] = fw.name;
  o["executionType"] = fw.execution_type;
  o["frameworkType"] = {
      {"retry", e.retry_type.empty() ? json(nullptr) : json(e.retry_type)},
      {"completion", e.completion_type.empty() ? json(nullptr) : json(e.completion_type)}};
  o["retryPolicies"] = std::move(retry);
  o["taskRoles"] = std::move(roles);
  o["ifAllTasksFail"] = OutcomeJson(e.all_fail);
  o["ifAllTasksSucceed"] = OutcomeJson(e.all_succeed);
  o["summary"] = e.summary;
  return o;
}

void ExplanationText(const Framework& fw, const FrameworkExplanation& e, bool md,
                     std::ostream& out) {
  out << (md ? "### " : "") << "Framework " << fw.name << " (executionType "
      << (fw.execution_type.empty() ? "omitted: Start" : fw.execution_type) << ")\n\n";
  out << (md ? "" : "  ") << "FrameworkType in the manual's tables: retry "
      << (e.retry_type.empty() ? "(no single row: see each policy)" : e.retry_type)
      << ", completion " << TypeOrDash(e.completion_type) << "\n\n";
  std::vector<std::vector<std::string>> retry = {{"RETRY POLICY", "FANCY", "MAX", "MANUAL TYPE",
                                                  "SUCCEEDED", "TRANSIENT", "PERMANENT",
                                                  "UNKNOWN"}};
  for (const RetryExplanation& r : e.retry) {
    std::vector<std::string> line = {
        r.scope == "framework" ? "framework" : "task " + r.scope, r.policy.fancy ? "true" : "false",
        std::to_string(r.policy.max_retry_count), TypeOrDash(r.manual_type)};
    for (const ClassDecision& d : r.decisions) line.push_back(DecisionWords(d));
    retry.push_back(std::move(line));
  }
  PrintTable(retry, md, out);
  out << "\n";
  std::vector<std::vector<std::string>> roles = {
      {"TASK ROLE", "TASKS", "MIN FAILED", "MIN SUCCEEDED", "ATTEMPT FAILS", "ATTEMPT SUCCEEDS"}};
  for (const RoleCompletion& rc : e.roles) {
    const FrameworkCompletionPolicy& c = rc.role->completion;
    roles.push_back({rc.role->name, std::to_string(rc.role->task_number),
                     CountText(c.min_failed, c.min_failed_set),
                     CountText(c.min_succeeded, c.min_succeeded_set), FailsWords(rc),
                     SucceedsWords(rc)});
  }
  if (!e.roles.empty()) {
    PrintTable(roles, md, out);
    out << "\n";
  }
  if (md) {
    out << "`*` counts against maxRetryCount; `(free)` does not; `done`: the task (or the "
           "Framework) completes with that status. Otherwise the FrameworkAttempt succeeds when "
           "every task has completed.\n\n";
  } else {
    out << "  * counts against maxRetryCount, (free) does not; done: the task (or the Framework) "
           "completes with\n  that status; otherwise the FrameworkAttempt succeeds when every "
           "task has completed\n\n";
  }
  for (const std::string& line : e.summary) out << (md ? "- " : "  - ") << line << "\n";
  out << "\n";
}

// ---- simulate --------------------------------------------------------------------------------

std::string DelayText(const RetryDecision& d) {
  if (d.delay_max == 0) return "";
  return " after " + std::to_string(d.delay_min) + "-" + std::to_string(d.delay_max) + "s";
}

json StatusJson(const CompletionStatus& s) {
  json attrs = json::array();
  if (s.type.transient) attrs.push_back("Transient");
  if (s.type.permanent) attrs.push_back("Permanent");
  if (s.type.conflict) attrs.push_back("Conflict");
  return json{
      {"code", s.code},
      {"phrase", s.phrase},
      {"type", {{"name", s.type.succeeded ? "Succeeded" : "Failed"}, {"attributes", attrs}}}};
}

json AttemptJson(const AttemptCompletionEvent& a) {
  json j = {{"frameworkAttemptId", a.framework_attempt_id}};
  j.update(StatusJson(a.status));
  j["message"] = a.message;
  j["triggerTask"] = a.trigger_role.empty()
                         ? json(nullptr)
                         : json(a.trigger_role + "/" + std::to_string(a.trigger_index));
  j["stoppedTasks"] = a.stopped;
  j["retry"] = a.decision.should_retry;
  j["accountable"] = a.decision.accountable;
  j["retryDelaySec"] = a.decision.delay_max == 0
                           ? json(0)
                           : json{{"min", a.decision.delay_min}, {"max", a.decision.delay_max}};
  j["reason"] = a.decision.reason;
  j["retriedCount"] = a.counters.total;
  j["accountableRetriedCount"] = a.counters.accountable;
  return j;
}

json ReplayJson(const Framework& fw, const FrameworkReplayResult& r) {
  json steps = json::array();
  for (const FrameworkReplayStep& s : r.steps) {
    json events = json::array();
    for (const TaskCompletionEvent& e : s.events) {
      json j = {{"task", e.role + "/" + std::to_string(e.index)}, {"pod", e.pod}};
      j.update(StatusJson(e.status));
      j["frameworkAttemptId"] = e.framework_attempt_id;
      j["taskAttemptId"] = e.task_attempt_id;
      if (e.ignored) {
        j["ignored"] = e.ignored_why;
      } else {
        j["retry"] = e.decision.should_retry;
        j["accountable"] = e.decision.accountable;
        j["reason"] = e.decision.reason;
        j["taskRetriedCount"] = e.counters.total;
        j["taskAccountableRetriedCount"] = e.counters.accountable;
      }
      events.push_back(std::move(j));
    }
    json attempts = json::array();
    for (const AttemptCompletionEvent& a : s.attempts) attempts.push_back(AttemptJson(a));
    steps.push_back({{"completed", std::move(events)},
                     {"frameworkAttemptsCompleted", std::move(attempts)},
                     {"state", s.state}});
  }
  json final = {{"state", r.state},
                {"frameworkAttemptId", r.counters.total},
                {"retriedCount", r.counters.total},
                {"accountableRetriedCount", r.counters.accountable},
                {"maxRetryCount", fw.retry.max_retry_count}};
  if (r.completed) {
    final.update(StatusJson(r.final_attempt.status));
    final["message"] = r.final_attempt.message;
  }
  json tasks = json::object();
  for (size_t role = 0; role < r.tasks.size(); ++role) {
    json list = json::array();
    for (const SimTask& t : r.tasks[role]) {
      json j = {{"completed", t.completed},
                {"retriedCount", t.counters.total},
                {"accountableRetriedCount", t.counters.accountable}};
      if (t.completed) j["code"] = t.status.code;
      list.push_back(std::move(j));
    }
    tasks[fw.task_roles[role].name] = std::move(list);
  }
  final["tasks"] = std::move(tasks);
  json j = {{"steps", std::move(steps)}, {"final", std::move(final)}};
  if (!r.at_start.empty()) j["atStart"] = AttemptJson(r.at_start[0]);
  return j;
}

void AttemptText(const AttemptCompletionEvent& a, int64_t max, std::ostream& out) {
  out << "      FrameworkAttempt " << a.framework_attempt_id
      << " completed: " << CompletionText(a.status) << ": " << a.message;
  if (!a.trigger_role.empty()) out << " (task " << a.trigger_role << "/" << a.trigger_index << ")";
  out << "\n";
  if (!a.stopped.empty()) {
    out << "        running tasks completed with -220 FrameworkAttemptCompletion: ";
    for (size_t i = 0; i < a.stopped.size(); ++i) out << (i ? ", " : "") << a.stopped[i];
    out << "\n";
  }
  out << "        framework: ";
  if (a.decision.should_retry) {
    out << "retry -> FrameworkAttempt " << a.counters.total << DelayText(a.decision)
        << (a.decision.accountable
                ? " (counted " + std::to_string(a.counters.accountable) + " of " +
                      (max < 0 ? std::string("unlimited") : std::to_string(max)) + ")"
                : " (free)");
  } else {
    out << "no retry -> Completed";
  }
  out << ": " << a.decision.reason << "\n";
}

void ReplayText(const Framework& fw, const FrameworkReplayResult& r, std::ostream& out) {
  if (!r.at_start.empty()) {
    out << "before step 1 (executionType Stop):\n";
    AttemptText(r.at_start[0], fw.retry.max_retry_count, out);
  }
  for (size_t i = 0; i < r.steps.size(); ++i) {
    const FrameworkReplayStep& s = r.steps[i];
    bool first = true;
    for (const TaskCompletionEvent& e : s.events) {
      out << (first ? "step " + std::to_string(i + 1) + ": " : "        ") << e.pod << " ("
          << e.role << "/" << e.index << ", task attempt " << e.task_attempt_id
          << ", FrameworkAttempt " << e.framework_attempt_id << ") " << CompletionText(e.status)
          << "\n";
      first = false;
      if (e.ignored) {
        out << "        ignored: " << e.ignored_why << "\n";
        continue;
      }
      out << "        task: ";
      if (e.decision.should_retry) {
        out << "retry -> task attempt " << e.counters.total
            << (e.decision.accountable ? " (counted " + std::to_string(e.counters.accountable) + ")"
                                       : " (free)");
      } else {
        out << "no retry -> TaskCompleted";
      }
      out << ": " << e.decision.reason << "\n";
      if (e.completed_attempt >= 0)
        AttemptText(s.attempts[static_cast<size_t>(e.completed_attempt)], fw.retry.max_retry_count,
                    out);
    }
  }
  out << "\nfinal: " << r.state;
  if (r.completed) {
    out << ", " << (r.final_attempt.status.type.succeeded ? "Succeeded" : "Failed") << ": "
        << CompletionText(r.final_attempt.status) << ": " << r.final_attempt.message;
  } else if (r.state == "AttemptRunning") {
    out << " (FrameworkAttempt " << r.counters.total << ")";
  }
  const int64_t max = fw.retry.max_retry_count;
  out << "\nframework retries " << r.counters.total << ", counted " << r.counters.accountable
      << " of " << (max < 0 ? std::string("unlimited") : std::to_string(max)) << " (maxRetryCount "
      << max << ")\n";
}

int MonteCarloFramework(const Node& object, const std::string& file, const SimulateFlags& flags,
                        std::ostream& out, std::ostream& err) {
  FrameworkFailureModel m;
  std::string error;
  if (!CheckModelFlagsOnly(flags, "a Framework", &error) ||
      !ReadModelFlags(flags, "", &m, &m.task_restart_time_s, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  m.faults = DefaultFrameworkFaultMix();
  if (!flags.fault_mix.empty() && !ParseFrameworkFaultMix(flags.fault_mix, &m.faults, &error)) {
    err << "error: --fault-mix " << error << "\n";
    return 2;
  }
  Framework fw = DecodeFramework(object);
  NoteLintErrors(object, file, fw, err);
  if (!WithinModelledPods(TotalTaskNumber(fw), "Framework " + fw.name, file, err)) return 2;
  InterruptScope interrupt;
  FrameworkMonteCarloResult r =
      RunFrameworkMonteCarlo(fw, m, flags.threads, interrupt.flag(), ProgressBar(fw.name, err));
  ClearProgress(err);
  if (!r.error.empty()) {
    err << "error: " << r.error << "\n";
    return 2;
  }
  if (r.cancelled) err << "interrupted: partial result\n";
  const FinishTimes& t = r.time_to_finish;
  if (flags.output == "json") {
    json mc = {
        {"runs", r.runs},
        {"nodes", r.nodes},
        {"pComplete", r.p_complete},
        {"pFail", r.p_fail},
        {"pStuck", r.p_stuck},
        {"pUnbounded", r.p_unbounded},
        {"pFalseSuccess", r.p_false_success},
        {"meanRestarts", r.mean_restarts},
        {"meanCountedRestarts", r.mean_counted_restarts},
        {"meanTaskRestarts", r.mean_task_restarts},
        {"meanFailures", r.mean_failures},
        {"meanWastedNodeHours", r.mean_wasted_node_hours},
        {"timeToFinish", {{"p50", t.p50}, {"p90", t.p90}, {"p99", t.p99}, {"mean", t.mean}}}};
    out << json{{"monteCarlo", mc}}.dump(2) << "\n";
    return r.cancelled ? 130 : 0;
  }
  auto pct = [](double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100 * p);
    return std::string(buf);
  };
  auto num = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return std::string(buf);
  };
  auto hours = [&](double s) { return num(s / 3600) + "h"; };
  out << "Framework " << fw.name << ": " << r.runs << " runs, " << r.nodes << " nodes\n"
      << "  completed " << pct(r.p_complete) << ", failed " << pct(r.p_fail)
      << ", stuck with a failed task " << pct(r.p_stuck) << ", Succeeded before the work was done "
      << pct(r.p_false_success) << ", never ending " << pct(r.p_unbounded) << "\n"
      << "  per run: " << num(r.mean_failures) << " node failures, " << num(r.mean_task_restarts)
      << " task retries, " << num(r.mean_restarts) << " framework retries ("
      << num(r.mean_counted_restarts) << " counted)\n"
      << "  wasted node-hours per finished run: " << num(r.mean_wasted_node_hours) << "\n";
  if (r.p_complete > 0) {
    out << "  time to finish: p50 " << hours(t.p50) << ", p90 " << hours(t.p90) << ", p99 "
        << hours(t.p99) << "\n";
  }
  return r.cancelled ? 130 : 0;
}

}  // namespace

int ExplainFramework(const Node& object, const std::string& file, const ExplainFlags& flags,
                     std::ostream& out, nlohmann::ordered_json* objects, std::ostream& err) {
  Framework fw = DecodeFramework(object);
  NoteLintErrors(object, file, fw, err);
  FrameworkExplanation e = ExplainFrameworkSpec(fw);
  if (flags.output == "json") {
    objects->push_back(ExplanationJson(fw, e));
  } else {
    ExplanationText(fw, e, flags.output == "markdown", out);
  }
  return 0;
}

int SimulateFramework(const Node& object, const std::string& file, const SimulateFlags& flags,
                      std::ostream& out, std::ostream& err) {
  if (flags.monte_carlo) return MonteCarloFramework(object, file, flags, out, err);
  std::vector<FrameworkStepSpec> steps;
  if (!ReadReplaySteps(flags.fail, flags.scenario, ParseFrameworkFailFlag, ParseFrameworkScenario,
                       &steps, err)) {
    return 2;
  }
  if (steps.empty()) {
    err << "error: nothing to simulate: give --fail TASKROLE/INDEX:CODE, --scenario or "
           "--monte-carlo\n";
    return 2;
  }
  Framework fw = DecodeFramework(object);
  NoteLintErrors(object, file, fw, err);
  if (!WithinModelledPods(TotalTaskNumber(fw), "Framework " + fw.name, file, err)) return 2;
  FrameworkReplayResult result;
  std::string error;
  if (!ReplayFramework(fw, steps, &result, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  if (flags.output == "json") {
    out << ReplayJson(fw, result).dump(2) << "\n";
  } else {
    ReplayText(fw, result, out);
  }
  return 0;
}

}  // namespace jobset
