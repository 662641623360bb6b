// Tests of the podFailurePolicy matcher: every case of kubernetes/kubernetes
// pkg/controller/job/pod_failure_policy_test.go TestMatchPodFailurePolicy (commit
// 1892e4deb967a2b39cfc2fea87a8bd49274449ef), one SUBCASE named after each, with the policy
// written as YAML so that the decoder is tested too.
#include "validation/k8s/pod_failure_policy.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "validation/core/loader.h"

namespace jobset {
namespace {

// The podFailurePolicy of a JobSpec whose `podFailurePolicy` is `yaml` (flow YAML).
PodFailurePolicy Policy(const std::string& yaml) {
  SourceFile f = ParseSource("t.yaml", "{podFailurePolicy: " + yaml + "}");
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  std::optional<PodFailurePolicy> policy = DecodePodFailurePolicy(f.documents[0].root);
  REQUIRE(policy);
  return *policy;
}

// upstream's validPodObjectMeta, phase Failed.
FailedPod Pod() {
  FailedPod pod;
  pod.pod_namespace = "default";
  pod.name = "mypod";
  return pod;
}

FailedPod WithExit(const std::string& container, int32_t code) {
  FailedPod pod = Pod();
  pod.container_statuses.push_back({container, code, ""});
  return pod;
}

FailedPod WithCondition(const std::string& type, const std::string& status) {
  FailedPod pod = Pod();
  pod.conditions.push_back({type, status, "", ""});
  return pod;
}

// One upstream case's expectation.
struct Want {
  std::optional<std::string> message;
  bool count_failed;
  std::optional<std::string> action;
};

void Check(const PodFailurePolicyMatch& got, const Want& want) {
  CHECK(got.job_failure_message == want.message);
  CHECK(got.count_failed == want.count_failed);
  CHECK(got.action == want.action);
}

const std::string kDisruptionTrue = "{type: DisruptionTarget, status: \"True\"}";

TEST_CASE("pod_failure_policy: TestMatchPodFailurePolicy") {
  const std::optional<std::string> none;
  SUBCASE("unknown action for rule matching by exit codes - skip rule with unknown action") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: UnknownAction, onExitCodes: {operator: In, values: [1, 2]}},"
        " {action: FailJob, onExitCodes: {operator: In, values: [2, 3]}}]}");
    Check(MatchPodFailurePolicy(&p, WithExit("main-container", 2)),
          {"Container main-container for pod default/mypod failed with exit code 2 matching "
           "FailJob rule at index 1",
           true, "FailJob"});
  }
  SUBCASE("unknown action for rule matching by pod conditions - skip rule with unknown action") {
    PodFailurePolicy p =
        Policy("{rules: [{action: UnkonwnAction, onPodConditions: [" + kDisruptionTrue +
               "]}, {action: Ignore, onPodConditions: [" + kDisruptionTrue + "]}]}");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "True")),
          {none, false, "Ignore"});
  }
  SUBCASE("unknown operator - rule with unknown action is skipped for onExitCodes") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: Ignore, onExitCodes: {operator: UnknownOperator, values: [1, 2]}},"
        " {action: FailJob, onExitCodes: {operator: In, values: [2, 3]}}]}");
    Check(MatchPodFailurePolicy(&p, WithExit("main-container", 2)),
          {"Container main-container for pod default/mypod failed with exit code 2 matching "
           "FailJob rule at index 1",
           true, "FailJob"});
  }
  SUBCASE("no policy rules") {
    Check(MatchPodFailurePolicy(nullptr, WithExit("", 2)), {none, true, none});
  }
  SUBCASE("ignore rule matched for exit codes") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: Ignore, onExitCodes: {operator: In, "
        "values: [1, 2, 3]}}]}");
    Check(MatchPodFailurePolicy(&p, WithExit("", 2)), {none, false, "Ignore"});
  }
  SUBCASE("FailJob rule matched for exit codes") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: FailJob, onExitCodes: {operator: In, "
        "values: [1, 2, 3]}}]}");
    Check(MatchPodFailurePolicy(&p, WithExit("main-container", 2)),
          {"Container main-container for pod default/mypod failed with exit code 2 matching "
           "FailJob rule at index 0",
           true, "FailJob"});
  }
  SUBCASE("successful containers are skipped by the rules") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: FailJob, onExitCodes: {operator: NotIn, "
        "values: [111]}}]}");
    FailedPod pod = Pod();
    pod.init_container_statuses = {{"init-container", 0, ""}};
    pod.container_statuses = {{"main-container", 111, ""}, {"suppport-container", 0, ""}};
    Check(MatchPodFailurePolicy(&p, pod), {none, true, none});
  }
  SUBCASE("FailIndex rule matched for exit codes; JobBackoffLimitPerIndex enabled") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: FailIndex, onExitCodes: {operator: In, "
        "values: [1, 2, 3]}}]}");
    Check(MatchPodFailurePolicy(&p, WithExit("", 2), true), {none, true, "FailIndex"});
  }
  SUBCASE("FailIndex rule matched for exit codes; JobBackoffLimitPerIndex disabled") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: FailIndex, onExitCodes: {operator: In, "
        "values: [1, 2, 3]}}]}");
    Check(MatchPodFailurePolicy(&p, WithExit("", 2), false), {none, true, none});
  }
  SUBCASE("pod failure policy with NotIn operator and value 0") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: FailJob, onExitCodes: {operator: NotIn, "
        "values: [0]}}]}");
    FailedPod pod = Pod();
    pod.container_statuses = {{"main-container", 1, ""}, {"suppport-container", 0, ""}};
    Check(MatchPodFailurePolicy(&p, pod),
          {"Container main-container for pod default/mypod failed with exit code 1 matching "
           "FailJob rule at index 0",
           true, "FailJob"});
  }
  SUBCASE("second jobfail rule matched for exit codes") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: Count, onExitCodes: {operator: In, values: [1, 2, 3]}},"
        " {action: FailJob, onExitCodes: {operator: In, values: [4, 5, 6]}}]}");
    Check(MatchPodFailurePolicy(&p, WithExit("main-container", 6)),
          {"Container main-container for pod default/mypod failed with exit code 6 matching "
           "FailJob rule at index 1",
           true, "FailJob"});
  }
  SUBCASE("count rule matched for exit codes") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: Count, onExitCodes: {operator: In, "
        "values: [1, 2, 3]}}]}");
    FailedPod pod = Pod();
    pod.container_statuses = {{"foo", std::nullopt, ""}, {"bar", 2, ""}};
    Check(MatchPodFailurePolicy(&p, pod), {none, true, "Count"});
  }
  SUBCASE("FailIndex rule matched for pod conditions; JobBackoffLimitPerIndex enabled") {
    PodFailurePolicy p =
        Policy("{rules: [{action: FailIndex, onPodConditions: [" + kDisruptionTrue + "]}]}");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "True"), true),
          {none, true, "FailIndex"});
  }
  SUBCASE("FailIndex rule matched for pod conditions; JobBackoffLimitPerIndex disabled") {
    PodFailurePolicy p =
        Policy("{rules: [{action: FailIndex, onPodConditions: [" + kDisruptionTrue + "]}]}");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "True"), false),
          {none, true, none});
  }
  SUBCASE("ignore rule matched for pod conditions") {
    PodFailurePolicy p =
        Policy("{rules: [{action: Ignore, onPodConditions: [" + kDisruptionTrue + "]}]}");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "True")),
          {none, false, "Ignore"});
  }
  SUBCASE("ignore rule matches by the status=False") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget, status: "
        "\"False\"}]}]}");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "False")),
          {none, false, "Ignore"});
  }
  SUBCASE("ignore rule matches by the status=Unknown") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget, status: "
        "Unknown}]}]}");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "Unknown")),
          {none, false, "Ignore"});
  }
  SUBCASE("ignore rule does not match when status for pattern is False, but actual True") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget, status: "
        "\"False\"}]}]}");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "True")), {none, true, none});
  }
  SUBCASE("ignore rule does not match when status for pattern is True, but actual False") {
    PodFailurePolicy p =
        Policy("{rules: [{action: Ignore, onPodConditions: [" + kDisruptionTrue + "]}]}");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "False")),
          {none, true, none});
  }
  SUBCASE("default - do not match condition with status=False") {
    // Upstream's pattern spells out status True; ours leaves it to the default.
    PodFailurePolicy p =
        Policy("{rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}");
    CHECK(p.rules[0].on_pod_conditions->at(0).status == "True");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "False")),
          {none, true, none});
  }
  SUBCASE("job fail rule matched for pod conditions") {
    PodFailurePolicy p =
        Policy("{rules: [{action: FailJob, onPodConditions: [" + kDisruptionTrue + "]}]}");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "True")),
          {"Pod default/mypod has condition DisruptionTarget matching FailJob rule at index 0",
           true, "FailJob"});
  }
  SUBCASE("count rule matched for pod conditions") {
    PodFailurePolicy p =
        Policy("{rules: [{action: Count, onPodConditions: [" + kDisruptionTrue + "]}]}");
    Check(MatchPodFailurePolicy(&p, WithCondition("DisruptionTarget", "True")),
          {none, true, "Count"});
  }
  SUBCASE("no rule matched") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: Count, onExitCodes: {operator: NotIn, values: [8]}},"
        " {action: Ignore, onExitCodes: {operator: In, values: [1, 2, 3]}},"
        " {action: FailJob, onExitCodes: {operator: NotIn, values: [5, 6, 7]}},"
        " {action: Count, onPodConditions: [{type: ResourceLimitExceeded, status: \"True\"}]},"
        " {action: Ignore, onPodConditions: [" +
        kDisruptionTrue + "]}]}");
    PodFailurePolicyMatch got = MatchPodFailurePolicy(&p, WithExit("", 32));
    Check(got, {none, true, "Count"});
    CHECK(got.rule_index == 0);
  }
}

