#include "validation/core/loader.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <istream>
#include <iterator>
#include <map>
#include <streambuf>
#include <unordered_map>
#include <unordered_set>

#include "validation/core/fast_yaml.h"
#include "validation/core/rules.h"

namespace jobset {
namespace {

namespace fs = std::filesystem;

// An istream over memory we already hold, so yaml-cpp reads without a copy.
class MemoryBuf : public std::streambuf {
 public:
  MemoryBuf(const char* begin, const char* end) {
    char* b = const_cast<char*>(begin);
    setg(b, b, const_cast<char*>(end));
  }
};

Finding InputError(RuleId rule, Mark mark, std::string message) {
  Finding f;
  f.rule = std::string(rule.id);
  f.severity = Severity::kError;
  f.mark = mark;
  f.message = std::move(message);
  return f;
}

// --- Scalars, resolved as sigs.k8s.io/yaml (go-yaml v2, YAML 1.1) resolves them -------------

bool IsNullText(const std::string& s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

int BoolText(const std::string& s) {  // 1 true, 0 false, -1 neither
  static const char* const kTrue[] = {"y",    "Y",    "yes", "Yes", "YES", "true",
                                      "True", "TRUE", "on",  "On",  "ON"};
  static const char* const kFalse[] = {"n",     "N",     "no",  "No",  "NO", "false",
                                       "False", "FALSE", "off", "Off", "OFF"};
  for (const char* t : kTrue)
    if (s == t) return 1;
  for (const char* f : kFalse)
    if (s == f) return 0;
  return -1;
}

// Go's strconv.ParseInt(s, 0, 64) after removing underscores: sign, then 0x / 0o / 0b / 0
// prefixes. Returns false when the text is not an integer (or overflows).
bool ParseGoInt(std::string s, int64_t* out) {
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  if (s.empty()) return false;
  bool neg = false;
  size_t i = 0;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    i = 1;
  }
  if (i >= s.size()) return false;
  int base = 10;
  if (s[i] == '0' && i + 1 < s.size()) {
    char p = s[i + 1];
    if (p == 'x' || p == 'X')
      base = 16, i += 2;
    else if (p == 'o' || p == 'O')
      base = 8, i += 2;
    else if (p == 'b' || p == 'B')
      base = 2, i += 2;
    else
      base = 8, i += 1;
  }
  if (i >= s.size()) return false;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return false;
    if (d >= base) return false;
    if (__builtin_mul_overflow(v, static_cast<uint64_t>(base), &v) ||
        __builtin_add_overflow(v, static_cast<uint64_t>(d), &v) ||
        v > static_cast<uint64_t>(INT64_MAX) + 1) {
      return false;
    }
  }
  if (!neg && v > static_cast<uint64_t>(INT64_MAX)) return false;
  *out = neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

bool ParseYamlFloat(const std::string& s, double* out) {
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF") {
    *out = HUGE_VAL;
    return true;
  }
  if (s == "-.inf" || s == "-.Inf" || s == "-.INF") {
    *out = -HUGE_VAL;
    return true;
  }
  if (s == ".nan" || s == ".NaN" || s == ".NAN") {
    *out = NAN;
    return true;
  }
  // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
  size_t i = 0, n = s.size();
  if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
  size_t digits = 0;
  while (i < n && isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  if (i < n && s[i] == '.') {
    ++i;
    size_t frac = 0;
    while (i < n && isdigit(static_cast<unsigned char>(s[i]))) ++i, ++frac;
    if (digits == 0 && frac == 0) return false;
  } else if (digits == 0) {
    return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp = 0;
    while (i < n && isdigit(static_cast<unsigned char>(s[i]))) ++i, ++exp;
    if (exp == 0) return false;
  }
  if (i != n) return false;
  errno = 0;
  *out = std::strtod(s.c_str(), nullptr);
  return true;
}

void SetFloat(Node* n, double v) {
  // JSON has one number type; Kubernetes decodes whole numbers as integers.
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 9.2e18) {
    n->kind = Node::Kind::kInt;
    n->integer = static_cast<int64_t>(v);
  } else {
    n->kind = Node::Kind::kFloat;
  }
  n->number = v;
}

void ResolvePlain(Node* n) {
  const std::string& s = n->text;
  if (IsNullText(s)) {
    n->kind = Node::Kind::kNull;
    return;
  }
  int b = BoolText(s);
  if (b >= 0) {
    n->kind = Node::Kind::kBool;
    n->boolean = b == 1;
    return;
  }
  char c = s[0];
  if (!(isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.')) {
    n->kind = Node::Kind::kString;
    return;
  }
  int64_t i;
  if (ParseGoInt(s, &i)) {
    n->kind = Node::Kind::kInt;
    n->integer = i;
    n->number = static_cast<double>(i);
    return;
  }
  double d;
  if (ParseYamlFloat(s, &d)) {
    SetFloat(n, d);
    return;
  }
  n->kind = Node::Kind::kString;
}

// --- Building the tree from yaml-cpp events -------------------------------------------------

struct LimitExceeded {
  RuleId rule;
  Mark mark;
  std::string message;
};

class TreeBuilder : public YAML::EventHandler {
 public:
  // `copied_before`: values the file's earlier documents copied for anchors and aliases.
  TreeBuilder(const LoadLimits& limits, int line_offset, size_t copied_before = 0)
      : limits_(limits), line_offset_(line_offset), copied_before_(copied_before) {}

  bool has_root() const { return has_root_; }
  /// Findings that do not stop the document (duplicate keys).
  std::vector<Finding> TakeWarnings() { return std::move(warnings_); }
  /// Byte offset of the document's first event, or -1 when it had none.
  int first_pos() const { return first_pos_; }
  Node TakeRoot() { return std::move(root_); }
  size_t nodes() const { return nodes_; }
  /// Whether the document used an alias or a merge key.
  bool aliases() const { return aliases_; }
  /// Values this document copied for anchors and aliases (counted against the file's budget).
  size_t copied() const { return copied_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Node n;
    n.mark = ToMark(mark);
    Add(std::move(n), anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      throw LimitExceeded{kYamlSyntax, ToMark(mark), "alias refers to an unknown anchor"};
    }
    nodes_ += it->second.size;
    aliases_ = true;
    CheckBudget(mark);
    CheckCopyBudget(it->second.size, mark);
    Node copy = it->second.node;
    Add(std::move(copy), 0);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    Node n;
    n.mark = ToMark(mark);
    n.text = value;
    if (tag == "?") {
      ResolvePlain(&n);
    } else if (tag == "!" || tag == "tag:yaml.org,2002:str") {
      n.kind = Node::Kind::kString;
    } else if (tag == "tag:yaml.org,2002:int") {
      int64_t i;
      if (!ParseGoInt(value, &i)) {
        throw LimitExceeded{kYamlSyntax, n.mark, "cannot decode !!int `" + value + "`"};
      }
      n.kind = Node::Kind::kInt, n.integer = i, n.number = static_cast<double>(i);
    } else if (tag == "tag:yaml.org,2002:bool") {
      int b = BoolText(value);
      if (b < 0) throw LimitExceeded{kYamlSyntax, n.mark, "cannot decode !!bool `" + value + "`"};
      n.kind = Node::Kind::kBool, n.boolean = b == 1;
    } else if (tag == "tag:yaml.org,2002:float") {
      double d;
      int64_t i;
      if (ParseYamlFloat(value, &d))
        SetFloat(&n, d);
      else if (ParseGoInt(value, &i))
        SetFloat(&n, static_cast<double>(i));
      else
        throw LimitExceeded{kYamlSyntax, n.mark, "cannot decode !!float `" + value + "`"};
    } else if (tag == "tag:yaml.org,2002:null") {
      n.kind = Node::Kind::kNull;
    } else {
      // Unknown tags (including !!binary, !!timestamp) are read as their text.
      n.kind = Node::Kind::kString;
    }
    Add(std::move(n), anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Open(Node::Seq(ToMark(mark)), anchor, mark);
  }
  void OnSequenceEnd() override { Close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Open(Node::Map(ToMark(mark)), anchor, mark);
  }
  void OnMapEnd() override {
    ApplyMerges(stack_.size() - 1);
    Close();
  }

 private:
  struct Frame {
    Node node;
    YAML::anchor_t anchor = 0;
    size_t first_node = 0;  // nodes_ when the frame opened, to size anchored subtrees
    bool have_key = false;  // a mapping frame holding a key that waits for its value
    std::string key;
    Mark key_mark;
    bool key_is_merge = false;
    // Position of each key in node.entries, once the mapping is wide enough for a linear
    // search per key to cost more than the index (so that n keys cost O(n), not O(n^2)).
    std::unordered_map<std::string, size_t> key_index;
    std::vector<Node> merges;  // values of `<<` keys, merged when the mapping ends
    Mark mark;                 // where the collection starts, for a refused anchor copy
  };
  static constexpr size_t kIndexFrom = 16;  // entries from which a mapping's keys are indexed
  struct Anchored {
    Node node;
    size_t size = 0;
  };

  Mark ToMark(const YAML::Mark& m) {
    if (first_pos_ < 0) first_pos_ = m.pos;
    return Mark{m.line + 1 + line_offset_, m.column + 1};
  }

  // Counts `size` values about to be copied against the file's budget, before copying them.
  void CheckCopyBudget(size_t size, Mark mark) {
    copied_ += size;
    if (copied_before_ + copied_ > limits_.max_alias_values) {
      throw LimitExceeded{kInputTooManyValues, mark,
                          "file copies more than " + std::to_string(limits_.max_alias_values) +
                              " values for anchors and aliases, counting all its documents (an "
                              "alias bomb?); refusing this document"};
    }
  }
  void CheckCopyBudget(size_t size, const YAML::Mark& mark) { CheckCopyBudget(size, ToMark(mark)); }

  void CheckBudget(const YAML::Mark& mark) {
    if (nodes_ > limits_.max_nodes) {
      throw LimitExceeded{kInputTooManyValues, ToMark(mark),
                          "document has more than " + std::to_string(limits_.max_nodes) +
                              " values once aliases are expanded (an alias bomb?); refusing it"};
    }
  }

  void Open(Node n, YAML::anchor_t anchor, const YAML::Mark& mark) {
    if (static_cast<int>(stack_.size()) >= limits_.max_depth) {
      throw LimitExceeded{kInputTooDeep, ToMark(mark),
                          "document nests deeper than " + std::to_string(limits_.max_depth) +
                              " levels; refusing it"};
    }
    ++nodes_;
    CheckBudget(mark);
    Frame f;
    f.mark = n.mark;
    f.node = std::move(n);
    f.anchor = anchor;
    f.first_node = nodes_;
    stack_.push_back(std::move(f));
  }

  void Close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    if (f.anchor) {
      // Remembering the anchored value copies it: anchors on nested collections would copy
      // the innermost ones once per level.
      size_t size = nodes_ - f.first_node + 1;
      CheckCopyBudget(size, f.mark);
      anchors_[f.anchor] = Anchored{f.node, size};
    }
    Place(std::move(f.node));
  }

  void Add(Node n, YAML::anchor_t anchor) {
    ++nodes_;
    if (anchor) {
      CheckCopyBudget(1, n.mark);
      anchors_[anchor] = Anchored{n, 1};
    }
    Place(std::move(n));
  }

  // Puts a finished value into its parent (as a key, a map value or a sequence item).
  void Place(Node n) {
    if (stack_.empty()) {
      root_ = std::move(n);
      has_root_ = true;
      return;
    }
    Frame& top = stack_.back();
    if (top.node.is_seq()) {
      top.node.items.push_back(std::move(n));
      return;
    }
    if (!top.have_key) {
      if (n.is_map() || n.is_seq()) {
        throw LimitExceeded{kYamlSyntax, n.mark,
                            "mapping keys must be scalars (Kubernetes objects are JSON)"};
      }
      top.have_key = true;
      top.key_is_merge = n.text == "<<" && n.kind == Node::Kind::kString && n.mark.known();
      top.key = n.is_null() && n.text.empty() ? "null" : n.text;
      top.key_mark = n.mark;
      return;
    }
    top.have_key = false;
    if (top.key_is_merge) {
      aliases_ = true;
      top.merges.push_back(std::move(n));
      return;
    }
    if (MapEntry* e = FindKey(&top, top.key)) {
      // kubectl converts YAML to JSON keeping the last value, silently: say so.
      Finding f = InputError(kYamlDuplicateKey, e->key_mark,
                             "duplicate field \"" + top.key +
                                 "\": kubectl silently keeps the "
                                 "value at line " +
                                 std::to_string(top.key_mark.line) + " and drops this one");
      f.severity = Severity::kWarning;
      warnings_.push_back(std::move(f));
      e->key_mark = top.key_mark;
      e->value = std::move(n);
      return;
    }
    AddEntry(&top, MapEntry{std::move(top.key), top.key_mark, std::move(n)});
  }

  // The entry of the mapping being built under `key`, or nullptr: a scan while the mapping is
  // small, the index once it is wide.
  static MapEntry* FindKey(Frame* frame, const std::string& key) {
    std::vector<MapEntry>& entries = frame->node.entries;
    if (entries.size() < kIndexFrom) {
      for (MapEntry& e : entries)
        if (e.key == key) return &e;
      return nullptr;
    }
    if (frame->key_index.empty()) {
      frame->key_index.reserve(entries.size() * 2);
      for (size_t i = 0; i < entries.size(); ++i) frame->key_index.emplace(entries[i].key, i);
    }
    auto it = frame->key_index.find(key);
    return it == frame->key_index.end() ? nullptr : &entries[it->second];
  }

  // Appends an entry whose key the mapping does not hold yet, keeping the index current.
  static void AddEntry(Frame* frame, MapEntry entry) {
    std::vector<MapEntry>& entries = frame->node.entries;
    if (!frame->key_index.empty()) frame->key_index.emplace(entry.key, entries.size());
    entries.push_back(std::move(entry));
  }

  // YAML merge keys (`<<: *base`): entries of the merged mappings that the mapping does not
  // set itself are added, as go-yaml does.
  void ApplyMerges(size_t depth) {
    Frame& frame = stack_[depth];
    if (frame.merges.empty()) return;
    std::vector<Node> merges = std::move(frame.merges);
    // Keys the mapping holds, so that merging n entries costs O(n) (the merged values are
    // alias copies, already counted against the budget).
    std::unordered_set<std::string> present;
    for (const MapEntry& e : frame.node.entries) present.insert(e.key);
    for (Node& merged : merges) {
      std::vector<Node*> sources;
      if (merged.is_map())
        sources.push_back(&merged);
      else if (merged.is_seq())
        for (Node& s : merged.items) sources.push_back(&s);
      for (Node* src : sources) {
        if (!src->is_map()) {
          throw LimitExceeded{kYamlSyntax, src->mark,
                              "map merge requires a mapping or a list of mappings"};
        }
        for (MapEntry& e : src->entries)
          if (present.insert(e.key).second) frame.node.entries.push_back(std::move(e));
      }
    }
  }

  const LoadLimits& limits_;
  int line_offset_;
  std::vector<Frame> stack_;
  size_t copied_before_;
  std::map<YAML::anchor_t, Anchored> anchors_;
  Node root_;
  bool has_root_ = false;
  size_t nodes_ = 0;
  size_t copied_ = 0;  // values copied for anchors and aliases, this document
  int first_pos_ = -1;
  bool aliases_ = false;
  std::vector<Finding> warnings_;
};

// --- Splitting a file into documents ----------------------------------------------------------

struct Chunk {
  size_t begin, end;  // byte range
  int line;           // 0-based line of `begin`
};

bool IsDocumentMarker(std::string_view line) {
  if (line.size() < 3 || line.substr(0, 3) != "---") return false;
  return line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r';
}

// Document markers at column 0 cannot occur inside YAML content, so splitting there keeps a
// syntax error in one document from hiding the others.
std::vector<Chunk> SplitDocuments(const std::string& text) {
  std::vector<Chunk> chunks;
  size_t begin = 0, pos = 0;
  int line = 0, begin_line = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    if (pos != begin && IsDocumentMarker(std::string_view(text).substr(pos, eol - pos))) {
      chunks.push_back({begin, pos, begin_line});
      begin = pos;
      begin_line = line;
    }
    pos = eol + 1;
    ++line;
  }
  chunks.push_back({begin, text.size(), begin_line});
  return chunks;
}

// Position (1-based line, column in characters) of byte `offset`.
Mark MarkAt(const std::string& text, size_t offset) {
  Mark m{1, 1};
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++m.line;
      m.column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++m.column;
    }
  }
  return m;
}

