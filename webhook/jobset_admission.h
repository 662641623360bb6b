// The webhook's decisions on JobSets: validation (CREATE and UPDATE, as `kubectl jobset lint`
// and the upstream API server + webhook decide) and defaulting (the upstream mutating webhook).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/core/finding.h"
#include "validation/jobset/defaults.h"
#include "validation/lint/lint.h"
#include "webhook/review.h"

namespace jobset::webhook {

/// Longest warning we send; kube-apiserver asks for warnings under 120 characters.
inline constexpr size_t kMaxWarningBytes = 119;
/// kube-apiserver keeps at most this many characters of warnings per request.
inline constexpr size_t kMaxWarningsBytes = 4096;

/// An allowed response with nothing else.
AdmissionResponse AllowedResponse();
/// A rejection of a malformed object inside a valid review: 400, reason BadRequest.
AdmissionResponse BadRequestResponse(std::string message);
/// Whether a review's object is present and a JSON object.
bool IsObject(const std::optional<Node>& n);
/// metadata.name of an object, "" when absent.
std::string ObjectName(const Node& object);

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
AdmissionResponse ValidateJobSet(const AdmissionRequest& request, const LintOptions& options);

/// The same verdict, without copying the object: `request->object` is defaulted in place (its
/// metadata is left as sent). The server's path; the request is not needed as sent afterwards.
AdmissionResponse ValidateJobSetInPlace(AdmissionRequest* request, const LintOptions& options);

/// The mutating webhook, CREATE only: the upstream mutating webhook's defaults as an RFC 6902
/// patch (no patch at all when nothing changes). UPDATE and others are allowed untouched.
AdmissionResponse MutateJobSet(const AdmissionRequest& request);

/// The 422 Status kube-apiserver builds from field errors (apierrors.NewInvalid):
/// message `<Kind>.<group> "<name>" is invalid: <aggregate>` (JobSet.jobset.x-k8s.io unless
/// told otherwise) where the aggregate is the single distinct error, or `[e1, e2, ...]` with
/// exact duplicates removed; one cause per error.
Status InvalidStatus(std::string_view name, const std::vector<Finding>& errors,
                     std::string_view kind = "JobSet", std::string_view group = "jobset.x-k8s.io");

/// Splits an upstream rendering "<path>: <Type>: <rest>" into a StatusCause (reason
/// FieldValueInvalid, InternalError, ...; message without the path).
StatusCause CauseOf(const std::string& upstream);

/// The warnings for non-error, unsuppressed findings: "<field>: <message>", control characters
/// replaced, cut to kMaxWarningBytes (on a UTF-8 boundary, ending in "..."), duplicates removed;
/// when they would exceed what kube-apiserver passes on (kMaxWarningsBytes), the last one says
/// how many were left out.
std::vector<std::string> WarningsOf(const std::vector<Finding>& findings);

/// RFC 6902 JSON text of `ops`; empty when there are none.
std::string JsonPatchText(const std::vector<PatchOp>& ops);

}  // namespace jobset::webhook
