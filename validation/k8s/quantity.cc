#include "validation/k8s/quantity.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace jobset {
namespace {

constexpr char kFormatWrong[] =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr char kSuffixError[] = "unable to parse quantity's suffix";

bool Digit(char c) { return c >= '0' && c <= '9'; }

// d *= m for a small m (decimal digits, most significant first).
void Multiply(std::string* d, int m) {
  int carry = 0;
  for (size_t j = d->size(); j-- > 0;) {
    int x = ((*d)[j] - '0') * m + carry;
    (*d)[j] = static_cast<char>('0' + x % 10);
    carry = x / 10;
  }
  for (; carry; carry /= 10) d->insert(d->begin(), static_cast<char>('0' + carry % 10));
}

// d /= m, returning the remainder.
int Divide(std::string* d, int m) {
  std::string q;
  int rem = 0;
  for (char c : *d) {
    rem = rem * 10 + (c - '0');
    q += static_cast<char>('0' + rem / m);
    rem %= m;
  }
  q.erase(0, std::min(q.find_first_not_of('0'), q.size()));
  *d = q;
  return rem;
}

// The digits of |q| scaled to 10^exp (exp <= q.exp10), as an integer text.
std::string Scaled(const Quantity& q, int64_t exp) {
  std::string d = q.digits;
  d.append(static_cast<size_t>(q.exp10 - exp), '0');
  return d;
}

int CompareDigits(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return a < b ? -1 : (a == b ? 0 : 1);
}

// |q| rounded up to 10^exp units (Quantity.ScaledValue rounds away from zero).
std::string CeilScaled(const Quantity& q, int64_t exp) {
  if (q.digits.empty()) return "0";
  if (q.exp10 >= exp) return Scaled(q, exp);
  const uint64_t drop = static_cast<uint64_t>(exp - q.exp10);
  if (drop >= q.digits.size()) return "1";
  std::string d = q.digits.substr(0, q.digits.size() - drop);
  bool lost = q.digits.find_first_not_of('0', d.size()) != std::string::npos;
  if (lost) {
    d.insert(d.begin(), '0');
    for (size_t j = d.size(); j-- > 0;) {
      if (d[j] != '9') {
        ++d[j];
        break;
      }
      d[j] = '0';
    }
    d.erase(0, std::min(d.find_first_not_of('0'), d.size() - 1));
  }
  return d.empty() ? "0" : d;
}

}  // namespace

