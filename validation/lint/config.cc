#include "validation/lint/config.h"

#include <filesystem>

#include "validation/core/loader.h"
#include "validation/core/path_glob.h"
#include "validation/core/strings.h"
#include "validation/lint/rule_registry.h"

namespace jobset {
namespace {

namespace fs = std::filesystem;

bool Matches(const std::string& pattern, std::string_view id) {
  if (!pattern.empty() && pattern.back() == '*') {
    return id.substr(0, pattern.size() - 1) ==
           std::string_view(pattern).substr(0, pattern.size() - 1);
  }
  return id == pattern;
}

// A rule whose verdict is the API server's: its errors cannot be disabled or suppressed.
bool IsApiServerRule(const RuleInfo& r) {
  return r.severity == Severity::kError && r.source != RuleSource::kAnalysis;
}

// `s` without leading spaces and tabs, and without trailing spaces, tabs and carriage returns.
std::string TrimComment(std::string_view s) { return std::string(TrimRight(TrimLeft(s), " \t\r")); }

// "id1,id2 # reason" / "id1, id2 reason": the ids, and the rest as the reason.
std::vector<std::string> ParseIds(const std::string& text, std::string* reason) {
  std::vector<std::string> ids;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',')) ++i;
    size_t end = text.find_first_of(" ,", i);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(i, end - i);
    if (word.empty()) break;
    // An id has a '/' (or is "*"); the first word that is not one starts the reason.
    if (word != "*" && word.find('/') == std::string::npos) break;
    ids.push_back(word);
    i = end;
    if (i < text.size() && text[i] == ' ') {
      size_t next = text.find_first_not_of(' ', i);
      if (next == std::string::npos || text[next] != ',') break;
    }
  }
  std::string rest = TrimComment(i < text.size() ? text.substr(i) : "");
  while (!rest.empty() && (rest[0] == '#' || rest[0] == ',' || rest[0] == '-' || rest[0] == ':'))
    rest = TrimComment(rest.substr(1));
  *reason = rest;
  return ids;
}

void Suppress(const std::vector<std::string>& ids, const std::string& kind,
              const std::string& reason, Finding* f) {
  for (const std::string& id : ids) {
    if (!Matches(id, f->rule)) continue;
    if (!Suppressible(*f)) {
      f->note = "kubectl-jobset:ignore has no effect: the API server rejects this";
      return;
    }
    f->suppressed_by = kind;
    f->suppression_reason = reason;
    return;
  }
}

}  // namespace

bool Suppressible(const Finding& finding) {
  return finding.severity != Severity::kError || [&] {
    const RuleInfo* r = FindRule(finding.rule);
    return r && !IsApiServerRule(*r);
  }();
}

bool LoadLintConfig(const std::string& path, LintConfig* out, std::string* error) {
  SourceFile file;
  if (!LoadFile(path, LoadLimits{}, &file, error)) return false;
  out->path = path;
  if (file.documents.empty()) return true;
  const Document& doc = file.documents[0];
  if (!doc.parsed) {
    *error = path + ": " + (doc.problems.empty() ? "cannot parse" : doc.problems[0].message);
    return false;
  }
  if (!doc.root.is_map()) {
    *error = path + ": want a mapping with featureGates and rules";
    return false;
  }
  for (const MapEntry& e : doc.root.entries) {
    std::string where = path + ":" + std::to_string(e.key_mark.line) + ": " + e.key;
    if (e.key == "featureGates") {
      FeatureGates g;
      std::string text;
      if (e.value.is_string()) {
        text = e.value.text;
      } else if (e.value.is_map()) {
        for (const MapEntry& g2 : e.value.entries)
          text += (text.empty() ? "" : ",") + g2.key + "=" + g2.value.text;
      }
      std::string gate_error;
      if (!ParseFeatureGates(text, &g, &gate_error)) {
        *error = where + ": " + gate_error;
        return false;
      }
      out->gates = g;
    } else if (e.key == "rules") {
      if (!e.value.is_map()) {
        *error = where + ": want a mapping of rule id (or prefix*) to off|info|warning|error";
        return false;
      }
      for (const MapEntry& r : e.value.entries) {
        std::string at = path + ":" + std::to_string(r.key_mark.line) + ": rules." + r.key;
        RuleSetting s;
        s.pattern = r.key;
        std::string v = r.value.is_bool() ? (r.value.boolean ? "on" : "off") : r.value.text;
        if (v == "off" || v == "false" || v == "disabled") {
          s.off = true;
        } else if (v == "on" || v == "true") {
          continue;  // the rule's own severity
        } else if (!ParseSeverity(v, &s.severity)) {
          *error = at + ": '" + v + "' is not off, info, warning or error";
          return false;
        }
        bool known = false;
        for (const RuleInfo& info : AllRules()) {
          if (!Matches(s.pattern, info.id)) continue;
          known = true;
          if (IsApiServerRule(info) && (s.off || s.severity != Severity::kError)) {
            if (s.pattern.back() == '*') continue;  // a glob skips them
            *error = at + ": " + std::string(info.id) +
                     " is the API server's verdict and cannot be disabled or re-graded";
            return false;
          }
        }
        if (!known) {
          *error = at + ": no such rule (see kubectl jobset lint --list-rules)";
          return false;
        }
        out->rules.push_back(s);
      }
    } else if (e.key == "ignorePaths") {
      std::vector<const Node*> items;
      if (e.value.is_string()) items.push_back(&e.value);
      if (e.value.is_seq())
        for (const Node& item : e.value.items) items.push_back(&item);
      if (items.empty() && !e.value.is_seq()) {
        *error = where + ": want a list of path globs (- charts/**)";
        return false;
      }
      for (const Node* item : items) {
        if (!item->is_string() || item->text.empty()) {
          *error = path + ":" + std::to_string(item->mark.line) +
                   ": ignorePaths: want a path glob (a non-empty string)";
          return false;
        }
        out->ignore_paths.push_back(item->text);
      }
    } else {
      *error = where + ": unknown field (featureGates, rules, ignorePaths)";
      return false;
    }
  }
  return true;
}

