#include "validation/core/node.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace jobset {
namespace {

// Mappings from this many entries are indexed for lookups; smaller ones are scanned.
constexpr size_t kIndexFrom = 16;

}  // namespace

const MapEntry* Node::FindEntry(std::string_view key) const {
  if (kind != Kind::kMap) return nullptr;
  for (const MapEntry& e : entries) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

const Node* Node::Find(std::string_view key) const {
  const MapEntry* e = FindEntry(key);
  return e ? &e->value : nullptr;
}

Node* Node::Find(std::string_view key) {
  return const_cast<Node*>(static_cast<const Node*>(this)->Find(key));
}

Node& Node::Set(std::string_view key, Node value) {
  if (Node* existing = Find(key)) {
    *existing = std::move(value);
    return *existing;
  }
  kind = Kind::kMap;
  entries.push_back(MapEntry{std::string(key), value.mark, std::move(value)});
  return entries.back().value;
}

std::string_view Node::StringOr(std::string_view key, std::string_view fallback) const {
  const Node* n = Find(key);
  return n && n->is_string() ? std::string_view(n->text) : fallback;
}

Node Node::String(std::string s, Mark m) {
  Node n;
  n.kind = Kind::kString;
  n.text = std::move(s);
  n.mark = m;
  return n;
}

Node Node::Int(int64_t v, Mark m) {
  Node n;
  n.kind = Kind::kInt;
  n.integer = v;
  n.number = static_cast<double>(v);
  n.text = std::to_string(v);
  n.mark = m;
  return n;
}

Node Node::Bool(bool v, Mark m) {
  Node n;
  n.kind = Kind::kBool;
  n.boolean = v;
  n.text = v ? "true" : "false";
  n.mark = m;
  return n;
}

Node Node::Map(Mark m) {
  Node n;
  n.kind = Kind::kMap;
  n.mark = m;
  return n;
}

Node Node::Seq(Mark m) {
  Node n;
  n.kind = Kind::kSeq;
  n.mark = m;
  return n;
}

const char* Node::KindName(Kind k) {
  switch (k) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "boolean";
    case Kind::kInt:
      return "integer";
    case Kind::kFloat:
      return "number";
    case Kind::kString:
      return "string";
    case Kind::kSeq:
      return "array";
    case Kind::kMap:
      return "object";
  }
  return "unknown";
}

bool operator==(const Node& a, const Node& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_int() && b.is_int()) return a.integer == b.integer;
    return a.number == b.number;
  }
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Node::Kind::kNull:
      return true;
    case Node::Kind::kBool:
      return a.boolean == b.boolean;
    case Node::Kind::kString:
      return a.text == b.text;
    case Node::Kind::kSeq:
      return a.items == b.items;
    case Node::Kind::kMap: {
      // Mapping equality ignores key order, as JSON objects do.
      if (a.entries.size() != b.entries.size()) return false;
      KeyIndex other_keys(b);
      for (const MapEntry& e : a.entries) {
        const Node* other = other_keys.Find(e.key);
        if (!other || !(e.value == *other)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

KeyIndex::KeyIndex(const Node& map) : map_(&map) {
  if (!map.is_map() || map.entries.size() < kIndexFrom) return;
  index_.reserve(map.entries.size());
  for (const MapEntry& e : map.entries) index_.emplace(e.key, &e.value);  // The first wins.
}

const Node* KeyIndex::Find(std::string_view key) const {
  if (index_.empty()) return map_->Find(key);
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : it->second;
}

std::string CanonicalKey(const Node& n) {
  switch (n.kind) {
    case Node::Kind::kNull:
      return "~";
    case Node::Kind::kBool:
      return n.boolean ? "t" : "f";
    case Node::Kind::kInt:
      return "n" + std::to_string(n.integer);
    case Node::Kind::kFloat: {
      // A whole float equals the integer of the same value (1.0 == 1).
      if (std::isfinite(n.number) && n.number == std::trunc(n.number) &&
          std::fabs(n.number) < 9.2e18) {
        return "n" + std::to_string(static_cast<int64_t>(n.number));
      }
      char buf[40];
      std::snprintf(buf, sizeof buf, "n%.17g", n.number);
      return buf;
    }
    case Node::Kind::kString:
      return "s" + std::to_string(n.text.size()) + ":" + n.text;
    case Node::Kind::kSeq: {
      std::string out = "[";
      for (const Node& i : n.items) out += CanonicalKey(i);
      return out + "]";
    }
    case Node::Kind::kMap: {
      // Key order does not count: sorted by key.
      std::vector<std::pair<std::string_view, const Node*>> sorted;
      sorted.reserve(n.entries.size());
      for (const MapEntry& e : n.entries) sorted.emplace_back(e.key, &e.value);
      std::sort(sorted.begin(), sorted.end(),
                [](const auto& l, const auto& r) { return l.first < r.first; });
      std::string out = "{";
      for (const auto& [key, value] : sorted) {
        out += std::to_string(key.size()) + ":" + std::string(key) + CanonicalKey(*value);
      }
      return out + "}";
    }
  }
  return "";
}

const Node* FindPath(const Node* node, std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    if (node == nullptr) return nullptr;
    node = node->Find(key);
  }
  return node;
}

const Node* Present(const Node* n) { return n != nullptr && !n->is_null() ? n : nullptr; }

const Node* FindPresent(const Node* parent, std::string_view key) {
  return parent == nullptr ? nullptr : Present(parent->Find(key));
}

const Node* FindPresentPath(const Node* node, std::initializer_list<std::string_view> keys) {
  return Present(FindPath(node, keys));
}

const Node* FindString(const Node* parent, std::string_view key) {
  const Node* n = parent == nullptr ? nullptr : parent->Find(key);
  return n != nullptr && n->is_string() ? n : nullptr;
}

const Node* FindInt(const Node* parent, std::string_view key) {
  const Node* n = parent == nullptr ? nullptr : parent->Find(key);
  return n != nullptr && n->is_int() ? n : nullptr;
}

const Node* FindSeq(const Node* parent, std::string_view key) {
  const Node* n = parent == nullptr ? nullptr : parent->Find(key);
  return n != nullptr && n->is_seq() ? n : nullptr;
}

const Node* FindMap(const Node* parent, std::string_view key) {
  const Node* n = parent == nullptr ? nullptr : parent->Find(key);
  return n != nullptr && n->is_map() ? n : nullptr;
}

std::string_view StringValue(const Node* n) {
  return n != nullptr && n->is_string() ? std::string_view(n->text) : std::string_view();
}

bool IntValue(const Node* n, int64_t* out) {
  if (n == nullptr || !n->is_int()) return false;
  *out = n->integer;
  return true;
}

int64_t IntOr(const Node* parent, std::string_view key, int64_t fallback) {
  const Node* n = FindInt(parent, key);
  return n == nullptr ? fallback : n->integer;
}

std::optional<int64_t> OptionalInt(const Node* parent, std::string_view key) {
  const Node* n = FindInt(parent, key);
  return n == nullptr ? std::nullopt : std::optional<int64_t>(n->integer);
}

std::optional<std::string> OptionalString(const Node* parent, std::string_view key) {
  const Node* n = FindString(parent, key);
  return n == nullptr ? std::nullopt : std::optional<std::string>(n->text);
}

std::vector<std::string> StringItems(const Node* parent, std::string_view key) {
  std::vector<std::string> out;
  const Node* list = FindSeq(parent, key);
  if (list == nullptr) return out;
  for (const Node& item : list->items) {
    if (item.is_string()) out.push_back(item.text);
  }
  return out;
}

}  // namespace jobset
