// kubectl-jobset: the kubectl plugin. `kubectl jobset <command>` once on PATH.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "cmd/lint_command.h"
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

  # The rules, with their ids
  kubectl jobset lint --list-rules

Exit status: 0 no finding at or above --fail-on, 1 findings, 2 usage error or unreadable path.
)";

}  // namespace

int main(int argc, char** argv) {
  std::string prog = ProgramName(argv[0]);
  CLI::App app{"Validate, explain and simulate JobSet failure policies before they run.", prog};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(JOBSET_VERSION));

  jobset::LintFlags lint;
  CLI::App* lint_cmd = app.add_subcommand(
      "lint", "Check manifests as the API server with the JobSet CRD and webhook would, and more.");
  lint_cmd->add_option("PATH", lint.paths, "Files, directories, or - for standard input");
  lint_cmd->add_flag("-R,--recursive", lint.recursive, "Descend into directories");
  lint_cmd->add_option("-o,--output", lint.output, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}))
      ->capture_default_str();
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

  CLI::App* version_cmd = app.add_subcommand("version", "Print the version");

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
    std::cout << "kubectl-jobset " << JOBSET_VERSION << "\n";
    return 0;
  }
  if (lint_cmd->parsed()) return jobset::RunLint(lint, std::cout, std::cerr);
  return 2;
}
