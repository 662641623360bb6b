#include "validation/volcano/lifecycle.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "validation/volcano/test_job.h"

namespace jobset {
namespace {

// A two-task job (master 1, worker 4) with the given spec lines appended under spec.
VolcanoJob Job(const std::string& spec_extra, const std::string& worker_extra = "") {
  return DecodeTestJob(
      "apiVersion: batch.volcano.sh/v1alpha1\n"
      "kind: Job\n"
      "metadata: {name: train}\n"
      "spec:\n" +
      spec_extra +
      "  tasks:\n"
      "  - name: master\n"
      "    replicas: 1\n"
      "    template: {}\n"
      "  - name: worker\n"
      "    replicas: 4\n" +
      worker_extra + "    template: {}\n");
}

VolcanoEventSpec Ev(std::string task, int64_t index, std::string event, int64_t code = -1) {
  VolcanoEventSpec e;
  e.task = std::move(task);
  e.index = index;
  e.event = std::move(event);
  if (code >= 0) {
    e.has_exit_code = true;
    e.exit_code = code;
  }
  return e;
}

VolcanoStepOutcome Step(const VolcanoJob& job, VolcanoState* s,
                        const std::vector<VolcanoEventSpec>& events) {
  VolcanoStepOutcome out;
  std::string error;
  REQUIRE_MESSAGE(ApplyVolcanoStep(job, s, events, &out, &error), error);
  return out;
}

std::string StepError(const VolcanoJob& job, const std::vector<VolcanoEventSpec>& events) {
  VolcanoState s = InitialVolcanoState(job);
  VolcanoStepOutcome out;
  std::string error;
  CHECK_FALSE(ApplyVolcanoStep(job, &s, events, &out, &error));
  return error;
}

VolcanoMatch Match(const VolcanoJob& job, const std::string& task, const std::string& event,
                   int64_t code = 0) {
  VolcanoRequest r;
  r.event = event;
  r.task = task.empty() ? -1 : FindVolcanoTask(job, task);
  r.index = r.task >= 0 ? 0 : -1;
  r.exit_code = code;
  return MatchVolcanoPolicy(job, r);
}

std::string PolicyPath(const VolcanoJob& job, const VolcanoMatch& m) {
  const VolcanoPolicy* p = MatchedPolicy(job, m);
  return p ? p->path : "";
}

}  // namespace

TEST_CASE("volcano: task policies are scanned before job policies, first match wins") {
  VolcanoJob job =
      Job("  policies:\n"
          "  - {event: PodFailed, action: AbortJob}\n"
          "  - {event: PodEvicted, action: RestartJob}\n",
          "    policies:\n"
          "    - {event: PodFailed, action: RestartTask}\n"
          "    - {event: PodFailed, action: TerminateJob}\n");
  VolcanoMatch worker = Match(job, "worker", "PodFailed", 1);
  CHECK(worker.kind == VolcanoMatchKind::kEvent);
  CHECK(worker.action == VolcanoAction::kRestartTask);
  CHECK(PolicyPath(job, worker) == "spec.tasks[1].policies[0]");
  // The master has no policy of its own: the job's applies.
  VolcanoMatch master = Match(job, "master", "PodFailed", 1);
  CHECK(master.action == VolcanoAction::kAbortJob);
  CHECK(PolicyPath(job, master) == "spec.policies[0]");
  // The worker's list does not name PodEvicted: the job's list is scanned next.
  CHECK(PolicyPath(job, Match(job, "worker", "PodEvicted")) == "spec.policies[1]");
  // Nothing names TaskFailed: SyncJob.
  VolcanoMatch none = Match(job, "worker", "TaskFailed");
  CHECK(none.kind == VolcanoMatchKind::kNone);
  CHECK(none.action == VolcanoAction::kSyncJob);
}

TEST_CASE("volcano: * matches every event the controller sends, PodPending only with a timeout") {
  VolcanoJob job = Job("  policies:\n  - {event: '*', action: RestartJob}\n");
  for (const char* e : {"PodFailed", "PodEvicted", "TaskCompleted", "TaskFailed"}) {
    VolcanoMatch m = Match(job, "worker", e);
    CHECK_MESSAGE(m.kind == VolcanoMatchKind::kWildcard, e);
    CHECK(m.action == VolcanoAction::kRestartJob);
  }
  CHECK(Match(job, "", "Unknown").kind == VolcanoMatchKind::kWildcard);
  CHECK(Match(job, "worker", "PodPending").kind == VolcanoMatchKind::kNone);
  CHECK(Match(job, "worker", "PodRunning").kind == VolcanoMatchKind::kInternal);
  CHECK(Match(job, "worker", "OutOfSync").action == VolcanoAction::kSyncJob);

  VolcanoJob timed = Job("  policies:\n  - {events: ['*'], action: RestartJob, timeout: 2m}\n");
  VolcanoMatch pending = Match(timed, "worker", "PodPending");
  CHECK(pending.kind == VolcanoMatchKind::kWildcard);
  CHECK(pending.delay_s == 120);
  CHECK(pending.delay == "2m");
}

TEST_CASE("volcano: exit codes match whatever the event, in policy order") {
  VolcanoJob job =
      Job("  policies:\n"
          "  - {exitCode: 137, action: RestartJob}\n"
          "  - {event: PodFailed, action: AbortJob}\n"
          "  - {exitCode: 1, action: TerminateJob}\n");
  CHECK(Match(job, "worker", "PodFailed", 137).kind == VolcanoMatchKind::kExitCode);
  CHECK(Match(job, "worker", "PodFailed", 137).action == VolcanoAction::kRestartJob);
  // The event policy comes first for exit code 1: the exit-code policy never fires.
  CHECK(Match(job, "worker", "PodFailed", 1).action == VolcanoAction::kAbortJob);
  CHECK(Match(job, "worker", "PodFailed", 2).action == VolcanoAction::kAbortJob);
  // An exit-code policy's action is never validated: a typo acts like SyncJob.
  VolcanoJob typo = Job("  policies:\n  - {exitCode: 3, action: RestartJobb}\n");
  VolcanoMatch m = Match(typo, "worker", "PodFailed", 3);
  CHECK(m.kind == VolcanoMatchKind::kExitCode);
  CHECK(m.action == VolcanoAction::kOther);
  CHECK(m.action_text == "RestartJobb");
}

TEST_CASE("volcano: maxRetry N allows N-1 restarts, the Nth restart request fails the job") {
  VolcanoJob job = Job("  policies:\n  - {event: PodEvicted, action: RestartJob}\n");
  REQUIRE(job.max_retry == 3);
  VolcanoState s = InitialVolcanoState(job);
  VolcanoStepOutcome one = Step(job, &s, {Ev("worker", 2, "PodEvicted")});
  CHECK(one.events[0].after == VolcanoPhase::kRestarting);
  CHECK(one.settled == std::vector<VolcanoPhase>{VolcanoPhase::kPending, VolcanoPhase::kRunning});
  CHECK(s.retry_count == 1);
  CHECK(s.version == 1);
  Step(job, &s, {Ev("master", 0, "PodEvicted")});
  CHECK(s.phase == VolcanoPhase::kRunning);
  CHECK(s.retry_count == 2);
  VolcanoStepOutcome three = Step(job, &s, {Ev("worker", 0, "PodEvicted")});
  CHECK(three.phase == VolcanoPhase::kFailed);
  CHECK(s.retry_count == 3);

  VolcanoJob once = Job("  maxRetry: 1\n  policies:\n  - {event: PodFailed, action: RestartJob}\n");
  VolcanoState t = InitialVolcanoState(once);
  CHECK(Step(once, &t, {Ev("worker", 1, "PodFailed", 1)}).phase == VolcanoPhase::kFailed);
  // On the last retry the failed pod is kept.
  CHECK(t.pods.Pod(1, 1).phase == VolcanoPodPhase::kFailed);
}

TEST_CASE("volcano: failures before the controller reacts count one retry") {
  VolcanoJob job = Job("  policies:\n  - {event: PodFailed, action: RestartJob}\n");
  VolcanoState s = InitialVolcanoState(job);
  VolcanoStepOutcome out =
      Step(job, &s, {Ev("worker", 0, "PodFailed", 1), Ev("worker", 3, "PodFailed", 1)});
  REQUIRE(out.events.size() == 2);
  CHECK(out.events[0].match.action == VolcanoAction::kRestartJob);
  // The second pod's request carries the old job version.
  CHECK(out.events[1].match.kind == VolcanoMatchKind::kStale);
  CHECK(s.retry_count == 1);
  CHECK(s.phase == VolcanoPhase::kRunning);

  // RestartTask keeps the version: the second request matches, but in Restarting it is free.
  VolcanoJob task = Job("  policies:\n  - {event: PodFailed, action: RestartTask}\n");
  VolcanoState t = InitialVolcanoState(task);
  VolcanoStepOutcome two =
      Step(task, &t, {Ev("worker", 0, "PodFailed", 1), Ev("worker", 3, "PodFailed", 1)});
  CHECK(two.events[1].match.action == VolcanoAction::kRestartTask);
  CHECK(two.events[1].before == VolcanoPhase::kRestarting);
  CHECK(two.events[1].note == "already Restarting: no retry counted");
  CHECK(t.retry_count == 1);
}

TEST_CASE("volcano: each action's phases and the pods it kills") {
  const std::string worker_policy = "    policies:\n    - {event: PodFailed, action: ";
  auto run = [&](const std::string& action, VolcanoState* s) {
    VolcanoJob job = Job("", worker_policy + action + "}\n" +
                                 "    partitionPolicy: {totalPartitions: 2, partitionSize: 2}\n");
    *s = InitialVolcanoState(job);
    s->pods.SetPod(
        0, 0,
        {VolcanoPodPhase::kSucceeded, s->pods.Pod(0, 0).version});  // the master already finished
    return Step(job, s, {Ev("worker", 3, "PodFailed", 1)});
  };
  VolcanoState s;
  VolcanoStepOutcome abort = run("AbortJob", &s);
  CHECK(abort.events[0].after == VolcanoPhase::kAborting);
  CHECK(abort.phase == VolcanoPhase::kAborted);
  CHECK(s.retry_count == 0);
  CHECK(s.pods.Pod(0, 0).phase == VolcanoPodPhase::kSucceeded);  // soft kill keeps finished pods
  CHECK(s.pods.Pod(1, 3).phase == VolcanoPodPhase::kFailed);
  CHECK(s.pods.Pod(1, 0).phase == VolcanoPodPhase::kDeleted);

  CHECK(run("TerminateJob", &s).phase == VolcanoPhase::kTerminated);
  CHECK(run("CompleteJob", &s).phase == VolcanoPhase::kCompleted);
  CHECK(s.pods.Pod(1, 0).phase == VolcanoPodPhase::kDeleted);

  // RestartJob (not the last retry) deletes even the finished master: it runs again.
  run("RestartJob", &s);
  CHECK(s.retry_count == 1);
  CHECK(s.pods.Pod(0, 0).phase == VolcanoPodPhase::kRunning);
  CHECK(s.pods.Pod(0, 0).version == 1);

  // The targeted restarts recreate only their pods, at the same version.
  run("RestartTask", &s);
  CHECK(s.retry_count == 1);
  CHECK(s.phase == VolcanoPhase::kRunning);
  CHECK(s.pods.Pod(0, 0).phase == VolcanoPodPhase::kSucceeded);
  CHECK(s.pods.Pod(1, 3).phase == VolcanoPodPhase::kRunning);
  CHECK(s.version == 0);

  // RestartPartition: worker 3 is in partition 1 (pods 2 and 3).
  VolcanoJob job = Job("", worker_policy + "RestartPartition}\n" +
                               "    partitionPolicy: {totalPartitions: 2, partitionSize: 2}\n");
  VolcanoState p = InitialVolcanoState(job);
  p.pods.SetPod(1, 0,
                {VolcanoPodPhase::kFailed, p.pods.Pod(1, 0).version});  // partition 0: untouched
  p.pods.SetPod(1, 2, {VolcanoPodPhase::kSucceeded, p.pods.Pod(1, 2).version});
  Step(job, &p, {Ev("worker", 3, "PodFailed", 1)});
  CHECK(p.pods.Pod(1, 0).phase == VolcanoPodPhase::kFailed);
  CHECK(p.pods.Pod(1, 2).phase == VolcanoPodPhase::kRunning);
  CHECK(p.retry_count == 1);

  VolcanoJob pod_job = Job("", worker_policy + "RestartPod}\n");
  VolcanoState q = InitialVolcanoState(pod_job);
  q.pods.SetPod(1, 2, {VolcanoPodPhase::kFailed, q.pods.Pod(1, 2).version});
  Step(pod_job, &q, {Ev("worker", 3, "PodFailed", 1)});
  CHECK(q.pods.Pod(1, 2).phase == VolcanoPodPhase::kFailed);
  CHECK(q.pods.Pod(1, 3).phase == VolcanoPodPhase::kRunning);
  CHECK(q.retry_count == 1);
}

TEST_CASE("volcano: ResumeJob resumes an aborted job and counts a retry") {
  VolcanoJob job = Job("  policies:\n  - {event: PodEvicted, action: AbortJob}\n");
  VolcanoState s = InitialVolcanoState(job);
  CHECK(Step(job, &s, {Ev("worker", 0, "PodEvicted")}).phase == VolcanoPhase::kAborted);
  // Pod events of an aborted job: its pods are gone.
  VolcanoStepOutcome gone = Step(job, &s, {Ev("worker", 1, "PodFailed", 1)});
  CHECK(gone.events[0].note == "pod is Deleted: it cannot fail; no event");
  VolcanoEventSpec resume;
  resume.command = "ResumeJob";
  VolcanoStepOutcome out = Step(job, &s, {resume});
  CHECK(out.events[0].match.kind == VolcanoMatchKind::kCommand);
  CHECK(out.events[0].after == VolcanoPhase::kRestarting);
  CHECK(out.phase == VolcanoPhase::kRunning);
  CHECK(s.retry_count == 1);
  // ResumeJob on a running job is a sync: nothing changes.
  CHECK(Step(job, &s, {resume}).phase == VolcanoPhase::kRunning);
  CHECK(s.retry_count == 1);
}

TEST_CASE("volcano: without a policy a failed pod stays failed; minAvailable decides the end") {
  VolcanoJob job = Job("");
  VolcanoState s = InitialVolcanoState(job);
  VolcanoStepOutcome failed = Step(job, &s, {Ev("worker", 1, "PodFailed", 2)});
  CHECK(failed.events[0].match.kind == VolcanoMatchKind::kNone);
  CHECK(failed.phase == VolcanoPhase::kRunning);
  CHECK(s.pods.Pod(1, 1).phase == VolcanoPodPhase::kFailed);
  // An evicted pod is recreated by the sync.
  Step(job, &s, {Ev("worker", 2, "PodEvicted")});
  CHECK(s.pods.Pod(1, 2).phase == VolcanoPodPhase::kRunning);
  CHECK(s.retry_count == 0);
  // Everything else succeeds: 4 of minAvailable 5 succeeded, the worker task is short.
  VolcanoStepOutcome end = Step(job, &s,
                                {Ev("master", 0, "PodSucceeded"), Ev("worker", 0, "PodSucceeded"),
                                 Ev("worker", 2, "PodSucceeded"), Ev("worker", 3, "PodSucceeded")});
  CHECK(end.events[0].request.event == "TaskCompleted");  // the master's only pod
  CHECK(end.events[1].request.event == "OutOfSync");
  CHECK(end.phase == VolcanoPhase::kFailed);

  VolcanoJob lenient = Job("  minAvailable: 3\n", "    minAvailable: 2\n");
  VolcanoState t = InitialVolcanoState(lenient);
  Step(lenient, &t, {Ev("worker", 1, "PodFailed", 2)});
  CHECK(Step(lenient, &t,
             {Ev("master", 0, "PodSucceeded"), Ev("worker", 0, "PodSucceeded"),
              Ev("worker", 2, "PodSucceeded"), Ev("worker", 3, "PodSucceeded")})
            .phase == VolcanoPhase::kCompleted);
}

TEST_CASE("volcano: TaskCompleted with CompleteJob ends the job at once") {
  VolcanoJob job = Job("  policies:\n  - {event: TaskCompleted, action: CompleteJob}\n");
  VolcanoState s = InitialVolcanoState(job);
  VolcanoStepOutcome out = Step(job, &s, {Ev("master", -1, "TaskCompleted")});
  CHECK(out.events[0].match.action == VolcanoAction::kCompleteJob);
  CHECK(out.phase == VolcanoPhase::kCompleted);
  CHECK(s.pods.Pod(1, 0).phase == VolcanoPodPhase::kDeleted);  // the workers are killed
  CHECK(s.pods.Pod(0, 0).phase == VolcanoPodPhase::kSucceeded);
}

TEST_CASE("volcano: a timeout delays the action; a later event of the pod cancels it") {
  VolcanoJob job = Job("  policies:\n  - {event: PodPending, action: RestartTask, timeout: 10m}\n");
  VolcanoState s = InitialVolcanoState(job);
  VolcanoStepOutcome fired = Step(job, &s, {Ev("worker", 1, "PodPending")});
  REQUIRE(fired.events.size() == 2);
  CHECK(fired.events[0].scheduled);
  CHECK(fired.events[0].after == VolcanoPhase::kRunning);
  CHECK(fired.events[1].fired);
  CHECK(fired.events[1].after == VolcanoPhase::kRestarting);
  CHECK(s.retry_count == 1);

  VolcanoState t = InitialVolcanoState(job);
  VolcanoStepOutcome cancelled =
      Step(job, &t, {Ev("worker", 1, "PodPending"), Ev("worker", 1, "PodRunning")});
  REQUIRE(cancelled.events.size() == 2);
  CHECK(cancelled.events[1].note == "cancels 1 delayed action(s) waiting on this pod");
  CHECK(t.retry_count == 0);

  // A second delayed request for the same pod and action is ignored.
  VolcanoState u = InitialVolcanoState(job);
  u.pods.SetPod(1, 1, {VolcanoPodPhase::kDeleted, u.pods.Pod(1, 1).version});
  VolcanoStepOutcome twice =
      Step(job, &u, {Ev("worker", 1, "PodPending"), Ev("worker", 2, "PodPending")});
  CHECK(twice.events.size() == 3);  // two scheduled (different pods); the first fires...
  CHECK(twice.events[2].fired);
  // ...and cancels the other RestartTask of the same task.
  CHECK(twice.events[2].note == "cancels 1 delayed action(s)");
  CHECK(u.retry_count == 1);
}

TEST_CASE("volcano: events the job cannot have are errors that say why") {
  VolcanoJob job = Job("");
  CHECK(StepError(job, {Ev("ps", 0, "PodFailed")}) == "no task 'ps' (tasks: master, worker)");
  CHECK(StepError(job, {Ev("worker", 4, "PodFailed")}) == "worker/4 is outside its 4 replicas");
  CHECK(StepError(job, {Ev("worker", -1, "PodFailed")}) ==
        "PodFailed happens to one pod: write worker/INDEX:PodFailed");
  CHECK(StepError(job, {Ev("worker", 0, "PodEvicted", 3)}) ==
        "only PodFailed carries an exit code");
  CHECK(StepError(job, {Ev("worker", -1, "Unknown")}) ==
        "Unknown is a PodGroup event: it names no task (write it alone: Unknown)");
  CHECK(StepError(job, {Ev("worker", 0, "JobUpdated")}).find("never emitted") != std::string::npos);
  VolcanoEventSpec bad;
  bad.command = "SyncJob";
  CHECK(StepError(job, {bad}) == "command 'SyncJob' is not an action a command can carry");
}

}  // namespace jobset

