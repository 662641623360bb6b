// One admission HTTP request, from body bytes to reply bytes: no sockets, no clocks, so that
// every answer the server gives can be tested directly.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "validation/core/json_node.h"
#include "validation/lint/lint.h"

namespace jobset::webhook {

/// Which webhook a request was sent to.
enum class Endpoint { kMutateJobSet, kValidateJobSet, kMutateVolcano, kValidateVolcano };

/// What decisions depend on.
struct AdmissionOptions {
  LintOptions lint;      ///< Feature gates and the schema, as for `kubectl jobset lint`.
  JsonParseLimits json;  ///< Nesting bound for request bodies.
  /// What /jobs/mutate fills into an empty Volcano spec.schedulerName (upstream: the first
  /// --scheduler-name of the webhook manager, default "volcano").
  std::string volcano_scheduler_name = "volcano";
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
