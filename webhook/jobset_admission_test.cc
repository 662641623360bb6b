// Tests of the webhook's JobSet decisions: the 422 form, warnings, the defaulting patch.
#include "webhook/jobset_admission.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "validation/core/json_node.h"
#include "validation/core/loader.h"
#include "validation/jobset/defaults.h"
#include "validation/schema/schema.h"

namespace jobset::webhook {
namespace {

constexpr char kJobSet[] = R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: js
spec:
  FAILUREPOLICY
  replicatedJobs:
  - name: w
    replicas: 2
    template:
      spec:
        parallelism: 2
        completions: 2
        template:
          spec:
            containers:
            - name: c
              image: img
)";

Node Yaml(std::string text, const std::string& failure_policy = "suspend: false") {
  if (size_t at = text.find("FAILUREPOLICY"); at != std::string::npos) {
    text.replace(at, 13, failure_policy);
  }
  SourceFile f = ParseSource("t.yaml", text);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return f.documents[0].root;
}

AdmissionRequest Request(std::string operation, Node object) {
  AdmissionRequest r;
  r.api_version = kAdmissionV1;
  r.uid = "u";
  r.kind = {"jobset.x-k8s.io", "v1alpha2", "JobSet"};
  r.operation = std::move(operation);
  r.object = std::move(object);
  return r;
}

LintOptions Options() {
  LintOptions o;
  o.schema = BuiltinJobSetSchema();
  return o;
}

Finding Error(std::string upstream) {
  Finding f;
  f.severity = Severity::kError;
  f.upstream = std::move(upstream);
  return f;
}

Finding Warning(std::string field, std::string message) {
  Finding f;
  f.severity = Severity::kWarning;
  f.field = std::move(field);
  f.message = std::move(message);
  return f;
}

constexpr char kEvicted[] =
    "<nil>: Internal error: invalid job failure reason 'Evicted' in failure policy is not a "
    "recognized job failure reason";

}  // namespace

TEST_CASE("admission: the 422 message aggregates distinct errors as kube-apiserver does") {
  Status one = InvalidStatus("js", {Error("spec.a: Invalid value: 1: bad")});
  CHECK(one.code == 422);
  CHECK(one.reason == "Invalid");
  CHECK(one.group == "jobset.x-k8s.io");
  CHECK(one.kind == "JobSet");
  CHECK(one.name == "js");
  CHECK(one.message == "JobSet.jobset.x-k8s.io \"js\" is invalid: spec.a: Invalid value: 1: bad");
  Status dup = InvalidStatus("js", {Error("e1"), Error("e1")});
  CHECK(dup.message == "JobSet.jobset.x-k8s.io \"js\" is invalid: e1");
  CHECK(dup.causes.size() == 2);  // Causes are not de-duplicated upstream either.
  Status many = InvalidStatus("", {Error("e1"), Error("e2"), Error("e1"), Error("e3")});
  CHECK(many.message == "JobSet.jobset.x-k8s.io \"\" is invalid: [e1, e2, e3]");
  Status quoted = InvalidStatus("a\"b", {Error("e")});
  CHECK(quoted.message == "JobSet.jobset.x-k8s.io \"a\\\"b\" is invalid: e");
}

