#include "webhook/jobset_admission.h"

#include <utility>

#include "validation/jobset/defaults.h"
#include "validation/jobset/lint.h"
#include "validation/jobset/update.h"
#include "validation/lint/config.h"
#include "validation/lint/kinds.h"

namespace jobset::webhook {

bool IsJobSetRequest(const AdmissionRequest& request) {
  return IsRequestFor(request, FindKind(KindId::kJobSet));
}

Status InvalidStatus(std::string_view name, const std::vector<Finding>& errors) {
  const KindHandler& jobset = FindKind(KindId::kJobSet);
  return InvalidStatus(name, errors, jobset.kind, ApiGroupOf(jobset));
}

AdmissionResponse ValidateJobSet(const AdmissionRequest& request, const LintOptions& options,
                                 ChildObjects child_objects) {
  AdmissionRequest copy = request;
  return ValidateJobSetInPlace(&copy, options, child_objects);
}

AdmissionResponse ValidateJobSetInPlace(AdmissionRequest* request, const LintOptions& options,
                                        ChildObjects child_objects) {
  if (!IsJobSetRequest(*request)) return AllowedResponse();
  std::vector<Finding> findings;
  if (request->operation == "CREATE") {
    if (!IsObject(request->object)) {
      return BadRequestResponse("request.object is missing or not a JSON object");
    }
    findings = LintJobSetInPlace(&*request->object, options.gates, options.schema.get());
    // The annotation travels with the object, so it silences warnings here as in lint
    // (`# kubectl-jobset:ignore` comments do not reach the cluster). Errors are never silenced.
    ApplyAnnotationSuppressions(*request->object, &findings);
    // Upstream admits a JobSet whose child Jobs would be refused: by default so do we, and say
    // why in warnings.
    ApplyChildObjects(child_objects, &findings);
  } else if (request->operation == "UPDATE") {
    if (!IsObject(request->object)) {
      return BadRequestResponse("request.object is missing or not a JSON object");
    }
    if (!IsObject(request->old_object)) {
      return BadRequestResponse("request.oldObject is missing or not a JSON object");
    }
    findings =
        LintUpdate(*request->old_object, *request->object, options.gates, options.schema.get());
  } else {
    return AllowedResponse();  // DELETE and CONNECT: nothing to check.
  }
  std::vector<Finding> errors;
  for (const Finding& f : findings) {
    if (f.severity == Severity::kError) errors.push_back(f);
  }
  AdmissionResponse response = AllowedResponse();
  // Create-time lint rules are not re-run on UPDATE: only its errors count there.
  if (request->operation == "CREATE") response.warnings = WarningsOf(findings);
  if (!errors.empty()) {
    response.allowed = false;
    response.status = InvalidStatus(ObjectName(*request->object), errors);
  }
  return response;
}

AdmissionResponse MutateJobSet(const AdmissionRequest& request) {
  if (!IsJobSetRequest(request) || request.operation != "CREATE") return AllowedResponse();
  if (!IsObject(request.object)) {
    return BadRequestResponse("request.object is missing or not a JSON object");
  }
  // kube-apiserver applied the CRD's structural defaults (replicas, groupName,
  // restartStrategy, whenDeleted) when it decoded the request, before calling any mutating
  // webhook; what is left to add is exactly the upstream mutating webhook's defaults.
  Node object = *request.object;
  std::vector<PatchOp> ops;
  ApplyWebhookDefaults(&object, &ops);
  AdmissionResponse response = AllowedResponse();
  response.patch = JsonPatchText(ops);
  return response;
}

}  // namespace jobset::webhook
