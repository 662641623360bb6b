#include "webhook/admission_handler.h"

#include <cctype>
#include <utility>

#include "webhook/jobset_admission.h"
#include "webhook/review.h"
#include "webhook/volcano_admission.h"

namespace jobset::webhook {
namespace {

HttpReply BadRequest(std::string message) {
  HttpReply r;
  r.status = 400;
  r.verdict = "bad_request";
  r.body = StatusDocument(400, "BadRequest", message);
  r.error = std::move(message);
  return r;
}

std::string ObjectNameForLog(const AdmissionRequest& request) {
  if (!request.name.empty()) return request.name;
  if (!request.object || !request.object->is_map()) return "";
  const Node* md = request.object->Find("metadata");
  if (!md) return "";
  std::string_view name = md->StringOr("name");
  if (!name.empty()) return std::string(name);
  std::string_view generate = md->StringOr("generateName");
  return generate.empty() ? "" : std::string(generate) + "*";
}

}  // namespace

bool IsJsonContentType(std::string_view content_type) {
  std::string_view media = content_type.substr(0, content_type.find(';'));
  while (!media.empty() && std::isspace(static_cast<unsigned char>(media.front()))) {
    media.remove_prefix(1);
  }
  while (!media.empty() && std::isspace(static_cast<unsigned char>(media.back()))) {
    media.remove_suffix(1);
  }
  constexpr std::string_view kJson = "application/json";
  if (media.size() != kJson.size()) return false;
  for (size_t i = 0; i < media.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(media[i])) != kJson[i]) return false;
  }
  return true;
}

HttpReply HandleAdmission(Endpoint endpoint, std::string_view content_type, std::string_view body,
                          const AdmissionOptions& options) {
  if (!IsJsonContentType(content_type)) {
    return BadRequest("Content-Type must be application/json, got \"" + std::string(content_type) +
                      "\"");
  }
  Node parsed;
  std::string error;
  if (!ParseJson(body, options.json, &parsed, &error)) {
    return BadRequest("request body is not an AdmissionReview: " + error);
  }
  AdmissionRequest request;
  if (!DecodeReview(std::move(parsed), &request, &error)) {
    return BadRequest("request body is not an AdmissionReview: " + error);
  }
  AdmissionResponse response;
  switch (endpoint) {
    case Endpoint::kMutateJobSet:
      response = MutateJobSet(request);
      break;
    case Endpoint::kValidateJobSet:
      response = ValidateJobSetInPlace(&request, options.lint);
      break;
    case Endpoint::kMutateVolcano:
      response = MutateVolcanoJob(request, options.volcano_scheduler_name);
      break;
    case Endpoint::kValidateVolcano:
      response = ValidateVolcanoJob(request, options.lint);
      break;
  }
  HttpReply reply;
  reply.status = 200;
  reply.body = EncodeReview(request, response);
  if (response.allowed) {
    reply.verdict = response.patch.empty() ? "allowed" : "patched";
  } else {
    reply.review_code = response.status ? response.status->code : 0;
    reply.verdict = reply.review_code == 400 ? "invalid" : "denied";
    if (response.status) reply.error = response.status->message;
  }
  reply.warnings = response.warnings.size();
  reply.uid = request.uid;
  reply.api_version = request.api_version;
  reply.kind = request.kind.kind;
  reply.name = ObjectNameForLog(request);
  reply.namespace_name = request.namespace_name;
  reply.operation = request.operation;
  reply.dry_run = request.dry_run;
  return reply;
}

}  // namespace jobset::webhook
