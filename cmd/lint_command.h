// `kubectl jobset lint`: flags in, findings and an exit status out.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace jobset {

/// The flags of `lint`, as parsed from the command line.
struct LintFlags {
  std::vector<std::string> paths;
  bool recursive = false;
  /// Output formats, each `FORMAT` (standard output) or `FORMAT=FILE`: text | json | sarif |
  /// github | junit. Empty means text.
  std::vector<std::string> outputs;
  std::string config;             ///< --config FILE (else .kubectl-jobset.yaml found upwards).
  std::string feature_gates;      ///< "RestartJob=true,..."
  std::string fail_on = "error";  ///< error | warning
  std::string crd;                ///< A CRD file whose schema replaces the built-in one.
  std::string color = "auto";     ///< auto | always | never
  bool list_rules = false;
  int jobs = 0;  ///< Threads; 0 = one per core.
  /// Apply the certain fixes to the files in place (standard input: print the fixed document),
  /// then report what remains.
  bool fix = false;
  /// Print the fixes as a unified diff instead (exit status 1 when there is one).
  bool diff = false;
  /// --exclude GLOB: files left out (validation/core/path_glob.h says what matches).
  std::vector<std::string> exclude;
  /// Exit status 1 when no supported object was checked (kube-linter's flag).
  bool fail_if_no_objects_found = false;
};

/// Runs lint and returns the exit status: 0 clean, 1 findings at or above --fail-on (or no
/// object with --fail-if-no-objects-found), 2 usage error or an unreadable path or config file
/// (message on `err`, and no report written: a failed run never reads as a clean one). With --diff:
/// 0 nothing to fix, 1 a diff, 2 usage error or an unreadable path.
int RunLint(const LintFlags& flags, std::ostream& out, std::ostream& err);

/// The feature gates for --help, one a line with what each changes, from the table the parser
/// uses (validation/jobset/feature_gates.h).
std::string FeatureGatesHelp();

/// Whether to colour output: --color, then NO_COLOR, then whether stdout is a terminal.
bool UseColor(const std::string& color_flag);

/// Adds the `lint` command to `app`, its flags bound to `flags`; returns it.
CLI::App* AddLintCommand(CLI::App& app, LintFlags* flags);

}  // namespace jobset
