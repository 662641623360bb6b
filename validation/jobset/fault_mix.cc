#include "validation/jobset/fault_mix.h"

#include <string_view>

#include "validation/core/name_index.h"
#include "validation/core/strings.h"
#include "validation/sim/fault_mix.h"

namespace jobset {
namespace {

// The words of a JobSet fault mix, for ParseFaultMixItems' messages.
constexpr FaultMixWords kJobSetFaultMixWords = {"REASON[:MESSAGE]=WEIGHT[@RJOB]", "reason",
                                                "replicated job name"};

std::string RjobList(const PreparedPolicy& policy) {
  std::string list;
  for (const std::string& name : policy.rjob_names) {
    if (!list.empty()) list += ", ";
    list += name;
  }
  return list;
}

}  // namespace

bool ParseFaultMix(std::string_view text, std::vector<FaultKind>* faults, std::string* error) {
  std::vector<FaultMixItem> items;
  if (!ParseFaultMixItems(text, kJobSetFaultMixWords, &items, error)) return false;
  std::vector<FaultKind> out;
  for (FaultMixItem& item : items) {
    FaultKind kind;
    kind.reason = std::move(item.key);
    kind.message = std::move(item.detail);
    kind.weight = item.weight;
    kind.rjob_name = std::move(item.target);
    out.push_back(std::move(kind));
  }
  *faults = std::move(out);
  return true;
}

bool ResolveFaultMix(const PreparedPolicy& policy, std::vector<FaultKind>* faults,
                     std::string* error) {
  std::vector<int> rjobs;
  const bool ok = BindFaultMix(policy, *faults, &rjobs, error);
  for (size_t k = 0; k < rjobs.size(); ++k) (*faults)[k].rjob = rjobs[k];
  return ok;
}

bool BindFaultMix(const PreparedPolicy& policy, std::span<const FaultKind> faults,
                  std::vector<int>* rjobs, std::string* error) {
  rjobs->clear();
  rjobs->reserve(faults.size());
  // Replicated jobs by name, the first of a name winning as FindReplicatedJob's scan would;
  // built only when a kind names one.
  NameIndex rjob_of;
  for (const FaultKind& kind : faults) {
    if (kind.rjob_name.empty()) {
      rjobs->push_back(kind.rjob);
      continue;
    }
    if (rjob_of.slots.empty()) rjob_of = BuildNameIndex(policy.rjob_names);
    const int r = FindName(rjob_of, policy.rjob_names, kind.rjob_name);
    if (r < 0) {
      *error = "fault mix: unknown replicated job " + GoQuotePrintable(kind.rjob_name) +
               " for reason " + GoQuotePrintable(kind.reason) +
               " (replicated jobs: " + RjobList(policy) + ")";
      return false;
    }
    rjobs->push_back(r);
  }
  return true;
}

std::vector<FaultKind> DefaultFaultMix() {
  std::vector<FaultKind> mix(2);
  mix[0].reason = "PodFailurePolicy";
  mix[0].message =
      "Container main for pod default/worker-0 failed with exit code 143 matching FailJob rule "
      "at index 0";
  mix[0].weight = 0.9;
  mix[1].reason = "BackoffLimitExceeded";
  mix[1].message = "Job has reached the specified backoff limit";
  mix[1].weight = 0.1;
  return mix;
}

}  // namespace jobset
