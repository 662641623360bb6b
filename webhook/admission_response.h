// Kind-neutral pieces of an admission answer: allowed and 400 responses, the 422 Status
// kube-apiserver builds from field errors, warnings within kube-apiserver's bounds, JSON patches,
// and whether a request is about one supported kind. Each kind's decisions (jobset_admission.h,
// volcano_admission.h) are built from them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/finding.h"
#include "validation/core/node.h"
#include "validation/core/patch.h"
#include "validation/lint/kinds.h"
#include "webhook/review.h"

namespace jobset::webhook {

/// What the validating webhook does with a child object's rejection (a rule of source
/// RuleSource::kChild: the JobSet is admitted upstream, but a Job its controller must create
/// would be refused).
enum class ChildObjects {
  kWarn,  ///< Keep upstream's verdict and return the problem as an admission warning (default).
  kDeny,  ///< Reject the object, as for the API server's own errors.
};

/// Parses "warn" / "deny"; false for anything else.
bool ParseChildObjects(std::string_view text, ChildObjects* out);

/// With kWarn, turns the child-object errors among `findings` into warnings.
void ApplyChildObjects(ChildObjects mode, std::vector<Finding>* findings);

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

/// Whether the request is about an object of `kind` itself (its group, served version and kind),
/// not a subresource. A request that names no kind is judged by its object's apiVersion and kind.
bool IsRequestFor(const AdmissionRequest& request, const KindHandler& kind);

/// The 422 Status kube-apiserver builds from field errors (apierrors.NewInvalid):
/// message `<Kind>.<group> "<name>" is invalid: <aggregate>` where the aggregate is the single
/// distinct error, or `[e1, e2, ...]` with exact duplicates removed; one cause per error.
Status InvalidStatus(std::string_view name, const std::vector<Finding>& errors,
                     std::string_view kind, std::string_view group);

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