bool IgnoredByConfig(const LintConfig& config, const std::string& file) {
  if (config.ignore_paths.empty() || file == "-") return false;
  std::error_code ec;
  fs::path dir = fs::absolute(fs::path(config.path).parent_path(), ec).lexically_normal();
  fs::path abs = fs::absolute(file, ec).lexically_normal();
  fs::path rel = abs.lexically_relative(dir);
  std::string under = !ec && !rel.empty() && *rel.begin() != ".." ? rel.generic_string()
                                                                  : fs::path(file).generic_string();
  return PathExcluded(config.ignore_paths, under);
}

std::string FindLintConfig(const std::string& dir) {
  std::error_code ec;
  fs::path p = fs::absolute(dir.empty() ? "." : dir, ec);
  if (ec) return "";
  while (true) {
    fs::path candidate = p / kConfigFileName;
    std::error_code missing;  // not found is not an error here
    if (fs::is_regular_file(candidate, missing)) {
      // Named relative to the current folder when it is in it, as the user would name it.
      fs::path rel = candidate.lexically_relative(fs::current_path(missing));
      if (!missing && !rel.empty() && *rel.begin() != "..") return rel.string();
      return candidate.string();
    }
    if (!p.has_parent_path() || p.parent_path() == p) return "";
    p = p.parent_path();
  }
}

void ApplyLintConfig(const LintConfig& config, std::vector<Finding>* findings) {
  if (config.rules.empty()) return;
  std::vector<Finding> kept;
  for (Finding& f : *findings) {
    const RuleInfo* info = FindRule(f.rule);
    bool off = false;
    if (!info || !IsApiServerRule(*info)) {
      for (const RuleSetting& s : config.rules) {
        if (!Matches(s.pattern, f.rule)) continue;
        off = s.off;
        if (!s.off) f.severity = s.severity;
      }
    }
    if (!off) kept.push_back(std::move(f));
  }
  *findings = std::move(kept);
}

void ApplyAnnotationSuppressions(const Node& object, std::vector<Finding>* findings) {
  const Node* md = object.Find("metadata");
  const Node* ann = md ? md->Find("annotations") : nullptr;
  const Node* value = ann ? ann->Find(kIgnoreAnnotation) : nullptr;
  if (!value || !value->is_string()) return;
  std::string reason;
  std::vector<std::string> ids = ParseIds(value->text, &reason);
  for (Finding& f : *findings) Suppress(ids, "annotation", reason, &f);
}

void ApplyCommentSuppressions(const std::string& text, std::vector<Finding>* findings) {
  static const std::string kMarker = "kubectl-jobset:ignore";
  if (text.find(kMarker) == std::string::npos) return;
  int line = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::string_view l(text.data() + pos, eol - pos);
    size_t hash = l.find('#');
    size_t at = hash == std::string_view::npos ? std::string_view::npos : l.find(kMarker, hash);
    if (at != std::string_view::npos) {
      // Alone on its line: for the next line; after content: for this line.
      bool alone = l.find_first_not_of(" \t") == hash;
      int target = alone ? line + 1 : line;
      std::string reason;
      std::vector<std::string> ids =
          ParseIds(TrimComment(std::string(l.substr(at + kMarker.size()))), &reason);
      for (Finding& f : *findings)
        if (f.mark.line == target) Suppress(ids, "comment", reason, &f);
    }
    pos = eol + 1;
    ++line;
  }
}

}  // namespace jobset
