#include "validation/jobset/keys.h"

#include "validation/core/suggest.h"

namespace jobset {

const std::vector<std::string>& KnownJobSetKeys() {
  // kubernetes-sigs/jobset at commit 08dfbdfd682714a9ab929633eca8dc95315187e7 (the commit of
  // the upstream examples our corpus tests read): the key constants of
  // api/jobset/v1alpha2/jobset_types.go (JobSetNameKey ... DisableInPlaceRestartKey, without
  // JobSetControllerName, a spec.managedBy value) and of pkg/constants/constants.go
  // (RestartsKey, JobRestartAttemptKey, PriorityKey).
  static const std::vector<std::string> keys = {
      "jobset.sigs.k8s.io/jobset-name",
      "jobset.sigs.k8s.io/jobset-uid",
      "jobset.sigs.k8s.io/replicatedjob-replicas",
      "jobset.sigs.k8s.io/global-replicas",
      "jobset.sigs.k8s.io/replicatedjob-name",
      "jobset.sigs.k8s.io/job-index",
      "jobset.sigs.k8s.io/job-global-index",
      "jobset.sigs.k8s.io/job-key",
      "alpha.jobset.sigs.k8s.io/exclusive-topology",
      "alpha.jobset.sigs.k8s.io/node-selector",
      "alpha.jobset.sigs.k8s.io/namespaced-job",
      "alpha.jobset.sigs.k8s.io/no-schedule",
      "jobset.sigs.k8s.io/coordinator",
      "jobset.sigs.k8s.io/group-name",
      "jobset.sigs.k8s.io/group-replicas",
      "jobset.sigs.k8s.io/job-group-index",
      "jobset.sigs.k8s.io/in-place-restart-attempt",
      "jobset.sigs.k8s.io/disable-in-place-restart",
      "jobset.sigs.k8s.io/restart-attempt",
      "jobset.sigs.k8s.io/job-restart-attempt",
      "jobset.sigs.k8s.io/priority",
  };
  return keys;
}

bool InJobSetKeyNamespace(std::string_view key) {
  return key.rfind("jobset.sigs.k8s.io/", 0) == 0 || key.rfind("alpha.jobset.sigs.k8s.io/", 0) == 0;
}

std::string NearestJobSetKey(std::string_view key) {
  const auto name_of = [](std::string_view k) {
    size_t slash = k.find('/');
    return slash == std::string_view::npos ? k : k.substr(slash + 1);
  };
  std::vector<std::string> names;
  for (const std::string& k : KnownJobSetKeys()) names.emplace_back(name_of(k));
  std::string nearest = Nearest(name_of(key), names);
  if (nearest.empty()) return "";
  for (const std::string& k : KnownJobSetKeys())
    if (name_of(k) == nearest) return k;
  return "";
}

}  // namespace jobset
