#include "validation/volcano/why.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "validation/core/strings.h"
#include "validation/sim/duration.h"
#include "validation/volcano/defaults.h"
#include "validation/volcano/lifecycle.h"
#include "validation/volcano/replay.h"
#include "validation/volcano/types.h"

namespace jobset {
namespace {

std::string Text(const Node* n) { return n != nullptr && n->is_string() ? n->text : ""; }

// An integer, or a string holding one (annotations are strings).
bool ReadInt(const Node* n, int64_t* out) {
  if (n == nullptr) return false;
  if (n->is_int()) {
    *out = n->integer;
    return true;
  }
  if (!n->is_string() || n->text.empty()) return false;
  auto [p, ec] = std::from_chars(n->text.data(), n->text.data() + n->text.size(), *out);
  return ec == std::errc() && p == n->text.data() + n->text.size();
}

bool ReadInt(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && p == text.data() + text.size();
}

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
        ReadInt(rest.substr(n.size() + 1), &i) && i >= 0 && (!found || n.size() > best)) {
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
  bool has_index = ReadInt(
      Either(AnnotationOf(pod, "volcano.sh/task-index"), LabelOf(pod, "volcano.sh/task-index")),
      &index);
  int from_name_task = -1;
  int64_t from_name_index = -1;
  bool named = TaskOfPodName(job, v.name, &from_name_task, &from_name_index);
  v.task = task.empty() ? from_name_task : FindVolcanoTask(job, task);
  v.index = has_index ? index : (named ? from_name_index : -1);
  ReadInt(AnnotationOf(pod, "volcano.sh/job-version"), &v.version);
  ReadInt(AnnotationOf(pod, "volcano.sh/job-retry-count"), &v.retry);
  v.phase = Text(FindPath(&pod, {"status", "phase"}));
  return v;
}

std::string NodeWords(const Node& pod) {
  std::string node = Text(FindPath(&pod, {"spec", "nodeName"}));
  return node.empty() ? "" : " on node " + node;
}

// The condition of `type` with status True, or nullptr.
const Node* TrueCondition(const Node& pod, std::string_view type) {
  const Node* conditions = FindPath(&pod, {"status", "conditions"});
  if (conditions == nullptr || !conditions->is_seq()) return nullptr;
  for (const Node& c : conditions->items) {
    if (c.StringOr("type") == type && c.StringOr("status") == "True") return &c;
  }
  return nullptr;
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
  if (ReadInt(FindPath(term, {"exitCode"}), &code)) {
    r->spec.has_exit_code = true;
    r->spec.exit_code = code;
  }
  r->time = Text(FindPath(term, {"finishedAt"}));
  std::string reason = Text(FindPath(&pod, {"status", "reason"}));
  std::string message = Text(FindPath(&pod, {"status", "message"}));
  const Node* disruption = TrueCondition(pod, "DisruptionTarget");
  if (KubeletEviction(reason) || disruption != nullptr) {
    r->cause.category = "infrastructure";
    r->cause.text =
        (KubeletEviction(reason)
             ? reason + " by the kubelet" + NodeWords(pod)
             : "disrupted (" + std::string(disruption->StringOr("reason")) + ")" + NodeWords(pod)) +
        (message.empty() ? "" : ": " + message) + "; the controller sees PodFailed";
    if (r->spec.has_exit_code) r->cause.text += " with exit code " + std::to_string(code);
    return;
  }
  r->cause.category = "application";
  std::string name = Text(FindPath(first, {"name"}));
  std::string container_reason = Text(FindPath(term, {"reason"}));
  if (r->spec.has_exit_code && code != 0) {
    r->cause.text = "container " + name + " exited with code " + std::to_string(code) +
                    (container_reason.empty() ? "" : " (" + container_reason + ")") +
                    NodeWords(pod);
    return;
  }
  // The first container did not fail: another did, but the controller reads only the first.
  if (statuses != nullptr && statuses->is_seq()) {
    for (size_t i = 1; i < statuses->items.size(); ++i) {
      const Node* other = FindPath(&statuses->items[i], {"state", "terminated"});
      int64_t other_code = 0;
      if (ReadInt(FindPath(other, {"exitCode"}), &other_code) && other_code != 0) {
        r->cause.text = "container " + Text(FindPath(&statuses->items[i], {"name"})) +
                        " exited with code " + std::to_string(other_code) + NodeWords(pod) +
                        ", but the controller reads the first container (" + name +
                        "): exit code " + std::to_string(code);
        if (r->time.empty()) r->time = Text(FindPath(other, {"finishedAt"}));
        return;
      }
    }
  }
  r->cause.text =
      "pod Failed" + NodeWords(pod) +
      (reason.empty() ? "" : " (" + reason + (message.empty() ? "" : ": " + message) + ")") +
      ", no container exit code: the controller sees exit code 0";
}

std::string EventWords(const VolcanoEventSpec& e) {
  if (e.event == "PodFailed") return "PodFailed exit " + std::to_string(e.exit_code);
  return e.event;
}

std::string PolicyText(const VolcanoPolicy& p) {
  std::string events;
  for (const std::string& e : p.events) events += (events.empty() ? "" : ",") + e;
  if (p.has_exit_code)
    events += (events.empty() ? "" : ",") + ("exitCode " + std::to_string(p.exit_code));
  return events + " -> " + (p.action.empty() ? "\"\"" : p.action) +
         (p.timeout.empty() ? "" : " after " + p.timeout);
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

// The time of `a` before `b` (parsed when both parse, else as text).
bool Earlier(const std::string& a, const std::string& b) {
  int64_t ta = 0, tb = 0;
  if (ParseKubeTime(a, &ta) && ParseKubeTime(b, &tb)) return ta < tb;
  return a < b;
}

std::optional<int64_t> Seconds(std::string_view t) {
  int64_t s = 0;
  if (!ParseKubeTime(t, &s)) return std::nullopt;
  return s;
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

}  // namespace

bool DiagnoseVolcanoJob(const WorkloadDump& dump, std::string_view name, Diagnosis* out,
                        std::string* error) {
  const Node* object = nullptr;
  for (const Node& o : dump.objects)
    if (IsVolcanoJob(o) && ObjectName(o) == name) object = &o;
  if (object == nullptr) {
    *error = "no Volcano Job (" + std::string(kVolcanoApiVersion) + " Job) named '" +
             std::string(name) + "' in the dump";
    return false;
  }
  const Node* tasks_node = FindPath(object, {"spec", "tasks"});
  if (tasks_node == nullptr || !tasks_node->is_seq() || tasks_node->items.empty()) {
    *error = "Volcano Job " + std::string(name) + ": spec.tasks is missing or empty";
    return false;
  }
  const VolcanoJob job = DecodeVolcanoJob(*object);
  Diagnosis d;
  d.kind = kVolcanoKind;
  d.api_version = kVolcanoApiVersion;
  d.namespace_name = std::string(ObjectNamespace(*object));
  d.name = std::string(name);
  for (const std::string& p : job.problems) d.notes.push_back("spec: " + p);

  // --- Status ---------------------------------------------------------------------------------
  const Node* status = object->Find("status");
  if (status == nullptr || !status->is_map()) {
    d.notes.push_back("status is missing: the controller has not synced the Job yet");
  }
  std::string phase = Text(FindPath(status, {"state", "phase"}));
  if (status != nullptr && phase.empty()) d.notes.push_back("status.state.phase is missing");
  int64_t retry_count = 0, version = 0;
  ReadInt(FindPath(status, {"retryCount"}), &retry_count);
  ReadInt(FindPath(status, {"version"}), &version);
  if (const Node* conditions = FindPath(status, {"conditions"});
      conditions && conditions->is_seq()) {
    for (const Node& c : conditions->items) {
      std::string when = std::string(c.StringOr("lastTransitionTime"));
      d.conditions.push_back(std::string(c.StringOr("status")) +
                             (when.empty() ? "" : " since " + when));
    }
  }

  // --- Pods and events ------------------------------------------------------------------------
  std::vector<PodView> pods;
  std::map<std::string, size_t> pod_by_uid;
  for (const Node& o : dump.objects) {
    if (o.StringOr("kind") != "Pod" || !ApiGroup(o).empty()) continue;
    if (!BelongsToJob(o, job, d.namespace_name)) continue;
    PodView v = ViewPod(job, o);
    std::string key = v.uid.empty() ? v.name + "@" + std::to_string(v.version) : v.uid;
    if (auto it = pod_by_uid.find(key); it != pod_by_uid.end()) {
      pods[it->second] = std::move(v);  // A later copy (--watch): the newest state.
    } else {
      pod_by_uid.emplace(key, pods.size());
      pods.push_back(std::move(v));
    }
  }
  if (pods.empty()) d.notes.push_back("the dump holds no pod of the job");

  std::vector<Record> records;
  size_t order = 0;
  for (const PodView& p : pods) {
    ++order;
    if (p.task < 0 || p.index < 0) {
      d.notes.push_back("Pod " + p.name +
                        ": no task or index (annotation volcano.sh/task-spec): "
                        "not replayed");
      continue;
    }
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
    if (p.phase == "Failed") {
      r.spec.event = "PodFailed";
      r.failure = true;
      DescribeFailedPod(pod, &r);
    } else if (p.phase == "Succeeded") {
      r.spec.event = "PodSucceeded";
      const Node* statuses = FindPath(&pod, {"status", "containerStatuses"});
      if (statuses != nullptr && statuses->is_seq() && !statuses->items.empty())
        r.time = Text(FindPath(&statuses->items[0], {"state", "terminated", "finishedAt"}));
    } else if (!Text(FindPath(&pod, {"metadata", "deletionTimestamp"})).empty() &&
               AnnotationOf(pod, "volcano.sh/controller-out-of-sync").empty()) {
      r.spec.event = "PodEvicted";
      r.failure = true;
      r.time = Text(FindPath(&pod, {"metadata", "deletionTimestamp"}));
      r.cause.category = "infrastructure";
      r.cause.text = "deleted by someone else than the controller" + NodeWords(pod);
    } else {
      continue;
    }
    if (r.time.empty()) r.time = Text(FindPath(&pod, {"metadata", "creationTimestamp"}));
    r.cause.object = "Pod " + p.name;
    records.push_back(std::move(r));
  }
  // Eviction events: evidence for the records above, or the only trace of a deleted pod.
  for (const Node& e : dump.objects) {
    if (e.StringOr("kind") != "Event") continue;
    const Node* about = e.Find("involvedObject");
    if (about == nullptr) about = e.Find("regarding");
    if (about == nullptr || about->StringOr("kind") != "Pod") continue;
    std::string_view event_ns = Either(about->StringOr("namespace"), ObjectNamespace(e));
    if (!d.namespace_name.empty() && !event_ns.empty() && event_ns != d.namespace_name) continue;
    std::string reason = std::string(e.StringOr("reason"));
    if (!KubeletEviction(reason) && !DeletingEviction(reason)) continue;
    std::string pod_name = std::string(about->StringOr("name"));
    std::string uid = std::string(about->StringOr("uid"));
    int task = -1;
    int64_t index = -1;
    if (!TaskOfPodName(job, pod_name, &task, &index)) continue;
    std::string message = std::string(e.StringOr("message"));
    if (message.empty()) message = std::string(e.StringOr("note"));
    std::string evidence = reason + ": " + message;
    auto same = std::find_if(records.begin(), records.end(), [&](const Record& r) {
      return r.failure && (uid.empty() ? r.pod == pod_name : r.uid == uid);
    });
    if (same != records.end()) {
      if (same->cause.text.find(evidence) == std::string::npos)
        same->cause.text += " (event " + evidence + ")";
      same->cause.category = "infrastructure";
      continue;
    }
    if (!uid.empty() && pod_by_uid.count(uid)) continue;  // A pod the dump shows alive.
    Record r;
    r.pod = pod_name;
    r.uid = uid;
    r.task = task;
    r.index = index;
    r.order = ++order;
    r.time = std::string(EventTime(e));
    r.from_event = true;
    r.failure = true;
    r.spec.task = job.tasks[task].name;
    r.spec.index = index;
    r.spec.event = KubeletEviction(reason) ? "PodFailed" : "PodEvicted";
    r.cause.object = "Pod " + pod_name;
    r.cause.category = "infrastructure";
    r.cause.text = evidence + (KubeletEviction(reason)
                                   ? " (the pod stays Failed: the controller sees PodFailed; the "
                                     "pod is no longer in the dump, its exit code is taken as 0)"
                                   : " (the pod is no longer in the dump)");
    records.push_back(std::move(r));
  }
  std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
    if (a.time != b.time) return Earlier(a.time, b.time);
    return a.order < b.order;
  });

