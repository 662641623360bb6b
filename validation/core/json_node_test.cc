// Tests of JSON <-> Node: the bounded SAX parser, the nlohmann conversions and the serializer.
#include "validation/core/json_node.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/corpus.h"
#include "validation/core/k8s_names.h"
#include "validation/core/loader.h"

namespace jobset {
namespace {

Node Parse(std::string_view text, int max_depth = 1000) {
  Node n;
  std::string error;
  JsonParseLimits limits;
  limits.max_depth = max_depth;
  REQUIRE_MESSAGE(ParseJson(text, limits, &n, &error), error);
  return n;
}

std::string ParseError(std::string_view text, int max_depth = 1000) {
  Node n;
  std::string error;
  JsonParseLimits limits;
  limits.max_depth = max_depth;
  CHECK_FALSE(ParseJson(text, limits, &n, &error));
  return error;
}

std::string Nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

}  // namespace

TEST_CASE("json: scalars are typed as JSON says") {
  Node n = Parse(R"({"i": -42, "u": 18446744073709551615, "f": 2.50, "e": 1e3, "s": "x",
                    "t": true, "n": null, "big": 9223372036854775807})");
  REQUIRE(n.is_map());
  CHECK(n.Find("i")->is_int());
  CHECK(n.Find("i")->integer == -42);
  CHECK(n.Find("i")->text == "-42");
  CHECK(n.Find("big")->is_int());
  CHECK(n.Find("big")->integer == 9223372036854775807LL);
  // Above INT64_MAX: a float, with the digits kept as text.
  CHECK(n.Find("u")->kind == Node::Kind::kFloat);
  CHECK(n.Find("u")->text == "18446744073709551615");
  CHECK(n.Find("f")->kind == Node::Kind::kFloat);
  CHECK(n.Find("f")->number == 2.5);
  CHECK(n.Find("f")->text == "2.50");  // As written.
  CHECK(n.Find("e")->kind == Node::Kind::kFloat);
  CHECK(n.Find("e")->number == 1000);
  CHECK(n.Find("s")->is_string());
  CHECK(n.Find("t")->is_bool());
  CHECK(n.Find("t")->boolean);
  CHECK(n.Find("n")->is_null());
  CHECK(n.Find("i")->mark.line == 0);
}

TEST_CASE("json: object keys keep their order; a repeated key keeps its place and last value") {
  Node n = Parse(R"({"b": 1, "a": 2, "b": 3})");
  REQUIRE(n.entries.size() == 2);
  CHECK(n.entries[0].key == "b");
  CHECK(n.entries[0].value.integer == 3);
  CHECK(n.entries[1].key == "a");

  // Large objects take the hashed path.
  std::string text = "{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text += "\"k5\":\"last\",\"k99\":null}";
  Node big = Parse(text);
  REQUIRE(big.entries.size() == 100);
  CHECK(big.entries[5].key == "k5");
  CHECK(big.entries[5].value.text == "last");
  CHECK(big.entries[99].value.is_null());
  CHECK(big.entries[6].value.integer == 6);
}

TEST_CASE("json: nesting is bounded without recursion") {
  CHECK(Parse(Nested(1000)).is_seq());
  CHECK(ParseError(Nested(1001)) == "JSON nested deeper than 1000 levels");
  CHECK(ParseError(Nested(4), 3) == "JSON nested deeper than 3 levels");
  // 100,000 levels, as a hostile request body would have: refused, no stack overflow.
  CHECK(ParseError(std::string(100000, '[')) == "JSON nested deeper than 1000 levels");
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  CHECK(ParseError(objects) == "JSON nested deeper than 1000 levels");
}

TEST_CASE("json: syntax errors name the byte offset") {
  CHECK(ParseError("").find("invalid JSON at byte 1: parse error") == 0);
  CHECK(ParseError("{\"a\": }").find("invalid JSON at byte 7") == 0);
  CHECK(ParseError("{} x").find("invalid JSON") == 0);         // Trailing garbage.
  CHECK(ParseError("{\"a\": 1,}").find("invalid JSON") == 0);  // Strict JSON.
  CHECK(ParseError("\"\xff\"").find("invalid JSON") == 0);     // Not UTF-8.
  CHECK(ParseError("[1] // c").find("invalid JSON") == 0);     // No comments.
}

