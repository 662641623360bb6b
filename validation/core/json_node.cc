#include "validation/core/json_node.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace jobset {
namespace {

using Json = nlohmann::json;

size_t Utf8Sequence(std::string_view s, size_t i);

Node FloatNode(double value, std::string text) {
  Node n;
  n.kind = Node::Kind::kFloat;
  n.number = value;
  n.text = std::move(text);
  return n;
}

Node UnsignedNode(uint64_t value) {
  if (value <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return Node::Int(static_cast<int64_t>(value));
  }
  return FloatNode(static_cast<double>(value), std::to_string(value));
}

// A key given twice in one object keeps its first position and takes its last value. Small
// objects are checked pairwise, larger ones through a hash index, so a hostile object with
// many keys stays linear.
void MergeDuplicateKeys(Node* map) {
  std::vector<MapEntry>& entries = map->entries;
  const size_t n = entries.size();
  if (n < 2) return;
  if (n <= 16) {
    // Keys rarely repeat: look before allocating anything.
    bool repeated = false;
    for (size_t i = 1; i < n && !repeated; ++i) {
      for (size_t j = 0; j < i && !repeated; ++j) repeated = entries[j].key == entries[i].key;
    }
    if (!repeated) return;
  }
  std::vector<bool> drop(n, false);
  bool any = false;
  auto merge = [&](size_t first, size_t later) {
    entries[first].value = std::move(entries[later].value);
    drop[later] = true;
    any = true;
  };
  if (n <= 16) {
    for (size_t i = 1; i < n; ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (!drop[j] && entries[j].key == entries[i].key) {
          merge(j, i);
          break;
        }
      }
    }
  } else {
    std::unordered_map<std::string_view, size_t> first;
    first.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      auto [it, inserted] = first.emplace(entries[i].key, i);
      if (!inserted) merge(it->second, i);
    }
  }
  if (!any) return;
  size_t out = 0;
  for (size_t i = 0; i < n; ++i) {
    if (drop[i]) continue;
    if (out != i) entries[out] = std::move(entries[i]);
    ++out;
  }
  entries.resize(out);
}

// Bytes that a JSON string holds as they are: not '"', '\\', a control character or the start of
// a UTF-8 sequence (which is checked).
constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\';
  return plain;
}();

// The end of the run of plain bytes (kPlain) that starts at `pos`. Request bodies are mostly
// such runs (the last-applied annotation alone is a few KB of text), so SSE2 looks at 16 bytes
// at a time where it exists: signed bytes below 0x20 are the control characters and every
// byte from 0x80 up.
size_t PlainRunEnd(std::string_view s, size_t pos) {
#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  while (pos + 16 <= s.size()) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + pos));
    const __m128i stop =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                     _mm_cmplt_epi8(v, space));
    const int mask = _mm_movemask_epi8(stop);
    if (mask != 0) return pos + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    pos += 16;
  }
#endif
  while (pos < s.size() && kPlain[static_cast<unsigned char>(s[pos])]) ++pos;
  return pos;
}

// A strict RFC 8259 parser building Nodes in place, for request bodies: the webhook's hot
// path (nlohmann's lexer copied every string character by character and cost half of a
// request). It keeps nlohmann's semantics: a UTF-8 BOM is skipped, strings must be valid UTF-8
// with paired surrogates, no comments and no trailing commas, integers that fit int64 are
// kInt, above it kFloat with the digits as text. It does not recurse: open containers live on
// an explicit stack bounded by the depth limit, so the whole parse is bounded by the input.
class JsonParser {
 public:
  JsonParser(std::string_view text, int max_depth) : s_(text), max_depth_(max_depth) {
    pending_.reserve(64);
  }

  bool Parse(Node* root) {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    root_ = root;
    // One loop over values: after each finished value, close containers and read separators.
    for (;;) {
      SkipSpace();
      if (!ParseValue()) return false;
      if (opened_) {  // A container with contents: read its first value next.
        opened_ = false;
        continue;
      }
      for (;;) {
        if (open_.empty()) {
          SkipSpace();
          if (pos_ != s_.size()) return Fail("unexpected content after the value");
          return true;
        }
        SkipSpace();
        const bool map = open_.back().map;
        char c = Peek();
        if (c == ',') {
          ++pos_;
          SkipSpace();
          if (map && !ParseKey()) return false;
          break;  // The next value.
        }
        if (c == (map ? '}' : ']')) {
          ++pos_;
          Close();
          continue;
        }
        return Fail(map ? "expected ',' or '}'" : "expected ',' or ']'");
      }
    }
  }

