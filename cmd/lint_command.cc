#include "cmd/lint_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cmd/atomic_write.h"
#include "cmd/flag_checks.h"
#include "cmd/report.h"
#include "cmd/unified_diff.h"
#include "validation/core/loader.h"
#include "validation/core/path_glob.h"
#include "validation/lint/lint.h"
#include "validation/lint/rule_registry.h"

namespace jobset {
namespace {

int ListRules(const LintFlags& flags, std::ostream& out) {
  if (!flags.outputs.empty() && flags.outputs[0] == "json") {
    nlohmann::ordered_json rules = nlohmann::ordered_json::array();
    for (const RuleInfo& r : AllRules()) {
      rules.push_back({{"id", r.id},
                       {"severity", SeverityName(r.severity)},
                       {"source", RuleSourceName(r.source)},
                       {"summary", r.summary}});
    }
    out << nlohmann::ordered_json{{"rules", rules}}.dump(2) << "\n";
    return 0;
  }
  // The id column is as wide as the longest id, so no id runs into its severity.
  size_t id_width = 4;
  for (const RuleInfo& r : AllRules()) id_width = std::max(id_width, r.id.size());
  const int id_col = static_cast<int>(id_width) + 2;
  out << std::left << std::setw(id_col) << "RULE" << std::setw(9) << "SEVERITY" << std::setw(10)
      << "SOURCE"
      << "SUMMARY\n";
  for (const RuleInfo& r : AllRules()) {
    out << std::setw(id_col) << r.id << std::setw(9) << SeverityName(r.severity) << std::setw(10)
        << RuleSourceName(r.source) << r.summary << "\n";
  }
  return 0;
}

// Finds the JobSet CRD in a file and compiles its v1alpha2 schema.
std::shared_ptr<const CompiledSchema> LoadCrd(const std::string& path, const LoadLimits& limits,
                                              std::string* error) {
  SourceFile file;
  if (!LoadFile(path, limits, &file, error)) return nullptr;
  for (const Document& doc : file.documents) {
    if (!doc.parsed || doc.root.StringOr("kind") != "CustomResourceDefinition") continue;
    const Node* names = doc.root.Find("spec") ? doc.root.Find("spec")->Find("names") : nullptr;
    if (names && names->StringOr("kind") != "JobSet") continue;
    auto schema = CompileCrdSchema(doc.root, "v1alpha2", error);
    if (!schema) *error = path + ": " + *error;
    return schema;
  }
  *error = path + ": no CustomResourceDefinition for kind JobSet in this file";
  return nullptr;
}

const char* Plural(int n, const char* one, const char* many) { return n == 1 ? one : many; }

// The path a diff names a file by, after "a/" and "b/": relative to the current directory
// (where `patch -p1` and `git apply` run), an absolute path outside it without its leading "/".
std::string DiffPath(const std::string& path) {
  namespace fs = std::filesystem;
  if (path == "-") return path;
  fs::path p = fs::path(path).lexically_normal();
  if (p.is_absolute()) {
    std::error_code ec;
    fs::path rel = p.lexically_relative(fs::current_path(ec));
    if (!ec && !rel.empty() && *rel.begin() != "..") return rel.string();
    return p.relative_path().string();
  }
  return p.string();
}

// --diff: the fixes as one unified diff on `out`, a count on `err`.
int PrintDiff(const std::vector<FileResult>& results, bool unreadable, std::ostream& out,
              std::ostream& err) {
  int fixes = 0, files = 0;
  for (const FileResult& r : results) {
    if (!r.fix_error.empty()) err << "error: " << r.path << ": " << r.fix_error << "\n";
    if (r.fixed_text == r.text) continue;
    std::string path = DiffPath(r.path);
    out << UnifiedDiff(r.bom + r.text, r.bom + r.fixed_text, "a/" + path, "b/" + path);
    fixes += r.fixed;
    ++files;
  }
  out.flush();
  if (files == 0)
    err << "nothing to fix\n";
  else
    err << "would fix " << fixes << Plural(fixes, " finding", " findings") << " in " << files
        << Plural(files, " file", " files") << " (apply with --fix, or git apply)\n";
  if (unreadable) return 2;
  return files > 0 ? 1 : 0;
}

// --fix: writes each changed file (standard input: prints the document); false when a file
// could not be written.
bool WriteFixes(const std::vector<FileResult>& results, std::ostream& out, std::ostream& err) {
  bool ok = true;
  for (const FileResult& r : results) {
    if (r.read_error) continue;
    if (!r.fix_error.empty()) err << "error: " << r.path << ": " << r.fix_error << "\n";
    if (r.path == "-") {
      out << r.bom << r.fixed_text;
      out.flush();
    } else if (r.fixed_text != r.text) {
      std::string error;
      if (!WriteFileAtomically(r.path, r.bom + r.fixed_text, &error)) {
        err << "error: --fix: " << error << "\n";
        ok = false;
        continue;
      }
    }
    if (r.fixed > 0)
      err << r.path << ": fixed " << r.fixed << Plural(r.fixed, " finding", " findings") << "\n";
  }
  return ok;
}

// Whether `dir` holds a file lint would read, at any depth below it (outside `exclude`).
bool HoldsManifests(const std::filesystem::path& dir, const std::vector<std::string>& exclude) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::string ext = it->path().extension().string();
    std::error_code ec2;
    if ((ext == ".yaml" || ext == ".yml" || ext == ".json") &&
        it->path().filename() != kConfigFileName && it->is_regular_file(ec2) &&
        !PathExcluded(exclude, it->path().generic_string())) {
      return true;
    }
  }
  return false;
}

