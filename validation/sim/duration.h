// Go-style durations, as every kind's --monte-carlo flags and reports write them: parsing Go's
// time.ParseDuration syntax and printing seconds as a short Go-like duration.
#pragma once

#include <string>
#include <string_view>

namespace jobset {

/// Parses a Go duration (time.ParseDuration): `90s`, `15m`, `6h`, `1h30m`, `1.5h`, `300ms`,
/// `2h45m30.5s`; units ns, us (µs, μs), ms, s, m, h; "0" needs no unit. Rejects empty, negative
/// and unit-less input with Go's messages ("time: missing unit in duration \"10\"", ...).
bool ParseGoDuration(std::string_view text, double* seconds, std::string* error);

/// Seconds as a short Go-like duration without trailing zero units: 3d4h, 1h30m, 1m30s, 0s;
/// "inf" when not finite.
std::string FormatDuration(double seconds);

}  // namespace jobset
