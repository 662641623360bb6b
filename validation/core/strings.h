// Small string helpers that several parts of the validator need, written once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// `s` without the leading characters that are in `chars` (by default spaces and tabs).
std::string_view TrimLeft(std::string_view s, std::string_view chars = " \t");

/// `s` without the trailing characters that are in `chars` (by default spaces and tabs).
std::string_view TrimRight(std::string_view s, std::string_view chars = " \t");

/// `s` without the leading and trailing characters that are in `chars` (by default spaces and
/// tabs); "" when every character is one of them.
std::string_view Trim(std::string_view s, std::string_view chars = " \t");

/// Whether `v` holds an element equal to `s`.
bool Contains(const std::vector<std::string>& v, std::string_view s);

/// `text` cut at every `sep`: one part more than there are separators, empty parts kept ("" gives
/// one empty part, "a,,b" gives "a", "", "b"). The parts point into `text`.
std::vector<std::string_view> Split(std::string_view text, char sep);

/// `parts` joined with `sep` between each two ("" for none).
std::string Join(const std::vector<std::string>& parts, std::string_view sep = ", ");

/// Reads the whole of `text` as a decimal integer (a leading '-' allowed, no spaces); false and
/// `*out` untouched when it is not one or does not fit.
bool ParseInt64(std::string_view text, int64_t* out);

/// `text` read as ParseInt64 does, or `fallback` when it is not an integer.
int64_t ParseInt64Or(std::string_view text, int64_t fallback);

/// Go's %q of a string as Kubernetes' messages print it (strconv.Quote for ASCII): `"` and `\`
/// escaped, \n \t \r by name, other control bytes as \xHH, every other byte as is.
std::string GoQuote(std::string_view s);

/// The quoting of Go's time package (durations): only `"` and `\` escaped, every other byte as
/// is. The same as GoQuote for printable input; kept apart because control bytes differ.
std::string GoQuotePrintable(std::string_view s);

/// `s` as a JSON string (JSON escapes, invalid UTF-8 replaced by U+FFFD): what the schema
/// messages quote, as Go's %q reads for ordinary text.
std::string JsonQuote(std::string_view s);

/// The shortest text that reads back as `d` ("1.5", "100", "1e+21"), as Go prints a float64.
std::string ShortestFloatText(double d);

/// `d` as C's "%g" prints it (six significant digits).
std::string FormatG(double d);

}  // namespace jobset
