#include "validation/core/helm_template.h"

#include <array>
#include <cctype>

namespace jobset {
namespace {

// Go's template actions and the Helm (Sprig) functions that start template lines in charts.
constexpr std::array<std::string_view, 24> kWords = {
    "if",      "else",    "end",    "range", "with",     "define",  "template", "block",
    "include", "toYaml",  "toJson", "tpl",   "required", "default", "quote",    "printf",
    "lookup",  "nindent", "indent", "trim",  "upper",    "lower",   "not",      "and"};

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether the body of an action (the text after "{{") reads as a Helm template action.
bool HelmBody(std::string_view body) {
  size_t i = 0;
  if (i < body.size() && body[i] == '-') ++i;  // {{- trims the whitespace before it
  while (i < body.size() && (body[i] == ' ' || body[i] == '\t')) ++i;
  body.remove_prefix(i);
  if (body.empty()) return false;
  if (body[0] == '.' || body[0] == '$') return true;
  if (body.substr(0, 2) == "/*") return true;
  size_t n = 0;
  while (n < body.size() && IsWordChar(body[n])) ++n;
  std::string_view word = body.substr(0, n);
  for (std::string_view w : kWords) {
    if (w == word) return true;
  }
  return false;
}

}  // namespace

Mark FindHelmTemplateAction(std::string_view text) {
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
      continue;
    }
    if (text[i] != '{' || text[i + 1] != '{') continue;
    if (i > 0 && text[i - 1] == '$') continue;  // ${{ ... }}: GitHub Actions
    size_t close = text.find("}}", i + 2);
    if (close == std::string_view::npos) return {};
    if (HelmBody(text.substr(i + 2, close - i - 2)))
      return Mark{line, static_cast<int>(i - line_start) + 1};
  }
  return {};
}

}  // namespace jobset
