// The webhook's decisions on JobSets: validation (CREATE and UPDATE, as `kubectl jobset lint`
// and the upstream API server + webhook decide) and defaulting (the upstream mutating webhook).
// The kind-neutral response helpers are in admission_response.h (included for them).
#pragma once

#include <string_view>
#include <vector>

#include "validation/core/finding.h"
#include "validation/lint/lint.h"
#include "webhook/admission_response.h"
#include "webhook/review.h"

namespace jobset::webhook {

/// Whether the request is about a JobSet (jobset.x-k8s.io/v1alpha2, kind JobSet) itself, not a
/// subresource. Other kinds sent to the JobSet paths are allowed untouched.
bool IsJobSetRequest(const AdmissionRequest& request);

/// The validating webhook. CREATE: LintObject (CRD defaults, mutating-webhook defaults, schema,
/// API server rules, upstream ValidateCreate) — the verdict of `kubectl jobset lint`. UPDATE:
/// LintUpdate (CRD defaults on both objects, schema, CEL transition rules, then upstream
/// ValidateUpdate; create-time rules are not re-run). Errors reject with 422 Invalid in the
/// upstream form; non-error findings of a CREATE become warnings, except those the object's
/// `kubectl-jobset.io/ignore` annotation suppresses (as lint does; source comments do not reach
/// the cluster). Other operations are allowed.
/// A missing or non-object `object` (or `oldObject` on UPDATE) is rejected with 400.
/// Child-object errors (a child Job the API server would refuse) are warnings, or with
/// ChildObjects::kDeny errors that reject the JobSet.
AdmissionResponse ValidateJobSet(const AdmissionRequest& request, const LintOptions& options,
                                 ChildObjects child_objects = ChildObjects::kWarn);

/// The same verdict, without copying the object: `request->object` is defaulted in place (its
/// metadata is left as sent). The server's path; the request is not needed as sent afterwards.
AdmissionResponse ValidateJobSetInPlace(AdmissionRequest* request, const LintOptions& options,
                                        ChildObjects child_objects = ChildObjects::kWarn);

/// The mutating webhook, CREATE only: the upstream mutating webhook's defaults as an RFC 6902
/// patch (no patch at all when nothing changes). UPDATE and others are allowed untouched.
AdmissionResponse MutateJobSet(const AdmissionRequest& request);

/// The 422 Status of a JobSet's field errors: InvalidStatus with kind JobSet and group
/// jobset.x-k8s.io (`JobSet.jobset.x-k8s.io "<name>" is invalid: ...`).
Status InvalidStatus(std::string_view name, const std::vector<Finding>& errors);

}  // namespace jobset::webhook
