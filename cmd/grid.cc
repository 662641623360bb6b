#include "cmd/grid.h"

#include <algorithm>
#include <ostream>

namespace jobset {

void RenderGrid(const std::vector<std::vector<std::string>>& table, bool markdown,
                std::ostream& out) {
  if (table.empty()) return;
  if (markdown) {
    for (size_t i = 0; i < table.size(); ++i) {
      out << "|";
      for (const std::string& cell : table[i])
        out << " " << (i ? cell : "**" + cell + "**") << " |";
      out << "\n";
      if (i == 0) {
        out << "|";
        for (size_t k = 0; k < table[0].size(); ++k) out << "---|";
        out << "\n";
      }
    }
    return;
  }
  std::vector<size_t> width(table[0].size(), 0);
  for (const auto& line : table)
    for (size_t k = 0; k < line.size() && k < width.size(); ++k)
      width[k] = std::max(width[k], line[k].size());
  for (const auto& line : table) {
    out << " ";
    for (size_t k = 0; k < line.size(); ++k) {
      out << " " << line[k];
      if (k + 1 < line.size() && k < width.size())
        out << std::string(width[k] - line[k].size() + 2, ' ');
    }
    out << "\n";
  }
}

}  // namespace jobset
