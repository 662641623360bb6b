#include "validation/volcano/lifecycle.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace jobset {

// --- Events and actions -----------------------------------------------------------------------

const std::vector<std::string_view>& VolcanoEvents() {
  static const std::vector<std::string_view> events = {
      "PodPending",    "PodRunning", "PodFailed",     "PodEvicted", "Unknown",
      "TaskCompleted", "OutOfSync",  "CommandIssued", "JobUpdated", "TaskFailed"};
  return events;
}

bool IsVolcanoEvent(std::string_view event) {
  const auto& all = VolcanoEvents();
  return event == "*" || std::find(all.begin(), all.end(), event) != all.end();
}

bool IsInternalVolcanoEvent(std::string_view event) {
  return event == "OutOfSync" || event == "CommandIssued" || event == "PodRunning";
}

namespace {

struct ActionEntry {
  std::string_view name;
  VolcanoAction action;
};

constexpr ActionEntry kActions[] = {
    {"AbortJob", VolcanoAction::kAbortJob},
    {"RestartJob", VolcanoAction::kRestartJob},
    {"RestartTask", VolcanoAction::kRestartTask},
    {"RestartPod", VolcanoAction::kRestartPod},
    {"RestartPartition", VolcanoAction::kRestartPartition},
    {"TerminateJob", VolcanoAction::kTerminateJob},
    {"CompleteJob", VolcanoAction::kCompleteJob},
    {"ResumeJob", VolcanoAction::kResumeJob},
    {"SyncJob", VolcanoAction::kSyncJob},
};

}  // namespace

std::string_view VolcanoActionName(VolcanoAction action) {
  for (const ActionEntry& e : kActions) {
    if (e.action == action) return e.name;
  }
  return "Other";
}

VolcanoAction ParseVolcanoAction(std::string_view text) {
  for (const ActionEntry& e : kActions) {
    if (e.name == text) return e.action;
  }
  return VolcanoAction::kOther;
}

const std::vector<std::string_view>& VolcanoPolicyActions() {
  static const std::vector<std::string_view> actions = [] {
    std::vector<std::string_view> v;
    for (const ActionEntry& e : kActions) {
      if (e.action != VolcanoAction::kSyncJob) v.push_back(e.name);
    }
    return v;
  }();
  return actions;
}

bool IsVolcanoRestart(VolcanoAction action) {
  return action == VolcanoAction::kRestartJob || action == VolcanoAction::kRestartTask ||
         action == VolcanoAction::kRestartPod || action == VolcanoAction::kRestartPartition;
}

// --- Matching ---------------------------------------------------------------------------------

namespace {

// applyPolicies' scan of one policy list, through its index: the first policy that names the
// request's event or `*` (PodPending only with a timeout), or its exit code; true when one fired.
bool Scan(const std::vector<VolcanoPolicy>& policies, const VolcanoPolicyIndex& index,
          const VolcanoRequest& r, int task, VolcanoMatch* m) {
  constexpr int kNone = VolcanoPolicyIndex::kNone;
  int by_event = kNone;
  bool named = false;
  if (!r.event.empty()) {
    auto it = index.first_named.find(r.event);
    const int first_named = it == index.first_named.end() ? kNone : it->second;
    const int star = r.event == "PodPending" ? index.first_star_timeout : index.first_star;
    by_event = std::min(first_named, star);
    named = first_named <= star;
  }
  auto code = index.first_code.find(r.exit_code);
  const int by_code = code == index.first_code.end() ? kNone : code->second;
  const int i = std::min(by_event, by_code);
  if (i == kNone) return false;
  const VolcanoPolicy& p = policies[i];
  m->kind = i == by_event ? (named ? VolcanoMatchKind::kEvent : VolcanoMatchKind::kWildcard)
                          : VolcanoMatchKind::kExitCode;
  m->task = task;
  m->policy = i;
  m->action_text = p.action;
  m->action = ParseVolcanoAction(p.action);
  m->delay_s = p.has_timeout ? p.timeout_s : 0;
  m->delay = p.has_timeout ? p.timeout : "";
  return true;
}

}  // namespace

const VolcanoPolicy* MatchedPolicy(const VolcanoJob& job, const VolcanoMatch& m) {
  if (m.policy < 0) return nullptr;
  return m.task >= 0 ? &job.tasks[m.task].policies[m.policy] : &job.policies[m.policy];
}