TEST_CASE("admission: causes split the upstream rendering") {
  StatusCause plain = CauseOf("<nil>: Internal error: boom: really");
  CHECK(plain.field == "<nil>");
  CHECK(plain.reason == "InternalError");
  CHECK(plain.message == "Internal error: boom: really");
  StatusCause field = CauseOf("spec.replicatedJobs[0].name: Invalid value: \"a: b\": msg");
  CHECK(field.field == "spec.replicatedJobs[0].name");
  CHECK(field.reason == "FieldValueInvalid");
  CHECK(field.message == "Invalid value: \"a: b\": msg");
  CHECK(CauseOf("spec.managedBy: Required value").reason == "FieldValueRequired");
  CHECK(CauseOf("spec.managedBy: Required value").message == "Required value");
  CHECK(CauseOf("x: Forbidden: no").reason == "FieldValueForbidden");
  CHECK(CauseOf("x: Too long: may not be more than 63 bytes").reason == "FieldValueTooLong");
  CHECK(CauseOf("x: Too many: 6: must have at most 5 items").reason == "FieldValueTooMany");
  CHECK(CauseOf("x[1]: Duplicate value: \"a\"").reason == "FieldValueDuplicate");
  CHECK(CauseOf("x: Unsupported value: \"a\": supported values: \"b\"").reason ==
        "FieldValueNotSupported");
  StatusCause odd = CauseOf("something else");
  CHECK(odd.reason == "FieldValueInvalid");
  CHECK(odd.field.empty());
  CHECK(odd.message == "something else");
}

TEST_CASE("admission: warnings are short single lines, once each") {
  std::vector<std::string> w = WarningsOf({
      Error("not a warning"),
      Warning("spec.failurePolicy.rules[0]", "rule can never fire"),
      Warning("spec.x", "spec.x: already prefixed"),
      Warning("", "line\nbreak\ttab"),
      Warning("spec.failurePolicy.rules[0]", "rule can never fire"),
      Warning("spec.y", std::string(200, 'a')),
      Warning("spec.z", std::string(107, 'b') + "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"),
  });
  REQUIRE(w.size() == 5);
  CHECK(w[0] == "spec.failurePolicy.rules[0]: rule can never fire");
  CHECK(w[1] == "spec.x: already prefixed");
  CHECK(w[2] == "line break tab");
  CHECK(w[3].size() == kMaxWarningBytes);
  CHECK(w[3] == "spec.y: " + std::string(kMaxWarningBytes - 11, 'a') + "...");
  CHECK(w[4].size() <= kMaxWarningBytes);
  // Cut before a whole character, never inside one.
  CHECK(w[4] == "spec.z: " + std::string(107, 'b') + "...");
  for (const std::string& s : w) CHECK(s.size() < 120);
}

TEST_CASE("admission: too many warnings end with a count of the rest") {
  std::vector<Finding> many;
  for (int i = 0; i < 60; ++i) {
    many.push_back(
        Warning("spec.failurePolicy.rules[" + std::to_string(i) + "]", std::string(100, 'w')));
  }
  std::vector<std::string> w = WarningsOf(many);
  size_t total = 0;
  for (const std::string& s : w) total += s.size();
  CHECK(total <= kMaxWarningsBytes);
  REQUIRE(w.size() > 2);
  CHECK(w.size() < 60);
  CHECK(w.back() == std::to_string(60 - (w.size() - 1)) +
                        " more warnings: run `kubectl jobset lint` on the manifest to see all");
  std::vector<std::string> few = WarningsOf({many[0], many[1]});
  CHECK(few.size() == 2);
}

TEST_CASE("admission: CREATE is validated as lint does") {
  AdmissionResponse ok = ValidateJobSet(Request("CREATE", Yaml(kJobSet)), Options());
  CHECK(ok.allowed);
  CHECK_FALSE(ok.status);
  CHECK(ok.patch.empty());

  Node bad = Yaml(kJobSet,
                  "failurePolicy:\n    rules:\n    - action: FailJobSet\n"
                  "      onJobFailureReasons: [Evicted]\n");
  AdmissionResponse denied = ValidateJobSet(Request("CREATE", bad), Options());
  CHECK_FALSE(denied.allowed);
  REQUIRE(denied.status);
  CHECK(denied.status->code == 422);
  CHECK(denied.status->reason == "Invalid");
  CHECK(denied.status->message ==
        std::string("JobSet.jobset.x-k8s.io \"js\" is invalid: ") + kEvicted);
  REQUIRE(denied.status->causes.size() == 1);
  CHECK(denied.status->causes[0].field == "<nil>");
  CHECK(denied.status->causes[0].reason == "InternalError");

  // The same error twice is reported once; a second kind makes a list.
  Node twice = Yaml(kJobSet,
                    "failurePolicy:\n    rules:\n    - action: FailJobSet\n"
                    "      onJobFailureReasons: [Evicted]\n    - action: FailJobSet\n"
                    "      onJobFailureReasons: [Evicted, Nope]\n");
  AdmissionResponse agg = ValidateJobSet(Request("CREATE", twice), Options());
  REQUIRE(agg.status);
  CHECK(agg.status->message ==
        std::string("JobSet.jobset.x-k8s.io \"js\" is invalid: [") + kEvicted +
            ", <nil>: Internal error: invalid job failure reason 'Nope' in failure policy is not "
            "a recognized job failure reason]");
  CHECK(agg.status->causes.size() == 3);
}

