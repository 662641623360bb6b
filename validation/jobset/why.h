// `kubectl jobset why` for a JobSet: what happened to a live JobSet and what happens next, told
// from a dump of the JobSet, its child Jobs, their Pods and the events (validation/core/
// workload_dump.h). Every decision (which rule matched, which action, whether it counted, the
// next-failure table) comes from the failure-policy engine (policy_engine.h), fed with the
// failures the dump records, so the diagnosis agrees with `simulate` by construction. Pure: no
// I/O, no clock.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/diagnosis.h"
#include "validation/core/workload_dump.h"
#include "validation/jobset/feature_gates.h"
#include "validation/jobset/replay.h"

namespace jobset {

/// One child Job failure found in a dump: a Job with a Failed=True condition, or (once the Job
/// was deleted by a restart) the Warning event the Job controller emitted when it failed.
struct DumpedFailure {
  std::string job;  ///< Child Job name.
  std::string uid;  ///< Its uid, "" when unknown.
  int rjob = -1;    ///< Index into the spec's replicated jobs.
  int64_t index = 0;
  std::string reason, message;
  std::string time;     ///< RFC 3339 (condition lastTransitionTime or event time).
  int64_t seconds = 0;  ///< `time` as seconds since the epoch (0 when unknown).
};

/// The failures of JobSet `name`'s child Jobs in `dump`, oldest first, grouped into the steps
/// the controller reacted to: a step ends at the first failure-policy event of the JobSet
/// (RestartJobSetFailurePolicyAction, ..., ReachedMaxRestarts) at or after its failures; failures
/// after the last such event are grouped by time. Gives false when the dump holds no such JobSet.
bool JobSetFailureSteps(const WorkloadDump& dump, std::string_view name,
                        std::vector<std::vector<DumpedFailure>>* steps, std::string* error);

/// `steps` in the terms of Replay (replay.h): RJOB/INDEX:REASON:MESSAGE.
std::vector<StepSpec> ToReplaySteps(const std::vector<std::vector<DumpedFailure>>& steps,
                                    const std::vector<std::string>& rjob_names);

/// Diagnoses JobSet `name` of `dump`: its state, budgets, the timeline of attempts with the
/// first failed Job of each and the pod-level cause behind it, the decision the controller took
/// (from the engine), what one more failure would do at the current counters, and hazards seen
/// in the history. Gate RestartJob is taken as on when child Jobs carry the job-restart-attempt
/// label (only that gate writes it), InPlaceRestart when the JobSet uses that strategy. Gives
/// false and a message when the dump holds no JobSet of that name.
bool DiagnoseJobSet(const WorkloadDump& dump, std::string_view name, const FeatureGates& gates,
                    Diagnosis* out, std::string* error);

}  // namespace jobset