ParsedQuantity ParseQuantity(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
    s.remove_suffix(1);
  if (s.empty()) return {std::nullopt, kFormatWrong};
  // parseQuantityString: sign, digits, optional '.' and digits, then a suffix of
  // [eEinumkKMGTP]* and an optional signed integer.
  size_t i = 0;
  Quantity q;
  if (s[i] == '+' || s[i] == '-') q.negative = s[i++] == '-';
  size_t begin = i;
  while (i < s.size() && Digit(s[i])) ++i;
  std::string_view whole = s.substr(begin, i - begin), frac;
  if (i < s.size() && s[i] == '.') {
    begin = ++i;
    while (i < s.size() && Digit(s[i])) ++i;
    frac = s.substr(begin, i - begin);
  }
  const std::string_view suffix = s.substr(i);
  while (i < s.size() && std::string_view("eEinumkKMGTP").find(s[i]) != std::string_view::npos) {
    ++i;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  while (i < s.size() && Digit(s[i])) ++i;
  if (i < s.size()) return {std::nullopt, kFormatWrong};
  // quantitySuffixer.interpret.
  q.exp10 = -static_cast<int64_t>(frac.size());
  int binary = 0;  // The value is multiplied by 1024^binary.
  static constexpr std::pair<std::string_view, int> kSuffixes[] = {
      {"Ki", 1}, {"Mi", 2}, {"Gi", 3}, {"Ti", 4}, {"Pi", 5}, {"Ei", 6}, {"n", -9}, {"u", -6},
      {"m", -3}, {"", 0},   {"k", 3},  {"M", 6},  {"G", 9},  {"T", 12}, {"P", 15}, {"E", 18}};
  auto known = std::find_if(std::begin(kSuffixes), std::end(kSuffixes),
                            [&](const auto& k) { return k.first == suffix; });
  if (known != std::end(kSuffixes)) {
    if (known->first.size() == 2) {
      binary = known->second;
      q.format = Quantity::Format::kBinarySI;
    } else {
      q.exp10 += known->second;
    }
  } else {
    if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E'))
      return {std::nullopt, kSuffixError};
    std::string_view e = suffix.substr(1);
    bool e_negative = false;
    if (e[0] == '+' || e[0] == '-') {
      e_negative = e[0] == '-';
      e.remove_prefix(1);
    }
    if (e.empty() || e.size() > 9 || !std::all_of(e.begin(), e.end(), Digit)) {
      return {std::nullopt, kSuffixError};
    }
    int64_t v = std::stoll(std::string(e));
    q.exp10 += e_negative ? -v : v;
    q.format = Quantity::Format::kDecimalExponent;
  }
  std::string d = std::string(whole) + std::string(frac);
  for (int k = 0; k < binary; ++k) Multiply(&d, 1024);
  d.erase(0, std::min(d.find_first_not_of('0'), d.size()));
  if (d.empty()) {
    q.negative = false;
    q.exp10 = 0;
    return {q, ""};
  }
  q.digits = d;
  if (q.exp10 < -9) {  // Round up to nano units, away from zero.
    q.digits = CeilScaled(q, -9);
    q.exp10 = -9;
  }
  while (!q.digits.empty() && q.digits.back() == '0') {
    q.digits.pop_back();
    ++q.exp10;
  }
  return {q, ""};
}

int Compare(const Quantity& a, const Quantity& b) {
  const bool a_zero = a.digits.empty(), b_zero = b.digits.empty();
  const int a_sign = a_zero ? 0 : (a.negative ? -1 : 1);
  const int b_sign = b_zero ? 0 : (b.negative ? -1 : 1);
  if (a_sign != b_sign) return a_sign < b_sign ? -1 : 1;
  if (a_sign == 0) return 0;
  const int64_t exp = std::min(a.exp10, b.exp10);
  const int magnitude = CompareDigits(Scaled(a, exp), Scaled(b, exp));
  return a_sign > 0 ? magnitude : -magnitude;
}

std::string QuantityString(const Quantity& q) {
  if (q.digits.empty()) return "0";
  const std::string sign = q.negative ? "-" : "";
  Quantity::Format format = q.format;
  std::string integer;  // The value when it is a whole number.
  if (format == Quantity::Format::kBinarySI) {
    // Below 1024 in magnitude, or not a whole number: printed as DecimalSI.
    if (q.exp10 < 0) {
      format = Quantity::Format::kDecimalSI;
    } else {
      integer = Scaled(q, 0);
      if (CompareDigits(integer, "1024") < 0) format = Quantity::Format::kDecimalSI;
    }
  }
  if (format == Quantity::Format::kBinarySI) {
    int exponent = 0;
    while (exponent < 6) {
      std::string next = integer;
      if (Divide(&next, 1024) != 0) break;
      integer = next;
      ++exponent;
    }
    static constexpr const char* kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    return sign + integer + kBinary[exponent];
  }
  // AsCanonicalBytes: the largest exponent that keeps the mantissa whole, rounded down to a
  // multiple of 3.
  int64_t exponent = q.exp10;
  std::string mantissa = q.digits;
  const int64_t rem = ((exponent % 3) + 3) % 3;
  mantissa.append(static_cast<size_t>(rem), '0');
  exponent -= rem;
  if (format == Quantity::Format::kDecimalExponent) {
    return sign + mantissa + (exponent == 0 ? "" : "e" + std::to_string(exponent));
  }
  static constexpr std::pair<int, const char*> kDecimal[] = {
      {-9, "n"}, {-6, "u"}, {-3, "m"}, {0, ""},   {3, "k"},
      {6, "M"},  {9, "G"},  {12, "T"}, {15, "P"}, {18, "E"}};
  for (const auto& [e, s] : kDecimal) {
    if (e == exponent) return sign + mantissa + s;
  }
  return sign + mantissa + "e" + std::to_string(exponent);
}

bool IsWholeNumber(const Quantity& q) {
  const std::string milli = CeilScaled(q, -3);
  return milli.size() >= 3 ? milli.compare(milli.size() - 3, 3, "000") == 0 : milli == "0";
}

std::optional<int64_t> IntegerValue(const Quantity& q) {
  const std::string v = CeilScaled(q, 0);
  if (CompareDigits(v, "9223372036854775807") > 0) return std::nullopt;
  const int64_t magnitude = std::stoll(v);
  return q.negative ? -magnitude : magnitude;
}

}  // namespace jobset
