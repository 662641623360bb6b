#include "validation/lint/lint.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <thread>

#include "validation/core/helm_template.h"
#include "validation/core/rules.h"
#include "validation/core/text_edit.h"
#include "validation/lint/kinds.h"

namespace jobset {
namespace {

namespace fs = std::filesystem;

bool MarkLess(const Finding& a, const Finding& b) {
  if (a.document != b.document) return a.document < b.document;
  if (a.mark.line != b.mark.line) return a.mark.line < b.mark.line;
  return a.mark.column < b.mark.column;
}

// The file being linted, for the fixes.
struct FixSite {
  std::string_view text;
  const std::vector<size_t>& line_starts;
  bool certain;  // no aliases, no UTF-16: text edits mean what they say
};

void LintDocumentObject(const Node& object, int document, const FixSite& site,
                        const LintOptions& options, FileResult* result) {
  const KindHandler* handler = FindKindHandler(object);
  if (!handler) {
    ++result->skipped;
    Finding f;
    if (FindIdentityProblem(object, &f)) {
      f.file = result->path;
      f.document = document;
      f.api_version = std::string(object.StringOr("apiVersion"));
      f.kind = std::string(object.StringOr("kind"));
      const Node* md = object.Find("metadata");
      f.name = std::string(md ? md->StringOr("name") : std::string_view());
      result->findings.push_back(std::move(f));
    }
    return;
  }
  ++result->objects;
  std::string name = std::string(object.Find("metadata") ? object.Find("metadata")->StringOr("name")
                                                         : std::string_view());
  std::vector<Finding> findings = handler->lint(object, options);
  ApplyLintConfig(options.config, &findings);
  ApplyAnnotationSuppressions(object, &findings);
  if (site.certain && handler->attach_fixes)
    handler->attach_fixes(object, site.text, site.line_starts, &findings);
  for (Finding& f : findings) {
    f.file = result->path;
    f.document = document;
    f.api_version = std::string(handler->api_version);
    f.kind = std::string(handler->kind);
    f.name = name;
    result->findings.push_back(std::move(f));
  }
}

// A document that names no apiVersion and no kind (a Helm values.yaml, a package.json) is no
// Kubernetes object: nothing about it is reported, not even its duplicate keys.
bool Identityless(const Document& doc) {
  return doc.parsed && (!doc.root.is_map() || (doc.root.Find("apiVersion") == nullptr &&
                                               doc.root.Find("kind") == nullptr));
}

constexpr int kMaxPasses = 10;

// Whether a re-parse of fixed text reads every document the original read, the same way.
bool SameShape(const SourceFile& before, const SourceFile& after) {
  if (before.documents.size() != after.documents.size() ||
      before.problems.size() != after.problems.size())
    return false;
  for (size_t i = 0; i < before.documents.size(); ++i) {
    const Document& a = before.documents[i];
    const Document& b = after.documents[i];
    if (a.parsed != b.parsed || a.problems.size() != b.problems.size()) return false;
  }
  return true;
}

}  // namespace

const CompiledSchema* JobSetSchema(const LintOptions& options) {
  if (options.schema) return options.schema.get();
  // BuiltinJobSetSchema's schema lives as long as the process.
  return options.builtin_schema ? BuiltinJobSetSchema().get() : nullptr;
}

FileResult LintSource(const SourceFile& file, const LintOptions& options) {
  FileResult result;
  result.path = file.path;
  result.bom = file.bom;
  // A Helm template is not YAML until rendered: one finding that says so, instead of syntax
  // errors (or findings on `{{ }}` values).
  if (Mark helm = FindHelmTemplateAction(file.text); helm.known()) {
    Finding f;
    f.rule = kInputHelmTemplate.id;
    f.severity = Severity::kInfo;
    f.mark = helm;
    f.file = file.path;
    f.message =
        "Helm template syntax ({{ ... }}): not checked; render the chart first, e.g. "
        "helm template RELEASE CHART | kubectl jobset lint -";
    result.findings.push_back(std::move(f));
    return result;
  }
  std::vector<size_t> line_starts = LineStarts(file.text);
  for (Finding f : file.problems) {
    f.file = file.path;
    result.findings.push_back(std::move(f));
  }
  for (const Document& doc : file.documents) {
    if (Identityless(doc)) {
      ++result.skipped;
      continue;
    }
    for (Finding f : doc.problems) {
      f.file = file.path;
      f.document = doc.index;
      result.findings.push_back(std::move(f));
    }
    if (!doc.parsed) continue;
    const Node& root = doc.root;
    FixSite site{file.text, line_starts, !doc.aliases && !file.utf16};
    // A `kind: List` holds its objects in `items`.
    if (root.is_map() && root.StringOr("kind") == "List" && root.StringOr("apiVersion") == "v1") {
      if (const Node* items = root.Find("items"); items && items->is_seq()) {
        for (const Node& item : items->items)
          LintDocumentObject(item, doc.index, site, options, &result);
      }
      continue;
    }
    LintDocumentObject(root, doc.index, site, options, &result);
  }
  ApplyCommentSuppressions(file.text, &result.findings);
  std::stable_sort(result.findings.begin(), result.findings.end(), MarkLess);
  return result;
}

std::vector<FileResult> LintFiles(const std::vector<std::string>& files, const LintOptions& options,
                                  int threads) {
  std::vector<FileResult> results(files.size());
  // Each file's options: the config found upwards from it (loaded once per config file).
  std::vector<LintOptions> per_file(files.size(), options);
  if (options.find_config) {
    std::map<std::string, std::pair<LintConfig, std::string>> loaded;  // path -> config, error
    for (size_t i = 0; i < files.size(); ++i) {
      std::string dir = files[i] == "-" ? "." : fs::path(files[i]).parent_path().string();
      std::string path = FindLintConfig(dir);
      if (path.empty()) continue;
      auto it = loaded.find(path);
      if (it == loaded.end()) {
        LintConfig c;
        std::string error;
        if (!LoadLintConfig(path, &c, &error)) c.path.clear();
        it = loaded.emplace(path, std::make_pair(c, error)).first;
      }
      if (!it->second.second.empty()) {
        results[i].read_error = true;
        results[i].error = it->second.second;
        continue;
      }
      per_file[i].config = it->second.first;
      if (!options.gates_from_flag && per_file[i].config.gates)
        per_file[i].gates = *per_file[i].config.gates;
    }
  }
  std::vector<char> ignored(files.size(), 0);
  for (size_t i = 0; i < files.size(); ++i)
    ignored[i] = !results[i].read_error && IgnoredByConfig(per_file[i].config, files[i]);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      if (ignored[i]) continue;
      if (results[i].read_error) {
        results[i].path = files[i];
        continue;
      }
      SourceFile source;
      std::string error;
      if (!LoadFile(files[i], options.limits, &source, &error)) {
        results[i].path = files[i];
        results[i].read_error = true;
        results[i].error = error;
        continue;
      }
      if (!options.fix) {
        results[i] = LintSource(source, per_file[i]);
        continue;
      }
      FixOutcome fixed = FixSource(source, per_file[i]);
      results[i] = std::move(fixed.result);
      results[i].text = std::move(source.text);
      results[i].fixed_text = std::move(fixed.text);
      results[i].fixed = fixed.fixed;
      results[i].fix_error = std::move(fixed.error);
    }
  };
  int n = std::max(1, std::min<int>(threads, static_cast<int>(files.size())));
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  std::vector<FileResult> kept;
  for (size_t i = 0; i < files.size(); ++i)
    if (!ignored[i]) kept.push_back(std::move(results[i]));
  return kept;
}

