#include "validation/core/field_path.h"

#include <charconv>

namespace jobset {
namespace {

// Walks `path` from `root` as far as it exists. Returns the deepest node reached and the key
// mark of the last map entry reached.
struct Walk {
  const Node* node = nullptr;
  Mark key_mark;
  Mark known;  // the deepest mark on the way that came from the file
  bool complete = false;
};

Walk WalkPath(const Node& root, std::string_view path) {
  Walk w{&root, root.mark, root.mark, path.empty()};
  auto remember = [&w](Mark m) {
    if (m.known()) w.known = m;
  };
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path[i] == '[') {
      size_t close = path.find(']', i);
      if (close == std::string_view::npos) return w;
      std::string_view inside = path.substr(i + 1, close - i - 1);
      size_t idx = 0;
      auto [p, ec] = std::from_chars(inside.data(), inside.data() + inside.size(), idx);
      if (ec == std::errc() && p == inside.data() + inside.size()) {
        if (!w.node->is_seq() || idx >= w.node->items.size()) return w;
        w.node = &w.node->items[idx];
        w.key_mark = w.node->mark;
      } else {
        // "labels[example.com/name]": a map key that may hold dots, as field.Path.Key prints.
        const MapEntry* e = w.node->FindEntry(inside);
        if (!e) return w;
        w.node = &e->value;
        w.key_mark = e->key_mark;
      }
      remember(w.key_mark);
      i = close + 1;
    } else {
      size_t end = path.find_first_of(".[", i);
      if (end == std::string_view::npos) end = path.size();
      const MapEntry* e = w.node->FindEntry(path.substr(i, end - i));
      if (!e) return w;
      w.node = &e->value;
      w.key_mark = e->key_mark;
      remember(w.key_mark);
      i = end;
    }
  }
  w.complete = true;
  return w;
}

}  // namespace

Mark Locate(const Node& root, std::string_view path, PointAt at) {
  Walk w = WalkPath(root, path);
  if (!w.complete) return w.known;
  if (at == PointAt::kKey && w.key_mark.known()) return w.key_mark;
  // A defaulted value has no mark of its own: point at the nearest thing the file holds.
  return w.node->mark.known() ? w.node->mark : w.known;
}

const Node* FindPath(const Node& root, std::string_view path) {
  Walk w = WalkPath(root, path);
  return w.complete ? w.node : nullptr;
}

std::string Index(std::string_view base, size_t i) {
  std::string s(base);
  s += '[';
  s += std::to_string(i);
  s += ']';
  return s;
}

std::string Key(std::string_view base, std::string_view key) {
  std::string s(base);
  s += '[';
  s += key;
  s += ']';
  return s;
}

std::string Child(std::string_view base, std::string_view name) {
  std::string s(base);
  if (!s.empty()) s += '.';
  s += name;
  return s;
}

}  // namespace jobset