  // --- Replay ---------------------------------------------------------------------------------
  VolcanoState state = StartState(job, pods, records, &d.notes);
  const Node* created = FindPath(object, {"metadata", "creationTimestamp"});
  auto start_of = [&](int64_t attempt) {
    std::string earliest;
    for (const PodView& p : pods) {
      if (p.retry != attempt) continue;
      std::string t = Text(FindPath(p.pod, {"metadata", "creationTimestamp"}));
      if (!t.empty() && (earliest.empty() || Earlier(t, earliest))) earliest = t;
    }
    return earliest;
  };
  Attempt current;
  current.number = state.retry_count;
  current.started = state.retry_count == 0 ? Text(created) : start_of(state.retry_count);
  bool current_acted = false;
  std::string last_failure;  // "Pod x PodFailed exit 137 -> RestartJob", for the state line.
  // Restarts by the event that caused them: for the restart-loop hazard.
  std::map<std::string, std::vector<std::string>> restarts_by_event;
  int64_t counted = 0, infra_counted = 0;
  std::vector<std::string> unmatched;
  std::vector<std::pair<std::string, int64_t>> restart_times;  // (failure time, next attempt)
  for (const Record& r : records) {
    if (r.version >= 0 && r.task >= 0 && r.index >= 0 && r.index < state.pods.Replicas(r.task) &&
        r.version < state.pods.Pod(r.task, r.index).version) {
      d.notes.push_back("Pod " + r.pod + " is of job version " + std::to_string(r.version) +
                        ", older than its task's pod at that time: the controller treats its " +
                        r.spec.event + " as stale (not replayed)");
      continue;
    }
    const VolcanoPhase before = state.phase;
    const int64_t retry_before = state.retry_count;
    VolcanoStepOutcome step;
    std::string step_error;
    if (!ApplyVolcanoStep(job, &state, {r.spec}, &step, &step_error)) {
      d.notes.push_back("Pod " + r.pod + " " + r.spec.event + ": " + step_error +
                        " (not replayed)");
      continue;
    }
    const VolcanoEventOutcome& request = step.events[0];
    const VolcanoMatch& m = request.match;
    const bool was_counted = step.retry_count > retry_before;
    std::string effect = EffectWords(job, before, retry_before, step, state, request.request.event);
    if (r.failure) {
      FailureCause cause = r.cause;
      cause.text += "; " + EventWords(r.spec) + ": " + RuleWords(job, m) + ": " + effect;
      current.causes.push_back(std::move(cause));
      if (current.failed.empty()) {
        current.failed = "Pod " + r.pod;
        current.reason = EventWords(r.spec);
        current.message = r.cause.text;
      }
      if (!current_acted) {
        current.rule = RuleWords(job, m);
        current.action = m.action_text;
        current.counted = was_counted;
        current_acted = Acted(m);
      }
      if (!Acted(m) && r.spec.event == "PodFailed" && m.kind == VolcanoMatchKind::kNone) {
        unmatched.push_back("Pod " + r.pod + " (" + EventWords(r.spec) + ")");
      }
      last_failure =
          "Pod " + r.pod + " " + EventWords(r.spec) + " -> " + m.action_text + ": " + effect;
    }
    if (was_counted) {
      ++counted;
      if (r.cause.category == "infrastructure") ++infra_counted;
      std::string key = EventWords(r.spec);
      restarts_by_event[key].push_back(r.pod);
      restart_times.emplace_back(r.time, step.retry_count);
    }
    const bool ended = was_counted || (step.phase != before && IsFinalVolcanoPhase(step.phase));
    if (ended && !r.failure) {
      last_failure += std::string(last_failure.empty() ? "" : "; then ") + "Pod " + r.pod + " " +
                      (r.spec.event == "PodSucceeded" ? "succeeded" : r.spec.event) + ": " + effect;
    }
    if (ended) {
      current.ended = r.time;
      if (current.failed.empty()) {
        current.rule = RuleWords(job, m);
        current.action = m.action_text;
        current.counted = was_counted;
      }
      current.outcome = effect;
      d.timeline.push_back(std::move(current));
      current = Attempt{};
      current.number = state.retry_count;
      current.started = start_of(state.retry_count);
      current_acted = false;
      if (IsFinalVolcanoPhase(state.phase)) break;
    }
  }
  const bool replay_final = IsFinalVolcanoPhase(state.phase);
  if (!replay_final) {
    current.outcome = phase.empty() ? "running" : "job " + phase;
    if (current.started.empty()) current.started = start_of(current.number);
    d.timeline.push_back(std::move(current));
  }

