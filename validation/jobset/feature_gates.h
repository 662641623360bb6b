// The JobSet controller's feature gates, as `--feature-gates` sets them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// The gates that change admission or controller behaviour. All default to false, as upstream.
struct FeatureGates {
  bool restart_job = false;       ///< RestartJob: RestartJob* actions, per-job restart budgets.
  bool in_place_restart = false;  ///< InPlaceRestart: restartStrategy InPlaceRestart.
  bool elastic_jobset = false;    ///< ElasticJobSet: mutable parallelism/completions on UPDATE.
};

/// One gate `--feature-gates` accepts: its name, what it changes, and the field it sets.
struct FeatureGateInfo {
  std::string_view name;
  std::string_view description;
  bool FeatureGates::*field;  ///< nullptr: GA and locked to true upstream (accepted, no effect).
};

/// Every gate ParseFeatureGates accepts, in the order help and completion list them.
const std::vector<FeatureGateInfo>& KnownFeatureGates();

/// Parses "RestartJob=true,InPlaceRestart=false" into `gates` (on top of what it holds).
/// Gives false and a message for an unknown gate or a value that is not true/false.
bool ParseFeatureGates(std::string_view text, FeatureGates* gates, std::string* error);

/// "RestartJob=true,..." for the gates that are on (empty when none).
std::string FormatFeatureGates(const FeatureGates& gates);

}  // namespace jobset