VolcanoMatch MatchVolcanoPolicy(const VolcanoJob& job, const VolcanoRequest& request) {
  VolcanoMatch m;
  if (!request.command.empty()) {
    m.kind = VolcanoMatchKind::kCommand;
    m.action_text = request.command;
    m.action = ParseVolcanoAction(request.command);
    return m;
  }
  if (IsInternalVolcanoEvent(request.event)) {
    m.kind = VolcanoMatchKind::kInternal;
    return m;
  }
  if (request.stale) {
    m.kind = VolcanoMatchKind::kStale;
    return m;
  }
  if (request.task >= 0 && request.task < static_cast<int>(job.tasks.size())) {
    int first = FindVolcanoTask(job, job.tasks[request.task].name);
    const VolcanoTask& t = job.tasks[first];
    if (Scan(t.policies, t.policy_index, request, first, &m)) return m;
  }
  Scan(job.policies, job.policy_index, request, -1, &m);
  return m;
}

// --- The state machine ------------------------------------------------------------------------

std::string_view VolcanoPhaseName(VolcanoPhase phase) {
  static constexpr std::string_view names[] = {
      "Pending",     "Running",    "Restarting", "Aborting",  "Aborted",
      "Terminating", "Terminated", "Completing", "Completed", "Failed"};
  return names[static_cast<int>(phase)];
}

bool IsFinalVolcanoPhase(VolcanoPhase phase) {
  return phase == VolcanoPhase::kCompleted || phase == VolcanoPhase::kTerminated ||
         phase == VolcanoPhase::kFailed;
}

VolcanoState InitialVolcanoState(const VolcanoJob& job, int64_t version) {
  VolcanoState s;
  s.version = version;
  s.pods = VolcanoPods(job, version);
  return s;
}

namespace {

using Phase = VolcanoPhase;
using PodPhase = VolcanoPodPhase;

// Kill every pod (state/*.go "killJob"): soft or not, Succeeded and Failed pods may be kept.
void KillAll(VolcanoState* s, bool keep_finished) {
  if (keep_finished) {
    s->pods.KillAlive();
  } else {
    s->pods.KillAll();
  }
  ++s->version;
}

// The pods a target action acts on: [first, last) of `task`.
std::pair<int64_t, int64_t> TargetRange(const VolcanoJob& job, const VolcanoState& s,
                                        VolcanoAction a, const VolcanoRequest& r) {
  int64_t n = s.pods.Replicas(r.task);
  if (a == VolcanoAction::kRestartTask || r.index < 0) return {0, n};
  const VolcanoTask& t = job.tasks[r.task];
  if (a == VolcanoAction::kRestartPartition && t.has_partition && t.partition.partition_size > 0) {
    int64_t first = r.index / t.partition.partition_size * t.partition.partition_size;
    return {first, std::min(n, first + t.partition.partition_size)};
  }
  return {r.index, r.index + 1};  // RestartPod; RestartPartition without a partition policy.
}

// "killTarget" (state/*.go): the task's, pod's or partition's pods; the PodGroup and version stay.
void KillTarget(const VolcanoJob& job, VolcanoState* s, VolcanoAction a, const VolcanoRequest& r) {
  if (r.task < 0) return;  // Unknown carries no task: nothing to target.
  auto [first, last] = TargetRange(job, *s, a, r);
  if (first == 0 && last == s->pods.Replicas(r.task)) {
    s->pods.KillTask(r.task);
  } else if (last - first > 1) {
    s->pods.KillPartition(r.task, first / job.tasks[r.task].partition.partition_size);
  } else if (last > first) {
    s->pods.SetPod(r.task, first, {PodPhase::kDeleted, s->pods.Pod(r.task, first).version});
  }
}

// Recreates the missing pods at the current version; they run (the cluster schedules them).
void CreateMissing(VolcanoState* s) { s->pods.Recreate(s->version); }

// Pending/Running states, any other action: sync, then the phase checks.
void Sync(const VolcanoJob& job, VolcanoState* s) {
  CreateMissing(s);
  const VolcanoPodCounts& c = s->pods.JobCounts();
  const int64_t total = c.Total(), succeeded = c[PodPhase::kSucceeded];
  const int64_t failed = c[PodPhase::kFailed];
  if (s->phase == Phase::kPending) {
    if (job.min_available <= c[PodPhase::kRunning] + succeeded + failed) {
      s->phase = Phase::kRunning;
    }
    return;
  }
  if (total == 0) return;
  if (job.has_min_success && succeeded >= job.min_success) {
    s->phase = Phase::kCompleted;
  } else if (succeeded + failed == total) {
    const int64_t task_min = s->pods.MinAvailableSum();
    const bool short_task = s->pods.ShortTasks() > 0;
    if (job.min_available >= task_min && short_task) {
      s->phase = Phase::kFailed;
    } else if (job.has_min_success && succeeded < job.min_success) {
      s->phase = Phase::kFailed;
    } else {
      s->phase = succeeded >= job.min_available ? Phase::kCompleted : Phase::kFailed;
    }
  } else if (c[PodPhase::kPending] > total - job.min_available) {
    s->phase = Phase::kPending;
  }
}

// The Restarting state's check (state/restarting.go): the budget is spent -> Failed (pods kept as
// they are).
void RestartingCheck(const VolcanoJob& job, VolcanoState* s) {
  if (s->retry_count >= job.max_retry) s->phase = Phase::kFailed;
}

enum class Granularity : uint8_t { kNone, kJob, kTask, kPod, kPartition };

Granularity GranularityOf(VolcanoAction a) {
  switch (a) {
    case VolcanoAction::kAbortJob:
    case VolcanoAction::kRestartJob:
    case VolcanoAction::kTerminateJob:
    case VolcanoAction::kCompleteJob:
    case VolcanoAction::kResumeJob:
      return Granularity::kJob;
    case VolcanoAction::kRestartTask:
      return Granularity::kTask;
    case VolcanoAction::kRestartPod:
      return Granularity::kPod;
    case VolcanoAction::kRestartPartition:
      return Granularity::kPartition;
    default:
      return Granularity::kNone;
  }
}

// An action waiting for its policy's timeout.
struct VolcanoDelayed {
  VolcanoRequest request;
  VolcanoMatch match;
};

// What an action of granularity `g` acts on for request `r`: two actions of the same target
// cancel each other's delayed runs. (granularity, task, first pod, last pod); nullopt for none.
using Target = std::tuple<Granularity, int, int64_t, int64_t>;

std::optional<Target> TargetOf(const VolcanoJob& job, const VolcanoState& s, VolcanoAction a,
                               const VolcanoRequest& r) {
  const Granularity g = GranularityOf(a);
  switch (g) {
    case Granularity::kNone:
      return std::nullopt;
    case Granularity::kJob:
      return Target{g, 0, 0, 0};
    case Granularity::kTask:
      return Target{g, r.task, 0, 0};
    case Granularity::kPod:
      return Target{g, r.task, r.index, 0};
    case Granularity::kPartition:
      if (r.task < 0) return std::nullopt;
      auto [first, last] = TargetRange(job, s, a, r);
      return Target{g, r.task, first, last};
  }
  return std::nullopt;
}

// The delayed actions of a step, in the order they were scheduled (they all fire at its end,
// so none outlives it), indexed by pod and by target: cancelling costs what it cancels, not
// every action that waits.
class DelayedActions {
 public:
  bool Empty() const { return live_ == 0; }

