#include "validation/core/name_index.h"

#include <functional>

namespace jobset {
namespace {

constexpr uint64_t kPositionMask = 0xffffffffu;

uint64_t HashName(std::string_view name) { return std::hash<std::string_view>{}(name); }

}  // namespace

NameIndex BuildNameIndex(std::span<const std::string> names, std::vector<int>* first) {
  NameIndex index;
  size_t capacity = 8;
  while (capacity < names.size() + names.size() / 2) capacity *= 2;
  index.slots.assign(capacity, 0);
  const size_t mask = capacity - 1;
  if (first) first->resize(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const uint64_t hash = HashName(names[i]);
    const uint64_t tag = hash >> 32;
    for (size_t s = hash & mask;; s = (s + 1) & mask) {
      const uint64_t slot = index.slots[s];
      if (slot == 0) {
        index.slots[s] = tag << 32 | (i + 1);
        if (first) (*first)[i] = static_cast<int>(i);
        break;
      }
      const size_t at = (slot & kPositionMask) - 1;
      if (slot >> 32 == tag && names[at] == names[i]) {
        if (first) (*first)[i] = static_cast<int>(at);
        break;
      }
    }
  }
  return index;
}

int FindName(const NameIndex& index, std::span<const std::string> names, std::string_view name) {
  if (index.slots.empty()) return -1;
  const size_t mask = index.slots.size() - 1;
  const uint64_t hash = HashName(name);
  const uint64_t tag = hash >> 32;
  for (size_t s = hash & mask;; s = (s + 1) & mask) {
    const uint64_t slot = index.slots[s];
    if (slot == 0) return -1;
    const size_t at = (slot & kPositionMask) - 1;
    if (slot >> 32 == tag && at < names.size() && names[at] == name) return static_cast<int>(at);
  }
}

}  // namespace jobset