// Without -R: a note for each folder named whose subfolders hold manifests that were not read.
void NoteSubfolders(const LintFlags& flags, std::ostream& err) {
  namespace fs = std::filesystem;
  if (flags.recursive) return;
  for (const std::string& p : flags.paths) {
    std::error_code ec;
    if (p == "-" || !fs::is_directory(p, ec)) continue;
    int with_manifests = 0;
    for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code ec2;
      if (it->is_directory(ec2) && !PathExcluded(flags.exclude, it->path().generic_string()) &&
          HoldsManifests(it->path(), flags.exclude)) {
        ++with_manifests;
      }
    }
    if (with_manifests > 0) {
      err << "note: " << p << ": " << with_manifests
          << Plural(with_manifests, " subfolder", " subfolders")
          << " with YAML or JSON files not searched (use -R to descend)\n";
    }
  }
}

}  // namespace

std::string FeatureGatesHelp() {
  std::string text =
      "Feature gates (--feature-gates NAME=true,...; all off by default, as upstream):\n";
  size_t width = 0;
  for (const FeatureGateInfo& g : KnownFeatureGates()) width = std::max(width, g.name.size());
  for (const FeatureGateInfo& g : KnownFeatureGates()) {
    text += "  " + std::string(g.name) + std::string(width + 2 - g.name.size(), ' ') +
            std::string(g.description) + "\n";
  }
  return text;
}

bool UseColor(const std::string& color_flag) {
  if (color_flag == "always") return true;
  if (color_flag == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO);
}

