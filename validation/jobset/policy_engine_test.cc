#include "validation/jobset/policy_engine.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "tests/test_size.h"
#include "validation/core/loader.h"
#include "validation/jobset/validation.h"

namespace jobset {
namespace {

constexpr char kBackoff[] = "BackoffLimitExceeded";
constexpr char kPodFailurePolicy[] = "PodFailurePolicy";
constexpr char kDeadline[] = "DeadlineExceeded";

// A JobSet named "js" with replicated jobs "name=replicas ..." and, when `failure_policy` is not
// empty, `spec.failurePolicy: <failure_policy>` (YAML flow style).
std::string JobSetYaml(std::string_view rjobs, std::string_view failure_policy) {
  std::string y =
      "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: js\nspec:\n"
      "  replicatedJobs:\n";
  size_t pos = 0;
  while (pos < rjobs.size()) {
    size_t end = rjobs.find(' ', pos);
    if (end == std::string_view::npos) end = rjobs.size();
    std::string_view item = rjobs.substr(pos, end - pos);
    size_t eq = item.find('=');
    y += "  - name: " + std::string(item.substr(0, eq)) + "\n";
    y += "    replicas: " + std::string(item.substr(eq + 1)) + "\n";
    y += "    template:\n      spec:\n        template:\n          spec:\n"
         "            restartPolicy: Never\n"
         "            containers: [{name: c, image: busybox}]\n";
    pos = end + 1;
  }
  if (!failure_policy.empty()) y += "  failurePolicy: " + std::string(failure_policy) + "\n";
  return y;
}

PreparedPolicy Prepare(std::string_view rjobs, std::string_view failure_policy,
                       FeatureGates gates = {}) {
  SourceFile source = ParseSource("test.yaml", JobSetYaml(rjobs, failure_policy));
  REQUIRE(source.documents.size() == 1);
  REQUIRE(source.documents[0].parsed);
  JobSet js = DecodeJobSet(source.documents[0].root);
  REQUIRE(js.replicated_jobs.size() > 0);
  return PreparePolicy(js, gates);
}

FeatureGates RestartJobGate() {
  FeatureGates g;
  g.restart_job = true;
  return g;
}

JobFailure Fail(int rjob, int64_t index, std::string_view reason, int64_t time,
                std::string_view message = "") {
  JobFailure f;
  f.rjob = rjob;
  f.index = index;
  f.reason = reason;
  f.message = message;
  f.time = time;
  return f;
}

// A JobSet under simulation.
struct Sim {
  PreparedPolicy policy;
  ControllerState state;

  StepOutcome Step(std::vector<JobFailure> failures) {
    return ApplyFailures(policy, &state, failures);
  }
  std::string FailedReason() const {
    return state.failed.present ? std::string(ReasonText(policy, state.failed.text)) : "";
  }
  std::string FailedMessage() const {
    return state.failed.present ? MessageText(policy, state.failed.text) : "";
  }
  std::string RestartingReason() const {
    return std::string(ReasonText(policy, state.restarting.text));
  }
  std::string RestartingMessage() const { return MessageText(policy, state.restarting.text); }
};

Sim MakeSim(std::string_view rjobs, std::string_view failure_policy, FeatureGates gates = {}) {
  return Sim{Prepare(rjobs, failure_policy, gates), {}};
}

using Counts = std::vector<int32_t>;

}  // namespace

TEST_CASE("engine: worked example 1: default action up to maxRestarts, then ReachedMaxRestarts") {
  Sim sim = MakeSim("rj=2", "{maxRestarts: 2}");
  StepOutcome o = sim.Step({Fail(0, 1, kBackoff, 10)});
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].rule == -1);
  CHECK(o.passes[0].action == PolicyAction::kRestartJobSet);
  CHECK(o.passes[0].counted);
  CHECK(o.passes[0].restarts == 1);
  CHECK(o.passes[0].restarts_count_towards_max == 1);
  CHECK(sim.state.restarting.present);
  CHECK(sim.state.restarting.status);
  CHECK(sim.RestartingReason() == "DefaultFailurePolicy");
  CHECK(sim.RestartingMessage() ==
        "applying RestartJobSet failure policy action (first failed job: js-rj-1)");
  CHECK(sim.state.terminal_state == TerminalState::kNone);

  sim.Step({Fail(0, 1, kBackoff, 20)});
  CHECK(sim.state.restarts == 2);
  CHECK(sim.state.restarts_count_towards_max == 2);

  o = sim.Step({Fail(0, 1, kBackoff, 30)});
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].reached_max);
  CHECK_FALSE(o.passes[0].counted);
  CHECK(o.passes[0].terminal_state == TerminalState::kFailed);
  CHECK(sim.state.terminal_state == TerminalState::kFailed);
  CHECK(TerminalStateName(sim.state.terminal_state) == "Failed");
  CHECK(sim.FailedReason() == "ReachedMaxRestarts");
  CHECK(sim.FailedMessage() ==
        "jobset failed due to reaching max number of restarts (first failed job: js-rj-1)");
  CHECK(sim.state.failed.status);
  CHECK(sim.state.failed.last_transition_time == 30);
  CHECK_FALSE(sim.state.restarting.status);
  CHECK(sim.RestartingReason() == "JobSetFailed");
  CHECK(sim.RestartingMessage() == "jobset failed");
  CHECK(sim.state.restarts == 2);
  CHECK(sim.state.restarts_count_towards_max == 2);
}

TEST_CASE("engine: worked example 2: individual restarts are handled one per pass") {
  Sim sim =
      MakeSim("rj=3", "{maxRestarts: 1, rules: [{name: w, action: RestartJob}]}", RestartJobGate());
  StepOutcome o = sim.Step({Fail(0, 0, kBackoff, 1), Fail(0, 2, kBackoff, 2)});
  REQUIRE(o.passes.size() == 2);
  CHECK(o.passes[0].rjob == 0);
  CHECK(o.passes[0].index == 0);
  CHECK(o.passes[0].rule == 0);
  CHECK(o.passes[0].action == PolicyAction::kRestartJob);
  CHECK(o.passes[0].counted);
  CHECK(o.passes[0].counted_restarts == 1);
  CHECK(o.passes[0].terminal_state == TerminalState::kNone);
  CHECK(o.passes[1].index == 2);
  CHECK(o.passes[1].reached_max);
  CHECK(o.passes[1].terminal_state == TerminalState::kFailed);
  CHECK(o.fates == std::vector<FailureFate>{FailureFate::kHandled, FailureFate::kHandled});
  CHECK(sim.state.job_restarts[0] == Counts{1, 0, 0});
  CHECK(sim.state.job_restarts_count_towards_max[0] == Counts{1, 0, 0});
  CHECK(sim.state.restarts == 0);
  CHECK(sim.state.restarts_count_towards_max == 0);
  CHECK(sim.FailedReason() == "ReachedMaxRestarts");
  CHECK(sim.FailedMessage() ==
        "jobset failed due to reaching max number of restarts (first failed job: js-rj-2)");
  // An individual restart sets no RestartingJobSet condition, so none turns False either.
  CHECK_FALSE(sim.state.restarting.present);
}

TEST_CASE("engine: worked example 3: rule order beats failure time") {
  Sim sim = MakeSim("leader=1 workers=2",
                    "{rules: [{name: a, action: RestartJobSetAndIgnoreMaxRestarts, "
                    "targetReplicatedJobs: [workers]}, {name: b, action: FailJobSet, "
                    "targetReplicatedJobs: [leader]}]}");
  StepOutcome o = sim.Step({Fail(0, 0, kBackoff, 1), Fail(1, 0, kBackoff, 2)});
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].rule == 0);
  CHECK(o.passes[0].rjob == 1);
  CHECK(o.passes[0].action == PolicyAction::kRestartJobSetAndIgnoreMaxRestarts);
  CHECK_FALSE(o.passes[0].counted);
  CHECK(o.fates == std::vector<FailureFate>{FailureFate::kDiscarded, FailureFate::kHandled});
  CHECK(sim.state.terminal_state == TerminalState::kNone);
  CHECK_FALSE(sim.state.failed.present);
  CHECK(sim.state.restarts == 1);
  CHECK(sim.state.restarts_count_towards_max == 0);
  CHECK(sim.RestartingReason() == "FailurePolicy_a");
  CHECK(sim.RestartingMessage() ==
        "applying RestartJobSetAndIgnoreMaxRestarts failure policy action (first failed job: "
        "js-workers-0)");
}

TEST_CASE("engine: FailJobSet fails at once and creates no RestartingJobSet condition") {
  Sim sim = MakeSim("rj=2", "{maxRestarts: 5, rules: [{name: f, action: FailJobSet}]}");
  StepOutcome o = sim.Step({Fail(0, 1, kDeadline, 7)});
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].action == PolicyAction::kFailJobSet);
  CHECK_FALSE(o.passes[0].counted);
  CHECK_FALSE(o.passes[0].reached_max);
  CHECK(sim.state.terminal_state == TerminalState::kFailed);
  CHECK(sim.FailedReason() == "FailJobSetFailurePolicyAction");
  CHECK(sim.FailedMessage() ==
        "applying FailJobSet failure policy action (first failed job: js-rj-1)");
  CHECK_FALSE(sim.state.restarting.present);  // A False condition is never created.
  CHECK(sim.state.restarts == 0);
}

