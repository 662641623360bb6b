// A Volcano Job's words for people, written once for every face (explain, simulate, why).
#pragma once

#include <string>

#include "validation/volcano/types.h"

namespace jobset {

/// One lifecycle policy in a few words: its events (and exit code), its action, and its timeout
/// when it has one: "PodEvicted,PodFailed -> RestartJob after 5m", "exitCode 3 -> AbortJob".
std::string PolicyText(const VolcanoPolicy& p);

}  // namespace jobset
