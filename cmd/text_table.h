// Printing a table of cells as aligned text or as a Markdown table (explain's outputs).
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// Prints `table` (row 0 is the header): as Markdown, with the header in bold and a separator
/// row, every cell escaped by MarkdownCell; as text, each row indented by two spaces with
/// columns padded to their widest cell, measured by DisplayWidth.
void PrintTable(const std::vector<std::vector<std::string>>& table, bool markdown,
                std::ostream& out);

/// How many terminal columns `text` (UTF-8) takes, as wcwidth(3) counts them: East Asian wide
/// and fullwidth characters (CJK, Hangul, most emoji) take 2, combining marks, zero-width
/// characters and controls 0, everything else 1. A byte that is not valid UTF-8 counts as 1.
/// The tables are ours (the main blocks of Unicode 15), not the C library's, so output does not
/// depend on the locale.
size_t DisplayWidth(std::string_view text);

/// `text` made safe inside a Markdown table cell: `\` and `|` are escaped with a backslash,
/// `<` becomes `&lt;` (no HTML tag from a manifest), and line breaks become `<br>`, so any
/// value stays one cell of one row. `->` and the like stay readable.
std::string MarkdownCell(std::string_view text);

}  // namespace jobset
