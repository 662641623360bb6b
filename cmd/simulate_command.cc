#include "cmd/simulate_command.h"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cmd/jobset_objects.h"
#include "cmd/kind_commands.h"
#include "cmd/simulate_inputs.h"
#include "validation/core/loader.h"
#include "validation/jobset/policy_engine.h"
#include "validation/jobset/replay.h"

namespace jobset {

// In monte_carlo_command.cc.
int RunMonteCarloCommand(const SimulateFlags& flags, std::ostream& out, std::ostream& err);

namespace {

using json = nlohmann::ordered_json;

std::string RuleText(const PreparedPolicy& policy, const PassOutcome& p) {
  if (p.no_policy) return "(no failure policy)";
  return p.rule >= 0 ? policy.rules[p.rule].name : "(default)";
}

std::string ActionText(const PassOutcome& p) {
  std::string a(ActionName(p.action));
  if (p.stuck)
    a += " (stuck)";
  else if (p.reached_max)
    a += " -> over maxRestarts";
  return a;
}

json ArraysJson(const PreparedPolicy& policy, const std::vector<std::vector<int32_t>>& arrays) {
  json j = json::object();
  for (size_t r = 0; r < arrays.size() && r < policy.rjob_names.size(); ++r) {
    if (!arrays[r].empty()) j[policy.rjob_names[r]] = arrays[r];
  }
  return j;
}

json ReplayJson(const PreparedPolicy& policy, const ReplayResult& result) {
  json steps = json::array();
  for (const ReplayStep& s : result.steps) {
    json step;
    step["failed"] = s.failed;
    const PassOutcome* first = s.outcome.passes.empty() ? nullptr : &s.outcome.passes[0];
    step["rule"] = first && first->rule >= 0 ? json(policy.rules[first->rule].name) : json(nullptr);
    step["action"] = first ? json(std::string(ActionName(first->action))) : json(nullptr);
    step["restarts"] = s.restarts;
    step["restartsCountTowardsMax"] = s.restarts_count_towards_max;
    step["terminalState"] = std::string(TerminalStateName(s.terminal_state));
    json passes = json::array();
    for (const PassOutcome& p : s.outcome.passes) {
      passes.push_back({{"job", JobName(policy, p.rjob, p.index)},
                        {"rule", p.rule >= 0 ? json(policy.rules[p.rule].name) : json(nullptr)},
                        {"action", std::string(ActionName(p.action))},
                        {"countsTowardsMax", p.counted},
                        {"reachedMax", p.reached_max},
                        {"restarts", p.restarts},
                        {"restartsCountTowardsMax", p.restarts_count_towards_max}});
    }
    step["passes"] = std::move(passes);
    if (s.outcome.was_terminal) step["ignored"] = true;
    if (s.outcome.stuck) {
      step["stuck"] = true;
      step["error"] = s.outcome.stuck_error;
    }
    steps.push_back(std::move(step));
  }
  const ControllerState& st = result.state;
  json final;
  final["terminalState"] = std::string(TerminalStateName(st.terminal_state));
  final["reason"] = st.failed.present ? std::string(ReasonText(policy, st.failed.text)) : "";
  final["message"] = st.failed.present ? MessageText(policy, st.failed.text) : "";
  final["restarts"] = st.restarts;
  final["restartsCountTowardsMax"] = st.restarts_count_towards_max;
  final["jobRestarts"] = ArraysJson(policy, st.job_restarts);
  final["jobRestartsCountTowardsMax"] = ArraysJson(policy, st.job_restarts_count_towards_max);
  if (st.restarting.present) {
    final["restartingJobSet"] = {{"status", st.restarting.status ? "True" : "False"},
                                 {"reason", std::string(ReasonText(policy, st.restarting.text))},
                                 {"message", MessageText(policy, st.restarting.text)}};
  }
  if (!st.pending.empty()) final["stuck"] = true;
  return json{{"steps", steps}, {"final", final}};
}

void ReplayText(const PreparedPolicy& policy, const ReplayResult& result, std::ostream& out) {
  out << std::left << std::setw(6) << "STEP" << std::setw(34) << "FAILED JOB" << std::setw(22)
      << "RULE" << std::setw(40) << "ACTION" << std::setw(10) << "RESTARTS"
      << "COUNTED\n";
  for (size_t i = 0; i < result.steps.size(); ++i) {
    const ReplayStep& s = result.steps[i];
    std::string failed;
    for (const std::string& f : s.failed) failed += (failed.empty() ? "" : ",") + f;
    if (s.outcome.was_terminal) {
      out << std::setw(6) << i + 1 << std::setw(34) << failed << "(JobSet already "
          << TerminalStateName(s.terminal_state) << ": nothing happens)\n";
      continue;
    }
    bool first = true;
    for (const PassOutcome& p : s.outcome.passes) {
      std::string job = JobName(policy, p.rjob, p.index);
      out << std::setw(6) << (first ? std::to_string(i + 1) : "") << std::setw(34) << job
          << std::setw(22) << RuleText(policy, p) << std::setw(40) << ActionText(p) << std::setw(10)
          << p.restarts << p.counted_restarts << "\n";
      first = false;
    }
    // Failures a global restart swept away with the rest of the JobSet.
    for (size_t k = 0; k < s.failed.size(); ++k) {
      if (s.outcome.fates[k] == FailureFate::kDiscarded) {
        out << std::setw(6) << "" << std::setw(34) << s.failed[k]
            << (s.terminal_state == TerminalState::kFailed ? "(left failed: the JobSet failed)\n"
                                                           : "(recreated by that restart)\n");
      }
    }
    if (s.outcome.stuck) out << "      controller error: " << s.outcome.stuck_error << "\n";
  }
  const ControllerState& st = result.state;
  out << "\nfinal: ";
  if (st.terminal_state == TerminalState::kFailed) {
    out << "Failed: " << ReasonText(policy, st.failed.text) << ": "
        << MessageText(policy, st.failed.text) << "\n";
  } else if (!st.pending.empty()) {
    out << "stuck: the controller errors on every pass and retries forever\n";
  } else {
    out << "running (not failed)";
    if (st.restarting.present && st.restarting.status) {
      out << "; RestartingJobSet: " << ReasonText(policy, st.restarting.text) << ": "
          << MessageText(policy, st.restarting.text);
    }
    out << "\n";
  }
  out << "restarts " << st.restarts << ", counted towards maxRestarts "
      << CountedRestarts(policy, st) << " of " << policy.max_restarts << "\n";
  for (size_t r = 0; r < st.job_restarts.size() && r < policy.rjob_names.size(); ++r) {
    if (st.job_restarts[r].empty()) continue;
    out << "jobRestarts[" << policy.rjob_names[r] << "]: [";
    for (size_t k = 0; k < st.job_restarts[r].size(); ++k)
      out << (k ? ", " : "") << st.job_restarts[r][k];
    out << "]\n";
  }
}

}  // namespace

int RunSimulate(const SimulateFlags& flags, std::ostream& out, std::ostream& err) {
  if (flags.paths.empty()) {
    err << "error: no PATH given\n";
    return 2;
  }
  // A file of another kind (Volcano Job, Framework) is simulated by that kind's own code, with
  // its own reading of --fail and --scenario. (Standard input is read once, below, so it is
  // taken to be a JobSet.)
  if (flags.paths.size() == 1 && flags.paths[0] != "-") {
    std::vector<LoadedJobSet> jobsets;
    std::vector<OtherObject> others;
    std::string load_error;
    if (LoadJobSets(flags.paths[0], FeatureGates{}, &jobsets, &load_error, &others) &&
        jobsets.empty() && !others.empty()) {
      if (others.size() > 1) {
        err << "warning: " << flags.paths[0] << " holds " << others.size()
            << " objects; simulating the first\n";
      }
      return others[0].commands->simulate(*others[0].object, others[0].file, flags, out, err);
    }
  }
  if (flags.monte_carlo) return RunMonteCarloCommand(flags, out, err);
  FeatureGates gates;
  std::string error;
  if (!ParseFeatureGates(flags.feature_gates, &gates, &error)) {
    err << "error: --feature-gates: " << error << "\n";
    return 2;
  }
  std::vector<StepSpec> steps;
  if (!ReadReplaySteps(flags.fail, flags.scenario, ParseFailFlag, ParseScenarioSteps, &steps,
                       err)) {
    return 2;
  }
  if (steps.empty()) {
    err << "error: nothing to simulate: give --fail, --scenario or --monte-carlo\n";
    return 2;
  }
  if (flags.paths.size() != 1) {
    err << "error: a replay takes one PATH (several are compared with --monte-carlo)\n";
    return 2;
  }
  std::vector<LoadedJobSet> jobsets;
  if (!LoadJobSets(flags.paths[0], gates, &jobsets, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  if (jobsets.size() > 1) {
    err << "warning: " << flags.paths[0] << " holds " << jobsets.size()
        << " JobSets; simulating the first, " << jobsets[0].jobset.name << "\n";
  }
  const LoadedJobSet& l = jobsets[0];
  if (l.errors > 0) {
    err << "warning: JobSet " << l.jobset.name << " has " << l.errors
        << " lint error(s): the API server would reject it (run kubectl jobset lint)\n";
  }
  PreparedPolicy policy = PreparePolicy(l.jobset, gates);
  ReplayResult result;
  if (!Replay(policy, steps, &result, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  if (flags.output == "json") {
    out << ReplayJson(policy, result).dump(2) << "\n";
  } else {
    ReplayText(policy, result, out);
  }
  return 0;
}

}  // namespace jobset
