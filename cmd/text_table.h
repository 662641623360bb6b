// Printing a table of cells as aligned text or as a Markdown table (explain's outputs).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace jobset {

/// Prints `table` (row 0 is the header): as Markdown, with the header in bold and a separator
/// row; as text, each row indented by two spaces with columns padded to their widest cell.
void PrintTable(const std::vector<std::vector<std::string>>& table, bool markdown,
                std::ostream& out);

}  // namespace jobset
