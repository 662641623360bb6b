// Rendering lint results: text (compiler style), JSON, SARIF 2.1.0 and GitHub annotations.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/lint/lint.h"

namespace jobset {

/// Totals over a run, as `summary` in the JSON output.
struct Summary {
  int files = 0, objects = 0, skipped = 0, errors = 0, warnings = 0, infos = 0;
  int suppressed = 0;  ///< Findings an annotation or comment suppressed (not counted above).
};

/// Adds up findings and object counts.
Summary Summarize(const std::vector<FileResult>& results);

/// `file:line:col: severity: message [rule]`, one line each, then a summary line.
/// `color` adds ANSI colours (only on a terminal without NO_COLOR).
std::string RenderText(const std::vector<FileResult>& results, bool color);

/// The JSON object of the contract (docs/contract/README.md): {"findings": [...], "summary":
/// {...}}.
std::string RenderJson(const std::vector<FileResult>& results);

/// A SARIF 2.1.0 log with one rule entry per registry rule (help text from its doc page).
std::string RenderSarif(const std::vector<FileResult>& results);

/// GitHub Actions workflow commands (`::error file=...,line=...,col=...::message`).
std::string RenderGithub(const std::vector<FileResult>& results);

/// JUnit XML: a test suite per file, a test case per object, a failure per error or warning.
std::string RenderJunit(const std::vector<FileResult>& results);

/// One output format of `lint -o`: declared once, so that lint's check and dispatch, the help
/// text and shell completion all read this table.
struct LintFormat {
  std::string_view name;  ///< The word after -o.
  std::string_view help;  ///< What it is, for shell completion.
  /// Renders a run; `color` (a terminal that wants colour) matters to text only.
  std::string (*render)(const std::vector<FileResult>& results, bool color);
};

/// Every format of `lint -o`, the default (text) first.
const std::vector<LintFormat>& LintFormats();

/// The format called `name`, or nullptr.
const LintFormat* FindLintFormat(std::string_view name);

/// The names, comma-separated ("text, json, ..."); with `mark_default`, the first followed by
/// " (default)".
std::string LintFormatNames(bool mark_default);

}  // namespace jobset
