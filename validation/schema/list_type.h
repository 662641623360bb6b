// x-kubernetes-list-type set and map: the uniqueness of list items, as kube-apiserver checks it
// for custom resources (k8s.io/apiextensions-apiserver pkg/apiserver/schema/listtype,
// ValidateListSetsAndMaps). Shared by the valijson keyword, the fast check and the explainer of
// schema.cc, so that all three find the same duplicates.
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

/// The keyword schema.cc compiles x-kubernetes-list-type and x-kubernetes-list-map-keys into:
/// its value is `{"set": true}` or `{"keys": [...], "defaults": {key: value}}` (the defaults of
/// key fields, which the API server applies before it validates).
inline constexpr char kListUniqueKeyword[] = "x-jobset-list-unique";

/// What must be unique in a list.
struct ListUniqueness {
  bool set = false;               ///< list-type set: whole items.
  std::vector<std::string> keys;  ///< list-type map: the tuple of these fields of each item.
  /// The default of each key ("" key: none), used when an item lacks the field or holds null.
  std::vector<std::optional<Node>> defaults;
};

/// Reads the value of kListUniqueKeyword; nullopt when it is not of that form.
std::optional<ListUniqueness> ParseListUniqueness(const nlohmann::json& value);

/// One item that repeats an earlier one.
struct ListDuplicate {
  size_t index = 0;  ///< Of the item.
  /// The repeated value as field.Duplicate prints it: `map[string]interface {}{"name":"x"}` for
  /// a list-map, the item itself for a set (`"x"`, `80`).
  std::string value;
};

/// The duplicates of `list` (a sequence): as upstream, the second occurrence of each repeated
/// value (a third is not reported again). Items of a list-map that are not mappings or null are
/// skipped (they fail the item schema's type).
std::vector<ListDuplicate> FindListDuplicates(const Node& list, const ListUniqueness& unique);

}  // namespace jobset
