#include "webhook/volcano_admission.h"

#include <utility>
#include <vector>

#include "validation/lint/config.h"
#include "validation/lint/kinds.h"
#include "validation/lint/rule_registry.h"
#include "validation/volcano/defaults.h"
#include "validation/volcano/lint.h"
#include "validation/volcano/validation.h"
#include "webhook/admission_response.h"

namespace jobset::webhook {
namespace {

bool FromWebhook(const Finding& f) {
  const RuleInfo* r = FindRule(f.rule);
  return r && r->source == RuleSource::kWebhook;
}

}  // namespace

bool IsVolcanoJobRequest(const AdmissionRequest& request) {
  return IsRequestFor(request, FindKind(KindId::kVolcanoJob));
}

AdmissionResponse ValidateVolcanoJob(const AdmissionRequest& request,
                                     const LintOptions& /*options*/) {
  if (!IsVolcanoJobRequest(request)) return AllowedResponse();
  const bool create = request.operation == "CREATE";
  if (!create && request.operation != "UPDATE") {
    return BadRequestResponse("expect operation to be 'CREATE' or 'UPDATE'");
  }
  if (!IsObject(request.object)) {
    return BadRequestResponse("request.object is missing or not a JSON object");
  }
  if (!create && !IsObject(request.old_object)) {
    return BadRequestResponse("request.oldObject is missing or not a JSON object");
  }
  std::vector<Finding> findings = create ? LintVolcanoJob(*request.object)
                                         : LintVolcanoUpdate(*request.old_object, *request.object);
  if (create) ApplyAnnotationSuppressions(*request.object, &findings);
  std::vector<Finding> schema_errors, webhook_errors;
  for (const Finding& f : findings) {
    if (f.severity != Severity::kError) continue;
    (FromWebhook(f) ? webhook_errors : schema_errors).push_back(f);
  }
  AdmissionResponse response = AllowedResponse();
  if (create) response.warnings = WarningsOf(findings);
  if (!schema_errors.empty()) {
    // kube-apiserver rejects these before it calls the validating webhook.
    response.allowed = false;
    const KindHandler& volcano = FindKind(KindId::kVolcanoJob);
    response.status = InvalidStatus(ObjectName(*request.object), schema_errors, volcano.kind,
                                    ApiGroupOf(volcano));
  } else if (!webhook_errors.empty()) {
    response.allowed = false;
    std::string message =
        create ? VolcanoCreateMessage(webhook_errors) : webhook_errors.front().upstream;
    response.status = Status{422, "Invalid", std::move(message), "", "", "", {}};
  }
  return response;
}

AdmissionResponse MutateVolcanoJob(const AdmissionRequest& request,
                                   std::string_view scheduler_name) {
  if (!IsVolcanoJobRequest(request)) return AllowedResponse();
  if (request.operation != "CREATE") {
    return BadRequestResponse("expect operation to be 'CREATE' ");
  }
  if (!IsObject(request.object)) {
    return BadRequestResponse("request.object is missing or not a JSON object");
  }
  // kube-apiserver applied the CRD defaults (maxRetry, queue, ...) on decode; what is left is
  // the upstream mutating webhook's own patch.
  Node object = *request.object;
  std::vector<PatchOp> ops;
  ApplyVolcanoWebhookDefaults(&object, scheduler_name, &ops);
  AdmissionResponse response = AllowedResponse();
  response.patch = JsonPatchText(ops);
  return response;
}

}  // namespace jobset::webhook
