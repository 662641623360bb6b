#include "cmd/simulate_command.h"

#include <CLI/CLI.hpp>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cmd/flag_checks.h"
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

namespace {

const char kSimulateExamples[] = R"(
Examples:
  # Host maintenance hits a worker, then the driver has a bug
  kubectl jobset simulate examples/training-fail-fast.yaml \
    --fail workers/0:PodFailurePolicy --fail driver/0:BackoffLimitExceeded

  # Two jobs fail before the controller reacts (one step)
  kubectl jobset simulate train.yaml --fail 'workers/0:BackoffLimitExceeded,workers/3:PodFailurePolicy'

  # Steps from a file
  kubectl jobset simulate train.yaml --scenario failures.yaml -o json

  # What the policy costs at scale: 15,000 nodes failing every 2 years each, a 3-day run
  kubectl jobset simulate train.yaml --monte-carlo --nodes 15000 --node-mttf 17520h \
    --run-time 72h --restart-time 1m --fault-mix PodFailurePolicy=0.9,BackoffLimitExceeded=0.1

  # With and without a pre-flight node check (DLRover-style), 0.2% of nodes arriving faulty
  kubectl jobset simulate train.yaml --monte-carlo --nodes 2000 --node-mttf 8760h --run-time 72h \
    --arrive-faulty 0.002 --node-check 3m --node-check-miss 0.05

  # Two policies side by side, with a chart
  kubectl jobset simulate --monte-carlo --node-mttf 17520h --run-time 72h --nodes 15000 \
    --plot cost.svg policy-a.yaml policy-b.yaml

Volcano Job (batch.volcano.sh/v1alpha1): --fail and --scenario take events instead
  --fail TASK/INDEX:EVENT[:EXITCODE]  a pod event: PodFailed (EXITCODE: first container's),
                                      PodEvicted, PodPending, PodRunning, PodSucceeded
  --fail TASK[/INDEX]:EVENT           a task event: TaskCompleted, TaskFailed
  --fail Unknown                      the PodGroup event (no task)
  --fail Command:ACTION               a vcctl command, e.g. Command:ResumeJob
  Comma-separate the events of one step (they happen before the controller reacts); delayed
  actions (policy timeout) fire at the end of their step unless a later event cancels them.
  --scenario FILE: steps: [{events: [{task, index, event, exitCode} | {command: ACTION}]}]
  --monte-carlo: one Job; --fault-mix EVENT[:EXITCODE]=WEIGHT[@TASK],... with EVENT PodEvicted
  or PodFailed (default PodEvicted=0.9,PodFailed:143=0.1); no --plot

  # A node drain kills two MPI workers at once, then the launcher exits with a usage error
  kubectl jobset simulate examples/volcano/2-mpi-exit-codes.yaml \
    --fail mpiworker/0:PodFailed:143,mpiworker/1:PodFailed:143 --fail mpimaster/0:PodFailed:2

FrameworkController Frameworks (frameworkcontroller.microsoft.com/v1): --fail takes
TASKROLE/INDEX:CODE[+ATTRIBUTES], one task attempt completing per step (comma-separate several).
CODE is a completion code or its phrase: 0 or Succeeded (the task succeeded), an exit code (137),
a code of the controller or its default podFailureSpec (-1000 or PodEvicted, -1200, 210 ...).
+Transient, +Permanent, +Conflict or +Unknown give the type of a code of your own podFailureSpec.
CODE may describe the failed pod instead, classified as the controller does: exit=137/OOMKilled
(a container's exit code and reason: -1200 here), pod=Evicted (the pod's reason: -1000).
--scenario reads steps: [{complete: [{task: worker/0, code: 137}]}]. With --monte-carlo,
--fault-mix is CODE=WEIGHT[@TASKROLE],... (default PodEvicted=0.9,1=0.1), --restart-time
recreates a FrameworkAttempt and --job-restart-time one task.

  # Every worker fails, then the evaluator is killed: all failed, yet the Framework Succeeded
  kubectl jobset simulate examples/broken/framework-traps.yaml \
    --fail 'worker/0:1,worker/1:1,worker/2:1,worker/3:1' --fail evaluator/0:137

  # An eviction, a crash and an OOM kill through a TensorFlow Framework
  kubectl jobset simulate examples/framework/tensorflow.yaml \
    --scenario examples/framework/scenario.yaml

  # A month of node failures: how often the Framework completes, fails or hangs
  kubectl jobset simulate examples/framework/tensorflow.yaml --monte-carlo \
    --node-mttf 720h --run-time 72h --fault-mix PodEvicted=0.8,exit=137/OOMKilled=0.1,1=0.1
)";

}  // namespace

