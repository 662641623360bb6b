#include "validation/sim/duration.h"

#include <doctest/doctest.h>

#include <limits>
#include <utility>
#include <vector>

namespace jobset {

TEST_CASE("sim duration: ParseGoDuration") {
  double s = -1;
  std::string error;
  const std::vector<std::pair<const char*, double>> good = {
      {"0", 0},       {"90s", 90},      {"15m", 900},           {"6h", 21600}, {"1h30m", 5400},
      {"1.5h", 5400}, {"300ms", 0.3},   {"2h45m30.5s", 9930.5}, {"+5s", 5},    {".5s", 0.5},
      {"5.s", 5},     {"1us", 1e-6},    {"1µs", 1e-6},          {"1μs", 1e-6}, {"100ns", 1e-7},
      {"0s", 0},      {"1h0m0s", 3600}, {"0.25m", 15}};
  for (const auto& [text, want] : good) {
    CAPTURE(text);
    REQUIRE(ParseGoDuration(text, &s, &error));
    CHECK(s == doctest::Approx(want));
  }
  for (const char* bad :
       {"", "-5s", "10", "1d", "s", ".s", "1h30", "h1", "1.2.3s", "+", "1 h", "9999999999h"}) {
    CAPTURE(bad);
    error.clear();
    CHECK_FALSE(ParseGoDuration(bad, &s, &error));
    CHECK_FALSE(error.empty());
  }
  ParseGoDuration("10", &s, &error);
  CHECK(error == "time: missing unit in duration \"10\"");
  ParseGoDuration("1d", &s, &error);
  CHECK(error == "time: unknown unit \"d\" in duration \"1d\"");
  ParseGoDuration("", &s, &error);
  CHECK(error == "time: invalid duration \"\"");
  ParseGoDuration("-5s", &s, &error);
  CHECK(error == "negative duration \"-5s\"");
}

TEST_CASE("sim duration: FormatDuration drops zero units") {
  CHECK(FormatDuration(0) == "0s");
  CHECK(FormatDuration(90) == "1m30s");
  CHECK(FormatDuration(5400) == "1h30m");
  CHECK(FormatDuration(3 * 86400 + 4 * 3600) == "3d4h");
  CHECK(FormatDuration(86400 + 50 * 60 + 29) == "1d0h50m29s");
  CHECK(FormatDuration(29.6) == "30s");
  CHECK(FormatDuration(std::numeric_limits<double>::infinity()) == "inf");
}

}  // namespace jobset
