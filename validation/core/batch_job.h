// What the Kubernetes Job controller (batch/v1) reports, as the controllers of every kind here
// read it.
#pragma once

#include <string>
#include <vector>

namespace jobset {

/// The five reasons a Job's Failed condition can carry (k8s.io/api batch/v1, JobReason*), which
/// JobSet failure policy rules may name in onJobFailureReasons.
const std::vector<std::string>& JobFailureReasons();

}  // namespace jobset
