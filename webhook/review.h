// The AdmissionReview wire format (admission.k8s.io/v1 and v1beta1): decoding requests and
// encoding responses in the version they came in.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "validation/core/node.h"

namespace jobset::webhook {

inline constexpr char kAdmissionV1[] = "admission.k8s.io/v1";
inline constexpr char kAdmissionV1beta1[] = "admission.k8s.io/v1beta1";

/// A group/version/kind as AdmissionRequest.kind carries it.
struct GroupVersionKind {
  std::string group, version, kind;
};

/// The parts of an AdmissionRequest the webhook reads.
struct AdmissionRequest {
  std::string api_version;  ///< kAdmissionV1 or kAdmissionV1beta1: the reply uses the same.
  std::string uid;
  GroupVersionKind kind;
  std::string sub_resource;
  std::string name, namespace_name;
  std::string operation;  ///< CREATE, UPDATE, DELETE, CONNECT.
  bool dry_run = false;
  std::optional<Node> object;      ///< Absent when null or missing.
  std::optional<Node> old_object;  ///< Absent when null or missing.
};

/// A metav1.StatusCause.
struct StatusCause {
  std::string reason;   ///< "FieldValueInvalid", "InternalError", ...
  std::string message;  ///< The error without its field path.
  std::string field;    ///< "spec.x", or "<nil>" for plain errors.
};

/// A metav1.Status of a rejection.
struct Status {
  int code = 0;        ///< 422 Invalid, 400 BadRequest.
  std::string reason;  ///< "Invalid", "BadRequest".
  std::string message;
  /// details (name, group, kind, causes); only when `group` is set.
  std::string name, group, kind;
  std::vector<StatusCause> causes;
};

/// An AdmissionResponse.
struct AdmissionResponse {
  bool allowed = false;
  std::optional<Status> status;       ///< Set on rejections.
  std::vector<std::string> warnings;  ///< Omitted when empty.
  std::string patch;                  ///< RFC 6902 JSON text; empty = no patch fields at all.
};

/// Decodes an AdmissionReview request. Requires a JSON object with apiVersion
/// admission.k8s.io/v1 or v1beta1, kind AdmissionReview, and a `request` object with a
/// non-empty string `uid`; everything else is read leniently. Moves the objects out of
/// `body`. Gives false and a message saying what is missing.
bool DecodeReview(Node&& body, AdmissionRequest* out, std::string* error);

/// Encodes the reply: an AdmissionReview of the request's apiVersion whose response echoes
/// the request's uid; `patch` goes out base64-encoded with patchType JSONPatch.
std::string EncodeReview(const AdmissionRequest& request, const AdmissionResponse& response);

/// A metav1.Status document for a body that is no AdmissionReview (HTTP 4xx/5xx replies).
std::string StatusDocument(int code, const std::string& reason, const std::string& message);

/// Standard base64 (with padding) of `data`.
std::string Base64(const std::string& data);

}  // namespace jobset::webhook
