#include "validation/volcano/why.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/why_test_util.h"
#include "validation/volcano/replay.h"
#include "validation/volcano/types.h"

namespace jobset {
namespace {

Diagnosis Diagnose(const WorkloadDump& dump, std::string_view name) {
  Diagnosis d;
  std::string error;
  REQUIRE_MESSAGE(DiagnoseVolcanoJob(dump, name, &d, &error), error);
  return d;
}

const Node& JobOf(const WorkloadDump& dump) {
  for (const Node& o : dump.objects)
    if (IsVolcanoJob(o)) return o;
  FAIL("no Volcano Job in the dump");
  return dump.objects[0];
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

// The replay engine on the same events, step by step: each timeline attempt that ended must be
// the decision of the step that ended it, and the counters must agree.
void CheckAgreement(const WorkloadDump& dump, const Diagnosis& d,
                    const std::vector<VolcanoStep>& steps, size_t acting_steps_expected) {
  const VolcanoJob job = DecodeVolcanoJob(JobOf(dump));
  VolcanoReplayResult replay;
  std::string error;
  REQUIRE_MESSAGE(ReplayVolcano(job, steps, &replay, &error), error);
  REQUIRE(!d.budgets.empty());
  CHECK(d.budgets[0].name == "retryCount");
  CHECK(d.budgets[0].used == replay.state.retry_count);
  CHECK(d.budgets[0].limit == job.max_retry);
  CHECK(d.state.rfind(std::string(VolcanoPhaseName(replay.state.phase)), 0) == 0);
  // The steps that spent a retry or ended the job, in order, against the attempts that ended.
  size_t attempt = 0;
  int64_t retry = 0;
  VolcanoPhase phase = VolcanoPhase::kRunning;
  size_t acting = 0;
  for (const VolcanoStepOutcome& step : replay.steps) {
    const bool counted = step.retry_count > retry;
    const bool ended = counted || (step.phase != phase && IsFinalVolcanoPhase(step.phase));
    retry = step.retry_count;
    phase = step.phase;
    if (!ended) continue;
    ++acting;
    REQUIRE(attempt < d.timeline.size());
    const Attempt& a = d.timeline[attempt++];
    CHECK(a.counted == counted);
    const VolcanoMatch& m = step.events[0].match;
    if (a.action != "SyncJob") {
      CHECK(a.action == m.action_text);
      const VolcanoPolicy* p = MatchedPolicy(job, m);
      REQUIRE(p != nullptr);
      CHECK(a.rule.rfind(p->path + " (", 0) == 0);
    }
  }
  CHECK(acting == acting_steps_expected);
}

TEST_CASE("volcano why: a pod failure restarts the job until maxRetry, then the job fails") {
  const WorkloadDump dump = LoadWhyDump("volcano-restart-until-failed.json");
  const Diagnosis d = Diagnose(dump, "train");
  CHECK(d.kind == "Job");
  CHECK(d.api_version == "batch.volcano.sh/v1alpha1");
  CHECK(d.namespace_name == "ml");
  CHECK(d.health == Health::kFailed);
  CHECK(d.state.rfind("Failed: retryCount 3 of maxRetry 3; last failure: Pod train-worker-1 "
                      "PodFailed exit 137 -> RestartJob",
                      0) == 0);
  REQUIRE(d.budgets.size() == 1);
  CHECK(d.budgets[0].used == 3);
  CHECK(d.budgets[0].limit == 3);
  CHECK(d.budgets[0].note.find("ExecuteAction events: RestartJob x3") != std::string::npos);
  REQUIRE(d.timeline.size() == 3);
  const char* failed[] = {"Pod train-worker-0", "Pod train-worker-0", "Pod train-worker-1"};
  const char* outcomes[] = {"restarts (retryCount 1 of maxRetry 3, 1 restart left)",
                            "restarts (retryCount 2 of maxRetry 3, 0 restarts left)",
                            "fails the job: retryCount 3 of maxRetry 3 reached"};
  for (size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    const Attempt& a = d.timeline[i];
    CHECK(a.number == static_cast<int64_t>(i));
    CHECK(a.failed == failed[i]);
    CHECK(a.reason == "PodFailed exit 137");
    CHECK(a.rule == "spec.policies[0] (PodFailed -> RestartJob)");
    CHECK(a.action == "RestartJob");
    CHECK(a.counted);
    CHECK(a.outcome == outcomes[i]);
    REQUIRE(a.causes.size() == 1);
    CHECK(a.causes[0].category == "application");
    CHECK(a.causes[0].text.find("container trainer exited with code 137 (OOMKilled)") == 0);
  }
  CHECK(d.timeline[0].started == "2026-03-01T10:00:00Z");
  CHECK(d.timeline[1].started == "2026-03-01T10:10:05Z");
  CHECK(d.timeline[2].ended == "2026-03-01T10:32:00Z");
  CHECK(d.next.empty());
  CHECK(HasNote(d, "final, nothing happens next"));
  CHECK_FALSE(HasNote(d, "replay to retryCount"));
  CHECK(HasHazard(d, "restart-loop", "3 restarts after the same PodFailed exit 137"));
  CHECK(HasHazard(d, "restart-time", "2 restart(s) took 9s"));
  CHECK_FALSE(HasHazard(d, "infrastructure-restarts", ""));

  CheckAgreement(dump, d,
                 {{{"worker", 0, "PodFailed", true, 137, ""}},
                  {{"worker", 0, "PodFailed", true, 137, ""}},
                  {{"worker", 1, "PodFailed", true, 137, ""}}},
                 3);
}

TEST_CASE("volcano why: evictions by preemption spend the retries (volcano-sh/volcano#2560)") {
  const WorkloadDump dump = LoadWhyDump("volcano-evicted-retries.json");
  const Diagnosis d = Diagnose(dump, "sim");
  CHECK(d.health == Health::kFailed);
  REQUIRE(d.timeline.size() == 3);
  const char* failed[] = {"Pod sim-worker-1", "Pod sim-worker-0", "Pod sim-ps-0"};
  for (size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    const Attempt& a = d.timeline[i];
    CHECK(a.failed == failed[i]);
    CHECK(a.reason == "PodEvicted");
    CHECK(a.rule == "spec.policies[0] (PodEvicted -> RestartJob)");
    CHECK(a.counted);
    REQUIRE(a.causes.size() == 1);
    CHECK(a.causes[0].category == "infrastructure");
    CHECK(a.causes[0].text.find("Evict: Pod is evicted, because of preempt") != std::string::npos);
  }
  // The last pod is in the dump, deleted by the scheduler; the one the controller deleted when
  // the job failed (marked out-of-sync) is not an eviction.
  CHECK(d.timeline[2].causes[0].text.find("deleted by someone else than the controller on node "
                                          "cpu-node-3") == 0);
  CHECK(d.timeline[2].outcome == "fails the job: retryCount 3 of maxRetry 3 reached");
  CHECK(HasHazard(d, "infrastructure-restarts", "3 of 3 counted restarts followed evictions"));
  CHECK_FALSE(HasHazard(d, "restart-loop", ""));
  CHECK_FALSE(HasNote(d, "replay to retryCount"));

  CheckAgreement(dump, d,
                 {{{"worker", 1, "PodEvicted", false, 0, ""}},
                  {{"worker", 0, "PodEvicted", false, 0, ""}},
                  {{"ps", 0, "PodEvicted", false, 0, ""}}},
                 3);
}

TEST_CASE("volcano why: a failure no policy matches restarts nothing and the job fails") {
  const WorkloadDump dump = LoadWhyDump("volcano-unmatched-exit-code.json");
  const Diagnosis d = Diagnose(dump, "etl");
  CHECK(d.health == Health::kFailed);
  CHECK(d.budgets[0].used == 0);
  REQUIRE(d.timeline.size() == 1);
  const Attempt& a = d.timeline[0];
  CHECK(a.failed == "Pod etl-worker-1");
  CHECK(a.reason == "PodFailed exit 1");
  CHECK(a.rule == "no policy: SyncJob");
  CHECK(a.action == "SyncJob");
  CHECK_FALSE(a.counted);
  CHECK(a.outcome == "fails the job: every pod finished, 2 of 3 succeeded (minAvailable 3)");
  CHECK(d.state ==
        "Failed: retryCount 0 of maxRetry 3; last failure: Pod etl-worker-1 PodFailed exit 1 -> "
        "SyncJob: nothing: the pod stays Failed; then Pod etl-worker-2 succeeded: fails the job: "
        "every pod finished, 2 of 3 succeeded (minAvailable 3)");
  CHECK(a.ended == "2026-03-03T14:21:00Z");
  CHECK(HasHazard(d, "unmatched-failure",
                  "Pod etl-worker-1 (PodFailed exit 1): no policy matched (exitCode 137 -> "
                  "RestartJob; PodEvicted -> RestartJob)"));

  CheckAgreement(dump, d,
                 {{{"worker", 1, "PodFailed", true, 1, ""}},
                  {{"worker", 0, "PodSucceeded", false, 0, ""}},
                  {{"worker", 2, "PodSucceeded", false, 0, ""}}},
                 1);
  // The failure itself matched nothing in the replay too.
  VolcanoReplayResult replay;
  std::string error;
  REQUIRE(ReplayVolcano(DecodeVolcanoJob(JobOf(dump)), {{{"worker", 1, "PodFailed", true, 1, ""}}},
                        &replay, &error));
  CHECK(replay.steps[0].events[0].match.kind == VolcanoMatchKind::kNone);
}

// A running job at retryCount 2 of 3: the next counted restart fails it.
constexpr char kRunning[] = R"({"kind":"List","items":[
 {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job",
  "metadata":{"name":"run","namespace":"ml"},
  "spec":{"maxRetry":3,"policies":[{"event":"PodFailed","action":"RestartJob"}],
          "tasks":[{"name":"worker","replicas":2,
                    "policies":[{"event":"TaskCompleted","action":"CompleteJob"}],
                    "template":{"spec":{"containers":[{"name":"c","image":"i"}]}}}]},
  "status":{"state":{"phase":"Running"},"retryCount":RETRY,"version":RETRY}},
 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"run-worker-0","namespace":"ml","uid":"p0",
   "annotations":{"volcano.sh/job-name":"run","volcano.sh/task-spec":"worker",
                  "volcano.sh/job-version":"RETRY","volcano.sh/job-retry-count":"RETRY"}},
  "status":{"phase":"Running"}},
 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"run-worker-1","namespace":"ml","uid":"p1",
   "annotations":{"volcano.sh/job-name":"run","volcano.sh/task-spec":"worker",
                  "volcano.sh/job-version":"RETRY","volcano.sh/job-retry-count":"RETRY"}},
  "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False",
    "reason":"Unschedulable","message":"0/4 nodes are available: 4 Insufficient nvidia.com/gpu."}]}}
]})";

