#include "validation/framework/explain.h"

#include <doctest/doctest.h>

#include "validation/core/loader.h"

namespace jobset {
namespace {

// roles: "name taskNumber [minFailed minSucceeded]"; each role's task policy from `task_retry`
// (one per role, or one for all).
Framework Make(std::vector<std::string> roles, std::string fw_retry,
               std::vector<std::string> task_retry) {
  std::string yaml =
      "apiVersion: frameworkcontroller.microsoft.com/v1\nkind: Framework\nmetadata: {name: fw}\n"
      "spec:\n  retryPolicy: " +
      fw_retry + "\n  taskRoles:\n";
  for (size_t k = 0; k < roles.size(); ++k) {
    char name[32];
    long number = 0, failed = 0, succeeded = 0;
    int n = std::sscanf(roles[k].c_str(), "%31s %ld %ld %ld", name, &number, &failed, &succeeded);
    yaml += "  - name: " + std::string(name) + "\n    taskNumber: " + std::to_string(number) + "\n";
    if (n == 4) {
      yaml +=
          "    frameworkAttemptCompletionPolicy: {minFailedTaskCount: " + std::to_string(failed) +
          ", minSucceededTaskCount: " + std::to_string(succeeded) + "}\n";
    }
    yaml += "    task: {retryPolicy: " + task_retry[std::min(k, task_retry.size() - 1)] + "}\n";
  }
  SourceFile f = ParseSource("fw.yaml", yaml);
  REQUIRE(f.documents[0].parsed);
  return DecodeFramework(f.documents[0].root);
}

const char kDefault[] = "{fancyRetryPolicy: false, maxRetryCount: 0}";
const char kFancy3[] = "{fancyRetryPolicy: true, maxRetryCount: 3}";

}  // namespace

TEST_CASE("framework explain: the manual's RetryPolicy rows") {
  CHECK(RetryManualType({false, 0, true}) == "DEFAULT");
  CHECK(RetryManualType({false, -2, true}) == "Service");
  CHECK(RetryManualType({false, -1, true}) == "Blind Batch");
  CHECK(RetryManualType({true, 3, true}) == "Batch with Task Fault Tolerance");
  CHECK(RetryManualType({true, 0, true}) == "Debug Mode");
  CHECK(RetryManualType({false, 3, true}).empty());
  CHECK(RetryManualType({true, -1, true}).empty());

  auto both = ExplainFrameworkSpec(Make({"a 1 1 -1"}, kFancy3, {kFancy3}));
  CHECK(both.retry_type == "Batch with Task Fault Tolerance");
  auto without = ExplainFrameworkSpec(Make({"a 1 1 -1", "b 1 1 -1"}, kFancy3, {kDefault}));
  CHECK(without.retry_type == "Batch without Task Fault Tolerance");
  auto mixed = ExplainFrameworkSpec(Make({"a 1 1 -1"}, "{maxRetryCount: -1}", {kDefault}));
  CHECK(mixed.retry_type.empty());
  auto omitted = ExplainFrameworkSpec(Make({"a 1 1 -1"}, "{}", {"{}"}));
  CHECK(omitted.retry_type == "DEFAULT");  // omitted policies are the zero values

  // Debug Mode: per class, Transient free, everything else done.
  auto debug = ExplainFrameworkSpec(Make({"a 1 1 -1"}, "{fancyRetryPolicy: true}", {kDefault}));
  const auto& d = debug.retry[0].decisions;
  REQUIRE(d.size() == 4);
  CHECK(!d[0].retry);
  CHECK((d[1].retry && !d[1].accountable));
  CHECK(!d[2].retry);
  CHECK(!d[3].retry);
  CHECK(both.retry[0].decisions[3].limit == 3);
  CHECK(!ExplainFrameworkSpec(Make({"a 1 1 -1"}, "{maxRetryCount: -1}", {kDefault}))
             .retry[0]
             .decisions[3]
             .limit.has_value());
}

TEST_CASE("framework explain: the manual's FrameworkAttemptCompletionPolicy rows") {
  auto type = [](std::vector<std::string> roles, std::vector<std::string> task = {kDefault}) {
    return ExplainFrameworkSpec(Make(roles, "{}", task)).completion_type;
  };
  CHECK(type({"a 2 1 -1", "b 3 1 -1"}) == "DEFAULT");
  CHECK(type({"a 2 1 -1"}, {"{maxRetryCount: -2}"}) == "Service");
  CHECK(type({"map 10 3 -1", "reduce 2 1 -1"}) == "MapReduce");
  CHECK(type({"ps 2 1 -1", "worker 4 1 4"}) == "TensorFlow");
  CHECK(type({"arbitrator 1 1 1", "a 3 -1 -1", "b 2 -1 -1"}) == "Arbitrator Dominated");
  CHECK(type({"a 3 1 1"}) == "First Completed Task Dominated");
  CHECK(type({"a 3"}).empty());        // omitted counts: no row
  CHECK(type({"a 3 -1 -1"}).empty());  // every count disabled: no row
  // minSucceededTaskCount 5 > taskNumber 4 cannot trigger: the spec amounts to DEFAULT.
  CHECK(type({"ps 2 1 -1", "worker 4 1 5"}) == "DEFAULT");
}

TEST_CASE("framework explain: what happens when every task fails or succeeds") {
  auto omitted = ExplainFrameworkSpec(Make({"a 2", "b 1"}, "{maxRetryCount: 2}", {kDefault}));
  REQUIRE(omitted.all_fail.completes);
  CHECK(omitted.all_fail.verdict.status.type.succeeded);  // the trap
  CHECK(!omitted.all_fail.framework.should_retry);
  CHECK(omitted.roles[0].failed_off == "omitted");
  bool said = false;
  for (const std::string& s : omitted.summary)
    said = said || s.find("omitted completion counts are 0") != std::string::npos;
  CHECK(said);

  auto tf =
      ExplainFrameworkSpec(Make({"ps 2 1 -1", "worker 4 1 4"}, "{maxRetryCount: 2}", {kDefault}));
  CHECK(!tf.all_fail.verdict.status.type.succeeded);
  CHECK(tf.all_fail.framework.should_retry);
  CHECK(tf.all_succeed.verdict.message ==
        "SucceededTaskCount 4 has reached MinSucceededTaskCount 4 in the TaskRole");
  CHECK(tf.summary[0].find("the Framework retries it (counted, at most 2 times)") !=
        std::string::npos);

  // Blind Batch tasks retry failures forever: a failing task never completes.
  auto blind = ExplainFrameworkSpec(Make({"a 2 1 -1"}, "{}", {"{maxRetryCount: -1}"}));
  CHECK(!blind.all_fail.completes);
  CHECK(blind.all_succeed.completes);
  // Service tasks never complete, not even by succeeding.
  auto service = ExplainFrameworkSpec(Make({"a 2 1 -1"}, "{}", {"{maxRetryCount: -2}"}));
  CHECK(!service.all_succeed.completes);

  auto budget =
      ExplainFrameworkSpec(Make({"w 2 1 -1"}, "{maxRetryCount: 2}", {"{maxRetryCount: 3}"}));
  CHECK(budget.summary.back() ==
        "task retry budgets reset with every FrameworkAttempt: a task of `w` may run up to 12 "
        "times for counted failures");
}

}  // namespace jobset

