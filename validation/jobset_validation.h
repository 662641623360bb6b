// JobSet admission: the rules kube-apiserver enforces beyond the OpenAPI schema (object
// metadata, keyed lists, CEL), and the upstream validating webhook's CREATE rules.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/feature_gates.h"
#include "validation/field_path.h"
#include "validation/finding.h"
#include "validation/jobset_types.h"
#include "validation/node.h"

namespace jobset {

/// Collects findings about one object, rendering them the way kube-apiserver does and placing
/// them in the document.
class FindingSink {
 public:
  FindingSink(const Node& object, std::vector<Finding>* out) : object_(object), out_(out) {}

  /// A plain webhook error: rendered upstream as "<nil>: Internal error: <message>". `locate`
  /// is the field it is about, for the position and the JSON `field`.
  void Plain(std::string_view rule, std::string_view locate, std::string message,
             PointAt at = PointAt::kValue);
  /// A field error "<path>: <type>: <value>: <detail>" (value omitted when empty, detail too).
  /// The finding's `field` is `path`, the one the API server names; `locate`, when given, is the
  /// more useful place its line and column point at (where upstream's path is misspelt, or names
  /// a whole list). When `locate` is outside `path` and `path` is in the file, the note gives
  /// the position of `path`.
  void Field(std::string_view rule, std::string_view path, std::string_view type, std::string value,
             std::string detail, std::string_view locate = {}, PointAt at = PointAt::kValue);
  /// A finding of our own (a warning or info), with no upstream rendering. `related` names the
  /// other end of the problem (e.g. the template line a rule conflicts with); its position goes
  /// into the finding's note.
  void Own(std::string_view rule, Severity severity, std::string_view locate, std::string message,
           std::string_view related = {}, PointAt at = PointAt::kValue);

  const Node& object() const { return object_; }

 private:
  const Node& object_;
  std::vector<Finding>* out_;
};

/// kube-apiserver's checks after the schema, for a JobSet: metadata.name / generateName /
/// namespace / labels, duplicate keys of list-type=map lists (replicatedJobs, dependsOn), and
/// the CEL rules (startupPolicy vs dependsOn, volume claim template namespaces).
void ValidateApiServerRules(const Node& object, FindingSink* sink);
/// The same, with the object already decoded (`js` is DecodeJobSet(object)).
void ValidateApiServerRules(const JobSet& js, const Node& object, FindingSink* sink);

/// The upstream validating webhook's ValidateCreate (kubernetes-sigs/jobset@08dfbdfd
/// pkg/webhooks/jobset_webhook.go), on a defaulted object, in upstream order. Checks that need the
/// cluster (existing PVCs, in validateVolumeClaimPolicies) are not run.
void ValidateWebhookCreate(const Node& object, const FeatureGates& gates, FindingSink* sink);
/// The same, with the object already decoded (`js` is DecodeJobSet(object)).
void ValidateWebhookCreate(const JobSet& js, const Node& object, const FeatureGates& gates,
                           FindingSink* sink);

/// Whether a failure policy rule name passes the webhook: 1 to 128 bytes matching
/// `[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?`.
bool IsValidRuleName(std::string_view name);

/// The five reasons a Job can fail with, which failure policy rules may name.
const std::vector<std::string>& JobFailureReasons();

}  // namespace jobset
