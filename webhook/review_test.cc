// Tests of the AdmissionReview wire format.
#include "webhook/review.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "validation/core/json_node.h"

namespace jobset::webhook {
namespace {

Node Parse(const std::string& text) {
  Node n;
  std::string error;
  REQUIRE_MESSAGE(ParseJson(text, JsonParseLimits{}, &n, &error), error);
  return n;
}

std::string DecodeError(const std::string& text) {
  AdmissionRequest r;
  std::string error;
  CHECK_FALSE(DecodeReview(Parse(text), &r, &error));
  return error;
}

}  // namespace

TEST_CASE("review: a v1 request is decoded") {
  AdmissionRequest r;
  std::string error;
  REQUIRE(DecodeReview(Parse(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",
    "request":{"uid":"u-1","kind":{"group":"jobset.x-k8s.io","version":"v1alpha2","kind":"JobSet"},
    "resource":{"group":"jobset.x-k8s.io","version":"v1alpha2","resource":"jobsets"},
    "name":"js","namespace":"ns","operation":"UPDATE","dryRun":true,
    "object":{"metadata":{"name":"js"}},"oldObject":{"metadata":{"name":"old"}},
    "userInfo":{"username":"me"}}})"),
                       &r, &error));
  CHECK(r.api_version == kAdmissionV1);
  CHECK(r.uid == "u-1");
  CHECK(r.kind.group == "jobset.x-k8s.io");
  CHECK(r.kind.version == "v1alpha2");
  CHECK(r.kind.kind == "JobSet");
  CHECK(r.name == "js");
  CHECK(r.namespace_name == "ns");
  CHECK(r.operation == "UPDATE");
  CHECK(r.dry_run);
  REQUIRE(r.object);
  CHECK(r.object->Find("metadata")->StringOr("name") == "js");
  REQUIRE(r.old_object);
  CHECK(r.old_object->Find("metadata")->StringOr("name") == "old");
}

TEST_CASE("review: null objects are absent; v1beta1 is accepted") {
  AdmissionRequest r;
  std::string error;
  REQUIRE(DecodeReview(Parse(R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview",
    "request":{"uid":"x","operation":"DELETE","object":null}})"),
                       &r, &error));
  CHECK(r.api_version == kAdmissionV1beta1);
  CHECK_FALSE(r.object);
  CHECK_FALSE(r.old_object);
}

TEST_CASE("review: what is not an AdmissionReview is named") {
  CHECK(DecodeError("[]") == "the body is not a JSON object");
  CHECK(DecodeError(R"({"apiVersion":"v1","kind":"Pod"})") ==
        "kind is \"Pod\", want \"AdmissionReview\"");
  CHECK(DecodeError(R"({"apiVersion":"admission.k8s.io/v2","kind":"AdmissionReview"})") ==
        "apiVersion is \"admission.k8s.io/v2\", want \"admission.k8s.io/v1\" or "
        "\"admission.k8s.io/v1beta1\"");
  CHECK(DecodeError(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"})") ==
        "request is missing or not an object");
  CHECK(DecodeError(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",
                        "request":{"uid":""}})") == "request.uid is missing or empty");
  CHECK(DecodeError(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",
                        "request":{"uid":7}})") == "request.uid is missing or empty");
}