  const std::string& error() const { return error_; }

 private:
  /// An open container: where its value is, and where its values start in `pending_`.
  struct Container {
    size_t slot;   ///< Index of its own entry in `pending_`, or kRoot.
    size_t first;  ///< Index of its first value in `pending_`.
    bool map;
  };
  static constexpr size_t kRoot = static_cast<size_t>(-1);

  char Peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool AtEnd() const { return pos_ >= s_.size(); }

  void SkipSpace() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
      ++pos_;
    }
  }

  bool Fail(std::string_view what) {
    // 1-based, as nlohmann counted: the offending byte, or one past the end.
    error_ = "invalid JSON at byte " + std::to_string(pos_ + 1) + ": parse error: " +
             (AtEnd() ? std::string("unexpected end of input") : std::string(what));
    return false;
  }

  // Reads one value. A non-empty container is opened (an object's first key read too) and
  // left for Parse's loop, with opened_ set.
  bool ParseValue() {
    switch (Peek()) {
      case '{':
        if (!OpenContainer(Node::Kind::kMap, '}')) return false;
        return !opened_ || ParseKey();
      case '[':
        return OpenContainer(Node::Kind::kSeq, ']');
      case '"': {
        Node& v = Slot();
        v.kind = Node::Kind::kString;
        return ParseString(&v.text);
      }
      case 't':
        return Literal("true", Node::Bool(true));
      case 'f':
        return Literal("false", Node::Bool(false));
      case 'n':
        return Literal("null", Node());
      default:
        return ParseNumber();
    }
  }

  // At '{' or '[': opens the container, and closes it at once when `close` follows.
  bool OpenContainer(Node::Kind kind, char close) {
    ++pos_;
    if (!Open(kind)) return false;
    SkipSpace();
    if (Peek() == close) {
      ++pos_;
      Close();
      return true;
    }
    opened_ = true;
    return true;
  }

  bool Literal(std::string_view word, Node v) {
    if (s_.substr(pos_, word.size()) != word) return Fail("invalid literal");
    pos_ += word.size();
    Store(std::move(v));
    return true;
  }

  // After '{' or ',' in an object: "key" and ':'.
  bool ParseKey() {
    if (Peek() != '"') return Fail("expected a string as object key");
    if (!ParseString(&key_)) return false;
    SkipSpace();
    if (Peek() != ':') return Fail("expected ':' after an object key");
    ++pos_;
    return true;
  }

  bool ParseNumber() {
    const size_t start = pos_;
    bool is_float = false;
    if (Peek() == '-') ++pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ - from;
    };
    if (Peek() == '0') {
      ++pos_;
    } else if (digits() == 0) {
      return Fail("invalid literal");
    }
    if (Peek() == '.') {
      ++pos_;
      is_float = true;
      if (digits() == 0) return Fail("expected a digit after '.'");
    }
    if (Peek() == 'e' || Peek() == 'E') {
      ++pos_;
      is_float = true;
      if (Peek() == '+' || Peek() == '-') ++pos_;
      if (digits() == 0) return Fail("expected a digit in the exponent");
    }
    std::string_view text = s_.substr(start, pos_ - start);
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (!is_float) {
      int64_t i = 0;
      if (auto r = std::from_chars(first, last, i); r.ec == std::errc() && r.ptr == last) {
        Store(Node::Int(i));
        return true;
      }
      uint64_t u = 0;
      if (auto r = std::from_chars(first, last, u); r.ec == std::errc() && r.ptr == last) {
        Store(UnsignedNode(u));
        return true;
      }
      // Beyond uint64: a float, as nlohmann reads it.
    }
    double d = 0;
    auto r = std::from_chars(first, last, d);
    if (r.ec != std::errc() || r.ptr != last || !std::isfinite(d)) {
      pos_ = start;
      return Fail("number overflow");
    }
    Store(FloatNode(d, std::string(text)));
    return true;
  }

  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // Four hex digits after "\u"; -1 when malformed.
  int32_t ReadHex4() {
    if (s_.size() - pos_ < 4) return -1;
    int32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      int h = HexValue(s_[pos_ + k]);
      if (h < 0) return -1;
      v = v * 16 + h;
    }
    pos_ += 4;
    return v;
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  // At the opening quote. Plain runs are appended whole; escapes and UTF-8 are checked.
  bool ParseString(std::string* out) {
    out->clear();
    ++pos_;
    for (;;) {
      size_t run = pos_;
      pos_ = PlainRunEnd(s_, pos_);
      out->append(s_.data() + run, pos_ - run);
      if (AtEnd()) return Fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) return Fail("control character in a string must be escaped");
      if (c >= 0x80) {
        size_t len = Utf8Sequence(s_, pos_);
        if (len == 0) return Fail("invalid UTF-8 in a string");
        out->append(s_.data() + pos_, len);
        pos_ += len;
        continue;
      }
      // A backslash.
      ++pos_;
      char e = Peek();
      ++pos_;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out->push_back(e);
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          int32_t cp = ReadHex4();
          if (cp < 0) return Fail("'\\u' must be followed by 4 hex digits");
          if (cp >= 0xDC00 && cp <= 0xDFFF) return Fail("unpaired low surrogate");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (s_.substr(pos_, 2) != "\\u") return Fail("unpaired high surrogate");
            pos_ += 2;
            int32_t low = ReadHex4();
            if (low < 0xDC00 || low > 0xDFFF) return Fail("unpaired high surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(static_cast<uint32_t>(cp), out);
          break;
        }
        default:
          --pos_;
          return Fail("invalid escape in a string");
      }
    }
  }

  // Stores a finished value in the open container (or as the root).
  void Store(Node v) { Slot() = std::move(v); }

  // A new, null value in the innermost open container (or the root), to be filled in place.
  // Values of open containers wait on `pending_` (with their keys) until the container closes,
  // then move into it at once: one allocation of the right size per container.
  Node& Slot() {
    if (open_.empty()) return *root_;
    MapEntry& e = pending_.emplace_back();
    if (open_.back().map) {
      e.key = std::move(key_);
      key_.clear();
    }
    return e.value;
  }

  // The value an open container will hold: the root, or an entry of its parent's values.
  Node& Holder(const Container& c) { return c.slot == kRoot ? *root_ : pending_[c.slot].value; }

  bool Open(Node::Kind kind) {
    if (static_cast<int>(open_.size()) >= max_depth_) {
      error_ = "JSON nested deeper than " + std::to_string(max_depth_) + " levels";
      return false;
    }
    const size_t slot = open_.empty() ? kRoot : pending_.size();
    Slot().kind = kind;
    open_.push_back({slot, pending_.size(), kind == Node::Kind::kMap});
    return true;
  }

  // Moves the innermost container's values into it. Its own entry sits below them in
  // `pending_` (or is the root), so it stays where it is.
  void Close() {
    const Container c = open_.back();
    open_.pop_back();
    Node& node = Holder(c);
    const size_t count = pending_.size() - c.first;
    if (c.map) {
      node.entries.reserve(count);
      for (size_t i = c.first; i < pending_.size(); ++i) {
        node.entries.push_back(std::move(pending_[i]));
      }
      MergeDuplicateKeys(&node);
    } else {
      node.items.reserve(count);
      for (size_t i = c.first; i < pending_.size(); ++i) {
        node.items.push_back(std::move(pending_[i].value));
      }
    }
    pending_.resize(c.first);
  }

  std::string_view s_;
  size_t pos_ = 0;
  bool opened_ = false;
  int max_depth_;
  Node* root_ = nullptr;
  std::vector<Container> open_;
  std::vector<MapEntry> pending_;
  std::string key_;
  std::string error_;
};

