#include "webhook/review.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "validation/core/json_node.h"

namespace jobset::webhook {
namespace {

using Json = nlohmann::ordered_json;

std::string StringAt(const Node* map, std::string_view key) {
  if (!map) return "";
  const Node* n = map->Find(key);
  return n && n->is_string() ? n->text : "";
}

// Takes `map[key]` out of the map when it is an object (null and absent give nothing; other
// types are kept so that validation can say what is wrong with them).
std::optional<Node> TakeObject(Node* map, std::string_view key) {
  Node* n = map->Find(key);
  if (!n || n->is_null()) return std::nullopt;
  return std::move(*n);
}

Json StatusJson(const Status& s) {
  Json j = {{"metadata", Json::object()},
            {"status", "Failure"},
            {"message", s.message},
            {"reason", s.reason}};
  if (!s.group.empty()) {
    Json details = {{"name", s.name}, {"group", s.group}, {"kind", s.kind}};
    if (!s.causes.empty()) {
      Json causes = Json::array();
      for (const StatusCause& c : s.causes) {
        causes.push_back({{"reason", c.reason}, {"message", c.message}, {"field", c.field}});
      }
      details["causes"] = std::move(causes);
    }
    j["details"] = std::move(details);
  }
  j["code"] = s.code;
  return j;
}

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace

bool DecodeReview(Node&& body, AdmissionRequest* out, std::string* error) {
  if (!body.is_map()) {
    *error = "the body is not a JSON object";
    return false;
  }
  std::string api_version = StringAt(&body, "apiVersion");
  std::string kind = StringAt(&body, "kind");
  if (kind != "AdmissionReview") {
    *error = "kind is \"" + kind + "\", want \"AdmissionReview\"";
    return false;
  }
  if (api_version != kAdmissionV1 && api_version != kAdmissionV1beta1) {
    *error = "apiVersion is \"" + api_version + "\", want \"" + kAdmissionV1 + "\" or \"" +
             kAdmissionV1beta1 + "\"";
    return false;
  }
  Node* request = body.Find("request");
  if (!request || !request->is_map()) {
    *error = "request is missing or not an object";
    return false;
  }
  AdmissionRequest r;
  r.api_version = std::move(api_version);
  r.uid = StringAt(request, "uid");
  if (r.uid.empty()) {
    *error = "request.uid is missing or empty";
    return false;
  }
  if (const Node* k = request->Find("kind"); k && k->is_map()) {
    r.kind = {StringAt(k, "group"), StringAt(k, "version"), StringAt(k, "kind")};
  }
  r.sub_resource = StringAt(request, "subResource");
  r.name = StringAt(request, "name");
  r.namespace_name = StringAt(request, "namespace");
  r.operation = StringAt(request, "operation");
  if (const Node* d = request->Find("dryRun"); d && d->is_bool()) r.dry_run = d->boolean;
  r.object = TakeObject(request, "object");
  r.old_object = TakeObject(request, "oldObject");
  *out = std::move(r);
  return true;
}

std::string EncodeReview(const AdmissionRequest& request, const AdmissionResponse& response) {
  // Written as text: this runs for every request, and building a JSON document for it was a
  // few percent of a request. Keys in the order the document form used (and the tests pin).
  std::string out = R"({"apiVersion":)";
  AppendJsonString(request.api_version, &out);
  out += R"(,"kind":"AdmissionReview","response":{"uid":)";
  AppendJsonString(request.uid, &out);
  out += response.allowed ? R"(,"allowed":true)" : R"(,"allowed":false)";
  if (response.status) {
    out += R"(,"status":)";
    out += Dump(StatusJson(*response.status));
  }
  if (!response.warnings.empty()) {
    out += R"(,"warnings":[)";
    for (size_t i = 0; i < response.warnings.size(); ++i) {
      if (i) out += ',';
      AppendJsonString(response.warnings[i], &out);
    }
    out += ']';
  }
  if (!response.patch.empty()) {
    out += R"(,"patchType":"JSONPatch","patch":)";
    AppendJsonString(Base64(response.patch), &out);
  }
  out += "}}";
  return out;
}

std::string StatusDocument(int code, const std::string& reason, const std::string& message) {
  Json j = {{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", Json::object()},
            {"status", "Failure"}, {"message", message}, {"reason", reason},
            {"code", code}};
  return Dump(j);
}

std::string Base64(const std::string& data) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < data.size(); i += 3) {
    uint32_t v = (static_cast<unsigned char>(data[i]) << 16) |
                 (static_cast<unsigned char>(data[i + 1]) << 8) |
                 static_cast<unsigned char>(data[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i + 1 == data.size()) {
    uint32_t v = static_cast<unsigned char>(data[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == data.size()) {
    uint32_t v = (static_cast<unsigned char>(data[i]) << 16) |
                 (static_cast<unsigned char>(data[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

}  // namespace jobset::webhook
