// JobSet admission: the rules kube-apiserver enforces beyond the OpenAPI schema (object
// metadata, keyed lists, CEL), and the upstream validating webhook's CREATE rules.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/core/batch_job.h"
#include "validation/core/field_path.h"
#include "validation/core/finding.h"
#include "validation/core/finding_sink.h"
#include "validation/core/node.h"
#include "validation/jobset/feature_gates.h"
#include "validation/jobset/types.h"

namespace jobset {

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

}  // namespace jobset
