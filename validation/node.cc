#include "validation/node.h"

namespace jobset {

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
      for (const MapEntry& e : a.entries) {
        const Node* other = b.Find(e.key);
        if (!other || !(e.value == *other)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace jobset
