// Policy analysis beyond upstream admission: JobSets the API server accepts that will not do
// what their author meant. Every finding here is a warning (or info), never an error.
#pragma once

#include <string>
#include <string_view>

#include "validation/core/node.h"
#include "validation/jobset/feature_gates.h"
#include "validation/jobset/types.h"
#include "validation/jobset/validation.h"

namespace jobset {

/// Runs every analysis rule on a defaulted JobSet (defaults matter: a pod failure policy next to
/// the defaulted `restartPolicy: OnFailure` is a child Job the Job API refuses).
void AnalyzeJobSet(const Node& object, const FeatureGates& gates, FindingSink* sink);
/// The same on a decoded JobSet.
void AnalyzeJobSet(const JobSet& js, const FeatureGates& gates, FindingSink* sink);

/// Why a child Job of `rj` can never fail with `reason` (e.g. "its Job template sets no
/// activeDeadlineSeconds"), or "" when it can.
std::string WhyReasonUnreachable(const ReplicatedJob& rj, std::string_view reason);

}  // namespace jobset
