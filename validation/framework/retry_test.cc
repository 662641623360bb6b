#include "validation/framework/retry.h"

#include <doctest/doctest.h>

namespace jobset {
namespace {

CompletionStatus Completion(const char* text) {
  CompletionStatus s;
  std::string error;
  REQUIRE_MESSAGE(ParseTaskCompletion(text, &s, &error), error);
  return s;
}

// Whether the policy retries `text` after `accountable` counted retries, and whether it counts.
std::pair<bool, bool> Decide(bool fancy, int64_t max, const char* text, int64_t accountable = 0) {
  RetryDecision d = ShouldRetry(FrameworkRetryPolicy{fancy, max, true}, Completion(text),
                                {accountable, accountable}, 0, 0);
  return {d.should_retry, d.accountable};
}

const std::pair<bool, bool> kNo{false, false}, kCounted{true, true}, kFree{true, false};

}  // namespace

TEST_CASE("framework retry: codes and phrases classify as the controller does") {
  CHECK(ClassOf(Completion("0").type) == FailureClass::kSucceeded);
  CHECK(ClassOf(Completion("Succeeded").type) == FailureClass::kSucceeded);
  CHECK(ClassOf(Completion("200").type) == FailureClass::kTransient);
  CHECK(Completion("201").type.conflict);
  CHECK(ClassOf(Completion("210").type) == FailureClass::kPermanent);
  CHECK(ClassOf(Completion("PodEvicted").type) == FailureClass::kTransient);
  CHECK(Completion("PodEvicted").code == -1000);
  CHECK(ClassOf(Completion("-1200").type) == FailureClass::kPermanent);  // OOMKilled
  CHECK(ClassOf(Completion("137").type) == FailureClass::kTransient);
  CHECK(ClassOf(Completion("134").type) == FailureClass::kUnknown);
  CHECK(ClassOf(Completion("-300").type) == FailureClass::kUnknown);
  // An exit code no pattern matches: ContainerUnrecognizedFailed, Unknown.
  CompletionStatus one = Completion("1");
  CHECK(one.phrase == "ContainerUnrecognizedFailed");
  CHECK(ClassOf(one.type) == FailureClass::kUnknown);
  // A code of the cluster's own podFailureSpec, with its attributes.
  CompletionStatus custom = Completion("-1500+Transient+Conflict");
  CHECK(custom.type.transient);
  CHECK(custom.type.conflict);
  CHECK(ClassOf(Completion("137+Permanent").type) == FailureClass::kPermanent);
  CHECK(ClassOf(Completion("137+Unknown").type) == FailureClass::kUnknown);
  CHECK(CompletionTypeText(Completion("201").type) == "{Failed [Transient Conflict]}");
  CHECK(CompletionTypeText(Completion("0").type) == "{Succeeded []}");

  std::string error;
  CompletionStatus s;
  CHECK(!ParseTaskCompletion("-220", &s, &error));
  CHECK(error.find("given by the controller") != std::string::npos);
  CHECK(!ParseTaskCompletion("-120", &s, &error));
  CHECK(!ParseTaskCompletion("-1500", &s, &error));  // unknown: needs attributes
  CHECK(error.find("-1500+Transient") != std::string::npos);
  CHECK(!ParseTaskCompletion("-50", &s, &error));
  CHECK(!ParseTaskCompletion("Evicted", &s, &error));
  CHECK(!ParseTaskCompletion("1+Sometimes", &s, &error));
  CHECK(!ParseTaskCompletion("0+Transient", &s, &error));
}

// The manual's RetryPolicy table, one row per FrameworkType, for every completion class.
TEST_CASE("framework retry: DEFAULT (fancy false, max 0) never retries") {
  for (const char* c : {"0", "200", "210", "1"}) CHECK_MESSAGE(Decide(false, 0, c) == kNo, c);
}

TEST_CASE("framework retry: Service (fancy false, max -2) retries every completion") {
  for (const char* c : {"0", "200", "210", "1"}) {
    CHECK_MESSAGE(Decide(false, -2, c) == kCounted, c);
    CHECK_MESSAGE(Decide(false, -2, c, 1000) == kCounted, c);
  }
}

TEST_CASE("framework retry: Blind Batch (fancy false, max -1) retries every failure") {
  CHECK(Decide(false, -1, "0") == kNo);
  for (const char* c : {"200", "210", "1"})
    CHECK_MESSAGE(Decide(false, -1, c, 1000) == kCounted, c);
}

TEST_CASE("framework retry: Batch with Task Fault Tolerance (fancy true, max 3)") {
  CHECK(Decide(true, 3, "0") == kNo);
  CHECK(Decide(true, 3, "210") == kNo);
  CHECK(Decide(true, 3, "-1200") == kNo);
  // Transient: always, and never counted (so never bounded).
  CHECK(Decide(true, 3, "200", 3) == kFree);
  CHECK(Decide(true, 3, "PodEvicted", 100) == kFree);
  // Unknown: up to 3 times.
  CHECK(Decide(true, 3, "1", 0) == kCounted);
  CHECK(Decide(true, 3, "1", 2) == kCounted);
  CHECK(Decide(true, 3, "1", 3) == kNo);
}

TEST_CASE("framework retry: Batch without Task Fault Tolerance (task fancy false, max 0)") {
  // The framework level is the row above; the task level never retries anything.
  for (const char* c : {"0", "200", "210", "1"}) CHECK_MESSAGE(Decide(false, 0, c) == kNo, c);
  CHECK(Decide(true, 3, "1", 0) == kCounted);
}

TEST_CASE("framework retry: Debug Mode (fancy true, max 0) retries Transient only") {
  CHECK(Decide(true, 0, "200") == kFree);
  CHECK(Decide(true, 0, "143") == kFree);
  for (const char* c : {"0", "210", "1", "-300"}) CHECK_MESSAGE(Decide(true, 0, c) == kNo, c);
}

TEST_CASE("framework retry: combinations outside the table") {
  // fancy false retries Permanent failures too, while counted retries remain.
  CHECK(Decide(false, 2, "210", 1) == kCounted);
  CHECK(Decide(false, 2, "210", 2) == kNo);
  CHECK(Decide(false, 2, "0") == kNo);
  // fancy true and -1: Permanent stops, Unknown always (counted), Transient free.
  CHECK(Decide(true, -1, "210") == kNo);
  CHECK(Decide(true, -1, "1", 500) == kCounted);
  CHECK(Decide(true, -1, "200") == kFree);
  CHECK(Decide(true, -1, "0") == kNo);
  // fancy true and -2: Permanent still stops; succeeded work reruns.
  CHECK(Decide(true, -2, "210") == kNo);
  CHECK(Decide(true, -2, "0") == kCounted);
  CHECK(Decide(true, -2, "1") == kCounted);
}

TEST_CASE("framework retry: reasons and delays are the controller's") {
  RetryDecision d = ShouldRetry({true, 3, true}, Completion("201"), {0, 0}, 60, 900);
  CHECK(d.should_retry);
  CHECK(d.delay_min == 60);
  CHECK(d.delay_max == 900);
  CHECK(d.reason == "FancyRetryPolicy is true and CompletionType is {Failed [Transient Conflict]}");
  CHECK(ShouldRetry({true, 3, true}, Completion("200"), {0, 0}, 60, 900).delay_max == 0);

  CHECK(ShouldRetry({false, 3, true}, Completion("1"), {4, 1}, 0, 0).reason ==
        "AccountableRetriedCount 1 has not reached MaxRetryCount 3");
  CHECK(ShouldRetry({false, 1, true}, Completion("1"), {4, 1}, 0, 0).reason ==
        "AccountableRetriedCount 1 has reached MaxRetryCount 1");
  CHECK(ShouldRetry({false, 1, true}, Completion("0"), {0, 0}, 0, 0).reason ==
        "CompletionType is {Succeeded []}");

  // Codes the controller gives itself are never retried, even with -2.
  CompletionStatus attempt_completion{
      -220, "FrameworkAttemptCompletion", {false, false, true, false}};
  RetryDecision none = ShouldRetry({false, -2, true}, attempt_completion, {0, 0}, 0, 0);
  CHECK(!none.should_retry);
  CHECK(none.reason == "CompletionCode is -220, FrameworkAttemptCompletion");
}

}  // namespace jobset
