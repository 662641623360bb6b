// Linting: load, default, validate and place findings, for files and for single objects.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "validation/feature_gates.h"
#include "validation/finding.h"
#include "validation/lint_config.h"
#include "validation/loader.h"
#include "validation/node.h"
#include "validation/schema.h"

namespace jobset {

/// What a lint run checks against.
struct LintOptions {
  FeatureGates gates;
  /// The schema objects are checked against: the built-in one, or a user's CRD (--crd).
  std::shared_ptr<const CompiledSchema> schema;
  LoadLimits limits;
  /// Rule settings (and gates) from a config file: --config, or found by LintFiles.
  LintConfig config;
  /// LintFiles looks for .kubectl-jobset.yaml upwards from each file (when no --config).
  bool find_config = false;
  /// `gates` came from --feature-gates: they win over a config file's.
  bool gates_from_flag = false;
  /// LintFiles applies the certain fixes (in memory) and reports the findings that remain.
  bool fix = false;
};

/// The verdict on one file.
struct FileResult {
  std::string path;
  int objects = 0;                ///< Supported objects checked.
  int skipped = 0;                ///< Documents of other kinds, skipped quietly.
  std::vector<Finding> findings;  ///< In document order, then by position.
  bool read_error = false;        ///< The file could not be read at all (exit status 2).
  std::string error;
  std::string bom;  ///< The byte order mark in front of the text (fix offsets do not count it).
  // With LintOptions::fix (`findings` are then those left after fixing):
  std::string text;        ///< The text as read (without the byte order mark).
  std::string fixed_text;  ///< The text with the fixes applied (equal to `text` without any).
  int fixed = 0;           ///< Fixes applied.
  std::string fix_error;   ///< Why fixing stopped early (a fix that would break the file).
};

/// Checks one object as kube-apiserver would on CREATE (defaults, schema, CEL, the upstream
/// webhook). Findings are placed in `object` (line and column) but carry no file.
std::vector<Finding> LintObject(const Node& object, const LintOptions& options);

/// The same, on an object the caller no longer needs as written: it is defaulted in place (CRD
/// and mutating-webhook defaults, what kube-apiserver validates) instead of being copied first.
/// The admission webhook's path, where the copy of a 5 KB object cost a tenth of a request.
std::vector<Finding> LintObjectInPlace(Node* object, const LintOptions& options);

/// Checks every document of a loaded file.
FileResult LintSource(const SourceFile& file, const LintOptions& options);

/// Loads and checks files on up to `threads` threads; results come back in `files` order, without
/// the files their config's ignorePaths leave out.
std::vector<FileResult> LintFiles(const std::vector<std::string>& files, const LintOptions& options,
                                  int threads);

}  // namespace jobset
