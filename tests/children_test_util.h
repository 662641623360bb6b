// What the unit tests of the children functions (validation/*/children_test.cc) share: a
// document parsed from text, and the value at a path of keys of a rendered object.
#ifndef JOBSET_TESTS_CHILDREN_TEST_UTIL_H_
#define JOBSET_TESTS_CHILDREN_TEST_UTIL_H_

#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "validation/core/loader.h"
#include "validation/core/node.h"

namespace jobset {

/// The one document of `text` (YAML or JSON); the test case fails unless it parses.
inline Node ParseOne(const std::string& text) {
  SourceFile f = ParseSource("t.yaml", text);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return f.documents[0].root;
}

/// The value under `keys`, one mapping key each (a key may hold dots:
/// {"metadata", "labels", "jobset.sigs.k8s.io/job-index"}), or nullptr.
inline const Node* At(const Node& n, std::initializer_list<std::string_view> keys) {
  const Node* cur = &n;
  for (std::string_view k : keys) {
    if (cur == nullptr || !cur->is_map()) return nullptr;
    cur = cur->Find(k);
  }
  return cur;
}

/// The string under `keys`, or "<absent>" when there is none.
inline std::string Text(const Node& n, std::initializer_list<std::string_view> keys) {
  const Node* v = At(n, keys);
  return v && v->is_string() ? v->text : "<absent>";
}

}  // namespace jobset

#endif  // JOBSET_TESTS_CHILDREN_TEST_UTIL_H_