  // --- Replay against the status ----------------------------------------------------------------
  if (state.retry_count != retry_count) {
    d.notes.push_back(
        "the " + std::to_string(records.size()) + " pod events in the dump replay to retryCount " +
        std::to_string(state.retry_count) + ", the status says " + std::to_string(retry_count) +
        ": the dump misses events (a restart deletes the pods of the attempt; "
        "events expire)");
  }
  if (!phase.empty() && VolcanoPhaseName(state.phase) != phase &&
      !(phase == "Running" && state.phase == VolcanoPhase::kPending)) {
    d.notes.push_back("the replay ends " + std::string(VolcanoPhaseName(state.phase)) +
                      ", the status says " + phase);
  }
  // The controller's own record of the actions it executed (events aggregate repeats: count).
  std::map<std::string, int64_t> executed;
  for (const Node* e : EventsFor(dump, "Job", name)) {
    if (e->StringOr("reason") != "ExecuteAction") continue;
    std::string_view message = e->StringOr("message");
    constexpr std::string_view kStart = "Start to execute action ";
    if (message.substr(0, kStart.size()) != kStart) continue;
    int64_t count = 1;
    ReadInt(e->Find("count"), &count);
    std::string action = std::string(Trim(message.substr(kStart.size())));
    executed[action] += count;
  }

