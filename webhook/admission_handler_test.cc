// Tests of one admission HTTP request end to end, without sockets.
#include "webhook/admission_handler.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "validation/schema/schema.h"

namespace jobset::webhook {
namespace {

AdmissionOptions Options() {
  AdmissionOptions o;
  o.lint.schema = BuiltinJobSetSchema();
  return o;
}

constexpr char kObject[] =
    R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet","metadata":{"name":"js",
    "namespace":"ns"},"spec":{"replicatedJobs":[{"name":"w","replicas":1,"template":{"spec":{
    "template":{"spec":{"containers":[{"name":"c","image":"i"}]}}}}}]}})";

std::string Review(const std::string& api_version, const std::string& uid,
                   const std::string& operation, const std::string& object) {
  return R"({"apiVersion":")" + api_version + R"(","kind":"AdmissionReview","request":{"uid":")" +
         uid +
         R"(","kind":{"group":"jobset.x-k8s.io","version":"v1alpha2","kind":"JobSet"},)"
         R"("namespace":"ns","operation":")" +
         operation + R"(","object":)" + object + "}}";
}

HttpReply Validate(const std::string& body, const std::string& type = "application/json") {
  return HandleAdmission(Endpoint::kValidateJobSet, type, body, Options());
}

}  // namespace

TEST_CASE("handler: content types") {
  CHECK(IsJsonContentType("application/json"));
  CHECK(IsJsonContentType("Application/JSON; charset=utf-8"));
  CHECK(IsJsonContentType(" application/json "));
  CHECK_FALSE(IsJsonContentType(""));
  CHECK_FALSE(IsJsonContentType("text/plain"));
  CHECK_FALSE(IsJsonContentType("application/json-patch+json"));
  HttpReply r = Validate(Review("admission.k8s.io/v1", "u", "CREATE", kObject), "text/plain");
  CHECK(r.status == 400);
  CHECK(r.verdict == "bad_request");
  CHECK(nlohmann::json::parse(r.body)["message"] ==
        "Content-Type must be application/json, got \"text/plain\"");
}

TEST_CASE("handler: bodies that are no AdmissionReview get HTTP 400 with a reason") {
  HttpReply not_json = Validate("hello");
  CHECK(not_json.status == 400);
  auto j = nlohmann::json::parse(not_json.body);
  CHECK(j["kind"] == "Status");
  CHECK(j["code"] == 400);
  CHECK(j["reason"] == "BadRequest");
  CHECK(j["message"].get<std::string>().rfind(
            "request body is not an AdmissionReview: invalid JSON at byte 1", 0) == 0);
  HttpReply pod = Validate(R"({"apiVersion":"v1","kind":"Pod"})");
  CHECK(pod.status == 400);
  CHECK(nlohmann::json::parse(pod.body)["message"] ==
        "request body is not an AdmissionReview: kind is \"Pod\", want \"AdmissionReview\"");
  std::string deep = Review("admission.k8s.io/v1", "u", "CREATE",
                            std::string(100000, '[') + std::string(100000, ']'));
  HttpReply nested = Validate(deep);
  CHECK(nested.status == 400);
  CHECK(nlohmann::json::parse(nested.body)["message"] ==
        "request body is not an AdmissionReview: JSON nested deeper than 1000 levels");
}

TEST_CASE("handler: v1 and v1beta1 are answered in kind, uid echoed") {
  for (const char* version : {"admission.k8s.io/v1", "admission.k8s.io/v1beta1"}) {
    CAPTURE(version);
    HttpReply r = Validate(Review(version, "uid-42", "CREATE", kObject));
    CHECK(r.status == 200);
    CHECK(r.verdict == "allowed");
    auto j = nlohmann::json::parse(r.body);
    CHECK(j["apiVersion"] == version);
    CHECK(j["kind"] == "AdmissionReview");
    CHECK(j["response"]["uid"] == "uid-42");
    CHECK(j["response"]["allowed"] == true);
    CHECK(r.uid == "uid-42");
    CHECK(r.kind == "JobSet");
    CHECK(r.name == "js");
    CHECK(r.namespace_name == "ns");
    CHECK(r.operation == "CREATE");
  }
}

