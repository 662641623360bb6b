// kubectl-jobset: the kubectl plugin. `kubectl jobset <command>` once on PATH.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "cmd/completion.h"
#include "cmd/explain_command.h"
#include "cmd/lint_command.h"
#include "cmd/simulate_command.h"
#include "validation/rule_registry.h"

namespace {

// As a kubectl plugin (argv[0] is kubectl-jobset) usage reads "kubectl jobset".
std::string ProgramName(const char* argv0) {
  std::string base = std::filesystem::path(argv0).filename().string();
  return base.rfind("kubectl-", 0) == 0 ? "kubectl " + base.substr(8) : base;
}

const char kLintExamples[] = R"(
Examples:
  # Check one manifest (text output, coloured on a terminal)
  kubectl jobset lint train.yaml

  # Check a whole repository, descending into folders
  kubectl jobset lint -R deploy/

  # From a pipe, e.g. after kustomize
  kustomize build overlays/prod | kubectl jobset lint -

  # With the RestartJob feature gate on, as the cluster runs it
  kubectl jobset lint --feature-gates RestartJob=true jobs/

  # SARIF for code scanning, failing on warnings too
  kubectl jobset lint -o sarif --fail-on warning jobs/ > lint.sarif

  # Against the CRD installed in the cluster (validates the whole pod template)
  kubectl get crd jobsets.jobset.x-k8s.io -o yaml > jobset-crd.yaml
  kubectl jobset lint --crd jobset-crd.yaml jobs/

  # Text for the log and SARIF for code scanning, in one run
  kubectl jobset lint -R jobs/ -o text -o sarif=lint.sarif -o junit=lint.xml

