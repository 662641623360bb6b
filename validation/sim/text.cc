#include "validation/sim/text.h"

namespace jobset {

std::string QuoteGo(std::string_view s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  q += '"';
  return q;
}

}  // namespace jobset