TEST_CASE("admission: child Jobs the API server would refuse warn, or deny with --child-objects") {
  // Upstream admits the JobSet; every child Job is then refused (restartPolicy Always).
  std::string text = kJobSet;
  text.replace(text.find("            containers:"), 0, "            restartPolicy: Always\n");
  const std::string child =
      "child Job js-w-0 would be rejected: spec.template.spec.restartPolicy: Required value: "
      "valid values: \"OnFailure\", \"Never\" (affects 2 child Jobs)";
  AdmissionResponse warned = ValidateJobSet(Request("CREATE", Yaml(text)), Options());
  CHECK(warned.allowed);
  CHECK_FALSE(warned.status);
  REQUIRE(warned.warnings.size() == 1);
  CHECK(warned.warnings[0] == child.substr(0, kMaxWarningBytes - 3) + "...");

  AdmissionResponse denied =
      ValidateJobSet(Request("CREATE", Yaml(text)), Options(), ChildObjects::kDeny);
  CHECK_FALSE(denied.allowed);
  REQUIRE(denied.status);
  CHECK(denied.status->code == 422);
  CHECK(denied.status->message == "JobSet.jobset.x-k8s.io \"js\" is invalid: " + child);
  CHECK(denied.warnings.empty());

  // The valid twin: nothing either way.
  AdmissionResponse ok =
      ValidateJobSet(Request("CREATE", Yaml(kJobSet)), Options(), ChildObjects::kDeny);
  CHECK(ok.allowed);
  CHECK(ok.warnings.empty());
}

TEST_CASE("admission: the Job template's pod failure policy moves with --child-objects") {
  // An onExitCodes that names no container of the pod: every child Job is refused, as for the
  // child/* rules, so it is a warning by default and a denial with --child-objects=deny.
  std::string text = kJobSet;
  text.replace(text.find("        template:"), 0,
               "        podFailurePolicy:\n"
               "          rules:\n"
               "          - action: FailJob\n"
               "            onExitCodes: {containerName: main, operator: In, values: [42]}\n");
  text.replace(text.find("            containers:"), 0, "            restartPolicy: Never\n");
  const std::string child =
      "child Job js-w-0 would be rejected: spec.podFailurePolicy.rules[0].onExitCodes."
      "containerName: Invalid value: \"main\": must be one of the container or initContainer "
      "names in the pod template (affects 2 child Jobs)";
  AdmissionResponse warned = ValidateJobSet(Request("CREATE", Yaml(text)), Options());
  CHECK(warned.allowed);
  CHECK_FALSE(warned.status);
  REQUIRE(warned.warnings.size() == 1);
  CHECK(child.starts_with(warned.warnings[0].substr(0, warned.warnings[0].size() - 3)));

  AdmissionResponse denied =
      ValidateJobSet(Request("CREATE", Yaml(text)), Options(), ChildObjects::kDeny);
  CHECK_FALSE(denied.allowed);
  REQUIRE(denied.status);
  CHECK(denied.status->code == 422);
  CHECK(denied.status->message == "JobSet.jobset.x-k8s.io \"js\" is invalid: " + child);
  CHECK(denied.warnings.empty());

  // The twin names the pod's container: nothing either way.
  text.replace(text.find("containerName: main"), 19, "containerName: c");
  AdmissionResponse ok =
      ValidateJobSet(Request("CREATE", Yaml(text)), Options(), ChildObjects::kDeny);
  CHECK(ok.allowed);
  CHECK(ok.warnings.empty());
}

