// `kubectl jobset why` for a Volcano Job (batch.volcano.sh/v1alpha1): the job's state and
// retryCount against maxRetry, the pod events the dump records (failures with their first
// container's exit code, evictions, successes) replayed through the lifecycle semantics
// (lifecycle.h) to tell which policy fired for which event and what it cost, the explain table
// evaluated at the current counters, and the hazards of the history.
#pragma once

#include <string>
#include <string_view>

#include "validation/core/diagnosis.h"
#include "validation/core/workload_dump.h"

namespace jobset {

/// Fills `out` for the Volcano Job called `name` in `dump` (its last copy when the dump holds
/// several, as `--watch` prints). The pods (label or annotation volcano.sh/job-name, or owned by
/// the Job) and the events about the Job and its pods are the history: a Failed pod is a
/// PodFailed with its first container's exit code, a pod deleted by someone else than the
/// controller (or an eviction event about a pod no longer in the dump) a PodEvicted, a Succeeded
/// pod a PodSucceeded. They are replayed in time order from a Running job, so every decision is
/// the lifecycle engine's. Gives false and names what is missing when the dump holds no such
/// Job or the Job has no spec.tasks; what is only optional (status, pods, events) is a note.
/// Never throws.
bool DiagnoseVolcanoJob(const WorkloadDump& dump, std::string_view name, Diagnosis* out,
                        std::string* error);

}  // namespace jobset
