// Tests of a Job's outcome under a repeated pod event: the three worked chains of
// docs/pod-failure-chain.md end to end (event, failed pod, podFailurePolicy, the Job's reason and
// message), backoffLimit and the per-index limits as the Job controller counts them
// (kubernetes/kubernetes pkg/controller/job/job_controller.go syncJob,
// pastBackoffLimitOnFailure; indexed_job_utils.go), and the events a template can produce.
#include "validation/k8s/job_failure.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/core/loader.h"

namespace jobset {
namespace {

// The JobSpec `yaml` (flow YAML), kept alive for the test.
struct Spec {
  SourceFile file;
  const Node& root() const { return file.documents[0].root; }
};

Spec Load(const std::string& yaml) {
  Spec s{ParseSource("t.yaml", yaml)};
  REQUIRE(s.file.documents.size() == 1);
  REQUIRE(s.file.documents[0].parsed);
  return s;
}

JobFailureOutcome Outcome(const std::string& job_spec, const std::string& event_text) {
  PodEvent event;
  std::string error;
  REQUIRE_MESSAGE(ParsePodEvent(event_text, &event, &error), error);
  Spec s = Load(job_spec);
  const JobFailureSpec spec = DecodeJobFailureSpec(s.root());
  REQUIRE(PodEventError(event, spec.pod) == "");
  return JobOutcomeOf(spec, event);
}

// An outcome in one line: "REASON after N [rule I ACTION] [counted|free] [waits] [in place]".
std::string Summary(const JobFailureOutcome& o) {
  if (!o.fails_job)
    return "never fails the Job [rule " + std::to_string(o.rule_index) + " " + o.rule_action +
           "] free";
  std::string s = o.reason + " after " + std::to_string(o.failures_to_fail);
  if (o.rule_index >= 0) s += " [rule " + std::to_string(o.rule_index) + " " + o.rule_action + "]";
  s += o.counts ? " counted" : " free";
  if (o.waits_for_other_indexes) s += " waits";
  if (o.restarts_in_place) s += " in place";
  return s;
}

TEST_CASE("job_failure: the five reasons' messages, byte for byte") {
  CHECK(kJobBackoffLimitExceededMessage == "Job has reached the specified backoff limit");
  CHECK(kJobDeadlineExceededMessage == "Job was active longer than specified deadline");
  CHECK(kJobMaxFailedIndexesExceededMessage ==
        "Job has exceeded the specified maximal number of failed indexes");
  CHECK(kJobFailedIndexesMessage == "Job has failed indexes");
  CHECK(FillPodPlaceholder("Pod <namespace>/<pod> has condition DisruptionTarget", "default",
                           "js-w-0-0-abcde") ==
        "Pod default/js-w-0-0-abcde has condition DisruptionTarget");
  CHECK(FillPodPlaceholder(kJobFailedIndexesMessage, "a", "b") == kJobFailedIndexesMessage);
}

TEST_CASE("job_failure: worked chain 1, node drain with a DisruptionTarget FailJob rule") {
  const std::string job =
      "{completionMode: Indexed, podFailurePolicy: {rules: [{action: FailJob, onPodConditions: "
      "[{type: DisruptionTarget}]}]}, template: {spec: {restartPolicy: Never, containers: "
      "[{name: worker}]}}}";
  const JobFailureOutcome drain = Outcome(job, "drain");
  CHECK(drain.reason == "PodFailurePolicy");
  CHECK(FillPodPlaceholder(drain.message, "default", "js-workers-1-0-x7k2p") ==
        "Pod default/js-workers-1-0-x7k2p has condition DisruptionTarget matching FailJob rule "
        "at index 0");
  CHECK(Summary(drain) == "PodFailurePolicy after 1 [rule 0 FailJob] counted");
  // Variants: a memory-pressure eviction matches the same rule and message, an ephemeral-storage
  // eviction and a plain delete (drain --disable-eviction) do not: default counting.
  CHECK(Outcome(job, "evicted").message == drain.message);
  CHECK(Summary(Outcome(job, "storage-evicted")) == "BackoffLimitExceeded after 7 counted");
  CHECK(Summary(Outcome(job, "delete")) == "BackoffLimitExceeded after 7 counted");
}

TEST_CASE("job_failure: worked chain 2, exit 42 with an Ignore rule first") {
  const std::string job =
      "{completionMode: Indexed, podFailurePolicy: {rules: [{action: Ignore, onPodConditions: "
      "[{type: DisruptionTarget}]}, {action: FailJob, onExitCodes: {containerName: trainer, "
      "operator: In, values: [42]}}]}, template: {spec: {restartPolicy: Never, containers: "
      "[{name: trainer}]}}}";
  const JobFailureOutcome exit42 = Outcome(job, "exit=42");
  CHECK(exit42.reason == "PodFailurePolicy");
  CHECK(FillPodPlaceholder(exit42.message, "default", "js-trainer-0-0-q9w4z") ==
        "Container trainer for pod default/js-trainer-0-0-q9w4z failed with exit code 42 "
        "matching FailJob rule at index 1");
  CHECK(Summary(exit42) == "PodFailurePolicy after 1 [rule 1 FailJob] counted");
  CHECK(Summary(Outcome(job, "drain")) == "never fails the Job [rule 0 Ignore] free");
  CHECK(Summary(Outcome(job, "exit=43")) == "BackoffLimitExceeded after 7 counted");
}

TEST_CASE("job_failure: worked chain 3, OOMKilled without a podFailurePolicy") {
  const auto job = [](const std::string& restart, int backoff) {
    return "{backoffLimit: " + std::to_string(backoff) +
           ", template: {spec: {restartPolicy: " + restart + ", containers: [{name: w}]}}}";
  };
  // A: OnFailure (JobSet's default), backoffLimit 0: the first in-place restart.
  CHECK(Summary(Outcome(job("OnFailure", 0), "oom")) ==
        "BackoffLimitExceeded after 1 counted in place");
  // B: OnFailure, backoffLimit 3: the 3rd restart (restarts >= backoffLimit).
  CHECK(Summary(Outcome(job("OnFailure", 3), "oom")) ==
        "BackoffLimitExceeded after 3 counted in place");
  // C: Never, backoffLimit 0: the first failed pod.
  CHECK(Summary(Outcome(job("Never", 0), "oom")) == "BackoffLimitExceeded after 1 counted");
  // D: Never, backoffLimit 3: the 4th failed pod (failed > backoffLimit).
  const JobFailureOutcome d = Outcome(job("Never", 3), "oom");
  CHECK(Summary(d) == "BackoffLimitExceeded after 4 counted");
  CHECK(d.message == "Job has reached the specified backoff limit");
  // To route OOM through the Job: a FailJob rule on 137, which names the exit code only.
  const JobFailureOutcome rule = Outcome(
      "{podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: "
      "[137]}}]}, template: {spec: {restartPolicy: Never, containers: [{name: w}]}}}",
      "oom");
  CHECK(rule.message ==
        "Container w for pod <namespace>/<pod> failed with exit code 137 matching FailJob rule "
        "at index 0");
}

TEST_CASE("job_failure: backoffLimit, backoffLimitPerIndex and maxFailedIndexes") {
  const std::string never = "template: {spec: {restartPolicy: Never, containers: [{name: a}]}}";
  SUBCASE("backoffLimit defaults to 6: the 7th failure") {
    CHECK(Summary(Outcome("{" + never + "}", "exit=1")) == "BackoffLimitExceeded after 7 counted");
  }
  SUBCASE("a Count rule counts as no rule does") {
    CHECK(Summary(Outcome("{backoffLimit: 2, podFailurePolicy: {rules: [{action: Count, "
                          "onExitCodes: {operator: In, values: [1]}}]}, " +
                              never + "}",
                          "exit=1")) == "BackoffLimitExceeded after 3 [rule 0 Count] counted");
  }
  SUBCASE("per index: the index fails after backoffLimitPerIndex + 1, the Job at the end") {
    const JobFailureOutcome o =
        Outcome("{completionMode: Indexed, backoffLimitPerIndex: 1, " + never + "}", "taint");
    CHECK(Summary(o) == "FailedIndexes after 2 counted waits");
    CHECK(o.message == "Job has failed indexes");
  }
  SUBCASE("per index with maxFailedIndexes 0: MaxFailedIndexesExceeded at once") {
    const JobFailureOutcome o = Outcome(
        "{completionMode: Indexed, backoffLimitPerIndex: 1, maxFailedIndexes: 0, " + never + "}",
        "exit=3");
    CHECK(Summary(o) == "MaxFailedIndexesExceeded after 2 counted");
    CHECK(o.message == "Job has exceeded the specified maximal number of failed indexes");
  }
  SUBCASE("per index with maxFailedIndexes 1: one failed index waits for the others") {
    CHECK(Summary(Outcome("{completionMode: Indexed, backoffLimitPerIndex: 0, maxFailedIndexes: "
                          "1, " +
                              never + "}",
                          "exit=3")) == "FailedIndexes after 1 counted waits");
  }
  SUBCASE("a FailIndex rule fails the index on the first failure") {
    CHECK(Summary(Outcome("{completionMode: Indexed, backoffLimitPerIndex: 5, maxFailedIndexes: "
                          "0, podFailurePolicy: {rules: [{action: FailIndex, onExitCodes: "
                          "{operator: In, values: [3]}}]}, " +
                              never + "}",
                          "exit=3")) ==
          "MaxFailedIndexesExceeded after 1 [rule 0 FailIndex] counted");
  }
  SUBCASE("backoffLimit is checked before the per-index limits") {
    CHECK(Summary(Outcome(
              "{completionMode: Indexed, backoffLimit: 0, backoffLimitPerIndex: 2, " + never + "}",
              "exit=3")) == "BackoffLimitExceeded after 1 counted");
  }
  SUBCASE("with backoffLimitPerIndex, backoffLimit defaults to MaxInt32") {
    Spec s = Load("{completionMode: Indexed, backoffLimitPerIndex: 2, " + never + "}");
    CHECK(DecodeJobFailureSpec(s.root()).backoff_limit == 2147483647);
  }
}

TEST_CASE("job_failure: the events a template can produce") {
  Spec s = Load(
      "{completionMode: Indexed, podFailurePolicy: {rules: [{action: Ignore, onPodConditions: "
      "[{type: DisruptionTarget}]}, {action: FailJob, onExitCodes: {containerName: trainer, "
      "operator: In, values: [42, 0]}}, {action: Count, onExitCodes: {operator: In, values: "
      "[1]}}]}, template: {spec: {restartPolicy: Never, containers: [{name: trainer}, {name: "
      "logger}], initContainers: [{name: proxy, restartPolicy: Always}]}}}");
  const Node& tmpl = *s.root().Find("template");
  std::vector<std::string> lines;
  for (const PossibleJobFailureEvent& e : PossibleJobFailureEvents(s.root(), tmpl))
    lines.push_back(PodEventText(e.event) + (e.other_exit_codes ? " (other)" : "") + ": " +
                    Summary(e.outcome));
  const std::vector<std::string> want = {
      "exit=1@trainer: BackoffLimitExceeded after 7 [rule 2 Count] counted",
      "exit=42@trainer: PodFailurePolicy after 1 [rule 1 FailJob] counted",
      "exit=2@trainer (other): BackoffLimitExceeded after 7 counted",
      "oom@trainer: BackoffLimitExceeded after 7 counted",
      "exit=1@logger: BackoffLimitExceeded after 7 [rule 2 Count] counted",
      "exit=2@logger (other): BackoffLimitExceeded after 7 counted",
      "oom@logger: BackoffLimitExceeded after 7 counted",
      "drain: never fails the Job [rule 0 Ignore] free",
      "preempted: never fails the Job [rule 0 Ignore] free",
      "taint: never fails the Job [rule 0 Ignore] free",
      "node-lost: never fails the Job [rule 0 Ignore] free",
      "evicted: never fails the Job [rule 0 Ignore] free",
      "storage-evicted: BackoffLimitExceeded after 7 counted",
      "shutdown: never fails the Job [rule 0 Ignore] free",
      "delete: BackoffLimitExceeded after 7 counted"};
  CHECK(lines == want);
}

TEST_CASE("job_failure: a one-container template names no container; deadline when set") {
  Spec s = Load(
      "{template: {spec: {restartPolicy: Never, activeDeadlineSeconds: 600, containers: [{name: "
      "main}]}}}");
  std::vector<std::string> words;
  for (const PossibleJobFailureEvent& e :
       PossibleJobFailureEvents(s.root(), *s.root().Find("template")))
    words.push_back(PodEventText(e.event));
  CHECK(words == std::vector<std::string>{"exit=1", "oom", "drain", "preempted", "taint",
                                          "node-lost", "evicted", "storage-evicted", "shutdown",
                                          "deadline", "delete"});
}

}  // namespace
}  // namespace jobset
