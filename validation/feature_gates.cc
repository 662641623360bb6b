#include "validation/feature_gates.h"

#include <vector>

namespace jobset {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

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
    if (name == "RestartJob")
      gates->restart_job = on;
    else if (name == "InPlaceRestart")
      gates->in_place_restart = on;
    else if (name == "ElasticJobSet")
      gates->elastic_jobset = on;
    else if (name == "TLSOptions") {
      // GA and locked to true upstream: accepted, changes nothing here.
      if (!on) {
        *error = "feature gate TLSOptions is GA and locked to true";
        return false;
      }
    } else {
      *error = "unknown feature gate '" + std::string(name) +
               "' (known: RestartJob, InPlaceRestart, ElasticJobSet, TLSOptions)";
      return false;
    }
  }
  return true;
}

std::string FormatFeatureGates(const FeatureGates& gates) {
  std::vector<std::string> on;
  if (gates.restart_job) on.push_back("RestartJob=true");
  if (gates.in_place_restart) on.push_back("InPlaceRestart=true");
  if (gates.elastic_jobset) on.push_back("ElasticJobSet=true");
  std::string out;
  for (const std::string& s : on) out += (out.empty() ? "" : ",") + s;
  return out;
}

}  // namespace jobset
