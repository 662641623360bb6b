#include "validation/jobset/fix.h"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "validation/core/field_path.h"
#include "validation/core/text_edit.h"
#include "validation/jobset/rules.h"
#include "validation/jobset/validation.h"
#include "validation/k8s/rules.h"

namespace jobset {
namespace {

constexpr size_t npos = std::string_view::npos;

// A scalar as written: [begin, end) with its quotes, [content_begin, content_end) without.
struct Span {
  size_t begin = 0, end = 0, content_begin = 0, content_end = 0;
  char quote = 0;  // '\'', '"' or 0 for plain
};

// The text a fix edits, with its line starts.
struct Source {
  std::string_view text;
  const std::vector<size_t>& lines;

  size_t At(Mark m) const { return OffsetOf(lines, text, m); }
  char CharAt(Mark m) const {
    size_t at = At(m);
    return at < text.size() ? text[at] : '\0';
  }
  bool IsFlow(const Node& map) const { return CharAt(map.mark) == '{'; }

  // The line ending of the line holding `at` ("\n" when the text has none).
  std::string_view Eol(size_t at) const {
    size_t nl = text.find('\n', at);
    if (nl == npos) return "\n";
    return nl > 0 && text[nl - 1] == '\r' ? "\r\n" : "\n";
  }

  // The one-line scalar written at `begin` that reads `value`, or nullopt (a multi-line or
  // escaped scalar, or one we do not read the way the parser did: no certain edit there).
  std::optional<Span> ScalarAt(size_t begin, bool flow, std::string_view value) const {
    if (begin >= text.size()) return std::nullopt;
    Span s;
    s.begin = begin;
    char q = text[begin];
    std::string read;
    if (q == '\'' || q == '"') {
      s.quote = q;
      size_t i = begin + 1;
      for (;; ++i) {
        if (i >= text.size() || text[i] == '\n' || text[i] == '\r') return std::nullopt;
        if (q == '"' && text[i] == '\\') return std::nullopt;
        if (text[i] != q) {
          read += text[i];
        } else if (q == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
          read += '\'';
          ++i;
        } else {
          break;
        }
      }
      s.content_begin = begin + 1;
      s.content_end = i;
      s.end = i + 1;
    } else {
      size_t i = begin;
      for (; i < text.size(); ++i) {
        char c = text[i];
        if (c == '\n' || c == '\r') break;
        if (c == '#' && i > begin && (text[i - 1] == ' ' || text[i - 1] == '\t')) break;
        if (flow && (c == ',' || c == ']' || c == '}')) break;
        if (c == ':') {
          char next = i + 1 < text.size() ? text[i + 1] : '\n';
          if (next == ' ' || next == '\t' || next == '\n' || next == '\r' ||
              (flow && (next == ',' || next == ']' || next == '}')))
            break;
        }
      }
      while (i > begin && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
      read = std::string(text.substr(begin, i - begin));
      s.content_begin = begin;
      s.content_end = s.end = i;
    }
    if (read != value) return std::nullopt;
    return s;
  }

  // Whether the first line after the one holding `at` that is not blank or a comment is
  // indented past `column` (1-based), i.e. continues the value of a key at that column.
  bool NextLineIndentedPast(size_t at, int column) const {
    size_t nl = text.find('\n', at);
    while (nl != npos) {
      size_t start = nl + 1;
      size_t c = text.find_first_not_of(" \t", start);
      if (c == npos) return false;
      if (text[c] != '\n' && text[c] != '\r' && text[c] != '#')
        return static_cast<int>(c - start) + 1 > column;
      nl = text.find('\n', start);
    }
    return false;
  }

  // `key: value` in the style of the map: JSON-style quotes when its keys are double-quoted.
  static std::string EntryText(std::string_view key, std::string_view value, bool json) {
    if (json) return "\"" + std::string(key) + "\": \"" + std::string(value) + "\"";
    return std::string(key) + ": " + std::string(value);
  }

  // Sets the value of an existing entry of `map` to the string `value`.
  std::optional<TextEdit> SetValue(const Node& map, const MapEntry& entry,
                                   std::string_view value) const {
    bool flow = IsFlow(map);
    auto key = ScalarAt(At(entry.key_mark), flow, entry.key);
    if (!key) return std::nullopt;
    bool json = key->quote == '"';
    const Node& v = entry.value;
    if (v.is_string()) {
      auto span = ScalarAt(At(v.mark), flow, v.text);
      if (!span) return std::nullopt;
      return TextEdit{span->content_begin, span->content_end - span->content_begin,
                      std::string(value)};
    }
    if (!v.is_null()) return std::nullopt;
    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, falsely) on "\"" + s + "\"".
    std::string written;
    if (json) written += '"';
    written += value;
    if (json) written += '"';
    size_t colon = key->end;
    while (colon < text.size() && (text[colon] == ' ' || text[colon] == '\t')) ++colon;
    if (colon >= text.size() || text[colon] != ':') return std::nullopt;
    size_t after = colon + 1;
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
    // A null written on the key's line (`~`, `null`): replace it.
    if (after == At(v.mark)) {
      for (std::string_view spelling : {"~", "null", "Null", "NULL"}) {
        auto span = ScalarAt(after, flow, spelling);
        if (span && !span->quote) return TextEdit{span->begin, span->end - span->begin, written};
      }
      return std::nullopt;
    }
    // Nothing written after the colon: the value goes there, unless the line ends and the next
    // line holds more-indented text (a value we did not read).
    bool line_ends =
        after >= text.size() || text[after] == '\n' || text[after] == '\r' || text[after] == '#';
    bool flow_ends = flow && after < text.size() && (text[after] == ',' || text[after] == '}');
    if (!line_ends && !flow_ends) return std::nullopt;
    if (line_ends && !flow && !NextLineIndentedPast(after, entry.key_mark.column))
      return TextEdit{colon + 1, 0, " " + written};
    if (flow_ends) return TextEdit{colon + 1, 0, " " + written};
    return std::nullopt;
  }

