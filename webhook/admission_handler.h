// One admission HTTP request, from body bytes to reply bytes: no sockets, no clocks, so that
// every answer the server gives can be tested directly.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/json_node.h"
#include "validation/lint/kinds.h"
#include "validation/lint/lint.h"
#include "webhook/admission_response.h"
#include "webhook/review.h"

namespace jobset::webhook {

/// The two webhooks of a kind: the mutating one (defaults, as a patch) and the validating one.
enum class AdmissionVerb { kMutate, kValidate };

/// Which webhook a request was sent to: one kind's mutating or validating webhook.
struct Endpoint {
  KindId kind;
  AdmissionVerb verb;
  // Shorthands for tests, benchmarks and the fuzz target.
  static const Endpoint kMutateJobSet, kValidateJobSet, kMutateVolcano, kValidateVolcano;
};
inline constexpr Endpoint Endpoint::kMutateJobSet{KindId::kJobSet, AdmissionVerb::kMutate};
inline constexpr Endpoint Endpoint::kValidateJobSet{KindId::kJobSet, AdmissionVerb::kValidate};
inline constexpr Endpoint Endpoint::kMutateVolcano{KindId::kVolcanoJob, AdmissionVerb::kMutate};
inline constexpr Endpoint Endpoint::kValidateVolcano{KindId::kVolcanoJob, AdmissionVerb::kValidate};

/// The HTTPS paths (the upstream projects' own, so their webhook configurations can point
/// here unchanged).
inline constexpr char kMutateJobSetPath[] = "/mutate-jobset-x-k8s-io-v1alpha2-jobset";
inline constexpr char kValidateJobSetPath[] = "/validate-jobset-x-k8s-io-v1alpha2-jobset";
inline constexpr char kMutateVolcanoPath[] = "/jobs/mutate";
inline constexpr char kValidateVolcanoPath[] = "/jobs/validate";

/// What decisions depend on.
struct AdmissionOptions {
  LintOptions lint;      ///< Feature gates and the schema, as for `kubectl jobset lint`.
  JsonParseLimits json;  ///< Nesting bound for request bodies.
  /// What /jobs/mutate fills into an empty Volcano spec.schedulerName (upstream: the first
  /// --scheduler-name of the webhook manager, default "volcano").
  std::string volcano_scheduler_name = "volcano";
  /// Whether a JobSet whose child Jobs would be refused is admitted with warnings (upstream's
  /// verdict) or rejected (--child-objects).
  ChildObjects child_objects = ChildObjects::kWarn;
};

/// The reply to send, and what the request log and metrics say about it.
struct HttpReply {
  int status = 200;  ///< HTTP status.
  std::string body;  ///< application/json.
  /// "allowed", "patched", "denied" (422), "invalid" (allowed=false, 400: malformed object),
  /// "bad_request" (HTTP 400: not an AdmissionReview).
  std::string verdict;
  int review_code = 0;  ///< response.status.code of a rejection, else 0.
  size_t warnings = 0;
  std::string error;  ///< Why the request was refused, for the log.
  // From the request, for the log (empty when it could not be read).
  std::string uid, api_version, kind, name, namespace_name, operation;
  bool dry_run = false;
};

/// The webhook's binding of one supported kind: the paths its webhooks are served on and what
/// they answer. A kind the webhook does not serve has null paths and functions.
struct KindAdmission {
  KindId kind;
  const char* mutate_path;    ///< e.g. kMutateJobSetPath; nullptr: not served.
  const char* validate_path;  ///< e.g. kValidateJobSetPath; nullptr: not served.
  /// The mutating webhook's answer (requests of other kinds are allowed untouched).
  AdmissionResponse (*mutate)(const AdmissionRequest& request, const AdmissionOptions& options);
  /// The validating webhook's answer; it may default `request->object` in place.
  AdmissionResponse (*validate)(AdmissionRequest* request, const AdmissionOptions& options);
};

/// The binding of every supported kind, in SupportedKinds() order (one entry per KindId).
const std::vector<KindAdmission>& KindAdmissions();

/// The path `verb` of `kind` is served on, or nullptr.
const char* AdmissionPath(const KindAdmission& kind, AdmissionVerb verb);

/// Answers one POST to a webhook path. A body that is not JSON (or nested deeper than
/// the bound), not an AdmissionReview, or sent with a Content-Type other than
/// application/json gets HTTP 400 and a metav1.Status saying why; anything else gets HTTP 200
/// and an AdmissionReview in the request's version.
HttpReply HandleAdmission(Endpoint endpoint, std::string_view content_type, std::string_view body,
                          const AdmissionOptions& options);

/// Whether a Content-Type header names JSON ("application/json", any case, parameters
/// allowed).
bool IsJsonContentType(std::string_view content_type);

}  // namespace jobset::webhook