TEST_CASE("engine: FailJobSet after a restart turns RestartingJobSet False/JobSetFailed") {
  Sim sim = MakeSim("rj=2",
                    "{maxRestarts: 5, rules: [{name: fatal, action: FailJobSet, "
                    "onJobFailureReasons: [PodFailurePolicy]}]}");
  sim.Step({Fail(0, 0, kBackoff, 1)});
  CHECK(sim.RestartingReason() == "DefaultFailurePolicy");
  CHECK(sim.state.restarting.status);
  sim.Step({Fail(0, 1, kPodFailurePolicy, 9)});
  CHECK(sim.FailedReason() == "FailJobSetFailurePolicyAction");
  CHECK(sim.FailedMessage() ==
        "applying FailJobSet failure policy action (first failed job: js-rj-1)");
  CHECK_FALSE(sim.state.restarting.status);
  CHECK(sim.RestartingReason() == "JobSetFailed");
  CHECK(sim.state.restarting.last_transition_time == 9);
  CHECK(sim.state.restarts == 1);
  CHECK(sim.state.restarts_count_towards_max == 1);
}

TEST_CASE("engine: RestartJobSet via a rule uses FailurePolicy_<rule> and counts") {
  Sim sim = MakeSim("rj=2",
                    "{maxRestarts: 1, rules: [{name: retry, action: RestartJobSet, "
                    "onJobFailureReasons: [BackoffLimitExceeded]}]}");
  StepOutcome o = sim.Step({Fail(0, 0, kBackoff, 1)});
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].rule == 0);
  CHECK(o.passes[0].counted);
  CHECK(sim.RestartingReason() == "FailurePolicy_retry");
  CHECK(sim.RestartingMessage() ==
        "applying RestartJobSet failure policy action (first failed job: js-rj-0)");
  CHECK(sim.state.restarts == 1);
  CHECK(sim.state.restarts_count_towards_max == 1);
  sim.Step({Fail(0, 1, kBackoff, 2)});
  CHECK(sim.FailedReason() == "ReachedMaxRestarts");
  CHECK(sim.FailedMessage() ==
        "jobset failed due to reaching max number of restarts (first failed job: js-rj-1)");
  CHECK(sim.state.restarts == 1);
}

TEST_CASE("engine: RestartJobSetAndIgnoreMaxRestarts never consumes budget nor fails") {
  Sim sim =
      MakeSim("rj=1",
              "{maxRestarts: 0, rules: [{name: ignore, action: "
              "RestartJobSetAndIgnoreMaxRestarts, onJobFailureReasons: [PodFailurePolicy]}]}");
  for (int i = 1; i <= 5; ++i) {
    StepOutcome o = sim.Step({Fail(0, 0, kPodFailurePolicy, i)});
    REQUIRE(o.passes.size() == 1);
    CHECK_FALSE(o.passes[0].counted);
  }
  CHECK(sim.state.terminal_state == TerminalState::kNone);
  CHECK(sim.state.restarts == 5);
  CHECK(sim.state.restarts_count_towards_max == 0);
  CHECK(sim.RestartingReason() == "FailurePolicy_ignore");
  // A counted restart still sees the (zero) budget.
  sim.Step({Fail(0, 0, kBackoff, 6)});
  CHECK(sim.FailedReason() == "ReachedMaxRestarts");
  CHECK(sim.FailedMessage() ==
        "jobset failed due to reaching max number of restarts (first failed job: js-rj-0)");
  CHECK(sim.state.restarts == 5);
}

TEST_CASE("engine: RestartJob restarts one job; arrays absent until then, sized replicas") {
  Sim sim = MakeSim("leader=1 workers=4",
                    "{maxRestarts: 3, rules: [{name: one, action: RestartJob, "
                    "targetReplicatedJobs: [workers]}]}",
                    RestartJobGate());
  CHECK(sim.state.job_restarts.empty());
  StepOutcome o = sim.Step({Fail(1, 2, kBackoff, 1)});
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].action == PolicyAction::kRestartJob);
  CHECK(o.passes[0].counted);
  CHECK(o.passes[0].restarts == 0);
  CHECK(o.passes[0].counted_restarts == 1);
  REQUIRE(sim.state.job_restarts.size() == 2);
  CHECK(sim.state.job_restarts[0].empty());  // leader: still absent
  CHECK(sim.state.job_restarts[1] == Counts{0, 0, 1, 0});
  CHECK(sim.state.job_restarts_count_towards_max[0].empty());
  CHECK(sim.state.job_restarts_count_towards_max[1] == Counts{0, 0, 1, 0});
  CHECK(sim.state.restarts == 0);
  CHECK(sim.state.restarts_count_towards_max == 0);
  CHECK_FALSE(sim.state.restarting.present);
  sim.Step({Fail(1, 2, kBackoff, 2)});
  sim.Step({Fail(1, 0, kBackoff, 3)});
  CHECK(sim.state.job_restarts[1] == Counts{1, 0, 2, 0});
  CHECK(sim.state.job_restarts_count_towards_max_sum == 3);
  CHECK(CountedRestarts(sim.policy, sim.state) == 3);
  // The leader is not targeted: the default action (RestartJobSet) sees the combined budget.
  o = sim.Step({Fail(0, 0, kBackoff, 4)});
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].rule == -1);
  CHECK(o.passes[0].reached_max);
  CHECK(sim.FailedReason() == "ReachedMaxRestarts");
  CHECK(sim.FailedMessage() ==
        "jobset failed due to reaching max number of restarts (first failed job: js-leader-0)");
}

TEST_CASE("engine: RestartJobAndIgnoreMaxRestarts only bumps jobRestarts") {
  Sim sim = MakeSim("rj=2",
                    "{maxRestarts: 0, rules: [{name: free, action: "
                    "RestartJobAndIgnoreMaxRestarts}]}",
                    RestartJobGate());
  for (int i = 0; i < 3; ++i) {
    StepOutcome o = sim.Step({Fail(0, 1, kBackoff, i)});
    REQUIRE(o.passes.size() == 1);
    CHECK_FALSE(o.passes[0].counted);
  }
  CHECK(sim.state.job_restarts[0] == Counts{0, 3});
  CHECK(sim.state.job_restarts_count_towards_max[0].empty());  // may stay absent
  CHECK(sim.state.job_restarts_count_towards_max_sum == 0);
  CHECK(sim.state.restarts == 0);
  CHECK(sim.state.terminal_state == TerminalState::kNone);
  CHECK_FALSE(sim.state.restarting.present);
  CHECK_FALSE(sim.state.failed.present);
}

TEST_CASE("engine: maxRestarts 0, including failurePolicy: {}, fails the first restart") {
  for (const char* fp : {"{}", "{maxRestarts: 0}"}) {
    CAPTURE(fp);
    Sim sim = MakeSim("rj=2", fp);
    CHECK(sim.policy.has_failure_policy);
    StepOutcome o = sim.Step({Fail(0, 1, kBackoff, 5)});
    REQUIRE(o.passes.size() == 1);
    CHECK(o.passes[0].rule == -1);
    CHECK(o.passes[0].action == PolicyAction::kRestartJobSet);
    CHECK(o.passes[0].reached_max);
    CHECK(sim.FailedReason() == "ReachedMaxRestarts");
    CHECK(sim.FailedMessage() ==
          "jobset failed due to reaching max number of restarts (first failed job: js-rj-1)");
    CHECK(sim.state.restarts == 0);
    CHECK(sim.state.restarts_count_towards_max == 0);
    CHECK_FALSE(sim.state.restarting.present);
  }
  Sim rj = MakeSim("rj=2", "{rules: [{name: r, action: RestartJob}]}", RestartJobGate());
  rj.Step({Fail(0, 0, kBackoff, 1)});
  CHECK(rj.FailedReason() == "ReachedMaxRestarts");
  CHECK(rj.FailedMessage() ==
        "jobset failed due to reaching max number of restarts (first failed job: js-rj-0)");
  CHECK(rj.state.job_restarts[0].empty());
}

TEST_CASE("engine: maxRestarts k allows exactly k counted restarts, the k+1-th fails") {
  for (int k : {1, 3, 7}) {
    CAPTURE(k);
    Sim sim = MakeSim("rj=1", "{maxRestarts: " + std::to_string(k) + "}");
    for (int i = 0; i < k; ++i) {
      StepOutcome o = sim.Step({Fail(0, 0, kBackoff, i)});
      REQUIRE(o.passes.size() == 1);
      CHECK(o.passes[0].counted);
      CHECK(sim.state.terminal_state == TerminalState::kNone);
    }
    CHECK(sim.state.restarts_count_towards_max == k);
    sim.Step({Fail(0, 0, kBackoff, 100)});
    CHECK(sim.state.terminal_state == TerminalState::kFailed);
    CHECK(sim.FailedReason() == "ReachedMaxRestarts");
    CHECK(sim.state.restarts == k);
    CHECK(sim.state.restarts_count_towards_max == k);
  }
}

