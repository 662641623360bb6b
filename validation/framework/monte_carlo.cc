#include "validation/framework/monte_carlo.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "validation/framework/replay.h"
#include "validation/sim/random.h"

namespace jobset {
namespace {

enum class Outcome { kCompleted, kFailed, kStuck, kUnbounded, kFalseSuccess };

// Up to this many task roles, a failure's role is found by a scan rather than a binary search.
constexpr size_t kScanRoles = 16;

struct RunResult {
  Outcome outcome = Outcome::kCompleted;
  double wall = 0, wasted = 0;  ///< Seconds; wasted is per node.
  int64_t restarts = 0, counted = 0, task_restarts = 0, failures = 0;
};

// The sums of a chunk of runs (see RunSimulation), accumulated in run order.
struct Chunk {
  int64_t completed = 0, failed = 0, stuck = 0, unbounded = 0, false_success = 0;
  int64_t restarts = 0, counted = 0, task_restarts = 0, failures = 0;
  double wasted = 0;  // Per node, over completed, failed and falsely successful runs.
  int64_t wasted_runs = 0;
  double finish_sum = 0;
  std::vector<double> finish;  // Completed runs' wall times, in run order.
};

bool ParseWeight(std::string_view text, double* out) {
  std::string s(text);
  bool percent = !s.empty() && s.back() == '%';
  if (percent) s.pop_back();
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !(v > 0) || !std::isfinite(v)) return false;
  *out = percent ? v / 100 : v;
  return true;
}

class Simulator {
 public:
  Simulator(const Framework& fw, const FrameworkFailureModel& m, int64_t nodes)
      : fw_(fw), m_(m), nodes_(static_cast<double>(nodes)) {
    // A role's kinds: those of every role and those naming it, in fault mix order.
    std::vector<size_t> everywhere;
    std::unordered_map<std::string_view, std::vector<size_t>> named;
    for (size_t k = 0; k < m.faults.size(); ++k) {
      if (m.faults[k].role.empty()) {
        everywhere.push_back(k);
      } else {
        named[m.faults[k].role].push_back(k);
      }
    }
    static const std::vector<size_t> kNone;
    for (const FrameworkTaskRole& role : fw.task_roles) {
      const auto found = named.find(role.name);
      const std::vector<size_t>& own = found == named.end() ? kNone : found->second;
      std::vector<size_t> kinds;
      std::merge(everywhere.begin(), everywhere.end(), own.begin(), own.end(),
                 std::back_inserter(kinds));
      faults_by_role_.push_back(std::move(kinds));
      role_end_.push_back((role_end_.empty() ? 0 : role_end_.back()) +
                          std::max<int64_t>(role.task_number, 0));
    }
  }

  // One run, drawing from `rng` only.
  RunResult Run(Rng& rng) {
    RunResult r;
    tasks_ = FreshTasks();
    counts_ = FreshCompletionCounts(fw_);
    counters_ = {};
    double progress = 0;
    const double rate = std::isfinite(m_.node_mttf_s) ? nodes_ / m_.node_mttf_s : 0;
    auto restart = [&](double downtime) {
      double lost =
          m_.checkpoint_interval_s > 0 ? std::fmod(progress, m_.checkpoint_interval_s) : 0;
      progress -= lost;
      r.wall += downtime;
      r.wasted += downtime + lost;
    };
    auto end_wasting_all = [&](Outcome o) {
      r.outcome = o;
      r.wasted = r.wall;
      return r;
    };
    while (true) {
      double dt = rate > 0 ? rng.Exponential(1 / rate) : std::numeric_limits<double>::infinity();
      if (progress + dt >= m_.run_time_s) {
        r.wall += m_.run_time_s - progress;
        r.outcome = Finish();
        return r;
      }
      progress += dt;
      r.wall += dt;
      if (++r.failures > m_.max_failures_per_run) {
        r.outcome = Outcome::kUnbounded;
        return r;
      }
      // A running task, uniformly (tasks are never completed while the run goes on: a task
      // that completes either ends the attempt or the run).
      int64_t pick = rng.Below(role_end_.back());
      size_t role = 0;
      if (role_end_.size() <= kScanRoles) {
        while (pick >= static_cast<int64_t>(tasks_[role].size())) pick -= tasks_[role++].size();
      } else {  // The role whose range holds `pick` (empty roles have empty ranges).
        role = static_cast<size_t>(std::upper_bound(role_end_.begin(), role_end_.end(), pick) -
                                   role_end_.begin());
        pick -= role_end_[role] - static_cast<int64_t>(tasks_[role].size());
      }
      const std::vector<size_t>& kinds = faults_by_role_[role];
      if (kinds.empty()) continue;  // absorbed: no fault surfaces in this role
      double sum = 0;
      for (size_t k : kinds) sum += m_.faults[k].weight;
      double x = rng.Uniform() * sum;
      size_t kind = kinds.back();
      for (size_t k : kinds) {
        if (x < m_.faults[k].weight) {
          kind = k;
          break;
        }
        x -= m_.faults[k].weight;
      }
      const CompletionStatus& status = m_.faults[kind].status;
      SimTask& task = tasks_[role][static_cast<size_t>(pick)];
      RetryDecision d = ShouldRetry(fw_.task_roles[role].retry, status, task.counters, 0, 0);
      if (d.should_retry) {
        ++task.counters.total;
        task.counters.accountable += d.accountable;
        ++r.task_restarts;
        restart(m_.task_restart_time_s);
        continue;
      }
      task.completed = true;
      task.status = status;
      CountCompletion(&counts_, role, status);
      AttemptVerdict v = CheckCompletionPolicy(fw_, counts_, role, status);
      if (!v.complete) return end_wasting_all(Outcome::kStuck);
      if (v.status.type.succeeded) return end_wasting_all(Outcome::kFalseSuccess);
      RetryDecision fd = ShouldRetry(fw_.retry, v.status, counters_, kFrameworkMinConflictDelaySec,
                                     kFrameworkMaxConflictDelaySec);
      if (!fd.should_retry) return end_wasting_all(Outcome::kFailed);
      ++counters_.total;
      counters_.accountable += fd.accountable;
      ++r.restarts;
      r.counted += fd.accountable;
      double delay =
          fd.delay_max > 0
              ? static_cast<double>(fd.delay_min + rng.Below(fd.delay_max - fd.delay_min + 1))
              : 0;
      tasks_ = FreshTasks();
      counts_ = FreshCompletionCounts(fw_);
      restart(m_.restart_time_s + delay);
    }
  }

