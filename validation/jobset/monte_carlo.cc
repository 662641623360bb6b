#include "validation/jobset/monte_carlo.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>
#include <span>
#include <unordered_map>

#include "validation/core/strings.h"
#include "validation/jobset/message_set.h"
#include "validation/sim/random.h"

namespace jobset {
namespace {

// Failures between two looks at the cancel flag inside one run.
constexpr int64_t kCancelCheckMask = (1 << 12) - 1;

// Outcome tables up to this size are scanned for each failure rather than binary searched.
constexpr size_t kScanOutcomes = 16;

// --- Setup ----------------------------------------------------------------------------------

// What a node failure turns into: a failure of a job of `rjob` with fault kind `kind` (-1: no
// kind applies, the failure is absorbed).
struct Outcome {
  int rjob = 0;
  int kind = -1;
  double replicas = 0;  // Jobs of rjob, to draw the index.
};

// The read-only tables of a simulation.
struct Setup {
  double nodes = 0;
  double rate = 0;      // Failures per productive second.
  double mean_gap = 0;  // 1 / rate (multiplying is cheaper than dividing).
  double checkpoint_inverse = 0;
  double run_time = 0;
  double restart_time = 0;
  double job_restart_time = 0;
  double checkpoint = 0;
  int64_t max_failures = 0;
  double arrive_faulty = 0;  // Pre-flight check: see FailureModel.
  bool node_check = false;
  double check_round = 0;
  double check_miss = 0;
  double faulty_after = 0;
  std::vector<double> cumulative;  // Upper bound of each outcome's probability interval.
  std::vector<Outcome> outcomes;
  // The policy the runs use: the caller's, or its specialisation to the fault mix (see
  // Specialize), with the reason and message each fault kind's failures carry.
  PreparedPolicy policy;
  std::vector<std::string> reasons, messages;
};

// What the validation of a model works out once for its run (see ValidateAndBind).
struct Bound {
  std::vector<int> kind_rjob;    // The replicated job of each fault kind (see BindFaultMix).
  std::vector<int64_t> derived;  // DerivedNodes of each replicated job.
  int64_t nodes = 0;             // ModelNodeCount.
};

int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::numeric_limits<int64_t>::max();
  return r;
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::numeric_limits<int64_t>::max();
  return r;
}

// A node count above this is surely a mistake (and loses precision as a double).
constexpr int64_t kMaxNodes = int64_t{1} << 50;

// Runs kept in memory: a chunk summary per 256 runs and a sample per completed run (~1 GB).
constexpr int64_t kMaxRuns = 100'000'000;

bool FiniteNonNegative(double x) { return std::isfinite(x) && x >= 0; }

// Rules x fault kinds up to which the specialisation decides every pair (SpecializeByKind).
constexpr size_t kByKindPairs = size_t{1} << 20;

// A reason list no failure of the specialised policy carries.
constexpr char kNoReason[] = "\x01none";

// The failures of a simulation carry one of a few fixed (reason, message) pairs, one per fault
// kind. Up to kByKindPairs rules x kinds (every real policy and fault mix), whether a rule's
// reasons and patterns admit a failure is decided per kind: the specialised policy decides
// exactly as `in` does for failures of fault kind k that carry the reason "\x01<k>" and an empty
// message: each rule admits the reasons of the kinds that `in`'s rule admits by reason and
// message, and has no patterns (targets are kept). Matching is then a short string comparison
// instead of a regular expression search per failure.
PreparedPolicy SpecializeByKind(const PreparedPolicy& in, const std::vector<FaultKind>& faults,
                                std::vector<std::string>* reasons) {
  PreparedPolicy p = in;
  reasons->clear();
  reasons->reserve(faults.size());
  for (size_t k = 0; k < faults.size(); ++k) {
    char name[24] = "\x01";  // "\x01<k>", built in place.
    char* end = std::to_chars(name + 1, name + sizeof name, k).ptr;
    reasons->emplace_back(name, end);
  }
  int first_named = -1;  // The first rjob with a name (a rule without targets admits it).
  for (size_t j = 0; j < in.rjob_names.size() && first_named < 0; ++j) {
    if (!in.rjob_names[j].empty()) first_named = static_cast<int>(j);
  }
  for (size_t r = 0; r < p.rules.size(); ++r) {
    const PreparedRule& rule = in.rules[r];
    // Reason and message do not depend on the replicated job: ask for one the rule targets.
    int target = rule.targets_all ? first_named : -1;
    for (size_t k = 0; k < rule.target_keys.size() && target < 0; ++k) {
      if (!in.rjob_names[rule.target_keys[k]].empty()) target = rule.target_keys[k];
    }
    std::vector<std::string> admitted;
    for (size_t k = 0; target >= 0 && k < faults.size(); ++k) {
      if (RuleMatches(in, rule, target, faults[k].reason, faults[k].message)) {
        admitted.push_back((*reasons)[k]);
      }
    }
    if (admitted.empty()) admitted.push_back(kNoReason);  // An empty list would admit any.
    PreparedRule& out = p.rules[r];
    out.reasons = std::move(admitted);
    SortReasons(&out);
    out.has_patterns = false;
    out.patterns.clear();
    out.combined = nullptr;
  }
  IndexRules(&p);  // The reason lists changed.
  return p;
}

// Above kByKindPairs, SpecializeByKind would cost rules x kinds: then only the patterns are
// decided beforehand. The specialised policy decides exactly as `in` does for failures of fault
// kind k that carry the kind's reason and the message (*messages)[k], a short name of the kind's
// message ("\x01<d>", d counting the distinct messages): each rule with patterns lists the names
// of the messages its patterns match (PreparedRule::messages_decided); reasons and targets are
// kept. Preparing it costs one RE2::Set search per distinct message (MatchRuleMessages) plus the
// lists it makes (before, one search per rule with patterns and distinct message), whatever the
// rules' reason and target lists and the number of kinds; the runs pay a message lookup per rule
// with patterns a failure reaches (by kind, a reason comparison fails first for most): about 7%
// of monte_carlo_bench's throughput.
PreparedPolicy SpecializeByMessage(const PreparedPolicy& in, const std::vector<FaultKind>& faults,
                                   std::vector<std::string>* reasons,
                                   std::vector<std::string>* messages) {
  PreparedPolicy p = in;
  reasons->clear();
  messages->clear();
  std::unordered_map<std::string_view, int> message_id;
  std::vector<std::string_view> distinct;
  for (const FaultKind& kind : faults) {
    const auto [it, added] = message_id.emplace(kind.message, static_cast<int>(distinct.size()));
    if (added) distinct.push_back(kind.message);
    reasons->push_back(kind.reason);
    messages->push_back("\x01" + std::to_string(it->second));
  }
  const std::vector<std::vector<int>> matches = MatchRuleMessages(in.rules, distinct);
  for (size_t r = 0; r < p.rules.size(); ++r) {
    PreparedRule& rule = p.rules[r];
    if (!rule.has_patterns) continue;
    rule.matching_messages.clear();
    rule.matching_messages.reserve(matches[r].size());
    for (int d : matches[r]) rule.matching_messages.push_back("\x01" + std::to_string(d));
    std::sort(rule.matching_messages.begin(), rule.matching_messages.end());
    rule.messages_decided = true;
  }
  return p;
}

// Builds the tables of a valid model from what its validation worked out.
Setup MakeSetup(const PreparedPolicy& policy, const JobSet& js, const FailureModel& model,
                const Bound& bound_to) {
  Setup s;
  const std::vector<FaultKind>& faults = model.faults;
  const std::vector<int>& kind_rjob = bound_to.kind_rjob;
  if (model.precompute_matches) {
    if (policy.rules.size() * faults.size() <= kByKindPairs) {
      s.policy = SpecializeByKind(policy, faults, &s.reasons);
      s.messages.assign(faults.size(), "");
    } else {
      s.policy = SpecializeByMessage(policy, faults, &s.reasons, &s.messages);
    }
  } else {
    s.policy = policy;
    for (const FaultKind& k : faults) {
      s.reasons.push_back(k.reason);
      s.messages.push_back(k.message);
    }
  }
  s.nodes = static_cast<double>(bound_to.nodes);
  s.rate = s.nodes / model.node_mttf_s;  // 0 when the MTTF is infinite.
  s.run_time = model.run_time_s;
  s.restart_time = model.restart_time_s;
  s.job_restart_time = model.job_restart_time_s;
  s.checkpoint = model.checkpoint_interval_s;
  s.mean_gap = s.rate > 0 ? 1 / s.rate : 0;
  s.checkpoint_inverse = s.checkpoint > 0 ? 1 / s.checkpoint : 0;
  s.max_failures = model.max_failures_per_run;
  s.arrive_faulty = model.arrive_faulty;
  s.node_check = model.node_check;
  s.check_round = model.node_check_round_s;
  s.check_miss = model.node_check_miss;
  s.faulty_after = model.faulty_fails_after_s;
  double derived_total = 0;
  for (const int64_t d : bound_to.derived) derived_total += static_cast<double>(d);
  // The kinds of any replicated job, and those bound to each one, in fault mix order: a
  // replicated job's kinds are the two lists merged. Those bound to replicated job r are
  // bound[bound_begin[r] .. bound_begin[r + 1]).
  const size_t n_rjobs = js.replicated_jobs.size();
  std::vector<int> everywhere;
  std::vector<uint32_t> bound_begin(n_rjobs + 1, 0);
  for (const int rjob : kind_rjob) {
    if (rjob >= 0 && static_cast<size_t>(rjob) < n_rjobs) ++bound_begin[rjob + 1];
  }
  for (size_t r = 0; r < n_rjobs; ++r) bound_begin[r + 1] += bound_begin[r];
  std::vector<int> bound(bound_begin[n_rjobs]);
  std::vector<uint32_t> fill(bound_begin.begin(), bound_begin.end() - 1);
  for (size_t k = 0; k < kind_rjob.size(); ++k) {
    const int rjob = kind_rjob[k];
    if (rjob < 0) {
      everywhere.push_back(static_cast<int>(k));
    } else if (static_cast<size_t>(rjob) < n_rjobs) {
      bound[fill[rjob]++] = static_cast<int>(k);
    }
  }
  // The outcomes counted first, so that each table is allocated once (weights are positive: a
  // replicated job with no kind has one outcome, absorbing its failures).
  size_t n_outcomes = 0;
  for (size_t r = 0; r < n_rjobs; ++r) {
    if (static_cast<double>(bound_to.derived[r]) / derived_total > 0) {
      n_outcomes += std::max<size_t>(1, everywhere.size() + bound_begin[r + 1] - bound_begin[r]);
    }
  }
  s.cumulative.reserve(n_outcomes);
  s.outcomes.reserve(n_outcomes);
  std::vector<int> kinds;
  double acc = 0;
  for (size_t r = 0; r < n_rjobs; ++r) {
    const double share = static_cast<double>(bound_to.derived[r]) / derived_total;
    if (!(share > 0)) continue;
    const double replicas = static_cast<double>(js.replicated_jobs[r].replicas);
    kinds.clear();
    std::merge(everywhere.begin(), everywhere.end(), bound.begin() + bound_begin[r],
               bound.begin() + bound_begin[r + 1], std::back_inserter(kinds));
    double weights = 0;
    for (int k : kinds) weights += faults[k].weight;
    if (weights == 0) {
      acc += share;
      s.cumulative.push_back(acc);
      s.outcomes.push_back({static_cast<int>(r), -1, replicas});
      continue;
    }
    for (int k : kinds) {
      acc += share * faults[k].weight / weights;
      s.cumulative.push_back(acc);
      s.outcomes.push_back({static_cast<int>(r), k, replicas});
    }
  }
  // Rounding must not leave a gap at the top: the last outcome takes everything above.
  if (!s.cumulative.empty()) s.cumulative.back() = std::numeric_limits<double>::infinity();
  return s;
}

// --- Simulation -----------------------------------------------------------------------------

// Working memory of one thread, reused from run to run and failure to failure.
struct Worker {
  ControllerState state;
  StepOutcome out;
};

// The sums of a chunk of runs (see RunSimulation), accumulated in run order.
struct Chunk {
  int64_t completed = 0, failed = 0, stuck = 0, unbounded = 0;
  int64_t restarts = 0, job_restarts = 0, counted_restarts = 0, failures = 0, ignored = 0;
  ActionCounts actions;
  double waste_node_s = 0;  // Completed and failed runs.
  double finish_sum = 0, fail_time_sum = 0;
  std::vector<double> finish;      // Completed runs' wall times, in run order.
  int64_t faulty = 0, caught = 0;  // Pre-flight check.
  double check_s = 0;
};

enum class RunEnd : uint8_t { kCompleted, kFailed, kStuck, kUnbounded, kCancelled };

void AddActions(const ActionCounts& a, ActionCounts* to) {
  to->fail_jobset += a.fail_jobset;
  to->restart_jobset += a.restart_jobset;
  to->restart_jobset_ignore_max += a.restart_jobset_ignore_max;
  to->restart_job += a.restart_job;
  to->restart_job_ignore_max += a.restart_job_ignore_max;
  to->default_restart += a.default_restart;
  to->reached_max += a.reached_max;
  to->no_policy_fail += a.no_policy_fail;
  to->stuck += a.stuck;
}

// One run as it goes: its clock, its waste, what its failures did.
struct RunTally {
  double progress = 0;  // Productive time kept, in [0, run_time).
  double wall = 0;
  double waste = 0;  // Node-seconds.
  int64_t failures = 0, ignored = 0, job_restarts = 0;
  // Pre-flight check: faulty arrivals, the faulty nodes it caught and those it lets through.
  int64_t faulty = 0, caught = 0, pending_faulty = 0;
  double check = 0;  // The check's time.
  ActionCounts actions;
};

// The pre-flight check before the run starts. Off, it draws nothing, so the run is the same as
// without the feature.
void PreflightCheck(const Setup& s, Rng& rng, RunTally* run) {
  if (!(s.arrive_faulty > 0 || s.node_check)) return;
  run->faulty = Binomial(&rng, static_cast<int64_t>(s.nodes), s.arrive_faulty);
  run->pending_faulty = run->faulty;
  if (!s.node_check) return;
  run->caught = Binomial(&rng, run->faulty, 1 - s.check_miss);
  run->pending_faulty -= run->caught;
  run->check = run->caught > 0 ? 3 * s.check_round + s.job_restart_time : s.check_round;
  run->wall += run->check;
  run->waste += s.nodes * run->check;
}

// The productive time to the next failure: an exponential gap; a faulty node nobody caught
// fails first, without progress (its time is wall time and waste).
double NextGap(const Setup& s, Rng& rng, RunTally* run) {
  if (run->pending_faulty > 0) {
    --run->pending_faulty;
    run->wall += s.faulty_after;
    run->waste += s.nodes * s.faulty_after;
    return 0;
  }
  return s.rate > 0 ? rng.Exponential(s.mean_gap) : std::numeric_limits<double>::infinity();
}

// What a failure is: the first outcome whose upper bound is above a uniform draw (the last one's
// is +inf): a short table is scanned, a long one (many replicated jobs) searched.
const Outcome& DrawOutcome(const Setup& s, Rng& rng) {
  const double u = rng.Uniform();
  const size_t n_outcomes = s.outcomes.size();
  size_t o = 0;
  if (n_outcomes <= kScanOutcomes) {
    while (o + 1 < n_outcomes && u >= s.cumulative[o]) ++o;
  } else {
    o = static_cast<size_t>(std::upper_bound(s.cumulative.begin(), s.cumulative.end(), u) -
                            s.cumulative.begin());
  }
  return s.outcomes[o];
}

// What the passes of a step restarted.
struct StepRestarts {
  bool global = false;      // The JobSet (RestartJobSet*, the default action).
  bool individual = false;  // One job (RestartJob*).
};

// Counts the actions of the passes of `out` into run->actions.
StepRestarts CountPasses(const StepOutcome& out, RunTally* run) {
  StepRestarts restarts;
  ActionCounts& actions = run->actions;
  for (const PassOutcome& pass : out.passes) {
    if (pass.stuck) {
      ++actions.stuck;
    } else if (pass.no_policy) {
      ++actions.no_policy_fail;
    } else if (pass.reached_max) {
      ++actions.reached_max;
    } else if (pass.rule < 0) {
      ++actions.default_restart;
      restarts.global = true;
    } else {
      switch (pass.action) {
        case PolicyAction::kFailJobSet:
          ++actions.fail_jobset;
          break;
        case PolicyAction::kRestartJobSet:
          ++actions.restart_jobset;
          restarts.global = true;
          break;
        case PolicyAction::kRestartJobSetAndIgnoreMaxRestarts:
          ++actions.restart_jobset_ignore_max;
          restarts.global = true;
          break;
        case PolicyAction::kRestartJob:
          ++actions.restart_job;
          restarts.individual = true;
          ++run->job_restarts;
          break;
        case PolicyAction::kRestartJobAndIgnoreMaxRestarts:
          ++actions.restart_job_ignore_max;
          restarts.individual = true;
          ++run->job_restarts;
          break;
        case PolicyAction::kUnknown:
          break;
      }
    }
  }
  return restarts;
}

// The downtime of a restart (the whole JobSet's when `global`, else one job's), and the progress
// lost back to the last checkpoint.
void Recover(const Setup& s, bool global, RunTally* run) {
  const double down = global ? s.restart_time : s.job_restart_time;
  run->wall += down;
  run->waste += s.nodes * down;
  if (s.checkpoint > 0) {
    // Back to the last checkpoint (fmod is exact but several times slower).
    const double lost = std::max(
        0.0, run->progress - s.checkpoint * std::floor(run->progress * s.checkpoint_inverse));
    run->progress -= lost;
    run->waste += s.nodes * lost;
  }
}

// Adds a finished run to `chunk`.
void AddRun(const Setup& s, const RunTally& run, RunEnd end, const ControllerState& state,
            Chunk* chunk) {
  chunk->faulty += run.faulty;
  chunk->caught += run.caught;
  chunk->check_s += run.check;
  chunk->restarts += state.restarts;
  chunk->job_restarts += run.job_restarts;
  chunk->counted_restarts += CountedRestarts(s.policy, state);
  chunk->failures += run.failures;
  chunk->ignored += run.ignored;
  AddActions(run.actions, &chunk->actions);
  switch (end) {
    case RunEnd::kCompleted:
      chunk->completed += 1;
      chunk->waste_node_s += run.waste;
      chunk->finish_sum += run.wall;
      chunk->finish.push_back(run.wall);
      break;
    case RunEnd::kFailed:
      chunk->failed += 1;
      chunk->waste_node_s += s.nodes * run.wall;
      chunk->fail_time_sum += run.wall;
      break;
    case RunEnd::kStuck:
      chunk->stuck += 1;
      break;
    case RunEnd::kUnbounded:
      chunk->unbounded += 1;
      break;
    case RunEnd::kCancelled:
      break;
  }
}

// Simulates one run drawing from `rng` and adds it to `chunk` (unless cancelled mid-run).
RunEnd SimulateRun(const Setup& s, Rng& rng, const std::atomic<bool>* cancel, Worker* w,
                   Chunk* chunk) {
  const PreparedPolicy& policy = s.policy;
  ResetState(&w->state);
  RunTally run;
  PreflightCheck(s, rng, &run);
  RunEnd end;
  for (;;) {
    const double gap = NextGap(s, rng, &run);
    if (gap >= s.run_time - run.progress) {
      run.wall += s.run_time - run.progress;
      end = RunEnd::kCompleted;
      break;
    }
    run.progress += gap;
    run.wall += gap;
    ++run.failures;
    if (run.failures > s.max_failures) {
      end = RunEnd::kUnbounded;
      break;
    }
    if ((run.failures & kCancelCheckMask) == 0 && CancelRequested(cancel)) {
      return RunEnd::kCancelled;
    }
    const Outcome& outcome = DrawOutcome(s, rng);
    if (outcome.kind < 0) {
      ++run.ignored;
      continue;
    }
    JobFailure f;
    f.rjob = outcome.rjob;
    f.index = rng.Below(static_cast<int64_t>(outcome.replicas));
    f.reason = s.reasons[outcome.kind];
    f.message = s.messages[outcome.kind];
    f.time = static_cast<int64_t>(run.wall * 1000);  // Milliseconds since the run started.
    ApplyFailures(policy, &w->state, std::span<const JobFailure>(&f, 1), &w->out);
    const StepRestarts restarts = CountPasses(w->out, &run);
    if (w->out.stuck) {
      end = RunEnd::kStuck;
      break;
    }
    if (w->state.terminal_state == TerminalState::kFailed) {
      end = RunEnd::kFailed;
      break;
    }
    if (restarts.global || restarts.individual) {
      Recover(s, restarts.global, &run);
      MarkJobsReady(policy, &w->state, static_cast<int64_t>(run.wall * 1000));
    }
  }
  AddRun(s, run, end, w->state, chunk);
  return end;
}

}  // namespace

