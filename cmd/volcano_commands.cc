#include "cmd/volcano_commands.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>

#include "cmd/monte_carlo_flags.h"
#include "cmd/simulate_inputs.h"
#include "cmd/text_table.h"
#include "validation/core/loader.h"
#include "validation/sim/duration.h"
#include "validation/volcano/defaults.h"
#include "validation/volcano/lifecycle.h"
#include "validation/volcano/monte_carlo.h"
#include "validation/volcano/replay.h"
#include "validation/volcano/text.h"

namespace jobset {
namespace {

using json = nlohmann::ordered_json;

// Problems met while decoding, on standard error: the object is still explained.
void WarnProblems(const VolcanoJob& job, const std::string& file, std::ostream& err) {
  for (const std::string& p : job.problems)
    err << "warning: " << file << ": Volcano Job " << job.name << ": " << p << "\n";
}

std::string MatchedBy(VolcanoMatchKind kind) {
  switch (kind) {
    case VolcanoMatchKind::kEvent:
      return "event";
    case VolcanoMatchKind::kWildcard:
      return "*";
    case VolcanoMatchKind::kExitCode:
      return "exitCode";
    case VolcanoMatchKind::kInternal:
      return "internal";
    case VolcanoMatchKind::kStale:
      return "stale";
    case VolcanoMatchKind::kCommand:
      return "command";
    default:
      return "";
  }
}

// The POLICY column: the policy's path, `(*)` when a wildcard took the event.
std::string PolicyWords(const VolcanoJob& job, const VolcanoMatch& m) {
  if (const VolcanoPolicy* p = MatchedPolicy(job, m))
    return p->path + (m.kind == VolcanoMatchKind::kWildcard ? " (*)" : "");
  switch (m.kind) {
    case VolcanoMatchKind::kInternal:
      return "(internal event)";
    case VolcanoMatchKind::kStale:
      return "(stale: old job version)";
    case VolcanoMatchKind::kCommand:
      return "(command)";
    default:
      return "-";
  }
}

// The ACTION column.
std::string ActionWords(const VolcanoMatch& m) {
  std::string a = m.action_text;
  if (m.action == VolcanoAction::kOther) a += " (not an action: as SyncJob)";
  if (!m.delay.empty()) a += " after " + m.delay;
  return a;
}

// Every phase the job went through in a step, starting from `start`: "Running -> Restarting".
std::vector<VolcanoPhase> PhasePath(VolcanoPhase start, const VolcanoStepOutcome& o) {
  std::vector<VolcanoPhase> path = {start};
  auto add = [&](VolcanoPhase p) {
    if (path.back() != p) path.push_back(p);
  };
  for (const VolcanoEventOutcome& e : o.events) add(e.after);
  for (VolcanoPhase p : o.settled) add(p);
  return path;
}

std::string PathWords(const std::vector<VolcanoPhase>& path) {
  std::string s;
  for (VolcanoPhase p : path) s += (s.empty() ? "" : " -> ") + std::string(VolcanoPhaseName(p));
  return s;
}

std::string Retries(int64_t count, const VolcanoJob& job) {
  return std::to_string(count) + "/" + std::to_string(job.max_retry);
}

// The RESULT of an explain cell: the phases from Running, the retry it spent, what happened to
// the pod when no policy acted.
std::string ResultWords(const VolcanoJob& job, const VolcanoExplainCell& c) {
  std::vector<VolcanoPhase> path = PhasePath(VolcanoPhase::kRunning, c.outcome);
  std::string s = path.size() == 1 ? "stays Running" : PathWords(path);
  if (c.outcome.retry_count > 0) s += ", retry " + Retries(c.outcome.retry_count, job);
  const VolcanoMatch& m = c.outcome.events[0].match;
  bool acted = m.action != VolcanoAction::kSyncJob && m.action != VolcanoAction::kOther;
  if (!acted && path.size() == 1) {
    if (c.event == "PodFailed") s += "; the pod stays Failed";
    if (c.event == "PodEvicted") s += "; the pod is recreated";
  }
  return s;
}

std::string EventWords(const VolcanoExplainCell& c) {
  if (c.other_exit_codes) return "PodFailed (other exit codes)";
  if (c.has_exit_code) return "PodFailed exit " + std::to_string(c.exit_code);
  return c.event;
}

// The summary under the table.
std::vector<std::string> Summary(const VolcanoJob& job,
                                 const std::vector<VolcanoExplainCell>& cells) {
  std::vector<std::string> lines;
  bool restarts = false;
  for (const VolcanoExplainCell& c : cells) restarts = restarts || c.outcome.retry_count > 0;
  const std::string n = std::to_string(job.max_retry);
  if (job.max_retry <= 1) {
    lines.push_back("maxRetry " + n +
                    ": no restart runs: the first Restart* action (or ResumeJob) fails the job");
  } else if (restarts) {
    lines.push_back("maxRetry " + n + ": every Restart* action and ResumeJob counts one retry; " +
                    std::to_string(job.max_retry - 1) + " restart(s) run, the " + n +
                    (job.max_retry == 2   ? "nd"
                     : job.max_retry == 3 ? "rd"
                                          : "th") +
                    " request fails the job");
  } else {
    lines.push_back("no event restarts the job: maxRetry " + n + " is never spent");
  }
  // Each line replays a request per task: lines for the first kOthersLines tasks keep the
  // summary linear in the tasks (and readable).
  constexpr int kOthersLines = 100;
  int others = 0;
  for (const VolcanoExplainCell& c : cells) {
    if (c.event != "PodFailed" || c.has_exit_code || c.task < 0) continue;
    if (c.outcome.events[0].match.kind != VolcanoMatchKind::kNone) continue;
    if (++others > kOthersLines) continue;
    // Nothing acts on the failure: what happens when every other pod then succeeds?
    const VolcanoTask& task = job.tasks[c.task];
    VolcanoPhase end = VolcanoPhase::kRunning;
    if (!PhaseWhenOthersSucceed(job, c.task, c.exit_code, &end)) continue;
    lines.push_back(std::string("a `") + task.name + "` pod that fails" +
                    (c.other_exit_codes ? " with an exit code no policy names" : "") +
                    " stays Failed, nothing restarts it; when all the other pods succeed the job "
                    "ends " +
                    std::string(VolcanoPhaseName(end)));
  }
  if (others > kOthersLines) {
    lines.push_back(std::to_string(others - kOthersLines) +
                    " more tasks whose failed pods nothing restarts are not listed (`simulate "
                    "--fail TASK/0:PodFailed` shows one)");
  }
  return lines;
}

json NullOr(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json ExplainJson(const VolcanoJob& job, const std::vector<VolcanoExplainCell>& cells,
                 const std::vector<VolcanoDeadPolicy>& dead) {
  json o;
  o["kind"] = kVolcanoKind;
  o["apiVersion"] = kVolcanoApiVersion;
  o["name"] = job.name;
  o["maxRetry"] = job.max_retry;
  o["minAvailable"] = job.min_available;
  o["defaulted"] = job.defaulted;
  json decisions = json::array();
  for (const VolcanoExplainCell& c : cells) {
    const VolcanoMatch& m = c.outcome.events[0].match;
    const VolcanoPolicy* p = MatchedPolicy(job, m);
    json d;
    d["task"] = c.task >= 0 ? json(job.tasks[c.task].name) : json(nullptr);
    d["event"] = c.event;
    d["exitCode"] = c.has_exit_code ? json(c.exit_code) : json(nullptr);
    d["otherExitCodes"] = c.other_exit_codes;
    d["policy"] = p ? json(p->path) : json(nullptr);
    d["level"] = p ? json(m.task >= 0 ? "task" : "job") : json(nullptr);
    d["matchedBy"] = NullOr(MatchedBy(m.kind));
    d["action"] = m.action_text;
    d["delay"] = NullOr(m.delay);
    json phases = json::array();
    for (VolcanoPhase ph : PhasePath(VolcanoPhase::kRunning, c.outcome))
      phases.push_back(std::string(VolcanoPhaseName(ph)));
    d["phases"] = std::move(phases);
    d["phase"] = std::string(VolcanoPhaseName(c.outcome.phase));
    d["retryCount"] = c.outcome.retry_count;
    decisions.push_back(std::move(d));
  }
  o["decisions"] = std::move(decisions);
  json never = json::array();
  for (const VolcanoDeadPolicy& d : dead)
    never.push_back({{"policy", d.policy->path}, {"why", d.why}});
  o["neverFires"] = std::move(never);
  return o;
}

// The pods the models keep a state for: Σ replicas (negative counts as 0).
int64_t VolcanoPodCount(const VolcanoJob& job) {
  int64_t pods = 0;
  for (const VolcanoTask& t : job.tasks) pods += t.replicas > 0 ? t.replicas : 0;
  return pods;
}

}  // namespace

int ExplainVolcanoJobCommand(const Node& object, const std::string& file, const ExplainFlags& flags,
                             std::ostream& out, json* objects, std::ostream& err) {
  // --feature-gates are the JobSet controller's: they apply to the file's JobSets, not here.
  VolcanoJob job = DecodeVolcanoJob(object);
  WarnProblems(job, file, err);
  if (!WithinModelledPods(VolcanoPodCount(job), "Volcano Job " + job.name, file, err)) return 2;
  std::vector<VolcanoExplainCell> cells = ExplainVolcanoJob(job);
  std::vector<VolcanoDeadPolicy> dead = DeadVolcanoPolicies(job, cells);
  if (flags.output == "json") {
    objects->push_back(ExplainJson(job, cells, dead));
    return 0;
  }
  const bool md = flags.output == "markdown";
  out << (md ? "### " : "") << "Volcano Job " << job.name << " (maxRetry " << job.max_retry
      << ", minAvailable " << job.min_available << ")\n\n";
  std::vector<std::vector<std::string>> table = {{"TASK", "EVENT", "POLICY", "ACTION", "RESULT"}};
  for (const VolcanoExplainCell& c : cells) {
    const VolcanoMatch& m = c.outcome.events[0].match;
    table.push_back({c.task >= 0 ? job.tasks[c.task].name : "(job)", EventWords(c),
                     PolicyWords(job, m), ActionWords(m), ResultWords(job, c)});
  }
  PrintTable(table, md, out);
  out << "\n";
  const std::string bullet = md ? "- " : "  - ";
  if (!dead.empty()) {
    out << (md ? "Policies that never fire:\n\n" : "  policies that never fire:\n");
    for (const VolcanoDeadPolicy& d : dead) {
      out << (md ? "- `" : "      ") << d.policy->path << (md ? "` (" : " (")
          << PolicyText(*d.policy) << "): " << d.why << "\n";
    }
    out << "\n";
  }
  if (md) {
    out << "Task policies are scanned before job policies, first match wins; `(*)` is a "
           "wildcard match; a retry is counted against `maxRetry`.\n\n";
  } else {
    out << "  task policies are scanned before job policies, first match wins; (*) a wildcard "
           "took the event;\n  each row starts from a Running job with every pod Running\n\n";
  }
  for (const std::string& line : Summary(job, cells)) out << bullet << line << "\n";
  if (!job.defaulted.empty()) {
    std::string list;
    for (const std::string& d : job.defaulted) list += (list.empty() ? "" : ", ") + d;
    out << bullet << "defaulted as on CREATE: " << list << "\n";
  }
  out << "\n";
  return 0;
}

namespace {

std::string RequestWords(const VolcanoJob& job, const VolcanoEventOutcome& e) {
  const VolcanoRequest& r = e.request;
  std::string s;
  if (!r.command.empty()) return "vcctl " + r.command;
  if (r.task < 0) {
    s = (r.event == "Unknown" ? job.name + " (PodGroup) " : job.name + " ") + r.event;
  } else if (r.event == "TaskCompleted" || r.event == "TaskFailed") {
    s = job.name + "-" + job.tasks[r.task].name + " " + r.event;
  } else {
    s = VolcanoPodName(job, r.task, r.index) + " " + r.event;
    if (r.event == "PodFailed") s += " exit " + std::to_string(r.exit_code);
  }
  return e.fired ? "(timeout) " + s : s;
}

json PodsJson(const VolcanoJob& job, const VolcanoState& s) {
  json pods = json::object();
  for (size_t t = 0; t < job.tasks.size(); ++t) {
    json counts = json::object();
    const VolcanoPodCounts c = s.pods.TaskCounts(static_cast<int>(t));
    for (size_t p = 0; p < c.n.size(); ++p) {
      if (c.n[p] > 0)
        counts[std::string(VolcanoPodPhaseName(static_cast<VolcanoPodPhase>(p)))] = c.n[p];
    }
    pods[job.tasks[t].name] = std::move(counts);
  }
  return pods;
}

std::string PodsWords(const VolcanoJob& job, const VolcanoState& s) {
  std::string text;
  json pods = PodsJson(job, s);
  for (auto& [task, counts] : pods.items()) {
    std::string c;
    for (auto& [phase, n] : counts.items())
      c += (c.empty() ? "" : ", ") + std::to_string(n.get<int>()) + " " + phase;
    text += (text.empty() ? "" : "; ") + task + ": " + (c.empty() ? "no pods" : c);
  }
  return text;
}

json ReplayJson(const VolcanoJob& job, const VolcanoReplayResult& result) {
  json steps = json::array();
  VolcanoPhase phase = VolcanoPhase::kRunning;
  for (const VolcanoStepOutcome& s : result.steps) {
    json events = json::array();
    for (const VolcanoEventOutcome& e : s.events) {
      const VolcanoRequest& r = e.request;
      const VolcanoPolicy* p = MatchedPolicy(job, e.match);
      json j;
      j["task"] = r.task >= 0 ? json(job.tasks[r.task].name) : json(nullptr);
      j["pod"] = r.task >= 0 ? json(VolcanoPodName(job, r.task, r.index)) : json(nullptr);
      j["event"] = NullOr(r.event);
      j["exitCode"] = r.event == "PodFailed" ? json(r.exit_code) : json(nullptr);
      j["command"] = NullOr(r.command);
      j["policy"] = p ? json(p->path) : json(nullptr);
      j["matchedBy"] = NullOr(MatchedBy(e.match.kind));
      j["action"] = e.match.action_text;
      j["delay"] = NullOr(e.match.delay);
      j["scheduled"] = e.scheduled;
      j["fired"] = e.fired;
      j["phaseBefore"] = std::string(VolcanoPhaseName(e.before));
      j["phaseAfter"] = std::string(VolcanoPhaseName(e.after));
      j["retryCount"] = e.retry_count;
      j["note"] = NullOr(e.note);
      events.push_back(std::move(j));
    }
    json settled = json::array();
    for (VolcanoPhase p : s.settled) settled.push_back(std::string(VolcanoPhaseName(p)));
    json phases = json::array();
    for (VolcanoPhase p : PhasePath(phase, s)) phases.push_back(std::string(VolcanoPhaseName(p)));
    steps.push_back({{"events", std::move(events)},
                     {"settled", std::move(settled)},
                     {"phases", std::move(phases)},
                     {"phase", std::string(VolcanoPhaseName(s.phase))},
                     {"retryCount", s.retry_count}});
    phase = s.phase;
  }
  json final = {{"phase", std::string(VolcanoPhaseName(result.state.phase))},
                {"retryCount", result.state.retry_count},
                {"maxRetry", job.max_retry},
                {"version", result.state.version},
                {"pods", PodsJson(job, result.state)}};
  return json{{"kind", kVolcanoKind},
              {"apiVersion", kVolcanoApiVersion},
              {"name", job.name},
              {"steps", std::move(steps)},
              {"final", std::move(final)}};
}

void ReplayText(const VolcanoJob& job, const VolcanoReplayResult& result, std::ostream& out) {
  std::vector<std::vector<std::string>> table = {
      {"STEP", "EVENT", "POLICY", "ACTION", "PHASE", "RETRIES"}};
  std::vector<std::pair<size_t, std::string>> notes;  // (row, text)
  for (size_t i = 0; i < result.steps.size(); ++i) {
    const VolcanoStepOutcome& s = result.steps[i];
    for (size_t k = 0; k < s.events.size(); ++k) {
      const VolcanoEventOutcome& e = s.events[k];
      std::string phase = std::string(VolcanoPhaseName(e.before));
      if (e.after != e.before) phase += " -> " + std::string(VolcanoPhaseName(e.after));
      if (e.scheduled) phase += " (waits " + e.match.delay + ")";
      table.push_back({k == 0 ? std::to_string(i + 1) : "", RequestWords(job, e),
                       PolicyWords(job, e.match), e.match.action_text, phase,
                       Retries(e.retry_count, job)});
      if (!e.note.empty()) notes.push_back({table.size() - 1, e.note});
    }
    if (!s.settled.empty()) {
      std::vector<VolcanoPhase> path;
      path.reserve(s.settled.size() + 1);
      path.push_back(s.events.empty() ? VolcanoPhase::kRunning : s.events.back().after);
      for (VolcanoPhase p : s.settled) path.push_back(p);
      table.push_back(
          {"", "(controller settles)", "", "", PathWords(path), Retries(s.retry_count, job)});
    }
  }
  // The table, with each note on its own line under its row.
  std::vector<size_t> width(table[0].size(), 0);
  for (const auto& line : table)
    for (size_t k = 0; k < line.size(); ++k) width[k] = std::max(width[k], line[k].size());
  size_t note = 0;
  for (size_t row = 0; row < table.size(); ++row) {
    const auto& line = table[row];
    for (size_t k = 0; k < line.size(); ++k) {
      out << line[k];
      if (k + 1 < line.size()) out << std::string(width[k] - line[k].size() + 2, ' ');
    }
    out << "\n";
    for (; note < notes.size() && notes[note].first == row; ++note)
      out << std::string(width[0] + 2, ' ') << "note: " << notes[note].second << "\n";
  }
  out << "\nfinal: " << VolcanoPhaseName(result.state.phase) << ", retryCount "
      << result.state.retry_count << " of maxRetry " << job.max_retry << "\n";
  out << "pods: " << PodsWords(job, result.state) << "\n";
}

bool BuildModel(const SimulateFlags& flags, VolcanoFailureModel* m, std::string* error) {
  if (!CheckModelFlagsOnly(flags, "a Volcano Job", error)) return false;
  if (!ReadModelFlags(flags, "", m, &m->job_restart_time_s, error)) return false;
  m->faults = DefaultVolcanoFaultMix();
  if (!flags.fault_mix.empty() && !ParseVolcanoFaultMix(flags.fault_mix, &m->faults, error)) {
    *error = "--fault-mix: " + *error;
    return false;
  }
  return true;
}

std::string Percent(int64_t n, int64_t runs) {
  char buf[32];
  snprintf(buf, sizeof buf, "%5.1f%%", runs ? 100.0 * static_cast<double>(n) / runs : 0.0);
  return buf;
}

std::string Fixed(double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string FaultWords(const VolcanoFaultKind& f) {
  return f.event + (f.has_exit_code ? " exit " + std::to_string(f.exit_code) : "") +
         (f.task.empty() ? "" : " @" + f.task);
}

void MonteCarloText(const VolcanoJob& job, const VolcanoFailureModel& m,
                    const VolcanoMonteCarloResult& r, std::ostream& out) {
  out << "Volcano Job " << job.name << ": " << r.runs << " runs (seed " << m.seed << "), "
      << r.nodes << " nodes, node MTTF " << FormatDuration(m.node_mttf_s) << ", run time "
      << FormatDuration(m.run_time_s) << ", job restart " << FormatDuration(m.restart_time_s)
      << ", task/pod restart " << FormatDuration(m.job_restart_time_s);
  if (m.checkpoint_interval_s > 0)
    out << ", checkpoint every " << FormatDuration(m.checkpoint_interval_s);
  double total = 0;
  for (const VolcanoFaultKind& f : m.faults) total += f.weight;
  out << "\nfailures surface as: ";
  for (size_t i = 0; i < m.faults.size(); ++i) {
    out << (i ? ", " : "") << FaultWords(m.faults[i]) << " "
        << Percent(static_cast<int64_t>(std::llround(1000 * m.faults[i].weight / total)), 1000)
               .substr(1);
  }
  out << "\n\n";
  const FinishTimes& t = r.time_to_finish;
  std::vector<std::pair<std::string, int64_t>> rows = {
      {"completed", r.completed},
      {"failed: maxRetry spent", r.failed_retries},
      {"failed: done, pods left Failed", r.failed_at_end},
      {"aborted by a policy", r.aborted},
      {"terminated by a policy", r.terminated},
      {"completed early by a policy", r.completed_early},
      {"unbounded", r.unbounded}};
  for (const auto& [label, n] : rows) {
    if (n == 0 && label != "completed" && label != "failed: maxRetry spent") continue;
    out << "  " << std::left << std::setw(32) << label << Percent(n, r.runs);
    if (label == "completed" && n > 0) {
      out << "   time to finish p50 " << FormatDuration(t.p50) << ", p90 " << FormatDuration(t.p90)
          << ", p99 " << FormatDuration(t.p99);
    }
    out << "\n";
  }
  out << "\nper run: " << Fixed(r.mean_failures) << " node failures (" << Fixed(r.mean_absorbed)
      << " absorbed), " << Fixed(r.mean_retries) << " retries (maxRetry " << job.max_retry << "), "
      << Fixed(r.mean_wasted_node_hours) << " wasted node-hours\n";
  if (!r.actions.empty()) {
    out << "actions per run:";
    for (size_t i = 0; i < r.actions.size(); ++i)
      out << (i ? ", " : " ") << r.actions[i].first << " " << Fixed(r.actions[i].second);
    out << "\n";
  }
}

json MonteCarloJson(const VolcanoJob& job, const VolcanoMonteCarloResult& r) {
  const double runs = r.runs ? static_cast<double>(r.runs) : 1;
  json actions = json::object();
  for (const auto& [name, mean] : r.actions) actions[name] = mean;
  const FinishTimes& t = r.time_to_finish;
  return json{{"kind", kVolcanoKind},
              {"apiVersion", kVolcanoApiVersion},
              {"name", job.name},
              {"monteCarlo",
               {{"runs", r.runs},
                {"nodes", r.nodes},
                {"maxRetry", job.max_retry},
                {"pComplete", r.completed / runs},
                {"pFail", (r.failed_retries + r.failed_at_end) / runs},
                {"pFailMaxRetry", r.failed_retries / runs},
                {"pFailAtEnd", r.failed_at_end / runs},
                {"pAborted", r.aborted / runs},
                {"pTerminated", r.terminated / runs},
                {"pCompletedEarly", r.completed_early / runs},
                {"pUnbounded", r.unbounded / runs},
                {"meanRestarts", r.mean_retries},
                {"meanCountedRestarts", r.mean_retries},
                {"meanRetries", r.mean_retries},
                {"meanFailures", r.mean_failures},
                {"meanAbsorbed", r.mean_absorbed},
                {"meanWastedNodeHours", r.mean_wasted_node_hours},
                {"actionsPerRun", std::move(actions)},
                {"timeToFinish",
                 {{"p50", t.p50},
                  {"p90", t.p90},
                  {"p99", t.p99},
                  {"mean", t.mean},
                  {"min", t.min},
                  {"max", t.max}}}}}};
}

int MonteCarlo(const VolcanoJob& job, const std::string& file, const SimulateFlags& flags,
               std::ostream& out, std::ostream& err) {
  VolcanoFailureModel model;
  std::string error;
  if (!BuildModel(flags, &model, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  InterruptScope interrupt;
  VolcanoMonteCarloResult r =
      RunVolcanoMonteCarlo(job, model, flags.threads, interrupt.flag(), ProgressBar(job.name, err));
  ClearProgress(err);
  if (!r.error.empty()) {
    err << "error: " << file << ": " << r.error << "\n";
    return 2;
  }
  if (r.cancelled) err << "interrupted: partial result\n";
  if (flags.output == "json") {
    out << MonteCarloJson(job, r).dump(2) << "\n";
  } else {
    MonteCarloText(job, model, r, out);
  }
  return r.cancelled ? 130 : 0;
}

}  // namespace

int SimulateVolcanoJobCommand(const Node& object, const std::string& file,
                              const SimulateFlags& flags, std::ostream& out, std::ostream& err) {
  if (!flags.feature_gates.empty()) {
    err << "error: --feature-gates: JobSet feature gates do not apply to a Volcano Job (" << file
        << ")\n";
    return 2;
  }
  if (flags.monte_carlo) {
    VolcanoJob job = DecodeVolcanoJob(object);
    WarnProblems(job, file, err);
    if (!WithinModelledPods(VolcanoPodCount(job), "Volcano Job " + job.name, file, err)) return 2;
    return MonteCarlo(job, file, flags, out, err);
  }
  std::vector<VolcanoStep> steps;
  if (!ReadReplaySteps(flags.fail, flags.scenario, ParseVolcanoFail, ParseVolcanoScenario, &steps,
                       err)) {
    return 2;
  }
  if (steps.empty()) {
    err << "error: nothing to simulate: give --fail TASK/INDEX:EVENT[:EXITCODE], --scenario or "
           "--monte-carlo\n";
    return 2;
  }
  VolcanoJob job = DecodeVolcanoJob(object);
  WarnProblems(job, file, err);
  if (!WithinModelledPods(VolcanoPodCount(job), "Volcano Job " + job.name, file, err)) return 2;
  VolcanoReplayResult result;
  std::string error;
  if (!ReplayVolcano(job, steps, &result, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  if (flags.output == "json") {
    out << ReplayJson(job, result).dump(2) << "\n";
  } else {
    ReplayText(job, result, out);
  }
  return 0;
}

}  // namespace jobset
