#include "validation/core/fast_yaml.h"

#include <string>
#include <vector>

namespace jobset {
namespace {

// Deeper documents are rare and go to yaml-cpp, which enforces the loader's depth limit.
constexpr int kMaxDepth = 64;

bool IsNullText(std::string_view v) {
  return v == "~" || v == "null" || v == "Null" || v == "NULL";
}

// Characters that cannot start a plain scalar (YAML 1.2 c-indicator), except that '-', '?' and
// ':' can when a non-space follows.
bool PlainStartOk(std::string_view line, size_t c, bool flow) {
  char ch = line[c];
  if (flow && ch == '?') return false;
  if (ch == '-' || ch == '?' || ch == ':') {
    if (c + 1 >= line.size()) return false;
    char next = line[c + 1];
    if (next == ' ') return false;
    if (flow && (next == ',' || next == '[' || next == ']' || next == '{' || next == '}')) {
      return false;
    }
    return true;
  }
  static constexpr std::string_view kIndicators = ",[]{}#&*!|>'\"%@`";
  return kIndicators.find(ch) == std::string_view::npos;
}

/// The parser: a cursor over the document's lines, sending events as it goes.
class FastParser {
 public:
  FastParser(std::string_view text, YAML::EventHandler* handler) : text_(text), h_(handler) {}

  bool Run() {
    for (char ch : text_) {
      unsigned char u = static_cast<unsigned char>(ch);
      if (ch == '\t' || ch == '\r' || u >= 0x80 || u == 0 || (u < 0x20 && ch != '\n')) {
        return false;
      }
    }
    size_t start = 0;
    for (size_t i = 0; i <= text_.size(); ++i) {
      if (i == text_.size() || text_[i] == '\n') {
        lines_.push_back(text_.substr(start, i - start));
        starts_.push_back(start);
        start = i + 1;
      }
    }
    for (size_t i = 0; i < lines_.size(); ++i) {
      std::string_view l = lines_[i];
      if (l.substr(0, 3) == "..." || (!l.empty() && l[0] == '%')) return false;
      if (l.substr(0, 3) == "---") {
        // Only the chunk's own document marker, with nothing but a comment after it.
        if (i != 0) return false;
        size_t c = 3;
        while (c < l.size() && l[c] == ' ') ++c;
        if (c < l.size() && !(l[c] == '#' && c > 3)) return false;
      }
    }
    h_->OnDocumentStart(MarkAt(0, 0));
    size_t first = NextContent(lines_[0].substr(0, 3) == "---" ? 1 : 0);
    if (first == lines_.size()) return false;
    li_ = first;
    col_ = Indent(first);
    if (!BlockNode()) return false;
    if (li_ != lines_.size()) return false;
    h_->OnDocumentEnd();
    return true;
  }

 private:
  YAML::Mark MarkAt(size_t line, size_t col) const {
    YAML::Mark m;
    m.pos = static_cast<int>(starts_[line] + col);
    m.line = static_cast<int>(line);
    m.column = static_cast<int>(col);
    return m;
  }
  // Where yaml-cpp puts an implicit null: at the next token. At the end of the text that is
  // the first block-end token: at the end of the last line when it closes a collection
  // indented deeper than that line is long (or a sequence exactly as deep), else in column 0.
  YAML::Mark NextTokenMark(size_t line) const {
    if (line < lines_.size()) return MarkAt(line, Indent(line));
    size_t col = lines_.back().size();
    bool closes_here = false;
    for (const Open& o : open_) {
      closes_here = closes_here || o.indent > col || (o.seq && o.indent == col);
    }
    YAML::Mark m;
    m.pos = static_cast<int>(text_.size());
    m.line = static_cast<int>(lines_.size() - 1);
    m.column = closes_here ? static_cast<int>(col) : 0;
    return m;
  }

