#include "validation/volcano/types.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "validation/volcano/test_job.h"

namespace jobset {

TEST_CASE("volcano: decode applies the defaults the semantics read (CRD + mutating webhook)") {
  VolcanoJob job = DecodeTestJob(
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\nspec:\n"
      "  maxRetry: 0\n"
      "  tasks:\n"
      "  - replicas: 3\n"
      "  - name: ps\n    replicas: 2\n    minAvailable: 1\n    maxRetry: 5\n"
      "  - name: part\n    replicas: 8\n"
      "    partitionPolicy: {totalPartitions: 4, partitionSize: 2, minPartitions: 3}\n"
      "  - name: part0\n    replicas: 4\n"
      "    partitionPolicy: {totalPartitions: 2, partitionSize: 2}\n");
  CHECK(job.max_retry == 3);  // an explicit 0 is rewritten by the webhook
  REQUIRE(job.tasks.size() == 4);
  CHECK(job.tasks[0].name == "default0");
  CHECK(job.tasks[0].min_available == 3);
  CHECK(job.tasks[0].max_retry == 3);
  CHECK(job.tasks[1].min_available == 1);
  CHECK(job.tasks[1].max_retry == 5);
  CHECK(job.tasks[2].min_available == 6);  // minPartitions × partitionSize
  CHECK(job.tasks[3].min_available == 4);  // HEAD: minPartitions 0 falls back to replicas
  CHECK(job.min_available == 3 + 1 + 6 + 4);
  CHECK(job.problems.empty());
  CHECK(std::find(job.defaulted.begin(), job.defaulted.end(), "spec.maxRetry: 3") !=
        job.defaulted.end());

  VolcanoJob explicit_values = DecodeTestJob(
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: train}\nspec:\n"
      "  maxRetry: 1\n  minAvailable: 2\n"
      "  tasks:\n"
      "  - {name: master, replicas: 1, template: {}}\n"
      "  - {name: worker, replicas: 4, template: {}}\n");
  CHECK(explicit_values.max_retry == 1);
  CHECK(explicit_values.min_available == 2);
}

TEST_CASE("volcano: decode is lenient: wrong types are noted, never fatal") {
  VolcanoJob job = DecodeTestJob(
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\nspec:\n"
      "  maxRetry: lots\n"
      "  policies: {event: PodFailed}\n"
      "  tasks:\n"
      "  - name: w\n    replicas: 2\n"
      "    policies:\n"
      "    - {events: [PodEvicted, 3], exitCode: x, action: RestartJob, timeout: 5 minutes}\n"
      "    - oops\n");
  CHECK(job.max_retry == 3);
  REQUIRE(job.tasks.size() == 1);
  REQUIRE(job.tasks[0].policies.size() == 1);
  CHECK(job.tasks[0].policies[0].events == std::vector<std::string>{"PodEvicted"});
  CHECK_FALSE(job.tasks[0].policies[0].has_exit_code);
  CHECK_FALSE(job.tasks[0].policies[0].has_timeout);
  CHECK(job.problems.size() == 6);
  CHECK(job.problems[0] == "spec.maxRetry: want an integer, got string (ignored)");

  VolcanoJob twice = DecodeTestJob(
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nspec:\n  tasks:\n"
      "  - {name: a, replicas: 1}\n  - {name: a, replicas: 2}\n");
  REQUIRE(twice.problems.size() == 1);
  CHECK(twice.problems[0] ==
        "spec.tasks[1].name: duplicate task name 'a': the controller finds the first task of that "
        "name");
  CHECK(FindVolcanoTask(twice, "a") == 0);

  VolcanoJob empty = DecodeTestJob("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nspec: 3\n");
  CHECK(empty.tasks.empty());
  CHECK(empty.min_available == 0);
}

}  // namespace jobset
