#include "cmd/lint_command.h"

#include <unistd.h>

#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cmd/report.h"
#include "validation/lint.h"
#include "validation/loader.h"
#include "validation/rule_registry.h"

namespace jobset {
namespace {

int ListRules(const LintFlags& flags, std::ostream& out) {
  if (flags.output == "json") {
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
  out << std::left << std::setw(46) << "RULE" << std::setw(9) << "SEVERITY" << std::setw(10)
      << "SOURCE"
      << "SUMMARY\n";
  for (const RuleInfo& r : AllRules()) {
    out << std::setw(46) << r.id << std::setw(9) << SeverityName(r.severity) << std::setw(10)
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

}  // namespace

bool UseColor(const std::string& color_flag) {
  if (color_flag == "always") return true;
  if (color_flag == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO);
}

int RunLint(const LintFlags& flags, std::ostream& out, std::ostream& err) {
  if (flags.list_rules) return ListRules(flags, out);
  LintOptions options;
  std::string error;
  if (!ParseFeatureGates(flags.feature_gates, &options.gates, &error)) {
    err << "error: --feature-gates: " << error << "\n";
    return 2;
  }
  Severity threshold;
  if (!ParseSeverity(flags.fail_on, &threshold)) {
    err << "error: --fail-on must be error or warning\n";
    return 2;
  }
  if (flags.paths.empty()) {
    err << "error: no PATH given (use - for standard input)\n";
    return 2;
  }
  if (!flags.crd.empty()) {
    options.schema = LoadCrd(flags.crd, options.limits, &error);
    if (!options.schema) {
      err << "error: --crd: " << error << "\n";
      return 2;
    }
  } else {
    options.schema = BuiltinJobSetSchema();
  }
  std::vector<std::string> files;
  if (!ExpandPaths(flags.paths, flags.recursive, &files, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  int threads = flags.jobs > 0 ? flags.jobs : static_cast<int>(std::thread::hardware_concurrency());
  std::vector<FileResult> results = LintFiles(files, options, threads);
  bool unreadable = false;
  for (const FileResult& r : results) {
    if (r.read_error) {
      err << "error: " << r.error << "\n";
      unreadable = true;
    }
  }
  if (flags.output == "json")
    out << RenderJson(results);
  else if (flags.output == "sarif")
    out << RenderSarif(results);
  else if (flags.output == "github")
    out << RenderGithub(results);
  else
    out << RenderText(results, UseColor(flags.color));
  if (unreadable) return 2;
  for (const FileResult& r : results)
    for (const Finding& f : r.findings)
      if (f.severity >= threshold) return 1;
  return 0;
}

}  // namespace jobset
