// Kubernetes field paths ("spec.failurePolicy.rules[1].name") and where they are in a document.
#pragma once

#include <string>
#include <string_view>

#include "validation/core/node.h"

namespace jobset {

/// Where a path points: the key of the deepest entry that exists, or its value.
enum class PointAt { kValue, kKey };

/// Returns the mark of `path` in `root`. When the path does not exist in full (the value was
/// defaulted, or is missing), returns the mark of the deepest part that exists: a finding about
/// a missing field points at its parent.
Mark Locate(const Node& root, std::string_view path, PointAt at = PointAt::kValue);

/// The node at `path`, or nullptr.
const Node* FindPath(const Node& root, std::string_view path);

/// Builds "base[i]", "base[key]" (a map key, which may hold dots) and "base.name".
std::string Index(std::string_view base, size_t i);
std::string Key(std::string_view base, std::string_view key);
std::string Child(std::string_view base, std::string_view name);

}  // namespace jobset