  size_t Indent(size_t line) const {
    std::string_view l = lines_[line];
    size_t i = 0;
    while (i < l.size() && l[i] == ' ') ++i;
    return i;
  }
  bool Blank(size_t line) const {
    size_t i = Indent(line);
    return i == lines_[line].size() || lines_[line][i] == '#';
  }
  // The first line at or after `line` with content (not blank, not only a comment).
  size_t NextContent(size_t line) const {
    while (line < lines_.size() && Blank(line)) ++line;
    return line;
  }
  bool SeqItemAt(size_t line, size_t col) const {
    std::string_view l = lines_[line];
    return col < l.size() && l[col] == '-' && (col + 1 == l.size() || l[col + 1] == ' ');
  }
  std::string_view Line() const { return lines_[li_]; }
  char Cur() const { return col_ < Line().size() ? Line()[col_] : '\n'; }
  void SkipSpaces() {
    while (col_ < Line().size() && Line()[col_] == ' ') ++col_;
  }

  // A quoted scalar on one line starting at col_; leaves col_ after the closing quote.
  bool Quoted(std::string* out) {
    std::string_view l = Line();
    char q = l[col_];
    size_t i = col_ + 1;
    out->clear();
    while (true) {
      if (i >= l.size()) return false;  // multi-line: yaml-cpp folds it
      char ch = l[i];
      if (q == '"' && ch == '\\') return false;  // escapes: yaml-cpp decodes them
      if (ch == q) {
        if (q == '\'' && i + 1 < l.size() && l[i + 1] == '\'') {
          out->push_back('\'');
          i += 2;
          continue;
        }
        col_ = i + 1;
        return true;
      }
      out->push_back(ch);
      ++i;
    }
  }

  // A mapping key at (li_, col_): a plain or quoted scalar followed by ':' and a space or the
  // end of the line. On success the key is sent, col_ is after the ':'.
  bool KeyAt(bool emit) {
    std::string_view l = Line();
    size_t c = col_;
    std::string key;
    bool quoted = l[c] == '"' || l[c] == '\'';
    size_t end;
    if (quoted) {
      size_t saved = col_;
      if (!Quoted(&key)) return false;
      end = col_;
      col_ = saved;
      if (end >= l.size() || l[end] != ':') return false;
    } else {
      if (!PlainStartOk(l, c, false)) return false;
      end = c;
      while (true) {
        if (end >= l.size()) return false;
        if (l[end] == ':' && (end + 1 == l.size() || l[end + 1] == ' ')) break;
        if (l[end] == '#' && l[end - 1] == ' ') return false;
        ++end;
      }
    }
    if (end + 1 < l.size() && l[end + 1] != ' ') return false;
    if (emit) {
      if (quoted) {
        h_->OnScalar(MarkAt(li_, c), "!", 0, key);
      } else {
        Plain(l, c, end);
      }
      col_ = end + 1;
    }
    return true;
  }

  // Sends the plain scalar written in l[c, end), trailing spaces dropped; yaml-cpp reports
  // `~`, `null`, `Null` and `NULL` as nulls.
  void Plain(std::string_view l, size_t c, size_t end) {
    while (end > c && l[end - 1] == ' ') --end;
    std::string_view v = l.substr(c, end - c);
    if (IsNullText(v)) {
      h_->OnNull(MarkAt(li_, c), 0);
    } else {
      h_->OnScalar(MarkAt(li_, c), "?", 0, std::string(v));
    }
  }

  // A block node at (li_, col_): a mapping or a sequence.
  bool BlockNode() {
    if (SeqItemAt(li_, col_)) return BlockSeq(col_);
    if (KeyAt(false)) return BlockMap(col_);
    return false;
  }

  bool Enter() { return ++depth_ <= kMaxDepth; }

  bool BlockMap(size_t indent) {
    if (!Enter()) return false;
    open_.push_back({indent, false});
    h_->OnMapStart(MarkAt(li_, indent), "?", 0, YAML::EmitterStyle::Block);
    while (true) {
      if (!KeyAt(true)) return false;
      SkipSpaces();
      if (Cur() == '\n' || Cur() == '#') {
        size_t next = NextContent(li_ + 1);
        if (next < lines_.size() && Indent(next) > indent) {
          li_ = next;
          col_ = Indent(next);
          if (!BlockNode()) return false;
        } else if (next < lines_.size() && Indent(next) == indent && SeqItemAt(next, indent)) {
          li_ = next;
          col_ = indent;
          if (!BlockSeq(indent)) return false;
        } else {
          h_->OnNull(NextTokenMark(next), 0);
          li_ = next;
        }
      } else if (!InlineValue(indent)) {
        return false;
      }
      if (li_ == lines_.size()) break;
      size_t ind = Indent(li_);
      if (ind < indent) break;
      if (ind > indent || SeqItemAt(li_, ind)) return false;
      col_ = ind;
    }
    h_->OnMapEnd();
    open_.pop_back();
    --depth_;
    return true;
  }

