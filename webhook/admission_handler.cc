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

const std::vector<KindAdmission>& KindAdmissions() {
  // Bind a kind here, at the index of its KindId (a test checks every kind is bound).
  static const std::vector<KindAdmission> kinds = {
      {KindId::kJobSet, kMutateJobSetPath, kValidateJobSetPath,
       [](const AdmissionRequest& request, const AdmissionOptions&) {
         return MutateJobSet(request);
       },
       [](AdmissionRequest* request, const AdmissionOptions& options) {
         return ValidateJobSetInPlace(request, options.lint, options.child_objects);
       }},
      {KindId::kVolcanoJob, kMutateVolcanoPath, kValidateVolcanoPath,
       [](const AdmissionRequest& request, const AdmissionOptions& options) {
         return MutateVolcanoJob(request, options.volcano_scheduler_name);
       },
       [](AdmissionRequest* request, const AdmissionOptions& options) {
         return ValidateVolcanoJob(*request, options.lint);
       }},
      // FrameworkController has no admission webhook upstream: nothing to serve.
      {KindId::kFramework, nullptr, nullptr, nullptr, nullptr},
  };
  return kinds;
}

const char* AdmissionPath(const KindAdmission& kind, AdmissionVerb verb) {
  return verb == AdmissionVerb::kMutate ? kind.mutate_path : kind.validate_path;
}

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
  const KindAdmission& kind = KindAdmissions()[static_cast<size_t>(endpoint.kind)];
  AdmissionResponse response;
  if (endpoint.verb == AdmissionVerb::kMutate) {
    response = kind.mutate ? kind.mutate(request, options) : AllowedResponse();
  } else {
    response = kind.validate ? kind.validate(&request, options) : AllowedResponse();
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
