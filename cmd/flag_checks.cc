#include "cmd/flag_checks.h"

#include <string>

namespace jobset {

CLI::Validator AtLeast(int64_t min) {
  return CLI::Validator(
      [min](std::string& value) -> std::string {
        int64_t v = 0;
        if (CLI::detail::lexical_cast(value, v)) {
          if (v < min) return "must be at least " + std::to_string(min) + ", got " + value;
          return {};
        }
        uint64_t big = 0;  // beyond int64 (a --seed): above any minimum
        if (value.find('-') == std::string::npos && CLI::detail::lexical_cast(value, big))
          return {};
        return "'" + value + "' is not an integer";
      },
      "");
}

}  // namespace jobset