WorkloadDump RunningDump(int retry) {
  std::string text = kRunning;
  for (size_t at = text.find("RETRY"); at != std::string::npos; at = text.find("RETRY"))
    text.replace(at, 5, std::to_string(retry));
  WorkloadDump dump;
  std::string error;
  REQUIRE_MESSAGE(ParseWorkloadDump(text, {}, &dump, &error), error);
  return dump;
}

const NextStep* Row(const Diagnosis& d, std::string_view reason) {
  for (const NextStep& n : d.next)
    if (n.reason == reason) return &n;
  return nullptr;
}

TEST_CASE("volcano why: what happens next is the explain table at the current retryCount") {
  const Diagnosis fresh = Diagnose(RunningDump(0), "run");
  const Diagnosis last = Diagnose(RunningDump(2), "run");
  CHECK(fresh.health == Health::kHealthy);
  CHECK(last.health == Health::kHealthy);
  const NextStep* fail0 = Row(fresh, "PodFailed");
  const NextStep* fail2 = Row(last, "PodFailed");
  REQUIRE(fail0 != nullptr);
  REQUIRE(fail2 != nullptr);
  CHECK(fail0->scope == "worker");
  CHECK(fail0->rule == "spec.policies[0] (PodFailed -> RestartJob)");
  CHECK(fail0->counts);
  CHECK(fail0->effect == "restarts (retryCount 1 of maxRetry 3, 1 restart left)");
  CHECK(fail2->effect == "fails the job: retryCount 3 of maxRetry 3 reached");
  const NextStep* evicted = Row(last, "PodEvicted");
  REQUIRE(evicted != nullptr);
  CHECK(evicted->rule == "no policy: SyncJob");
  CHECK_FALSE(evicted->counts);
  CHECK(evicted->effect == "nothing: the pod is recreated");
  const NextStep* done = Row(last, "TaskCompleted");
  REQUIRE(done != nullptr);
  CHECK(done->effect == "completes the job");
  CHECK(HasHazard(last, "pods-pending",
                  "run-worker-1 (Unschedulable: 0/4 nodes are available: 4 Insufficient "
                  "nvidia.com/gpu.)"));
  // The pods are of the third attempt only: the replay starts there, and says so.
  CHECK(HasNote(last, "the replay starts at retryCount 2, job version 2"));
  REQUIRE(last.timeline.size() == 1);
  CHECK(last.timeline[0].number == 2);
  CHECK(last.timeline[0].outcome == "job Running");
  CHECK_FALSE(HasNote(fresh, "the replay starts"));
  CHECK_FALSE(HasNote(last, "replay to retryCount"));
}

