#include "validation/json_node.h"

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

// nlohmann's SAX interface, building Nodes in place. The parser itself keeps its own state on
// the heap (it does not recurse), and this builder refuses to open a container beyond the
// depth limit, so the whole parse is bounded by the input size.
class NodeBuilder {
 public:
  NodeBuilder(int max_depth, Node* root) : max_depth_(max_depth), root_(root) {}

  bool null() { return Place(Node()); }
  bool boolean(bool v) { return Place(Node::Bool(v)); }
  bool number_integer(Json::number_integer_t v) { return Place(Node::Int(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return Place(UnsignedNode(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t& text) {
    return Place(FloatNode(v, text));
  }
  bool string(Json::string_t& v) { return Place(Node::String(std::move(v))); }
  bool binary(Json::binary_t& /*v*/) { return false; }  // JSON text has no binary values.
  bool start_object(std::size_t /*size*/) { return Open(Node::Map()); }
  bool key(Json::string_t& k) {
    key_ = std::move(k);
    return true;
  }
  bool end_object() {
    MergeDuplicateKeys(open_.back());
    open_.pop_back();
    return true;
  }
  bool start_array(std::size_t /*size*/) { return Open(Node::Seq()); }
  bool end_array() {
    open_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& ex) {
    std::string what = ex.what();
    // "[json.exception.parse_error.101] parse error at line 1, ..." -> "parse error at ...".
    if (size_t close = what.find("] "); !what.empty() && what[0] == '[' && close != what.npos) {
      what = what.substr(close + 2);
    }
    error_ = "invalid JSON at byte " + std::to_string(position) + ": " + what;
    return false;
  }

  const std::string& error() const { return error_; }

 private:
  // Stores a finished value in the open container (or as the root); returns it.
  Node* Store(Node v) {
    if (open_.empty()) {
      *root_ = std::move(v);
      return root_;
    }
    Node& top = *open_.back();
    if (top.is_map()) {
      top.entries.push_back(MapEntry{std::move(key_), Mark{}, std::move(v)});
      return &top.entries.back().value;
    }
    top.items.push_back(std::move(v));
    return &top.items.back();
  }
  bool Place(Node v) {
    Store(std::move(v));
    return true;
  }
  // Only the innermost open container ever grows, so the pointers to the outer ones (which
  // live in their parents' vectors) stay valid.
  bool Open(Node v) {
    if (static_cast<int>(open_.size()) >= max_depth_) {
      error_ = "JSON nested deeper than " + std::to_string(max_depth_) + " levels";
      return false;
    }
    open_.push_back(Store(std::move(v)));
    return true;
  }

  int max_depth_;
  Node* root_;
  std::vector<Node*> open_;
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

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
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
  NodeBuilder builder(limits.max_depth, &root);
  bool ok = Json::sax_parse(text.begin(), text.end(), &builder);
  if (!ok) {
    *error = builder.error().empty() ? "invalid JSON" : builder.error();
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

std::string NodeToJsonText(const Node& node) {
  std::string out;
  AppendJson(node, &out);
  return out;
}

}  // namespace jobset
