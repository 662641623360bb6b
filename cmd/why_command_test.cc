#include "cmd/why_command.h"

#include <doctest/doctest.h>

#include <sstream>

namespace jobset {

TEST_CASE("why: an RBAC refusal names the verb, resource, group and namespace missing") {
  std::string msg = KubectlErrorMessage(
      "Error from server (Forbidden): jobs.batch is forbidden: User \"alice\" cannot list "
      "resource \"jobs\" in API group \"batch\" in the namespace \"team-a\"\n",
      1);
  CHECK(msg.rfind("access denied: you may not list jobs.batch in namespace team-a", 0) == 0);
  std::string cluster = KubectlErrorMessage(
      "Error from server (Forbidden): events is forbidden: User \"bob\" cannot list resource "
      "\"events\" in API group \"\" at the cluster scope\n",
      1);
  CHECK(cluster.rfind("access denied: you may not list events at cluster scope", 0) == 0);
  CHECK(KubectlErrorMessage("Error from server (NotFound): jobsets.jobset.x-k8s.io \"x\" not "
                            "found\n",
                            1) ==
        "not found: Error from server (NotFound): jobsets.jobset.x-k8s.io \"x\" not found");
  CHECK(KubectlErrorMessage("", 3) == "kubectl failed with exit status 3");
}

TEST_CASE("why: the kubectl calls pass the access flags and select children by label") {
  KubectlAccess access;
  access.namespace_name = "team-a";
  access.context = "prod";
  auto calls = WhyKubectlCalls(FindKind(KindId::kJobSet), "train", access);
  REQUIRE(calls.size() == 3);
  CHECK(calls[0] == std::vector<std::string>{"get", "jobsets.jobset.x-k8s.io", "train", "-o",
                                             "json", "--namespace", "team-a", "--context", "prod"});
  CHECK(calls[1][2] == "-l");
  CHECK(calls[1][3] == "jobset.sigs.k8s.io/jobset-name=train");
  CHECK(calls[2][1] == "events");
}

TEST_CASE("why: vcjob/ and framework/ select their children by their controllers' labels") {
  KubectlAccess access;
  access.namespace_name = "team-a";
  auto volcano = WhyKubectlCalls(FindKind(KindId::kVolcanoJob), "train", access);
  CHECK(volcano[0][1] == "jobs.batch.volcano.sh");
  CHECK(volcano[1][3] == "volcano.sh/job-name=train");
  auto framework = WhyKubectlCalls(FindKind(KindId::kFramework), "train", access);
  CHECK(framework[0][1] == "frameworks.frameworkcontroller.microsoft.com");
  CHECK(framework[1][3] == "FC_FRAMEWORK_NAME=train");
}

TEST_CASE("why: a Volcano Job and a Framework are diagnosed from their dumps") {
  WhyFlags flags;
  flags.target = "vcjob/train";
  flags.file = JOBSET_SOURCE_DIR "/tests/why/volcano-restart-until-failed.json";
  std::ostringstream out, err;
  CHECK(RunWhy(flags, out, err) == 1);  // it failed
  CHECK(err.str().empty());
  CHECK(out.str().find("Failed") != std::string::npos);
  flags.target = "framework/trainfw";
  flags.file = JOBSET_SOURCE_DIR "/tests/why/framework-transient-then-success.json";
  std::ostringstream out2, err2;
  CHECK(RunWhy(flags, out2, err2) == 0);  // it succeeded on its second attempt
  CHECK(out2.str().find("Succeeded") != std::string::npos);
}

TEST_CASE("why: every kind of the table is named by its resource words, the short one in help") {
  for (const KindHandler& kind : SupportedKinds()) {
    CAPTURE(kind.title);
    WhyFlags flags;
    flags.target = std::string(kind.resource_words.front()) + "/x";
    flags.file = JOBSET_SOURCE_DIR "/tests/why/volcano-restart-until-failed.json";
    std::ostringstream out, err;
    RunWhy(flags, out, err);
    CHECK(err.str().find("unknown kind") == std::string::npos);
  }
}

TEST_CASE("why: an unknown kind is refused with exit status 2") {
  WhyFlags flags;
  flags.target = "pods/train";
  flags.file = "-";
  std::ostringstream out, err;
  CHECK(RunWhy(flags, out, err) == 2);
  CHECK(err.str() == "error: unknown kind \"pods\" (want one of jobset, vcjob, framework)\n");
}

}  // namespace jobset
