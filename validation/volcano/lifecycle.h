// The Volcano job controller's lifecycle-policy semantics (volcano-sh/volcano@ed72c7c8,
// pkg/controllers/job) as a
// pure, deterministic library: a typed, lenient view of a batch.volcano.sh/v1alpha1 Job, which
// policy a request matches (task policies before job policies, first match wins), and the state
// machine that turns the chosen action into phases and retry counts. `explain` asks it about one
// event from a fresh job; `simulate` replays steps of events through it.
//
// The pod model (pod_model.h): every pod of every task is tracked by index with its phase and the
// job version it was created at, so that stale events (a pod of an earlier incarnation),
// completion (TaskCompleted, minAvailable, minSuccess) and kill modes (soft keeps
// Succeeded/Failed pods) can be followed; killing or recreating many pods costs O(1). A step is
// what happens before the controller has reacted: first every event's pod change happens (each
// request keeps its pod's job version), then the requests are handled in order (so a request from a
// pod that a RestartJob of the same step killed is stale), then the delayed actions (policy
// `timeout`) that were not cancelled fire, their timeouts having expired, then the controller
// settles: pods it deleted are gone, pods it must recreate are created and run (the cluster is
// assumed to schedule them), and the transient phases (Restarting, Aborting, Completing,
// Terminating) move on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "validation/volcano/pod_model.h"
#include "validation/volcano/types.h"