TEST_CASE(
    "volcano why: what the controller reads of a failed pod: kubelet eviction, first container") {
  WorkloadDump dump;
  std::string error;
  REQUIRE(ParseWorkloadDump(
      R"({"kind":"List","items":[
        {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"mc"},
         "spec":{"tasks":[{"name":"w","replicas":2,"template":{}}]},
         "status":{"state":{"phase":"Running"},"version":0}},
        {"apiVersion":"v1","kind":"Pod",
         "metadata":{"name":"mc-w-0","uid":"u0","annotations":{"volcano.sh/job-name":"mc",
                     "volcano.sh/task-spec":"w","volcano.sh/job-version":"0"}},
         "spec":{"nodeName":"n1"},
         "status":{"phase":"Failed","reason":"Evicted","message":"low on memory",
                   "containerStatuses":[{"name":"main","state":{"terminated":{
                     "exitCode":137,"reason":"Error","finishedAt":"2026-01-01T00:01:00Z"}}}]}},
        {"apiVersion":"v1","kind":"Pod",
         "metadata":{"name":"mc-w-1","uid":"u1","annotations":{"volcano.sh/job-name":"mc",
                     "volcano.sh/task-spec":"w","volcano.sh/job-version":"0"}},
         "status":{"phase":"Failed","containerStatuses":[
           {"name":"sidecar","state":{"terminated":{"exitCode":0,"reason":"Completed"}}},
           {"name":"main","state":{"terminated":{"exitCode":42,"reason":"Error",
            "finishedAt":"2026-01-01T00:02:00Z"}}}]}}]})",
      {}, &dump, &error));
  const Diagnosis d = Diagnose(dump, "mc");
  // Failed pods nothing restarts, the job still Running: stuck until someone acts.
  CHECK(d.health == Health::kStuck);
  REQUIRE(d.timeline.size() == 1);
  REQUIRE(d.timeline[0].causes.size() == 2);
  const FailureCause& evicted = d.timeline[0].causes[0];
  CHECK(evicted.category == "infrastructure");
  CHECK(evicted.text.rfind("Evicted by the kubelet on node n1: low on memory; the controller sees "
                           "PodFailed with exit code 137",
                           0) == 0);
  const FailureCause& second = d.timeline[0].causes[1];
  CHECK(second.category == "application");
  CHECK(second.text.rfind("container main exited with code 42, but the controller reads the "
                          "first container (sidecar): exit code 0",
                          0) == 0);
  CHECK(second.text.find("PodFailed exit 0: no policy: SyncJob") != std::string::npos);
}