TEST_CASE("engine: negative maxRestarts fails the first counted restart only") {
  Sim sim =
      MakeSim("rj=1",
              "{maxRestarts: -1, rules: [{name: ign, action: "
              "RestartJobSetAndIgnoreMaxRestarts, onJobFailureReasons: [DeadlineExceeded]}]}");
  CHECK(sim.policy.max_restarts == -1);
  sim.Step({Fail(0, 0, kDeadline, 1)});
  CHECK(sim.state.restarts == 1);
  CHECK(sim.state.terminal_state == TerminalState::kNone);
  sim.Step({Fail(0, 0, kBackoff, 2)});
  CHECK(sim.FailedReason() == "ReachedMaxRestarts");
  CHECK(sim.FailedMessage() ==
        "jobset failed due to reaching max number of restarts (first failed job: js-rj-0)");
  CHECK(sim.state.restarts == 1);
  CHECK(sim.state.restarts_count_towards_max == 0);
}

TEST_CASE("engine: rule-major selection: an earlier rule matching a later failure wins") {
  Sim sim =
      MakeSim("rj=3",
              "{maxRestarts: 3, rules: ["
              "{name: first, action: RestartJobSet, onJobFailureReasons: [DeadlineExceeded]},"
              "{name: second, action: FailJobSet, onJobFailureReasons: [BackoffLimitExceeded]}"
              "]}");
  StepOutcome o = sim.Step({Fail(0, 0, kBackoff, 1), Fail(0, 1, kDeadline, 50)});
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].rule == 0);
  CHECK(o.passes[0].index == 1);
  CHECK(sim.state.terminal_state == TerminalState::kNone);
  CHECK(sim.RestartingReason() == "FailurePolicy_first");
  CHECK(sim.RestartingMessage() ==
        "applying RestartJobSet failure policy action (first failed job: js-rj-1)");
  CHECK(sim.state.restarts == 1);
}

TEST_CASE("engine: within a rule the earliest failure wins; ties go to the order given") {
  const char* fp = "{maxRestarts: 3, rules: [{name: r, action: FailJobSet}]}";
  {
    Sim sim = MakeSim("a=3 b=3", fp);
    sim.Step({Fail(0, 0, kBackoff, 30), Fail(1, 2, kBackoff, 10), Fail(0, 1, kBackoff, 20)});
    CHECK(sim.FailedMessage() ==
          "applying FailJobSet failure policy action (first failed job: js-b-2)");
  }
  {
    Sim sim = MakeSim("a=3 b=3", fp);
    sim.Step({Fail(1, 1, kBackoff, 10), Fail(0, 2, kBackoff, 10), Fail(0, 0, kBackoff, 10)});
    CHECK(sim.FailedMessage() ==
          "applying FailJobSet failure policy action (first failed job: js-b-1)");
  }
  {
    // The default action picks the globally earliest failure the same way.
    Sim sim = MakeSim("a=3 b=3", "{maxRestarts: 0}");
    sim.Step({Fail(0, 2, kBackoff, 10), Fail(1, 0, kBackoff, 5), Fail(0, 1, kBackoff, 5)});
    CHECK(sim.FailedReason() == "ReachedMaxRestarts");
    CHECK(sim.FailedMessage() ==
          "jobset failed due to reaching max number of restarts (first failed job: js-b-0)");
  }
}

TEST_CASE("engine: simultaneous failures cause a single global restart") {
  Sim sim = MakeSim("rj=4", "{maxRestarts: 2}");
  StepOutcome o =
      sim.Step({Fail(0, 3, kBackoff, 2), Fail(0, 1, kBackoff, 1), Fail(0, 0, kDeadline, 3)});
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].index == 1);
  CHECK(o.fates == std::vector<FailureFate>{FailureFate::kDiscarded, FailureFate::kHandled,
                                            FailureFate::kDiscarded});
  CHECK(sim.state.restarts == 1);
  CHECK(sim.state.restarts_count_towards_max == 1);
  CHECK(sim.RestartingMessage() ==
        "applying RestartJobSet failure policy action (first failed job: js-rj-1)");
  CHECK(sim.state.pending.empty());
}

TEST_CASE("engine: a global restart after individual restarts in the same step ends it") {
  Sim sim = MakeSim("leader=1 workers=3",
                    "{maxRestarts: 5, rules: ["
                    "{name: w, action: RestartJob, targetReplicatedJobs: [workers]},"
                    "{name: l, action: RestartJobSet, targetReplicatedJobs: [leader]}]}",
                    RestartJobGate());
  StepOutcome o =
      sim.Step({Fail(0, 0, kBackoff, 1), Fail(1, 0, kBackoff, 2), Fail(1, 1, kBackoff, 3)});
  REQUIRE(o.passes.size() == 3);
  CHECK(o.passes[0].index == 0);
  CHECK(o.passes[0].rjob == 1);
  CHECK(o.passes[1].index == 1);
  CHECK(o.passes[1].rjob == 1);
  CHECK(o.passes[2].rjob == 0);
  CHECK(o.passes[2].rule == 1);
  CHECK(o.passes[2].counted_restarts == 3);
  CHECK(sim.state.job_restarts[1] == Counts{1, 1, 0});
  CHECK(sim.state.restarts == 1);
  CHECK(sim.state.restarts_count_towards_max == 1);
  CHECK(sim.RestartingReason() == "FailurePolicy_l");
  CHECK(sim.RestartingMessage() ==
        "applying RestartJobSet failure policy action (first failed job: js-leader-0)");
}

TEST_CASE("engine: message patterns are unanchored RE2 searches") {
  Sim sim = MakeSim("rj=2",
                    "{maxRestarts: 3, rules: [{name: crit, action: FailJobSet, "
                    "onJobFailureMessagePatterns: ['some message']}]}");
  // No match: the default action.
  sim.Step({Fail(0, 0, kBackoff, 1, "Some Message (case differs)")});
  CHECK(sim.RestartingReason() == "DefaultFailurePolicy");
  CHECK(sim.state.terminal_state == TerminalState::kNone);
  sim.Step({Fail(0, 0, kBackoff, 2, "this is some message with critical error")});
  CHECK(sim.FailedReason() == "FailJobSetFailurePolicyAction");
  CHECK(sim.FailedMessage() ==
        "applying FailJobSet failure policy action (first failed job: js-rj-0)");
}

TEST_CASE("engine: anchored patterns, dot and newlines") {
  PreparedPolicy p = Prepare("rj=1",
                             "{rules: [{name: exact, action: FailJobSet, "
                             "onJobFailureMessagePatterns: ['^exit code 42$']},"
                             "{name: dot, action: RestartJobSetAndIgnoreMaxRestarts, "
                             "onJobFailureMessagePatterns: ['a.b']}]}");
  CHECK(Decide(p, 0, kBackoff, "exit code 42").rule == 0);
  CHECK(Decide(p, 0, kBackoff, "exit code 421").rule == -1);
  CHECK(Decide(p, 0, kBackoff, "pod exit code 42").rule == -1);
  CHECK(Decide(p, 0, kBackoff, "xxa-byy").rule == 1);
  CHECK(Decide(p, 0, kBackoff, "a\nb").rule == -1);  // `.` does not match a newline (Go)
}

TEST_CASE("engine: a pattern that does not compile never matches; the next one still can") {
  Sim sim = MakeSim("rj=2",
                    "{maxRestarts: 3, rules: [{name: r, action: FailJobSet, "
                    "onJobFailureMessagePatterns: ['(unclosed', 'OOM']},"
                    "{name: only-bad, action: RestartJobSetAndIgnoreMaxRestarts, "
                    "onJobFailureMessagePatterns: ['[z-a]']}]}");
  REQUIRE(sim.policy.rules.size() == 2);
  CHECK(sim.policy.rules[0].patterns.size() == 1);
  CHECK(sim.policy.rules[0].pattern_errors.size() == 2);
  CHECK_FALSE(sim.policy.rules[0].pattern_errors[0].empty());
  CHECK(sim.policy.rules[0].pattern_errors[1].empty());
  // "(unclosed" taken literally would match; it is not taken at all.
  CHECK(Decide(sim.policy, 0, kBackoff, "(unclosed").rule == -1);
  CHECK(Decide(sim.policy, 0, kBackoff, "[z-a]").rule == -1);
  sim.Step({Fail(0, 1, kBackoff, 1, "container killed: OOMKilled")});
  CHECK(sim.FailedReason() == "FailJobSetFailurePolicyAction");
  CHECK(sim.FailedMessage() ==
        "applying FailJobSet failure policy action (first failed job: js-rj-1)");
}