TEST_CASE("json: strings, escapes and UTF-8 as RFC 8259 says") {
  Node n = Parse(R"(["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20ac", "\ud83d\ude00", "caf)"
                 "\xc3\xa9\"]");
  REQUIRE(n.items.size() == 4);
  CHECK(n.items[0].text == "a\"b\\c/d\b\f\n\r\t");
  CHECK(n.items[1].text == "\xc3\xa9\xe2\x82\xac");
  CHECK(n.items[2].text == "\xf0\x9f\x98\x80");  // A surrogate pair: one code point.
  CHECK(n.items[3].text == "caf\xc3\xa9");       // Raw UTF-8 passes through.
  CHECK(Parse("\"caf\xc3\xa9\"").text == "caf\xc3\xa9");
  CHECK(Parse("\xEF\xBB\xBF {\"a\": 1}").Find("a")->integer == 1);  // A BOM is skipped.
  CHECK(Parse(" \t\r\n[ ] ").items.empty());
  std::string long_run(100000, 'x');
  CHECK(Parse("\"" + long_run + "\"").text == long_run);

  CHECK(ParseError(R"("\ud83d")").find("unpaired high surrogate") != std::string::npos);
  CHECK(ParseError(R"("\ude00")").find("unpaired low surrogate") != std::string::npos);
  CHECK(ParseError(R"("\u12g4")").find("4 hex digits") != std::string::npos);
  CHECK(ParseError(R"("\x")").find("invalid escape") != std::string::npos);
  CHECK(ParseError("\"a\tb\"").find("control character") != std::string::npos);
  CHECK(ParseError("\"abc").find("unexpected end of input") != std::string::npos);
  CHECK(ParseError("\"\xed\xa0\x80\"").find("invalid UTF-8") != std::string::npos);
  CHECK(ParseError("\"\xc0\xaf\"").find("invalid UTF-8") != std::string::npos);  // Overlong.
}

TEST_CASE("json: a quote, escape, control or UTF-8 byte is seen at any offset of a long run") {
  // Strings are scanned 16 bytes at a time: put each kind of special byte at every position
  // around and across those blocks, and compare with nlohmann.
  for (size_t at = 0; at < 40; ++at) {
    for (std::string special : {"\\\"", "\\n", "\xc3\xa9", "\"", "\x01", "\x7f"}) {
      std::string inner = std::string(at, 'a') + special + std::string(37 - at % 37, 'b');
      std::string text = "[\"" + inner + "\", 1]";
      Node n;
      std::string error;
      bool ok = ParseJson(text, JsonParseLimits{}, &n, &error);
      auto reference = nlohmann::json::parse(text, nullptr, false);
      INFO("at=" << at << " special=" << special);
      REQUIRE(ok == !reference.is_discarded());
      if (ok) CHECK(n.items.at(0).text == reference[0].get<std::string>());
      if (special == "\x01")
        CHECK(error.find("invalid JSON at byte " + std::to_string(at + 3)) == 0);
    }
  }
}

TEST_CASE("json: strings are written as nlohmann writes them, specials at any offset") {
  // AppendJsonString copies plain runs whole (16 bytes at a time): each special byte at every
  // position around and across those blocks, against nlohmann's dump.
  for (size_t at = 0; at < 40; ++at) {
    for (std::string special : {"\"", "\\", "\n", "\t", "\x01", "\x1f", "\xc3\xa9", "\x7f", "/"}) {
      std::string s = std::string(at, 'a') + special + std::string(37 - at % 37, 'b') + special;
      INFO("at=" << at << " special=" << special);
      std::string ours;
      AppendJsonString(s, &ours);
      CHECK(ours == nlohmann::json(s).dump());
    }
  }
  // Bytes that are not UTF-8 become U+FFFD, also after a long plain run.
  std::string ours;
  AppendJsonString(std::string(20, 'a') + "\xff" + std::string(3, 'b'), &ours);
  CHECK(ours == "\"" + std::string(20, 'a') + "\xef\xbf\xbd" + "bbb\"");
}

TEST_CASE("json: numbers as nlohmann reads them") {
  CHECK(Parse("0").integer == 0);
  CHECK(Parse("-0").is_int());
  CHECK(Parse("-9223372036854775808").integer == INT64_MIN);
  CHECK(Parse("1E+2").number == 100);
  CHECK(Parse("1e-2").text == "1e-2");
  // Beyond uint64: a float that keeps its digits.
  Node huge = Parse("123456789012345678901234567890");
  CHECK(huge.kind == Node::Kind::kFloat);
  CHECK(huge.text == "123456789012345678901234567890");
  for (const char* bad : {"01", "-", "1.", ".5", "1e", "+1", "0x10", "NaN", "Infinity", "1e400"}) {
    CAPTURE(bad);
    CHECK(ParseError(bad).find("invalid JSON at byte") == 0);
  }
  CHECK(ParseError("1e400").find("number overflow") != std::string::npos);
  CHECK(ParseError("[tru]").find("invalid JSON at byte 2") == 0);
  CHECK(ParseError("{\"a\" 1}").find("invalid JSON at byte 6") == 0);
  CHECK(ParseError("[1 2]").find("invalid JSON at byte 4") == 0);
  CHECK(ParseError("{1: 2}").find("invalid JSON at byte 2") == 0);
}

TEST_CASE("json: a deep limit costs no recursion") {
  // Deeper than a thread's stack would allow a recursive-descent parser.
  const int depth = 200'000;
  Node n = Parse(Nested(depth), depth);
  int seen = 0;
  for (const Node* p = &n; p->is_seq(); p = &p->items[0]) {
    ++seen;
    if (p->items.empty()) break;
  }
  CHECK(seen == depth);
  // ~Node recurses, so take the chain apart from the top.
  while (!n.items.empty()) {
    Node next = std::move(n.items[0]);
    n = std::move(next);
  }
}

