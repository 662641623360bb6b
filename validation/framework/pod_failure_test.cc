#include "validation/framework/pod_failure.h"

#include <doctest/doctest.h>

namespace jobset {
namespace {

CompletionStatus Classify(const char* text) {
  PodFailure pod;
  std::string error;
  REQUIRE_MESSAGE(ParsePodFailure(text, &pod, &error), error);
  return ClassifyPodFailure(pod);
}

}  // namespace

TEST_CASE("framework pod failures: first match wins, predefined codes first") {
  // An OOM-killed container exiting 137 is -1200 Permanent: -1200 precedes 137.
  CompletionStatus oom = Classify("exit=137/OOMKilled");
  CHECK(oom.code == -1200);
  CHECK(oom.phrase == "ContainerDockerOOMKilled");
  CHECK(ClassOf(oom.type) == FailureClass::kPermanent);
  // The same exit code without the reason: SIGKILL, Transient.
  CHECK(Classify("exit=137").code == 137);
  CHECK(ClassOf(Classify("exit=137").type) == FailureClass::kTransient);
  // 200/201/210 win over everything.
  CHECK(Classify("exit=200/OOMKilled").code == 200);
  CHECK(Classify("exit=210").phrase == "ContainerPermanentFailed");
  // Pod reasons, case-insensitive and anchored.
  CHECK(Classify("pod=Evicted").code == -1000);
  CHECK(Classify("pod=evicted").code == -1000);
  CHECK(Classify("pod=OutOfcpu").code == -1002);
  CHECK(Classify("pod=UnexpectedAdmissionError").code == -1006);
  CHECK(Classify("pod=NotEvicted").code == -300);  // no match, no failed container
  // ContainerCannotRun by exit code.
  CHECK(Classify("exit=127/ContainerCannotRun").code == -1203);
  CHECK(Classify("exit=126/ContainerCannotRun").code == -1202);
  CHECK(ClassOf(Classify("exit=125/ContainerCannotRun").type) == FailureClass::kUnknown);
  // No pattern: the exit code itself, Unknown.
  CompletionStatus one = Classify("exit=1/Error");
  CHECK(one.code == 1);
  CHECK(one.phrase == "ContainerUnrecognizedFailed");
  CHECK(ClassOf(one.type) == FailureClass::kUnknown);
  CHECK(Classify("exit=-1").code == -1);  // an odd exit code is still the code

  std::string error;
  PodFailure p;
  for (const char* bad : {"exit=", "exit=0", "exit=x", "pod=", "137"})
    CHECK_MESSAGE(!ParsePodFailure(bad, &p, &error), bad);

  // Through --fail: TASK:exit=... and attribute overrides.
  CompletionStatus s;
  REQUIRE(ParseTaskCompletion("exit=137/OOMKilled", &s, &error));
  CHECK(s.code == -1200);
  REQUIRE(ParseTaskCompletion("pod=Evicted+Permanent", &s, &error));
  CHECK(s.code == -1000);
  CHECK(s.type.permanent);
  CHECK(!s.type.transient);
}

}  // namespace jobset