TEST_CASE("engine: several patterns match as if tried one by one") {
  PreparedPolicy p = Prepare("rj=1",
                             "{rules: [{name: r, action: FailJobSet, "
                             "onJobFailureMessagePatterns: ['(?i)preempt', 'OOM$', '^x|y$']},"
                             "{name: q, action: FailJobSet, "
                             "onJobFailureMessagePatterns: ['\\Qa)|(b', 'zzz']}]}");
  REQUIRE(p.rules[0].combined != nullptr);
  CHECK(p.rules[1].combined == nullptr);  // \Q is never combined
  CHECK(Decide(p, 0, kBackoff, "node PREEMPTED").rule == 0);
  CHECK(Decide(p, 0, kBackoff, "killed: OOM").rule == 0);
  CHECK(Decide(p, 0, kBackoff, "killed: oom").rule == -1);  // (?i) stays in its pattern
  CHECK(Decide(p, 0, kBackoff, "OOM killed").rule == -1);
  CHECK(Decide(p, 0, kBackoff, "xa").rule == 0);
  CHECK(Decide(p, 0, kBackoff, "ay").rule == 0);
  CHECK(Decide(p, 0, kBackoff, "axa").rule == -1);
  CHECK(Decide(p, 0, kBackoff, "a)|(b").rule == 1);
  CHECK(Decide(p, 0, kBackoff, "b").rule == -1);
}

TEST_CASE("engine: targetReplicatedJobs restricts a rule to its replicated jobs") {
  Sim sim = MakeSim("driver=1 workers=2",
                    "{maxRestarts: 3, rules: [{name: drv, action: FailJobSet, "
                    "targetReplicatedJobs: [driver, no-such-rjob]}]}");
  CHECK_FALSE(sim.policy.rules[0].targets_all);
  CHECK(sim.policy.rules[0].target_keys == std::vector<int>{0});
  sim.Step({Fail(1, 1, kBackoff, 1)});
  CHECK(sim.RestartingReason() == "DefaultFailurePolicy");
  CHECK(sim.state.restarts == 1);
  sim.Step({Fail(0, 0, kBackoff, 2)});
  CHECK(sim.FailedReason() == "FailJobSetFailurePolicyAction");
  CHECK(sim.FailedMessage() ==
        "applying FailJobSet failure policy action (first failed job: js-driver-0)");
}

TEST_CASE("engine: an empty reason only matches rules with an empty reason list") {
  PreparedPolicy p = Prepare("rj=1",
                             "{maxRestarts: 2, rules: ["
                             "{name: listed, action: FailJobSet, onJobFailureReasons: "
                             "[BackoffLimitExceeded, DeadlineExceeded]},"
                             "{name: any, action: RestartJobSetAndIgnoreMaxRestarts}]}");
  CHECK(Decide(p, 0, "", "").rule == 1);
  CHECK(Decide(p, 0, kBackoff, "").rule == 0);
  CHECK(Decide(p, 0, "backofflimitexceeded", "").rule == 1);  // case-sensitive
  CHECK(Decide(p, 0, "SomethingElse", "").rule == 1);
  Sim sim{p, {}};
  sim.Step({Fail(0, 0, "", 3)});
  CHECK(sim.RestartingReason() == "FailurePolicy_any");
  CHECK(sim.state.restarts == 1);
  CHECK(sim.state.restarts_count_towards_max == 0);
}

TEST_CASE("engine: RestartJob with the gate off is stuck: nothing written, retried later") {
  Sim sim = MakeSim("rj=2",
                    "{maxRestarts: 3, rules: ["
                    "{name: fatal, action: FailJobSet, onJobFailureReasons: [PodFailurePolicy]},"
                    "{name: one, action: RestartJob}]}");
  StepOutcome o = sim.Step({Fail(0, 1, kBackoff, 1, "boom")});
  CHECK(o.stuck);
  CHECK(o.stuck_error ==
        "RestartJob failure policy action cannot be used when the feature gate RestartJob is "
        "disabled");
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].stuck);
  CHECK(o.passes[0].rule == 1);
  CHECK(o.fates == std::vector<FailureFate>{FailureFate::kPending});
  CHECK(sim.state.restarts == 0);
  CHECK(sim.state.job_restarts[0].empty());
  CHECK(sim.state.terminal_state == TerminalState::kNone);
  REQUIRE(sim.state.pending.size() == 1);
  CHECK(sim.state.pending[0].message == "boom");
  // Retrying with no new failure: stuck again, the same way.
  o = sim.Step({});
  CHECK(o.stuck);
  CHECK(sim.state.pending.size() == 1);
  // The same job cannot fail again while it is still failed.
  o = sim.Step({Fail(0, 1, kBackoff, 2)});
  CHECK(o.fates == std::vector<FailureFate>{FailureFate::kIgnored});
  CHECK(o.pending_count == 1);
  CHECK(o.pending_fate == FailureFate::kPending);
  // A later failure matching an earlier rule unblocks the controller: rule 0 wins.
  o = sim.Step({Fail(0, 0, kPodFailurePolicy, 3)});
  CHECK_FALSE(o.stuck);
  CHECK(o.fates == std::vector<FailureFate>{FailureFate::kHandled});
  CHECK(o.pending_fate == FailureFate::kDiscarded);
  CHECK(sim.state.pending.empty());
  CHECK(sim.FailedReason() == "FailJobSetFailurePolicyAction");
  CHECK(sim.FailedMessage() ==
        "applying FailJobSet failure policy action (first failed job: js-rj-0)");

  Sim ign = MakeSim("rj=2", "{rules: [{name: i, action: RestartJobAndIgnoreMaxRestarts}]}");
  o = ign.Step({Fail(0, 0, kBackoff, 1)});
  CHECK(o.stuck);
  CHECK(o.stuck_error ==
        "RestartJobAndIgnoreMaxRestarts failure policy action cannot be used when the feature "
        "gate RestartJob is disabled");
}

TEST_CASE("engine: gate on: RestartJobSet and RestartJob share one budget") {
  Sim sim = MakeSim("rj=2",
                    "{maxRestarts: 2, rules: ["
                    "{name: one, action: RestartJob, onJobFailureReasons: [PodFailurePolicy]}]}",
                    RestartJobGate());
  sim.Step({Fail(0, 0, kPodFailurePolicy, 1)});
  sim.Step({Fail(0, 1, kPodFailurePolicy, 2)});
  CHECK(sim.state.job_restarts_count_towards_max[0] == Counts{1, 1});
  CHECK(CountedRestarts(sim.policy, sim.state) == 2);
  StepOutcome o = sim.Step({Fail(0, 1, kBackoff, 3)});  // default RestartJobSet
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].reached_max);
  CHECK(sim.FailedReason() == "ReachedMaxRestarts");
  CHECK(sim.FailedMessage() ==
        "jobset failed due to reaching max number of restarts (first failed job: js-rj-1)");
  CHECK(sim.state.restarts_count_towards_max == 0);

  // And the other way round: RestartJob sees global restarts.
  Sim other = MakeSim("rj=2",
                      "{maxRestarts: 1, rules: ["
                      "{name: one, action: RestartJob, onJobFailureReasons: [PodFailurePolicy]}]}",
                      RestartJobGate());
  other.Step({Fail(0, 0, kBackoff, 1)});
  CHECK(other.state.restarts_count_towards_max == 1);
  other.Step({Fail(0, 0, kPodFailurePolicy, 2)});
  CHECK(other.FailedReason() == "ReachedMaxRestarts");
  CHECK(other.state.job_restarts[0].empty());
}

TEST_CASE("engine: without a failure policy any failure fails with FailedJobs") {
  Sim sim = MakeSim("a=2 b=2", "");
  CHECK_FALSE(sim.policy.has_failure_policy);
  StepOutcome o = sim.Step({Fail(0, 1, kBackoff, 9), Fail(1, 0, kDeadline, 4)});
  REQUIRE(o.passes.size() == 1);
  CHECK(o.passes[0].no_policy);
  CHECK(o.passes[0].rule == -1);
  CHECK(o.passes[0].action == PolicyAction::kFailJobSet);
  CHECK(o.fates == std::vector<FailureFate>{FailureFate::kDiscarded, FailureFate::kHandled});
  CHECK(sim.FailedReason() == "FailedJobs");
  CHECK(sim.FailedMessage() ==
        "jobset failed due to one or more job failures (first failed job: js-b-0)");
  CHECK(sim.state.restarts == 0);
  CHECK_FALSE(sim.state.restarting.present);
}

