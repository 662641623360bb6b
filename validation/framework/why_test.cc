#include "validation/framework/why.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/why_test_util.h"
#include "validation/framework/replay.h"
#include "validation/framework/types.h"

namespace jobset {
namespace {

Diagnosis Diagnose(const WorkloadDump& dump, std::string_view name) {
  Diagnosis d;
  std::string error;
  REQUIRE_MESSAGE(DiagnoseFramework(dump, name, &d, &error), error);
  return d;
}

Framework FrameworkOf(const WorkloadDump& dump) {
  const Node* last = nullptr;
  for (const Node& o : dump.objects)
    if (IsFramework(o)) last = &o;
  REQUIRE(last != nullptr);
  return DecodeFramework(*last);
}

bool HasHazard(const Diagnosis& d, std::string_view id, std::string_view text) {
  for (const Hazard& h : d.hazards)
    if (h.id == id && h.text.find(text) != std::string::npos) return true;
  return false;
}

bool HasNote(const Diagnosis& d, std::string_view text) {
  for (const std::string& n : d.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

// `spec` as --fail reads it (ParseFrameworkFailFlag), one completion a step.
std::vector<FrameworkStepSpec> Steps(const std::vector<std::string>& specs) {
  std::vector<FrameworkStepSpec> steps;
  for (const std::string& s : specs) {
    FrameworkStepSpec step;
    std::string error;
    REQUIRE_MESSAGE(ParseFrameworkFailFlag(s, &step, &error), error);
    steps.push_back(std::move(step));
  }
  return steps;
}

// The replay engine on the same completions: the decisions the diagnosis shows for every task
// attempt (in its causes) and for every FrameworkAttempt, and the final counters, must agree.
void CheckAgreement(const WorkloadDump& dump, const Diagnosis& d,
                    const std::vector<FrameworkStepSpec>& steps) {
  const Framework fw = FrameworkOf(dump);
  FrameworkReplayResult replay;
  std::string error;
  REQUIRE_MESSAGE(ReplayFramework(fw, steps, &replay, &error), error);
  REQUIRE(!d.budgets.empty());
  CHECK(d.budgets[0].name == "accountableRetriedCount");
  CHECK(d.budgets[0].used == replay.counters.accountable);
  CHECK(d.budgets[0].note.rfind("totalRetriedCount " + std::to_string(replay.counters.total), 0) ==
        0);
  std::vector<const TaskCompletionEvent*> events;
  std::vector<const AttemptCompletionEvent*> attempts;
  for (const FrameworkReplayStep& s : replay.steps) {
    for (const TaskCompletionEvent& e : s.events) events.push_back(&e);
    for (const AttemptCompletionEvent& a : s.attempts) attempts.push_back(&a);
  }
  std::vector<const FailureCause*> causes;
  for (const Attempt& a : d.timeline)
    for (const FailureCause& c : a.causes) causes.push_back(&c);
  REQUIRE(causes.size() == events.size());
  for (size_t i = 0; i < events.size(); ++i) {
    CAPTURE(i);
    const TaskCompletionEvent& e = *events[i];
    CHECK(causes[i]->text.find("task " + e.role + "/" + std::to_string(e.index) + " attempt " +
                               std::to_string(e.task_attempt_id) + ": " +
                               std::to_string(e.status.code)) == 0);
    const std::string decision = e.decision.should_retry
                                     ? "task retry -> attempt " + std::to_string(e.counters.total) +
                                           " (" + (e.decision.accountable ? "counted" : "free")
                                     : std::string("no task retry -> TaskCompleted");
    CHECK(causes[i]->text.find(decision) != std::string::npos);
    CHECK(causes[i]->text.find(e.decision.reason) != std::string::npos);
  }
  REQUIRE(attempts.size() == d.timeline.size());
  for (size_t i = 0; i < attempts.size(); ++i) {
    CAPTURE(i);
    const AttemptCompletionEvent& a = *attempts[i];
    CHECK(d.timeline[i].number == a.framework_attempt_id);
    CHECK(d.timeline[i].counted == a.decision.accountable);
    CHECK(d.timeline[i].action ==
          (a.decision.should_retry ? "retry the Framework" : "complete the Framework"));
    CHECK(d.timeline[i].rule.find(a.message) != std::string::npos);
    CHECK(d.timeline[i].outcome.find(a.decision.reason) != std::string::npos);
  }
  CHECK(replay.completed == (d.health == Health::kSucceeded || d.health == Health::kFailed));
}

TEST_CASE("framework why: a transient eviction retried for free, then success") {
  const WorkloadDump dump = LoadWhyDump("framework-transient-then-success.json");
  const Diagnosis d = Diagnose(dump, "trainfw");
  CHECK(d.kind == "Framework");
  CHECK(d.namespace_name == "ml");
  CHECK(d.health == Health::kSucceeded);
  CHECK(d.state.rfind("Completed: 0 Succeeded {Succeeded []} (CompletedTaskCount 3 has reached "
                      "TotalTaskCount 3",
                      0) == 0);
  CHECK(d.state.find("FrameworkAttempt 1, accountableRetriedCount 0 of 2") != std::string::npos);
  REQUIRE(!d.budgets.empty());
  CHECK(d.budgets[0].used == 0);
  CHECK(d.budgets[0].limit == 2);
  CHECK(d.budgets[0].note.rfind("totalRetriedCount 1 (1 not counted)", 0) == 0);
  REQUIRE(d.timeline.size() == 2);
  const Attempt& first = d.timeline[0];
  CHECK(first.failed == "Pod trainfw-worker-1 (task worker/1, attempt 0)");
  CHECK(first.reason == "-1000 PodEvicted {Failed [Transient]}");
  CHECK(first.rule ==
        "FrameworkAttemptCompletionPolicy: FailedTaskCount 1 has reached MinFailedTaskCount 1 in "
        "the TaskRole (task worker/1)");
  CHECK(first.action == "retry the Framework");
  CHECK_FALSE(first.counted);
  CHECK(first.outcome.rfind("retried -> FrameworkAttempt 1 (free): FancyRetryPolicy is true", 0) ==
        0);
  REQUIRE(first.causes.size() == 1);
  CHECK(first.causes[0].category == "infrastructure");
  CHECK(first.causes[0].text.find("pod Evicted, container worker exited with code 137 (Error) on "
                                  "node gpu-2") != std::string::npos);
  const Attempt& second = d.timeline[1];
  CHECK(second.failed.empty());
  CHECK(second.causes.size() == 3);
  CHECK(second.action == "complete the Framework");
  CHECK(second.outcome ==
        "Completed Succeeded: 0 Succeeded {Succeeded []}: CompletionType is {Succeeded []}");
  CHECK(d.next.empty());
  CHECK(HasNote(d, "2 copies of the Framework"));
  CHECK(HasHazard(d, "infrastructure-restarts",
                  "1 retry followed failures of the pod's environment"));
  CHECK(HasHazard(d, "free-retries", "1 retry was not counted"));
  CHECK(HasHazard(d, "restart-time", "1 framework retry took 6s"));

  CheckAgreement(dump, d, Steps({"worker/1:-1000", "ps/0:0", "worker/1:0", "worker/0:0"}));
}

TEST_CASE("framework why: free transient task retries, then a Permanent code stops retrying") {
  const WorkloadDump dump = LoadWhyDump("framework-permanent-stops.json");
  const Diagnosis d = Diagnose(dump, "infer");
  CHECK(d.health == Health::kFailed);
  REQUIRE(d.timeline.size() == 1);
  const Attempt& a = d.timeline[0];
  CHECK(a.failed == "Pod infer-worker-0 (task worker/0, attempt 0)");
  CHECK(a.reason == "137 ContainerSigKillReceived {Failed [Transient]}");
  CHECK(a.rule ==
        "FrameworkAttemptCompletionPolicy: FailedTaskCount 1 has reached MinFailedTaskCount 1 in "
        "the TaskRole (task worker/0)");
  CHECK(a.action == "complete the Framework");
  CHECK(a.outcome ==
        "Completed Failed: -1200 ContainerDockerOOMKilled {Failed [Permanent]}: "
        "FancyRetryPolicy is true and CompletionType is {Failed [Permanent]}");
  REQUIRE(a.causes.size() == 3);
  CHECK(a.causes[0].text.find("task retry -> attempt 1 (free)") != std::string::npos);
  CHECK(a.causes[1].text.find("task retry -> attempt 2 (free)") != std::string::npos);
  CHECK(a.causes[2].text.find("container infer exited with code 137 (OOMKilled)") !=
        std::string::npos);
  CHECK(a.causes[2].text.find("no task retry -> TaskCompleted") != std::string::npos);
  CHECK(a.causes[2].category == "application");
  REQUIRE(d.budgets.size() == 2);
  CHECK(d.budgets[1].scope == "worker/0");
  CHECK(d.budgets[1].used == 0);
  CHECK(d.budgets[1].limit == 1);
  CHECK(d.budgets[1].note.rfind("task attempt 2 (totalRetriedCount 2)", 0) == 0);
  CHECK(HasHazard(d, "restart-loop",
                  "task worker/0 completed 2 times with 137 "
                  "ContainerSigKillReceived"));
  CHECK(HasHazard(d, "free-retries", "2 retries were not counted"));
  CHECK(d.next.empty());

  CheckAgreement(dump, d, Steps({"worker/0:137", "worker/0:137", "worker/0:-1200"}));
}

TEST_CASE("framework why: mid-attempt, what one more completion does at the current counters") {
  WorkloadDump dump = LoadWhyDump("framework-permanent-stops.json");
  // The dump as it was before the last copy: worker/0 retried once, worker/1 running.
  size_t copies = 0;
  std::vector<Node> kept;
  for (Node& o : dump.objects) {
    if (IsFramework(o) && ++copies == 3) continue;
    kept.push_back(std::move(o));
  }
  dump.objects = std::move(kept);
  const Diagnosis d = Diagnose(dump, "infer");
  CHECK(d.health == Health::kRestarting);
  REQUIRE(d.timeline.size() == 1);
  CHECK(d.timeline[0].outcome == "AttemptRunning");
  // Rows per completion class for the running task of the role (worker/1, no retry yet).
  REQUIRE(d.next.size() == 4);
  CHECK(d.next[0].scope == "worker/1");
  CHECK(d.next[0].reason.rfind("Transient failure", 0) == 0);
  CHECK(d.next[0].action == "retry the task");
  CHECK_FALSE(d.next[0].counts);
  CHECK(d.next[0].effect == "task attempt 1 (free)");
  CHECK(d.next[1].reason.rfind("Permanent failure", 0) == 0);
  CHECK(d.next[1].action == "complete the task");
  CHECK(d.next[1].effect ==
        "FailedTaskCount 1 has reached MinFailedTaskCount 1 in the TaskRole: the FrameworkAttempt "
        "completes Failed; the Framework completes: FancyRetryPolicy is true and CompletionType is "
        "{Failed [Permanent]}");
  CHECK(d.next[2].reason.rfind("Unknown failure", 0) == 0);
  CHECK(d.next[2].counts);
  CHECK(d.next[2].effect == "task attempt 1 (counted 1 of 1)");
  CHECK(d.next[3].reason == "success");
  CHECK(d.next[3].effect == "the FrameworkAttempt goes on (1 of 2 tasks completed)");
}

TEST_CASE("framework why: a Transient Conflict completion waits for its retry delay") {
  WorkloadDump dump;
  std::string error;
  REQUIRE(ParseWorkloadDump(
      R"({"apiVersion":"frameworkcontroller.microsoft.com/v1","kind":"Framework",
          "metadata":{"name":"gang","namespace":"ml"},
          "spec":{"retryPolicy":{"fancyRetryPolicy":true,"maxRetryCount":0},
                  "taskRoles":[{"name":"w","taskNumber":1,
                    "frameworkAttemptCompletionPolicy":{"minFailedTaskCount":1},
                    "task":{"retryPolicy":{"maxRetryCount":0},"pod":{}}}]},
          "status":{"state":"AttemptCompleted",
            "retryPolicyStatus":{"totalRetriedCount":0,"accountableRetriedCount":0,
                                 "retryDelaySec":437},
            "attemptStatus":{"id":0,"startTime":"2026-01-01T00:00:00Z",
              "completionTime":"2026-01-01T00:10:00Z",
              "completionStatus":{"code":201,"phrase":"ContainerTransientConflictFailed",
                "type":{"name":"Failed","attributes":["Transient","Conflict"]},
                "trigger":{"message":"FailedTaskCount 1 has reached MinFailedTaskCount 1 in the TaskRole",
                           "taskRoleName":"w","taskIndex":0}},
              "taskRoleStatuses":[{"name":"w","taskStatuses":[{"index":0,
                "retryPolicyStatus":{"totalRetriedCount":0,"accountableRetriedCount":0},
                "attemptStatus":{"id":0,"podName":"gang-w-0",
                  "completionTime":"2026-01-01T00:09:59Z",
                  "completionStatus":{"code":201,"phrase":"ContainerTransientConflictFailed",
                    "type":{"name":"Failed","attributes":["Transient","Conflict"]}}}}]}]}}})",
      {}, &dump, &error));
  const Diagnosis d = Diagnose(dump, "gang");
  CHECK(d.health == Health::kRestarting);
  CHECK(d.state.find("next attempt after 437s") != std::string::npos);
  REQUIRE(d.timeline.size() == 1);
  // The delay the controller drew (60-900s for Transient Conflict) and a free retry even at
  // maxRetryCount 0 (the manual's "Debug Mode").
  CHECK(d.timeline[0].outcome ==
        "retried -> FrameworkAttempt 1 after 437s (free): FancyRetryPolicy is true and "
        "CompletionType is {Failed [Transient Conflict]}");
  CHECK(d.next.empty());
  CHECK(HasNote(d, "FrameworkAttempt 0 is completed: the next thing is its retry"));
}

TEST_CASE("framework why: missing attempts are listed, a missing Framework is an error") {
  WorkloadDump dump = LoadWhyDump("framework-transient-then-success.json");
  Diagnosis d;
  std::string error;
  CHECK_FALSE(DiagnoseFramework(dump, "nope", &d, &error));
  CHECK(error == "no Framework (frameworkcontroller.microsoft.com/v1) named 'nope' in the dump");
  // Only the last copy: attempt 0 is not in the status any more.
  dump.objects.erase(dump.objects.begin());
  d = Diagnose(dump, "trainfw");
  REQUIRE(d.timeline.size() == 2);
  CHECK(d.timeline[0].outcome == "retried (not in the dump)");
  CHECK(HasNote(d, "1 FrameworkAttempt(s) before 1 are not in the dump"));
  CHECK(d.health == Health::kSucceeded);

  WorkloadDump fresh;
  REQUIRE(ParseWorkloadDump(
      R"({"kind":"List","items":[
        {"apiVersion":"frameworkcontroller.microsoft.com/v1","kind":"Framework",
         "metadata":{"name":"empty","namespace":"ml"},"spec":{}},
        {"apiVersion":"frameworkcontroller.microsoft.com/v1","kind":"Framework",
         "metadata":{"name":"fresh","namespace":"ml"},
         "spec":{"taskRoles":[{"name":"w","taskNumber":1,"task":{"pod":{}}}]}}]})",
      {}, &fresh, &error));
  CHECK_FALSE(DiagnoseFramework(fresh, "empty", &d, &error));
  CHECK(error == "Framework empty: spec.taskRoles is missing or empty");
  d = Diagnose(fresh, "fresh");
  CHECK(HasNote(d, "status is missing"));
  CHECK(d.timeline.empty());
  CHECK(d.health == Health::kHealthy);
}

