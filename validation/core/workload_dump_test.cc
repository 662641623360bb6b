#include "validation/core/workload_dump.h"

#include <doctest/doctest.h>

namespace jobset {
namespace {

TEST_CASE("a kind: List dump is flattened into its objects, in order") {
  WorkloadDump dump;
  std::string error;
  REQUIRE(ParseWorkloadDump(
      R"({"apiVersion":"v1","kind":"List","items":[
           {"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet","metadata":{"name":"js"}},
           {"apiVersion":"v1","kind":"JobList","items":[
             {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"js-w-0",
              "labels":{"jobset.sigs.k8s.io/restart-attempt":"2"},
              "ownerReferences":[{"kind":"JobSet","name":"js","uid":"u1"}]}}]}]})",
      {}, &dump, &error));
  REQUIRE(dump.objects.size() == 2);
  CHECK(ObjectName(dump.objects[0]) == "js");
  auto jobs = ObjectsOfKind(dump, "batch", "Job");
  REQUIRE(jobs.size() == 1);
  CHECK(LabelOf(*jobs[0], "jobset.sigs.k8s.io/restart-attempt") == "2");
  CHECK(IsOwnedBy(*jobs[0], "JobSet", "js"));
  CHECK(IsOwnedBy(*jobs[0], "JobSet", "js", "u1"));
  CHECK_FALSE(IsOwnedBy(*jobs[0], "JobSet", "js", "u2"));
  CHECK(ObjectsOfKind(dump, "", "Job").empty());
}

TEST_CASE("watch output: JSON objects one after another, braces inside strings ignored") {
  WorkloadDump dump;
  std::string error;
  REQUIRE(ParseWorkloadDump(R"({"kind":"Pod","metadata":{"name":"a}"}}
{"kind":"Pod","metadata":{"name":"b{"}})",
                            {}, &dump, &error));
  REQUIRE(dump.objects.size() == 2);
  CHECK(ObjectName(dump.objects[1]) == "b{");
}

TEST_CASE("bad dumps are refused with the byte offset") {
  WorkloadDump dump;
  std::string error;
  CHECK_FALSE(ParseWorkloadDump("{\"kind\":\"Pod\"}\n[1]", {}, &dump, &error));
  CHECK(error.find("byte 16") != std::string::npos);
  CHECK_FALSE(ParseWorkloadDump("  ", {}, &dump, &error));
  CHECK(error.find("empty") != std::string::npos);
  CHECK_FALSE(ParseWorkloadDump("{\"kind\":", {}, &dump, &error));
  WorkloadDumpLimits small;
  small.max_bytes = 4;
  CHECK_FALSE(ParseWorkloadDump("{\"kind\":\"Pod\"}", small, &dump, &error));
  CHECK(error.find("limit") != std::string::npos);
}

TEST_CASE("events are those about the object, ordered by time") {
  WorkloadDump dump;
  std::string error;
  REQUIRE(ParseWorkloadDump(
      R"({"kind":"List","items":[
        {"kind":"Event","reason":"B","lastTimestamp":"2026-01-01T00:00:02Z",
         "involvedObject":{"kind":"JobSet","name":"js"}},
        {"kind":"Event","reason":"A","lastTimestamp":"2026-01-01T00:00:01Z",
         "involvedObject":{"kind":"JobSet","name":"js"}},
        {"kind":"Event","reason":"C","involvedObject":{"kind":"JobSet","name":"other"}}]})",
      {}, &dump, &error));
  auto events = EventsFor(dump, "JobSet", "js");
  REQUIRE(events.size() == 2);
  CHECK(events[0]->StringOr("reason") == "A");
  CHECK(events[1]->StringOr("reason") == "B");
}

TEST_CASE("Kubernetes timestamps are read as Unix seconds, offsets and fractions allowed") {
  int64_t t = 0;
  REQUIRE(ParseKubeTime("1970-01-01T00:00:00Z", &t));
  CHECK(t == 0);
  REQUIRE(ParseKubeTime("2026-03-01T10:00:05Z", &t));
  CHECK(t == 1772359205);
  int64_t same = 0;
  REQUIRE(ParseKubeTime("2026-03-01T12:00:05.123456+02:00", &same));
  CHECK(same == t);
  CHECK_FALSE(ParseKubeTime("2026-03-01 10:00:05Z", &t));
  CHECK_FALSE(ParseKubeTime("2026-03-01T10:00:05", &t));
  CHECK_FALSE(ParseKubeTime("", &t));
}

TEST_CASE("an event's time is its last occurrence") {
  WorkloadDump dump;
  std::string error;
  REQUIRE(ParseWorkloadDump(
      R"({"kind":"Event","firstTimestamp":"2026-01-01T00:00:01Z",
          "lastTimestamp":"2026-01-01T00:05:00Z"})",
      {}, &dump, &error));
  CHECK(EventTime(dump.objects[0]) == "2026-01-01T00:05:00Z");
}

TEST_CASE("a dump with one object left out keeps the others in order") {
  WorkloadDump dump;
  std::string error;
  REQUIRE(ParseWorkloadDump(R"({"kind":"A","metadata":{"name":"a"}}
                               {"kind":"B","metadata":{"name":"b"}}
                               {"kind":"C","metadata":{"name":"c"}})",
                            {}, &dump, &error));
  WorkloadDump part = DumpWithout(dump, 1);
  REQUIRE(part.objects.size() == 2);
  CHECK(ObjectName(part.objects[0]) == "a");
  CHECK(ObjectName(part.objects[1]) == "c");
  CHECK(DumpWithout(dump, 3).objects.size() == 3);
}

}  // namespace
}  // namespace jobset