  // True when `action_text` already waits for r's pod.
  bool Waiting(const VolcanoRequest& r, const std::string& action_text) {
    bool waiting = false;
    ForPod(r, [&](const VolcanoDelayed& d) {
      waiting = waiting || d.match.action_text == action_text;
      return false;
    });
    return waiting;
  }

  void Add(const VolcanoJob& job, const VolcanoState& s, VolcanoDelayed d) {
    const size_t at = items_.size();
    by_pod_[PodKey(d.request)].push_back(at);
    if (auto target = TargetOf(job, s, d.match.action, d.request))
      by_target_[*target].push_back(at);
    items_.push_back(std::move(d));
    alive_.push_back(true);
    ++live_;
  }

  // Cancels the actions waiting for r's pod that `cancel` picks; how many.
  template <typename Pick>
  size_t CancelForPod(const VolcanoRequest& r, Pick cancel) {
    return ForPod(r, cancel);
  }

  // Cancels the actions of `target`; how many.
  size_t CancelTarget(const Target& target) {
    auto it = by_target_.find(target);
    if (it == by_target_.end()) return 0;
    size_t n = 0;
    for (size_t at : it->second) n += Kill(at);
    by_target_.erase(it);
    return n;
  }

  // The first action still waiting, removed.
  VolcanoDelayed PopFront() {
    while (!alive_[next_]) ++next_;
    Kill(next_);
    return std::move(items_[next_++]);
  }