int64_t DerivedNodes(const ReplicatedJob& rjob, const FailureModel& model) {
  const int64_t replicas = std::max<int64_t>(0, rjob.replicas);
  int64_t per_job;
  if (model.nodes_per_job > 0) {
    per_job = model.nodes_per_job;
  } else {
    const int64_t parallelism = std::max<int64_t>(0, rjob.parallelism.value_or(1));
    per_job = SaturatingMul(parallelism, std::max<int64_t>(1, model.nodes_per_pod));
  }
  return SaturatingMul(replicas, per_job);
}

int64_t ModelNodeCount(const JobSet& js, const FailureModel& model) {
  if (model.nodes > 0) return model.nodes;
  int64_t total = 0;
  for (const ReplicatedJob& rj : js.replicated_jobs) {
    total = SaturatingAdd(total, DerivedNodes(rj, model));
  }
  return total;
}

namespace {

// ValidateFailureModel, which binds the fault kinds to replicated jobs and counts nodes: when
// valid, *bound holds those, for the run to use as they are.
std::string ValidateAndBind(const PreparedPolicy& policy, const JobSet& js,
                            const FailureModel& model, Bound* bound) {
  if (policy.rjob_names.size() != js.replicated_jobs.size()) {
    return "the prepared policy does not belong to this JobSet";
  }
  if (js.replicated_jobs.empty()) return "the JobSet has no replicated jobs";
  if (model.runs < 0) return "runs must not be negative";
  if (model.runs > kMaxRuns) return "runs must be at most " + std::to_string(kMaxRuns);
  if (model.nodes < 0) return "nodes must not be negative";
  if (model.nodes_per_pod < 1) return "nodes per pod must be at least 1";
  if (model.nodes_per_job < 0) return "nodes per job must not be negative";
  if (!(model.node_mttf_s > 0)) return "node MTTF must be positive";
  if (!(model.run_time_s > 0) || !std::isfinite(model.run_time_s)) {
    return "run time must be positive";
  }
  if (!FiniteNonNegative(model.restart_time_s)) return "restart time must not be negative";
  if (!FiniteNonNegative(model.job_restart_time_s)) {
    return "job restart time must not be negative";
  }
  if (!FiniteNonNegative(model.checkpoint_interval_s)) {
    return "checkpoint interval must not be negative";
  }
  if (model.max_failures_per_run < 1) return "max failures per run must be at least 1";
  if (!(model.arrive_faulty >= 0 && model.arrive_faulty <= 1)) {
    return "the faulty-arrival fraction must be between 0 and 1";
  }
  if (!FiniteNonNegative(model.faulty_fails_after_s)) {
    return "the time a faulty node takes to fail must not be negative";
  }
  if (!FiniteNonNegative(model.node_check_round_s)) {
    return "node check round time must not be negative";
  }
  if (!(model.node_check_miss >= 0 && model.node_check_miss <= 1)) {
    return "the node check miss chance must be between 0 and 1";
  }
  if (model.faults.empty()) return "the fault mix is empty";
  for (const FaultKind& kind : model.faults) {
    if (!(kind.weight > 0) || !std::isfinite(kind.weight)) {
      return "fault kind " + GoQuotePrintable(kind.reason) + ": weight must be positive";
    }
    if (kind.rjob_name.empty() &&
        (kind.rjob < -1 || kind.rjob >= static_cast<int>(policy.rjob_names.size()))) {
      return "fault kind " + GoQuotePrintable(kind.reason) + ": replicated job index " +
             std::to_string(kind.rjob) + " out of range";
    }
  }
  std::string error;
  if (!BindFaultMix(policy, model.faults, &bound->kind_rjob, &error)) return error;
  int64_t derived = 0;
  bound->derived.clear();
  bound->derived.reserve(js.replicated_jobs.size());
  for (const ReplicatedJob& rj : js.replicated_jobs) {
    bound->derived.push_back(DerivedNodes(rj, model));
    derived = SaturatingAdd(derived, bound->derived.back());
  }
  if (derived <= 0) return "the JobSet has no pods (every replicated job has 0 replicas or pods)";
  const int64_t nodes = model.nodes > 0 ? model.nodes : derived;  // ModelNodeCount.
  bound->nodes = nodes;
  if (nodes > kMaxNodes || derived > kMaxNodes) {
    return "too many nodes (" + std::to_string(nodes) + ")";
  }
  return "";
}

}  // namespace