namespace {

// One report to write: its format, and its file ("": standard output).
using LintOutput = std::pair<const LintFormat*, std::string>;

// --fix and --diff, and --diff and -o, do not go together. Gives false with a message.
bool CheckModeFlags(const LintFlags& flags, std::ostream& err) {
  if (flags.fix && flags.diff) {
    err << "error: --fix and --diff cannot be used together (--diff shows what --fix writes)\n";
    return false;
  }
  if (flags.diff && !flags.outputs.empty()) {
    err << "error: --diff prints only the diff: -o cannot be used with it (lint again for the "
           "findings)\n";
    return false;
  }
  return true;
}

// --feature-gates into `options`. Gives false with a message.
bool ReadGates(const LintFlags& flags, LintOptions* options, std::ostream& err) {
  std::string error;
  if (!ParseFeatureGates(flags.feature_gates, &options->gates, &error)) {
    err << "error: --feature-gates: " << error << "\n";
    return false;
  }
  options->gates_from_flag = !flags.feature_gates.empty();
  return true;
}

// Outputs: FORMAT or FORMAT=FILE; at most one goes to standard output (none with `--fix -`,
// whose standard output is the fixed document). Gives false with a message.
bool ParseOutputs(const LintFlags& flags, bool fix_stdin, std::vector<LintOutput>* outputs,
                  std::ostream& err) {
  std::vector<std::string> requested = flags.outputs;
  if (requested.empty()) requested.push_back(std::string(LintFormats().front().name));
  for (const std::string& o : requested) {
    size_t eq = o.find('=');
    std::string format = o.substr(0, eq);
    std::string file = eq == std::string::npos ? "" : o.substr(eq + 1);
    const LintFormat* known = FindLintFormat(format);
    if (known == nullptr) {
      err << "error: --output: unknown format '" << format << "' (" << LintFormatNames(false)
          << "; FORMAT=FILE writes to a file)\n";
      return false;
    }
    if (eq != std::string::npos && file.empty()) {
      err << "error: --output " << o << ": missing file name after '='\n";
      return false;
    }
    outputs->push_back({known, file});
  }
  auto to_stdout = [](const LintOutput& o) { return o.second.empty(); };
  if (fix_stdin && !flags.outputs.empty() &&
      std::any_of(outputs->begin(), outputs->end(), to_stdout)) {
    err << "error: --fix with - prints the fixed document on standard output: give -o a file "
           "(FORMAT=FILE)\n";
    return false;
  }
  if (std::count_if(outputs->begin(), outputs->end(), to_stdout) > 1) {
    err << "error: --output: only one format can go to standard output; give the others a "
           "file (FORMAT=FILE)\n";
    return false;
  }
  return true;
}

// --config (its gates unless --feature-gates was given), else a config found beside each file.
// Gives false with a message.
bool ReadConfig(const LintFlags& flags, LintOptions* options, std::ostream& err) {
  if (flags.config.empty()) {
    options->find_config = true;
    return true;
  }
  std::string error;
  if (!LoadLintConfig(flags.config, &options->config, &error)) {
    err << "error: --config: " << error << "\n";
    return false;
  }
  if (!options->gates_from_flag && options->config.gates) options->gates = *options->config.gates;
  return true;
}

// --crd's schema, else the built-in one. Gives false with a message.
bool ReadSchema(const LintFlags& flags, LintOptions* options, std::ostream& err) {
  if (flags.crd.empty()) {
    options->builtin_schema = true;
    return true;
  }
  std::string error;
  options->schema = LoadCrd(flags.crd, options->limits, &error);
  if (!options->schema) {
    err << "error: --crd: " << error << "\n";
    return false;
  }
  return true;
}

// The files to lint: the paths expanded, without what --exclude names and config files found
// in a folder (not manifests). Gives false with a message.
bool ListFiles(const LintFlags& flags, std::vector<std::string>* files, std::ostream& err) {
  std::string error;
  if (!ExpandPaths(flags.paths, flags.recursive, files, &error)) {
    err << "error: " << error << "\n";
    return false;
  }
  auto left_out = [&](const std::string& f) {
    if (f == "-") return false;
    if (PathExcluded(flags.exclude, f)) return true;
    return std::filesystem::path(f).filename() == kConfigFileName &&
           std::find(flags.paths.begin(), flags.paths.end(), f) == flags.paths.end();
  };
  files->erase(std::remove_if(files->begin(), files->end(), left_out), files->end());
  return true;
}

// Says each file that could not be read (a bad config file once, not for each of its files);
// gives whether there was one.
bool ReportReadErrors(const std::vector<FileResult>& results, std::ostream& err) {
  bool unreadable = false;
  std::vector<std::string> said;
  for (const FileResult& r : results) {
    if (!r.read_error) continue;
    unreadable = true;
    if (std::find(said.begin(), said.end(), r.error) != said.end()) continue;
    err << "error: " << r.error << "\n";
    said.push_back(r.error);
  }
  return unreadable;
}

// Writes every report: to `report` or to its file. Gives false with a message.
bool WriteReports(const std::vector<LintOutput>& outputs, const std::vector<FileResult>& results,
                  const LintFlags& flags, std::ostream& report, std::ostream& err) {
  for (const auto& [format, file] : outputs) {
    std::string text = format->render(results, file.empty() && UseColor(flags.color));
    if (file.empty()) {
      report << text;
      continue;
    }
    std::ofstream f(file, std::ios::binary);
    f << text;
    if (!f) {
      err << "error: --output: cannot write " << file << "\n";
      return false;
    }
  }
  return true;
}

// 1 when a finding not suppressed is at or above `threshold`, or (--fail-if-no-objects-found)
// no object was checked; else 0.
int LintExitStatus(const std::vector<FileResult>& results, Severity threshold,
                   const LintFlags& flags, std::ostream& err) {
  int status = 0;
  for (const FileResult& r : results)
    for (const Finding& f : r.findings)
      if (f.severity >= threshold && f.suppressed_by.empty()) status = 1;
  if (flags.fail_if_no_objects_found && Summarize(results).objects == 0) {
    err << "error: no JobSet, Volcano Job or Framework found in " << results.size()
        << Plural(static_cast<int>(results.size()), " file", " files")
        << " (--fail-if-no-objects-found)\n";
    status = 1;
  }
  return status;
}

}  // namespace