 private:
  std::vector<std::vector<SimTask>> FreshTasks() const {
    std::vector<std::vector<SimTask>> t;
    for (const FrameworkTaskRole& r : fw_.task_roles)
      t.emplace_back(static_cast<size_t>(std::max<int64_t>(r.task_number, 0)));
    return t;
  }

  // The work is done: every task succeeds, in order.
  Outcome Finish() {
    static const CompletionStatus kSucceeded{0, "Succeeded", {true, false, false, false}};
    for (size_t role = 0; role < tasks_.size(); ++role) {
      for (size_t i = 0; i < tasks_[role].size(); ++i) {
        SimTask& t = tasks_[role][i];
        if (ShouldRetry(fw_.task_roles[role].retry, kSucceeded, t.counters, 0, 0).should_retry)
          return Outcome::kUnbounded;  // the task reruns after success, forever
        t.completed = true;
        t.status = kSucceeded;
        CountCompletion(&counts_, role, kSucceeded);
        AttemptVerdict v = CheckCompletionPolicy(fw_, counts_, role, kSucceeded);
        if (!v.complete) continue;
        bool rerun = ShouldRetry(fw_.retry, v.status, counters_, 0, 0).should_retry;
        return rerun ? Outcome::kUnbounded : Outcome::kCompleted;
      }
    }
    return Outcome::kUnbounded;
  }

  const Framework& fw_;
  const FrameworkFailureModel& m_;
  double nodes_;
  std::vector<std::vector<size_t>> faults_by_role_;
  std::vector<int64_t> role_end_;  // Σ taskNumber of the roles up to each one.
  std::vector<std::vector<SimTask>> tasks_;
  CompletionCounts counts_;
  RetryCounters counters_;
};

// Adds run `r` to `c`.
void AddRun(const RunResult& r, int64_t max_failures, Chunk* c) {
  c->restarts += r.restarts;
  c->counted += r.counted;
  c->task_restarts += r.task_restarts;
  c->failures += std::min(r.failures, max_failures);
  switch (r.outcome) {
    case Outcome::kCompleted:
      ++c->completed;
      c->finish.push_back(r.wall);
      c->finish_sum += r.wall;
      break;
    case Outcome::kFailed:
      ++c->failed;
      break;
    case Outcome::kStuck:
      ++c->stuck;
      break;
    case Outcome::kUnbounded:
      ++c->unbounded;
      break;
    case Outcome::kFalseSuccess:
      ++c->false_success;
      break;
  }
  if (r.outcome == Outcome::kCompleted || r.outcome == Outcome::kFailed ||
      r.outcome == Outcome::kFalseSuccess) {
    c->wasted += r.wasted;
    ++c->wasted_runs;
  }
}

}  // namespace

bool ParseFrameworkFaultMix(std::string_view text, std::vector<FrameworkFault>* faults,
                            std::string* error) {
  faults->clear();
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    size_t eq = item.rfind('=');
    FrameworkFault f;
    std::string_view weight =
        eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
    if (size_t at = weight.find('@'); at != std::string_view::npos) {
      f.role = std::string(weight.substr(at + 1));
      weight = weight.substr(0, at);
    }
    if (eq == std::string_view::npos || eq == 0 || !ParseWeight(weight, &f.weight)) {
      *error = "'" + std::string(item) + "': want CODE=WEIGHT[@TASKROLE], e.g. PodEvicted=0.9";
      return false;
    }
    f.text = std::string(item.substr(0, eq));
    std::string why;
    if (!ParseTaskCompletion(f.text, &f.status, &why)) {
      *error = "'" + std::string(item) + "': " + why;
      return false;
    }
    if (f.status.type.succeeded) {
      *error = "'" + std::string(item) + "': a node failure cannot complete a task as Succeeded";
      return false;
    }
    faults->push_back(std::move(f));
  }
  if (faults->empty()) {
    *error = "empty fault mix";
    return false;
  }
  return true;
}

