#include "validation/jobset/fix.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/test_size.h"
#include "validation/lint/lint.h"

namespace jobset {
namespace {

LintOptions Options() {
  LintOptions o;
  o.schema = BuiltinJobSetSchema();
  return o;
}

FixOutcome Fixed(const std::string& text, const std::string& path = "f.yaml") {
  return FixSource(ParseSource(path, text), Options());
}

int Count(const FileResult& r, const std::string& rule) {
  return static_cast<int>(std::count_if(r.findings.begin(), r.findings.end(),
                                        [&](const Finding& f) { return f.rule == rule; }));
}

const Finding* Find(const FileResult& r, const std::string& rule) {
  for (const Finding& f : r.findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

const char kRestart[] = "job-template/pod-failure-policy-restart-policy";
const char kDuplicate[] = "failure-policy/duplicate-rule-name";

// `text` with the first `what` replaced by `with`: the expected result of a fix.
std::string Replaced(std::string text, const std::string& what, const std::string& with) {
  size_t at = text.find(what);
  REQUIRE(at != std::string::npos);
  return text.replace(at, what.size(), with);
}

// The fix lint offers for the first finding of `rule` in `text` ("no finding" without one).
std::string FixOf(const std::string& text, const char* rule) {
  FileResult linted = LintSource(ParseSource("f.yaml", text), Options());
  const Finding* f = Find(linted, rule);
  return f ? f->fix.description : "no finding";
}

// A JobSet whose one replicated job has a pod failure policy; `pod_spec` is the pod template's
// spec, indented by 10.
std::string WithPodSpec(const std::string& pod_spec) {
  return "apiVersion: jobset.x-k8s.io/v1alpha2\n"
         "kind: JobSet\n"
         "metadata:\n"
         "  name: demo\n"
         "spec:\n"
         "  replicatedJobs:\n"
         "  - name: workers\n"
         "    template:\n"
         "      spec:\n"
         "        podFailurePolicy:\n"
         "          rules:\n"
         "          - action: FailJob\n"
         "            onExitCodes: {operator: In, values: [42]}\n"
         "        template:\n"
         "          spec:" +
         pod_spec;
}

// A JobSet with these failure policy rules (indented by 4).
std::string WithRules(const std::string& rules) {
  return "apiVersion: jobset.x-k8s.io/v1alpha2\n"
         "kind: JobSet\n"
         "metadata:\n"
         "  name: demo\n"
         "spec:\n"
         "  failurePolicy:\n"
         "    maxRestarts: 3\n"
         "    rules:\n" +
         rules +
         "  replicatedJobs:\n"
         "  - name: workers\n"
         "    template:\n"
         "      spec:\n"
         "        template:\n"
         "          spec:\n"
         "            restartPolicy: Never\n"
         "            containers: [{name: main, image: busybox}]\n";
}

}  // namespace

TEST_CASE("fix: restartPolicy Never goes above the comments that lead into the pod spec") {
  std::string before = WithPodSpec(
      "  # pod spec\n"
      "            # the trainer\n"
      "            containers:\n"
      "            - {name: main, image: busybox}   # keep me\n");
  CHECK(FixOf(before, kRestart) == "add restartPolicy: Never to the pod template");
  FixOutcome out = Fixed(before);
  CHECK(out.fixed == 1);
  CHECK(out.error.empty());
  CHECK(out.text == Replaced(before, "            # the trainer",
                             "            restartPolicy: Never\n            # the trainer"));
  CHECK(Count(out.result, kRestart) == 0);
}

TEST_CASE("fix: a restartPolicy of another value is replaced, its quotes and comment kept") {
  for (std::string value : {"OnFailure", "\"OnFailure\"", "'Always'", "''", "~"}) {
    CAPTURE(value);
    std::string before = WithPodSpec(
        "\n"
        "            restartPolicy: " +
        value +
        "   # was wrong\n"
        "            containers: [{name: main, image: busybox}]\n");
    FixOutcome out = Fixed(before);
    std::string never = value == "~"            ? "Never"
                        : value.front() == '"'  ? "\"Never\""
                        : value.front() == '\'' ? "'Never'"
                                                : "Never";
    CHECK(out.text == Replaced(before, value + "   #", never + "   #"));
    CHECK(out.fixed == 1);
    CHECK(Count(out.result, kRestart) == 0);
  }
  // Nothing after the colon at all.
  std::string empty = WithPodSpec(
      "\n"
      "            restartPolicy:\n"
      "            containers: [{name: main, image: busybox}]\n");
  CHECK(Fixed(empty).text == Replaced(empty, "restartPolicy:\n", "restartPolicy: Never\n"));
}

TEST_CASE("fix: flow-style and JSON pod specs get the entry in their own style") {
  std::string flow = WithPodSpec(" {containers: [{name: main, image: busybox}]}\n");
  CHECK(Fixed(flow).text == Replaced(flow, "{containers", "{restartPolicy: Never, containers"));

  std::string json = R"({
  "apiVersion": "jobset.x-k8s.io/v1alpha2",
  "kind": "JobSet",
  "metadata": {"name": "demo"},
  "spec": {
    "replicatedJobs": [{
      "name": "workers",
      "template": {"spec": {
        "podFailurePolicy": {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [42]}}]},
        "template": {"spec": {
          "containers": [{"name": "main", "image": "busybox"}]
        }}
      }}
    }]
  }
}
)";
  FixOutcome out = Fixed(json, "f.json");
  std::string expected = json;
  expected.insert(expected.find("          \"containers\""),
                  "          \"restartPolicy\": \"Never\",\n");
  CHECK(out.text == expected);
  CHECK(Count(out.result, kRestart) == 0);
  CHECK(out.result.findings.empty());
}