 private:
  static uint64_t PodKey(const VolcanoRequest& r) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(r.task)) << 32) |
           static_cast<uint32_t>(r.index);
  }
  size_t Kill(size_t at) {
    if (!alive_[at]) return 0;
    alive_[at] = false;
    --live_;
    return 1;
  }
  // Calls `f` on each action waiting for r's pod, cancelling those it returns true for, and
  // drops the cancelled and fired ones from the pod's list; how many were cancelled.
  template <typename F>
  size_t ForPod(const VolcanoRequest& r, F f) {
    auto it = by_pod_.find(PodKey(r));
    if (it == by_pod_.end()) return 0;
    size_t n = 0;
    std::erase_if(it->second, [&](size_t at) {
      if (!alive_[at]) return true;
      if (!f(items_[at])) return false;
      n += Kill(at);
      return true;
    });
    return n;
  }

  std::vector<VolcanoDelayed> items_;
  std::vector<bool> alive_;
  size_t live_ = 0, next_ = 0;
  std::unordered_map<uint64_t, std::vector<size_t>> by_pod_;
  std::map<Target, std::vector<size_t>> by_target_;
};

// Runs `a` in the current phase (pkg/controllers/job/state); then cancels delayed actions of the
// same granularity and target.
void Execute(const VolcanoJob& job, VolcanoState* s, DelayedActions* delayed, VolcanoAction a,
             const VolcanoRequest& r, std::string* note) {
  const bool target = a == VolcanoAction::kRestartTask || a == VolcanoAction::kRestartPod ||
                      a == VolcanoAction::kRestartPartition;
  switch (s->phase) {
    case Phase::kPending:
    case Phase::kRunning:
      if (a == VolcanoAction::kRestartJob) {
        // On the last retry the finished pods are kept anyway.
        KillAll(s, s->retry_count >= job.max_retry - 1);
        ++s->retry_count;
        s->phase = Phase::kRestarting;
      } else if (target) {
        KillTarget(job, s, a, r);
        ++s->retry_count;
        s->phase = Phase::kRestarting;
      } else if (a == VolcanoAction::kAbortJob) {
        KillAll(s, true);
        s->phase = Phase::kAborting;
      } else if (a == VolcanoAction::kTerminateJob) {
        KillAll(s, true);
        s->phase = Phase::kTerminating;
      } else if (a == VolcanoAction::kCompleteJob) {
        KillAll(s, true);
        s->phase = Phase::kCompleting;
      } else {
        Sync(job, s);
      }
      break;
    case Phase::kRestarting:
      if (target) {
        KillTarget(job, s, a, r);
      } else if (a != VolcanoAction::kSyncJob && a != VolcanoAction::kOther) {
        KillAll(s, false);
      }
      if (IsVolcanoRestart(a)) *note = "already Restarting: no retry counted";
      RestartingCheck(job, s);
      break;
    case Phase::kAborting:
    case Phase::kAborted:
      if (a == VolcanoAction::kResumeJob) {
        if (s->phase == Phase::kAborting) KillAll(s, true);
        ++s->retry_count;
        s->phase = Phase::kRestarting;
      } else {
        *note = "job " + std::string(VolcanoPhaseName(s->phase)) + ": only ResumeJob acts";
      }
      break;
    case Phase::kCompleting:
    case Phase::kTerminating:
      *note = "job " + std::string(VolcanoPhaseName(s->phase)) + ": the action is not taken";
      break;
    case Phase::kCompleted:
    case Phase::kTerminated:
    case Phase::kFailed:
      *note = "job already " + std::string(VolcanoPhaseName(s->phase)) + ": nothing happens";
      break;
  }
  const std::optional<Target> acted_on = TargetOf(job, *s, a, r);
  if (!acted_on) return;
  if (size_t n = delayed->CancelTarget(*acted_on)) {
    *note += std::string(note->empty() ? "" : "; ") + "cancels " + std::to_string(n) +
             " delayed action(s)";
  }
}

bool IsPodEvent(std::string_view e) {
  return e == "PodFailed" || e == "PodEvicted" || e == "PodPending" || e == "PodRunning" ||
         e == "PodSucceeded";
}

