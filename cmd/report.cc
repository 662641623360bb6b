#include "cmd/report.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "validation/core/embedded.h"
#include "validation/lint/rule_registry.h"

namespace jobset {
namespace {

using json = nlohmann::ordered_json;

const char* Plural(int n, const char* one, const char* many) { return n == 1 ? one : many; }

std::string SummaryLine(const Summary& s) {
  std::string line = std::to_string(s.errors) + Plural(s.errors, " error", " errors") + ", " +
                     std::to_string(s.warnings) + Plural(s.warnings, " warning", " warnings");
  if (s.infos) line += ", " + std::to_string(s.infos) + " info";
  if (s.suppressed) line += " (" + std::to_string(s.suppressed) + " suppressed)";
  line += " in " + std::to_string(s.files) + Plural(s.files, " file", " files") + " (" +
          std::to_string(s.objects) + Plural(s.objects, " object", " objects") + " checked, " +
          std::to_string(s.skipped) + " skipped)";
  return line;
}

// `offset` counts bytes of the file as stored (with its byte order mark, `bom` bytes).
json FindingJson(const Finding& f, size_t bom) {
  json j;
  j["file"] = f.file;
  j["line"] = f.mark.line;
  j["column"] = f.mark.column;
  j["document"] = f.document;
  j["apiVersion"] = f.api_version;
  j["kind"] = f.kind;
  j["name"] = f.name;
  j["rule"] = f.rule;
  j["severity"] = SeverityName(f.severity);
  j["field"] = f.field;
  j["message"] = f.message;
  if (!f.note.empty()) j["note"] = f.note;
  if (!f.suppressed_by.empty()) {
    j["suppressed"] = {{"kind", f.suppressed_by}, {"reason", f.suppression_reason}};
  }
  if (!f.fix.edits.empty()) {
    json edits = json::array();
    for (const TextEdit& e : f.fix.edits)
      edits.push_back({{"offset", e.offset + bom}, {"length", e.length}, {"text", e.text}});
    j["fix"] = {{"description", f.fix.description}, {"edits", std::move(edits)}};
  }
  return j;
}

std::string SarifLevel(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kInfo:
      return "note";
  }
  return "error";
}

// GitHub workflow command escaping: data escapes %, CR, LF; properties also ':' and ','.
std::string GithubEscape(const std::string& s, bool property) {
  std::string out;
  for (char c : s) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else if (property && c == ':')
      out += "%3A";
    else if (property && c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

}  // namespace

Summary Summarize(const std::vector<FileResult>& results) {
  Summary s;
  for (const FileResult& r : results) {
    ++s.files;
    s.objects += r.objects;
    s.skipped += r.skipped;
    for (const Finding& f : r.findings) {
      if (!f.suppressed_by.empty())
        ++s.suppressed;
      else if (f.severity == Severity::kError)
        ++s.errors;
      else if (f.severity == Severity::kWarning)
        ++s.warnings;
      else
        ++s.infos;
    }
  }
  return s;
}

std::string RenderText(const std::vector<FileResult>& results, bool color) {
  const char* bold = color ? "\033[1m" : "";
  const char* reset = color ? "\033[0m" : "";
  std::string out;
  for (const FileResult& r : results) {
    for (const Finding& f : r.findings) {
      if (!f.suppressed_by.empty()) continue;
      out += bold + f.file;
      if (f.mark.known())
        out += ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column);
      out += ":";
      out += reset;
      out += " ";
      if (color) {
        out += f.severity == Severity::kError     ? "\033[1;31m"
               : f.severity == Severity::kWarning ? "\033[1;35m"
                                                  : "\033[1;36m";
      }
      out += SeverityName(f.severity);
      out += reset;
      out += ": " + f.message + " [" + f.rule + "]\n";
      if (!f.note.empty()) out += "  note: " + f.note + "\n";
      if (!f.fix.edits.empty()) out += "  fix (--fix): " + f.fix.description + "\n";
    }
  }
  out += SummaryLine(Summarize(results)) + "\n";
  return out;
}

std::string RenderJson(const std::vector<FileResult>& results) {
  json findings = json::array();
  for (const FileResult& r : results)
    for (const Finding& f : r.findings) findings.push_back(FindingJson(f, r.bom.size()));
  Summary s = Summarize(results);
  json out;
  out["findings"] = std::move(findings);
  out["summary"] = {{"files", s.files},          {"objects", s.objects},   {"skipped", s.skipped},
                    {"errors", s.errors},        {"warnings", s.warnings}, {"infos", s.infos},
                    {"suppressed", s.suppressed}};
  return out.dump(2) + "\n";
}

std::string RenderSarif(const std::vector<FileResult>& results) {
  json rules = json::array();
  const std::vector<RuleInfo>& all = AllRules();
  for (const RuleInfo& r : all) {
    json rule;
    rule["id"] = r.id;
    rule["shortDescription"] = {{"text", r.summary}};
    rule["defaultConfiguration"] = {{"level", SarifLevel(r.severity)}};
    if (const std::string* doc = FindRuleDoc(r.id)) {
      rule["help"] = {{"text", *doc}, {"markdown", *doc}};
    } else {
      rule["help"] = {{"text", r.summary}};
    }
    rule["properties"] = {{"source", RuleSourceName(r.source)}};
    rules.push_back(std::move(rule));
  }
  json res = json::array();
  for (const FileResult& r : results) {
    for (const Finding& f : r.findings) {
      json loc;
      std::string uri = f.file == "-" ? "stdin" : f.file;
      loc["physicalLocation"]["artifactLocation"]["uri"] = uri;
      if (f.mark.known()) {
        loc["physicalLocation"]["region"] = {{"startLine", f.mark.line},
                                             {"startColumn", f.mark.column}};
      }
      json item;
      item["ruleId"] = f.rule;
      for (size_t i = 0; i < all.size(); ++i)
        if (all[i].id == f.rule) item["ruleIndex"] = i;
      item["level"] = SarifLevel(f.severity);
      item["message"] = {{"text", f.message}};
      item["locations"] = json::array({loc});
      if (!f.suppressed_by.empty()) {
        item["suppressions"] =
            json::array({{{"kind", f.suppressed_by == "annotation" ? "external" : "inSource"},
                          {"justification", f.suppression_reason}}});
      }
      if (!f.field.empty()) item["properties"] = {{"field", f.field}, {"document", f.document}};
      if (!f.fix.edits.empty()) {
        json replacements = json::array();
        for (const TextEdit& e : f.fix.edits) {
          replacements.push_back(
              {{"deletedRegion",
                {{"byteOffset", e.offset + r.bom.size()}, {"byteLength", e.length}}},
               {"insertedContent", {{"text", e.text}}}});
        }
        item["fixes"] = json::array(
            {{{"description", {{"text", f.fix.description}}},
              {"artifactChanges", json::array({{{"artifactLocation", {{"uri", uri}}},
                                                {"replacements", std::move(replacements)}}})}}});
      }
      res.push_back(std::move(item));
    }
  }
  json run;
  run["tool"]["driver"] = {
      {"name", "kubectl-jobset"}, {"version", JOBSET_VERSION}, {"rules", std::move(rules)}};
  run["results"] = std::move(res);
  json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = json::array({std::move(run)});
  return log.dump(2) + "\n";
}

std::string RenderGithub(const std::vector<FileResult>& results) {
  std::string out;
  for (const FileResult& r : results) {
    for (const Finding& f : r.findings) {
      if (!f.suppressed_by.empty()) continue;
      out += f.severity == Severity::kError     ? "::error "
             : f.severity == Severity::kWarning ? "::warning "
                                                : "::notice ";
      out += "file=" + GithubEscape(f.file, true);
      if (f.mark.known()) {
        out += ",line=" + std::to_string(f.mark.line) + ",col=" + std::to_string(f.mark.column);
      }
      out += ",title=" + GithubEscape(f.rule, true) + "::" + GithubEscape(f.message, false) + "\n";
    }
  }
  return out;
}

namespace {

std::string XmlEscape(const std::string& in) {
  std::string out;
  for (char c : in) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // XML 1.0 has no place for other control characters.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') break;
        out += c;
    }
  }
  return out;
}

