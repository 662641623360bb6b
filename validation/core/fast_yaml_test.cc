#include "validation/core/fast_yaml.h"

#include <doctest/doctest.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/corpus.h"
#include "tests/test_size.h"

namespace jobset {
namespace {

// Every event with its mark, as text, so two parsers can be compared line by line.
class Recorder : public YAML::EventHandler {
 public:
  std::vector<std::string> events;

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { Add("null", m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { Add("alias", m); }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t,
                const std::string& value) override {
    Add("scalar " + tag + " [" + value + "]", m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    Add("seq " + tag, m);
  }
  void OnSequenceEnd() override { events.push_back("end seq"); }
  void OnMapStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    Add("map " + tag, m);
  }
  void OnMapEnd() override { events.push_back("end map"); }

 private:
  void Add(const std::string& what, const YAML::Mark& m) {
    events.push_back(what + " @" + std::to_string(m.line) + ":" + std::to_string(m.column) + "+" +
                     std::to_string(m.pos));
  }
};

// yaml-cpp's events for the first document of `text`; false when yaml-cpp rejects it.
bool YamlCppEvents(const std::string& text, std::vector<std::string>* out) {
  std::istringstream in(text);
  Recorder r;
  try {
    YAML::Parser parser(in);
    if (!parser.HandleNextDocument(r)) return false;
  } catch (const YAML::Exception&) {
    return false;
  }
  *out = std::move(r.events);
  return true;
}

enum class Verdict { kFallback, kSame, kDifferent };

// Runs the fast path on `text`; when it accepts, compares its events with yaml-cpp's.
Verdict Compare(const std::string& text, std::string* diff = nullptr) {
  Recorder fast;
  if (!FastParseYaml(text, &fast)) return Verdict::kFallback;
  std::vector<std::string> slow;
  if (!YamlCppEvents(text, &slow)) {
    if (diff) *diff = "yaml-cpp rejects what the fast path accepted";
    return Verdict::kDifferent;
  }
  if (fast.events == slow) return Verdict::kSame;
  if (diff) {
    for (size_t i = 0; i < std::max(fast.events.size(), slow.size()); ++i) {
      std::string f = i < fast.events.size() ? fast.events[i] : "(none)";
      std::string s = i < slow.size() ? slow[i] : "(none)";
      if (f != s) {
        *diff = "event " + std::to_string(i) + ": fast " + f + ", yaml-cpp " + s;
        break;
      }
    }
  }
  return Verdict::kDifferent;
}

// The documents of a file, split where the loader splits them (a `---` line).
std::vector<std::string> Chunks(const std::string& text) {
  std::vector<std::string> out;
  size_t begin = 0, pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::string_view line = std::string_view(text).substr(pos, eol - pos);
    bool marker = line.substr(0, 3) == "---" &&
                  (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
    if (pos != begin && marker) {
      out.push_back(text.substr(begin, pos - begin));
      begin = pos;
    }
    pos = eol + 1;
  }
  out.push_back(text.substr(begin));
  return out;
}

}  // namespace

TEST_CASE("fast yaml: the manifest subset gives yaml-cpp's events and marks") {
  const char* cases[] = {
      "a: b\n",
      "---\n# c\napiVersion: v1   # trailing\nkind: \"JobSet\"\nmetadata:\n  name: 'x'\n",
      "--- # a comment on the marker\na: 1\n",
      "a:\n  b:\nc: x\n",           // an empty value before a dedent
      "a: 1\nb:\n",                 // ... and at the end of the text
      "a: 1\nb:   # c",             // ... which has no line break
      "a: 1\nb:\n\n\n",             // ... or empty lines
      "list:\n- a:\n- b\n",         // an empty value before the next item
      "a:\n  - x\n  - y\nb: 1\n",   // an indented sequence
      "a:\n- x\n- y\nb: 1\n",       // an indentless one
      "l:\n- b: c\n  d: e\n- f\n",  // compact mappings in a sequence
      "l:\n-   b: c\n    d: e\n",   // ... with more spaces after the dash
      "l:\n-\n  b: c\n",            // an item on the next line
      "k: 'it''s'\nq: \"x y\" # c\n",
      "'quoted key': 1\n\"dq\": 2\n",
      "n: ~\nm: null\nN: Null\nkey : spaced\n",
      "n: -1\nm: --steps=1000\nu: http://x:80/y\np: a#b\n",
      "labels: {a: b, c.d/e: \"f\", n: {x: [1, 2]}}\nl: [1, \"2\", x, {}, []]\ne: {}\n",
      "f: [ a , b ]\ng: { a: b }\nh: [null, ~]\n",
      "- {name: URL, value: s3://bucket/run}\n- [a:b, http://x:1]\n",
      "s: |\n  echo hi\n    indented\n\n  end\nt: |-\n  a\nu: |+\n  x\n\nv: 1\n",
      "s: |\n  x\n",
      "s: |   # a comment\n  x\n",
      "- |\n  in a sequence\n- x\n",
      "a:\n  b:\n    c:\n      d: [x]\n# closing comment\n",
      "  indented: root\n  second: 2\n",
      "dup: 1\ndup: 2\n",
      "pattern: '(?i)preempt(ed|ion)'\nfield: metadata.annotations['x']\n",
  };
  for (const char* text : cases) {
    CAPTURE(text);
    std::string diff;
    CHECK_MESSAGE(Compare(text, &diff) == Verdict::kSame, diff);
  }
}

TEST_CASE("fast yaml: everything else is left to yaml-cpp") {
  const char* cases[] = {
      "a: &x 1\nb: *x\n",        // anchors and aliases
      "a: !!str 1\n",            // tags
      "a: b\n  c\n",             // a multi-line plain scalar
      "a:\n  b\n",               // a scalar on the next line
      "a: [1,\n  2]\n",          // a multi-line flow collection
      "a: >\n  folded\n",        // folded block scalars
      "a: |2\n   x\n",           // indentation indicators
      "a: \"x\\ny\"\n",          // escapes
      "a: 'x\n  y'\n",           // multi-line quoted scalars
      "a:\tb\n",                 // tabs
      "a: caf\xC3\xA9\n",        // non-ASCII text (columns count differently)
      "a: b\r\n",                // CRLF
      "- - x\n",                 // nested inline sequences
      "l:\n-\n",                 // an empty item
      "? complex\n: key\n",      // complex keys
      "a: b: c\n",               // not YAML
      "a: [x, ]\n",              // a trailing comma
      "a: [x?y]\n",              // '?' inside a flow scalar
      "a: {b}\n",                // a flow key without a value
      "%YAML 1.2\n---\na: 1\n",  // directives
      "a: 1\n...\n",             // document end markers
      "just a scalar\n",         // a scalar document
      "{a: 1}\n",                // a flow root (JSON)
      "s: |\n  x",               // a block scalar without a final line break
      "s: |\n\n  x\n",           // ... or with leading empty lines
  };
  for (const char* text : cases) {
    CAPTURE(text);
    CHECK(Compare(text) == Verdict::kFallback);
  }
  // Deep nesting goes to yaml-cpp, which enforces the loader's depth limit.
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += std::string(i * 2, ' ') + "k:\n";
  deep += std::string(200, ' ') + "k: v\n";
  CHECK(Compare(deep) == Verdict::kFallback);
}

namespace {

/// Every YAML document under `roots`, parsed by the fast path and by yaml-cpp: the same trees,
/// or a fallback; and the fast path takes most of them.
void CompareFiles(std::vector<std::string> roots) {
  namespace fs = std::filesystem;
  // FAST_YAML_DIR=dir adds a directory (e.g. the lint benchmark's generated files).
  if (const char* extra = std::getenv("FAST_YAML_DIR")) roots.push_back(extra);
  size_t chunks = 0, same = 0;
  for (const std::string& root : roots) {
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      for (const std::string& chunk : Chunks(text)) {
        ++chunks;
        std::string diff;
        Verdict v = Compare(chunk, &diff);
        CHECK_MESSAGE(v != Verdict::kDifferent, e.path().string() << ": " << diff);
        same += v == Verdict::kSame;
      }
    }
  }
  MESSAGE("fast path took " << same << " of " << chunks << " documents");
  // Most real manifests are in the subset: the fast path must not quietly hand them all back.
  CHECK(same * 10 >= chunks * 7);
}

/// 20,000 random damages of the first document of each manifest under `roots`.
void CompareDamaged(const std::vector<std::string>& roots) {
  // Mutations around YAML's indicators reach the corners of the subset (empty values at the end
  // of the text, ':' inside scalars, broken quotes and flows). A fixed seed keeps it repeatable.
  namespace fs = std::filesystem;
  std::vector<std::string> seeds;
  for (const std::string& root : roots) {
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (!e.is_regular_file() || e.path().extension() != ".yaml") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      seeds.push_back(Chunks(text)[0].substr(0, 1200));
    }
  }
  REQUIRE(seeds.size() > 10);
  const std::string alphabet = " :-#'\"[]{}|\n,?~&*!>ab1";
  std::mt19937 rng(20261126);
  size_t accepted = 0;
  const int trials = RandomTrials(20000);
  for (int i = 0; i < trials; ++i) {
    std::string text = seeds[rng() % seeds.size()];
    for (int k = 1 + rng() % 4; k > 0 && !text.empty(); --k) {
      size_t at = rng() % text.size();
      char ch = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), ch);
          break;
        case 1:
          text.erase(text.begin() + static_cast<std::ptrdiff_t>(at));
          break;
        default:
          text[at] = ch;
      }
    }
    std::string diff;
    Verdict v = Compare(text, &diff);
    accepted += v != Verdict::kFallback;
    if (v == Verdict::kDifferent) {
      FAIL_CHECK(diff << "\n" << text);
      break;
    }
  }
  MESSAGE("fast path took " << accepted << " of " << trials << " damaged documents");
  CHECK(accepted > trials / 10);
}

}  // namespace

TEST_CASE("fast yaml: the examples and the fixtures, compared with yaml-cpp") {
  CompareFiles({JOBSET_SOURCE_DIR "/examples", JOBSET_SOURCE_DIR "/tests/fixtures"});
}

TEST_CASE("fast yaml: the upstream corpus, compared with yaml-cpp" *
          doctest::test_suite("corpus")) {
  const std::string corpus = CorpusOrSkip();
  if (!corpus.empty()) CompareFiles({corpus});
}

TEST_CASE("fast yaml: randomly damaged examples still agree with yaml-cpp, or fall back") {
  CompareDamaged({JOBSET_SOURCE_DIR "/examples"});
}

TEST_CASE("fast yaml: randomly damaged corpus manifests still agree with yaml-cpp, or fall back" *
          doctest::test_suite("corpus")) {
  const std::string corpus = CorpusOrSkip();
  if (!corpus.empty()) CompareDamaged({corpus + "/jobset/examples", JOBSET_SOURCE_DIR "/examples"});
}

}  // namespace jobset