TEST_CASE("admission: --child-objects takes warn or deny") {
  ChildObjects mode = ChildObjects::kDeny;
  CHECK(ParseChildObjects("warn", &mode));
  CHECK(mode == ChildObjects::kWarn);
  CHECK(ParseChildObjects("deny", &mode));
  CHECK(mode == ChildObjects::kDeny);
  CHECK_FALSE(ParseChildObjects("Deny", &mode));
}

TEST_CASE("admission: lint warnings come back, unless the object's annotation silences them") {
  Node warned = Yaml(kJobSet, "failurePolicy:\n    maxRestarts: -1\n");
  AdmissionResponse r = ValidateJobSet(Request("CREATE", warned), Options());
  CHECK(r.allowed);
  bool negative = false;
  for (const std::string& w : r.warnings) {
    CHECK(w.size() < 120);
    if (w.rfind("spec.failurePolicy.maxRestarts: maxRestarts is -1", 0) == 0) negative = true;
  }
  CHECK_MESSAGE(negative, "no warning about maxRestarts -1");
  warned.Find("metadata")
      ->Set("annotations",
            Yaml("kubectl-jobset.io/ignore: failure-policy/negative-max-restarts # ok"));
  AdmissionResponse quiet = ValidateJobSet(Request("CREATE", warned), Options());
  CHECK(quiet.warnings.size() + 1 == r.warnings.size());
  for (const std::string& w : quiet.warnings) CHECK(w.find("maxRestarts is -1") == w.npos);
}

TEST_CASE("admission: feature gates change the verdict as for lint") {
  Node restart = Yaml(kJobSet, "failurePolicy:\n    rules:\n    - action: RestartJob\n");
  CHECK_FALSE(ValidateJobSet(Request("CREATE", restart), Options()).allowed);
  LintOptions gated = Options();
  gated.gates.restart_job = true;
  CHECK(ValidateJobSet(Request("CREATE", restart), gated).allowed);
}

TEST_CASE("admission: UPDATE runs the update rules only") {
  AdmissionRequest r = Request("UPDATE", Yaml(kJobSet));
  r.old_object = Yaml(kJobSet);
  CHECK(ValidateJobSet(r, Options()).allowed);
  Node changed = Yaml(kJobSet);
  changed.Find("spec")->Find("replicatedJobs")->items[0].Set("replicas", Node::Int(3));
  r.object = changed;
  AdmissionResponse denied = ValidateJobSet(r, Options());
  CHECK_FALSE(denied.allowed);
  REQUIRE(denied.status);
  CHECK(denied.status->code == 422);
  CHECK(denied.status->message.find("is invalid: spec.replicatedJobs: Invalid value: [") !=
        std::string::npos);
  // A create-time error that is already stored is not re-checked on UPDATE.
  // (Stored objects went through the mutating webhook: the rule has its name.)
  Node stored = Yaml(kJobSet,
                     "failurePolicy:\n    rules:\n    - action: FailJobSet\n      name: r0\n"
                     "      onJobFailureReasons: [Evicted]\n");
  r.object = stored;
  r.old_object = stored;
  AdmissionResponse unchanged = ValidateJobSet(r, Options());
  CHECK_MESSAGE(unchanged.allowed, (unchanged.status ? unchanged.status->message : ""));
  // Without an old object the request is malformed.
  r.old_object.reset();
  AdmissionResponse bad = ValidateJobSet(r, Options());
  CHECK_FALSE(bad.allowed);
  REQUIRE(bad.status);
  CHECK(bad.status->code == 400);
  CHECK(bad.status->message == "request.oldObject is missing or not a JSON object");
}