TEST_CASE("framework why: any part of a dump left out still gives an answer, never a crash") {
  const std::vector<std::pair<std::string, std::string>> dumps = {
      {"framework-transient-then-success.json", "trainfw"},
      {"framework-permanent-stops.json", "infer"}};
  for (const auto& [file, name] : dumps) {
    const WorkloadDump whole = LoadWhyDump(file);
    CAPTURE(file);
    // Only leaving out the workload itself (its last copy, when there are several) fails.
    CheckEveryPartLeftOut(whole, [&](const WorkloadDump& part, Diagnosis* d, std::string* error) {
      return DiagnoseFramework(part, name, d, error);
    });
  }
}

TEST_CASE("framework why: a Pending pod says why it waits, as the other kinds say it") {
  // The readings every kind shares (core/dump_history): the PodScheduled=False condition.
  WorkloadDump dump = LoadWhyDump("framework-transient-then-success.json");
  WorkloadDump pod;
  std::string error;
  REQUIRE(ParseWorkloadDump(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"trainfw-worker-1","labels":{"FC_FRAMEWORK_NAME":"trainfw"}},
      "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False",
        "reason":"Unschedulable","message":"0/2 nodes are available"}]}})",
                            {}, &pod, &error));
  dump.objects.push_back(pod.objects[0]);
  const Diagnosis d = Diagnose(dump, "trainfw");
  bool seen = false;
  for (const Hazard& h : d.hazards) {
    seen = seen || (h.id == "pods-pending" &&
                    h.text ==
                        "1 pod(s) Pending: trainfw-worker-1 (Unschedulable: 0/2 nodes are "
                        "available)");
  }
  CHECK(seen);
}

}  // namespace
}  // namespace jobset
