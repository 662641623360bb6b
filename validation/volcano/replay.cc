#include "validation/volcano/replay.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <string_view>
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
  std::unordered_set<std::string_view> names;  // Of the tasks before t.
  for (size_t t = 0; t < job.tasks.size(); ++t) {
    const VolcanoTask& task = job.tasks[t];
    // The first task of a name (the controller finds no other).
    const bool first = names.insert(task.name).second;
    if (task.replicas <= 0 || !first) continue;
    std::set<int64_t> codes;
    for (const VolcanoPolicy& p : task.policies)
      if (p.has_exit_code) codes.insert(p.exit_code);
    for (const VolcanoPolicy& p : job.policies)
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

std::vector<VolcanoDeadPolicy> DeadVolcanoPolicies(const VolcanoJob& job,
                                                   const std::vector<VolcanoExplainCell>& cells) {
  std::vector<VolcanoDeadPolicy> dead;
  auto check = [&](const std::vector<VolcanoPolicy>& list, int task) {
    for (size_t i = 0; i < list.size(); ++i) {
      const VolcanoPolicy& p = list[i];
      std::vector<std::string> takers;  // Policies that take this one's events first.
      bool fires = false;
      for (const VolcanoExplainCell& c : cells) {
        if (task >= 0 && c.task != task) continue;
        const VolcanoMatch& m = c.outcome.events[0].match;
        if (m.task == task && m.policy == static_cast<int>(i)) {
          fires = true;
          break;
        }
        bool wanted = std::find(p.events.begin(), p.events.end(), c.event) != p.events.end() ||
                      std::find(p.events.begin(), p.events.end(), "*") != p.events.end() ||
                      (p.has_exit_code && c.has_exit_code && c.exit_code == p.exit_code);
        if (c.event == "PodPending" && !p.has_timeout && !p.has_exit_code) wanted = false;
        if (wanted && m.policy >= 0) {
          std::string path = MatchedPolicy(job, m)->path;
          if (std::find(takers.begin(), takers.end(), path) == takers.end()) takers.push_back(path);
        }
      }
      if (fires) continue;
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
      if (!takers.empty()) {
        std::string list_text;
        for (const std::string& t : takers) list_text += (list_text.empty() ? "" : ", ") + t;
        why.push_back("taken first by " + list_text);
      }
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
