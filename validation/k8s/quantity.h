// Kubernetes resource quantities (k8s.io/apimachinery pkg/api/resource quantity.go): what
// ParseQuantity accepts, exact comparison, and the canonical text Quantity.String() prints in
// field errors ("1.5" prints as "1500m", "1024Mi" as "1Gi", "2000" as "2k").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jobset {

/// A parsed quantity: the exact value digits * 10^exp10 (digits without leading zeros, empty
/// for zero), rounded up to nano units as ParseQuantity does, and the format its suffix chose.
struct Quantity {
  enum class Format { kDecimalSI, kBinarySI, kDecimalExponent };
  bool negative = false;
  std::string digits;
  int64_t exp10 = 0;
  Format format = Format::kDecimalSI;
};

/// The quantity `s` denotes, or the error ParseQuantity gives ("quantities must match the
/// regular expression ...", "unable to parse quantity's suffix", ...).
struct ParsedQuantity {
  std::optional<Quantity> value;
  std::string error;
};

/// Parses `s` as resource.ParseQuantity does (surrounding spaces trimmed).
ParsedQuantity ParseQuantity(std::string_view s);

/// -1, 0 or 1 as a is less than, equal to or greater than b (Quantity.Cmp).
int Compare(const Quantity& a, const Quantity& b);

/// Quantity.String(): the canonical text of `q` in its format.
std::string QuantityString(const Quantity& q);

/// MilliValue() % 1000 == 0: the value, rounded up to thousandths, is a whole number.
bool IsWholeNumber(const Quantity& q);

/// Value(): the value rounded up to an integer, when it fits in int64.
std::optional<int64_t> IntegerValue(const Quantity& q);

}  // namespace jobset
