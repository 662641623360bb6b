#include "validation/netcheck/log.h"

#include <re2/re2.h>

#include <charconv>
#include <cmath>

#include "validation/core/strings.h"
namespace jobset {
namespace {

// One scalar of a Python literal: a quoted string (quotes removed) or a bare token up to `,`,
// `:`, `}` or `]`.
bool ParseScalar(std::string_view* s, std::string* out) {
  *s = TrimLeft(*s);
  if (s->empty()) return false;
  const char quote = s->front();
  if (quote == '\'' || quote == '"') {
    const size_t end = s->find(quote, 1);
    if (end == std::string_view::npos) return false;
    *out = std::string(s->substr(1, end - 1));
    s->remove_prefix(end + 1);
    return true;
  }
  size_t i = 0;
  while (i < s->size() && (*s)[i] != ',' && (*s)[i] != ':' && (*s)[i] != '}' && (*s)[i] != ']' &&
         (*s)[i] != '[' && (*s)[i] != '{') {
    ++i;
  }
  std::string_view token = s->substr(0, i);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  if (token.empty()) return false;
  *out = std::string(token);
  s->remove_prefix(i);
  return true;
}

// A flat list `[a, b, ...]` at the start of `*s`.
bool ParseFlatList(std::string_view* s, std::vector<std::string>* out) {
  *s = TrimLeft(*s);
  if (s->empty() || s->front() != '[') return false;
  s->remove_prefix(1);
  *s = TrimLeft(*s);
  if (!s->empty() && s->front() == ']') {
    s->remove_prefix(1);
    return true;
  }
  for (;;) {
    std::string item;
    if (!ParseScalar(s, &item)) return false;
    out->push_back(std::move(item));
    *s = TrimLeft(*s);
    if (s->empty()) return false;
    const char c = s->front();
    s->remove_prefix(1);
    if (c == ']') return true;
    if (c != ',') return false;
  }
}

// The patterns of the lines, compiled once per parse.
struct Patterns {
  re2::RE2 result{
      R"((network-check round|Round) (\d+): The node (status are|elapsed time aree?):? ?(.*)$)"};
  re2::RE2 groups{R"(Node groups of round (\d+)(?: \(phase: ([A-Za-z_]+)\))? are:? (.*)$)"};
  re2::RE2 completed{R"(Completed (\d+) round rendezvous of network-check is (.*)$)"};
  re2::RE2 join{
      R"(Worker node with id: ([^,\s]+), rank: (\d+) and ip: \S* joining network-check rendezvous)"};
  re2::RE2 normal{R"((Normal|Abnormal) nodes: (.*)$)"};
  re2::RE2 fault{R"(Fault nodes\(rank:node_id\) are: (.*)$)"};
  re2::RE2 straggler{R"(Straggler: (.*)$)"};
  re2::RE2 other{
      R"(Waiting nodes\(required:|The times of nodes to join rendezvous are|Fault nodes are: )"};
};

// Phrases that mark a line as part of the check (a line with one that matches no pattern is
// reported as unparsed).
constexpr std::string_view kCheckPhrases[] = {
    "network-check round",  "node elapsed time", "node status are",
    "Node groups of round", "Fault nodes(rank",  "Straggler:",
    "Abnormal nodes:",      "Normal nodes:",     "The times of nodes to join rendezvous"};

bool LooksLikeCheckLine(std::string_view line) {
  for (std::string_view phrase : kCheckPhrases) {
    if (line.find(phrase) != std::string_view::npos) return true;
  }
  return false;
}

// A join or rendezvous-completed line cut off before it names its rendezvous (a truncated log):
// it may be the check's, so it is reported rather than dropped.
bool CutOffRendezvousLine(std::string_view line) {
  const size_t join = line.find("Worker node with id:");
  if (join != std::string_view::npos && line.find("rendezvous", join) == std::string_view::npos) {
    return true;
  }
  const size_t done = line.find("round rendezvous");
  return done != std::string_view::npos && line.find(" of ", done) == std::string_view::npos;
}

// True when only spaces and a final period follow a literal.
bool EndsCleanly(std::string_view rest) {
  rest = TrimLeft(rest);
  if (!rest.empty() && rest.front() == '.') rest.remove_prefix(1);
  return TrimLeft(rest).empty();
}

// Reads one line; "" when it was read (or is not a check line), else why it could not be.
std::string ReadLine(const Patterns& p, std::string_view text, NetcheckLine* out) {
  const re2::StringPiece line(text.data(), text.size());
  std::string a, b, c, d;
  std::string_view rest;
  if (re2::RE2::PartialMatch(line, p.result, &a, &b, &c, &d)) {
    out->old_format = a == "Round";
    out->round = std::stoi(b);
    const bool status = c == "status are";
    out->kind = status ? NetcheckLineKind::kStatus : NetcheckLineKind::kElapsed;
    if (!ParsePyDict(d, &out->entries, &rest)) return "the node dict is cut off or malformed";
    if (status) {
      rest = TrimLeft(rest);
      constexpr std::string_view kGroup = ", the node group are:";
      if (rest.substr(0, kGroup.size()) == kGroup) {
        rest.remove_prefix(kGroup.size());
        if (!ParsePyGroups(rest, &out->groups, &rest)) return "the node group list is cut off";
      }
    }
    for (const auto& [id, value] : out->entries) {
      double t;
      if (!status && !ParseCheckTime(value, &t)) return "node " + id + ": time is not a number";
      if (status && value != "True" && value != "False" && value != "true" && value != "false") {
        return "node " + id + ": status is not True or False";
      }
    }
    return EndsCleanly(rest) ? "" : "unexpected text after the dict";
  }
  if (re2::RE2::PartialMatch(line, p.groups, &a, &b, &c)) {
    out->kind = NetcheckLineKind::kGroups;
    out->round = std::stoi(a);
    out->phase = b;
    if (!ParsePyGroups(c, &out->groups, &rest) || !EndsCleanly(rest)) {
      return "the group list is cut off or malformed";
    }
    return "";
  }
  if (re2::RE2::PartialMatch(line, p.completed, &a, &b)) {
    out->kind = NetcheckLineKind::kCompleted;
    out->round = std::stoi(a);
    // The message goes on with ` \nThe times of nodes ...` (a literal or a real newline).
    if (!ParsePyDict(b, &out->entries, &rest)) return "the node dict is cut off or malformed";
    return "";
  }
  if (re2::RE2::PartialMatch(line, p.join, &a, &b)) {
    out->kind = NetcheckLineKind::kJoin;
    out->node_id = a;
    out->rank = b;
    return "";
  }
  if (re2::RE2::PartialMatch(line, p.normal, &a, &b)) {
    out->kind = a == "Normal" ? NetcheckLineKind::kNormal : NetcheckLineKind::kAbnormal;
    rest = b;
    if (!ParseFlatList(&rest, &out->ids)) return "the node list is cut off or malformed";
    return "";
  }
  if (re2::RE2::PartialMatch(line, p.fault, &a)) {
    out->kind = NetcheckLineKind::kFaultNodes;
    if (!ParsePyDict(a, &out->entries, &rest)) return "the fault dict is cut off or malformed";
    rest = TrimLeft(rest);
    constexpr std::string_view kPhase = "in phase ";
    if (rest.substr(0, kPhase.size()) == kPhase) {
      out->phase = std::string(TrimRight(rest.substr(kPhase.size()), " \t\r"));
      return "";
    }
    return EndsCleanly(rest) ? "" : "unexpected text after the dict";
  }
  if (re2::RE2::PartialMatch(line, p.straggler, &a)) {
    out->kind = NetcheckLineKind::kStraggler;
    if (!ParsePyDict(a, &out->entries, &rest) || !EndsCleanly(rest)) {
      return "the straggler dict is cut off or malformed";
    }
    return "";
  }
  if (re2::RE2::PartialMatch(line, p.other)) {
    out->kind = NetcheckLineKind::kOther;
    return "";
  }
  if (CutOffRendezvousLine(text)) return "cut off before it names its rendezvous";
  return LooksLikeCheckLine(text) ? "matches no known node-check line format" : "-";
}

}  // namespace

bool ParseCheckTime(std::string_view text, double* out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return !text.empty() && ec == std::errc() && ptr == text.data() + text.size() &&
         std::isfinite(*out);
}

bool ParsePyDict(std::string_view text, std::vector<std::pair<std::string, std::string>>* out,
                 std::string_view* rest) {
  std::string_view s = TrimLeft(text);
  if (s.empty() || s.front() != '{') return false;
  s.remove_prefix(1);
  s = TrimLeft(s);
  if (!s.empty() && s.front() == '}') {
    *rest = s.substr(1);
    return true;
  }
  for (;;) {
    std::string key, value;
    if (!ParseScalar(&s, &key)) return false;
    s = TrimLeft(s);
    if (s.empty() || s.front() != ':') return false;
    s.remove_prefix(1);
    if (!ParseScalar(&s, &value)) return false;
    out->emplace_back(std::move(key), std::move(value));
    s = TrimLeft(s);
    if (s.empty()) return false;
    const char c = s.front();
    s.remove_prefix(1);
    if (c == '}') break;
    if (c != ',') return false;
  }
  *rest = s;
  return true;
}

bool ParsePyGroups(std::string_view text, std::vector<std::vector<std::string>>* out,
                   std::string_view* rest) {
  std::string_view s = TrimLeft(text);
  if (s.empty() || s.front() != '[') return false;
  std::string_view inner = TrimLeft(s.substr(1));
  if (inner.empty() || inner.front() != '[') {
    std::vector<std::string> flat;
    if (!ParseFlatList(&s, &flat)) return false;
    out->push_back(std::move(flat));
    *rest = s;
    return true;
  }
  s = inner;
  for (;;) {
    std::vector<std::string> group;
    if (!ParseFlatList(&s, &group)) return false;
    out->push_back(std::move(group));
    s = TrimLeft(s);
    if (s.empty()) return false;
    const char c = s.front();
    s.remove_prefix(1);
    if (c == ']') break;
    if (c != ',') return false;
  }
  *rest = s;
  return true;
}

NetcheckLog ParseNetcheckLog(std::string_view text) {
  const Patterns patterns;
  NetcheckLog log;
  int number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = TrimRight(text.substr(pos, end - pos), " \t\r");
    pos = end + 1;
    ++number;
    NetcheckLine line;
    line.line = number;
    const std::string why = ReadLine(patterns, raw, &line);
    if (why.empty()) {
      log.lines.push_back(std::move(line));
    } else if (why != "-") {
      log.unparsed.push_back({number, std::string(raw), why});
    }
  }
  return log;
}

}  // namespace jobset
