#include "validation/sim/duration.h"

#include <charconv>
#include <cmath>
#include <cstdint>

#include "validation/core/strings.h"

namespace jobset {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string FormatDuration(double s) {
  if (!std::isfinite(s)) return "inf";
  int64_t total = static_cast<int64_t>(std::llround(s));
  if (total == 0) return "0s";
  int64_t d = total / 86400, h = total % 86400 / 3600, m = total % 3600 / 60, sec = total % 60;
  // Go-like, without trailing zero units: 3d4h, 1h30m, 90s -> 1m30s, 0 -> 0s.
  std::string out;
  const int64_t parts[] = {d, h, m, sec};
  const char* units[] = {"d", "h", "m", "s"};
  int last = 3;
  while (last > 0 && parts[last] == 0) --last;
  bool started = false;
  for (int i = 0; i <= last; ++i) {
    if (!started && parts[i] == 0 && i < last) continue;
    started = true;
    out += std::to_string(parts[i]) + units[i];
  }
  return out;
}

bool ParseGoDuration(std::string_view text, double* seconds, std::string* error) {
  const auto invalid = [&] {
    *error = "time: invalid duration " + GoQuotePrintable(text);
    return false;
  };
  std::string_view s = text;
  if (!s.empty() && s[0] == '-') {
    *error = "negative duration " + GoQuotePrintable(text);
    return false;
  }
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s == "0") {
    *seconds = 0;
    return true;
  }
  if (s.empty()) return invalid();
  double total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || IsDigit(s[0]))) return invalid();
    size_t i = 0;
    while (i < s.size() && IsDigit(s[i])) ++i;
    const bool pre = i > 0;
    bool post = false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      const size_t frac = i;
      while (i < s.size() && IsDigit(s[i])) ++i;
      post = i > frac;
    }
    if (!pre && !post) return invalid();  // "." or ".s".
    double number = 0;
    // from_chars rejects "5." and ".5"; Go accepts both: parse around the dot.
    std::string digits(s.substr(0, i));
    if (digits.back() == '.') digits.pop_back();
    if (digits.front() == '.') digits.insert(digits.begin(), '0');
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (ec != std::errc() || ptr != digits.data() + digits.size()) return invalid();
    s.remove_prefix(i);
    size_t u = 0;
    while (u < s.size() && s[u] != '.' && !IsDigit(s[u])) ++u;
    const std::string_view unit = s.substr(0, u);
    s.remove_prefix(u);
    if (unit.empty()) {
      *error = "time: missing unit in duration " + GoQuotePrintable(text);
      return false;
    }
    double scale;
    if (unit == "ns") {
      scale = 1e-9;
    } else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") {
      scale = 1e-6;
    } else if (unit == "ms") {
      scale = 1e-3;
    } else if (unit == "s") {
      scale = 1;
    } else if (unit == "m") {
      scale = 60;
    } else if (unit == "h") {
      scale = 3600;
    } else {
      *error =
          "time: unknown unit " + GoQuotePrintable(unit) + " in duration " + GoQuotePrintable(text);
      return false;
    }
    total += number * scale;
  }
  // Go's limit: a time.Duration is an int64 of nanoseconds (about 292 years).
  if (!(total <= 9223372036.854775807)) return invalid();
  *seconds = total;
  return true;
}

}  // namespace jobset
