#include "validation/volcano/why.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "validation/core/dump_history.h"
#include "validation/core/strings.h"
#include "validation/sim/duration.h"
#include "validation/volcano/defaults.h"
#include "validation/volcano/lifecycle.h"
#include "validation/volcano/replay.h"
#include "validation/volcano/text.h"
#include "validation/volcano/types.h"

namespace jobset {
namespace {

// Reasons of the events that say a pod was evicted or preempted. The kubelet's (Evicted,
// Preempting) leave the pod Failed, so the controller sees PodFailed; the others delete it, so it
// sees PodEvicted (volcano-sh/volcano@ed72c7c8, pkg/scheduler/cache/cache.go, defaultEvictor.Evict
// records "Evict" before deleting).
bool KubeletEviction(std::string_view reason) {
  return reason == "Evicted" || reason == "Preempting";
}
bool DeletingEviction(std::string_view reason) {
  return reason == "Evict" || reason == "Preempted" || reason == "TaintManagerEviction";
}

// One pod change the dump records, as the request the controller built from it.
struct Record {
  std::string pod;
  std::string uid;
  int task = -1;
  int64_t index = -1;
  int64_t version = -1;  ///< volcano.sh/job-version; -1 when unknown.
  std::string time;
  size_t order = 0;  ///< Dump order, for ties.
  VolcanoEventSpec spec;
  FailureCause cause;
  bool failure = false;  ///< PodFailed or PodEvicted (PodSucceeded is not).
  bool from_event = false;
};

// One pod instance of the job (its last copy in the dump).
struct PodView {
  const Node* pod = nullptr;
  std::string name, uid;
  int task = -1;
  int64_t index = -1;
  int64_t version = -1, retry = -1;
  std::string phase;
};

// The task and index of a pod called `<job>-<task>-<index>`; the longest task name wins.
bool TaskOfPodName(const VolcanoJob& job, std::string_view pod, int* task, int64_t* index) {
  const std::string prefix = job.name + "-";
  if (pod.size() <= prefix.size() || pod.substr(0, prefix.size()) != prefix) return false;
  std::string_view rest = pod.substr(prefix.size());
  size_t best = 0;
  bool found = false;
  for (const VolcanoTask& t : job.tasks) {
    const std::string& n = t.name;
    int64_t i = 0;
    if (rest.size() > n.size() + 1 && rest.substr(0, n.size()) == n && rest[n.size()] == '-' &&
        ParseInt64(rest.substr(n.size() + 1), &i) && i >= 0 && (!found || n.size() > best)) {
      *task = FindVolcanoTask(job, n);
      *index = i;
      best = n.size();
      found = true;
    }
  }
  return found;
}

bool BelongsToJob(const Node& pod, const VolcanoJob& job, std::string_view ns) {
  std::string_view pod_ns = ObjectNamespace(pod);
  if (!ns.empty() && !pod_ns.empty() && pod_ns != ns) return false;
  return LabelOf(pod, "volcano.sh/job-name") == job.name ||
         AnnotationOf(pod, "volcano.sh/job-name") == job.name || IsOwnedBy(pod, "Job", job.name);
}

std::string_view Either(std::string_view a, std::string_view b) { return a.empty() ? b : a; }

PodView ViewPod(const VolcanoJob& job, const Node& pod) {
  PodView v;
  v.pod = &pod;
  v.name = std::string(ObjectName(pod));
  v.uid = std::string(ObjectUid(pod));
  std::string_view task =
      Either(AnnotationOf(pod, "volcano.sh/task-spec"), LabelOf(pod, "volcano.sh/task-spec"));
  int64_t index = -1;
  bool has_index = ParseInt64(
      Either(AnnotationOf(pod, "volcano.sh/task-index"), LabelOf(pod, "volcano.sh/task-index")),
      &index);
  int from_name_task = -1;
  int64_t from_name_index = -1;
  bool named = TaskOfPodName(job, v.name, &from_name_task, &from_name_index);
  v.task = task.empty() ? from_name_task : FindVolcanoTask(job, task);
  v.index = has_index ? index : (named ? from_name_index : -1);
  ParseInt64(AnnotationOf(pod, "volcano.sh/job-version"), &v.version);
  ParseInt64(AnnotationOf(pod, "volcano.sh/job-retry-count"), &v.retry);
  v.phase = std::string(StringValue(FindPath(&pod, {"status", "phase"})));
  return v;
}

// What a Failed pod says: the first container's exit (what the controller reads), the kubelet's
// eviction, a disruption.
void DescribeFailedPod(const Node& pod, Record* r) {
  const Node* statuses = FindPath(&pod, {"status", "containerStatuses"});
  const Node* first = statuses != nullptr && statuses->is_seq() && !statuses->items.empty()
                          ? &statuses->items[0]
                          : nullptr;
  const Node* term = FindPath(first, {"state", "terminated"});
  int64_t code = 0;
  if (IntOrStringValue(FindPath(term, {"exitCode"}), &code)) {
    r->spec.has_exit_code = true;
    r->spec.exit_code = code;
  }
  r->time = std::string(StringValue(FindPath(term, {"finishedAt"})));
  std::string reason = std::string(StringValue(FindPath(&pod, {"status", "reason"})));
  std::string message = std::string(StringValue(FindPath(&pod, {"status", "message"})));
  const Node* disruption = TrueCondition(pod, "DisruptionTarget");
  if (KubeletEviction(reason) || disruption != nullptr) {
    r->cause.category = "infrastructure";
    r->cause.text =
        (KubeletEviction(reason) ? reason + " by the kubelet" + OnNodeWords(pod)
                                 : "disrupted (" + std::string(disruption->StringOr("reason")) +
                                       ")" + OnNodeWords(pod)) +
        (message.empty() ? "" : ": " + message) + "; the controller sees PodFailed";
    if (r->spec.has_exit_code) r->cause.text += " with exit code " + std::to_string(code);
    return;
  }
  r->cause.category = "application";
  std::string name = std::string(StringValue(FindPath(first, {"name"})));
  std::string container_reason = std::string(StringValue(FindPath(term, {"reason"})));
  if (r->spec.has_exit_code && code != 0) {
    r->cause.text = "container " + name + " exited with code " + std::to_string(code) +
                    (container_reason.empty() ? "" : " (" + container_reason + ")") +
                    OnNodeWords(pod);
    return;
  }
  // The first container did not fail: another did, but the controller reads only the first.
  if (statuses != nullptr && statuses->is_seq()) {
    for (size_t i = 1; i < statuses->items.size(); ++i) {
      const Node* other = FindPath(&statuses->items[i], {"state", "terminated"});
      int64_t other_code = 0;
      if (IntOrStringValue(FindPath(other, {"exitCode"}), &other_code) && other_code != 0) {
        r->cause.text = "container " +
                        std::string(StringValue(FindPath(&statuses->items[i], {"name"}))) +
                        " exited with code " + std::to_string(other_code) + OnNodeWords(pod) +
                        ", but the controller reads the first container (" + name +
                        "): exit code " + std::to_string(code);
        if (r->time.empty()) r->time = std::string(StringValue(FindPath(other, {"finishedAt"})));
        return;
      }
    }
  }
  r->cause.text =
      "pod Failed" + OnNodeWords(pod) +
      (reason.empty() ? "" : " (" + reason + (message.empty() ? "" : ": " + message) + ")") +
      ", no container exit code: the controller sees exit code 0";
}

std::string EventWords(const VolcanoEventSpec& e) {
  if (e.event == "PodFailed") return "PodFailed exit " + std::to_string(e.exit_code);
  return e.event;
}

std::string RuleWords(const VolcanoJob& job, const VolcanoMatch& m) {
  if (const VolcanoPolicy* p = MatchedPolicy(job, m)) {
    return p->path + " (" + PolicyText(*p) + ")" +
           (m.kind == VolcanoMatchKind::kWildcard ? " by its *" : "");
  }
  switch (m.kind) {
    case VolcanoMatchKind::kInternal:
      return "internal event: SyncJob";
    case VolcanoMatchKind::kStale:
      return "pod of an earlier job version: SyncJob";
    case VolcanoMatchKind::kCommand:
      return "command";
    default:
      return "no policy: SyncJob";
  }
}

bool Acted(const VolcanoMatch& m) {
  return m.action != VolcanoAction::kSyncJob && m.action != VolcanoAction::kOther;
}

std::string Retries(int64_t count, const VolcanoJob& job) {
  return "retryCount " + std::to_string(count) + " of maxRetry " + std::to_string(job.max_retry);
}

// What a step did to the job, in a few words.
std::string EffectWords(const VolcanoJob& job, VolcanoPhase before, int64_t retry_before,
                        const VolcanoStepOutcome& step, const VolcanoState& after,
                        std::string_view event) {
  const VolcanoMatch& m = step.events.empty() ? VolcanoMatch{} : step.events[0].match;
  const bool counted = step.retry_count > retry_before;
  if (step.phase == VolcanoPhase::kFailed && before != VolcanoPhase::kFailed) {
    if (counted) return "fails the job: " + Retries(step.retry_count, job) + " reached";
    if (Acted(m)) return "fails the job";
    // The sync's verdict once every pod finished (state/running.go): too few succeeded.
    const int64_t succeeded = after.pods.JobCounts()[VolcanoPodPhase::kSucceeded];
    const int64_t total = after.pods.JobCounts().Total();
    return "fails the job: every pod finished, " + std::to_string(succeeded) + " of " +
           std::to_string(total) + " succeeded (minAvailable " + std::to_string(job.min_available) +
           (job.has_min_success ? ", minSuccess " + std::to_string(job.min_success) : "") + ")";
  }
  if (counted) {
    const int64_t left = job.max_retry - 1 - step.retry_count;
    return "restarts (" + Retries(step.retry_count, job) + ", " + std::to_string(left) +
           (left == 1 ? " restart" : " restarts") + " left)";
  }
  if (step.phase != before) {
    switch (step.phase) {
      case VolcanoPhase::kCompleted:
        return "completes the job";
      case VolcanoPhase::kAborted:
        return "aborts the job";
      case VolcanoPhase::kTerminated:
        return "terminates the job";
      default:
        return "job " + std::string(VolcanoPhaseName(step.phase));
    }
  }
  if (!Acted(m)) {
    if (event == "PodFailed") return "nothing: the pod stays Failed";
    if (event == "PodEvicted") return "nothing: the pod is recreated";
    return "nothing";
  }
  return step.events.empty() || step.events[0].note.empty() ? "nothing"
                                                            : "nothing: " + step.events[0].note;
}

Health HealthOf(std::string_view phase, int64_t retry_count, bool failed_pod_now) {
  if (phase == "Completed" || phase == "Completing") return Health::kSucceeded;
  if (phase == "Failed" || phase == "Terminated" || phase == "Terminating") return Health::kFailed;
  if (phase == "Aborted" || phase == "Aborting") return Health::kSuspended;
  if (phase == "Restarting") return Health::kRestarting;
  if (phase == "Pending" && retry_count > 0) return Health::kRestarting;
  if (failed_pod_now) return Health::kStuck;
  return Health::kHealthy;
}

// The state the replay starts from: a Running job, or, when the dump holds no pod of the first
// attempt and no event-only record, the earliest attempt it shows.
VolcanoState StartState(const VolcanoJob& job, const std::vector<PodView>& pods,
                        const std::vector<Record>& records, std::vector<std::string>* notes) {
  VolcanoState s = InitialVolcanoState(job);
  int64_t retry = -1, version = -1;
  for (const PodView& p : pods) {
    if (p.retry < 0) return s;
    if (retry < 0 || p.retry < retry) {
      retry = p.retry;
      version = p.version;
    }
  }
  for (const Record& r : records)
    if (r.from_event) return s;
  if (retry <= 0) return s;
  s = InitialVolcanoState(job, std::max<int64_t>(version, 0));
  s.retry_count = retry;
  notes->push_back("the dump holds no pod of the first " + std::to_string(retry) +
                   " attempt(s): the replay starts at retryCount " + std::to_string(retry) +
                   ", job version " + std::to_string(s.version) +
                   " (record the pods with --watch to see every attempt)");
  return s;
}

// What every step of DiagnoseVolcanoJob reads: the Job decoded, what its status says, and its
// pods (the last copy of each).
struct VolcanoView {
  const Node* object = nullptr;
  const Node* status = nullptr;  ///< status, nullptr when absent.
  std::string name;
  std::string namespace_name;
  VolcanoJob job;
  std::string phase;  ///< status.state.phase, "" when absent.
  int64_t retry_count = 0;
  int64_t version = 0;
  std::vector<PodView> pods;
};

// What the replay of the pod records found, for the state line and the hazards.
struct VolcanoReplay {
  VolcanoState state;        ///< The lifecycle state after the last record replayed.
  std::string last_failure;  ///< "Pod x PodFailed exit 137 -> RestartJob: ...", for the state.
  /// Counted restarts by the event that caused them: for the restart-loop hazard.
  std::map<std::string, std::vector<std::string>> restarts_by_event;
  int64_t counted = 0;                 ///< Restarts that counted a retry.
  int64_t infra_counted = 0;           ///< ... of which followed an eviction or preemption.
  std::vector<std::string> unmatched;  ///< "Pod x (PodFailed exit 3)": failures no policy saw.
  std::vector<std::pair<std::string, int64_t>> restart_times;  ///< (failure time, next attempt)
};

// The attempt the replay is in, and whether a policy has acted on it yet.
struct OpenAttempt {
  Attempt attempt;
  bool acted = false;
};

// The last Volcano Job called `name` in `dump`, or nullptr.
const Node* FindVolcanoJob(const WorkloadDump& dump, std::string_view name) {
  const Node* object = nullptr;
  for (const Node& o : dump.objects)
    if (IsVolcanoJob(o) && ObjectName(o) == name) object = &o;
  return object;
}

// Decodes the Job and fills the identity of `d`, with a note per problem of its spec.
VolcanoView ReadVolcanoView(const Node& object, std::string_view name, Diagnosis* d) {
  VolcanoView v;
  v.object = &object;
  v.name = std::string(name);
  v.job = DecodeVolcanoJob(object);
  d->kind = kVolcanoKind;
  d->api_version = kVolcanoApiVersion;
  d->namespace_name = std::string(ObjectNamespace(object));
  d->name = v.name;
  v.namespace_name = d->namespace_name;
  for (const std::string& p : v.job.problems) d->notes.push_back("spec: " + p);
  return v;
}

// Reads the status (phase, retryCount, version) into `v` and its conditions into `d`, with a
// note for what is missing.
void ReadVolcanoStatus(VolcanoView* v, Diagnosis* d) {
  v->status = v->object->Find("status");
  const Node* status = v->status;
  if (status == nullptr || !status->is_map()) {
    d->notes.push_back("status is missing: the controller has not synced the Job yet");
  }
  v->phase = std::string(StringValue(FindPath(status, {"state", "phase"})));
  if (status != nullptr && v->phase.empty()) d->notes.push_back("status.state.phase is missing");
  IntOrStringValue(FindPath(status, {"retryCount"}), &v->retry_count);
  IntOrStringValue(FindPath(status, {"version"}), &v->version);
  if (const Node* conditions = FindSeq(status, "conditions")) {
    for (const Node& c : conditions->items) {
      std::string when = std::string(c.StringOr("lastTransitionTime"));
      d->conditions.push_back(std::string(c.StringOr("status")) +
                              (when.empty() ? "" : " since " + when));
    }
  }
}

// The pods of the job in `dump`, the last copy of each (by uid, or name and job version); a
// note in `d` when there is none.
std::vector<PodView> CollectPods(const WorkloadDump& dump, const VolcanoView& v, Diagnosis* d) {
  std::vector<PodView> pods;
  std::map<std::string, size_t> pod_by_uid;
  for (const Node* o : ObjectsOfKind(dump, "", "Pod")) {
    if (!BelongsToJob(*o, v.job, v.namespace_name)) continue;
    PodView p = ViewPod(v.job, *o);
    std::string key = p.uid.empty() ? p.name + "@" + std::to_string(p.version) : p.uid;
    if (auto it = pod_by_uid.find(key); it != pod_by_uid.end()) {
      pods[it->second] = std::move(p);  // A later copy (--watch): the newest state.
    } else {
      pod_by_uid.emplace(key, pods.size());
      pods.push_back(std::move(p));
    }
  }
  if (pods.empty()) d->notes.push_back("the dump holds no pod of the job");
  return pods;
}

// The record pod `p` makes (PodFailed, PodSucceeded or PodEvicted); false for a pod that
// changed nothing the controller reacts to.
bool RecordOfPod(const VolcanoJob& job, const PodView& p, size_t order, Record* out) {
  Record r;
  r.pod = p.name;
  r.uid = p.uid;
  r.task = p.task;
  r.index = p.index;
  r.version = p.version;
  r.order = order;
  r.spec.task = job.tasks[p.task].name;
  r.spec.index = p.index;
  const Node& pod = *p.pod;
  const std::string deleted =
      std::string(StringValue(FindPath(&pod, {"metadata", "deletionTimestamp"})));
  if (p.phase == "Failed") {
    r.spec.event = "PodFailed";
    r.failure = true;
    DescribeFailedPod(pod, &r);
  } else if (p.phase == "Succeeded") {
    r.spec.event = "PodSucceeded";
    const Node* statuses = FindSeq(pod.Find("status"), "containerStatuses");
    if (statuses != nullptr && !statuses->items.empty()) {
      r.time = std::string(
          StringValue(FindPath(&statuses->items[0], {"state", "terminated", "finishedAt"})));
    }
  } else if (!deleted.empty() && AnnotationOf(pod, "volcano.sh/controller-out-of-sync").empty()) {
    r.spec.event = "PodEvicted";
    r.failure = true;
    r.time = deleted;
    r.cause.category = "infrastructure";
    r.cause.text = "deleted by someone else than the controller" + OnNodeWords(pod);
  } else {
    return false;
  }
  if (r.time.empty()) {
    r.time = std::string(StringValue(FindPath(&pod, {"metadata", "creationTimestamp"})));
  }
  r.cause.object = "Pod " + p.name;
  *out = std::move(r);
  return true;
}

// The records the pods of `v` make, in pod order; a note in `d` per pod without task or index.
std::vector<Record> PodRecords(const VolcanoView& v, Diagnosis* d) {
  std::vector<Record> records;
  size_t order = 0;
  for (const PodView& p : v.pods) {
    ++order;
    if (p.task < 0 || p.index < 0) {
      d->notes.push_back("Pod " + p.name +
                         ": no task or index (annotation volcano.sh/task-spec): "
                         "not replayed");
      continue;
    }
    Record r;
    if (RecordOfPod(v.job, p, order, &r)) records.push_back(std::move(r));
  }
  return records;
}

// Adds the eviction events of the job's pods to `records`: evidence for a record already there
// (its cause becomes infrastructure), or the only trace of a pod no longer in the dump (a new
// record, PodFailed for the kubelet's evictions, PodEvicted for the others).
void AddEvictionEvents(const WorkloadDump& dump, const VolcanoView& v,
                       std::vector<Record>* records) {
  std::set<std::string> alive;  // The uids of the pods the dump shows.
  for (const PodView& p : v.pods)
    alive.insert(p.uid.empty() ? p.name + "@" + std::to_string(p.version) : p.uid);
  size_t order = v.pods.size();
  for (const Node& e : dump.objects) {
    if (e.StringOr("kind") != "Event") continue;
    const Node* about = EventSubject(e);
    if (about == nullptr || about->StringOr("kind") != "Pod") continue;
    std::string_view event_ns = Either(about->StringOr("namespace"), ObjectNamespace(e));
    if (!v.namespace_name.empty() && !event_ns.empty() && event_ns != v.namespace_name) continue;
    std::string reason = std::string(e.StringOr("reason"));
    if (!KubeletEviction(reason) && !DeletingEviction(reason)) continue;
    std::string pod_name = std::string(about->StringOr("name"));
    std::string uid = std::string(about->StringOr("uid"));
    int task = -1;
    int64_t index = -1;
    if (!TaskOfPodName(v.job, pod_name, &task, &index)) continue;
    std::string evidence = reason + ": " + std::string(EventNote(e));
    auto same = std::find_if(records->begin(), records->end(), [&](const Record& r) {
      return r.failure && (uid.empty() ? r.pod == pod_name : r.uid == uid);
    });
    if (same != records->end()) {
      if (same->cause.text.find(evidence) == std::string::npos)
        same->cause.text += " (event " + evidence + ")";
      same->cause.category = "infrastructure";
      continue;
    }
    if (!uid.empty() && alive.count(uid)) continue;  // A pod the dump shows alive.
    Record r;
    r.pod = pod_name;
    r.uid = uid;
    r.task = task;
    r.index = index;
    r.order = ++order;
    r.time = std::string(EventTime(e));
    r.from_event = true;
    r.failure = true;
    r.spec.task = v.job.tasks[task].name;
    r.spec.index = index;
    r.spec.event = KubeletEviction(reason) ? "PodFailed" : "PodEvicted";
    r.cause.object = "Pod " + pod_name;
    r.cause.category = "infrastructure";
    r.cause.text = evidence + (KubeletEviction(reason)
                                   ? " (the pod stays Failed: the controller sees PodFailed; the "
                                     "pod is no longer in the dump, its exit code is taken as 0)"
                                   : " (the pod is no longer in the dump)");
    records->push_back(std::move(r));
  }
}

// When attempt `attempt` started: the earliest creationTimestamp of its pods, "" when none.
std::string AttemptStart(const std::vector<PodView>& pods, int64_t attempt) {
  std::string earliest;
  for (const PodView& p : pods) {
    if (p.retry != attempt) continue;
    std::string t = std::string(StringValue(FindPath(p.pod, {"metadata", "creationTimestamp"})));
    if (!t.empty() && (earliest.empty() || KubeTimeBefore(t, earliest))) earliest = t;
  }
  return earliest;
}

// Whether record `r` is of a pod older than its task's pod at `state`: the controller treats
// its event as stale.
bool IsStale(const VolcanoState& state, const Record& r) {
  return r.version >= 0 && r.task >= 0 && r.index >= 0 && r.index < state.pods.Replicas(r.task) &&
         r.version < state.pods.Pod(r.task, r.index).version;
}

// Adds failure record `r`, replayed as `m` with `effect`, to the open attempt (its first
// failure and the first policy that acted name the attempt) and to the tallies of `replay`.
void AddFailure(const VolcanoJob& job, const Record& r, const VolcanoMatch& m, bool was_counted,
                const std::string& effect, OpenAttempt* open, VolcanoReplay* replay) {
  FailureCause cause = r.cause;
  cause.text += "; " + EventWords(r.spec) + ": " + RuleWords(job, m) + ": " + effect;
  Attempt& current = open->attempt;
  current.causes.push_back(std::move(cause));
  if (current.failed.empty()) {
    current.failed = "Pod " + r.pod;
    current.reason = EventWords(r.spec);
    current.message = r.cause.text;
  }
  if (!open->acted) {
    current.rule = RuleWords(job, m);
    current.action = m.action_text;
    current.counted = was_counted;
    open->acted = Acted(m);
  }
  if (!Acted(m) && r.spec.event == "PodFailed" && m.kind == VolcanoMatchKind::kNone) {
    replay->unmatched.push_back("Pod " + r.pod + " (" + EventWords(r.spec) + ")");
  }
  replay->last_failure =
      "Pod " + r.pod + " " + EventWords(r.spec) + " -> " + m.action_text + ": " + effect;
}

// Replays one record (already applied as `step`) into `replay` and the open attempt; closes the
// attempt into the timeline of `d` when the record ended it (a counted restart or a final
// phase) and opens the next. True when the job reached a final phase.
bool ReplayRecord(const VolcanoView& v, const Record& r, const VolcanoStepOutcome& step,
                  VolcanoPhase before, int64_t retry_before, OpenAttempt* open,
                  VolcanoReplay* replay, Diagnosis* d) {
  const VolcanoJob& job = v.job;
  const VolcanoMatch& m = step.events[0].match;
  const bool was_counted = step.retry_count > retry_before;
  std::string effect =
      EffectWords(job, before, retry_before, step, replay->state, step.events[0].request.event);
  if (r.failure) AddFailure(job, r, m, was_counted, effect, open, replay);
  if (was_counted) {
    ++replay->counted;
    if (r.cause.category == "infrastructure") ++replay->infra_counted;
    replay->restarts_by_event[EventWords(r.spec)].push_back(r.pod);
    replay->restart_times.emplace_back(r.time, step.retry_count);
  }
  const bool ended = was_counted || (step.phase != before && IsFinalVolcanoPhase(step.phase));
  if (!ended) return false;
  if (!r.failure) {
    replay->last_failure +=
        std::string(replay->last_failure.empty() ? "" : "; then ") + "Pod " + r.pod + " " +
        (r.spec.event == "PodSucceeded" ? "succeeded" : r.spec.event) + ": " + effect;
  }
  Attempt& current = open->attempt;
  current.ended = r.time;
  if (current.failed.empty()) {
    current.rule = RuleWords(job, m);
    current.action = m.action_text;
    current.counted = was_counted;
  }
  current.outcome = effect;
  d->timeline.push_back(std::move(current));
  *open = OpenAttempt{};
  open->attempt.number = replay->state.retry_count;
  open->attempt.started = AttemptStart(v.pods, replay->state.retry_count);
  return IsFinalVolcanoPhase(replay->state.phase);
}

// Replays `records` (time order) through the lifecycle engine from StartState: one attempt per
// retry on the timeline of `d` (the one that runs last unless the job ended), a note per record
// that is stale or the engine refuses.
VolcanoReplay ReplayRecords(const VolcanoView& v, const std::vector<Record>& records,
                            Diagnosis* d) {
  VolcanoReplay replay;
  replay.state = StartState(v.job, v.pods, records, &d->notes);
  OpenAttempt open;
  open.attempt.number = replay.state.retry_count;
  open.attempt.started =
      replay.state.retry_count == 0
          ? std::string(StringValue(FindPath(v.object, {"metadata", "creationTimestamp"})))
          : AttemptStart(v.pods, replay.state.retry_count);
  for (const Record& r : records) {
    if (IsStale(replay.state, r)) {
      d->notes.push_back("Pod " + r.pod + " is of job version " + std::to_string(r.version) +
                         ", older than its task's pod at that time: the controller treats its " +
                         r.spec.event + " as stale (not replayed)");
      continue;
    }
    const VolcanoPhase before = replay.state.phase;
    const int64_t retry_before = replay.state.retry_count;
    VolcanoStepOutcome step;
    std::string step_error;
    if (!ApplyVolcanoStep(v.job, &replay.state, {r.spec}, &step, &step_error)) {
      d->notes.push_back("Pod " + r.pod + " " + r.spec.event + ": " + step_error +
                         " (not replayed)");
      continue;
    }
    if (ReplayRecord(v, r, step, before, retry_before, &open, &replay, d)) break;
  }
  if (!IsFinalVolcanoPhase(replay.state.phase)) {
    open.attempt.outcome = v.phase.empty() ? "running" : "job " + v.phase;
    if (open.attempt.started.empty()) {
      open.attempt.started = AttemptStart(v.pods, open.attempt.number);
    }
    d->timeline.push_back(std::move(open.attempt));
  }
  return replay;
}

// Adds notes to `d` where the replay of `records` disagrees with the status (retryCount,
// phase): the dump misses events.
void NoteReplayAgainstStatus(const VolcanoView& v, const VolcanoReplay& replay, size_t records,
                             Diagnosis* d) {
  if (replay.state.retry_count != v.retry_count) {
    d->notes.push_back("the " + std::to_string(records) +
                       " pod events in the dump replay to retryCount " +
                       std::to_string(replay.state.retry_count) + ", the status says " +
                       std::to_string(v.retry_count) +
                       ": the dump misses events (a restart deletes the pods of the attempt; "
                       "events expire)");
  }
  if (!v.phase.empty() && VolcanoPhaseName(replay.state.phase) != v.phase &&
      !(v.phase == "Running" && replay.state.phase == VolcanoPhase::kPending)) {
    d->notes.push_back("the replay ends " + std::string(VolcanoPhaseName(replay.state.phase)) +
                       ", the status says " + v.phase);
  }
}

// The controller's own record of the actions it executed: its ExecuteAction events about Job
// `name`, counted by action (events aggregate repeats: their count).
std::map<std::string, int64_t> ExecutedActions(const WorkloadDump& dump, std::string_view name) {
  std::map<std::string, int64_t> executed;
  for (const Node* e : EventsFor(dump, "Job", name)) {
    if (e->StringOr("reason") != "ExecuteAction") continue;
    std::string_view message = e->StringOr("message");
    constexpr std::string_view kStart = "Start to execute action ";
    if (message.substr(0, kStart.size()) != kStart) continue;
    int64_t count = 1;
    IntOrStringValue(e->Find("count"), &count);
    std::string action = std::string(Trim(message.substr(kStart.size())));
    executed[action] += count;
  }
  return executed;
}

// Sets the health and the state line of `d`: the phase, its reason, retryCount against
// maxRetry, and the last failure the replay saw.
void AddHealthAndState(const VolcanoView& v, const VolcanoReplay& replay, Diagnosis* d) {
  bool failed_pod_now = false;
  for (const PodView& p : v.pods)
    failed_pod_now = failed_pod_now || (p.phase == "Failed" && p.version == v.version);
  d->health = HealthOf(v.phase, v.retry_count, v.phase == "Running" && failed_pod_now);
  d->state = (v.phase.empty() ? std::string("Unknown") : v.phase);
  std::string reason = std::string(StringValue(FindPath(v.status, {"state", "reason"})));
  std::string message = std::string(StringValue(FindPath(v.status, {"state", "message"})));
  if (!reason.empty()) d->state += " (" + reason + (message.empty() ? "" : ": " + message) + ")";
  d->state += ": " + Retries(v.retry_count, v.job);
  if (!replay.last_failure.empty()) d->state += "; last failure: " + replay.last_failure;
}

// The in-place container restarts of task `t`'s Running and Pending pods of the current job
// version.
int64_t ContainerRestarts(const VolcanoView& v, size_t t) {
  int64_t restarts = 0;
  for (const PodView& p : v.pods) {
    if (p.task != static_cast<int>(t) || p.version != v.version ||
        (p.phase != "Running" && p.phase != "Pending"))
      continue;
    for (const char* list : {"containerStatuses", "initContainerStatuses"}) {
      const Node* statuses = FindSeq(p.pod->Find("status"), list);
      if (statuses == nullptr) continue;
      for (const Node& c : statuses->items) {
        int64_t n = 0;
        if (IntOrStringValue(c.Find("restartCount"), &n)) restarts += n;
      }
    }
  }
  return restarts;
}

// Whether a policy of task `t` or of the job watches TaskFailed.
bool WatchesTaskFailed(const VolcanoJob& job, size_t t) {
  auto watches = [](const VolcanoPolicy& p) {
    return std::find(p.events.begin(), p.events.end(), "TaskFailed") != p.events.end();
  };
  return std::any_of(job.tasks[t].policies.begin(), job.tasks[t].policies.end(), watches) ||
         std::any_of(job.policies.begin(), job.policies.end(), watches);
}

// Adds the budgets to `d`: retryCount against maxRetry (with the ExecuteAction events seen), and
// each task's container restarts against its maxRetry when they are not 0 or TaskFailed is
// watched.
void AddBudgets(const VolcanoView& v, const std::map<std::string, int64_t>& executed,
                Diagnosis* d) {
  BudgetCounter retries{"", "retryCount", v.retry_count, v.job.max_retry, ""};
  retries.note =
      "a Restart* action or ResumeJob from Pending or Running counts one; the job fails "
      "when a restart brings it to maxRetry";
  if (!executed.empty()) {
    std::vector<std::string> list;
    for (const auto& [action, n] : executed) list.push_back(action + " x" + std::to_string(n));
    retries.note += "; ExecuteAction events: " + Join(list);
  }
  d->budgets.push_back(std::move(retries));
  for (size_t t = 0; t < v.job.tasks.size(); ++t) {
    const int64_t restarts = ContainerRestarts(v, t);
    if (restarts == 0 && !WatchesTaskFailed(v.job, t)) continue;
    d->budgets.push_back({v.job.tasks[t].name, "containerRestarts", restarts,
                          v.job.tasks[t].max_retry,
                          "in-place container restarts of the task's Running and Pending pods; "
                          "TaskFailed when they reach the task's maxRetry"});
  }
}

// Adds to `d` what each cell of the explain table (ExplainVolcanoJob) would do at the current
// counters; for a final or aborted job, a note instead.
void AddWhatHappensNext(const VolcanoView& v, Diagnosis* d) {
  const std::string& phase = v.phase;
  const VolcanoJob& job = v.job;
  if (phase == "Completed" || phase == "Failed" || phase == "Terminated") {
    d->notes.push_back("the job is " + phase + ": final, nothing happens next");
    return;
  }
  if (phase == "Aborted" || phase == "Aborting") {
    d->notes.push_back("the job is " + phase +
                       ": only a ResumeJob command acts (it counts a retry)");
    return;
  }
  VolcanoState now = InitialVolcanoState(job, v.version);  // Each cell starts from a copy.
  now.retry_count = v.retry_count;
  if (phase == "Pending") now.phase = VolcanoPhase::kPending;
  for (const VolcanoExplainCell& cell : ExplainVolcanoJob(job)) {
    VolcanoState s = now;
    VolcanoEventSpec e;
    if (cell.task >= 0) {
      e.task = job.tasks[cell.task].name;
      e.index = 0;
    }
    e.event = cell.event;
    e.has_exit_code = cell.event == "PodFailed";
    e.exit_code = cell.exit_code;
    VolcanoStepOutcome step;
    std::string step_error;
    if (!ApplyVolcanoStep(job, &s, {e}, &step, &step_error)) continue;
    const VolcanoMatch& m = step.events[0].match;
    NextStep n;
    n.scope = cell.task >= 0 ? job.tasks[cell.task].name : "(job)";
    n.reason = cell.other_exit_codes ? "PodFailed (other exit codes)"
               : cell.has_exit_code  ? "PodFailed exit " + std::to_string(cell.exit_code)
                                     : cell.event;
    n.rule = RuleWords(job, m);
    n.action = m.action_text + (m.delay.empty() ? "" : " after " + m.delay);
    n.counts = step.retry_count > v.retry_count;
    n.effect =
        EffectWords(job, phase == "Pending" ? VolcanoPhase::kPending : VolcanoPhase::kRunning,
                    v.retry_count, step, s, cell.event);
    d->next.push_back(std::move(n));
  }
}

// Adds the restart-loop hazards: more than one counted restart after the same PodFailed.
void AddRestartLoops(const VolcanoReplay& replay, Diagnosis* d) {
  for (const auto& [event, restarted_pods] : replay.restarts_by_event) {
    if (restarted_pods.size() < 2 || event.rfind("PodFailed", 0) != 0) continue;
    std::set<std::string> distinct(restarted_pods.begin(), restarted_pods.end());
    d->hazards.push_back(
        {"restart-loop", std::to_string(restarted_pods.size()) + " restarts after the same " +
                             event + " (" +
                             Join(std::vector<std::string>(distinct.begin(), distinct.end())) +
                             "): a restart does not change the outcome"});
  }
}

// Adds the unmatched-failure hazard: PodFailed records no policy matched, with the policies
// the job has.
void AddUnmatchedFailures(const VolcanoJob& job, const VolcanoReplay& replay, Diagnosis* d) {
  if (replay.unmatched.empty()) return;
  std::vector<std::string> named;
  for (const VolcanoTask& t : job.tasks)
    for (const VolcanoPolicy& p : t.policies) named.push_back(PolicyText(p));
  for (const VolcanoPolicy& p : job.policies) named.push_back(PolicyText(p));
  d->hazards.push_back(
      {"unmatched-failure",
       Join(replay.unmatched) + ": no policy matched (" +
           (named.empty() ? "no policies" : Join(named, "; ")) +
           "), so nothing restarted the pod; it stays Failed and counts against minAvailable"});
}

// Adds the pods-pending hazard: the pods of the current job version that are Pending, with why.
void AddPendingPods(const VolcanoView& v, Diagnosis* d) {
  std::vector<std::string> pending;
  for (const PodView& p : v.pods) {
    if (p.phase != "Pending" || p.version != v.version) continue;
    std::string why = UnscheduledReason(*p.pod);
    pending.push_back(p.name + (why.empty() ? "" : " (" + why + ")"));
  }
  if (pending.empty()) return;
  d->hazards.push_back(
      {"pods-pending", std::to_string(pending.size()) +
                           " pod(s) of the current attempt Pending: " + Join(pending)});
}

// Adds the restart-time hazard: how long the counted restarts took, from each failure to the
// first pod of the next attempt.
void AddRestartTime(const VolcanoView& v, const VolcanoReplay& replay, Diagnosis* d) {
  int64_t restart_seconds = 0;
  int timed = 0;
  for (const auto& [failed_at, attempt] : replay.restart_times) {
    int64_t seconds = 0;
    if (KubeTimeSpan(failed_at, AttemptStart(v.pods, attempt), &seconds)) {
      restart_seconds += seconds;
      ++timed;
    }
  }
  if (timed == 0) return;
  d->hazards.push_back({"restart-time", std::to_string(timed) + " restart(s) took " +
                                            FormatDuration(static_cast<double>(restart_seconds)) +
                                            " from the failure to the next attempt's pods"});
}

// Adds the hazards of the history to `d`: restart loops, restarts spent on infrastructure,
// failures no policy matched, Pending pods, and the time restarts took.
void AddHazards(const VolcanoView& v, const VolcanoReplay& replay, Diagnosis* d) {
  AddRestartLoops(replay, d);
  if (replay.infra_counted > 0) {
    d->hazards.push_back(
        {"infrastructure-restarts",
         std::to_string(replay.infra_counted) + " of " + std::to_string(replay.counted) +
             " counted restarts followed evictions or preemptions, not failures of the "
             "application: they spend maxRetry like any failure (volcano-sh/volcano#2560)"});
  }
  AddUnmatchedFailures(v.job, replay, d);
  AddPendingPods(v, d);
  AddRestartTime(v, replay, d);
}

}  // namespace

bool DiagnoseVolcanoJob(const WorkloadDump& dump, std::string_view name, Diagnosis* out,
                        std::string* error) {
  const Node* object = FindVolcanoJob(dump, name);
  if (object == nullptr) {
    *error = "no Volcano Job (" + std::string(kVolcanoApiVersion) + " Job) named '" +
             std::string(name) + "' in the dump";
    return false;
  }
  const Node* tasks_node = FindSeq(object->Find("spec"), "tasks");
  if (tasks_node == nullptr || tasks_node->items.empty()) {
    *error = "Volcano Job " + std::string(name) + ": spec.tasks is missing or empty";
    return false;
  }
  Diagnosis d;
  VolcanoView view = ReadVolcanoView(*object, name, &d);
  ReadVolcanoStatus(&view, &d);
  view.pods = CollectPods(dump, view, &d);
  std::vector<Record> records = PodRecords(view, &d);
  AddEvictionEvents(dump, view, &records);
  std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
    if (a.time != b.time) return KubeTimeBefore(a.time, b.time);
    return a.order < b.order;
  });
  const VolcanoReplay replay = ReplayRecords(view, records, &d);
  NoteReplayAgainstStatus(view, replay, records.size(), &d);
  AddHealthAndState(view, replay, &d);
  AddBudgets(view, ExecutedActions(dump, name), &d);
  AddWhatHappensNext(view, &d);
  AddHazards(view, replay, &d);
  *out = std::move(d);
  return true;
}

}  // namespace jobset