// Offset of the first byte that is not valid UTF-8 in [begin, end), or npos.
size_t FindInvalidUtf8(const std::string& s, size_t begin, size_t end) {
  size_t i = begin;
  while (i < end) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0)
      len = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0)
      len = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0)
      len = 4, cp = c & 0x07;
    else
      return i;
    if (i + len > end) return i;
    for (int k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid too.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
      return i;
    }
    i += len;
  }
  return std::string::npos;
}

bool OnlyBlankOrComments(const std::string& text, size_t begin, size_t end) {
  bool line_start = true;
  for (size_t i = begin; i < end; ++i) {
    char c = text[i];
    if (c == '\n') {
      line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') continue;
    if (c == '#') {
      size_t eol = text.find('\n', i);
      i = eol == std::string::npos ? end : eol - 1;
      continue;
    }
    if (line_start && text.compare(i, 3, "---") == 0) {
      i += 2;
      line_start = false;
      continue;
    }
    if (line_start && text.compare(i, 3, "...") == 0) {
      i += 2;
      continue;
    }
    return false;
  }
  return true;
}

// `copied`: values the file's documents have copied for anchors and aliases so far (the
// budget is the file's, LoadLimits::max_alias_values).
void ParseChunk(const std::string& text, const Chunk& chunk, const LoadLimits& limits,
                size_t* copied, std::vector<Document>* out) {
  if (OnlyBlankOrComments(text, chunk.begin, chunk.end)) return;
  auto new_doc = [&](Mark start) -> Document& {
    Document d;
    d.index = static_cast<int>(out->size());
    d.start = start;
    out->push_back(std::move(d));
    return out->back();
  };
  // Adds the document a builder read, unless it is empty (kubectl skips empty documents).
  auto take = [&](TreeBuilder* builder, Mark start) {
    Node root = builder->TakeRoot();
    if (root.is_null()) return;
    Document& d = new_doc(root.mark.known() ? root.mark : start);
    d.root = std::move(root);
    d.parsed = true;
    d.problems = builder->TakeWarnings();
    d.aliases = builder->aliases();
  };
  size_t bad = FindInvalidUtf8(text, chunk.begin, chunk.end);
  if (bad != std::string::npos) {
    Document& d = new_doc(Mark{chunk.line + 1, 1});
    d.problems.push_back(InputError(
        kInputInvalidUtf8, MarkAt(text, bad), "invalid UTF-8 byte 0x" + [&] {
          char buf[8];
          snprintf(buf, sizeof buf, "%02X", static_cast<unsigned char>(text[bad]));
          return std::string(buf);
        }() + " (Kubernetes manifests must be UTF-8)"));
    return;
  }
  // Most manifests are plain block YAML, which the fast path reads with the same events and
  // marks as yaml-cpp; anything else (and any limit it meets) goes through yaml-cpp.
  {
    TreeBuilder builder(limits, chunk.line, *copied);
    bool fast = false;
    try {
      fast = FastParseYaml(std::string_view(text).substr(chunk.begin, chunk.end - chunk.begin),
                           &builder);
    } catch (const LimitExceeded&) {
      fast = false;
    }
    if (fast && builder.has_root()) {
      *copied += builder.copied();
      take(&builder, Mark{chunk.line + 1, 1});
      return;
    }
  }
  MemoryBuf buf(text.data() + chunk.begin, text.data() + chunk.end);
  std::istream in(&buf);
  YAML::Parser parser(in);
  // yaml-cpp 0.7 can return the same document forever on some malformed input: stop when a
  // document starts where the previous one did, or when there are more documents than the
  // chunk has room for.
  int previous_pos = -1;
  size_t max_documents = (chunk.end - chunk.begin) / 3 + 2;
  for (size_t n = 0;; ++n) {
    TreeBuilder builder(limits, chunk.line, *copied);
    Mark start{chunk.line + 1, 1};
    // What the document copied counts, refused or not: the work was done.
    struct Count {
      TreeBuilder* builder;
      size_t* copied;
      ~Count() { *copied += builder->copied(); }
    } count{&builder, copied};
    try {
      if (!parser.HandleNextDocument(builder)) break;
      if (n > max_documents || (builder.first_pos() >= 0 && builder.first_pos() == previous_pos)) {
        Document& d = new_doc(start);
        d.problems.push_back(InputError(kYamlSyntax, start,
                                        "YAML syntax error: the parser cannot make sense of this "
                                        "document (malformed input)"));
        return;
      }
      previous_pos = builder.first_pos();
    } catch (const LimitExceeded& e) {
      Document& d = new_doc(start);
      d.problems.push_back(InputError(e.rule, e.mark, e.message));
      return;
    } catch (const YAML::DeepRecursion& e) {
      Document& d = new_doc(start);
      d.problems.push_back(
          InputError(kInputTooDeep, Mark{e.mark.line + 1 + chunk.line, e.mark.column + 1},
                     "document nests too deeply for the YAML parser; refusing it"));
      return;
    } catch (const YAML::Exception& e) {
      Document& d = new_doc(start);
      Mark m = e.mark.is_null() ? start : Mark{e.mark.line + 1 + chunk.line, e.mark.column + 1};
      d.problems.push_back(InputError(kYamlSyntax, m, "YAML syntax error: " + e.msg));
      return;
    } catch (const std::exception& e) {
      Document& d = new_doc(start);
      d.problems.push_back(
          InputError(kYamlSyntax, start, std::string("cannot parse: ") + e.what()));
      return;
    }
    if (builder.has_root()) take(&builder, start);
  }
}

// Converts UTF-16 (with its byte order mark) to UTF-8; false on unpaired surrogates.
bool Utf16ToUtf8(const std::string& in, std::string* out) {
  bool little = in[0] == '\xFF';
  auto unit = [&](size_t i) {
    unsigned char a = static_cast<unsigned char>(in[i]), b = static_cast<unsigned char>(in[i + 1]);
    return little ? static_cast<uint32_t>(a | b << 8) : static_cast<uint32_t>(b | a << 8);
  };
  if (in.size() % 2) return false;
  for (size_t i = 2; i + 1 < in.size(); i += 2) {
    uint32_t cp = unit(i);
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (i + 3 >= in.size()) return false;
      uint32_t lo = unit(i + 2);
      if (lo < 0xDC00 || lo > 0xDFFF) return false;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      i += 2;
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      return false;
    }
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xC0 | cp >> 6);
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *out += static_cast<char>(0xE0 | cp >> 12);
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | cp >> 18);
      *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return true;
}

}  // namespace

