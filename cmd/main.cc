// kubectl-jobset: the kubectl plugin. `kubectl jobset <command>` once on PATH.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cmd/completion.h"
#include "cmd/explain_command.h"
#include "cmd/lint_command.h"
#include "cmd/netcheck_command.h"
#include "cmd/render_command.h"
#include "cmd/report.h"
#include "cmd/simulate_command.h"
#include "cmd/why_command.h"
#include "validation/core/rule_registry.h"
#include "validation/core/suggest.h"

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

  # Preview the certain fixes as a diff, then apply them (comments and formatting are kept)
  kubectl jobset lint --diff jobs/
  kubectl jobset lint --fix jobs/

  # Fix a stream: the fixed document on stdout, the report on stderr
  kustomize build overlays/prod | kubectl jobset lint --fix - | kubectl apply -f -
)";

const char kLintDetails[] = R"(
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

Certain fixes (a "fix" line under the finding): a duplicate rule name (the first rule that
wrote it keeps it, the others get NAME_2, NAME_3, ...), and a missing or other restartPolicy
next to a pod failure policy (set to Never). --fix rewrites only those bytes, atomically, then
reports the findings that remain; --diff prints the change (git apply and patch -p1 accept it).

Exit status: 0 no finding at or above --fail-on, 1 findings (or no object, with
--fail-if-no-objects-found), 2 usage error, unreadable path or invalid config file (then no
report is written). With --fix: from the findings that remain. With --diff: 0 nothing to fix,
1 a diff, 2 as above.
)";

const char kExplainExamples[] = R"(
Examples:
  # What each failure of each replicated job does
  kubectl jobset explain examples/training-fail-fast.yaml

  # For a pull request description
  kubectl jobset explain -o markdown jobs/train.yaml

  # For scripts (one decision per replicated job and reason)
  kubectl jobset explain -o json jobs/train.yaml

  # A Volcano Job: for each task and event, which lifecycle policy fires and what the job does
  kubectl jobset explain examples/volcano/3-task-overrides-job.yaml

  # A FrameworkController Framework: its retry and completion policies in terms of the
  # FrameworkType tables of the FrameworkController manual
  kubectl jobset explain examples/framework/tensorflow.yaml
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

const char kRenderExamples[] = R"(
Examples:
  # The Jobs and the headless Service the JobSet controller creates
  kubectl jobset render examples/training-fail-fast.yaml

  # Check them with the tools you run on native objects
  kubectl jobset render js.yaml | kubeconform -strict -summary
  kubectl jobset render js.yaml | kube-linter lint -

  # One replicated job (a Volcano task, a Framework task role), after 2 restarts, as JSON
  kubectl jobset render js.yaml --replicated-job workers --restarts 2 -o json

  # The Pods of a Volcano Job or a FrameworkController Framework
  kubectl jobset render examples/volcano/1-pytorch-gang-restart.yaml
  kubectl jobset render examples/framework/tensorflow.yaml

Values only the cluster knows are placeholders: every uid is
00000000-0000-0000-0000-000000000000, an object without a namespace gets none (job keys use
"default"), a Volcano volume's 12 random characters are its index. JobSet feature gates are off.

Exit status: 0; 1 when a file's objects have no children (no spec, no tasks, managed by another
controller); 2 for an unreadable file, a file without a JobSet, Volcano Job or Framework, or an
object that cannot be rendered (no name, no such replicated job). With 1 or 2 nothing is printed.
)";

const char kNetcheckExamples[] = R"(
Examples:
  # Which of 8 nodes DLRover's node check tests together, round by round
  kubectl jobset netcheck plan --nodes 8

  # Round 1 after round 0 measured ranks 2 and 3 as failed (3600) and rank 5 as slow
  kubectl jobset netcheck plan --nodes 8 --times 2=3600,3=3600,5=45.2,0=20.1

  # The node-group variant (e.g. NVSwitch domains of 4 nodes), its three phases
  kubectl jobset netcheck plan --nodes 8 --node-groups 4 -o json

  # Fault nodes and stragglers from a DLRover job-master log, with the evidence
  kubectl logs job-master-pod | kubectl jobset netcheck diagnose -
  kubectl jobset netcheck diagnose examples/netcheck/master.log -o json

  # The pre-flight check in the cost model: 0.5% of nodes arrive faulty, 3m per round
  kubectl jobset simulate --monte-carlo --nodes 2000 --node-mttf 8760h --run-time 72h \
    --arrive-faulty 0.005 --node-check 3m --node-check-miss 0.05 policy.yaml