  bool BlockSeq(size_t indent) {
    if (!Enter()) return false;
    open_.push_back({indent, true});
    h_->OnSequenceStart(MarkAt(li_, indent), "?", 0, YAML::EmitterStyle::Block);
    while (true) {
      col_ = indent + 1;
      SkipSpaces();
      if (Cur() == '\n' || Cur() == '#') {
        size_t next = NextContent(li_ + 1);
        if (next == lines_.size() || Indent(next) <= indent) return false;  // a null item
        li_ = next;
        col_ = Indent(next);
        if (!BlockNode()) return false;
      } else if (SeqItemAt(li_, col_)) {
        return false;  // "- - x"
      } else if (KeyAt(false)) {
        if (!BlockMap(col_)) return false;
      } else if (!InlineValue(indent)) {
        return false;
      }
      if (li_ == lines_.size()) break;
      size_t ind = Indent(li_);
      if (ind < indent) break;
      if (ind > indent) return false;
      if (!SeqItemAt(li_, ind)) break;  // the next key of the mapping holding this sequence
    }
    h_->OnSequenceEnd();
    open_.pop_back();
    --depth_;
    return true;
  }

  // A value that starts on the key's (or the dash's) line at col_. Afterwards the cursor is at
  // the next line with content; `indent` is the holding node's, which a continuation line
  // would exceed.
  bool InlineValue(size_t indent) {
    std::string_view l = Line();
    char ch = Cur();
    size_t c = col_;
    if (ch == '|') return Literal(indent);
    if (ch == '[' || ch == '{') {
      if (!Flow()) return false;
    } else if (ch == '"' || ch == '\'') {
      std::string v;
      if (!Quoted(&v)) return false;
      h_->OnScalar(MarkAt(li_, c), "!", 0, v);
    } else {
      if (!PlainStartOk(l, c, false)) return false;
      size_t end = c;
      while (end < l.size() && !(l[end] == '#' && l[end - 1] == ' ')) {
        if (l[end] == ':' && (end + 1 == l.size() || l[end + 1] == ' ')) return false;
        ++end;
      }
      Plain(l, c, end);
      col_ = end;
    }
    // Only spaces and a comment (after a space) may follow on the line.
    SkipSpaces();
    if (Cur() != '\n' && !(Cur() == '#' && Line()[col_ - 1] == ' ')) return false;
    size_t next = NextContent(li_ + 1);
    if (next < lines_.size() && Indent(next) > indent) return false;  // a continuation line
    li_ = next;
    return true;
  }

  // A literal block scalar (`|`, `|-`, `|+`) whose header is at col_.
  bool Literal(size_t indent) {
    std::string_view l = Line();
    YAML::Mark mark = MarkAt(li_, col_);
    size_t c = col_ + 1;
    char chomp = 'c';
    if (c < l.size() && (l[c] == '-' || l[c] == '+')) chomp = l[c++];
    size_t after = c;
    while (c < l.size() && l[c] == ' ') ++c;
    if (c < l.size() && !(l[c] == '#' && c > after)) return false;
    size_t first = li_ + 1;
    if (first >= lines_.size() || Indent(first) == lines_[first].size()) return false;
    size_t n = Indent(first);
    if (n <= indent) return false;
    std::string value;
    size_t pending = 0;  // empty lines not yet known to be inside the text
    size_t line = first;
    for (; line < lines_.size(); ++line) {
      std::string_view t = lines_[line];
      size_t ind = Indent(line);
      if (ind == t.size()) {
        if (t.size() > n) return false;  // spaces past the indentation are text: rare
        ++pending;
        continue;
      }
      if (ind < n) break;
      value.append(pending, '\n');
      pending = 0;
      value.append(t.substr(n));
      // The last line of the text without a line break: yaml-cpp keeps it unterminated.
      if (line + 1 == lines_.size()) return false;
      value.push_back('\n');
    }
    // Trailing empty lines: the last line of the file is the empty text after a final '\n'.
    if (line == lines_.size() && pending > 0) --pending;
    if (chomp == '-') {
      value.pop_back();
    } else if (chomp == '+') {
      value.append(pending, '\n');
    }
    size_t next = NextContent(line);
    if (next < lines_.size() && Indent(next) > indent) return false;
    h_->OnScalar(mark, "!", 0, value);
    li_ = next;
    return true;
  }

