// The label and annotation keys of the JobSet controller, for telling a typo from a key it reads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// Every key under `jobset.sigs.k8s.io/` and `alpha.jobset.sigs.k8s.io/` that upstream JobSet
/// defines, user-set or controller-set, in upstream's order.
const std::vector<std::string>& KnownJobSetKeys();

/// Whether `key` is in the JobSet controller's namespace (`jobset.sigs.k8s.io/...` or
/// `alpha.jobset.sigs.k8s.io/...`).
bool InJobSetKeyNamespace(std::string_view key);

/// The known key a misspelt one most likely meant: the key whose name (the part after '/') is
/// nearest to `key`'s, whatever the prefix (`jobset.sigs.k8s.io/exclusive-topology` gives
/// `alpha.jobset.sigs.k8s.io/exclusive-topology`); "" when none is near.
std::string NearestJobSetKey(std::string_view key);

}  // namespace jobset