TEST_CASE("review: the response echoes version and uid; fields appear only when set") {
  AdmissionRequest req;
  req.api_version = kAdmissionV1beta1;
  req.uid = "abc";
  AdmissionResponse allowed;
  allowed.allowed = true;
  CHECK(EncodeReview(req, allowed) ==
        R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview",)"
        R"("response":{"uid":"abc","allowed":true}})");

  req.api_version = kAdmissionV1;
  AdmissionResponse denied;
  Status s;
  s.code = 422;
  s.reason = "Invalid";
  s.message = "m";
  s.name = "js";
  s.group = "jobset.x-k8s.io";
  s.kind = "JobSet";
  s.causes = {{"FieldValueInvalid", "Invalid value: 1: x", "spec.a"}};
  denied.status = s;
  denied.warnings = {"w1"};
  nlohmann::json j = nlohmann::json::parse(EncodeReview(req, denied));
  CHECK(j["apiVersion"] == "admission.k8s.io/v1");
  CHECK(j["kind"] == "AdmissionReview");
  CHECK(j["response"]["uid"] == "abc");
  CHECK(j["response"]["allowed"] == false);
  CHECK(j["response"]["status"]["code"] == 422);
  CHECK(j["response"]["status"]["status"] == "Failure");
  CHECK(j["response"]["status"]["reason"] == "Invalid");
  CHECK(j["response"]["status"]["details"]["name"] == "js");
  CHECK(j["response"]["status"]["details"]["causes"][0]["field"] == "spec.a");
  CHECK(j["response"]["warnings"][0] == "w1");
  CHECK_FALSE(j["response"].contains("patch"));
  CHECK_FALSE(j["response"].contains("patchType"));

  AdmissionResponse patched;
  patched.allowed = true;
  patched.patch = R"([{"op":"add","path":"/a","value":1}])";
  j = nlohmann::json::parse(EncodeReview(req, patched));
  CHECK(j["response"]["patchType"] == "JSONPatch");
  CHECK(j["response"]["patch"] == "W3sib3AiOiJhZGQiLCJwYXRoIjoiL2EiLCJ2YWx1ZSI6MX1d");
  CHECK_FALSE(j["response"].contains("status"));
}

TEST_CASE("review: the response text is what the JSON document form wrote, byte for byte") {
  // EncodeReview writes text directly; the reference builds the ordered document it replaced.
  // (A rejection's status is still written from a document in both; the test above covers it.)
  auto reference = [](const AdmissionRequest& req, const AdmissionResponse& resp) {
    using OJson = nlohmann::ordered_json;
    OJson r = {{"uid", req.uid}, {"allowed", resp.allowed}};
    if (!resp.warnings.empty()) r["warnings"] = resp.warnings;
    if (!resp.patch.empty()) {
      r["patchType"] = "JSONPatch";
      r["patch"] = Base64(resp.patch);
    }
    OJson review = {
        {"apiVersion", req.api_version}, {"kind", "AdmissionReview"}, {"response", std::move(r)}};
    return review.dump(-1, ' ', false, OJson::error_handler_t::replace);
  };
  AdmissionRequest req;
  req.api_version = kAdmissionV1;
  req.uid = "705ab4f5-6393-11e8-b7cc-42010a800002";
  AdmissionResponse allowed;
  allowed.allowed = true;
  CHECK(EncodeReview(req, allowed) == reference(req, allowed));
  AdmissionResponse warned = allowed;
  warned.warnings = {"spec.x: \"quoted\", back\\slash, tab\t, bell\x07, caf\xc3\xa9 \xe2\x82\xac",
                     "second"};
  CHECK(EncodeReview(req, warned) == reference(req, warned));
  AdmissionResponse patched = allowed;
  patched.patch = R"([{"op":"add","path":"/spec/x","value":"a\"b"}])";
  CHECK(EncodeReview(req, patched) == reference(req, patched));
  req.uid = "uid with \"quote\" and \n newline";
  CHECK(EncodeReview(req, warned) == reference(req, warned));
}

TEST_CASE("review: base64 pads as RFC 4648 says") {
  CHECK(Base64("") == "");
  CHECK(Base64("f") == "Zg==");
  CHECK(Base64("fo") == "Zm8=");
  CHECK(Base64("foo") == "Zm9v");
  CHECK(Base64("foob") == "Zm9vYg==");
  CHECK(Base64("fooba") == "Zm9vYmE=");
  CHECK(Base64("foobar") == "Zm9vYmFy");
  CHECK(Base64(std::string("\xff\xfe\x00", 3)) == "//4A");
}

TEST_CASE("review: a Status document for HTTP errors") {
  nlohmann::json j = nlohmann::json::parse(StatusDocument(400, "BadRequest", "no \"json\""));
  CHECK(j["kind"] == "Status");
  CHECK(j["apiVersion"] == "v1");
  CHECK(j["status"] == "Failure");
  CHECK(j["code"] == 400);
  CHECK(j["reason"] == "BadRequest");
  CHECK(j["message"] == "no \"json\"");
}

}  // namespace jobset::webhook