TEST_CASE("fix: CRLF files get CRLF lines") {
  std::string before = WithPodSpec(
      "\n"
      "            containers: [{name: main, image: busybox}]\n");
  std::string crlf;
  for (char c : before) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  CHECK(Fixed(crlf).text == Replaced(crlf, "            containers",
                                     "            restartPolicy: Never\r\n            containers"));
}

TEST_CASE("fix: explicit duplicate names: the first keeps it, the others get a free suffix") {
  std::string before = WithRules(
      "    - name: retry\n"
      "      action: RestartJobSet\n"
      "    - {name: retry, action: FailJobSet}\n"
      "    - name: \"retry\"   # third\n"
      "      action: FailJobSet\n"
      "    - name: retry_2\n"
      "      action: FailJobSet\n");
  CHECK(FixOf(before, kDuplicate) == "rename rules[1] to 'retry_3', rename rules[2] to 'retry_4'");
  FixOutcome out = Fixed(before);
  CHECK(out.text ==
        Replaced(Replaced(before, "{name: retry,", "{name: retry_3,"), "\"retry\"", "\"retry_4\""));
  CHECK(out.fixed == 1);
  CHECK(Count(out.result, kDuplicate) == 0);
}

TEST_CASE("fix: 60,000 rules of one name are renamed in linear time") {
  // Before: each rename tried every suffix from 2 up (1.8e9 names built and looked up): the
  // lint of 40,000 such rules took 65 s, this one minutes.
  const int n = HostileSize(60000);
  std::string rules;
  for (int i = 0; i < n; ++i) rules += "    - name: r\n      action: FailJobSet\n";
  std::string description = FixOf(WithRules(rules), kDuplicate);
  CHECK(description.rfind("rename rules[1] to 'r_2', rename rules[2] to 'r_3', ", 0) == 0);
  CHECK(description.ends_with(", rename rules[" + std::to_string(n - 1) + "] to 'r_" +
                              std::to_string(n) + "'"));
}

TEST_CASE("fix: a suffix another rule wrote is skipped, in one group and across groups") {
  std::string before = WithRules(
      "    - {name: a, action: FailJobSet}\n"
      "    - {name: a_2, action: FailJobSet}\n"
      "    - {name: a, action: FailJobSet}\n"
      "    - {name: a_2, action: FailJobSet}\n"
      "    - {name: a, action: FailJobSet}\n"
      "    - {name: a_4, action: FailJobSet}\n"
      "    - {name: a, action: FailJobSet}\n");
  FileResult linted = LintSource(ParseSource("f.yaml", before), Options());
  std::vector<std::string> fixes;
  for (const Finding& f : linted.findings)
    if (f.rule == kDuplicate) fixes.push_back(f.fix.description);
  CHECK(fixes == std::vector<std::string>{
                     "rename rules[2] to 'a_3', rename rules[4] to 'a_5', rename rules[6] to 'a_6'",
                     "rename rules[3] to 'a_2_2'"});
}