// --- Hostile input (issue #19) ------------------------------------------------------------

namespace jobset {

TEST_CASE("framework explain: 100 roles of 10,000 tasks complete when the last task does") {
  // Before: each of the 1,000,000 tasks recounted every task to check the completion policy
  // (1e12 steps); a role's tasks are now counted at once, up to the task that can trigger.
  std::vector<std::string> roles;
  for (int k = 0; k < 100; ++k) roles.push_back("w" + std::to_string(k) + " 10000");
  const FrameworkExplanation e = ExplainFrameworkSpec(Make(roles, kDefault, {kDefault}));
  REQUIRE(e.all_succeed.completes);
  CHECK(e.all_succeed.verdict.message ==
        "CompletedTaskCount 1000000 has reached TotalTaskCount 1000000 and no user specified "
        "conditions in FrameworkAttemptCompletionPolicy have ever been triggered");
  CHECK(e.all_fail.verdict.message == e.all_succeed.verdict.message);
  CHECK(e.all_fail.verdict.status.code == 0);  // Every task failed: still Succeeded.
  // A count in the middle of a role triggers at its own task.
  roles.back() = "w99 10000 7777 -1";
  const FrameworkExplanation mid = ExplainFrameworkSpec(Make(roles, kDefault, {kDefault}));
  CHECK(mid.all_fail.verdict.message ==
        "FailedTaskCount 7777 has reached MinFailedTaskCount 7777 in the TaskRole");
  // A taskNumber above the CRD's maximum costs no more (before: a vector of 10^12 tasks).
  const FrameworkExplanation huge =
      ExplainFrameworkSpec(Make({"w 1000000000000 1 -1"}, kDefault, {kDefault}));
  CHECK(huge.all_fail.verdict.message ==
        "FailedTaskCount 1 has reached MinFailedTaskCount 1 in the TaskRole");
  CHECK(huge.all_succeed.verdict.message ==
        "CompletedTaskCount 1000000000000 has reached TotalTaskCount 1000000000000 and no user "
        "specified conditions in FrameworkAttemptCompletionPolicy have ever been triggered");
}

}  // namespace jobset