std::string Where(const Finding& f) {
  return f.file + ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column);
}

}  // namespace

std::string RenderJunit(const std::vector<FileResult>& results) {
  Summary total = Summarize(results);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"kubectl-jobset lint\" failures=\"" +
         std::to_string(total.errors + total.warnings) + "\">\n";
  for (const FileResult& r : results) {
    // A test case per object with findings (grouped by document and name), then one case for
    // the objects without any.
    std::vector<std::pair<std::string, std::vector<const Finding*>>> cases;
    for (const Finding& f : r.findings) {
      std::string name =
          f.kind.empty() ? "document " + std::to_string(f.document)
                         : f.kind + "/" + f.name + " (document " + std::to_string(f.document) + ")";
      auto it = std::find_if(cases.begin(), cases.end(), [&](auto& c) { return c.first == name; });
      if (it == cases.end()) it = cases.insert(cases.end(), {name, {}});
      it->second.push_back(&f);
    }
    int failures = 0;
    for (const auto& c : cases) {
      for (const Finding* f : c.second)
        failures += f->suppressed_by.empty() && f->severity != Severity::kInfo;
    }
    int clean = std::max(0, r.objects - static_cast<int>(cases.size()));
    out += "  <testsuite name=\"" + XmlEscape(r.path) + "\" tests=\"" +
           std::to_string(cases.size() + (clean > 0)) + "\" failures=\"" +
           std::to_string(failures) + "\">\n";
    for (const auto& [name, findings] : cases) {
      out += "    <testcase classname=\"" + XmlEscape(r.path) + "\" name=\"" + XmlEscape(name) +
             "\">\n";
      for (const Finding* f : findings) {
        std::string line =
            Where(*f) + ": " + SeverityName(f->severity) + ": " + f->message + " [" + f->rule + "]";
        if (!f->suppressed_by.empty() || f->severity == Severity::kInfo) {
          std::string tag =
              f->suppressed_by.empty() ? "" : " (suppressed by " + f->suppressed_by + ")";
          out += "      <system-out>" + XmlEscape(line + tag) + "</system-out>\n";
        } else {
          out += "      <failure type=\"" + XmlEscape(f->rule) + "\" message=\"" +
                 XmlEscape(f->message) + "\">" + XmlEscape(line) + "</failure>\n";
        }
      }
      out += "    </testcase>\n";
    }
    if (clean > 0) {
      out += "    <testcase classname=\"" + XmlEscape(r.path) + "\" name=\"" +
             std::to_string(clean) + " object(s) without findings\"/>\n";
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

const std::vector<LintFormat>& LintFormats() {
  // Add a format here: its name, its help and its renderer (declared in report.h).
  static const std::vector<LintFormat> formats = {
      {"text", "human-readable", &RenderText},
      {"json", "JSON, for scripts",
       [](const std::vector<FileResult>& r, bool) { return RenderJson(r); }},
      {"sarif", "SARIF 2.1.0, for code scanning",
       [](const std::vector<FileResult>& r, bool) { return RenderSarif(r); }},
      {"github", "GitHub Actions workflow annotations",
       [](const std::vector<FileResult>& r, bool) { return RenderGithub(r); }},
      {"junit", "JUnit XML, for CI test reports",
       [](const std::vector<FileResult>& r, bool) { return RenderJunit(r); }},
  };
  return formats;
}

const LintFormat* FindLintFormat(std::string_view name) {
  for (const LintFormat& f : LintFormats()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string LintFormatNames(bool mark_default) {
  std::string out;
  for (const LintFormat& f : LintFormats()) {
    if (!out.empty()) out += ", ";
    out += f.name;
    if (mark_default && &f == &LintFormats().front()) out += " (default)";
  }
  return out;
}

}  // namespace jobset
