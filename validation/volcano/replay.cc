#include "validation/volcano/replay.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "validation/core/batch_job.h"
#include "validation/core/field_path.h"
#include "validation/core/finding_sink.h"
#include "validation/core/suggest.h"
#include "validation/sim/scenario.h"

namespace jobset {
namespace {

bool ParseInt(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && p == text.data() + text.size();
}

const std::vector<std::string>& Events() {
  static const std::vector<std::string> events = {"PodFailed",  "PodEvicted",   "PodPending",
                                                  "PodRunning", "PodSucceeded", "TaskCompleted",
                                                  "TaskFailed", "Unknown"};
  return events;
}

std::string EventList() { return JoinNames(Events()); }

// A known event, or an error that says what was written instead.
bool CheckEvent(std::string_view event, std::string* error) {
  if (event == "PodSucceeded" || (IsVolcanoEvent(event) && event != "*")) return true;
  const auto& jobset = JobFailureReasons();
  if (std::find(jobset.begin(), jobset.end(), event) != jobset.end()) {
    *error = "'" + std::string(event) +
             "' is a JobSet failure reason; a Volcano Job replays events: "
             "TASK/INDEX:EVENT[:EXITCODE] with EVENT one of " +
             EventList();
  } else {
    *error = "'" + std::string(event) + "' is not a Volcano event (" + EventList() + ")" +
             DidYouMean(event, Events());
  }
  return false;
}

const char kForm[] = "want TASK/INDEX:EVENT[:EXITCODE], TASK:EVENT, Unknown or Command:ACTION";

bool ParseOne(std::string_view text, VolcanoEventSpec* e, std::string* error) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  const std::string quoted = "'" + std::string(text) + "': ";
  if (parts[0] == "Command") {
    if (parts.size() != 2 || parts[1].empty()) {
      *error = quoted + "want Command:ACTION, e.g. Command:ResumeJob";
      return false;
    }
    e->command = std::string(parts[1]);
    return true;
  }
  size_t next = 0;
  // A task name is a lowercase DNS label; an event starts with a capital letter.
  if (!parts[0].empty() && !(parts[0][0] >= 'A' && parts[0][0] <= 'Z')) {
    std::string_view ref = parts[0];
    size_t slash = ref.find('/');
    e->task = std::string(ref.substr(0, slash));
    if (slash != std::string_view::npos && !ParseInt(ref.substr(slash + 1), &e->index)) {
      *error = quoted + "INDEX: want a pod index, e.g. worker/0";
      return false;
    }
    if (e->task.empty() || e->index < -1) {
      *error = quoted + kForm;
      return false;
    }
    next = 1;
  }
  if (next >= parts.size() || parts[next].empty()) {
    *error = quoted + kForm;
    return false;
  }
  e->event = std::string(parts[next]);
  if (!CheckEvent(e->event, error)) {
    *error = quoted + *error;
    return false;
  }
  if (next + 1 < parts.size()) {
    if (next + 2 < parts.size() || !ParseInt(parts[next + 1], &e->exit_code)) {
      *error = quoted + "EXITCODE: want an integer (the first container's exit code)";
      return false;
    }
    e->has_exit_code = true;
  }
  return true;
}

}  // namespace

bool ParseVolcanoFail(std::string_view text, VolcanoStep* out, std::string* error) {
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',') continue;
    VolcanoEventSpec e;
    if (!ParseOne(text.substr(start, i - start), &e, error)) return false;
    out->push_back(std::move(e));
    start = i + 1;
  }
  return true;
}

