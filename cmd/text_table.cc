#include "cmd/text_table.h"

#include <algorithm>
#include <ostream>

namespace jobset {
namespace {

struct Range {
  char32_t first, last;
};

// Combining marks (general categories Mn, Me) of the common scripts, and zero-width
// characters (ZWSP, ZWNJ, ZWJ, LRM, RLM, word joiner, variation selectors, BOM).
constexpr Range kZeroWidth[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF}, {0x05C1, 0x05C2},
    {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A}, {0x064B, 0x065F}, {0x0670, 0x0670},
    {0x06D6, 0x06DC}, {0x06DF, 0x06E4}, {0x06E7, 0x06E8}, {0x06EA, 0x06ED}, {0x0900, 0x0902},
    {0x093A, 0x093A}, {0x093C, 0x093C}, {0x0941, 0x0948}, {0x094D, 0x094D}, {0x0951, 0x0957},
    {0x0962, 0x0963}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E}, {0x1AB0, 0x1AFF},
    {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0x302A, 0x302D},
    {0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

// East Asian Wide (W) and Fullwidth (F) blocks, and the emoji blocks terminals draw wide.
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x26A1, 0x26A1},   {0x26AA, 0x26AB},   {0x26BD, 0x26BE},
    {0x26C4, 0x26C5},   {0x26CE, 0x26CE},   {0x26D4, 0x26D4},   {0x26EA, 0x26EA},
    {0x26F2, 0x26F3},   {0x26F5, 0x26F5},   {0x26FA, 0x26FA},   {0x26FD, 0x26FD},
    {0x2705, 0x2705},   {0x270A, 0x270B},   {0x2728, 0x2728},   {0x274C, 0x274C},
    {0x274E, 0x274E},   {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},
    {0x27B0, 0x27B0},   {0x27BF, 0x27BF},   {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},
    {0x2B55, 0x2B55},   {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},
    {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xA960, 0xA97F},   {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},
    {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF},
    {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A},
    {0x1F200, 0x1F251}, {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB},
    {0x1F90C, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

template <size_t N>
bool In(const Range (&table)[N], char32_t c) {
  return std::any_of(std::begin(table), std::end(table),
                     [c](const Range& r) { return c >= r.first && c <= r.last; });
}

// Decodes the UTF-8 sequence at `text[*i]` and advances `*i`; false (one byte consumed) when the
// bytes there are not a valid, shortest encoding of a code point.
bool Decode(std::string_view text, size_t* i, char32_t* out) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(*i);
  size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || *i + len > text.size()) {
    ++*i;
    return false;
  }
  char32_t c = len == 1 ? b : b & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    if ((byte(*i + k) & 0xC0) != 0x80) {
      ++*i;
      return false;
    }
    c = (c << 6) | (byte(*i + k) & 0x3F);
  }
  static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kMin[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
    ++*i;
    return false;
  }
  *i += len;
  *out = c;
  return true;
}

int CodePointWidth(char32_t c) {
  if (c < 0x20 || (c >= 0x7F && c < 0xA0)) return 0;
  if (In(kZeroWidth, c)) return 0;
  return In(kWide, c) ? 2 : 1;
}

}  // namespace

size_t DisplayWidth(std::string_view text) {
  size_t width = 0;
  for (size_t i = 0; i < text.size();) {
    char32_t c = 0;
    width += Decode(text, &i, &c) ? static_cast<size_t>(CodePointWidth(c)) : 1;
  }
  return width;
}

std::string MarkdownCell(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    switch (text[i]) {
      case '\\':
      case '|':
        out += '\\';
        out += text[i];
        break;
      case '<':  // would open an HTML tag that swallows the rest of the cell
        out += "&lt;";
        break;
      case '\r':
        if (i + 1 < text.size() && text[i + 1] == '\n') break;  // CRLF: one break
        out += "<br>";
        break;
      case '\n':
        out += "<br>";
        break;
      default:
        out += text[i];
    }
  }
  return out;
}

void PrintTable(const std::vector<std::vector<std::string>>& table, bool markdown,
                std::ostream& out) {
  if (table.empty()) return;
  if (markdown) {
    for (size_t i = 0; i < table.size(); ++i) {
      out << "|";
      for (const std::string& cell : table[i])
        out << " " << (i ? MarkdownCell(cell) : "**" + MarkdownCell(cell) + "**") << " |";
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
      width[k] = std::max(width[k], DisplayWidth(line[k]));
  for (const auto& line : table) {
    out << " ";
    for (size_t k = 0; k < line.size(); ++k) {
      out << " " << line[k];
      if (k + 1 < line.size() && k < width.size())
        out << std::string(width[k] - DisplayWidth(line[k]) + 2, ' ');
    }
    out << "\n";
  }
}

}  // namespace jobset