SourceFile ParseSource(std::string path, std::string text, const LoadLimits& limits) {
  SourceFile file;
  file.path = std::move(path);
  if (text.size() > limits.max_file_bytes) {
    file.problems.push_back(InputError(
        kInputTooLarge, Mark{1, 1},
        "file is " + std::to_string(text.size() >> 20) + " MiB, more than the limit of " +
            std::to_string(limits.max_file_bytes >> 20) +
            " MiB (the API server caps an object at 3 MiB); not read"));
    return file;
  }
  // kubectl reads UTF-16 with a byte order mark by converting it to UTF-8; so do we.
  if (text.size() >= 2 &&
      ((text[0] == '\xFF' && text[1] == '\xFE') || (text[0] == '\xFE' && text[1] == '\xFF'))) {
    std::string converted;
    if (!Utf16ToUtf8(text, &converted)) {
      file.problems.push_back(InputError(kInputInvalidUtf8, Mark{1, 1},
                                         "file starts with a UTF-16 byte order mark but is not "
                                         "valid UTF-16; not read"));
      return file;
    }
    text = std::move(converted);
    file.utf16 = true;
  }
  if (const void* nul = memchr(text.data(), '\0', text.size())) {
    size_t at = static_cast<const char*>(nul) - text.data();
    file.problems.push_back(InputError(kInputBinary, MarkAt(text, at),
                                       "file holds a NUL byte: binary data, or UTF-16/32 text, "
                                       "is not a YAML or JSON manifest; not read"));
    return file;
  }
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) {  // a UTF-8 byte order mark
    file.bom = text.substr(0, 3);
    text.erase(0, 3);
  }
  file.text = std::move(text);
  size_t copied = 0;
  for (const Chunk& c : SplitDocuments(file.text))
    ParseChunk(file.text, c, limits, &copied, &file.documents);
  return file;
}