TEST_CASE("volcano why: a missing Job or spec is an error naming it; a missing status a note") {
  WorkloadDump dump;
  std::string error;
  REQUIRE(ParseWorkloadDump(
      R"({"kind":"List","items":[
        {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"a"}},
        {"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"b"},
         "spec":{"tasks":[{"name":"w","replicas":1,"template":{}}]}}]})",
      {}, &dump, &error));
  Diagnosis d;
  CHECK_FALSE(DiagnoseVolcanoJob(dump, "missing", &d, &error));
  CHECK(error == "no Volcano Job (batch.volcano.sh/v1alpha1 Job) named 'missing' in the dump");
  CHECK_FALSE(DiagnoseVolcanoJob(dump, "a", &d, &error));
  CHECK(error == "Volcano Job a: spec.tasks is missing or empty");
  REQUIRE(DiagnoseVolcanoJob(dump, "b", &d, &error));
  CHECK(HasNote(d, "status is missing"));
  CHECK(HasNote(d, "the dump holds no pod of the job"));
  CHECK(d.state.rfind("Unknown: retryCount 0 of maxRetry 3", 0) == 0);
}

TEST_CASE("volcano why: any part of a dump left out still gives an answer, never a crash") {
  const std::vector<std::pair<std::string, std::string>> dumps = {
      {"volcano-restart-until-failed.json", "train"},
      {"volcano-evicted-retries.json", "sim"},
      {"volcano-unmatched-exit-code.json", "etl"}};
  for (const auto& [file, name] : dumps) {
    const WorkloadDump whole = LoadWhyDump(file);
    CAPTURE(file);
    // Only leaving out the workload itself (its last copy, when there are several) fails.
    CheckEveryPartLeftOut(whole, [&](const WorkloadDump& part, Diagnosis* d, std::string* error) {
      return DiagnoseVolcanoJob(part, name, d, error);
    });
  }
}

