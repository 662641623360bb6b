#include "validation/sim/fault_mix.h"

#include <charconv>
#include <cmath>

#include "validation/core/strings.h"

namespace jobset {

bool ParseFaultMixItems(std::string_view text, const FaultMixWords& words,
                        std::vector<FaultMixItem>* items, std::string* error) {
  std::vector<FaultMixItem> out;
  if (Trim(text).empty()) {
    *error = "empty fault mix: want " + std::string(words.syntax) + ",...";
    return false;
  }
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view item = Trim(text.substr(pos, comma - pos));
    pos = comma + 1;
    const std::string where = "fault mix item " + GoQuotePrintable(item);
    const size_t eq = item.rfind('=');
    if (item.empty()) {
      *error = "fault mix: empty item in " + GoQuotePrintable(text);
      return false;
    }
    if (eq == std::string_view::npos) {
      *error = where + ": want " + std::string(words.syntax);
      return false;
    }
    FaultMixItem parsed;
    const std::string_view head = item.substr(0, eq);
    std::string_view tail = Trim(item.substr(eq + 1));
    const size_t colon = head.find(':');
    parsed.key = std::string(Trim(head.substr(0, colon)));
    if (colon != std::string_view::npos) parsed.detail = std::string(head.substr(colon + 1));
    if (parsed.key.empty()) {
      *error = where + ": empty " + std::string(words.key);
      return false;
    }
    const size_t at = tail.find('@');
    if (at != std::string_view::npos) {
      parsed.target = std::string(Trim(tail.substr(at + 1)));
      tail = Trim(tail.substr(0, at));
      if (parsed.target.empty()) {
        *error = where + ": empty " + std::string(words.target) + " after @";
        return false;
      }
    }
    if (!tail.empty() && tail.back() == '%') tail.remove_suffix(1);
    double weight = 0;
    const auto [ptr, ec] = std::from_chars(tail.data(), tail.data() + tail.size(), weight);
    if (tail.empty() || ec != std::errc() || ptr != tail.data() + tail.size()) {
      *error = where + ": weight " + GoQuotePrintable(tail) + " is not a number";
      return false;
    }
    if (!(weight > 0) || !std::isfinite(weight)) {
      *error = where + ": weight must be positive";
      return false;
    }
    parsed.weight = weight;
    out.push_back(std::move(parsed));
  }
  *items = std::move(out);
  return true;
}

}  // namespace jobset