TEST_CASE("admission: other kinds, subresources and operations are allowed untouched") {
  Node bad = Yaml(kJobSet, "failurePolicy:\n    rules:\n    - action: RestartJob\n");
  AdmissionRequest pod = Request("CREATE", bad);
  pod.kind = {"", "v1", "Pod"};
  CHECK(ValidateJobSet(pod, Options()).allowed);
  CHECK(MutateJobSet(pod).patch.empty());
  AdmissionRequest status = Request("UPDATE", bad);
  status.sub_resource = "status";
  CHECK(ValidateJobSet(status, Options()).allowed);
  AdmissionRequest del = Request("DELETE", bad);
  CHECK(ValidateJobSet(del, Options()).allowed);
  AdmissionRequest version = Request("CREATE", bad);
  version.kind.version = "v1alpha1";
  CHECK(ValidateJobSet(version, Options()).allowed);
  // No kind in the request: the object says.
  AdmissionRequest unsaid = Request("CREATE", bad);
  unsaid.kind = {};
  CHECK_FALSE(ValidateJobSet(unsaid, Options()).allowed);
}

TEST_CASE("admission: a missing or non-object object is a 400 rejection") {
  AdmissionRequest r = Request("CREATE", Node::String("x"));
  for (AdmissionResponse resp : {ValidateJobSet(r, Options()), MutateJobSet(r)}) {
    CHECK_FALSE(resp.allowed);
    REQUIRE(resp.status);
    CHECK(resp.status->code == 400);
    CHECK(resp.status->reason == "BadRequest");
    CHECK(resp.status->message == "request.object is missing or not a JSON object");
  }
  r.object.reset();
  CHECK(ValidateJobSet(r, Options()).status->code == 400);
}

TEST_CASE("admission: the mutating patch adds exactly the upstream webhook defaults") {
  AdmissionResponse r = MutateJobSet(Request("CREATE", Yaml(kJobSet)));
  CHECK(r.allowed);
  CHECK_FALSE(r.status);
  CHECK(r.patch ==
        R"([{"op":"add","path":"/spec/successPolicy","value":{"operator":"All"}},)"
        R"({"op":"add","path":"/spec/startupPolicy","value":{"startupPolicyOrder":"AnyOrder"}},)"
        R"({"op":"add","path":"/spec/replicatedJobs/0/template/spec/completionMode",)"
        R"("value":"Indexed"},)"
        R"({"op":"add","path":"/spec/replicatedJobs/0/template/spec/template/spec/restartPolicy",)"
        R"("value":"OnFailure"},)"
        R"({"op":"add","path":"/spec/network","value":{}},)"
        R"({"op":"add","path":"/spec/network/enableDNSHostnames","value":true},)"
        R"({"op":"add","path":"/spec/network/publishNotReadyAddresses","value":true}])");
  // The CRD defaults are the API server's: not in the patch.
  CHECK(r.patch.find("groupName") == std::string::npos);
  CHECK(r.patch.find("/replicas") == std::string::npos);

  // Already defaulted: no patch at all.
  Node object = Yaml(kJobSet);
  std::vector<PatchOp> ops;
  ApplyWebhookDefaults(&object, &ops);
  AdmissionResponse again = MutateJobSet(Request("CREATE", object));
  CHECK(again.allowed);
  CHECK(again.patch.empty());

  // UPDATE is never mutated.
  AdmissionRequest update = Request("UPDATE", Yaml(kJobSet));
  update.old_object = Yaml(kJobSet);
  CHECK(MutateJobSet(update).patch.empty());
  CHECK(MutateJobSet(update).allowed);
}

TEST_CASE("admission: JsonPatchText writes valid RFC 6902") {
  CHECK(JsonPatchText({}).empty());
  Node v = Node::Map();
  v.Set("k", Node::String("a\"b"));
  std::string text = JsonPatchText({{"/a~1b", v}});
  CHECK(text == R"([{"op":"add","path":"/a~1b","value":{"k":"a\"b"}}])");
  CHECK(nlohmann::json::accept(text));
}

}  // namespace jobset::webhook
