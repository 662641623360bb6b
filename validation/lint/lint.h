// Linting: load, default, validate and place findings, for files and for single objects.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "validation/core/finding.h"
#include "validation/core/loader.h"
#include "validation/core/node.h"
#include "validation/jobset/feature_gates.h"
#include "validation/lint/config.h"
#include "validation/schema/schema.h"

namespace jobset {

/// What a lint run checks against.
struct LintOptions {
  FeatureGates gates;
  /// The schema JobSets are checked against: a user's CRD (--crd), or, when null, the built-in
  /// one if `builtin_schema` is set, else none (JobSetSchema).
  std::shared_ptr<const CompiledSchema> schema;
  /// Check JobSets against BuiltinJobSetSchema() when `schema` is null. It is compiled on the
  /// first JobSet checked, so that a run over other kinds never pays for it.
  bool builtin_schema = false;
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

/// The schema JobSets are checked against under `options`: `schema`, else the built-in one when
/// `builtin_schema` is set (compiled on the first call, thread-safe), else nullptr (none).
const CompiledSchema* JobSetSchema(const LintOptions& options);

/// Checks every document of a loaded file.
FileResult LintSource(const SourceFile& file, const LintOptions& options);

/// Loads and checks files on up to `threads` threads; results come back in `files` order, without
/// the files their config's ignorePaths leave out.
std::vector<FileResult> LintFiles(const std::vector<std::string>& files, const LintOptions& options,
                                  int threads);

/// What fixing one file did.
struct FixOutcome {
  std::string text;   ///< The fixed text (SourceFile::text: without the byte order mark).
  FileResult result;  ///< The findings that remain.
  int fixed = 0;      ///< Fixes applied.
  /// Set when a fix would have broken the file (a bug): `text` is then the last good text.
  std::string error;
};

/// Applies the fixes of the unsuppressed findings of `file`, lints the result and repeats (a fix
/// that overlapped another one is applied on the next pass) until nothing is left to fix.
FixOutcome FixSource(const SourceFile& file, const LintOptions& options);

}  // namespace jobset
