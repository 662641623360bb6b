#include "cmd/lint_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
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
  options.gates_from_flag = !flags.feature_gates.empty();
  // Outputs: FORMAT or FORMAT=FILE; at most one goes to standard output.
  std::vector<std::pair<std::string, std::string>> outputs;
  std::vector<std::string> requested = flags.outputs;
  if (requested.empty()) requested.push_back("text");
  for (const std::string& o : requested) {
    size_t eq = o.find('=');
    std::string format = o.substr(0, eq);
    std::string file = eq == std::string::npos ? "" : o.substr(eq + 1);
    if (format != "text" && format != "json" && format != "sarif" && format != "github" &&
        format != "junit") {
      err << "error: --output: unknown format '" << format
          << "' (text, json, sarif, github, junit; FORMAT=FILE writes to a file)\n";
      return 2;
    }
    if (eq != std::string::npos && file.empty()) {
      err << "error: --output " << o << ": missing file name after '='\n";
      return 2;
    }
    outputs.push_back({format, file});
  }
  if (std::count_if(outputs.begin(), outputs.end(), [](auto& o) { return o.second.empty(); }) > 1) {
    err << "error: --output: only one format can go to standard output; give the others a "
           "file (FORMAT=FILE)\n";
    return 2;
  }
  if (!flags.config.empty()) {
    if (!LoadLintConfig(flags.config, &options.config, &error)) {
      err << "error: --config: " << error << "\n";
      return 2;
    }
    if (!options.gates_from_flag && options.config.gates) options.gates = *options.config.gates;
  } else {
    options.find_config = true;
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
  for (const auto& [format, file] : outputs) {
    std::string text;
    if (format == "json")
      text = RenderJson(results);
    else if (format == "sarif")
      text = RenderSarif(results);
    else if (format == "github")
      text = RenderGithub(results);
    else if (format == "junit")
      text = RenderJunit(results);
    else
      text = RenderText(results, file.empty() && UseColor(flags.color));
    if (file.empty()) {
      out << text;
      continue;
    }
    std::ofstream f(file, std::ios::binary);
    f << text;
    if (!f) {
      err << "error: --output: cannot write " << file << "\n";
      return 2;
    }
  }
  if (unreadable) return 2;
  for (const FileResult& r : results)
    for (const Finding& f : r.findings)
      if (f.severity >= threshold && f.suppressed_by.empty()) return 1;
  return 0;
}

}  // namespace jobset