FixOutcome FixSource(const SourceFile& file, const LintOptions& options) {
  FixOutcome out;
  out.text = file.text;
  out.result = LintSource(file, options);
  SourceFile current = file;
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    // Whole fixes in file order; one that overlaps an accepted one waits for the next pass.
    std::vector<TextEdit> accepted;
    int applied = 0;
    for (const Finding& f : out.result.findings) {
      if (f.fix.edits.empty() || !f.suppressed_by.empty()) continue;
      bool clash = false;
      for (const TextEdit& e : f.fix.edits)
        for (const TextEdit& a : accepted) clash |= EditsOverlap(e, a);
      if (clash) continue;
      accepted.insert(accepted.end(), f.fix.edits.begin(), f.fix.edits.end());
      ++applied;
    }
    if (accepted.empty()) break;
    std::string text = ApplyEdits(out.text, accepted);
    if (text == out.text) break;
    SourceFile next = ParseSource(file.path, text, options.limits);
    next.bom = file.bom;
    if (!SameShape(current, next)) {
      out.error =
          "a fix would change how the file parses; nothing more was fixed (please report "
          "this as a bug)";
      break;
    }
    out.text = std::move(text);
    out.result = LintSource(next, options);
    out.fixed += applied;
    current = std::move(next);
  }
  return out;
}

}  // namespace jobset