bool ParseVolcanoScenario(const Node& scenario, std::vector<VolcanoStep>* steps,
                          std::string* error) {
  const Node* list = ScenarioSteps(scenario, "{events: [...]}", error);
  if (!list) return false;
  for (size_t s = 0; s < list->items.size(); ++s) {
    std::string base = Index("steps", s);
    const Node& step_node = list->items[s];
    if (step_node.Find("fail")) {
      *error = base +
               ".fail: that is the JobSet form; a Volcano Job's step lists events: "
               "[{task, index, event, exitCode}]";
      return false;
    }
    const Node* events = step_node.Find("events");
    if (!events || !events->is_seq()) {
      *error = base + ".events: want a list of {task, index, event, exitCode} or {command}";
      return false;
    }
    VolcanoStep step;
    for (size_t k = 0; k < events->items.size(); ++k) {
      const Node& item = events->items[k];
      std::string at = Index(Child(base, "events"), k);
      if (!item.is_map()) {
        *error = at + ": want a mapping {task, index, event, exitCode} or {command}";
        return false;
      }
      for (const MapEntry& entry : item.entries) {
        static const std::set<std::string> known = {"task", "index", "event", "exitCode",
                                                    "command"};
        if (!known.count(entry.key)) {
          *error = Child(at, entry.key) + ": unknown field (task, index, event, exitCode, command)";
          return false;
        }
      }
      VolcanoEventSpec e;
      for (const char* key : {"task", "event", "command"}) {
        const Node* v = item.Find(key);
        if (v && !v->is_string()) {
          *error = Child(at, key) + ": want a string";
          return false;
        }
      }
      for (const char* key : {"index", "exitCode"}) {
        const Node* v = item.Find(key);
        if (v && !v->is_int()) {
          *error = Child(at, key) + ": want an integer";
          return false;
        }
      }
      e.task = std::string(item.StringOr("task"));
      e.event = std::string(item.StringOr("event"));
      e.command = std::string(item.StringOr("command"));
      if (const Node* v = item.Find("index")) e.index = v->integer;
      if (const Node* v = item.Find("exitCode")) {
        e.has_exit_code = true;
        e.exit_code = v->integer;
      }
      if (e.command.empty() && !CheckEvent(e.event, error)) {
        *error = Child(at, "event") + ": " + (e.event.empty() ? "required" : *error);
        return false;
      }
      if (!e.command.empty() && !e.event.empty()) {
        *error = at + ": give event or command, not both";
        return false;
      }
      step.push_back(std::move(e));
    }
    steps->push_back(std::move(step));
  }
  return true;
}

bool ReplayVolcano(const VolcanoJob& job, const std::vector<VolcanoStep>& steps,
                   VolcanoReplayResult* out, std::string* error) {
  out->state = InitialVolcanoState(job);
  for (size_t s = 0; s < steps.size(); ++s) {
    VolcanoStepOutcome step;
    if (!ApplyVolcanoStep(job, &out->state, steps[s], &step, error)) {
      *error = "step " + std::to_string(s + 1) + ": " + *error;
      return false;
    }
    out->steps.push_back(std::move(step));
  }
  return true;
}

std::vector<VolcanoExplainCell> ExplainVolcanoJob(const VolcanoJob& job) {
  std::vector<VolcanoExplainCell> cells;
  const VolcanoState fresh = InitialVolcanoState(job);  // Each cell starts from a copy.
  auto run = [&](VolcanoExplainCell cell, VolcanoEventSpec e) {
    VolcanoState state = fresh;
    std::string error;
    if (ApplyVolcanoStep(job, &state, {e}, &cell.outcome, &error)) cells.push_back(cell);
  };
  std::set<int64_t> job_codes;  // Every task's rows have these: gathered once.
  for (const VolcanoPolicy& p : job.policies)
    if (p.has_exit_code) job_codes.insert(p.exit_code);
  for (size_t t = 0; t < job.tasks.size(); ++t) {
    const VolcanoTask& task = job.tasks[t];
    // The first task of a name (the controller finds no other).
    if (task.replicas <= 0 || FindVolcanoTask(job, task.name) != static_cast<int>(t)) continue;
    std::set<int64_t> codes = job_codes;
    for (const VolcanoPolicy& p : task.policies)
      if (p.has_exit_code) codes.insert(p.exit_code);
    VolcanoEventSpec pod{task.name, 0, "PodFailed", false, 0, ""};
    for (int64_t code : codes) {
      VolcanoExplainCell cell{static_cast<int>(t), "PodFailed", true, code, false, {}};
      VolcanoEventSpec e = pod;
      e.has_exit_code = true;
      e.exit_code = code;
      run(cell, e);
    }
    // Any other exit code: the smallest positive one no policy names.
    int64_t other = 1;
    while (codes.count(other)) ++other;
    VolcanoEventSpec e = pod;
    e.has_exit_code = true;
    e.exit_code = other;
    run(VolcanoExplainCell{static_cast<int>(t), "PodFailed", false, other, !codes.empty(), {}}, e);
    for (const char* event : {"PodEvicted", "PodPending", "TaskCompleted", "TaskFailed"}) {
      e = pod;
      e.event = event;
      run(VolcanoExplainCell{static_cast<int>(t), event, false, 0, false, {}}, e);
    }
  }
  VolcanoEventSpec unknown;
  unknown.event = "Unknown";
  run(VolcanoExplainCell{-1, "Unknown", false, 0, false, {}}, unknown);
  return cells;
}

