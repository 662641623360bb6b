#include "cmd/lint_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cmd/atomic_write.h"
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

int RunLint(const LintFlags& flags, std::ostream& out, std::ostream& err) {
  if (flags.list_rules) return ListRules(flags, out);
  if (flags.fix && flags.diff) {
    err << "error: --fix and --diff cannot be used together (--diff shows what --fix writes)\n";
    return 2;
  }
  if (flags.diff && !flags.outputs.empty()) {
    err << "error: --diff prints only the diff: -o cannot be used with it (lint again for the "
           "findings)\n";
    return 2;
  }
  // `--fix -`: standard output carries the fixed document, the report goes to standard error.
  bool fix_stdin = flags.fix && std::count(flags.paths.begin(), flags.paths.end(), "-") > 0;
  LintOptions options;
  options.fix = flags.fix || flags.diff;
  std::string error;
  if (!ParseFeatureGates(flags.feature_gates, &options.gates, &error)) {
    err << "error: --feature-gates: " << error << "\n";
    return 2;
  }
  options.gates_from_flag = !flags.feature_gates.empty();
  // Outputs: FORMAT or FORMAT=FILE; at most one goes to standard output.
  std::vector<std::pair<const LintFormat*, std::string>> outputs;
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
      return 2;
    }
    if (eq != std::string::npos && file.empty()) {
      err << "error: --output " << o << ": missing file name after '='\n";
      return 2;
    }
    outputs.push_back({known, file});
  }
  if (fix_stdin && !flags.outputs.empty() &&
      std::any_of(outputs.begin(), outputs.end(), [](auto& o) { return o.second.empty(); })) {
    err << "error: --fix with - prints the fixed document on standard output: give -o a file "
           "(FORMAT=FILE)\n";
    return 2;
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
    options.builtin_schema = true;
  }
  std::vector<std::string> files;
  if (!ExpandPaths(flags.paths, flags.recursive, &files, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  // Left out: what --exclude names, and config files found in a folder (not manifests).
  auto left_out = [&](const std::string& f) {
    if (f == "-") return false;
    if (PathExcluded(flags.exclude, f)) return true;
    return std::filesystem::path(f).filename() == kConfigFileName &&
           std::find(flags.paths.begin(), flags.paths.end(), f) == flags.paths.end();
  };
  files.erase(std::remove_if(files.begin(), files.end(), left_out), files.end());
  NoteSubfolders(flags, err);
  int threads = flags.jobs > 0 ? flags.jobs : static_cast<int>(std::thread::hardware_concurrency());
  std::vector<FileResult> results = LintFiles(files, options, threads);
  bool unreadable = false;
  std::vector<std::string> said;  // a bad config file is named once, not for each of its files
  for (const FileResult& r : results) {
    if (!r.read_error) continue;
    unreadable = true;
    if (std::find(said.begin(), said.end(), r.error) != said.end()) continue;
    err << "error: " << r.error << "\n";
    said.push_back(r.error);
  }
  if (flags.diff) return PrintDiff(results, unreadable, out, err);
  if (flags.fix && !WriteFixes(results, out, err)) unreadable = true;
  // A run that failed writes no report: a report of the rest would read as a clean result.
  if (unreadable) {
    err << "error: no report written (exit status 2)\n";
    return 2;
  }
  std::ostream& report = fix_stdin ? err : out;
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
      return 2;
    }
  }
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

}  // namespace jobset
