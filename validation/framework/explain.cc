#include "validation/framework/explain.h"

#include <algorithm>

namespace jobset {
namespace {

// A sample completion of each class, as the retry algorithm sees it.
CompletionStatus Sample(FailureClass c) {
  switch (c) {
    case FailureClass::kSucceeded:
      return {0, "Succeeded", {true, false, false, false}};
    case FailureClass::kTransient:
      return {200, "ContainerTransientFailed", {false, true, false, false}};
    case FailureClass::kPermanent:
      return {210, "ContainerPermanentFailed", {false, false, true, false}};
    case FailureClass::kUnknown:
      break;
  }
  return {1, "ContainerUnrecognizedFailed", {false, false, false, false}};
}

constexpr FailureClass kClasses[] = {FailureClass::kSucceeded, FailureClass::kTransient,
                                     FailureClass::kPermanent, FailureClass::kUnknown};

RetryExplanation ExplainRetry(std::string scope, const FrameworkRetryPolicy& policy) {
  RetryExplanation e{std::move(scope), policy, RetryManualType(policy), {}};
  for (FailureClass c : kClasses) {
    RetryDecision d = ShouldRetry(policy, Sample(c), {}, 0, 0);
    ClassDecision cd{c, d.should_retry, d.accountable, std::nullopt};
    if (d.should_retry && d.accountable && policy.max_retry_count >= 0)
      cd.limit = policy.max_retry_count;
    e.decisions.push_back(cd);
  }
  return e;
}

// Why a count cannot trigger, or "" when it can.
std::string Off(int64_t count, bool set, int64_t task_number) {
  if (count >= 1 && count <= task_number) return "";
  if (count >= 1) return std::to_string(count) + " > taskNumber " + std::to_string(task_number);
  if (!set) return "omitted";
  return std::to_string(count);
}

// Whether a task whose every attempt ends as `c` ever reaches TaskCompleted.
bool TaskCompletes(const FrameworkRetryPolicy& p, FailureClass c) {
  if (c == FailureClass::kSucceeded) return p.max_retry_count != -2;
  return p.max_retry_count >= 0;  // Unknown failures: -1 and -2 retry them forever
}

AllTasksOutcome AllTasks(const Framework& fw, FailureClass c) {
  AllTasksOutcome o;
  o.no_tasks = TotalTaskNumber(fw) == 0;
  // Every task ends as `c`, role by role in order, until the attempt completes. Only the counts
  // matter, and the policy's conditions hold from a count on: at the task that brings the role's
  // count to its minimum, or the attempt's to the total. The tasks before it are counted at once,
  // so a role costs the same whatever its taskNumber.
  CompletionCounts counts = FreshCompletionCounts(fw);
  const CompletionStatus status = Sample(c);
  for (size_t r = 0; r < fw.task_roles.size() && !o.completes; ++r) {
    if (!TaskCompletes(fw.task_roles[r].retry, c)) continue;
    const FrameworkCompletionPolicy& policy = fw.task_roles[r].completion;
    const int64_t min_count = status.type.succeeded ? policy.min_succeeded : policy.min_failed;
    const int64_t n = std::max<int64_t>(fw.task_roles[r].task_number, 0);
    for (int64_t done = 0; done < n && !o.completes;) {
      int64_t stop = n - 1;  // The task (index in the role) to look at next.
      if (min_count - 1 >= done) stop = std::min(stop, min_count - 1);
      stop = std::min(stop, done + (counts.total - counts.completed - 1));
      const int64_t add = stop - done + 1;
      (status.type.succeeded ? counts.succeeded : counts.failed)[r] += add;
      counts.completed += add;
      done = stop + 1;
      o.verdict = CheckCompletionPolicy(fw, counts, r, status);
      o.completes = o.verdict.complete;
    }
  }
  if (o.completes) {
    o.framework = ShouldRetry(fw.retry, o.verdict.status, {}, kFrameworkMinConflictDelaySec,
                              kFrameworkMaxConflictDelaySec);
  }
  return o;
}

std::string CompletionManualType(const Framework& fw, const std::vector<RoleCompletion>& roles) {
  bool service = !fw.task_roles.empty(), defaults = true, mapreduce = true, first = true;
  int tf_roles = 0, arbitrators = 0, silent = 0;
  for (const RoleCompletion& rc : roles) {
    const FrameworkTaskRole& r = *rc.role;
    service = service && r.retry.max_retry_count == -2 && !r.retry.fancy;
    int64_t f = rc.fails_at.value_or(0), s = rc.succeeds_at.value_or(0);
    defaults = defaults && f == 1 && s == 0;
    mapreduce = mapreduce && f >= 1 && s == 0;
    first = first && f == 1 && s == 1;
    if (f == 1 && s >= 1 && s == r.task_number) ++tf_roles;
    if (f == 1 && s == 1 && r.task_number == 1) ++arbitrators;
    if (f == 0 && s == 0) ++silent;
  }
  const int n = static_cast<int>(roles.size());
  if (service) return "Service";
  if (n == 0) return "";
  if (defaults) return "DEFAULT";
  if (mapreduce) return "MapReduce";
  if (first) return "First Completed Task Dominated";
  if (arbitrators == 1 && silent == n - 1) return "Arbitrator Dominated";
  // TensorFlow: every role fails at 1; one role succeeds when all its tasks did.
  int fail_at_one = 0;
  for (const RoleCompletion& rc : roles) fail_at_one += rc.fails_at.value_or(0) == 1;
  int others_plain = 0;
  for (const RoleCompletion& rc : roles) others_plain += !rc.succeeds_at.has_value();
  if (fail_at_one == n && tf_roles == 1 && others_plain == n - 1) return "TensorFlow";
  return "";
}

std::string OutcomeWords(const AllTasksOutcome& o, int64_t max) {
  if (o.no_tasks)
    return "nothing happens: there is no task, and the FrameworkAttempt never completes";
  if (!o.completes) return "the FrameworkAttempt never completes (tasks are retried forever)";
  std::string s = o.verdict.status.type.succeeded
                      ? std::string("the FrameworkAttempt completes as Succeeded")
                      : "the FrameworkAttempt fails with the trigger task's code " +
                            std::to_string(o.verdict.status.code);
  s += " (" + o.verdict.message + "); ";
  if (!o.framework.should_retry) return s + "the Framework completes";
  if (!o.framework.accountable) return s + "the Framework retries it (free, without limit)";
  return s + "the Framework retries it (counted" +
         (max >= 0 ? ", at most " + std::to_string(max) + " times)" : ", without limit)");
}

}  // namespace

std::string RetryManualType(const FrameworkRetryPolicy& p) {
  const int64_t m = p.max_retry_count;
  if (!p.fancy && m == 0) return "DEFAULT";
  if (!p.fancy && m == -2) return "Service";
  if (!p.fancy && m == -1) return "Blind Batch";
  if (p.fancy && m >= 1) return "Batch with Task Fault Tolerance";
  if (p.fancy && m == 0) return "Debug Mode";
  return "";
}

FrameworkExplanation ExplainFrameworkSpec(const Framework& fw) {
  FrameworkExplanation e;
  e.retry.push_back(ExplainRetry("framework", fw.retry));
  for (const FrameworkTaskRole& r : fw.task_roles) {
    e.retry.push_back(ExplainRetry(r.name, r.retry));
    RoleCompletion rc;
    rc.role = &r;
    rc.failed_off = Off(r.completion.min_failed, r.completion.min_failed_set, r.task_number);
    rc.succeeded_off =
        Off(r.completion.min_succeeded, r.completion.min_succeeded_set, r.task_number);
    if (rc.failed_off.empty()) rc.fails_at = r.completion.min_failed;
    if (rc.succeeded_off.empty()) rc.succeeds_at = r.completion.min_succeeded;
    e.roles.push_back(std::move(rc));
  }
  // The whole Framework's retry row: one row everywhere, or the framework-only fault tolerance.
  const std::string fw_type = e.retry[0].manual_type;
  bool same = !fw_type.empty(), tasks_default = e.retry.size() > 1;
  for (size_t i = 1; i < e.retry.size(); ++i) {
    same = same && e.retry[i].manual_type == fw_type;
    tasks_default = tasks_default && e.retry[i].manual_type == "DEFAULT";
  }
  if (fw_type == "Batch with Task Fault Tolerance" && tasks_default)
    e.retry_type = "Batch without Task Fault Tolerance";
  else if (same)
    e.retry_type = fw_type;
  e.completion_type = CompletionManualType(fw, e.roles);
  e.all_fail = AllTasks(fw, FailureClass::kUnknown);
  e.all_succeed = AllTasks(fw, FailureClass::kSucceeded);

  // Plain-language consequences.
  if (fw.execution_type == "Create")
    e.summary.push_back("executionType Create: no pod runs until it is changed to Start");
  if (fw.execution_type == "Stop")
    e.summary.push_back(
        "executionType Stop: the Framework completes at once with -210 StopFrameworkRequested");
  if (fw.execution_type != "Stop") {
    e.summary.push_back("if every task fails (exit code 1, Unknown): " +
                        OutcomeWords(e.all_fail, fw.retry.max_retry_count));
    e.summary.push_back("if every task succeeds: " +
                        OutcomeWords(e.all_succeed, fw.retry.max_retry_count));
  }
  bool omitted = false;
  for (const RoleCompletion& rc : e.roles) omitted = omitted || rc.failed_off == "omitted";
  if (omitted) {
    e.summary.push_back(
        "omitted completion counts are 0 (disabled): the manual's italic defaults "
        "(minFailedTaskCount 1, minSucceededTaskCount -1) are not applied");
  }
  for (const RetryExplanation& r : e.retry) {
    const bool whole = r.scope == "framework";
    std::string who = whole ? "the Framework" : "tasks of `" + r.scope + "`";
    if (r.decisions[1].retry && !r.decisions[1].accountable) {
      e.summary.push_back(who + (whole ? " retries" : " retry") +
                          " Transient failures without limit (not counted)");
    }
    if (r.decisions[0].retry) {
      e.summary.push_back(who + (whole ? " reruns" : " rerun") +
                          " after success, forever (maxRetryCount -2)");
    }
  }
  const int64_t fw_max = fw.retry.max_retry_count;
  for (const FrameworkTaskRole& r : fw.task_roles) {
    if (r.retry.max_retry_count > 0 && fw_max > 0) {
      e.summary.push_back("task retry budgets reset with every FrameworkAttempt: a task of `" +
                          r.name + "` may run up to " +
                          std::to_string((r.retry.max_retry_count + 1) * (fw_max + 1)) +
                          " times for counted failures");
    }
  }
  return e;
}

}  // namespace jobset
