// Configuration and suppressions: `.kubectl-jobset.yaml` (rules on, off or re-graded, feature
// gates), `kubectl-jobset.io/ignore` annotations and `# kubectl-jobset:ignore` comments.
// Errors the API server would reject can be neither disabled nor suppressed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "validation/core/finding.h"
#include "validation/core/node.h"
#include "validation/jobset/feature_gates.h"

namespace jobset {

/// The config file name looked for upwards from each linted file.
inline constexpr char kConfigFileName[] = ".kubectl-jobset.yaml";
/// The annotation that suppresses rules for one object.
inline constexpr char kIgnoreAnnotation[] = "kubectl-jobset.io/ignore";

/// One `rules:` entry: an id or a prefix glob ("job-template/*"), and what to do with it.
struct RuleSetting {
  std::string pattern;
  bool off = false;
  Severity severity = Severity::kWarning;  ///< When not off.
};

/// A loaded `.kubectl-jobset.yaml`.
struct LintConfig {
  std::string path;  ///< Where it came from ("" for none).
  std::optional<FeatureGates> gates;
  std::vector<RuleSetting> rules;  ///< Later entries win.
  /// `ignorePaths:` globs of files left out of the run, relative to the config file's folder
  /// (validation/core/path_glob.h says what matches).
  std::vector<std::string> ignore_paths;
};

/// Whether `config`'s ignorePaths leave out `file` (a path as named; "-" never is).
bool IgnoredByConfig(const LintConfig& config, const std::string& file);

/// Reads a config file. Gives false and a message naming the file and field on any problem,
/// including an attempt to disable or re-grade a rule whose verdict is the API server's.
bool LoadLintConfig(const std::string& path, LintConfig* out, std::string* error);

/// The nearest `.kubectl-jobset.yaml` in `dir` or above, or "". Relative to the current folder
/// when it is in it, else absolute.
std::string FindLintConfig(const std::string& dir);

/// Applies the config's rule settings: drops disabled findings, re-grades the others. Findings
/// of API-server rules are never touched (LoadLintConfig refuses such settings).
void ApplyLintConfig(const LintConfig& config, std::vector<Finding>* findings);

/// Why a finding is suppressed, when it is.
struct Suppression {
  std::string kind;    ///< "annotation" or "comment".
  std::string reason;  ///< The text after the rule ids ("" when none was given).
};

/// Marks the findings of one object suppressed by its `kubectl-jobset.io/ignore` annotation:
/// `"rule-id[,rule-id...] [# reason]"` ("*" for every rule).
void ApplyAnnotationSuppressions(const Node& object, std::vector<Finding>* findings);

/// Marks findings suppressed by `# kubectl-jobset:ignore rule-id[,rule-id...] [reason]`
/// comments in `text`: at the end of a line it covers findings on that line; alone on its line,
/// the next line.
void ApplyCommentSuppressions(const std::string& text, std::vector<Finding>* findings);

/// True when a finding can be suppressed: anything but an error the API server would give.
bool Suppressible(const Finding& finding);

}  // namespace jobset