TEST_CASE("engine: a terminal JobSet absorbs later steps") {
  Sim sim = MakeSim("rj=2", "{maxRestarts: 0}");
  sim.Step({Fail(0, 0, kBackoff, 1)});
  REQUIRE(sim.state.terminal_state == TerminalState::kFailed);
  const std::string message = sim.FailedMessage();
  StepOutcome o = sim.Step({Fail(0, 1, kPodFailurePolicy, 2)});
  CHECK(o.was_terminal);
  CHECK(o.passes.empty());
  CHECK(o.fates == std::vector<FailureFate>{FailureFate::kIgnored});
  CHECK(sim.FailedMessage() == message);
  CHECK(sim.state.failed.last_transition_time == 1);

  Sim done = MakeSim("rj=2", "{maxRestarts: 4}");
  done.Step({Fail(0, 0, kBackoff, 1)});
  MarkCompleted(done.policy, &done.state, 5);
  CHECK(done.state.terminal_state == TerminalState::kCompleted);
  CHECK(done.state.completed.status);
  CHECK(ReasonText(done.policy, done.state.completed.text) == "AllJobsCompleted");
  CHECK(done.RestartingReason() == "JobSetCompleted");
  CHECK(done.RestartingMessage() == "jobset completed successfully");
  o = done.Step({Fail(0, 1, kBackoff, 6)});
  CHECK(o.was_terminal);
  CHECK(done.state.restarts == 1);
  CHECK_FALSE(done.state.failed.present);
}

TEST_CASE("engine: RestartingJobSet reason changes keep status True and transition time") {
  Sim sim = MakeSim("rj=2",
                    "{maxRestarts: 5, rules: [{name: pfp, action: RestartJobSet, "
                    "onJobFailureReasons: [PodFailurePolicy]}]}");
  sim.Step({Fail(0, 0, kBackoff, 10)});
  CHECK(sim.RestartingReason() == "DefaultFailurePolicy");
  CHECK(sim.state.restarting.last_transition_time == 10);
  sim.Step({Fail(0, 1, kPodFailurePolicy, 20)});
  CHECK(sim.state.restarting.status);
  CHECK(sim.RestartingReason() == "FailurePolicy_pfp");
  CHECK(sim.RestartingMessage() ==
        "applying RestartJobSet failure policy action (first failed job: js-rj-1)");
  CHECK(sim.state.restarting.last_transition_time == 10);
  // All jobs ready: False/JobsReady (a new transition), then a restart is a new transition.
  MarkJobsReady(sim.policy, &sim.state, 25);
  CHECK_FALSE(sim.state.restarting.status);
  CHECK(sim.RestartingReason() == "JobsReady");
  CHECK(sim.RestartingMessage() == "all jobs are ready");
  CHECK(sim.state.restarting.last_transition_time == 25);
  sim.Step({Fail(0, 0, kBackoff, 30)});
  CHECK(sim.state.restarting.status);
  CHECK(sim.RestartingReason() == "DefaultFailurePolicy");
  CHECK(sim.state.restarting.last_transition_time == 30);
  CHECK(sim.state.restarts == 3);
}

TEST_CASE("engine: events follow the condition changes and actions") {
  Sim sim = MakeSim("rj=2", "{maxRestarts: 2}");
  sim.state.record_events = true;
  sim.Step({Fail(0, 0, kBackoff, 1)});
  sim.Step({Fail(0, 0, kBackoff, 1)});  // same texts: no condition event, one action event
  sim.Step({Fail(0, 1, kBackoff, 2)});
  std::vector<std::string> got;
  for (const StatusEvent& e : sim.state.events) {
    got.push_back(std::string(e.warning ? "Warning " : "Normal ") +
                  std::string(ReasonText(sim.policy, e.text)) + ": " +
                  MessageText(sim.policy, e.text));
  }
  CHECK(got == std::vector<std::string>{
                   "Warning DefaultFailurePolicy: applying RestartJobSet failure policy action "
                   "(first failed job: js-rj-0)",
                   "Warning RestartJobSetFailurePolicyAction: applying RestartJobSet failure "
                   "policy action (first failed job: js-rj-0)",
                   "Warning RestartJobSetFailurePolicyAction: applying RestartJobSet failure "
                   "policy action (first failed job: js-rj-0)",
                   "Warning ReachedMaxRestarts: jobset failed due to reaching max number of "
                   "restarts (first failed job: js-rj-1)",
                   "Normal JobSetFailed: jobset failed",
               });
}

TEST_CASE("engine: an unknown action and an out-of-bounds index make the controller stuck") {
  Sim sim = MakeSim("rj=2", "{rules: [{name: x, action: Explode}]}");
  StepOutcome o = sim.Step({Fail(0, 0, kBackoff, 1)});
  CHECK(o.stuck);
  CHECK(o.stuck_error ==
        "failed to find a corresponding action for the FailurePolicyRuleAction Explode");
  CHECK(sim.state.terminal_state == TerminalState::kNone);

  Sim oob =
      MakeSim("rj=2", "{maxRestarts: 3, rules: [{name: r, action: RestartJob}]}", RestartJobGate());
  o = oob.Step({Fail(0, 2, kBackoff, 1)});
  CHECK(o.stuck);
  CHECK(o.stuck_error ==
        "failed job js-rj-2 has index 2 out of bounds for replicated job rj (replicas: 2)");
  CHECK(oob.state.job_restarts[0].empty());
  CHECK(oob.state.job_restarts_count_towards_max_sum == 0);
}

TEST_CASE("engine: invalid failures are refused without any change") {
  Sim sim = MakeSim("rj=2", "{maxRestarts: 1}");
  StepOutcome o = sim.Step({Fail(0, 0, kBackoff, 1), Fail(3, 0, kBackoff, 2)});
  CHECK_FALSE(o.error.empty());
  CHECK(o.passes.empty());
  CHECK(sim.state.restarts == 0);
  o = sim.Step({Fail(0, -1, kBackoff, 1)});
  CHECK_FALSE(o.error.empty());
  CHECK(sim.state.restarts == 0);
}

TEST_CASE("engine: a reused outcome and a reset state give the same results") {
  PreparedPolicy p =
      Prepare("rj=3", "{maxRestarts: 2, rules: [{name: r, action: RestartJob}]}", RestartJobGate());
  ControllerState state;
  StepOutcome out;
  std::vector<JobFailure> step = {Fail(0, 1, kBackoff, 1), Fail(0, 2, kBackoff, 1)};
  for (int run = 0; run < 3; ++run) {
    ResetState(&state);
    ApplyFailures(p, &state, step, &out);
    CHECK(out.passes.size() == 2);
    CHECK(state.job_restarts[0] == Counts{0, 1, 1});
    ApplyFailures(p, &state, step, &out);
    REQUIRE(out.passes.size() == 1);
    CHECK(out.passes[0].reached_max);
    CHECK(MessageText(p, state.failed.text) ==
          "jobset failed due to reaching max number of restarts (first failed job: js-rj-1)");
  }
}

TEST_CASE("engine: Decide reports rule, action and budget for a lone failure") {
  PreparedPolicy p = Prepare("leader=1 workers=2",
                             "{maxRestarts: 3, rules: ["
                             "{name: oom, action: FailJobSet, onJobFailureReasons: "
                             "[PodFailurePolicy], onJobFailureMessagePatterns: ['OOMKilled']},"
                             "{action: RestartJob, targetReplicatedJobs: [workers]},"
                             "{name: ign, action: RestartJobSetAndIgnoreMaxRestarts}]}");
  CHECK(p.rules[1].name == "failurePolicyRule1");
  CHECK(p.rules[1].condition_reason == "FailurePolicy_failurePolicyRule1");
  Decision d = Decide(p, 0, kPodFailurePolicy, "container OOMKilled");
  CHECK(d.rule == 0);
  CHECK(d.action == PolicyAction::kFailJobSet);
  CHECK_FALSE(d.counts_towards_max);
  CHECK(d.conditional);
  d = Decide(p, 1, kPodFailurePolicy, "exit 1");
  CHECK(d.rule == 1);
  CHECK(d.action == PolicyAction::kRestartJob);
  CHECK(d.counts_towards_max);
  CHECK(d.stuck);  // gate RestartJob off
  d = Decide(p, 0, kBackoff, "");
  CHECK(d.rule == 2);
  CHECK_FALSE(d.counts_towards_max);

  PreparedPolicy def = Prepare("rj=1", "{maxRestarts: 3}");
  d = Decide(def, 0, kBackoff, "");
  CHECK(d.rule == -1);
  CHECK(d.action == PolicyAction::kRestartJobSet);
  CHECK(d.counts_towards_max);
  PreparedPolicy none = Prepare("rj=1", "");
  d = Decide(none, 0, kBackoff, "");
  CHECK(d.rule == -1);
  CHECK(d.action == PolicyAction::kFailJobSet);
  CHECK_FALSE(d.counts_towards_max);
}