namespace {

/// Differential: every document of every manifest under `root`, as JSON text, parsed by us
/// and by nlohmann.
void CompareWithNlohmann(const std::string& root) {
  namespace fs = std::filesystem;
  int compared = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().extension() != ".yaml") continue;
    SourceFile file;
    std::string error;
    REQUIRE(LoadFile(e.path().string(), LoadLimits{}, &file, &error));
    for (const Document& doc : file.documents) {
      if (!doc.parsed) continue;
      std::string text = NodeToJsonText(doc.root);
      nlohmann::ordered_json reference = nlohmann::ordered_json::parse(text);
      CHECK(Parse(text) == JsonToNode(reference));
      std::string pretty = reference.dump(2);  // Whitespace everywhere, escapes of its own.
      CHECK(Parse(pretty) == JsonToNode(reference));
      ++compared;
    }
  }
  CHECK(compared > 20);
}

}  // namespace

TEST_CASE("json: the same trees as nlohmann's parser, on every JobSet of examples/") {
  CompareWithNlohmann(JOBSET_SOURCE_DIR "/examples");
}

TEST_CASE("json: the same trees as nlohmann's parser, on every JobSet of the corpus" *
          doctest::test_suite("corpus")) {
  const std::string corpus = CorpusOrSkip();
  if (!corpus.empty()) CompareWithNlohmann(corpus + "/jobset/examples");
}

TEST_CASE("json: nlohmann values convert both ways") {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(
      R"({"z": [1, -2.5, "s", true, null, {"y": {}}], "a": 18446744073709551615})");
  Node n = JsonToNode(j);
  REQUIRE(n.is_map());
  CHECK(n.entries[0].key == "z");  // Order kept.
  CHECK(n.Find("z")->items[1].kind == Node::Kind::kFloat);
  CHECK(n.Find("z")->items[5].Find("y")->is_map());
  CHECK(n.Find("a")->kind == Node::Kind::kFloat);
  CHECK(NodeToJson(n).dump() ==
        R"({"z":[1,-2.5,"s",true,null,{"y":{}}],"a":1.8446744073709552e+19})");

  // Plain (sorted) nlohmann::json sorts keys.
  Node sorted = JsonToNode(nlohmann::json::parse(R"({"b": 1, "a": {"d": [], "c": 0}})"));
  CHECK(sorted.entries[0].key == "a");
  CHECK(CompactJson(sorted) == R"({"a":{"c":0,"d":[]},"b":1})");

  // Round trip of a parsed document through nlohmann and back.
  Node doc = Parse(R"({"k": [{"x": 1}, [], {}], "s": "é\n"})");
  CHECK(JsonToNode(NodeToJson(doc)) == doc);
}

TEST_CASE("json: a YAML document converts to JSON with its types") {
  SourceFile file = ParseSource("t.yaml", "a: 1\nb: 1.5\nc: yes\nd: ~\ne: [x, '2']\n");
  REQUIRE(file.documents.size() == 1);
  CHECK(NodeToJsonText(file.documents[0].root) ==
        R"({"a":1,"b":1.5,"c":true,"d":null,"e":["x","2"]})");
}

TEST_CASE("json: NodeToJsonText always writes valid JSON") {
  Node n = Node::Map();
  n.Set("s", Node::String(std::string("q\"b\\\x01\t\xc3\xa9\xff", 9)));
  n.Set("nan", [] {
    Node f;
    f.kind = Node::Kind::kFloat;
    f.number = 0.0 / 0.0;
    return f;
  }());
  n.Set("f", [] {
    Node f;
    f.kind = Node::Kind::kFloat;
    f.number = 0.1;
    return f;
  }());
  std::string text = NodeToJsonText(n);
  CHECK(text == "{\"s\":\"q\\\"b\\\\\\u0001\\t\xc3\xa9\xef\xbf\xbd\",\"nan\":null,\"f\":0.1}");
  CHECK(nlohmann::json::accept(text));
  // Overlong encodings and surrogates are not UTF-8 either.
  CHECK(NodeToJsonText(Node::String("\xc0\xaf")) == "\"\xef\xbf\xbd\xef\xbf\xbd\"");
  CHECK(NodeToJsonText(Node::String("\xed\xa0\x80")) == "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
  CHECK(NodeToJsonText(Node::String("\xf0\x9f\x98\x80")) == "\"\xf0\x9f\x98\x80\"");
}

TEST_CASE("json: parse and serialize round-trip") {
  const char* text = R"({"apiVersion":"v1","items":[1,2.5,"x",false,null,{"a":{"b":[[]]}}]})";
  CHECK(NodeToJsonText(Parse(text)) == text);
}

}  // namespace jobset