bool PhaseWhenOthersSucceed(const VolcanoJob& job, int task, int64_t exit_code,
                            VolcanoPhase* phase) {
  if (task < 0 || task >= static_cast<int>(job.tasks.size()) || job.tasks[task].replicas <= 0 ||
      job.task_index.size() != job.tasks.size()) {
    return false;  // No such pod, or task names the events could not tell apart.
  }
  VolcanoState state = InitialVolcanoState(job);
  VolcanoStepOutcome out;
  std::string error;
  if (!ApplyVolcanoStep(job, &state, {{job.tasks[task].name, 0, "PodFailed", true, exit_code, ""}},
                        &out, &error)) {
    return false;
  }
  if (IsFinalVolcanoPhase(state.phase)) {
    *phase = state.phase;  // The other pods were killed: their success is no event.
    return true;
  }
  const VolcanoPodCounts& c = state.pods.JobCounts();
  if (c[VolcanoPodPhase::kFailed] != 1 || c.Alive() + 1 != c.Total() ||
      state.pods.Pod(task, 0).phase != VolcanoPodPhase::kFailed) {
    return false;  // A policy acted on the failure: not the case this answers.
  }
  // Every other pod succeeds at once, then the controller handles the requests in order: per
  // task, one OutOfSync per pod, the task's last pod giving TaskCompleted (not in `task`, whose
  // pod 0 failed). Two OutOfSyncs in a row do all that more of them would: the pods are all
  // finished, so a sync from Running ends the job, from Pending moves to Running, and in any
  // other phase a sync changes nothing.
  state.pods.SucceedAlive();
  VolcanoStep step;
  for (size_t t = 0; t < job.tasks.size(); ++t) {
    const std::string& name = job.tasks[t].name;
    const int64_t n = job.tasks[t].replicas;
    if (n <= 0) continue;
    const bool failed_task = static_cast<int>(t) == task;
    for (int64_t k = 0; k < std::min<int64_t>(n - 1, 2); ++k) {
      step.push_back({name, failed_task ? k + 1 : k, "OutOfSync", false, 0, ""});
    }
    if (!failed_task) step.push_back({name, n - 1, "TaskCompleted", false, 0, ""});
  }
  out = {};
  if (!ApplyVolcanoStep(job, &state, step, &out, &error)) return false;
  *phase = state.phase;
  return true;
}