TEST_CASE("engine: ExplainCell follows conditional rules down to an unconditional one") {
  PreparedPolicy p = Prepare("rj=1 other=1",
                             "{maxRestarts: 3, rules: ["
                             "{name: a, action: FailJobSet, onJobFailureMessagePatterns: ['x']},"
                             "{name: dead, action: FailJobSet, onJobFailureMessagePatterns: ['(']},"
                             "{name: b, action: RestartJobSetAndIgnoreMaxRestarts, "
                             "onJobFailureReasons: [PodFailurePolicy], "
                             "onJobFailureMessagePatterns: ['y']},"
                             "{name: c, action: RestartJobSet, onJobFailureReasons: "
                             "[PodFailurePolicy], targetReplicatedJobs: [rj]}]}");
  CellExplanation cell = ExplainCell(p, 0, kPodFailurePolicy);
  CHECK(cell.decision.rule == 0);
  CHECK(cell.decision.conditional);
  REQUIRE(cell.otherwise.size() == 2);
  CHECK(cell.otherwise[0].rule == 2);  // "dead" can never match
  CHECK(cell.otherwise[0].conditional);
  CHECK(cell.otherwise[1].rule == 3);
  CHECK_FALSE(cell.otherwise[1].conditional);
  CHECK(cell.otherwise[1].counts_towards_max);

  cell = ExplainCell(p, 1, kPodFailurePolicy);  // rule c does not target "other"
  CHECK(cell.decision.rule == 0);
  REQUIRE(cell.otherwise.size() == 2);
  CHECK(cell.otherwise[0].rule == 2);
  CHECK(cell.otherwise[1].rule == -1);
  CHECK(cell.otherwise[1].action == PolicyAction::kRestartJobSet);
  CHECK(cell.otherwise[1].counts_towards_max);

  cell = ExplainCell(p, 1, kDeadline);
  CHECK(cell.decision.rule == 0);
  REQUIRE(cell.otherwise.size() == 1);
  CHECK(cell.otherwise[0].rule == -1);

  PreparedPolicy uncond = Prepare("rj=1", "{rules: [{name: u, action: FailJobSet}]}");
  cell = ExplainCell(uncond, 0, kBackoff);
  CHECK(cell.decision.rule == 0);
  CHECK_FALSE(cell.decision.conditional);
  CHECK(cell.otherwise.empty());

  cell = ExplainCell(Prepare("rj=1", ""), 0, kBackoff);
  CHECK(cell.decision.rule == -1);
  CHECK(cell.decision.action == PolicyAction::kFailJobSet);
  CHECK(cell.otherwise.empty());
}

TEST_CASE("engine: names, actions and texts") {
  CHECK(ChildJobName("train", "workers", 12) == "train-workers-12");
  for (PolicyAction a :
       {PolicyAction::kFailJobSet, PolicyAction::kRestartJobSet,
        PolicyAction::kRestartJobSetAndIgnoreMaxRestarts, PolicyAction::kRestartJob,
        PolicyAction::kRestartJobAndIgnoreMaxRestarts}) {
    CHECK(ParseAction(ActionName(a)) == a);
  }
  CHECK(ParseAction("restartjobset") == PolicyAction::kUnknown);
  CHECK(CountsTowardsMax(PolicyAction::kRestartJobSet));
  CHECK(CountsTowardsMax(PolicyAction::kRestartJob));
  CHECK_FALSE(CountsTowardsMax(PolicyAction::kRestartJobSetAndIgnoreMaxRestarts));
  CHECK_FALSE(CountsTowardsMax(PolicyAction::kRestartJobAndIgnoreMaxRestarts));
  CHECK_FALSE(CountsTowardsMax(PolicyAction::kFailJobSet));
  PreparedPolicy p = Prepare("rj=1", "{maxRestarts: 1, restartStrategy: BlockingRecreate}");
  CHECK(p.jobset_name == "js");
  CHECK(p.restart_strategy == "BlockingRecreate");
  CHECK(FindReplicatedJob(p, "rj") == 0);
  CHECK(FindReplicatedJob(p, "nope") == -1);
  CHECK(TerminalStateName(TerminalState::kNone).empty());
}

}  // namespace jobset

// --- Hostile input (issue #19) ------------------------------------------------------------

