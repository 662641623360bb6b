#include "validation/core/yaml_emit.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "validation/core/json_node.h"

namespace jobset {

namespace {

// Words YAML 1.1 (sigs.k8s.io/yaml, yaml-cpp) reads as a boolean or null, in any case.
bool Reserved(std::string_view s) {
  static constexpr std::string_view kWords[] = {"y",     "n",  "yes", "no",   "true",
                                                "false", "on", "off", "null", "~"};
  std::string lower;
  for (char c : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view w : kWords) {
    if (lower == w) return true;
  }
  return false;
}

// Plain only for letters, digits, '.', '_', '/', '-' and inner spaces, starting with a letter,
// '_' or '/' (so never a number, sexagesimal, indicator or anchor): conservative on purpose.
bool PlainSafe(std::string_view s) {
  if (s.empty() || Reserved(s)) return false;
  unsigned char first = static_cast<unsigned char>(s.front());
  if (!std::isalpha(first) && first != '_' && first != '/') return false;
  if (s.back() == ' ') return false;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '.' || c == '_' || c == '/' || c == '-' || c == ' ') continue;
    return false;
  }
  return true;
}

void String(std::string_view s, std::string* out) {
  if (PlainSafe(s)) {
    out->append(s);
  } else {
    AppendJsonString(s, out);
  }
}

// A number as written when JSON would read it the same; otherwise reformatted.
void Number(const Node& n, std::string* out) {
  if (n.kind == Node::Kind::kInt) {
    out->append(std::to_string(n.integer));
    return;
  }
  if (std::isnan(n.number)) {
    out->append(".nan");
    return;
  }
  if (std::isinf(n.number)) {
    out->append(n.number > 0 ? ".inf" : "-.inf");
    return;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", n.number);
  std::string text = buf;
  // Keep a float a float: "1" would come back as an integer.
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  out->append(text);
}

void Scalar(const Node& n, std::string* out) {
  switch (n.kind) {
    case Node::Kind::kNull:
      out->append("null");
      break;
    case Node::Kind::kBool:
      out->append(n.boolean ? "true" : "false");
      break;
    case Node::Kind::kInt:
    case Node::Kind::kFloat:
      Number(n, out);
      break;
    case Node::Kind::kString:
      String(n.text, out);
      break;
    case Node::Kind::kSeq:
      out->append("[]");
      break;
    case Node::Kind::kMap:
      out->append("{}");
      break;
  }
}

bool Block(const Node& n) {
  return (n.is_map() && !n.entries.empty()) || (n.is_seq() && !n.items.empty());
}

void Value(const Node& n, int indent, bool inline_first, std::string* out);

// The entries of a non-empty mapping at `indent`; the first one on the current line when
// `inline_first` (after "- ").
void Map(const Node& n, int indent, bool inline_first, std::string* out) {
  bool first = true;
  for (const MapEntry& e : n.entries) {
    if (!(first && inline_first)) out->append(static_cast<size_t>(indent), ' ');
    first = false;
    String(e.key, out);
    out->push_back(':');
    if (Block(e.value)) {
      out->push_back('\n');
      // A sequence under a key sits at the key's indentation, as kubectl prints it.
      Value(e.value, e.value.is_seq() ? indent : indent + 2, false, out);
    } else {
      out->push_back(' ');
      Scalar(e.value, out);
      out->push_back('\n');
    }
  }
}

void Seq(const Node& n, int indent, bool inline_first, std::string* out) {
  bool first = true;
  for (const Node& item : n.items) {
    if (!(first && inline_first)) out->append(static_cast<size_t>(indent), ' ');
    first = false;
    out->append("- ");
    if (Block(item)) {
      Value(item, indent + 2, true, out);
    } else {
      Scalar(item, out);
      out->push_back('\n');
    }
  }
}

void Value(const Node& n, int indent, bool inline_first, std::string* out) {
  if (n.is_map() && !n.entries.empty()) {
    Map(n, indent, inline_first, out);
  } else if (n.is_seq() && !n.items.empty()) {
    Seq(n, indent, inline_first, out);
  } else {
    Scalar(n, out);
    out->push_back('\n');
  }
}

}  // namespace

std::string NodeToYaml(const Node& node) {
  std::string out;
  Value(node, 0, false, &out);
  return out;
}

}  // namespace jobset