TEST_CASE("volcano why: an events.k8s.io eviction (regarding, note, series) is read as core/v1's") {
  // The readings every kind shares (core/dump_history): the subject, text and time of an
  // events.k8s.io/v1 Event, here the only trace of a pod no longer in the dump.
  WorkloadDump dump = RunningDump(0);
  Node event;
  std::string error;
  WorkloadDump one;
  REQUIRE(ParseWorkloadDump(R"({"apiVersion":"events.k8s.io/v1","kind":"Event","reason":"Evict",
      "note":"Pod ml/run-worker-0 preempted by ml/urgent",
      "regarding":{"kind":"Pod","name":"run-worker-0","namespace":"ml","uid":"gone"},
      "series":{"count":1,"lastObservedTime":"2026-01-01T00:10:00Z"}})",
                            {}, &one, &error));
  dump.objects.push_back(one.objects[0]);
  const Diagnosis d = Diagnose(dump, "run");
  REQUIRE(!d.timeline.empty());
  bool seen = false;
  for (const Attempt& a : d.timeline) {
    for (const FailureCause& c : a.causes) {
      if (c.object == "Pod run-worker-0" &&
          c.text.rfind("Evict: Pod ml/run-worker-0 preempted by ml/urgent", 0) == 0) {
        seen = true;
        CHECK(c.category == "infrastructure");
      }
    }
  }
  CHECK(seen);
}

}  // namespace
}  // namespace jobset
