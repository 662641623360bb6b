// The first position of each name of a list, found by name without a node or a string copy per
// name: a flat open-addressed table of (hash tag, position) pairs over the caller's list.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// An index of a list of names (see BuildNameIndex). It holds no strings: lookups compare
/// against the list it was built from, which must outlive it unchanged.
struct NameIndex {
  /// Per slot, 0 when empty, else the name's hash tag (high 32 bits) and its first position + 1
  /// (low 32 bits); linear probing from the slot of the hash's low bits. At most 2/3 full.
  std::vector<uint64_t> slots;
};

/// Indexes `names` (fewer than 2^31 of them), the first of a repeated name winning. When `first`
/// is not null it is set to, for each position, the first position of the same name.
NameIndex BuildNameIndex(std::span<const std::string> names, std::vector<int>* first = nullptr);

/// The first position of `name` in `names`, the list `index` was built from; -1 when absent
/// (always for a default-constructed index).
int FindName(const NameIndex& index, std::span<const std::string> names, std::string_view name);

}  // namespace jobset
