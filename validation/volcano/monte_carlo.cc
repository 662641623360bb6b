#include "validation/volcano/monte_carlo.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

#include "validation/sim/fault_mix.h"
#include "validation/sim/random.h"

namespace jobset {
namespace {

// The words of a Volcano fault mix, for ParseFaultMixItems' messages.
constexpr FaultMixWords kVolcanoFaultMixWords = {"EVENT[:EXITCODE]=WEIGHT[@TASK]", "event",
                                                 "task name"};

// How a run ended.
enum End : size_t {
  kCompleted,
  kFailedRetries,
  kFailedAtEnd,
  kAborted,
  kTerminated,
  kCompletedEarly,
  kUnbounded,
  kEnds
};

// Jobs of up to this many tasks find a failure's task by a scan rather than a binary search.
constexpr size_t kScanTasks = 16;

// Counters of one chunk of runs (see RunSimulation), merged in chunk order.
struct Block {
  std::array<int64_t, kEnds> ends{};
  int64_t retries = 0, failures = 0, absorbed = 0, errors = 0;
  double waste_node_s = 0, finish_sum = 0;
  std::array<int64_t, static_cast<size_t>(VolcanoAction::kOther) + 1> actions{};
  std::vector<double> finish;
};

// The read-only tables of a simulation.
struct Setup {
  const VolcanoJob* job = nullptr;
  VolcanoState initial;  // Each run starts from a copy.
  double nodes = 0, mean_gap = 0;
  std::vector<double> cumulative;       // Per fault kind: upper bound of its probability interval.
  std::vector<int> kind_task;           // Per fault kind: its task, or -1.
  std::vector<double> task_cumulative;  // Per task: upper bound of its share of the pods.
  std::vector<VolcanoEventSpec> specs;  // Per fault kind, without task and index.
};

// Simulates one run drawing from `rng` and adds it to `b`.
void SimulateRun(const Setup& s, const VolcanoFailureModel& m, Rng& rng, Block* b) {
  const VolcanoJob& job = *s.job;
  VolcanoState state = s.initial;
  double progress = 0, wall = 0, waste = 0;
  int64_t failures = 0;
  std::vector<VolcanoEventSpec> step(1);
  std::string error;
  for (;;) {
    const double gap = rng.Exponential(s.mean_gap);
    if (!(gap < m.run_time_s - progress)) {
      wall += m.run_time_s - progress;
      // The work is done: every pod still alive succeeds, and the sync judges the job by its
      // minAvailable and minSuccess (one OutOfSync request).
      state.pods.SucceedAlive();
      VolcanoStepOutcome out;
      ApplyVolcanoStep(job, &state, {VolcanoEventSpec{"", -1, "OutOfSync", false, 0, ""}}, &out,
                       &error);
      if (state.phase == VolcanoPhase::kCompleted) {
        ++b->ends[kCompleted];
        b->waste_node_s += waste;
        b->finish_sum += wall;
        b->finish.push_back(wall);
      } else {
        ++b->ends[kFailedAtEnd];
        b->waste_node_s += s.nodes * wall;
      }
      break;
    }
    progress += gap;
    wall += gap;
    if (++failures > m.max_failures_per_run) {
      ++b->ends[kUnbounded];
      break;
    }
    const double u = rng.Uniform();
    size_t k = 0;
    while (k + 1 < s.cumulative.size() && u >= s.cumulative[k]) ++k;
    int task = s.kind_task[k];
    if (task < 0) {
      // The first task whose upper bound is above v: scanned, or searched among many tasks.
      const double v = rng.Uniform();
      const std::vector<double>& c = s.task_cumulative;
      task = 0;
      if (c.size() <= kScanTasks) {
        while (task + 1 < static_cast<int>(c.size()) && v >= c[task]) ++task;
      } else {
        task = static_cast<int>(
            std::min<size_t>(std::upper_bound(c.begin(), c.end(), v) - c.begin(), c.size() - 1));
      }
    }
    const int64_t replicas = job.tasks[task].replicas;
    const int64_t index = rng.Below(replicas);
    const VolcanoPodPhase phase = state.pods.Pod(task, index).phase;
    if (phase != VolcanoPodPhase::kRunning && phase != VolcanoPodPhase::kPending) {
      ++b->absorbed;  // That pod was left Failed earlier: nothing more to lose.
      continue;
    }
    step[0] = s.specs[k];
    step[0].task = job.tasks[task].name;
    step[0].index = index;
    const int64_t retries_before = state.retry_count;
    VolcanoStepOutcome out;
    if (!ApplyVolcanoStep(job, &state, step, &out, &error)) {
      ++b->errors;  // Cannot happen for a model ValidateVolcanoModel accepts.
      break;
    }
    bool whole_job = false, recreated = false;
    for (const VolcanoEventOutcome& e : out.events) {
      if (e.scheduled) continue;
      ++b->actions[static_cast<size_t>(e.match.action)];
      whole_job = whole_job || e.match.action == VolcanoAction::kRestartJob;
      recreated = recreated ||
                  (e.request.event == "PodEvicted" && e.match.action == VolcanoAction::kSyncJob);
    }
    const VolcanoPhase end = state.phase;
    if (end == VolcanoPhase::kFailed || end == VolcanoPhase::kAborted ||
        end == VolcanoPhase::kTerminated || end == VolcanoPhase::kCompleted) {
      ++b->ends[end == VolcanoPhase::kFailed       ? kFailedRetries
                : end == VolcanoPhase::kAborted    ? kAborted
                : end == VolcanoPhase::kTerminated ? kTerminated
                                                   : kCompletedEarly];
      b->waste_node_s += s.nodes * wall;
      break;
    }
    if (state.retry_count > retries_before) {
      const double down = whole_job ? m.restart_time_s : m.job_restart_time_s;
      wall += down;
      waste += s.nodes * down;
      if (m.checkpoint_interval_s > 0) {
        const double lost =
            progress - m.checkpoint_interval_s * std::floor(progress / m.checkpoint_interval_s);
        progress -= lost;
        waste += s.nodes * lost;
      }
    } else if (recreated) {
      wall += m.job_restart_time_s;
      waste += s.nodes * m.job_restart_time_s;
    }
  }
  b->retries += state.retry_count;
  b->failures += failures;
}

}  // namespace

bool ParseVolcanoFaultMix(std::string_view text, std::vector<VolcanoFaultKind>* faults,
                          std::string* error) {
  std::vector<FaultMixItem> parsed;
  if (!ParseFaultMixItems(text, kVolcanoFaultMixWords, &parsed, error)) return false;
  std::vector<VolcanoFaultKind> out;
  for (const FaultMixItem& f : parsed) {
    VolcanoFaultKind k;
    k.event = f.key;
    k.weight = f.weight;
    k.task = f.target;
    if (k.event != "PodEvicted" && k.event != "PodFailed") {
      *error = "fault mix: '" + k.event + "': a node failure surfaces as PodEvicted or " +
               "PodFailed[:EXITCODE] for a Volcano Job" +
               (k.event == "PodFailurePolicy" || k.event == "BackoffLimitExceeded"
                    ? " (that is a JobSet failure reason)"
                    : "");
      return false;
    }
    if (!f.detail.empty()) {
      const char* end = f.detail.data() + f.detail.size();
      auto [p, ec] = std::from_chars(f.detail.data(), end, k.exit_code);
      if (ec != std::errc() || p != end || k.event != "PodFailed") {
        *error = "fault mix: '" + k.event + ":" + f.detail +
                 "': only PodFailed takes an exit code, an integer";
        return false;
      }
      k.has_exit_code = true;
    }
    out.push_back(std::move(k));
  }
  *faults = std::move(out);
  return true;
}

std::vector<VolcanoFaultKind> DefaultVolcanoFaultMix() {
  return {{"PodEvicted", false, 0, 0.9, ""}, {"PodFailed", true, 143, 0.1, ""}};
}

std::string ValidateVolcanoModel(const VolcanoJob& job, const VolcanoFailureModel& m) {
  int64_t pods = 0;
  for (const VolcanoTask& t : job.tasks) pods += std::max<int64_t>(t.replicas, 0);
  if (pods == 0) return "the job has no pod to fail (no task with replicas > 0)";
  for (size_t t = 0; t < job.tasks.size(); ++t) {
    if (FindVolcanoTask(job, job.tasks[t].name) != static_cast<int>(t))
      return "task name '" + job.tasks[t].name + "' is used twice (the API server rejects it)";
  }
  if (!(m.node_mttf_s > 0)) return "--node-mttf must be positive";
  if (!(m.run_time_s > 0) || !std::isfinite(m.run_time_s)) return "--run-time must be positive";
  if (!(m.restart_time_s >= 0) || !(m.job_restart_time_s >= 0) || !(m.checkpoint_interval_s >= 0))
    return "durations must not be negative";
  if (m.nodes < 0) return "--nodes must not be negative";
  if (m.runs <= 0 || m.runs > 10'000'000) return "--runs must be in [1, 10000000]";
  if (m.faults.empty()) return "empty fault mix";
  for (const VolcanoFaultKind& f : m.faults) {
    if (f.task.empty()) continue;
    const int t = FindVolcanoTask(job, f.task);
    if (t < 0) {
      std::string names;
      for (const VolcanoTask& task : job.tasks) names += (names.empty() ? "" : ", ") + task.name;
      return "fault mix: no task '" + f.task + "' (tasks: " + names + ")";
    }
    if (job.tasks[t].replicas <= 0) return "fault mix: task '" + f.task + "' has no replicas";
  }
  return "";
}

VolcanoMonteCarloResult RunVolcanoMonteCarlo(const VolcanoJob& job,
                                             const VolcanoFailureModel& model, int threads,
                                             const std::atomic<bool>* cancel,
                                             SimProgress progress) {
  VolcanoMonteCarloResult r;
  r.error = ValidateVolcanoModel(job, model);
  if (!r.error.empty()) return r;
  Setup s;
  s.job = &job;
  s.initial = InitialVolcanoState(job);
  int64_t pods = 0;
  for (const VolcanoTask& t : job.tasks) pods += std::max<int64_t>(t.replicas, 0);
  r.nodes = model.nodes > 0 ? model.nodes : pods;
  s.nodes = static_cast<double>(r.nodes);
  r.failure_rate = s.nodes / model.node_mttf_s;
  s.mean_gap = 1 / r.failure_rate;
  double total = 0;
  for (const VolcanoFaultKind& f : model.faults) total += f.weight;
  double acc = 0;
  for (const VolcanoFaultKind& f : model.faults) {
    acc += f.weight / total;
    s.cumulative.push_back(acc);
    s.kind_task.push_back(f.task.empty() ? -1 : FindVolcanoTask(job, f.task));
    s.specs.push_back({"", -1, f.event, f.has_exit_code, f.exit_code, ""});
  }
  acc = 0;
  for (const VolcanoTask& t : job.tasks) {
    acc += static_cast<double>(std::max<int64_t>(t.replicas, 0)) / static_cast<double>(pods);
    s.task_cumulative.push_back(acc);
  }
  const SimOptions options = {.runs = model.runs,
                              .seed = model.seed,
                              .threads = threads,
                              .cancel = cancel,
                              .progress = std::move(progress)};
  SimChunks<Block> sim = RunSimulation<Block>(options, [&s, &model] {
    return [&s, &model](Rng& rng, Block* b) {
      SimulateRun(s, model, rng, b);
      return RunStatus::kDone;
    };
  });
  const std::vector<Block>& blocks = sim.chunks;
  r.cancelled = sim.cancelled;

  Block all;
  for (const Block& b : blocks) {
    for (size_t e = 0; e < kEnds; ++e) all.ends[e] += b.ends[e];
    for (size_t a = 0; a < all.actions.size(); ++a) all.actions[a] += b.actions[a];
    all.retries += b.retries;
    all.failures += b.failures;
    all.absorbed += b.absorbed;
    all.errors += b.errors;
    all.waste_node_s += b.waste_node_s;
    all.finish_sum += b.finish_sum;
    all.finish.insert(all.finish.end(), b.finish.begin(), b.finish.end());
  }
  if (all.errors > 0) {
    r.error = "internal error: " + std::to_string(all.errors) + " run(s) met an impossible event";
    return r;
  }
  r.runs = sim.runs_done;
  r.runs_requested = model.runs;
  const double runs = static_cast<double>(std::max<int64_t>(1, r.runs));
  r.completed = all.ends[kCompleted];
  r.failed_retries = all.ends[kFailedRetries];
  r.failed_at_end = all.ends[kFailedAtEnd];
  r.aborted = all.ends[kAborted];
  r.terminated = all.ends[kTerminated];
  r.completed_early = all.ends[kCompletedEarly];
  r.unbounded = all.ends[kUnbounded];
  r.mean_retries = static_cast<double>(all.retries) / runs;
  r.mean_failures = static_cast<double>(all.failures) / runs;
  r.mean_absorbed = static_cast<double>(all.absorbed) / runs;
  const int64_t bounded = r.runs - r.unbounded;
  r.mean_wasted_node_hours = bounded ? all.waste_node_s / 3600 / static_cast<double>(bounded) : 0;
  std::vector<std::string_view> names = VolcanoPolicyActions();
  names.push_back("SyncJob");
  for (std::string_view name : names) {
    int64_t count = all.actions[static_cast<size_t>(ParseVolcanoAction(name))];
    if (count > 0) r.actions.push_back({std::string(name), static_cast<double>(count) / runs});
  }
  if (int64_t other = all.actions[static_cast<size_t>(VolcanoAction::kOther)]; other > 0)
    r.actions.push_back({"Other", static_cast<double>(other) / runs});
  r.time_to_finish.samples = std::move(all.finish);
  if (r.completed > 0) r.time_to_finish.mean = all.finish_sum / static_cast<double>(r.completed);
  FillFinishTimes(&r.time_to_finish);
  return r;
}

}  // namespace jobset
