#include "validation/jobset/why.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "tests/why_test_util.h"
#include "validation/core/dump_history.h"
#include "validation/jobset/policy_engine.h"
#include "validation/jobset/types.h"

namespace jobset {
namespace {

// The synthetic histories of tests/why (tests/why/README.md): file and JobSet name.
const std::pair<const char*, const char*> kCases[] = {
    {"first-try", "first-try"},       {"fail-fast", "fail-fast"},       {"crashloop", "crashloop"},
    {"crashloop-early", "crashloop"}, {"maintenance", "maintenance"},   {"per-job", "per-job"},
    {"in-place", "in-place"},         {"bad-template", "bad-template"}, {"queued", "queued"}};

WorkloadDump LoadCase(const std::string& name) { return LoadWhyDump(name + ".json"); }

const Node& TheJobSet(const WorkloadDump& dump) {
  for (const Node& o : dump.objects)
    if (o.StringOr("kind") == "JobSet") return o;
  FAIL("no JobSet");
  return dump.objects.front();
}

int64_t StatusInt(const Node& js, std::string_view key) {
  const Node* status = js.Find("status");
  const Node* v = status == nullptr ? nullptr : status->Find(key);
  return v == nullptr ? 0 : v->integer;
}

Diagnosis Diagnose(const std::string& name) {
  WorkloadDump dump = LoadCase(name);
  Diagnosis d;
  std::string error;
  REQUIRE_MESSAGE(DiagnoseJobSet(dump, name, FeatureGates{}, &d, &error), error);
  return d;
}

}  // namespace

TEST_CASE("why: each recorded history replays to the status it records, with the same decisions") {
  for (const auto& [file, case_name] : kCases) {
    std::string name = case_name;
    CAPTURE(file);
    WorkloadDump dump = LoadCase(file);
    const Node& object = TheJobSet(dump);
    JobSet js = DecodeJobSet(object);
    FeatureGates gates;
    for (const Node& o : dump.objects) {
      if (o.StringOr("kind") == "Job" &&
          !LabelOf(o, "jobset.sigs.k8s.io/job-restart-attempt").empty())
        gates.restart_job = true;
    }
    PreparedPolicy policy = PreparePolicy(js, gates);
    std::vector<std::vector<DumpedFailure>> steps;
    std::string error;
    REQUIRE(JobSetFailureSteps(dump, name, &steps, &error));
    ReplayResult replay;
    REQUIRE_MESSAGE(Replay(policy, ToReplaySteps(steps, policy.rjob_names), &replay, &error),
                    error);
    // The replay's counters are the ones the controller wrote.
    CHECK(replay.state.restarts == StatusInt(object, "restarts"));
    CHECK(replay.state.restarts_count_towards_max == StatusInt(object, "restartsCountTowardsMax"));
    // Success is not a failure: a Completed JobSet's failures leave it non-terminal.
    std::string_view terminal = object.Find("status")->StringOr("terminalState");
    CHECK(TerminalStateName(replay.state.terminal_state) ==
          (terminal == "Completed" ? std::string_view() : terminal));
    const Node* conditions = object.Find("status")->Find("conditions");
    if (replay.state.failed.present) {
      REQUIRE(conditions != nullptr);
      bool found = false;
      for (const Node& c : conditions->items) {
        if (c.StringOr("type") != "Failed") continue;
        found = true;
        CHECK(c.StringOr("reason") == ReasonText(policy, replay.state.failed.text));
        CHECK(c.StringOr("message") == MessageText(policy, replay.state.failed.text));
      }
      CHECK(found);
    }
    // All Jobs ready again after the last restart (the JobsReady the dump records): the engine's
    // own transition.
    if (conditions != nullptr) {
      for (const Node& c : conditions->items) {
        if (c.StringOr("type") == "RestartingJobSet" && c.StringOr("reason") == "JobsReady")
          MarkJobsReady(policy, &replay.state, 1 << 30);
      }
    }
    if (replay.state.restarting.present) {
      REQUIRE(conditions != nullptr);
      bool found = false;
      for (const Node& c : conditions->items) {
        if (c.StringOr("type") != "RestartingJobSet") continue;
        found = true;
        CHECK(c.StringOr("status") == (replay.state.restarting.status ? "True" : "False"));
        CHECK(c.StringOr("reason") == ReasonText(policy, replay.state.restarting.text));
        CHECK(c.StringOr("message") == MessageText(policy, replay.state.restarting.text));
      }
      CHECK(found);
    }
    // Per-job counters (RestartJob).
    for (size_t r = 0; r < policy.rjob_names.size(); ++r) {
      std::vector<int32_t> want;
      const Node* rjs = object.Find("status")->Find("replicatedJobsStatus");
      REQUIRE(rjs != nullptr);
      for (const Node& s : rjs->items) {
        if (s.StringOr("name") != policy.rjob_names[r]) continue;
        if (const Node* arr = s.Find("jobRestarts"))
          for (const Node& v : arr->items) want.push_back(static_cast<int32_t>(v.integer));
      }
      std::vector<int32_t> got;
      if (r < replay.state.job_restarts.size()) got = replay.state.job_restarts[r];
      CHECK(got == want);
    }
    // The diagnosis' decisions are the replay's passes, in order.
    Diagnosis d;
    REQUIRE(DiagnoseJobSet(dump, name, FeatureGates{}, &d, &error));
    std::vector<const Attempt*> decided;
    for (const Attempt& a : d.timeline)
      if (!a.failed.empty() && a.action != "restart in place") decided.push_back(&a);
    std::vector<const PassOutcome*> passes;
    for (const ReplayStep& s : replay.steps)
      for (const PassOutcome& p : s.outcome.passes) passes.push_back(&p);
    REQUIRE(decided.size() == passes.size());
    for (size_t i = 0; i < passes.size(); ++i) {
      CHECK(decided[i]->action == std::string(ActionName(passes[i]->action)));
      CHECK(decided[i]->counted == passes[i]->counted);
      CHECK(decided[i]->failed == "Job " + JobName(policy, passes[i]->rjob, passes[i]->index));
    }
    // And nothing had to be noted as disagreeing.
    for (const std::string& note : d.notes) CHECK(note.find("replay to") == std::string::npos);
  }
}

TEST_CASE("why: health, and so the exit status, of each history") {
  CHECK(Diagnose("first-try").health == Health::kSucceeded);
  CHECK(Diagnose("fail-fast").health == Health::kFailed);
  CHECK(Diagnose("crashloop").health == Health::kFailed);
  CHECK(Diagnose("maintenance").health == Health::kRestarting);
  CHECK(Diagnose("per-job").health == Health::kHealthy);
  CHECK(Diagnose("in-place").health == Health::kHealthy);
  CHECK(Diagnose("bad-template").health == Health::kStuck);
  CHECK(Diagnose("queued").health == Health::kSuspended);
}

TEST_CASE("why: a rule's PodFailurePolicy failure names the rule, the exit code and the node") {
  Diagnosis d = Diagnose("fail-fast");
  REQUIRE(d.timeline.size() == 1);
  const Attempt& a = d.timeline[0];
  CHECK(a.failed == "Job fail-fast-workers-1");
  CHECK(a.rule == "rule 0 (fatal-exit)");
  CHECK(a.action == "FailJobSet");
  CHECK_FALSE(a.counted);
  CHECK(a.outcome == "failed: FailJobSetFailurePolicyAction");
  bool exit42 = false, pfp = false;
  for (const FailureCause& c : a.causes) {
    exit42 = exit42 || (c.text.find("exited with code 42") != std::string::npos &&
                        c.text.find("gpu-7") != std::string::npos && c.category == "application");
    pfp = pfp || c.text == "pod failure policy rule 0 (FailJob) matched";
  }
  CHECK(exit42);
  CHECK(pfp);
  CHECK(d.next.empty());  // terminal
}

TEST_CASE("why: between two failures, the restart is told and the JobSet is healthy") {
  WorkloadDump dump = LoadCase("crashloop-early");
  Diagnosis d;
  std::string error;
  REQUIRE(DiagnoseJobSet(dump, "crashloop", FeatureGates{}, &d, &error));
  CHECK(d.health == Health::kHealthy);
  REQUIRE(d.timeline.size() == 2);
  CHECK(d.timeline[0].outcome == "restarted the JobSet (attempt 1)");
  CHECK(d.timeline[1].number == 1);
  CHECK(d.timeline[1].outcome == "running");
  // One more failure uses the second and last counted restart.
  REQUIRE(!d.next.empty());
  CHECK(d.next[0].effect == "restarts the JobSet, counted: 2 of 2 restarts used");
}

TEST_CASE("why: restarts until ReachedMaxRestarts, a loop of the same failure") {
  Diagnosis d = Diagnose("crashloop");
  REQUIRE(d.timeline.size() == 3);
  CHECK(d.timeline[0].rule == "no rule: default");
  CHECK(d.timeline[0].counted);
  CHECK(d.timeline[1].outcome == "restarted the JobSet (attempt 2)");
  CHECK(d.timeline[2].outcome == "failed: ReachedMaxRestarts");
  CHECK_FALSE(d.timeline[2].counted);
  REQUIRE(!d.budgets.empty());
  CHECK(d.budgets[0].used == 2);
  CHECK(d.budgets[0].limit == 2);
  bool loop = false, time = false;
  for (const Hazard& h : d.hazards) {
    loop = loop || (h.id == "restart-loop" && h.text.find("3 attempts in a row") == 0);
    time = time ||
           (h.id == "time-restarting" && h.text.find("3m20s in 2 restart") != std::string::npos);
  }
  CHECK(loop);
  CHECK(time);
}

TEST_CASE("why: a host-maintenance failure restarts without counting, from infrastructure") {
  Diagnosis d = Diagnose("maintenance");
  REQUIRE(d.timeline.size() == 2);
  CHECK(d.timeline[0].rule == "rule 0 (restart-on-disruption)");
  CHECK(d.timeline[0].action == "RestartJobSetAndIgnoreMaxRestarts");
  CHECK_FALSE(d.timeline[0].counted);
  bool infra = false;
  for (const FailureCause& c : d.timeline[0].causes)
    infra = infra || (c.category == "infrastructure" &&
                      c.text.find("TerminationByKubelet") != std::string::npos);
  CHECK(infra);
  CHECK(d.timeline[1].outcome == "running");
  // One more failure at the current counters: the default action counts (0 of 1 used).
  bool default_counts = false;
  for (const NextStep& n : d.next)
    default_counts = default_counts || (n.reason == "BackoffLimitExceeded" &&
                                        n.effect ==
                                            "restarts the JobSet, counted: 1 of 1 "
                                            "restarts used");
  CHECK(default_counts);
}

TEST_CASE("why: RestartJob keeps per-job counts in the shared budget") {
  Diagnosis d = Diagnose("per-job");
  REQUIRE(d.budgets.size() == 2);
  CHECK(d.budgets[0].used == 1);  // the per-job count is in the combined budget
  CHECK(d.budgets[1].scope == "workers/1");
  CHECK(d.budgets[1].used == 1);
  REQUIRE(!d.timeline.empty());
  CHECK(d.timeline[0].action == "RestartJob");
  CHECK(d.timeline[0].outcome == "recreated Job per-job-workers-1");
  bool oom = false;
  for (const FailureCause& c : d.timeline[0].causes)
    oom = oom || c.text.find("OOMKilling") != std::string::npos;
  CHECK(oom);
}

TEST_CASE("why: a child Job that cannot be created leaves the JobSet stuck, not failed") {
  Diagnosis d = Diagnose("bad-template");
  CHECK(d.state == "Stuck: 2 of 2 child Jobs cannot be created");
  REQUIRE(!d.hazards.empty());
  CHECK(d.hazards[0].id == "job-creation-failed");
  CHECK(d.hazards[0].text.find("containers[0].image: Required value") != std::string::npos);
}

TEST_CASE("why: any part of a dump left out still gives an answer, never a crash") {
  for (const auto& [file, case_name] : kCases) {
    CAPTURE(file);
    const std::string name = case_name;
    CheckEveryPartLeftOut(LoadCase(file),
                          [&](const WorkloadDump& part, Diagnosis* d, std::string* error) {
                            return DiagnoseJobSet(part, name, FeatureGates{}, d, error);
                          });
  }
}

TEST_CASE("why: a dump without the JobSet") {
  WorkloadDump dump;
  Diagnosis d;
  std::string error;
  CHECK_FALSE(DiagnoseJobSet(dump, "nope", FeatureGates{}, &d, &error));
  CHECK(error == "no JobSet \"nope\" in the dump");
}

TEST_CASE("why: an event that only has series.lastObservedTime is timed by it") {
  // events.k8s.io/v1 Events of a series may carry no other time: the Job's failure is still
  // placed in time (core's EventTime), so the attempt it ended has an end.
  WorkloadDump dump;
  std::string error;
  REQUIRE_MESSAGE(ParseWorkloadDump(R"({"apiVersion":"v1","kind":"List","items":[
      {"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet",
       "metadata":{"name":"js","creationTimestamp":"2026-01-01T00:00:00Z"},
       "spec":{"failurePolicy":{"maxRestarts":3},
               "replicatedJobs":[{"name":"w","replicas":1,"template":{}}]},
       "status":{"restarts":1,"restartsCountTowardsMax":1}},
      {"apiVersion":"events.k8s.io/v1","kind":"Event","type":"Warning",
       "reason":"BackoffLimitExceeded","note":"Job has reached the specified backoff limit",
       "regarding":{"kind":"Job","name":"js-w-0"},
       "series":{"count":2,"lastObservedTime":"2026-01-01T00:10:00Z"}}]})",
                                    WorkloadDumpLimits{}, &dump, &error),
                  error);
  std::vector<std::vector<DumpedFailure>> steps;
  REQUIRE(JobSetFailureSteps(dump, "js", &steps, &error));
  REQUIRE(steps.size() == 1);
  REQUIRE(steps[0].size() == 1);
  CHECK(steps[0][0].time == "2026-01-01T00:10:00Z");
  CHECK(steps[0][0].seconds == KubeTimeSeconds("2026-01-01T00:10:00Z"));
  Diagnosis d;
  REQUIRE(DiagnoseJobSet(dump, "js", FeatureGates{}, &d, &error));
  REQUIRE(d.timeline.size() == 2);
  CHECK(d.timeline[0].failed == "Job js-w-0");
  CHECK(d.timeline[0].ended == "2026-01-01T00:10:00Z");
  CHECK(d.timeline[1].started == "2026-01-01T00:10:00Z");
}

}  // namespace jobset