bool LoadFile(const std::string& path, const LoadLimits& limits, SourceFile* out,
              std::string* error) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::error_code ec;
    auto size = fs::file_size(path, ec);
    if (!ec && size > limits.max_file_bytes) {
      // Do not read a huge file just to refuse it.
      *out = SourceFile{};
      out->path = path;
      out->problems.push_back(
          InputError(kInputTooLarge, Mark{1, 1},
                     "file is " + std::to_string(size >> 20) + " MiB, more than the limit of " +
                         std::to_string(limits.max_file_bytes >> 20) +
                         " MiB (the API server caps an object at 3 MiB); not read"));
      return true;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      *error = path + ": " + std::strerror(errno);
      return false;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) {
      *error = path + ": read error";
      return false;
    }
  }
  *out = ParseSource(path, std::move(text), limits);
  return true;
}

bool ExpandPaths(const std::vector<std::string>& paths, bool recursive,
                 std::vector<std::string>* files, std::string* error) {
  auto wanted = [](const fs::path& p) {
    std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml" || ext == ".json";
  };
  for (const std::string& p : paths) {
    if (p == "-") {
      files->push_back(p);
      continue;
    }
    std::error_code ec;
    auto st = fs::status(p, ec);
    if (ec || !fs::exists(st)) {
      *error = p + ": no such file or directory";
      return false;
    }
    if (!fs::is_directory(st)) {
      files->push_back(p);
      continue;
    }
    std::vector<std::string> found;
    auto add = [&](const fs::directory_entry& e) {
      std::error_code ec2;
      if (e.is_regular_file(ec2) && wanted(e.path())) found.push_back(e.path().string());
    };
    if (recursive) {
      fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec),
          end;
      for (; !ec && it != end; it.increment(ec)) add(*it);
    } else {
      fs::directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
      for (; !ec && it != end; it.increment(ec)) add(*it);
    }
    if (ec) {
      *error = p + ": " + ec.message();
      return false;
    }
    std::sort(found.begin(), found.end());
    files->insert(files->end(), found.begin(), found.end());
  }
  return true;
}

}  // namespace jobset