  // A flow collection that opens and closes on this line; col_ ends after it.
  bool Flow() {
    if (!Enter()) return false;
    std::string_view l = Line();
    char open = l[col_];
    bool map = open == '{';
    char close = map ? '}' : ']';
    if (map) {
      h_->OnMapStart(MarkAt(li_, col_), "?", 0, YAML::EmitterStyle::Flow);
    } else {
      h_->OnSequenceStart(MarkAt(li_, col_), "?", 0, YAML::EmitterStyle::Flow);
    }
    ++col_;
    SkipSpaces();
    if (Cur() == close) {
      ++col_;
    } else {
      while (true) {
        if (map) {
          if (!FlowScalar(true)) return false;
          if (Cur() != ':' || col_ + 1 >= l.size() || l[col_ + 1] != ' ') return false;
          ++col_;
          SkipSpaces();
        }
        if (!FlowItem()) return false;
        SkipSpaces();
        if (Cur() == ',') {
          ++col_;
          SkipSpaces();
          if (Cur() == close) return false;  // a trailing comma
          continue;
        }
        if (Cur() != close) return false;
        ++col_;
        break;
      }
    }
    if (map) {
      h_->OnMapEnd();
    } else {
      h_->OnSequenceEnd();
    }
    --depth_;
    return true;
  }

  bool FlowItem() {
    char ch = Cur();
    if (ch == '[' || ch == '{') return Flow();
    if (!FlowScalar(false)) return false;
    return Cur() != ':';  // "[a: b]" is a one-pair mapping
  }

  // A scalar inside a flow collection; col_ ends after it (and its trailing spaces).
  bool FlowScalar(bool key) {
    std::string_view l = Line();
    size_t c = col_;
    if (Cur() == '"' || Cur() == '\'') {
      std::string v;
      if (!Quoted(&v)) return false;
      h_->OnScalar(MarkAt(li_, c), "!", 0, v);
      SkipSpaces();
      return !key || Cur() == ':';
    }
    if (c >= l.size() || !PlainStartOk(l, c, true)) return false;
    size_t end = c;
    // yaml-cpp ends a plain scalar in a flow at one of ",?[]{}", or at a ':' followed by a
    // space, the end of the line or one of ",]}" (so "s3://bucket" is one scalar).
    while (end < l.size()) {
      char ch = l[end];
      if (ch == ',' || ch == '?' || ch == '[' || ch == ']' || ch == '{' || ch == '}') break;
      if (ch == ':' && (end + 1 == l.size() || l[end + 1] == ' ' || l[end + 1] == ',' ||
                        l[end + 1] == ']' || l[end + 1] == '}')) {
        break;
      }
      if (ch == '#' && l[end - 1] == ' ') return false;
      ++end;
    }
    if (end >= l.size() || l[end] == '?') return false;
    Plain(l, c, end);
    col_ = end;
    return true;
  }

  std::string_view text_;
  YAML::EventHandler* h_;
  std::vector<std::string_view> lines_;  // without their '\n'; the last may be empty
  std::vector<size_t> starts_;           // byte offset of each line
  size_t li_ = 0;                        // the cursor: line ...
  size_t col_ = 0;                       // ... and column
  int depth_ = 0;
  struct Open {
    size_t indent;
    bool seq;
  };
  std::vector<Open> open_;  // the block collections being read, outermost first
};

}  // namespace

bool FastParseYaml(std::string_view text, YAML::EventHandler* handler) {
  return FastParser(text, handler).Run();
}

}  // namespace jobset
