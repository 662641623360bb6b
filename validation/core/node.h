// The document model: a JSON-like tree in which every value remembers where it was written.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace jobset {

/// A position in a source file. Line and column are 1-based; line 0 means "not from a file"
/// (a defaulted value, or an object that came over the network).
struct Mark {
  int line = 0;
  int column = 0;
  bool known() const { return line > 0; }
};

struct MapEntry;

/// One value of a loaded document: null, bool, integer, float, string, sequence or mapping,
/// typed the way Kubernetes reads YAML (YAML 1.1 scalars, as sigs.k8s.io/yaml does).
struct Node {
  enum class Kind : uint8_t { kNull, kBool, kInt, kFloat, kString, kSeq, kMap };

  Kind kind = Kind::kNull;
  Mark mark;                      ///< Where the value starts.
  bool boolean = false;           ///< kBool.
  int64_t integer = 0;            ///< kInt.
  double number = 0;              ///< kFloat (also set for kInt).
  std::string text;               ///< kString: the value; other scalars: the text as written.
  std::vector<Node> items;        ///< kSeq.
  std::vector<MapEntry> entries;  ///< kMap, in source order.

  bool is_null() const { return kind == Kind::kNull; }
  bool is_map() const { return kind == Kind::kMap; }
  bool is_seq() const { return kind == Kind::kSeq; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_int() const { return kind == Kind::kInt; }
  bool is_bool() const { return kind == Kind::kBool; }
  bool is_number() const { return kind == Kind::kInt || kind == Kind::kFloat; }

  /// The value under `key` of a mapping, or nullptr (also for non-mappings).
  const Node* Find(std::string_view key) const;
  Node* Find(std::string_view key);
  /// The entry (key and value) under `key`, or nullptr.
  const MapEntry* FindEntry(std::string_view key) const;
  /// Sets `key` to `value` (appending it when absent) and returns the stored value.
  Node& Set(std::string_view key, Node value);

  /// Convenience accessors that return a fallback when the value is absent or of another type.
  std::string_view StringOr(std::string_view key, std::string_view fallback = {}) const;

  static Node String(std::string s, Mark m = {});
  static Node Int(int64_t v, Mark m = {});
  static Node Bool(bool v, Mark m = {});
  static Node Map(Mark m = {});
  static Node Seq(Mark m = {});

  /// Name of a kind as JSON Schema and Kubernetes messages say it ("string", "integer", ...).
  static const char* KindName(Kind k);
};

/// A key of a mapping with its own position, and its value.
struct MapEntry {
  std::string key;
  Mark key_mark;
  Node value;
};

/// Deep equality of values (positions ignored; 1 and 1.0 are equal, as in JSON). Linear in
/// the size of the values, however wide their mappings.
bool operator==(const Node& a, const Node& b);

/// Looks keys up in one mapping in constant time: Node::Find scans the entries, so looking up
/// every key of a wide mapping that way costs O(n^2), which hostile input can make seconds.
/// Small mappings are scanned as Find does. `map` must outlive the index, unchanged.
class KeyIndex {
 public:
  explicit KeyIndex(const Node& map);
  /// The value under `key` (the first entry holding it), or nullptr; nullptr for non-mappings.
  const Node* Find(std::string_view key) const;

 private:
  const Node* map_;
  std::unordered_map<std::string_view, const Node*> index_;  ///< Empty for small mappings.
};

/// A text that two values share exactly when they are equal (operator==): the key to match
/// values through a hash map (list items paired by name) instead of comparing every pair.
std::string CanonicalKey(const Node& n);

/// The value under `keys` below `node`, one mapping key per level, or nullptr when `node` is
/// null or a level is missing or not a mapping.
const Node* FindPath(const Node* node, std::initializer_list<std::string_view> keys);

// Typed look-ups. Each takes a possibly-null parent, so they chain with FindPath; a key under
// a non-mapping is absent. "Present" is the one name for "there and not null": kube-apiserver
// prunes nulls and Go decodes them as nil, so a null field counts as unset.

/// `n` when it is there and not null, else nullptr.
const Node* Present(const Node* n);

/// The value under `key` of `parent` when it is there and not null, else nullptr.
const Node* FindPresent(const Node* parent, std::string_view key);

/// The value under `keys` below `node` (as FindPath) when it is there and not null.
const Node* FindPresentPath(const Node* node, std::initializer_list<std::string_view> keys);

/// The value under `key` of `parent` when it is a string, else nullptr.
const Node* FindString(const Node* parent, std::string_view key);

/// The value under `key` of `parent` when it is an integer, else nullptr.
const Node* FindInt(const Node* parent, std::string_view key);

/// The value under `key` of `parent` when it is a sequence, else nullptr.
const Node* FindSeq(const Node* parent, std::string_view key);

/// The value under `key` of `parent` when it is a mapping, else nullptr.
const Node* FindMap(const Node* parent, std::string_view key);

/// The text of `n` when it is a string, "" otherwise (also for nullptr).
std::string_view StringValue(const Node* n);

/// Sets `*out` to the integer `n` holds; false (and `*out` untouched) when `n` is not one.
bool IntValue(const Node* n, int64_t* out);

/// The integer under `key` of `parent`, or `fallback` when it is absent or not an integer.
int64_t IntOr(const Node* parent, std::string_view key, int64_t fallback = 0);

/// The integer under `key` of `parent`, or nothing when it is absent or not an integer.
std::optional<int64_t> OptionalInt(const Node* parent, std::string_view key);

/// The string under `key` of `parent`, or nothing when it is absent or not a string.
std::optional<std::string> OptionalString(const Node* parent, std::string_view key);

/// The strings of the sequence under `key` of `parent` (items of other types skipped); empty
/// when it is absent or not a sequence.
std::vector<std::string> StringItems(const Node* parent, std::string_view key);

}  // namespace jobset