// Checks one event against the job; fills the request's task and index.
bool Resolve(const VolcanoJob& job, const VolcanoEventSpec& e, VolcanoRequest* r,
             std::string* error) {
  if (!e.command.empty()) {
    const auto& ok = VolcanoPolicyActions();
    if (std::find(ok.begin(), ok.end(), e.command) == ok.end()) {
      *error = "command '" + e.command + "' is not an action a command can carry";
      return false;
    }
    r->command = e.command;
    return true;
  }
  if (e.event == "*") {
    *error = "* is a wildcard of policies, not an event the controller sends";
    return false;
  }
  if (e.event == "JobUpdated") {
    *error =
        "JobUpdated is never emitted by the controller (a spec update gives OutOfSync): a "
        "policy on it never fires";
    return false;
  }
  if (e.event == "CommandIssued") {
    *error = "CommandIssued is internal: write the command as Command:ACTION";
    return false;
  }
  if (!IsVolcanoEvent(e.event) && e.event != "PodSucceeded") {
    *error = "'" + e.event + "' is not a Volcano event";
    return false;
  }
  if (e.has_exit_code && e.event != "PodFailed") {
    *error = "only PodFailed carries an exit code";
    return false;
  }
  r->event = e.event;
  r->exit_code = e.exit_code;
  if (e.event == "Unknown") {
    if (!e.task.empty()) {
      *error = "Unknown is a PodGroup event: it names no task (write it alone: Unknown)";
      return false;
    }
    return true;
  }
  if (e.task.empty()) {
    if (e.event == "OutOfSync") return true;
    *error = e.event + " needs a task: TASK/INDEX:" + e.event;
    return false;
  }
  r->task = FindVolcanoTask(job, e.task);
  if (r->task < 0) {
    std::string names;
    for (const VolcanoTask& t : job.tasks) names += (names.empty() ? "" : ", ") + t.name;
    *error = "no task '" + e.task + "' (tasks: " + names + ")";
    return false;
  }
  int64_t replicas = job.tasks[r->task].replicas;
  if (e.index < 0 && IsPodEvent(e.event)) {
    *error = e.event + " happens to one pod: write " + e.task + "/INDEX:" + e.event;
    return false;
  }
  if (e.index >= replicas || (e.index < 0 && replicas <= 0)) {
    *error = e.task + "/" + std::to_string(std::max<int64_t>(e.index, 0)) + " is outside its " +
             std::to_string(replicas) + " replicas";
    return false;
  }
  // A task event without an index: the request names the task's first pod.
  r->index = e.index < 0 ? 0 : e.index;
  return true;
}

// Changes the pod the event is about, as the pod update behind it did, and records the pod's
// job version in the request. Gives false with a note when the change cannot happen (the
// controller would see no event).
bool ChangePod(const VolcanoJob& job, VolcanoState* s, VolcanoRequest* r, std::string* note) {
  r->version = s->version;
  if (r->task < 0 || r->event.empty()) return true;
  if (r->event == "TaskCompleted") {
    s->pods.CompleteTask(r->task, s->version);
    return true;
  }
  VolcanoPod pod = s->pods.Pod(r->task, r->index);
  r->version = pod.version;
  if (r->event == "TaskFailed" || r->event == "OutOfSync") return true;
  auto no_event = [&](std::string_view what) {
    *note = "pod is " + std::string(VolcanoPodPhaseName(pod.phase)) + ": " + std::string(what);
    return false;
  };
  const bool alive = pod.phase == PodPhase::kPending || pod.phase == PodPhase::kRunning;
  if (r->event == "PodFailed") {
    if (!alive) return no_event("it cannot fail");
    pod.phase = PodPhase::kFailed;
  } else if (r->event == "PodEvicted") {
    if (pod.phase == PodPhase::kDeleted) return no_event("nothing to evict");
    pod.phase = PodPhase::kDeleted;
  } else if (r->event == "PodPending") {
    if (pod.phase == PodPhase::kDeleted) {
      pod = VolcanoPod{PodPhase::kPending, s->version};  // Recreated, and stays Pending.
      r->version = pod.version;
    } else if (pod.phase == PodPhase::kRunning) {
      pod.phase = PodPhase::kPending;
    } else {
      return no_event("it does not become Pending again");
    }
  } else if (r->event == "PodRunning") {
    if (pod.phase != PodPhase::kPending) return no_event("only a Pending pod starts Running");
    pod.phase = PodPhase::kRunning;
  } else if (r->event == "PodSucceeded") {
    if (!alive) return no_event("it cannot succeed");
    pod.phase = PodPhase::kSucceeded;
    s->pods.SetPod(r->task, r->index, pod);
    const int64_t ok = s->pods.TaskCounts(r->task)[PodPhase::kSucceeded];
    const bool last = ok >= job.tasks[r->task].replicas;
    r->event = last ? "TaskCompleted" : "OutOfSync";
    *note = last ? "PodSucceeded: the task's last pod succeeded" : "PodSucceeded";
    return true;
  }
  s->pods.SetPod(r->task, r->index, pod);
  return true;
}