  // --- Health, state, budgets -------------------------------------------------------------------
  bool failed_pod_now = false;
  for (const PodView& p : pods)
    failed_pod_now = failed_pod_now || (p.phase == "Failed" && p.version == version);
  d.health = HealthOf(phase, retry_count, phase == "Running" && failed_pod_now);
  d.state = (phase.empty() ? std::string("Unknown") : phase);
  std::string reason = Text(FindPath(status, {"state", "reason"}));
  std::string message = Text(FindPath(status, {"state", "message"}));
  if (!reason.empty()) d.state += " (" + reason + (message.empty() ? "" : ": " + message) + ")";
  d.state += ": " + Retries(retry_count, job);
  if (!last_failure.empty()) d.state += "; last failure: " + last_failure;

  BudgetCounter retries{"", "retryCount", retry_count, job.max_retry, ""};
  retries.note =
      "a Restart* action or ResumeJob from Pending or Running counts one; the job fails "
      "when a restart brings it to maxRetry";
  if (!executed.empty()) {
    std::string list;
    for (const auto& [action, n] : executed)
      list += (list.empty() ? "" : ", ") + action + " x" + std::to_string(n);
    retries.note += "; ExecuteAction events: " + list;
  }
  d.budgets.push_back(std::move(retries));
  for (size_t t = 0; t < job.tasks.size(); ++t) {
    int64_t restarts = 0;
    for (const PodView& p : pods) {
      if (p.task != static_cast<int>(t) || p.version != version ||
          (p.phase != "Running" && p.phase != "Pending"))
        continue;
      for (const char* list : {"containerStatuses", "initContainerStatuses"}) {
        const Node* statuses = FindPath(p.pod, {"status", list});
        if (statuses == nullptr || !statuses->is_seq()) continue;
        for (const Node& c : statuses->items) {
          int64_t n = 0;
          if (ReadInt(c.Find("restartCount"), &n)) restarts += n;
        }
      }
    }
    bool watched = false;
    for (const VolcanoPolicy& p : job.tasks[t].policies)
      watched =
          watched || std::find(p.events.begin(), p.events.end(), "TaskFailed") != p.events.end();
    for (const VolcanoPolicy& p : job.policies)
      watched =
          watched || std::find(p.events.begin(), p.events.end(), "TaskFailed") != p.events.end();
    if (restarts == 0 && !watched) continue;
    d.budgets.push_back({job.tasks[t].name, "containerRestarts", restarts, job.tasks[t].max_retry,
                         "in-place container restarts of the task's Running and Pending pods; "
                         "TaskFailed when they reach the task's maxRetry"});
  }