TEST_CASE("fix: a defaulted name collision names the unnamed rule, the written name stays") {
  std::string before = WithRules(
      "    - name: first\n"
      "      action: RestartJobSet\n"
      "    - action: FailJobSet            # defaulted to failurePolicyRule1\n"
      "    - name: failurePolicyRule1\n"
      "      action: FailJobSet\n");
  CHECK(FixOf(before, kDuplicate) == "name the unnamed rules[1] 'failurePolicyRule1_2'");
  FixOutcome out = Fixed(before);
  CHECK(out.text == Replaced(before, "- action: FailJobSet ",
                             "- name: failurePolicyRule1_2\n      action: FailJobSet "));
  CHECK(Count(out.result, kDuplicate) == 0);
  // `name: ""` is defaulted too: the empty string gets the name.
  std::string empty = WithRules(
      "    - {name: \"\", action: FailJobSet}\n"
      "    - {name: failurePolicyRule0, action: FailJobSet}\n");
  CHECK(Fixed(empty).text == Replaced(empty, "\"\"", "\"failurePolicyRule0_2\""));
}

TEST_CASE("fix: no fix where it would not be certain") {
  // The duplicated name is itself invalid: any suffix stays invalid.
  CHECK(FixOf(WithRules("    - {name: r-x, action: FailJobSet}\n"
                        "    - {name: r-x, action: FailJobSet}\n"),
              kDuplicate) == "");
  // A pod spec shared through an anchor: editing it changes every replicated job using it.
  std::string aliased =
      "apiVersion: jobset.x-k8s.io/v1alpha2\n"
      "kind: JobSet\n"
      "metadata: {name: demo}\n"
      "spec:\n"
      "  replicatedJobs:\n"
      "  - name: a\n"
      "    template:\n"
      "      spec:\n"
      "        podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: "
      "[42]}}]}\n"
      "        template: {spec: &pod {containers: [{name: main, image: busybox}]}}\n"
      "  - name: b\n"
      "    template: {spec: {template: {spec: *pod}}}\n";
  FixOutcome out = Fixed(aliased);
  CHECK(Count(out.result, kRestart) == 1);
  CHECK(out.fixed == 0);
  CHECK(out.text == aliased);
  // A multi-line plain value is not rewritten.
  std::string folded = WithPodSpec(
      "\n"
      "            restartPolicy: On\n"
      "              Failure\n"
      "            containers: [{name: main, image: busybox}]\n");
  CHECK(Fixed(folded).fixed == 0);
  // A null on the next line is a value we do not rewrite (nor write a second one before).
  std::string next_line = WithPodSpec(
      "\n"
      "            restartPolicy:\n"
      "              ~\n"
      "            containers: [{name: main, image: busybox}]\n");
  FixOutcome kept = Fixed(next_line);
  CHECK(kept.fixed == 0);
  CHECK(kept.error.empty());
}

TEST_CASE("fix: several findings and documents in one file, and a second run changes nothing") {
  std::string one = WithPodSpec(
      "\n"
      "            containers: [{name: main, image: busybox}]\n");
  std::string two = WithRules(
      "    - {name: a, action: FailJobSet}\n"
      "    - {name: a, action: FailJobSet}\n"
      "    - {name: b, action: FailJobSet}\n"
      "    - {name: b, action: FailJobSet}\n");
  std::string before = "# two objects\n" + one + "---\n" + two;
  FixOutcome out = Fixed(before);
  CHECK(out.fixed == 3);
  CHECK(Count(out.result, kDuplicate) == 0);
  CHECK(Count(out.result, kRestart) == 0);
  CHECK(out.text.find("{name: a_2,") != std::string::npos);
  CHECK(out.text.find("{name: b_2,") != std::string::npos);
  CHECK(out.text.find("            restartPolicy: Never\n") != std::string::npos);
  FixOutcome again = Fixed(out.text);
  CHECK(again.fixed == 0);
  CHECK(again.text == out.text);
}

TEST_CASE("fix: an ignore comment does not hold back the fix of an error") {
  // The Job API refuses every child Job: an error, which no comment suppresses, so its fix
  // applies as without the comment.
  std::string before = WithPodSpec(
      "\n"
      "            restartPolicy: OnFailure\n"
      "            containers: [{name: main, image: busybox}]\n");
  before.replace(before.find("podFailurePolicy:") + 17, 0,
                 "  # kubectl-jobset:ignore job-template/pod-failure-policy-restart-policy");
  FixOutcome out = Fixed(before);
  CHECK(out.fixed == 1);
  CHECK(out.text.find("            restartPolicy: Never\n") != std::string::npos);
}

}  // namespace jobset