void Append(std::string* note, const std::string& more) {
  if (more.empty()) return;
  *note += (note->empty() ? "" : "; ") + more;
}

// Delayed actions: a later event of the same pod cancels what waited on it.
void CancelByPodEvent(DelayedActions* delayed, const VolcanoRequest& r, std::string* note) {
  if (r.task < 0 || r.index < 0 || r.event.empty()) return;
  const size_t n = delayed->CancelForPod(r, [&](const VolcanoDelayed& d) {
    if (d.request.event == "PodPending") return r.event != "PodPending";
    return r.event == "PodRunning" &&
           (d.request.event == "PodFailed" || d.request.event == "PodEvicted");
  });
  if (n > 0) {
    Append(note, "cancels " + std::to_string(n) + " delayed action(s) waiting on this pod");
  }
}

// The controller settles after a step (pkg/controllers/job/state): deleted pods are gone, the
// transient phases move on, pods to recreate are created and run.
void Settle(const VolcanoJob& job, VolcanoState* s, std::vector<VolcanoPhase>* path) {
  for (int guard = 0; guard < 8; ++guard) {
    Phase before = s->phase;
    switch (s->phase) {
      case Phase::kRestarting:
        RestartingCheck(job, s);
        if (s->phase == Phase::kRestarting) {
          s->phase = Phase::kPending;
          CreateMissing(s);
        }
        break;
      case Phase::kAborting:
        s->phase = Phase::kAborted;
        break;
      case Phase::kCompleting:
        s->phase = Phase::kCompleted;
        break;
      case Phase::kTerminating:
        s->phase = Phase::kTerminated;
        break;
      case Phase::kPending:
      case Phase::kRunning:
        Sync(job, s);
        break;
      default:
        break;
    }
    if (s->phase == before) break;
    path->push_back(s->phase);
  }
  if (IsFinalVolcanoPhase(s->phase)) {
    // kill(soft): what still runs is deleted; finished pods are kept.
    s->pods.KillAlive();
  }
}

}  // namespace

bool ApplyVolcanoStep(const VolcanoJob& job, VolcanoState* state,
                      const std::vector<VolcanoEventSpec>& events, VolcanoStepOutcome* out,
                      std::string* error) {
  std::vector<VolcanoRequest> requests;
  for (const VolcanoEventSpec& e : events) {
    VolcanoRequest r;
    if (!Resolve(job, e, &r, error)) return false;
    requests.push_back(std::move(r));
  }
  // The pods changed before the controller reacts: every request carries the job version of
  // its pod at that moment, so a request of a pod that a restart of this step killed is stale.
  std::vector<VolcanoEventOutcome> outcomes(requests.size());
  std::vector<bool> happened(requests.size());
  DelayedActions delayed;
  for (size_t i = 0; i < requests.size(); ++i) {
    happened[i] = ChangePod(job, state, &requests[i], &outcomes[i].note);
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    VolcanoRequest& r = requests[i];
    VolcanoEventOutcome& o = outcomes[i];
    o.before = state->phase;
    if (!happened[i]) {
      Append(&o.note, "no event");
    } else {
      r.stale = r.task >= 0 && r.version < state->version;
      CancelByPodEvent(&delayed, r, &o.note);
      o.match = MatchVolcanoPolicy(job, r);
      if (o.match.delay_s > 0) {
        if (delayed.Waiting(r, o.match.action_text)) {
          Append(&o.note, "the same action already waits for this pod: ignored");
        } else {
          delayed.Add(job, *state, {r, o.match});
          o.scheduled = true;
        }
      } else {
        std::string note;
        Execute(job, state, &delayed, o.match.action, r, &note);
        Append(&o.note, note);
      }
    }
    o.request = std::move(r);
    o.after = state->phase;
    o.retry_count = state->retry_count;
    out->events.push_back(std::move(o));
  }
  // The timeouts expire: what still waits fires, in the order it was scheduled.
  while (!delayed.Empty()) {
    VolcanoDelayed d = delayed.PopFront();
    VolcanoEventOutcome o;
    o.request = d.request;
    o.match = d.match;
    o.fired = true;
    o.before = state->phase;
    Execute(job, state, &delayed, d.match.action, d.request, &o.note);
    o.after = state->phase;
    o.retry_count = state->retry_count;
    out->events.push_back(std::move(o));
  }
  Settle(job, state, &out->settled);
  out->phase = state->phase;
  out->retry_count = state->retry_count;
  return true;
}

}  // namespace jobset