Exit status (diagnose): 0 no fault node in the verdict (or no check in the log), 1 fault nodes,
2 usage error or unreadable file.
)";

const char kWhyExamples[] = R"(
Examples:
  # Why did the JobSet fail (or restart), and what does the next failure do?
  kubectl jobset why train -n team-a

  # For an incident ticket
  kubectl jobset why train -n team-a -o markdown

  # Follow it: each new failure and decision as it happens
  kubectl jobset why train -n team-a --watch

  # Every JobSet's health
  kubectl jobset why -A

  # A Volcano Job, a Framework
  kubectl jobset why vcjob/train -n team-a
  kubectl jobset why framework/train -n team-a

  # Offline: the one command that records what why reads (attach dump.json to a bug report)
  kubectl get jobsets.jobset.x-k8s.io,jobs.batch,pods,events -n team-a -o json > dump.json
  kubectl jobset why train -f dump.json
  (vcjob: jobs.batch.volcano.sh,pods,events; framework:
   frameworks.frameworkcontroller.microsoft.com,pods,events)

Reads, with -n, --context and --kubeconfig passed on (KUBECTL names the kubectl binary):
  kubectl get jobsets.jobset.x-k8s.io NAME -o json
  kubectl get jobs.batch,pods -l jobset.sigs.k8s.io/jobset-name=NAME -o json
  kubectl get events -o json
  (vcjob/NAME: jobs.batch.volcano.sh NAME, then pods -l volcano.sh/job-name=NAME; framework/NAME:
   frameworks.frameworkcontroller.microsoft.com NAME, then pods -l FC_FRAMEWORK_NAME=NAME)
Decisions come from the controller's own algorithm (the same engines as simulate), replayed over
the failures the dump holds: failed Jobs and Job failure events for a JobSet, Pods and the Job's
events for a Volcano Job, the attempt and task statuses for a Framework.

Exit status: 0 healthy, succeeded or suspended; 1 failed, restarting or stuck; 2 usage error,
unreadable dump, or kubectl refused (an RBAC refusal names the verb and resource missing).
)";

// The lint footer: the examples, the feature gates, the rest.
std::string LintFooter() {
  return std::string(kLintExamples) + "\n" + jobset::FeatureGatesHelp() + kLintDetails;
}

// A value at least `min` (CLI11's Range prints its bounds as doubles).
CLI::Validator AtLeast(int64_t min) {
  return CLI::Validator(
      [min](std::string& value) -> std::string {
        int64_t v = 0;
        if (CLI::detail::lexical_cast(value, v)) {
          if (v < min) return "must be at least " + std::to_string(min) + ", got " + value;
          return {};
        }
        uint64_t big = 0;  // beyond int64 (a --seed): above any minimum
        if (value.find('-') == std::string::npos && CLI::detail::lexical_cast(value, big))
          return {};
        return "'" + value + "' is not an integer";
      },
      "");
}