std::string ValidateFailureModel(const PreparedPolicy& policy, const JobSet& js,
                                 const FailureModel& model) {
  Bound bound;
  return ValidateAndBind(policy, js, model, &bound);
}

MonteCarloResult RunMonteCarlo(const PreparedPolicy& policy, const JobSet& js,
                               const FailureModel& model, int threads,
                               const std::atomic<bool>* cancel, MonteCarloProgress progress) {
  MonteCarloResult result;
  result.runs = model.runs;
  Bound bound;  // Worked out once, for the validation and the run.
  result.error = ValidateAndBind(policy, js, model, &bound);
  if (!result.error.empty()) return result;
  const Setup setup = MakeSetup(policy, js, model, bound);
  result.nodes = static_cast<int64_t>(setup.nodes);
  result.failure_rate = setup.rate;

  const SimOptions options = {.runs = model.runs,
                              .seed = model.seed,
                              .threads = threads,
                              .cancel = cancel,
                              .progress = std::move(progress)};
  SimChunks<Chunk> sim = RunSimulation<Chunk>(options, [&setup, cancel] {
    return [&setup, cancel, w = Worker()](Rng& rng, Chunk* chunk) mutable {
      return SimulateRun(setup, rng, cancel, &w, chunk) == RunEnd::kCancelled
                 ? RunStatus::kCancelled
                 : RunStatus::kDone;
    };
  });
  std::vector<Chunk>& chunks = sim.chunks;
  result.runs_done = sim.runs_done;

  // Merge in chunk order.
  double waste = 0, finish_sum = 0, fail_time_sum = 0, check_s = 0;
  int64_t faulty = 0, caught = 0;
  int64_t restarts = 0, job_restarts = 0, counted = 0;
  size_t n_finish = 0;
  for (const Chunk& c : chunks) n_finish += c.finish.size();
  result.time_to_finish.samples.reserve(n_finish);
  for (Chunk& c : chunks) {
    result.completed += c.completed;
    result.failed += c.failed;
    result.stuck += c.stuck;
    result.unbounded += c.unbounded;
    restarts += c.restarts;
    job_restarts += c.job_restarts;
    counted += c.counted_restarts;
    result.failures_simulated += c.failures;
    result.failures_ignored += c.ignored;
    faulty += c.faulty;
    caught += c.caught;
    check_s += c.check_s;
    AddActions(c.actions, &result.actions);
    waste += c.waste_node_s;
    finish_sum += c.finish_sum;
    fail_time_sum += c.fail_time_sum;
    result.time_to_finish.samples.insert(result.time_to_finish.samples.end(), c.finish.begin(),
                                         c.finish.end());
    std::vector<double>().swap(c.finish);
  }
  result.cancelled = sim.cancelled;
  if (result.runs_done > 0) {
    const double n = static_cast<double>(result.runs_done);
    result.p_complete = static_cast<double>(result.completed) / n;
    result.p_fail = static_cast<double>(result.failed) / n;
    result.p_stuck = static_cast<double>(result.stuck) / n;
    result.p_unbounded = static_cast<double>(result.unbounded) / n;
    result.mean_restarts = static_cast<double>(restarts) / n;
    result.mean_job_restarts = static_cast<double>(job_restarts) / n;
    result.mean_counted_restarts = static_cast<double>(counted) / n;
    result.mean_failures = static_cast<double>(result.failures_simulated) / n;
    result.mean_faulty_nodes = static_cast<double>(faulty) / n;
    result.mean_faulty_caught = static_cast<double>(caught) / n;
    result.mean_check_s = check_s / n;
  }
  if (result.completed + result.failed > 0) {
    result.mean_wasted_node_hours =
        waste / 3600.0 / static_cast<double>(result.completed + result.failed);
  }
  if (result.failed > 0) result.mean_time_to_fail_s = fail_time_sum / result.failed;
  if (result.completed > 0) result.time_to_finish.mean = finish_sum / result.completed;
  FillFinishTimes(&result.time_to_finish);
  return result;
}

}  // namespace jobset
