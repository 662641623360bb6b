// Small text helpers of the simulation inputs (durations, fault mixes), which echo what the user
// wrote in their error messages.
#pragma once

#include <string>
#include <string_view>

namespace jobset {

/// `s` in double quotes with `"` and `\` escaped: Go's strconv.Quote for printable input.
std::string QuoteGo(std::string_view s);

}  // namespace jobset