int RunLint(const LintFlags& flags, std::ostream& out, std::ostream& err) {
  if (flags.list_rules) return ListRules(flags, out);
  if (!CheckModeFlags(flags, err)) return 2;
  // `--fix -`: standard output carries the fixed document, the report goes to standard error.
  bool fix_stdin = flags.fix && std::count(flags.paths.begin(), flags.paths.end(), "-") > 0;
  LintOptions options;
  options.fix = flags.fix || flags.diff;
  if (!ReadGates(flags, &options, err)) return 2;
  std::vector<LintOutput> outputs;
  if (!ParseOutputs(flags, fix_stdin, &outputs, err)) return 2;
  if (!ReadConfig(flags, &options, err)) return 2;
  Severity threshold;
  if (!ParseSeverity(flags.fail_on, &threshold)) {
    err << "error: --fail-on must be error or warning\n";
    return 2;
  }
  if (flags.paths.empty()) {
    err << "error: no PATH given (use - for standard input)\n";
    return 2;
  }
  if (!ReadSchema(flags, &options, err)) return 2;
  std::vector<std::string> files;
  if (!ListFiles(flags, &files, err)) return 2;
  NoteSubfolders(flags, err);
  int threads = flags.jobs > 0 ? flags.jobs : static_cast<int>(std::thread::hardware_concurrency());
  std::vector<FileResult> results = LintFiles(files, options, threads);
  bool unreadable = ReportReadErrors(results, err);
  if (flags.diff) return PrintDiff(results, unreadable, out, err);
  if (flags.fix && !WriteFixes(results, out, err)) unreadable = true;
  // A run that failed writes no report: a report of the rest would read as a clean result.
  if (unreadable) {
    err << "error: no report written (exit status 2)\n";
    return 2;
  }
  if (!WriteReports(outputs, results, flags, fix_stdin ? err : out, err)) return 2;
  return LintExitStatus(results, threshold, flags, err);
}

namespace {

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

// The lint footer: the examples, the feature gates, the rest.
std::string LintFooter() {
  return std::string(kLintExamples) + "\n" + FeatureGatesHelp() + kLintDetails;
}

}  // namespace

CLI::App* AddLintCommand(CLI::App& app, LintFlags* flags) {
  CLI::App* lint_cmd = app.add_subcommand(
      "lint",
      "Check JobSet, Volcano Job and Framework manifests as the API server with their CRDs and "
      "webhooks would, and more.");
  lint_cmd->add_option("PATH", flags->paths, "Files, directories, or - for standard input");
  lint_cmd->add_flag("-R,--recursive", flags->recursive, "Descend into directories");
  lint_cmd
      ->add_option("-o,--output", flags->outputs,
                   "Output format: " + LintFormatNames(true) +
                       "; repeat it, with FORMAT=FILE for files (-o text -o sarif=flags->sarif)")
      ->allow_extra_args(false);
  lint_cmd->add_option("--config", flags->config,
                       "Config file (default: .kubectl-jobset.yaml in the file's folder or above)");
  lint_cmd->add_option("--feature-gates", flags->feature_gates,
                       "JobSet feature gates, e.g. RestartJob=true,InPlaceRestart=true "
                       "(all off by default, as upstream)");
  lint_cmd->add_option("--fail-on", flags->fail_on, "Lowest severity that makes the exit status 1")
      ->check(CLI::IsMember({"error", "warning", "info"}))
      ->capture_default_str();
  lint_cmd->add_option("--crd", flags->crd,
                       "Validate against the openAPIV3Schema of this JobSet CRD file instead of "
                       "the built-in schema");
  lint_cmd->add_option("--color", flags->color, "Colour text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  lint_cmd
      ->add_option("-j,--jobs", flags->jobs, "Files checked in parallel (default: one per core)")
      ->check(AtLeast(1));
  lint_cmd->add_option("--exclude", flags->exclude,
                       "Leave out files matching GLOB (repeatable): a name anywhere in the path "
                       "(values.yaml, charts), or a path from its start (deploy/charts/**)");
  lint_cmd->add_flag("--fail-if-no-objects-found", flags->fail_if_no_objects_found,
                     "Exit status 1 when no JobSet, Volcano Job or Framework was checked");
  lint_cmd->add_flag("--list-rules", flags->list_rules, "Print the rule registry and exit");
  lint_cmd->add_flag("--fix", flags->fix,
                     "Apply the certain fixes to the files in place, then report what remains "
                     "(with -, print the fixed document)");
  lint_cmd->add_flag("--diff", flags->diff,
                     "Print the certain fixes as a unified diff instead of applying them (exit "
                     "status 1 when there is one)");
  lint_cmd->footer(LintFooter());
  return lint_cmd;
}

}  // namespace jobset