CLI::App* AddSimulateCommand(CLI::App& app, SimulateFlags* flags) {
  CLI::App* sim_cmd = app.add_subcommand(
      "simulate",
      "Replay failures through the controller's own algorithm, or estimate a policy's cost.");
  sim_cmd->add_option("PATH", flags->paths, "Manifest files (several only with --monte-carlo)");
  sim_cmd->add_option("--fail", flags->fail,
                      "RJOB/INDEX:REASON[:MESSAGE] (a Volcano Job: TASK/INDEX:EVENT[:EXITCODE]; "
                      "a Framework: TASKROLE/INDEX:CODE; see below), one step each; "
                      "comma-separate failures of one step");
  sim_cmd->add_option(
      "--scenario", flags->scenario,
      "YAML file: steps: [{fail: [{job, reason, message}]}] (a Volcano Job: "
      "steps: [{events: [...]}]; a Framework: steps: [{complete: [{task, code}]}])");
  sim_cmd->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  sim_cmd->add_option("--feature-gates", flags->feature_gates, "JobSet feature gates");
  sim_cmd->add_flag("--monte-carlo", flags->monte_carlo,
                    "Estimate the policy's cost under a failure model over many runs");
  sim_cmd->add_option("--runs", flags->runs, "Monte Carlo runs")->capture_default_str();
  sim_cmd->add_option("--seed", flags->seed, "Random seed (same seed, same result)")
      ->capture_default_str()
      ->check(AtLeast(0));
  sim_cmd
      ->add_option("--nodes", flags->nodes,
                   "Nodes the job spans (default: one per pod, the sum of replicas x "
                   "parallelism)")
      ->check(AtLeast(1));
  sim_cmd->add_option("--node-mttf", flags->node_mttf, "Mean time to failure of one node, e.g. 6h");
  sim_cmd->add_option("--run-time", flags->run_time, "Failure-free time the job needs, e.g. 24h");
  sim_cmd->add_option("--restart-time", flags->restart_time, "Time to recreate the whole JobSet")
      ->capture_default_str();
  sim_cmd->add_option("--job-restart-time", flags->job_restart_time, "Time to recreate one Job")
      ->capture_default_str();
  sim_cmd
      ->add_option("--checkpoint-interval", flags->checkpoint_interval,
                   "A restart rolls progress back to the last checkpoint (0s: progress kept)")
      ->capture_default_str();
  sim_cmd->add_option("--fault-mix", flags->fault_mix,
                      "REASON[:MESSAGE]=WEIGHT[@RJOB],... (default: 90% PodFailurePolicy exit "
                      "143, 10% BackoffLimitExceeded)");
  sim_cmd
      ->add_option("--arrive-faulty", flags->arrive_faulty,
                   "Fraction of nodes that arrive faulty and fail at the start (e.g. 0.005)")
      ->check(CLI::Range(0.0, 1.0));
  sim_cmd
      ->add_option("--faulty-fails-after", flags->faulty_fails_after,
                   "How long an unchecked faulty node holds the job before it fails (e.g. a "
                   "collective timeout)")
      ->capture_default_str();
  sim_cmd->add_option("--node-check", flags->node_check,
                      "Duration of one round of a DLRover-style pre-flight node check: each "
                      "policy is also run with the check, side by side");
  sim_cmd
      ->add_option("--node-check-miss", flags->node_check_miss,
                   "Chance that a faulty node passes the node check")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sim_cmd->add_option("--plot", flags->plot, "Write an SVG chart of the distributions");
  sim_cmd->add_option("-j,--jobs", flags->threads, "Threads (default: one per core)")
      ->check(AtLeast(1));
  sim_cmd->footer(kSimulateExamples);
  // Whether these two were given, so that an explicit 0 beats a scenario's model value.
  sim_cmd->parse_complete_callback([sim_cmd, flags] {
    flags->arrive_faulty_given = sim_cmd->count("--arrive-faulty") > 0;
    flags->node_check_miss_given = sim_cmd->count("--node-check-miss") > 0;
  });
  return sim_cmd;
}

}  // namespace jobset
