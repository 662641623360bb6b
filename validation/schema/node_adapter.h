// A valijson adapter over jobset::Node, so that loaded documents are validated in place, without
// a conversion to another JSON library per document.
//
// Include this header before any valijson header: it makes valijson report problems with
// exceptions instead of aborting the process.
#pragma once

#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1
#endif

#include <cstddef>
#include <cstdint>
#include <string>
#include <valijson/exceptions.hpp>
#include <valijson/internal/adapter.hpp>
#include <valijson/internal/basic_adapter.hpp>
#include <valijson/internal/frozen_value.hpp>
#include <valijson/internal/optional.hpp>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

class NodeAdapter;
class NodeArrayIterator;
class NodeObjectIterator;
struct NodeObjectMember;

/// A sequence node seen as a valijson array: an iterable view, cheap to copy.
class NodeArray {
 public:
  using const_iterator = NodeArrayIterator;
  using iterator = NodeArrayIterator;

  /// An empty array.
  NodeArray() : items_(&EmptyItems()) {}
  /// The items of `node`, which must be a sequence.
  explicit NodeArray(const Node& node) : items_(&node.items) {
    if (!node.is_seq()) valijson::throwRuntimeError("Value is not an array.");
  }

  /// The first item, and one past the last.
  NodeArrayIterator begin() const;
  NodeArrayIterator end() const;
  /// Number of items.
  size_t size() const { return items_->size(); }

 private:
  static const std::vector<Node>& EmptyItems() {
    static const std::vector<Node> empty;
    return empty;
  }

  const std::vector<Node>* items_;
};

/// A mapping node seen as a valijson object: an iterable view, cheap to copy.
///
/// Entries whose value is null are iterated and counted, but `find` does not see them: the API
/// server prunes null values of (non-nullable) known fields before it validates, so a null
/// field neither satisfies `required` nor is checked against its schema, while an unknown
/// field is still unknown when its value is null.
class NodeObject {
 public:
  using const_iterator = NodeObjectIterator;
  using iterator = NodeObjectIterator;

  /// An empty object.
  NodeObject() : entries_(&EmptyEntries()) {}
  /// The entries of `node`, which must be a mapping.
  explicit NodeObject(const Node& node) : entries_(&node.entries) {
    if (!node.is_map()) valijson::throwRuntimeError("Value is not an object.");
  }

  /// The first entry, and one past the last (null-valued entries included).
  NodeObjectIterator begin() const;
  NodeObjectIterator end() const;
  /// The entry named `name` with a non-null value, or end().
  NodeObjectIterator find(const std::string& name) const;
  /// Number of entries, null-valued ones included.
  size_t size() const { return entries_->size(); }

 private:
  static const std::vector<MapEntry>& EmptyEntries() {
    static const std::vector<MapEntry> empty;
    return empty;
  }

  const std::vector<MapEntry>* entries_;
};

/// An independent copy of a Node, for schema keywords that keep values (enum, const).
class NodeFrozenValue : public valijson::adapters::FrozenValue {
 public:
  /// Copies `value`.
  explicit NodeFrozenValue(Node value) : value_(std::move(value)) {}

  /// A new copy, owned by the caller.
  valijson::adapters::FrozenValue* clone() const override { return new NodeFrozenValue(value_); }
  /// Whether the copy equals `other` (strictly typed or not).
  bool equalTo(const valijson::adapters::Adapter& other, bool strict) const override;

 private:
  Node value_;
};

/// Read access to one Node, in the shape valijson's BasicAdapter expects.
class NodeValue {
 public:
  /// An empty mapping.
  NodeValue() : node_(&EmptyMap()) {}
  /// A view of `node`, which must outlive this value.
  NodeValue(const Node& node) : node_(&node) {}  // NOLINT(runtime/explicit): as valijson's.

  /// A copy of the value, owned by the caller.
  valijson::adapters::FrozenValue* freeze() const { return new NodeFrozenValue(*node_); }

  // The getters give false (and leave `result` alone) when the value is of another type.

  /// The items, when the value is a sequence.
  opt::optional<NodeArray> getArrayOptional() const {
    if (node_->is_seq()) return opt::make_optional(NodeArray(*node_));
    return {};
  }
  bool getArraySize(size_t& result) const {
    if (!node_->is_seq()) return false;
    result = node_->items.size();
    return true;
  }
  bool getBool(bool& result) const {
    if (!node_->is_bool()) return false;
    result = node_->boolean;
    return true;
  }
  bool getDouble(double& result) const {
    if (node_->kind != Node::Kind::kFloat) return false;
    result = node_->number;
    return true;
  }
  bool getInteger(int64_t& result) const {
    if (!node_->is_int()) return false;
    result = node_->integer;
    return true;
  }
  /// The entries, when the value is a mapping.
  opt::optional<NodeObject> getObjectOptional() const {
    if (node_->is_map()) return opt::make_optional(NodeObject(*node_));
    return {};
  }
  bool getObjectSize(size_t& result) const {
    if (!node_->is_map()) return false;
    result = node_->entries.size();
    return true;
  }
  bool getString(std::string& result) const {
    if (!node_->is_string()) return false;
    result = node_->text;
    return true;
  }

  /// Node values are typed: "1" is a string, never a number.
  static bool hasStrictTypes() { return true; }