namespace jobset {
namespace {

// applyPolicies' scan as written upstream: every policy in order, the first that names the
// event or `*` (PodPending only with a timeout) or the exit code. The index must agree with it.
int LinearScan(const std::vector<VolcanoPolicy>& policies, const VolcanoRequest& r) {
  for (size_t i = 0; i < policies.size(); ++i) {
    const VolcanoPolicy& p = policies[i];
    bool named = std::find(p.events.begin(), p.events.end(), r.event) != p.events.end();
    bool star = std::find(p.events.begin(), p.events.end(), "*") != p.events.end();
    if (!r.event.empty() && (named || star) && (r.event != "PodPending" || p.has_timeout))
      return static_cast<int>(i);
    if (p.has_exit_code && p.exit_code == r.exit_code) return static_cast<int>(i);
  }
  return -1;
}

TEST_CASE("volcano: the policy index finds the policy the upstream scan finds") {
  std::mt19937 rng(5);
  const char* events[] = {"PodFailed", "PodEvicted", "PodPending", "TaskCompleted",
                          "*",         "Unknown",    "TaskFailed"};
  int matched = 0;
  for (int round = 0; round < 500; ++round) {
    std::string yaml =
        "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\nspec:\n"
        "  tasks: [{name: w, replicas: 2}]\n  policies:\n";
    const int n = 1 + static_cast<int>(rng() % 6);
    for (int k = 0; k < n; ++k) {
      if (rng() % 3 == 0) {
        yaml += "  - {exitCode: " + std::to_string(rng() % 4) + ", action: AbortJob}\n";
        continue;
      }
      yaml += "  - {events: [" + std::string(events[rng() % 7]);
      if (rng() % 2) yaml += std::string(", ") + events[rng() % 7];
      yaml += "], action: RestartJob" + std::string(rng() % 2 ? ", timeout: 1m" : "") + "}\n";
    }
    const VolcanoJob job = DecodeTestJob(yaml);
    for (const char* e :
         {"PodFailed", "PodEvicted", "PodPending", "TaskCompleted", "Unknown", "TaskFailed", ""}) {
      for (int64_t code = 0; code < 4; ++code) {
        VolcanoRequest r;
        r.event = e;
        r.exit_code = code;
        const VolcanoMatch m = MatchVolcanoPolicy(job, r);
        CHECK_MESSAGE(m.policy == LinearScan(job.policies, r), yaml << e << " " << code);
        matched += m.policy >= 0;
      }
    }
  }
  CHECK(matched > 3000);
}

}  // namespace
}  // namespace jobset