// The visible subcommands of `cmd` (not `help`).
std::vector<std::string> CommandNames(const CLI::App& cmd) {
  std::vector<std::string> names;
  for (const CLI::App* sub : cmd.get_subcommands(
           [](const CLI::App* s) { return !s->get_group().empty() && s->get_name() != "help"; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

// Cobra's answer to an unknown command: its name, the nearest command, where to look.
int UnknownCommand(const std::string& word, const std::string& path, const CLI::App& cmd) {
  std::cerr << "error: unknown command \"" << word << "\" for \"" << path << "\"\n";
  std::string near = jobset::NearestCommand(word, CommandNames(cmd));
  if (!near.empty()) std::cerr << "\nDid you mean this?\n\t" << near << "\n";
  std::cerr << "\nRun '" << path << " --help' for usage.\n";
  return 2;
}

// Walks the leading words naming (sub)commands; at the first one that names none where a
// command is expected, reports it (CLI11 would only say "A subcommand is required"). Stops at the
// first flag. Returns 0 when every command word is known.
int CheckCommandWords(const CLI::App& app, const std::string& prog, int argc, char** argv) {
  const CLI::App* cmd = &app;
  std::string path = prog;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.empty() || word[0] == '-') return 0;
    if (cmd->get_subcommands({}).empty()) return 0;  // a positional argument
    std::vector<const CLI::App*> subs =
        cmd->get_subcommands([&](const CLI::App* s) { return s->check_name(word); });
    if (subs.empty()) return UnknownCommand(word, path, *cmd);
    cmd = subs.front();
    path += " " + cmd->get_name();
    if (cmd->get_name() == "help") return 0;  // its arguments are checked when it runs
  }
  return 0;
}

// `help [COMMAND...]`: the help of that command, as `COMMAND --help` prints it.
int RunHelp(const CLI::App& app, const std::string& prog, const std::vector<std::string>& words) {
  const CLI::App* cmd = &app;
  std::string prev;  // the command path before `cmd`, as CLI11's help(prev) wants it
  std::string path = prog;
  for (const std::string& word : words) {
    std::vector<const CLI::App*> subs = cmd->get_subcommands(
        [&](const CLI::App* s) { return !s->get_group().empty() && s->check_name(word); });
    if (subs.empty() || subs.front()->get_name() == "help") return UnknownCommand(word, path, *cmd);
    prev = path;
    cmd = subs.front();
    path += " " + cmd->get_name();
  }
  // The app's own help(), with `help` selected, would print that command's.
  std::cout << (cmd == &app ? app.get_formatter()->make_help(&app, prog, CLI::AppFormatMode::Normal)
                            : cmd->help(prev));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string prog = ProgramName(argv[0]);
  CLI::App app{
      "Validate, explain and simulate failure policies of JobSets, Volcano Jobs and "
      "FrameworkController Frameworks before they run.",
      prog};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(JOBSET_VERSION));
  // A flag given twice takes the last value, as kubectl's flags do (repeatable flags keep all).
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);

  jobset::LintFlags lint;
  CLI::App* lint_cmd = app.add_subcommand(
      "lint",
      "Check JobSet, Volcano Job and Framework manifests as the API server with their CRDs and "
      "webhooks would, and more.");
  lint_cmd->add_option("PATH", lint.paths, "Files, directories, or - for standard input");
  lint_cmd->add_flag("-R,--recursive", lint.recursive, "Descend into directories");
  lint_cmd
      ->add_option("-o,--output", lint.outputs,
                   "Output format: " + jobset::LintFormatNames(true) +
                       "; repeat it, with FORMAT=FILE for files (-o text -o sarif=lint.sarif)")
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
  lint_cmd->add_option("-j,--jobs", lint.jobs, "Files checked in parallel (default: one per core)")
      ->check(AtLeast(1));
  lint_cmd->add_option("--exclude", lint.exclude,
                       "Leave out files matching GLOB (repeatable): a name anywhere in the path "
                       "(values.yaml, charts), or a path from its start (deploy/charts/**)");
  lint_cmd->add_flag("--fail-if-no-objects-found", lint.fail_if_no_objects_found,
                     "Exit status 1 when no JobSet, Volcano Job or Framework was checked");
  lint_cmd->add_flag("--list-rules", lint.list_rules, "Print the rule registry and exit");
  lint_cmd->add_flag("--fix", lint.fix,
                     "Apply the certain fixes to the files in place, then report what remains "
                     "(with -, print the fixed document)");
  lint_cmd->add_flag("--diff", lint.diff,
                     "Print the certain fixes as a unified diff instead of applying them (exit "
                     "status 1 when there is one)");
  lint_cmd->footer(LintFooter());

  jobset::ExplainFlags explain;
  CLI::App* explain_cmd = app.add_subcommand(
      "explain",
      "For every replicated job (task, task role) and failure: which rule fires and what happens.");
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
      "simulate",
      "Replay failures through the controller's own algorithm, or estimate a policy's cost.");
  sim_cmd->add_option("PATH", sim.paths, "Manifest files (several only with --monte-carlo)");
  sim_cmd->add_option("--fail", sim.fail,
                      "RJOB/INDEX:REASON[:MESSAGE] (a Volcano Job: TASK/INDEX:EVENT[:EXITCODE]; "
                      "a Framework: TASKROLE/INDEX:CODE; see below), one step each; "
                      "comma-separate failures of one step");
  sim_cmd->add_option(
      "--scenario", sim.scenario,
      "YAML file: steps: [{fail: [{job, reason, message}]}] (a Volcano Job: "
      "steps: [{events: [...]}]; a Framework: steps: [{complete: [{task, code}]}])");
  sim_cmd->add_option("-o,--output", sim.output, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  sim_cmd->add_option("--feature-gates", sim.feature_gates, "JobSet feature gates");
  sim_cmd->add_flag("--monte-carlo", sim.monte_carlo,
                    "Estimate the policy's cost under a failure model over many runs");
  sim_cmd->add_option("--runs", sim.runs, "Monte Carlo runs")->capture_default_str();
  sim_cmd->add_option("--seed", sim.seed, "Random seed (same seed, same result)")
      ->capture_default_str()
      ->check(AtLeast(0));
  sim_cmd
      ->add_option("--nodes", sim.nodes,
                   "Nodes the job spans (default: one per pod, the sum of replicas x "
                   "parallelism)")
      ->check(AtLeast(1));
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
  sim_cmd
      ->add_option("--arrive-faulty", sim.arrive_faulty,
                   "Fraction of nodes that arrive faulty and fail at the start (e.g. 0.005)")
      ->check(CLI::Range(0.0, 1.0));
  sim_cmd
      ->add_option("--faulty-fails-after", sim.faulty_fails_after,
                   "How long an unchecked faulty node holds the job before it fails (e.g. a "
                   "collective timeout)")
      ->capture_default_str();
  sim_cmd->add_option("--node-check", sim.node_check,
                      "Duration of one round of a DLRover-style pre-flight node check: each "
                      "policy is also run with the check, side by side");
  sim_cmd
      ->add_option("--node-check-miss", sim.node_check_miss,
                   "Chance that a faulty node passes the node check")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sim_cmd->add_option("--plot", sim.plot, "Write an SVG chart of the distributions");
  sim_cmd->add_option("-j,--jobs", sim.threads, "Threads (default: one per core)")
      ->check(AtLeast(1));
  sim_cmd->footer(kSimulateExamples);

  jobset::RenderFlags render;
  CLI::App* render_cmd = app.add_subcommand(
      "render",
      "Print the child objects the controller creates: a JobSet's Jobs and headless Service, a "
      "Volcano Job's or a Framework's Pods.");
  render_cmd->add_option("PATH", render.paths, "Files, or - for standard input")->required();
  render_cmd->add_option("-o,--output", render.output, "Output format")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  render_cmd->add_option("--replicated-job,--task", render.only,
                         "Only this replicated job (a Volcano Job's task, a Framework's task "
                         "role)");
  render_cmd
      ->add_option("--restarts", render.restarts,
                   "Render as after N restarts (the restart-attempt labels, Volcano's job "
                   "version and retry count, the framework attempt)")
      ->capture_default_str()
      ->check(AtLeast(0));
  render_cmd->footer(kRenderExamples);

  jobset::WhyFlags why;
  CLI::App* why_cmd = app.add_subcommand(
      "why",
      "Why a live JobSet failed or restarted, from its status, Jobs, Pods and events, and what "
      "one more failure does.");
  why_cmd->add_option("NAME", why.target,
                      "NAME or KIND/NAME (jobset/, vcjob/, framework/); none: list them");
  why_cmd->add_option("-f,--filename", why.file,
                      "Read a dump (kubectl get ... -o json, see below) instead of the cluster; "
                      "- for standard input");
  why_cmd->add_option("-n,--namespace", why.namespace_name,
                      "Namespace (kubectl's default if unset)");
  why_cmd->add_option("--context", why.context, "kubeconfig context");
  why_cmd->add_option("--kubeconfig", why.kubeconfig, "kubeconfig file");
  why_cmd->add_flag("-A,--all-namespaces", why.all_namespaces,
                    "List the JobSets of every namespace (no NAME)");
  why_cmd->add_option("-o,--output", why.output, "Output format")
      ->check(CLI::IsMember({"text", "json", "markdown"}))
      ->capture_default_str();
  why_cmd->add_option("--color", why.color, "Colour text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  why_cmd->add_flag("-w,--watch", why.watch,
                    "Keep watching; print each new failure and decision as it happens");
  why_cmd->add_option("--feature-gates", why.feature_gates,
                      "JobSet feature gates of the cluster, e.g. RestartJob=true");
  why_cmd->footer(kWhyExamples);

  CLI::App* netcheck_cmd = app.add_subcommand(
      "netcheck", "DLRover's node health check: the groups of each round, or a log diagnosed.");
  netcheck_cmd->require_subcommand(1);
  netcheck_cmd->footer(kNetcheckExamples);
  jobset::NetcheckPlanFlags plan;
  CLI::App* plan_cmd = netcheck_cmd->add_subcommand(
      "plan", "The groups of nodes tested together in each round of a check cycle.");
  plan_cmd->add_option("--nodes", plan.nodes, "Nodes (ranks 0..N-1) in the check")->required();
  plan_cmd->add_option("--times", plan.times,
                       "ID=SECONDS,...: round-0 times by rank (3600 = failed); others are "
                       "assumed as fast as the fastest given, all equal when none is given");
  plan_cmd->add_option("--node-groups", plan.node_groups,
                       "Node groups (the group-node variant): a size K, or ranks like 0-3/4-7");
  plan_cmd->add_option("-o,--output", plan.output, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  plan_cmd->footer(kNetcheckExamples);
  jobset::NetcheckDiagnoseFlags diagnose;
  CLI::App* diagnose_cmd = netcheck_cmd->add_subcommand(
      "diagnose", "Fault nodes and stragglers from a DLRover job-master log, with the evidence.");
  diagnose_cmd->add_option("FILE", diagnose.path, "The log, or - for standard input (default)");
  diagnose_cmd->add_option("-o,--output", diagnose.output, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  diagnose_cmd->footer(kNetcheckExamples);

  CLI::App* version_cmd = app.add_subcommand("version", "Print the version");
  std::string version_output = "text";
  version_cmd->add_option("-o,--output", version_output, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();

  std::vector<std::string> help_words;
  CLI::App* help_cmd = app.add_subcommand("help", "Help about any command");
  help_cmd->add_option("COMMAND", help_words, "The command (and subcommand), e.g. lint");

  jobset::CompletionFlags completion;
  CLI::App* completion_cmd = jobset::AddCompletionCommand(app, &completion);
  // The hidden `__complete` (Cobra's protocol, for the scripts and kubectl_complete-jobset).
  if (auto request = jobset::FindCompletionRequest(argc, argv)) {
    return jobset::RunComplete(app, *request, std::cout);
  }

  if (int status = CheckCommandWords(app, prog, argc, argv)) return status;
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
  if (help_cmd->parsed()) return RunHelp(app, prog, help_words);
  if (completion_cmd->parsed()) return jobset::RunCompletion(completion, std::cout, std::cerr);
  if (lint_cmd->parsed()) return jobset::RunLint(lint, std::cout, std::cerr);
  if (explain_cmd->parsed()) return jobset::RunExplain(explain, std::cout, std::cerr);
  if (sim_cmd->parsed()) {
    sim.arrive_faulty_given = sim_cmd->count("--arrive-faulty") > 0;
    sim.node_check_miss_given = sim_cmd->count("--node-check-miss") > 0;
    return jobset::RunSimulate(sim, std::cout, std::cerr);
  }
  if (render_cmd->parsed()) return jobset::RunRender(render, std::cout, std::cerr);
  if (why_cmd->parsed()) return jobset::RunWhy(why, std::cout, std::cerr);
  if (plan_cmd->parsed()) return jobset::RunNetcheckPlan(plan, std::cout, std::cerr);
  if (diagnose_cmd->parsed()) return jobset::RunNetcheckDiagnose(diagnose, std::cout, std::cerr);
  return 2;
}
