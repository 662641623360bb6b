#include "validation/core/dump_history.h"

#include <doctest/doctest.h>

#include <string>

#include "validation/core/workload_dump.h"

namespace jobset {
namespace {

Node Parse(const std::string& json) {
  WorkloadDump dump;
  std::string error;
  REQUIRE_MESSAGE(ParseWorkloadDump(json, {}, &dump, &error), error);
  REQUIRE(dump.objects.size() == 1);
  return dump.objects[0];
}

}  // namespace

// The readings every kind's `why` shares; each kind's why_test checks it goes through them.
TEST_CASE("dump history: the first True condition of a type") {
  Node object = Parse(R"({"kind":"Job","status":{"conditions":[
      {"type":"Failed","status":"False","reason":"A"},
      {"type":"Failed","status":"True","reason":"B"},
      {"type":"Failed","status":"True","reason":"C"}]}})");
  const Node* failed = TrueCondition(object, "Failed");
  REQUIRE(failed != nullptr);
  CHECK(failed->StringOr("reason") == "B");
  CHECK(TrueCondition(object, "Complete") == nullptr);
  CHECK(TrueCondition(Parse(R"({"kind":"Job","status":{"conditions":{}}})"), "Failed") == nullptr);
}

TEST_CASE("dump history: an event's subject, text and time in both Event APIs") {
  Node core = Parse(R"({"kind":"Event","involvedObject":{"kind":"Pod","name":"p"},
      "message":"m","firstTimestamp":"2026-01-01T00:00:01Z"})");
  Node events = Parse(R"({"kind":"Event","regarding":{"kind":"Job","name":"j"},"note":"n",
      "series":{"lastObservedTime":"2026-01-01T00:09:00Z"}})");
  CHECK(EventSubject(core)->StringOr("name") == "p");
  CHECK(EventSubject(events)->StringOr("name") == "j");
  CHECK(EventSubject(Parse(R"({"kind":"Event"})")) == nullptr);
  CHECK(EventNote(core) == "m");
  CHECK(EventNote(events) == "n");
  CHECK(EventTime(core) == "2026-01-01T00:00:01Z");
  // An events.k8s.io series that only says when it was last observed still has a time.
  CHECK(EventTime(events) == "2026-01-01T00:09:00Z");
  CHECK(KubeTimeSeconds(EventTime(events)) == KubeTimeSeconds("2026-01-01T00:09:00Z"));
}

TEST_CASE("dump history: times as instants, earlier and later, and spans") {
  CHECK(KubeTimeSeconds("1970-01-01T00:01:05Z") == 65);
  CHECK(KubeTimeSeconds("2026-11-20T08:00:00Z") == KubeTimeSeconds("2026-11-20T09:00:00+01:00"));
  CHECK(KubeTimeSeconds("2026-11-20T08:00:00.123456Z") == KubeTimeSeconds("2026-11-20T08:00:00Z"));
  CHECK(KubeTimeSeconds("yesterday") == 0);
  CHECK(KubeTimeSeconds("") == 0);
  // By instant when both parse (08:30Z is after 09:00+01:00), else by text.
  CHECK(KubeTimeBefore("2026-11-20T09:00:00+01:00", "2026-11-20T08:30:00Z"));
  CHECK_FALSE(KubeTimeBefore("2026-11-20T08:30:00Z", "2026-11-20T09:00:00+01:00"));
  CHECK(KubeTimeBefore("", "2026-11-20T08:30:00Z"));
  CHECK(KubeTimeBefore("a", "b"));
  int64_t span = -1;
  REQUIRE(KubeTimeSpan("2026-11-20T08:00:00Z", "2026-11-20T08:01:30Z", &span));
  CHECK(span == 90);
  CHECK_FALSE(KubeTimeSpan("2026-11-20T08:01:30Z", "2026-11-20T08:00:00Z", &span));
  CHECK_FALSE(KubeTimeSpan("", "2026-11-20T08:00:00Z", &span));
  CHECK(span == 90);
}

TEST_CASE("dump history: integers, or strings holding one") {
  Node n = Parse(R"({"kind":"X","a":7,"b":"12","c":"12x","d":"","e":1.5,"f":"-3"})");
  int64_t v = -1;
  CHECK(IntOrStringValue(n.Find("a"), &v));
  CHECK(v == 7);
  CHECK(IntOrStringValue(n.Find("b"), &v));
  CHECK(v == 12);
  CHECK(IntOrStringValue(n.Find("f"), &v));
  CHECK(v == -3);
  v = 99;
  CHECK_FALSE(IntOrStringValue(n.Find("c"), &v));
  CHECK_FALSE(IntOrStringValue(n.Find("d"), &v));
  CHECK_FALSE(IntOrStringValue(n.Find("e"), &v));
  CHECK_FALSE(IntOrStringValue(nullptr, &v));
  CHECK(v == 99);
}

TEST_CASE("dump history: where a Pod runs and why it waits") {
  Node pod = Parse(R"({"kind":"Pod","spec":{"nodeName":"gpu-7"},"status":{"conditions":[
      {"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/3 nodes"}]}})");
  CHECK(OnNodeWords(pod) == " on node gpu-7");
  CHECK(UnscheduledReason(pod) == "Unschedulable: 0/3 nodes");
  Node bare = Parse(R"({"kind":"Pod"})");
  CHECK(OnNodeWords(bare) == "");
  CHECK(UnscheduledReason(bare) == "");
}

}  // namespace jobset