TEST_CASE("pod_failure_policy: order, init containers and the rule index") {
  SUBCASE("containerStatuses before initContainerStatuses, containerName honoured") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: FailJob, onExitCodes: {containerName: setup, operator: In, "
        "values: [3]}}, {action: FailJob, onExitCodes: {operator: In, values: [3]}}]}");
    FailedPod pod = Pod();
    pod.init_container_statuses = {{"setup", 3, ""}};
    pod.container_statuses = {{"main", 3, ""}};
    PodFailurePolicyMatch got = MatchPodFailurePolicy(&p, pod);
    CHECK(got.rule_index == 0);
    CHECK(*got.job_failure_message ==
          "Container setup for pod default/mypod failed with exit code 3 matching FailJob rule "
          "at index 0");
  }
  SUBCASE("the pod's condition order decides which condition is named") {
    PodFailurePolicy p = Policy(
        "{rules: [{action: FailJob, onPodConditions: [{type: DisruptionTarget}, {type: Ready, "
        "status: \"False\"}]}]}");
    FailedPod pod = Pod();
    pod.conditions = {{"Ready", "False", "PodFailed", ""}, {"DisruptionTarget", "True", "", ""}};
    CHECK(*MatchPodFailurePolicy(&p, pod).job_failure_message ==
          "Pod default/mypod has condition Ready matching FailJob rule at index 0");
  }
  SUBCASE("no podFailurePolicy decodes as none; an empty one matches nothing") {
    SourceFile f = ParseSource("t.yaml", "{backoffLimit: 1}");
    CHECK_FALSE(DecodePodFailurePolicy(f.documents[0].root));
    PodFailurePolicy p = Policy("{rules: []}");
    Check(MatchPodFailurePolicy(&p, WithExit("a", 1)), {std::nullopt, true, std::nullopt});
  }
}

}  // namespace
}  // namespace jobset
