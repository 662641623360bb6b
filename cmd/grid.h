// Tables for `explain`: an aligned text grid or a markdown table, from rows of cells.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace jobset {

/// Prints `table` (first row the header) as a markdown table (header cells in bold), or as a
/// text grid indented by two spaces with two spaces between columns.
void RenderGrid(const std::vector<std::vector<std::string>>& table, bool markdown,
                std::ostream& out);

}  // namespace jobset