  /// The kind of the value (an integer is a number, not a double).

  bool isArray() const { return node_->is_seq(); }
  bool isBool() const { return node_->is_bool(); }
  bool isDouble() const { return node_->kind == Node::Kind::kFloat; }
  bool isInteger() const { return node_->is_int(); }
  bool isNull() const { return node_->is_null(); }
  bool isNumber() const { return node_->is_number(); }
  bool isObject() const { return node_->is_map(); }
  bool isString() const { return node_->is_string(); }

 private:
  static const Node& EmptyMap() {
    static const Node empty = Node::Map();
    return empty;
  }

  const Node* node_;
};

/// The valijson adapter over a Node (which must outlive the adapter and everything made of it).
class NodeAdapter
    : public valijson::adapters::BasicAdapter<NodeAdapter, NodeArray, NodeObjectMember, NodeObject,
                                              NodeValue> {
 public:
  /// An empty mapping.
  NodeAdapter() = default;
  /// A view of `node`.
  NodeAdapter(const Node& node)  // NOLINT(runtime/explicit): iterators convert implicitly.
      : BasicAdapter(NodeValue(node)), node_(&node) {}

  /// The node seen, for our own keywords (schema.cc); nullptr for an empty adapter.
  const Node* node() const { return node_; }

 private:
  const Node* node_ = nullptr;
};

/// One entry of a mapping as valijson iterates it: `first` is the key, `second` the value.
struct NodeObjectMember {
  const std::string& first;
  NodeAdapter second;
};

/// Iterates over the items of a sequence, giving an adapter per item.
class NodeArrayIterator {
 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using value_type = NodeAdapter;
  using difference_type = std::ptrdiff_t;
  using pointer = NodeAdapter*;
  using reference = NodeAdapter&;

  /// Wraps a position in a sequence's items.
  explicit NodeArrayIterator(std::vector<Node>::const_iterator it) : it_(it) {}

  /// The item here, its address (through a proxy), comparison and movement.
  NodeAdapter operator*() const { return NodeAdapter(*it_); }
  valijson::adapters::DerefProxy<NodeAdapter> operator->() const {
    return valijson::adapters::DerefProxy<NodeAdapter>(**this);
  }
  bool operator==(const NodeArrayIterator& other) const { return it_ == other.it_; }
  bool operator!=(const NodeArrayIterator& other) const { return it_ != other.it_; }
  const NodeArrayIterator& operator++() {
    ++it_;
    return *this;
  }
  NodeArrayIterator operator++(int) {
    NodeArrayIterator before(it_);
    ++it_;
    return before;
  }
  const NodeArrayIterator& operator--() {
    --it_;
    return *this;
  }
  void advance(std::ptrdiff_t n) { it_ += n; }

 private:
  std::vector<Node>::const_iterator it_;
};

/// Iterates over the entries of a mapping, in source order.
class NodeObjectIterator {
 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using value_type = NodeObjectMember;
  using difference_type = std::ptrdiff_t;
  using pointer = NodeObjectMember*;
  using reference = NodeObjectMember&;

  /// Wraps a position in a mapping's entries.
  explicit NodeObjectIterator(std::vector<MapEntry>::const_iterator it) : it_(it) {}

  /// The entry here, its address (through a proxy), comparison and movement.
  NodeObjectMember operator*() const { return NodeObjectMember{it_->key, NodeAdapter(it_->value)}; }
  valijson::adapters::DerefProxy<NodeObjectMember> operator->() const {
    return valijson::adapters::DerefProxy<NodeObjectMember>(**this);
  }
  bool operator==(const NodeObjectIterator& other) const { return it_ == other.it_; }
  bool operator!=(const NodeObjectIterator& other) const { return it_ != other.it_; }
  const NodeObjectIterator& operator++() {
    ++it_;
    return *this;
  }
  NodeObjectIterator operator++(int) {
    NodeObjectIterator before(it_);
    ++it_;
    return before;
  }
  const NodeObjectIterator& operator--() {
    --it_;
    return *this;
  }

 private:
  std::vector<MapEntry>::const_iterator it_;
};

inline NodeArrayIterator NodeArray::begin() const { return NodeArrayIterator(items_->begin()); }
inline NodeArrayIterator NodeArray::end() const { return NodeArrayIterator(items_->end()); }

inline NodeObjectIterator NodeObject::begin() const {
  return NodeObjectIterator(entries_->begin());
}
inline NodeObjectIterator NodeObject::end() const { return NodeObjectIterator(entries_->end()); }
inline NodeObjectIterator NodeObject::find(const std::string& name) const {
  for (auto it = entries_->begin(); it != entries_->end(); ++it) {
    if (it->key == name) {
      return it->value.is_null() ? end() : NodeObjectIterator(it);
    }
  }
  return end();
}

inline bool NodeFrozenValue::equalTo(const valijson::adapters::Adapter& other, bool strict) const {
  return NodeAdapter(value_).equalTo(other, strict);
}

}  // namespace jobset

namespace valijson::adapters {

/// Lets valijson name the adapter and its document type.
template <>
struct AdapterTraits<jobset::NodeAdapter> {
  using DocumentType = jobset::Node;
  static std::string adapterName() { return "JobsetNodeAdapter"; }
};

}  // namespace valijson::adapters
