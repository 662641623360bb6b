#include "validation/jobset/feature_gates.h"

#include <vector>

#include "validation/core/strings.h"

namespace jobset {
const std::vector<FeatureGateInfo>& KnownFeatureGates() {
  static const std::vector<FeatureGateInfo> gates = {
      {"RestartJob", "RestartJob* failure policy actions, per-job restart budgets",
       &FeatureGates::restart_job},
      {"InPlaceRestart", "restartStrategy InPlaceRestart", &FeatureGates::in_place_restart},
      {"ElasticJobSet", "mutable parallelism and completions on update",
       &FeatureGates::elastic_jobset},
      {"TLSOptions", "GA and locked to true upstream: accepted, changes nothing", nullptr},
  };
  return gates;
}

bool ParseFeatureGates(std::string_view text, FeatureGates* gates, std::string* error) {
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = Trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      *error = "feature gate '" + std::string(item) + "' needs a value: Name=true|false";
      return false;
    }
    std::string_view name = Trim(item.substr(0, eq)), value = Trim(item.substr(eq + 1));
    bool on;
    if (value == "true")
      on = true;
    else if (value == "false")
      on = false;
    else {
      *error = "feature gate " + std::string(name) + ": invalid value '" + std::string(value) +
               "' (want true or false)";
      return false;
    }
    const FeatureGateInfo* gate = nullptr;
    for (const FeatureGateInfo& g : KnownFeatureGates())
      if (g.name == name) gate = &g;
    if (gate == nullptr) {
      std::string known;
      for (const FeatureGateInfo& g : KnownFeatureGates())
        known += (known.empty() ? "" : ", ") + std::string(g.name);
      *error = "unknown feature gate '" + std::string(name) + "' (known: " + known + ")";
      return false;
    }
    if (gate->field != nullptr) {
      gates->*(gate->field) = on;
    } else if (!on) {
      *error = "feature gate " + std::string(name) + " is GA and locked to true";
      return false;
    }
  }
  return true;
}

std::string FormatFeatureGates(const FeatureGates& gates) {
  std::string out;
  for (const FeatureGateInfo& g : KnownFeatureGates()) {
    if (g.field != nullptr && gates.*(g.field))
      out += (out.empty() ? "" : ",") + std::string(g.name) + "=true";
  }
  return out;
}

}  // namespace jobset