  # The rules, with their ids
  kubectl jobset lint --list-rules

Suppressing a warning (errors the API server would reject cannot be suppressed):
  metadata:
    annotations:
      kubectl-jobset.io/ignore: "failure-policy/unbounded-restarts # loops on purpose in the demo"
  or a comment on the line (or alone on the line before it):
    action: RestartJobSetAndIgnoreMaxRestarts  # kubectl-jobset:ignore failure-policy/unbounded-restarts
  Rules can be switched off or re-graded in .kubectl-jobset.yaml (or --config):
    featureGates: RestartJob=true
    rules:
      failure-policy/max-restarts-unused: off
      job-template/*: error

Exit status: 0 no finding at or above --fail-on, 1 findings, 2 usage error or unreadable path.
)";

const char kExplainExamples[] = R"(
Examples:
  # What each failure of each replicated job does
  kubectl jobset explain examples/training-fail-fast.yaml

  # For a pull request description
  kubectl jobset explain -o markdown jobs/train.yaml

  # For scripts (one decision per replicated job and reason)
  kubectl jobset explain -o json jobs/train.yaml
)";

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

  # Two policies side by side, with a chart
  kubectl jobset simulate --monte-carlo --node-mttf 17520h --run-time 72h --nodes 15000 \
    --plot cost.svg policy-a.yaml policy-b.yaml
)";

}  // namespace

int main(int argc, char** argv) {
  std::string prog = ProgramName(argv[0]);
  CLI::App app{"Validate, explain and simulate JobSet failure policies before they run.", prog};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(JOBSET_VERSION));

  jobset::LintFlags lint;
  CLI::App* lint_cmd = app.add_subcommand(
      "lint",
      "Check JobSet and Volcano Job manifests as the API server with their CRDs and webhooks "
      "would, and more.");
  lint_cmd->add_option("PATH", lint.paths, "Files, directories, or - for standard input");
  lint_cmd->add_flag("-R,--recursive", lint.recursive, "Descend into directories");
  lint_cmd
      ->add_option("-o,--output", lint.outputs,
                   "Output format: text (default), json, sarif, github, junit; repeat it, "
                   "with FORMAT=FILE for files (-o text -o sarif=lint.sarif)")
      ->allow_extra_args(false);
  lint_cmd->add_option("--config", lint.config,
                       "Config file (default: .kubectl-jobset.yaml in the file's folder or above)");
  lint_cmd->add_option("--feature-gates", lint.feature_gates,
                       "JobSet feature gates, e.g. RestartJob=true,InPlaceRestart=true "
                       "(all off by default, as upstream)");
  lint_cmd->add_option("--fail-on", lint.fail_on, "Lowest severity that makes the exit status 1")
      ->check(CLI::IsMember({"error", "warning", "info"}))
      ->capture_default_str();
  lint_cmd->add_option("--crd", lint.crd,
                       "Validate against the openAPIV3Schema of this JobSet CRD file instead of "
                       "the built-in schema");
  lint_cmd->add_option("--color", lint.color, "Colour text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  lint_cmd->add_option("-j,--jobs", lint.jobs, "Files checked in parallel (default: one per core)");
  lint_cmd->add_flag("--list-rules", lint.list_rules, "Print the rule registry and exit");
  lint_cmd->footer(kLintExamples);

  jobset::ExplainFlags explain;
  CLI::App* explain_cmd = app.add_subcommand(
      "explain", "For every replicated job and failure reason: which rule fires and what happens.");
  explain_cmd->add_option("PATH", explain.path, "A manifest file, or - for standard input")
      ->required();
  explain_cmd->add_option("-o,--output", explain.output, "Output format")
      ->check(CLI::IsMember({"text", "json", "markdown"}))
      ->capture_default_str();
  explain_cmd->add_option("--feature-gates", explain.feature_gates,
                          "JobSet feature gates, e.g. RestartJob=true");
  explain_cmd->footer(kExplainExamples);

  jobset::SimulateFlags sim;
  CLI::App* sim_cmd = app.add_subcommand(
      "simulate", "Replay child-job failures through the JobSet controller's failure policy.");
  sim_cmd->add_option("PATH", sim.paths, "Manifest files (several only with --monte-carlo)");
  sim_cmd->add_option("--fail", sim.fail,
                      "RJOB/INDEX:REASON[:MESSAGE], one step each; comma-separate failures of "
                      "one step");
  sim_cmd->add_option("--scenario", sim.scenario,
                      "YAML file: steps: [{fail: [{job, reason, message}]}]");
  sim_cmd->add_option("-o,--output", sim.output, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  sim_cmd->add_option("--feature-gates", sim.feature_gates, "JobSet feature gates");
  sim_cmd->add_flag("--monte-carlo", sim.monte_carlo,
                    "Estimate the policy's cost under a failure model over many runs");
  sim_cmd->add_option("--runs", sim.runs, "Monte Carlo runs")->capture_default_str();
  sim_cmd->add_option("--seed", sim.seed, "Random seed (same seed, same result)")
      ->capture_default_str();
  sim_cmd->add_option("--nodes", sim.nodes,
                      "Nodes the job spans (default: one per pod, the sum of replicas x "
                      "parallelism)");
  sim_cmd->add_option("--node-mttf", sim.node_mttf, "Mean time to failure of one node, e.g. 6h");
  sim_cmd->add_option("--run-time", sim.run_time, "Failure-free time the job needs, e.g. 24h");
  sim_cmd->add_option("--restart-time", sim.restart_time, "Time to recreate the whole JobSet")
      ->capture_default_str();
  sim_cmd->add_option("--job-restart-time", sim.job_restart_time, "Time to recreate one Job")
      ->capture_default_str();
  sim_cmd
      ->add_option("--checkpoint-interval", sim.checkpoint_interval,
                   "A restart rolls progress back to the last checkpoint (0s: progress kept)")
      ->capture_default_str();
  sim_cmd->add_option("--fault-mix", sim.fault_mix,
                      "REASON[:MESSAGE]=WEIGHT[@RJOB],... (default: 90% PodFailurePolicy exit "
                      "143, 10% BackoffLimitExceeded)");
  sim_cmd->add_option("--plot", sim.plot, "Write an SVG chart of the distributions");
  sim_cmd->add_option("-j,--jobs", sim.threads, "Threads (default: one per core)");
  sim_cmd->footer(kSimulateExamples);

  CLI::App* version_cmd = app.add_subcommand("version", "Print the version");
  std::string version_output = "text";
  version_cmd->add_option("-o,--output", version_output, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();

  jobset::CompletionFlags completion;
  CLI::App* completion_cmd = jobset::AddCompletionCommand(app, &completion);
  // The hidden `__complete` (Cobra's protocol, for the scripts and kubectl_complete-jobset).
  if (auto request = jobset::FindCompletionRequest(argc, argv)) {
    return jobset::RunComplete(app, *request, std::cout);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  if (version_cmd->parsed()) {
    if (version_output == "json") {
      std::cout << "{\"version\": \"" << JOBSET_VERSION << "\"}\n";
    } else {
      std::cout << "kubectl-jobset " << JOBSET_VERSION << "\n";
    }
    return 0;
  }
  if (completion_cmd->parsed()) return jobset::RunCompletion(completion, std::cout, std::cerr);
  if (lint_cmd->parsed()) return jobset::RunLint(lint, std::cout, std::cerr);
  if (explain_cmd->parsed()) return jobset::RunExplain(explain, std::cout, std::cerr);
  if (sim_cmd->parsed()) return jobset::RunSimulate(sim, std::cout, std::cerr);
  return 2;
}