template <class J>
Node Convert(const J& v) {
  using T = typename J::value_t;
  switch (v.type()) {
    case T::null:
      return Node();
    case T::boolean:
      return Node::Bool(v.template get<bool>());
    case T::number_integer:
      return Node::Int(v.template get<int64_t>());
    case T::number_unsigned:
      return UnsignedNode(v.template get<uint64_t>());
    case T::number_float:
      return FloatNode(v.template get<double>(), v.dump());
    case T::string:
      return Node::String(v.template get<std::string>());
    case T::array: {
      Node seq = Node::Seq();
      seq.items.reserve(v.size());
      for (const J& item : v) seq.items.push_back(Convert(item));
      return seq;
    }
    case T::object: {
      Node map = Node::Map();
      map.entries.reserve(v.size());
      for (auto it = v.begin(); it != v.end(); ++it) {
        map.entries.push_back(MapEntry{it.key(), Mark{}, Convert(it.value())});
      }
      return map;
    }
    default:  // binary, discarded
      return Node();
  }
}

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one.
size_t Utf8Sequence(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  size_t len;
  uint32_t cp;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF)) {
    return 0;
  }
  return len;
}

void AppendJson(const Node& n, std::string* out) {
  switch (n.kind) {
    case Node::Kind::kNull:
      out->append("null");
      return;
    case Node::Kind::kBool:
      out->append(n.boolean ? "true" : "false");
      return;
    case Node::Kind::kInt:
      out->append(std::to_string(n.integer));
      return;
    case Node::Kind::kFloat: {
      if (!std::isfinite(n.number)) {
        out->append("null");
        return;
      }
      char buf[32];
      auto res = std::to_chars(buf, buf + sizeof buf, n.number);
      out->append(buf, res.ptr);
      return;
    }
    case Node::Kind::kString:
      AppendJsonString(n.text, out);
      return;
    case Node::Kind::kSeq:
      out->push_back('[');
      for (size_t i = 0; i < n.items.size(); ++i) {
        if (i) out->push_back(',');
        AppendJson(n.items[i], out);
      }
      out->push_back(']');
      return;
    case Node::Kind::kMap:
      out->push_back('{');
      for (size_t i = 0; i < n.entries.size(); ++i) {
        if (i) out->push_back(',');
        AppendJsonString(n.entries[i].key, out);
        out->push_back(':');
        AppendJson(n.entries[i].value, out);
      }
      out->push_back('}');
      return;
  }
}

}  // namespace