namespace {

// The policies that took a scope's cells (a task's, or every cell for the job's policies), per
// event and per exit code: the first kShownTakers by their first cell, and whether there are
// more. Built in one pass, so that each policy looks up its events instead of every cell.
constexpr size_t kShownTakers = 8;

struct Takers {
  std::vector<std::pair<size_t, const VolcanoPolicy*>> first;  // (first cell, policy)
  std::unordered_set<const VolcanoPolicy*> seen;
  bool more = false;
  void Add(size_t cell, const VolcanoPolicy* p) {
    if (!seen.insert(p).second) return;
    if (first.size() < kShownTakers) {
      first.emplace_back(cell, p);
    } else {
      more = true;
    }
  }
};

struct ScopeTakers {
  std::unordered_map<std::string_view, Takers> by_event;
  std::unordered_map<int64_t, Takers> by_code;
  void Add(const VolcanoExplainCell& c, size_t cell, const VolcanoPolicy* p) {
    by_event[c.event].Add(cell, p);
    if (c.has_exit_code) by_code[c.exit_code].Add(cell, p);
  }
};

// "taken first by a, b" for the cells `p` wants in `scope`, or "".
std::string TakenBy(const VolcanoPolicy& p, const ScopeTakers& scope) {
  std::vector<const Takers*> lists;
  const bool star = std::find(p.events.begin(), p.events.end(), "*") != p.events.end();
  const bool pending = p.has_timeout || p.has_exit_code;  // PodPending fires nothing else.
  for (const auto& [event, takers] : scope.by_event) {
    if (event == "PodPending" && !pending) continue;
    if (star || std::find(p.events.begin(), p.events.end(), event) != p.events.end()) {
      lists.push_back(&takers);
    }
  }
  if (p.has_exit_code) {
    if (auto it = scope.by_code.find(p.exit_code); it != scope.by_code.end()) {
      lists.push_back(&it->second);
    }
  }
  // The first of each list are enough: a policy among the first kShownTakers of the union is
  // among the first kShownTakers of the list where it appears first.
  std::vector<std::pair<size_t, const VolcanoPolicy*>> all;
  bool more = false;
  for (const Takers* t : lists) {
    all.insert(all.end(), t->first.begin(), t->first.end());
    more = more || t->more;
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const VolcanoPolicy*> takers;
  for (const auto& [cell, policy] : all) {
    if (std::find(takers.begin(), takers.end(), policy) != takers.end()) continue;
    if (takers.size() == kShownTakers) {
      more = true;
      break;
    }
    takers.push_back(policy);
  }
  if (takers.empty()) return "";
  std::string text = "taken first by ";
  for (size_t i = 0; i < takers.size(); ++i) text += (i ? ", " : "") + takers[i]->path;
  return more ? text + " and others" : text;
}

}  // namespace

std::vector<VolcanoDeadPolicy> DeadVolcanoPolicies(const VolcanoJob& job,
                                                   const std::vector<VolcanoExplainCell>& cells) {
  // One pass over the cells: which policies fire, and who takes what, per task and job-wide.
  std::set<std::pair<int, int>> fired;  // (task or -1, policy)
  std::unordered_map<int, ScopeTakers> task_takers;
  ScopeTakers job_takers;
  for (size_t i = 0; i < cells.size(); ++i) {
    const VolcanoExplainCell& c = cells[i];
    const VolcanoMatch& m = c.outcome.events[0].match;
    if (m.policy < 0) continue;
    // A task's policy counts as firing for its own task's cells (a later task of the same name
    // borrows them: the API server rejects that job anyway).
    if (m.task < 0 || m.task == c.task) fired.insert({m.task, m.policy});
    const VolcanoPolicy* taker = MatchedPolicy(job, m);
    job_takers.Add(c, i, taker);
    if (c.task >= 0) task_takers[c.task].Add(c, i, taker);
  }
  const ScopeTakers no_cells;
  std::vector<VolcanoDeadPolicy> dead;
  auto check = [&](const std::vector<VolcanoPolicy>& list, int task) {
    const ScopeTakers* scope = &job_takers;
    if (task >= 0) {
      auto it = task_takers.find(task);
      scope = it == task_takers.end() ? &no_cells : &it->second;
    }
    for (size_t i = 0; i < list.size(); ++i) {
      const VolcanoPolicy& p = list[i];
      if (fired.count({task, static_cast<int>(i)})) continue;
      std::vector<std::string> why;
      for (const std::string& e : p.events) {
        if (e == "JobUpdated") {
          why.push_back("the controller never emits JobUpdated");
        } else if (IsInternalVolcanoEvent(e)) {
          why.push_back(e + " is internal: always SyncJob");
        } else if (e == "PodPending" && !p.has_timeout) {
          why.push_back("PodPending fires a policy only with a timeout");
        } else if (e == "Unknown" && task >= 0) {
          why.push_back("Unknown carries no task: only job policies see it");
        }
      }
      if (p.has_exit_code && p.exit_code == 0) why.push_back("no failed pod reports exit code 0");
      if (std::string taken = TakenBy(p, *scope); !taken.empty()) why.push_back(taken);
      if (why.empty()) why.push_back("no event reaches it");
      std::string text;
      for (const std::string& w : why) text += (text.empty() ? "" : "; ") + w;
      dead.push_back({&p, text});
    }
  };
  for (size_t t = 0; t < job.tasks.size(); ++t) check(job.tasks[t].policies, static_cast<int>(t));
  check(job.policies, -1);
  return dead;
}

}  // namespace jobset