namespace jobset {

// --- Events and actions -----------------------------------------------------------------------

/// The events a request can carry (bus/v1alpha1 events.go), in the CRD's order, `*` excluded.
const std::vector<std::string_view>& VolcanoEvents();

/// True for `*` and the events of VolcanoEvents().
bool IsVolcanoEvent(std::string_view event);

/// True for the events the controller maps to SyncJob whatever the policies say (applyPolicies).
bool IsInternalVolcanoEvent(std::string_view event);

/// An action of the state machine. kOther is any other string (an internal or misspelt action of
/// an exit-code policy): the state machine's default branch, like SyncJob.
enum class VolcanoAction : uint8_t {
  kAbortJob,
  kRestartJob,
  kRestartTask,
  kRestartPod,
  kRestartPartition,
  kTerminateJob,
  kCompleteJob,
  kResumeJob,
  kSyncJob,
  kOther,
};

/// The upstream spelling; "Other" for kOther.
std::string_view VolcanoActionName(VolcanoAction action);

/// Parses the upstream spelling (exact); anything else gives kOther.
VolcanoAction ParseVolcanoAction(std::string_view text);

/// The eight actions a policy may name (webhook's list).
const std::vector<std::string_view>& VolcanoPolicyActions();

/// True for RestartJob, RestartTask, RestartPod, RestartPartition.
bool IsVolcanoRestart(VolcanoAction action);

// --- Matching ---------------------------------------------------------------------------------

/// A request as the controller builds it from a pod or PodGroup change (job_controller_handler.go).
struct VolcanoRequest {
  std::string event;      ///< PodFailed, PodEvicted, ...; empty for a command.
  int task = -1;          ///< Index into VolcanoJob::tasks; -1 = no task (Unknown, commands).
  int64_t index = -1;     ///< Pod index within the task; -1 = no pod.
  int64_t exit_code = 0;  ///< The first container's exit code (0 when none was recorded).
  std::string command;    ///< A vcctl command's action (the request carries an action).
  int64_t version = 0;    ///< The pod's volcano.sh/job-version when it changed.
  bool stale = false;     ///< version < status.version: a pod of an earlier incarnation.
};

/// How a request was matched.
enum class VolcanoMatchKind : uint8_t {
  kNone,      ///< No policy matched: SyncJob.
  kEvent,     ///< A policy naming the event.
  kWildcard,  ///< A policy naming `*`.
  kExitCode,  ///< An exit-code policy.
  kInternal,  ///< An internal event (PodRunning, OutOfSync, CommandIssued): SyncJob.
  kStale,     ///< A pod of an earlier job version: SyncJob.
  kCommand,   ///< The request carried an action (vcctl command).
};

/// The outcome of applyPolicies: the policy that fires (if any), its action and delay.
struct VolcanoMatch {
  VolcanoMatchKind kind = VolcanoMatchKind::kNone;
  int task = -1;    ///< The task whose policy fired; -1 = a job policy (or none).
  int policy = -1;  ///< Index in that policy list; -1 = none.
  std::string action_text = "SyncJob";  ///< As written in the policy.
  VolcanoAction action = VolcanoAction::kSyncJob;
  double delay_s = 0;  ///< The policy's timeout (0: at once).
  std::string delay;   ///< As written; empty when none.
};

/// The policy of `m`, or nullptr.
const VolcanoPolicy* MatchedPolicy(const VolcanoJob& job, const VolcanoMatch& m);

/// As applyPolicies (job_controller_util.go): commands first, internal and stale events SyncJob,
/// then the request's task policies in order, then the job's, first match wins; `*` matches any
/// event; an exit-code policy matches the request's exit code whatever the event; PodPending only
/// fires a policy with a timeout.
VolcanoMatch MatchVolcanoPolicy(const VolcanoJob& job, const VolcanoRequest& request);

// --- The state machine ------------------------------------------------------------------------

/// status.state.phase.
enum class VolcanoPhase : uint8_t {
  kPending,
  kRunning,
  kRestarting,
  kAborting,
  kAborted,
  kTerminating,
  kTerminated,
  kCompleting,
  kCompleted,
  kFailed,
};

/// "Pending", "Running", ...
std::string_view VolcanoPhaseName(VolcanoPhase phase);

/// True for Completed, Terminated, Failed (nothing changes them again).
bool IsFinalVolcanoPhase(VolcanoPhase phase);

/// The part of a Job's status and pods the semantics read and write. InitialVolcanoState gives
/// a job that is Running with every pod Running. Copies are cheap until they change: to try
/// many events from one state, build it once and copy it.
struct VolcanoState {
  VolcanoPhase phase = VolcanoPhase::kRunning;
  int64_t retry_count = 0;  ///< status.retryCount.
  int64_t version = 0;      ///< status.version (bumped by every kill of all pods).
  VolcanoPods pods;         ///< Per task, per index.
};

/// A Running job at job version `version`: every pod of every task Running at that version.
/// Costs O(tasks).
VolcanoState InitialVolcanoState(const VolcanoJob& job, int64_t version = 0);

/// What one request did.
struct VolcanoEventOutcome {
  VolcanoRequest request;
  VolcanoMatch match;
  VolcanoPhase before = VolcanoPhase::kRunning, after = VolcanoPhase::kRunning;
  int64_t retry_count = 0;  ///< After the request.
  bool scheduled = false;   ///< The action waits for its delay (VolcanoMatch::delay_s).
  bool fired = false;       ///< A delayed action whose timeout expired (end of the step).
  std::string note;         ///< Why nothing happened, what was cancelled, ...
};

/// What one step did.
struct VolcanoStepOutcome {
  std::vector<VolcanoEventOutcome> events;  ///< Requests, then the delayed actions that fired.
  std::vector<VolcanoPhase> settled;        ///< Phases the job passed through while settling.
  VolcanoPhase phase = VolcanoPhase::kRunning;
  int64_t retry_count = 0;
};

/// One event as the user describes it (a --fail value or a scenario entry). PodSucceeded is not
/// a Volcano event but a pod phase change: it gives TaskCompleted when the task's last pod
/// succeeds and OutOfSync otherwise. TaskCompleted marks every pod of the task Succeeded.
struct VolcanoEventSpec {
  std::string task;    ///< Empty for Unknown and commands.
  int64_t index = -1;  ///< -1 = not given.
  std::string event;   ///< Or "PodSucceeded".
  bool has_exit_code = false;
  int64_t exit_code = 0;
  std::string command;  ///< A vcctl command's action (AbortJob, ResumeJob, ...).
};

/// Handles one step: each event changes its pod, becomes a request, is matched and executed (or
/// scheduled when its policy has a timeout); then the delayed actions fire; then the job settles.
/// Gives false and a message for an event that names no task of the job, an index outside the
/// task's replicas, or an event the controller cannot produce for it (the message says why).
bool ApplyVolcanoStep(const VolcanoJob& job, VolcanoState* state,
                      const std::vector<VolcanoEventSpec>& events, VolcanoStepOutcome* out,
                      std::string* error);

}  // namespace jobset