std::vector<FrameworkFault> DefaultFrameworkFaultMix() {
  std::vector<FrameworkFault> mix;
  std::string error;
  ParseFrameworkFaultMix("PodEvicted=0.9,1=0.1", &mix, &error);
  return mix;
}

FrameworkMonteCarloResult RunFrameworkMonteCarlo(const Framework& fw,
                                                 const FrameworkFailureModel& m, int threads,
                                                 const std::atomic<bool>* cancel,
                                                 SimProgress progress) {
  FrameworkMonteCarloResult res;
  res.runs = m.runs;
  res.runs_requested = m.runs;
  const int64_t tasks = TotalTaskNumber(fw);
  res.nodes = m.nodes > 0 ? m.nodes : tasks;
  if (tasks == 0) res.error = "the Framework has no task (the sum of taskNumber is 0)";
  if (!(m.node_mttf_s > 0)) res.error = "--node-mttf must be positive";
  if (!(m.run_time_s > 0)) res.error = "--run-time must be positive";
  if (m.runs < 1 || m.runs > 100'000'000) res.error = "--runs must be in [1, 100000000]";
  if (m.faults.empty()) res.error = "empty fault mix";
  std::unordered_set<std::string_view> role_names;
  for (const FrameworkTaskRole& r : fw.task_roles) role_names.insert(r.name);
  const FrameworkFault* unknown = nullptr;  // The last fault naming no task role.
  for (const FrameworkFault& f : m.faults) {
    if (!f.role.empty() && !role_names.count(f.role)) unknown = &f;
  }
  if (unknown) {
    std::string roles;
    for (const FrameworkTaskRole& r : fw.task_roles) roles += (roles.empty() ? "" : ", ") + r.name;
    res.error = "--fault-mix: no task role '" + unknown->role + "' (roles: " + roles + ")";
  }
  if (!res.error.empty()) return res;
  const SimOptions options = {.runs = m.runs,
                              .seed = m.seed,
                              .threads = threads,
                              .cancel = cancel,
                              .progress = std::move(progress)};
  const int64_t nodes = res.nodes;
  SimChunks<Chunk> sim = RunSimulation<Chunk>(options, [&fw, &m, nodes] {
    return [&m, sim = Simulator(fw, m, nodes)](Rng& rng, Chunk* chunk) mutable {
      AddRun(sim.Run(rng), m.max_failures_per_run, chunk);
      return RunStatus::kDone;
    };
  });
  res.runs = sim.runs_done;
  res.cancelled = sim.cancelled;
  Chunk all;
  for (Chunk& c : sim.chunks) {
    all.completed += c.completed;
    all.failed += c.failed;
    all.stuck += c.stuck;
    all.unbounded += c.unbounded;
    all.false_success += c.false_success;
    all.restarts += c.restarts;
    all.counted += c.counted;
    all.task_restarts += c.task_restarts;
    all.failures += c.failures;
    all.wasted += c.wasted;
    all.wasted_runs += c.wasted_runs;
    all.finish_sum += c.finish_sum;
    all.finish.insert(all.finish.end(), c.finish.begin(), c.finish.end());
    std::vector<double>().swap(c.finish);
  }
  res.completed = all.completed;
  res.failed = all.failed;
  res.stuck = all.stuck;
  res.unbounded = all.unbounded;
  res.false_success = all.false_success;
  if (res.runs == 0) return res;
  const double n = static_cast<double>(res.runs);
  res.p_complete = static_cast<double>(res.completed) / n;
  res.p_fail = static_cast<double>(res.failed) / n;
  res.p_stuck = static_cast<double>(res.stuck) / n;
  res.p_unbounded = static_cast<double>(res.unbounded) / n;
  res.p_false_success = static_cast<double>(res.false_success) / n;
  res.mean_restarts = static_cast<double>(all.restarts) / n;
  res.mean_counted_restarts = static_cast<double>(all.counted) / n;
  res.mean_task_restarts = static_cast<double>(all.task_restarts) / n;
  res.mean_failures = static_cast<double>(all.failures) / n;
  if (all.wasted_runs > 0) {
    res.mean_wasted_node_hours =
        all.wasted * static_cast<double>(res.nodes) / 3600 / static_cast<double>(all.wasted_runs);
  }
  res.time_to_finish.samples = std::move(all.finish);
  if (res.completed > 0) {
    res.time_to_finish.mean = all.finish_sum / static_cast<double>(res.completed);
  }
  FillFinishTimes(&res.time_to_finish);
  return res;
}

}  // namespace jobset