bool ParseJson(std::string_view text, const JsonParseLimits& limits, Node* out,
               std::string* error) {
  Node root;
  JsonParser parser(text, limits.max_depth);
  if (!parser.Parse(&root)) {
    *error = parser.error();
    return false;
  }
  *out = std::move(root);
  return true;
}

Node JsonToNode(const nlohmann::json& value) { return Convert(value); }

Node JsonToNode(const nlohmann::ordered_json& value) { return Convert(value); }

nlohmann::ordered_json NodeToJson(const Node& node) {
  using OJson = nlohmann::ordered_json;
  switch (node.kind) {
    case Node::Kind::kNull:
      return nullptr;
    case Node::Kind::kBool:
      return node.boolean;
    case Node::Kind::kInt:
      return node.integer;
    case Node::Kind::kFloat:
      if (!std::isfinite(node.number)) return nullptr;
      return node.number;
    case Node::Kind::kString:
      return node.text;
    case Node::Kind::kSeq: {
      OJson arr = OJson::array();
      for (const Node& item : node.items) arr.push_back(NodeToJson(item));
      return arr;
    }
    case Node::Kind::kMap: {
      OJson obj = OJson::object();
      for (const MapEntry& e : node.entries) obj[e.key] = NodeToJson(e.value);
      return obj;
    }
  }
  return nullptr;
}

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    // Plain runs (most of any string) go in whole; the rest byte by byte below.
    if (size_t end = PlainRunEnd(s, i); end != i) {
      out->append(s.data() + i, end - i);
      i = end;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      size_t len = Utf8Sequence(s, i);
      if (len == 0) {
        out->append("\xEF\xBF\xBD");  // U+FFFD
        ++i;
      } else {
        out->append(s.substr(i, len));
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:
        if (c < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 0xF]);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

std::string NodeToJsonText(const Node& node) {
  std::string out;
  AppendJson(node, &out);
  return out;
}

}  // namespace jobset