namespace jobset {
namespace {

// A JobSet "js" of `n` replicated jobs rj-0.. of `replicas` each, with `rules` as its failure
// policy (maxRestarts `max_restarts`).
JobSet WideJobSet(int n, int64_t replicas, std::vector<FailurePolicyRule> rules,
                  int64_t max_restarts = 3) {
  JobSet js;
  js.name = "js";
  for (int i = 0; i < n; ++i) {
    ReplicatedJob rj;
    rj.name = "rj-" + std::to_string(i);
    rj.replicas = replicas;
    js.replicated_jobs.push_back(std::move(rj));
  }
  FailurePolicy fp;
  fp.max_restarts = max_restarts;
  fp.rules = std::move(rules);
  js.failure_policy = std::move(fp);
  return js;
}

FailurePolicyRule WideRule(std::string name, std::string action, std::vector<std::string> reasons,
                           std::vector<std::string> targets) {
  FailurePolicyRule r;
  r.name = std::move(name);
  r.action = std::move(action);
  r.on_job_failure_reasons = std::move(reasons);
  r.target_replicated_jobs = std::move(targets);
  return r;
}

}  // namespace

TEST_CASE("engine: 50,000 rules over 50,000 replicated jobs, rule k targeting job k") {
  // Before: every rule held a flag per replicated job (2.5 GB here) and every decision looked at
  // every rule: explaining the JobSet compared 1.25e10 rule and job pairs.
  const int n = HostileSize(50000);
  std::vector<FailurePolicyRule> rules;
  for (int i = 0; i < n; ++i) {
    rules.push_back(WideRule("r-" + std::to_string(i), i % 2 ? "RestartJobSet" : "FailJobSet",
                             {kPodFailurePolicy}, {"rj-" + std::to_string(i)}));
  }
  const PreparedPolicy p = PreparePolicy(WideJobSet(n, 2, std::move(rules)), FeatureGates{});
  int matched = 0, defaulted = 0;
  for (int k = 0; k < n; ++k) {
    for (const std::string& reason : JobFailureReasons()) {
      const CellExplanation cell = ExplainCell(p, k, reason);
      const int want = reason == kPodFailurePolicy ? k : -1;
      (want >= 0 ? matched : defaulted) += cell.decision.rule == want && cell.otherwise.empty();
    }
    CHECK(Decide(p, k, kPodFailurePolicy, "").rule == k);
  }
  CHECK(matched == n);
  CHECK(defaulted == 4 * n);
  // One step with a failure of every replicated job: rule 0 (FailJobSet) wins.
  std::vector<JobFailure> failures;
  for (int k = n - 1; k >= 0; --k) {
    failures.push_back({k, 1, kPodFailurePolicy, "", static_cast<int64_t>(n - k)});
  }
  ControllerState state;
  const StepOutcome out = ApplyFailures(p, &state, failures);
  REQUIRE(out.passes.size() == 1);
  CHECK(out.passes[0].rule == 0);
  CHECK(state.terminal_state == TerminalState::kFailed);
  CHECK(MessageText(p, state.failed.text) ==
        "applying FailJobSet failure policy action (first failed job: js-rj-0-1)");
}

TEST_CASE("engine: 100,000 rules of one reason are not looked at for failures of another") {
  // Rules without targets that name a reason: before, a failure of any other reason was compared
  // with each of them, for each replicated job explained (4e10 pairs here).
  const int n = HostileSize(100000);
  std::vector<FailurePolicyRule> rules;
  for (int i = 0; i < n; ++i) {
    rules.push_back(WideRule("r-" + std::to_string(i), "FailJobSet", {kDeadline}, {}));
  }
  const PreparedPolicy p = PreparePolicy(WideJobSet(n, 1, std::move(rules)), FeatureGates{});
  int defaulted = 0, first = 0;
  for (int k = 0; k < n; ++k) {
    for (const std::string& reason : JobFailureReasons()) {
      const CellExplanation cell = ExplainCell(p, k, reason);
      if (reason == kDeadline) {
        first += cell.decision.rule == 0 && cell.otherwise.empty();
      } else {
        defaulted += cell.decision.rule == -1 && cell.otherwise.empty();
      }
    }
  }
  CHECK(first == n);
  CHECK(defaulted == 4 * n);
}

TEST_CASE("engine: a step of 400,000 failures restarting jobs one by one") {
  // RestartJob handles one failed job per reconcile pass. Before, each pass looked at every
  // failure of the step twice (the next one to handle, the others of the same job): 1.6e11 here.
  const int jobs = HostileSize(200000);
  std::vector<FailurePolicyRule> rules = {
      WideRule("each", "RestartJob", {kBackoff}, {"rj-0"}),
  };
  const PreparedPolicy p =
      PreparePolicy(WideJobSet(1, jobs, std::move(rules), 1'000'000), RestartJobGate());
  // Every job fails twice; listed from the last job to the first, the later failure first.
  std::vector<JobFailure> failures;
  for (int i = jobs - 1; i >= 0; --i) {
    failures.push_back({0, i, kBackoff, "", 2 * static_cast<int64_t>(i) + 1});
    failures.push_back({0, i, kBackoff, "", 2 * static_cast<int64_t>(i)});
  }
  ControllerState state;
  const StepOutcome out = ApplyFailures(p, &state, failures);
  REQUIRE(out.passes.size() == static_cast<size_t>(jobs));
  CHECK(out.passes.front().index == 0);  // The earliest failure first.
  CHECK(out.passes.back().index == jobs - 1);
  int handled = 0, discarded = 0;
  for (size_t i = 0; i < failures.size(); ++i) {
    handled += out.fates[i] == FailureFate::kHandled && i % 2 == 1;
    discarded += out.fates[i] == FailureFate::kDiscarded && i % 2 == 0;
  }
  CHECK(handled == jobs);
  CHECK(discarded == jobs);
  CHECK(state.job_restarts_count_towards_max_sum == jobs);
  CHECK(state.terminal_state == TerminalState::kNone);
}

TEST_CASE("engine: a stuck controller looks up 400,000 new failures among 400,000 pending") {
  // Before: each new failure was compared with every pending one (1.6e11 pairs here).
  const int jobs = HostileSize(400000);
  const PreparedPolicy p = PreparePolicy(
      WideJobSet(1, jobs, {WideRule("each", "RestartJob", {kBackoff}, {})}), FeatureGates{});
  std::vector<JobFailure> step;
  for (int i = 0; i < jobs; ++i) step.push_back({0, i, kBackoff, "", i});
  ControllerState state;
  StepOutcome out = ApplyFailures(p, &state, step);
  CHECK(out.stuck);
  REQUIRE(state.pending.size() == static_cast<size_t>(jobs));
  // The same jobs fail again (still failed: ignored), and one new index.
  std::vector<JobFailure> again;
  for (int i = jobs - 1; i >= 0; --i) again.push_back({0, i, kBackoff, "", jobs + i});
  out = ApplyFailures(p, &state, again);
  CHECK(out.stuck);
  REQUIRE(out.fates.size() == static_cast<size_t>(jobs));
  CHECK(out.pending_fate == FailureFate::kPending);
  int ignored = 0;
  for (int i = 0; i < jobs; ++i) ignored += out.fates[i] == FailureFate::kIgnored;
  CHECK(ignored == jobs);
  CHECK(state.pending.size() == static_cast<size_t>(jobs));
}

TEST_CASE("engine: 100,000 steps of a controller stuck on 100,000 pending failures") {
  // Before: every step ran all its pending failures again, copying each one (1e10 here: killed
  // after minutes); now a step costs its own failures.
  const int pending = HostileSize(100000), steps = HostileSize(100000);
  const PreparedPolicy p =
      PreparePolicy(WideJobSet(1, pending + steps + 1,
                               {WideRule("fatal", "FailJobSet", {kPodFailurePolicy}, {}),
                                WideRule("each", "RestartJob", {}, {})}),
                    FeatureGates{});
  std::vector<JobFailure> first;
  for (int i = 0; i < pending; ++i) first.push_back({0, i, kBackoff, "", 0});
  ControllerState state;
  StepOutcome out = ApplyFailures(p, &state, first);
  REQUIRE(out.stuck);
  REQUIRE(state.pending.size() == static_cast<size_t>(pending));
  int stuck_on_zero = 0;
  for (int s = 0; s < steps; ++s) {
    const JobFailure f{0, pending + s, kBackoff, "", 1 + s};
    ApplyFailures(p, &state, std::span<const JobFailure>(&f, 1), &out);
    // The earliest failure is the one the controller errors on, step after step.
    stuck_on_zero += out.stuck && out.passes.size() == 1 && out.passes[0].index == 0 &&
                     out.fates.size() == 1 && out.fates[0] == FailureFate::kPending &&
                     out.pending_fate == FailureFate::kPending;
  }
  CHECK(stuck_on_zero == steps);
  CHECK(state.pending.size() == static_cast<size_t>(pending + steps));
  // A failure matching the earlier FailJobSet rule ends it, leaving the others failed.
  const JobFailure fatal{0, pending + steps, kPodFailurePolicy, "", steps + 1};
  ApplyFailures(p, &state, std::span<const JobFailure>(&fatal, 1), &out);
  CHECK_FALSE(out.stuck);
  CHECK(out.pending_count == static_cast<size_t>(pending + steps));
  CHECK(out.pending_fate == FailureFate::kDiscarded);
  CHECK(state.terminal_state == TerminalState::kFailed);
  CHECK(state.failed.last_transition_time == steps + 1);
  CHECK(state.pending.empty());
}

namespace {

// The failures of a stuck controller as the engine first ran them: the pending ones given again,
// in front of the step's (those of a job still failed left out), to a controller with none
// pending. `pending` holds the reference's pending failures between steps.
StepOutcome ReferenceStep(const PreparedPolicy& p, ControllerState* state,
                          std::vector<PendingFailure>* pending,
                          const std::vector<JobFailure>& failures, std::vector<int>* kept) {
  std::vector<PendingFailure> saved = std::move(*pending);
  std::vector<JobFailure> all;
  std::set<std::pair<int, int64_t>> failed;
  for (const PendingFailure& f : saved) {
    all.push_back({f.rjob, f.index, f.reason, f.message, f.time});
    failed.emplace(f.rjob, f.index);
  }
  kept->clear();
  for (size_t i = 0; i < failures.size(); ++i) {
    if (failed.count({failures[i].rjob, failures[i].index}) > 0) continue;
    kept->push_back(static_cast<int>(i));
    all.push_back(failures[i]);
  }
  state->pending.clear();
  state->pending_jobs.clear();
  StepOutcome out = ApplyFailures(p, state, all);
  *pending = out.was_terminal ? std::move(saved) : state->pending;
  return out;
}

}  // namespace

TEST_CASE("engine: a stuck controller's steps end as running all its pending failures again") {
  const std::vector<std::string> actions = {"FailJobSet",
                                            "RestartJobSet",
                                            "RestartJobSetAndIgnoreMaxRestarts",
                                            "RestartJob",
                                            "RestartJobAndIgnoreMaxRestarts",
                                            "Bogus"};
  const std::vector<std::string> reasons = {kBackoff, kDeadline, kPodFailurePolicy};
  uint64_t seed = 777;
  auto next = [&](uint64_t bound) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((seed >> 33) % bound);
  };
  int stuck_steps = 0, unstuck = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    std::vector<FailurePolicyRule> rules;
    const int n_rules = next(4);
    for (int r = 0; r < n_rules; ++r) {
      std::vector<std::string> rs, ts;
      if (next(2)) rs.push_back(reasons[next(3)]);
      if (next(3) == 0) ts.push_back("rj-" + std::to_string(next(3)));
      rules.push_back(WideRule("r" + std::to_string(r), actions[next(actions.size())],
                               std::move(rs), std::move(ts)));
    }
    FeatureGates gates;
    gates.restart_job = next(2) == 1;
    const PreparedPolicy p = PreparePolicy(WideJobSet(3, 3, std::move(rules), next(4)), gates);
    ControllerState state, ref_state;
    std::vector<PendingFailure> ref_pending;
    std::vector<int> kept;
    for (int s = 1; s <= 12; ++s) {
      std::vector<JobFailure> failures;
      const int n = next(4);
      for (int k = 0; k < n; ++k) {
        // Index 3 is out of bounds (replicas 3): RestartJob errors on it even with the gate on.
        failures.push_back({next(3), next(4), reasons[next(3)], "", s});
      }
      const size_t pending_before = state.pending.size();
      const StepOutcome out = ApplyFailures(p, &state, failures);
      const StepOutcome ref = ReferenceStep(p, &ref_state, &ref_pending, failures, &kept);
      CAPTURE(trial);
      CAPTURE(s);
      stuck_steps += pending_before > 0 && out.stuck;
      unstuck += pending_before > 0 && !out.stuck;
      REQUIRE(out.passes.size() == ref.passes.size());
      for (size_t i = 0; i < out.passes.size(); ++i) {
        const PassOutcome &a = out.passes[i], &b = ref.passes[i];
        CHECK(a.rjob == b.rjob);
        CHECK(a.index == b.index);
        CHECK(a.rule == b.rule);
        CHECK(a.action == b.action);
        CHECK(a.counted == b.counted);
        CHECK(a.reached_max == b.reached_max);
        CHECK(a.stuck == b.stuck);
        CHECK(a.counted_restarts == b.counted_restarts);
        CHECK(a.terminal_state == b.terminal_state);
      }
      CHECK(out.stuck == ref.stuck);
      CHECK(out.stuck_error == ref.stuck_error);
      CHECK(out.was_terminal == ref.was_terminal);
      REQUIRE(out.fates.size() == failures.size());
      REQUIRE(out.pending_count == pending_before);
      if (ref.was_terminal) {
        for (FailureFate f : out.fates) CHECK(f == FailureFate::kIgnored);
      } else {
        for (size_t i = 0; i < pending_before; ++i) CHECK(ref.fates[i] == out.pending_fate);
        size_t k = 0;
        for (size_t i = 0; i < failures.size(); ++i) {
          if (k < kept.size() && kept[k] == static_cast<int>(i)) {
            CHECK(out.fates[i] == ref.fates[pending_before + k]);
            ++k;
          } else {
            CHECK(out.fates[i] == FailureFate::kIgnored);
          }
        }
      }
      REQUIRE(state.pending.size() == ref_pending.size());
      for (size_t i = 0; i < ref_pending.size(); ++i) {
        CHECK(state.pending[i].rjob == ref_pending[i].rjob);
        CHECK(state.pending[i].index == ref_pending[i].index);
        CHECK(state.pending[i].reason == ref_pending[i].reason);
        CHECK(state.pending[i].time == ref_pending[i].time);
      }
      CHECK(state.restarts == ref_state.restarts);
      CHECK(state.restarts_count_towards_max == ref_state.restarts_count_towards_max);
      CHECK(state.job_restarts == ref_state.job_restarts);
      CHECK(state.job_restarts_count_towards_max == ref_state.job_restarts_count_towards_max);
      CHECK(state.terminal_state == ref_state.terminal_state);
      for (auto cond : {&ControllerState::failed, &ControllerState::restarting}) {
        const StatusCondition &a = state.*cond, &b = ref_state.*cond;
        CHECK(a.present == b.present);
        CHECK(a.status == b.status);
        CHECK(SameText(p, a.text, b.text));
        CHECK(a.last_transition_time == b.last_transition_time);
      }
      if (next(4) == 0) {
        MarkJobsReady(p, &state, s);
        MarkJobsReady(p, &ref_state, s);
      }
    }
  }
  // Both paths were taken often.
  CHECK(stuck_steps > 500);
  CHECK(unstuck > 50);
}