  // --- What happens next ------------------------------------------------------------------------
  const bool final_phase = phase == "Completed" || phase == "Failed" || phase == "Terminated";
  if (final_phase) {
    d.notes.push_back("the job is " + phase + ": final, nothing happens next");
  } else if (phase == "Aborted" || phase == "Aborting") {
    d.notes.push_back("the job is " + phase +
                      ": only a ResumeJob command acts (it counts a retry)");
  } else {
    VolcanoState now = InitialVolcanoState(job, version);  // Each cell starts from a copy.
    now.retry_count = retry_count;
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
      n.counts = step.retry_count > retry_count;
      n.effect =
          EffectWords(job, phase == "Pending" ? VolcanoPhase::kPending : VolcanoPhase::kRunning,
                      retry_count, step, s, cell.event);
      d.next.push_back(std::move(n));
    }
  }

  // --- Hazards ----------------------------------------------------------------------------------
  for (const auto& [event, restarted_pods] : restarts_by_event) {
    if (restarted_pods.size() < 2 || event.rfind("PodFailed", 0) != 0) continue;
    std::set<std::string> distinct(restarted_pods.begin(), restarted_pods.end());
    std::string list;
    for (const std::string& p : distinct) list += (list.empty() ? "" : ", ") + p;
    d.hazards.push_back({"restart-loop", std::to_string(restarted_pods.size()) +
                                             " restarts after the same " + event + " (" + list +
                                             "): a restart does not change the outcome"});
  }
  if (infra_counted > 0) {
    d.hazards.push_back(
        {"infrastructure-restarts",
         std::to_string(infra_counted) + " of " + std::to_string(counted) +
             " counted restarts followed evictions or preemptions, not failures of the "
             "application: they spend maxRetry like any failure (volcano-sh/volcano#2560)"});
  }
  if (!unmatched.empty()) {
    std::string list;
    for (const std::string& u : unmatched) list += (list.empty() ? "" : ", ") + u;
    std::string named;
    for (const VolcanoTask& t : job.tasks)
      for (const VolcanoPolicy& p : t.policies)
        named += (named.empty() ? "" : "; ") + PolicyText(p);
    for (const VolcanoPolicy& p : job.policies)
      named += (named.empty() ? "" : "; ") + PolicyText(p);
    d.hazards.push_back(
        {"unmatched-failure",
         list + ": no policy matched (" + (named.empty() ? "no policies" : named) +
             "), so nothing restarted the pod; it stays Failed and counts against minAvailable"});
  }
  std::vector<std::string> pending;
  for (const PodView& p : pods) {
    if (p.phase != "Pending" || p.version != version) continue;
    std::string why;
    if (const Node* conditions = FindPath(p.pod, {"status", "conditions"});
        conditions && conditions->is_seq()) {
      for (const Node& c : conditions->items) {
        if (c.StringOr("type") == "PodScheduled" && c.StringOr("status") == "False") {
          why = std::string(c.StringOr("reason")) + ": " + std::string(c.StringOr("message"));
        }
      }
    }
    pending.push_back(p.name + (why.empty() ? "" : " (" + why + ")"));
  }
  if (!pending.empty()) {
    std::string list;
    for (const std::string& p : pending) list += (list.empty() ? "" : ", ") + p;
    d.hazards.push_back({"pods-pending", std::to_string(pending.size()) +
                                             " pod(s) of the current attempt Pending: " + list});
  }
  int64_t restart_seconds = 0;
  int timed = 0;
  for (const auto& [failed_at, attempt] : restart_times) {
    auto from = Seconds(failed_at);
    auto to = Seconds(start_of(attempt));
    if (from && to && *to >= *from) {
      restart_seconds += *to - *from;
      ++timed;
    }
  }
  if (timed > 0) {
    d.hazards.push_back({"restart-time", std::to_string(timed) + " restart(s) took " +
                                             FormatDuration(static_cast<double>(restart_seconds)) +
                                             " from the failure to the next attempt's pods"});
  }
  *out = std::move(d);
  return true;
}

}  // namespace jobset