TEST_CASE("handler: verdicts") {
  std::string bad = kObject;
  bad.replace(bad.find("\"replicas\":1"), 12, "\"replicas\":-1");
  HttpReply denied = Validate(Review("admission.k8s.io/v1", "u", "CREATE", bad));
  CHECK(denied.status == 200);
  CHECK(denied.verdict == "denied");
  CHECK(denied.review_code == 422);
  auto j = nlohmann::json::parse(denied.body);
  CHECK(j["response"]["allowed"] == false);
  CHECK(j["response"]["status"]["code"] == 422);
  CHECK(j["response"]["status"]["message"].get<std::string>().rfind(
            "JobSet.jobset.x-k8s.io \"js\" is invalid: ", 0) == 0);

  HttpReply malformed = Validate(Review("admission.k8s.io/v1", "u", "CREATE", "[1]"));
  CHECK(malformed.status == 200);
  CHECK(malformed.verdict == "invalid");
  CHECK(malformed.review_code == 400);
  j = nlohmann::json::parse(malformed.body);
  CHECK(j["response"]["allowed"] == false);
  CHECK(j["response"]["status"]["code"] == 400);

  HttpReply patched =
      HandleAdmission(Endpoint::kMutateJobSet, "application/json",
                      Review("admission.k8s.io/v1", "u", "CREATE", kObject), Options());
  CHECK(patched.verdict == "patched");
  j = nlohmann::json::parse(patched.body);
  CHECK(j["response"]["patchType"] == "JSONPatch");
  CHECK(j["response"]["allowed"] == true);
}

TEST_CASE("handler: the name logged for generateName objects") {
  std::string generated = kObject;
  generated.replace(generated.find("\"name\":\"js\""), 11, "\"generateName\":\"js-\"");
  HttpReply r = Validate(Review("admission.k8s.io/v1", "u", "CREATE", generated));
  CHECK(r.name == "js-*");
}

}  // namespace jobset::webhook

namespace jobset::webhook {

TEST_CASE("handler: every supported kind is bound, in table order, to distinct paths") {
  const std::vector<KindAdmission>& bound = KindAdmissions();
  REQUIRE(bound.size() == SupportedKinds().size());
  std::set<std::string> paths;
  for (size_t i = 0; i < bound.size(); ++i) {
    const KindHandler& row = SupportedKinds()[i];
    CAPTURE(row.title);
    CHECK(bound[i].kind == row.id);
    // Served: both webhooks, and the row has what they run on. Not served: nothing at all.
    bool served = bound[i].mutate_path != nullptr;
    CHECK((bound[i].validate_path != nullptr) == served);
    CHECK((bound[i].mutate != nullptr) == served);
    CHECK((bound[i].validate != nullptr) == served);
    if (!served) continue;
    CHECK((row.webhook_defaults != nullptr));
    CHECK(paths.insert(bound[i].mutate_path).second);
    CHECK(paths.insert(bound[i].validate_path).second);
  }
  CHECK(paths.size() == 4);  // the JobSet and Volcano paths
}

TEST_CASE("handler: each served kind's paths judge that kind and let the others through") {
  for (const KindAdmission& served : KindAdmissions()) {
    if (!served.validate_path) continue;
    for (const KindHandler& row : SupportedKinds()) {
      CAPTURE(served.validate_path);
      CAPTURE(row.title);
      // An object of `row` with a name the API server refuses.
      std::string body =
          R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)"
          R"("kind":{"group":")" +
          std::string(ApiGroupOf(row)) + R"(","version":")" + std::string(ServedVersionOf(row)) +
          R"(","kind":")" + std::string(row.kind) +
          R"("},"namespace":"ns","operation":"CREATE","object":{"apiVersion":")" +
          std::string(row.api_version) + R"(","kind":")" + std::string(row.kind) +
          R"(","metadata":{"name":"Bad_Name","namespace":"ns"}}}})";
      HttpReply reply = HandleAdmission(Endpoint{served.kind, AdmissionVerb::kValidate},
                                        "application/json", body, Options());
      CHECK(reply.status == 200);
      CHECK(reply.verdict == (row.id == served.kind ? "denied" : "allowed"));
    }
  }
}

}  // namespace jobset::webhook