TEST_CASE("engine: 200,000 rules targeting one replicated job, each on its own reason") {
  // Before: a decision visited every rule targeting its replicated job to check its reasons
  // (4e10 here); now the rules are indexed by target and reason.
  const int n = HostileSize(200000);
  std::vector<FailurePolicyRule> rules;
  for (int k = 0; k < n; ++k) {
    rules.push_back(WideRule("r-" + std::to_string(k), k % 2 ? "FailJobSet" : "RestartJobSet",
                             {"R-" + std::to_string(k), "R-" + std::to_string(k + 1)}, {"rj-0"}));
  }
  const PreparedPolicy p = PreparePolicy(WideJobSet(2, 1, std::move(rules)), FeatureGates{});
  int first = 0, explained = 0;
  for (int k = 0; k < n; ++k) {
    const std::string reason = "R-" + std::to_string(k + 1);
    first += Decide(p, 0, reason, "").rule == k;  // Rules k and k + 1 name it: k comes first.
    explained += ExplainCell(p, 0, reason).decision.rule == k;
  }
  CHECK(first == n);
  CHECK(explained == n);
  CHECK(Decide(p, 0, "R-0", "").rule == 0);
  CHECK(Decide(p, 1, "R-1", "").rule == -1);  // rj-1: no rule targets it, the default action.
  CHECK(Decide(p, 0, kBackoff, "").rule == -1);
}

TEST_CASE("engine: the rule index decides as a scan over every rule would") {
  // Random policies over a few replicated jobs (names repeat, some empty), compared with the
  // rules' own lists read directly.
  const std::vector<std::string> names = {"a", "b", "c", "a", "", "d"};
  const std::vector<std::string> reasons = {kBackoff,        kDeadline, kPodFailurePolicy,
                                            "FailedIndexes", "Other",   "R3"};
  const std::vector<std::string> messages = {"", "oom", "preempted by x", "OOM"};
  uint64_t seed = 12345;
  auto next = [&](uint64_t bound) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % bound;
  };
  for (int trial = 0; trial < 300; ++trial) {
    JobSet js;
    js.name = "js";
    for (const std::string& name : names) {
      ReplicatedJob rj;
      rj.name = name;
      rj.replicas = 2;
      js.replicated_jobs.push_back(rj);
    }
    FailurePolicy fp;
    const int n_rules = 1 + static_cast<int>(next(30));
    for (int r = 0; r < n_rules; ++r) {
      FailurePolicyRule rule;
      rule.name = "r" + std::to_string(r);
      rule.action = next(2) ? "FailJobSet" : "RestartJobSet";
      // Mostly short reason lists; some long ones (more than kFewReasons: repeats, or made-up
      // names that make the rule "wide" in the index).
      const bool long_list = next(6) == 0;
      for (uint64_t k = long_list ? kFewReasons + 1 + next(6) : next(3); k > 0; --k) {
        rule.on_job_failure_reasons.push_back(long_list && next(2) ? "R" + std::to_string(next(12))
                                                                   : reasons[next(reasons.size())]);
      }
      for (uint64_t k = next(3); k > 0; --k) {
        rule.target_replicated_jobs.push_back(next(5) ? names[next(names.size())] : "zz");
      }
      if (next(3) == 0) rule.on_job_failure_message_patterns = {next(2) ? "oom" : "(?i)OOM"};
      fp.rules.push_back(rule);
    }
    js.failure_policy = fp;
    const PreparedPolicy p = PreparePolicy(js, FeatureGates{});
    for (size_t j = 0; j < names.size(); ++j) {
      for (const std::string& reason : reasons) {
        std::vector<int> admitting;  // Target and reason, read from the rules as written.
        for (int r = 0; r < n_rules; ++r) {
          const FailurePolicyRule& rule = fp.rules[r];
          const auto& t = rule.target_replicated_jobs;
          const auto& rs = rule.on_job_failure_reasons;
          if (!names[j].empty() &&
              (t.empty() || std::find(t.begin(), t.end(), names[j]) != t.end()) &&
              (rs.empty() || std::find(rs.begin(), rs.end(), reason) != rs.end())) {
            admitting.push_back(r);
          }
        }
        const CellExplanation cell = ExplainCell(p, static_cast<int>(j), reason);
        std::vector<int> chain = {cell.decision.rule};
        for (const Decision& d : cell.otherwise) chain.push_back(d.rule);
        std::vector<int> want;
        for (int r : admitting) {
          want.push_back(r);
          if (fp.rules[r].on_job_failure_message_patterns.empty()) break;
        }
        if (want.empty() || !fp.rules[want.back()].on_job_failure_message_patterns.empty()) {
          want.push_back(-1);
        }
        CHECK(chain == want);
        for (const std::string& message : messages) {
          int first = -1;
          for (int r : admitting) {
            if (RuleMatches(p, p.rules[r], static_cast<int>(j), reason, message)) {
              first = r;
              break;
            }
          }
          CHECK(Decide(p, static_cast<int>(j), reason, message).rule == first);
        }
      }
    }
  }
}

}  // namespace jobset

namespace jobset {

TEST_CASE("engine: a rule of many targets and many reasons indexes in their sum, not product") {
  // 20,000 replicated jobs; one rule targets them all with 20,000 copies of one reason, another
  // with 20,000 made-up reasons. Listing every (target, reason) pair took 2 x 4e8 entries: lint
  // and explain of such a 2.8 MB file died of bad_alloc under a 6 GB cap.
  const int n = HostileSize(20000);
  JobSet js;
  js.name = "js";
  FailurePolicyRule copies, made_up;
  copies.name = "copies";
  copies.action = "FailJobSet";
  made_up.name = "made-up";
  made_up.action = "RestartJobSet";
  for (int i = 0; i < n; ++i) {
    ReplicatedJob rj;
    rj.name = "rj" + std::to_string(i);
    rj.replicas = 1;
    js.replicated_jobs.push_back(rj);
    copies.target_replicated_jobs.push_back(rj.name);
    made_up.target_replicated_jobs.push_back(rj.name);
    copies.on_job_failure_reasons.push_back(kBackoff);
    made_up.on_job_failure_reasons.push_back("R" + std::to_string(i));
  }
  made_up.on_job_failure_reasons.push_back(kDeadline);
  FailurePolicy fp;
  for (int k = 0; k < 5; ++k) fp.rules.push_back(made_up);  // Past kScanAllRules: indexed.
  fp.rules.push_back(copies);
  for (int k = 0; k < 5; ++k) fp.rules.push_back(made_up);
  js.failure_policy = fp;
  const PreparedPolicy p = PreparePolicy(js, FeatureGates{});
  CHECK(p.rule_index.targeted_pairs.size() == static_cast<size_t>(n));  // one reason each
  CHECK(p.rule_index.targeted_wide.size() == static_cast<size_t>(10 * n));
  CHECK(Decide(p, 123, kBackoff, "").rule == 5);
  CHECK(Decide(p, 123, kDeadline, "").rule == 0);
  CHECK(Decide(p, n - 1, "R" + std::to_string(n - 1), "").rule == 0);
  CHECK(Decide(p, 7, kPodFailurePolicy, "").rule == -1);
}

}  // namespace jobset