  // Adds `key: value` to `map` (which lacks `key`) as its first entry, in the map's style.
  std::optional<TextEdit> AddEntry(const Node& map, std::string_view key,
                                   std::string_view value) const {
    if (!map.is_map() || map.entries.empty()) return std::nullopt;
    const MapEntry& first = map.entries.front();
    size_t k = At(first.key_mark);
    if (k == npos || k >= text.size()) return std::nullopt;
    bool json = text[k] == '"';
    std::string entry = EntryText(key, value, json);
    size_t line_start = lines[first.key_mark.line - 1];
    std::string_view before = text.substr(line_start, k - line_start);
    bool own_line = before.find_first_not_of(" \t") == npos;
    std::string eol(Eol(k));
    if (IsFlow(map)) {
      if (own_line) return TextEdit{line_start, 0, std::string(before) + entry + "," + eol};
      return TextEdit{k, 0, entry + ", "};
    }
    std::string indent(k - line_start, ' ');
    if (!own_line) {
      // `- first: ...` in a block sequence: the new entry takes the first key's place.
      if (before.find_first_not_of(" -") != npos) return std::nullopt;
      return TextEdit{k, 0, entry + eol + indent};
    }
    // A line of its own, above the comments that lead into the first entry.
    size_t at = line_start;
    for (int line = first.key_mark.line - 1; line >= 1; --line) {
      size_t start = lines[line - 1];
      std::string_view prev = text.substr(start, at - start);
      size_t c = prev.find_first_not_of(" \t");
      if (c == npos || prev[c] != '#') break;
      at = start;
    }
    return TextEdit{at, 0, indent + entry + eol};
  }
};

void FixRestartPolicy(const Node& object, const Source& src, Finding* f) {
  const std::string suffix = ".template.spec.restartPolicy";
  if (f->field.size() <= suffix.size() ||
      f->field.compare(f->field.size() - suffix.size(), npos, suffix) != 0)
    return;
  std::string job_spec = f->field.substr(0, f->field.size() - suffix.size());
  // Never is the certain value only next to a pod failure policy (child/job-restart-policy
  // alone could as well be OnFailure).
  const Node* pfp = FindPath(object, Child(job_spec, "podFailurePolicy"));
  if (!pfp || pfp->is_null()) return;
  const Node* pod_template = FindPath(object, Child(job_spec, "template"));
  const Node* pod_spec = pod_template ? pod_template->Find("spec") : nullptr;
  if (!pod_spec || !pod_spec->is_map()) return;
  std::optional<TextEdit> edit;
  if (const MapEntry* rp = pod_spec->FindEntry("restartPolicy")) {
    if (rp->value.is_string() && rp->value.text == "Never") return;
    edit = src.SetValue(*pod_spec, *rp, "Never");
    if (edit) {
      f->fix.description =
          "set restartPolicy to Never" + (rp->value.is_string() && !rp->value.text.empty()
                                              ? " (was " + rp->value.text + ")"
                                              : std::string());
    }
  } else {
    edit = src.AddEntry(*pod_spec, "restartPolicy", "Never");
    if (edit) f->fix.description = "add restartPolicy: Never to the pod template";
  }
  if (edit) f->fix.edits.push_back(std::move(*edit));
}

// Renames the rules of each duplicated name but one: the first rule that wrote the name keeps
// it, every other gets `<name>_<n>` (the smallest n >= 2 no rule uses).
void FixDuplicateRuleNames(const Node& object, const Source& src, std::vector<Finding>* findings) {
  const std::string base = "spec.failurePolicy.rules";
  const Node* rules = FindPath(object, base);
  if (!rules || !rules->is_seq()) return;
  struct Rule {
    std::string name;
    bool explicit_name = false;
  };
  std::vector<Rule> all;
  for (size_t i = 0; i < rules->items.size(); ++i) {
    const Node& r = rules->items[i];
    if (!r.is_map()) return;
    const Node* name = r.Find("name");
    if (name && !name->is_null() && !name->is_string()) return;
    bool named = name && name->is_string() && !name->text.empty();
    all.push_back({named ? name->text : "failurePolicyRule" + std::to_string(i), named});
  }
  // Every name written or defaulted, and the fresh names given so far. One set serves all
  // groups: a fresh name is `<name>_<digits>`, so two different names never get the same one.
  std::unordered_set<std::string> taken;
  for (const Rule& r : all) taken.insert(r.name);
  // The rules of each name, groups in the order of their first rule.
  std::vector<std::vector<size_t>> groups;
  std::unordered_map<std::string_view, size_t> group_of;
  for (size_t i = 0; i < all.size(); ++i) {
    auto [it, fresh_name] = group_of.try_emplace(all[i].name, groups.size());
    if (fresh_name) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  // The duplicate-name findings by field; the last one of a field wins.
  std::unordered_map<std::string_view, Finding*> finding_of;
  for (Finding& f : *findings)
    if (f.rule == kFailurePolicyDuplicateRuleName.id) finding_of[f.field] = &f;
  for (const std::vector<size_t>& group : groups) {
    if (group.size() < 2) continue;
    auto found = finding_of.find(Child(Index(base, group[1]), "name"));
    if (found == finding_of.end()) continue;
    Finding* finding = found->second;
    size_t keeper = group[0];
    for (size_t j : group)
      if (all[j].explicit_name) {
        keeper = j;
        break;
      }
    Fix fix;
    // Suffixes below `next` are all taken already: the search goes on from there.
    int next = 2;
    for (size_t j : group) {
      if (j == keeper) continue;
      std::string fresh;
      for (; fresh.empty() || taken.count(fresh); ++next)
        fresh = all[j].name + "_" + std::to_string(next);
      taken.insert(fresh);
      const Node& rule = rules->items[j];
      const MapEntry* entry = rule.FindEntry("name");
      std::optional<TextEdit> edit;
      // A name the webhook would refuse (the original one is invalid, or too long) is no fix.
      if (IsValidRuleName(fresh))
        edit = entry ? src.SetValue(rule, *entry, fresh) : src.AddEntry(rule, "name", fresh);
      if (!edit) {
        fix = Fix{};
        break;
      }
      fix.edits.push_back(std::move(*edit));
      if (!fix.description.empty()) fix.description += ", ";
      fix.description += all[j].explicit_name
                             ? "rename rules[" + std::to_string(j) + "] to '" + fresh + "'"
                             : "name the unnamed rules[" + std::to_string(j) + "] '" + fresh + "'";
    }
    if (fix.edits.empty()) continue;
    finding->fix = std::move(fix);
  }
}

}  // namespace

void AttachFixes(const Node& object, std::string_view text, const std::vector<size_t>& line_starts,
                 std::vector<Finding>* findings) {
  Source src{text, line_starts};
  for (Finding& f : *findings)
    if (f.rule == kJobTemplatePodFailurePolicyRestartPolicy.id ||
        f.rule == kChildJobRestartPolicy.id)
      FixRestartPolicy(object, src, &f);
  FixDuplicateRuleNames(object, src, findings);
  // An edit that changes nothing is no fix.
  for (Finding& f : *findings) {
    bool changes = false;
    for (const TextEdit& e : f.fix.edits)
      changes |= e.offset + e.length > text.size() || text.substr(e.offset, e.length) != e.text;
    if (!changes) f.fix = Fix{};
  }
}

}  // namespace jobset
