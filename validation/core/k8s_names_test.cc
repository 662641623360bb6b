// Tests of the Kubernetes name and label checks and of value rendering (the names
// kubernetes-sigs/jobset@08dfbdfd derives from a JobSet, and how its webhook reports errors).
#include "validation/core/k8s_names.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "validation/core/loader.h"

namespace jobset {
namespace {

using Errors = std::vector<std::string>;

// The library texts, copied from k8s.io/apimachinery's validation messages, not from our code.
constexpr char kDns1035Format[] =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
constexpr char kDns1123SubdomainFormat[] =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
constexpr char kDns1123LabelFormat[] =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
constexpr char kLabelValueFormat[] =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
constexpr char kQualifiedNamePartFormat[] =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

// Joins errors with " | " so that a failed CHECK shows them all.
std::string Join(const Errors& errors) {
  std::string out;
  for (const std::string& e : errors) out += (out.empty() ? "" : " | ") + e;
  return out;
}

std::string Joined(std::initializer_list<std::string> errors) { return Join(Errors(errors)); }

// The first value of a one-line YAML document "v: <text>".
Node ScalarFromYaml(const std::string& text) {
  SourceFile file = ParseSource("value.yaml", "v: " + text + "\n");
  REQUIRE(file.documents.size() == 1);
  REQUIRE(file.documents[0].parsed);
  const Node* v = file.documents[0].root.Find("v");
  REQUIRE(v != nullptr);
  return *v;
}

TEST_CASE("names: DNS-1035 label length boundary 63/64") {
  CHECK(Join(DNS1035LabelErrors(std::string(63, 'a'))) == "");
  CHECK(Join(DNS1035LabelErrors(std::string(64, 'a'))) == "must be no more than 63 characters");
  // Too long and badly formed: both, length first.
  CHECK(Join(DNS1035LabelErrors(std::string(64, 'A'))) ==
        Joined({"must be no more than 63 characters", kDns1035Format}));
}

TEST_CASE("names: DNS-1035 label format, with the two-space quirk") {
  CHECK(Join(DNS1035LabelErrors("my-name")) == "");
  CHECK(Join(DNS1035LabelErrors("a")) == "");
  CHECK(Join(DNS1035LabelErrors("abc-123")) == "");
  for (const char* bad : {"", "1abc", "abc-", "-abc", "My-name", "my_name", "my.name", "a b"}) {
    CAPTURE(bad);
    CHECK(Join(DNS1035LabelErrors(bad)) == kDns1035Format);
  }
  // The library text has two spaces before "or".
  std::string text = DNS1035LabelErrors("1abc").at(0);
  CHECK(text.find("'my-name',  or 'abc-123'") != std::string::npos);
}

TEST_CASE("names: DNS-1123 subdomain length boundary 253/254") {
  CHECK(Join(DNS1123SubdomainErrors(std::string(253, 'a'))) == "");
  CHECK(Join(DNS1123SubdomainErrors(std::string(254, 'a'))) ==
        "must be no more than 253 characters");
  CHECK(Join(DNS1123SubdomainErrors(std::string(254, '_'))) ==
        Joined({"must be no more than 253 characters", kDns1123SubdomainFormat}));
}

TEST_CASE("names: DNS-1123 subdomain format") {
  for (const char* good : {"example.com", "a", "1abc", "a-b.c-d", "0.0"}) {
    CAPTURE(good);
    CHECK(Join(DNS1123SubdomainErrors(good)) == "");
  }
  for (const char* bad : {"", "Example.com", "a..b", ".a", "a.", "-a", "a-", "a_b", "a/b"}) {
    CAPTURE(bad);
    CHECK(Join(DNS1123SubdomainErrors(bad)) == kDns1123SubdomainFormat);
  }
}

TEST_CASE("names: DNS-1123 label length boundary 63/64 and format") {
  CHECK(Join(DNS1123LabelErrors(std::string(63, 'a'))) == "");
  CHECK(Join(DNS1123LabelErrors(std::string(64, 'a'))) == "must be no more than 63 characters");
  CHECK(Join(DNS1123LabelErrors("1abc")) == "");  // unlike DNS-1035, may start with a digit
  CHECK(Join(DNS1123LabelErrors("team-a")) == "");
  for (const char* bad : {"", "Team", "a.b", "-a", "a-", "a_b"}) {
    CAPTURE(bad);
    CHECK(Join(DNS1123LabelErrors(bad)) == kDns1123LabelFormat);
  }
  CHECK(Join(DNS1123LabelErrors(std::string(64, '.'))) ==
        Joined({"must be no more than 63 characters", kDns1123LabelFormat}));
}

TEST_CASE("names: label value is limited to 63 bytes") {
  CHECK(Join(LabelValueErrors("")) == "");  // empty is a valid label value
  CHECK(Join(LabelValueErrors(std::string(63, 'a'))) == "");
  CHECK(Join(LabelValueErrors(std::string(64, 'a'))) == "must be no more than 63 bytes");
  // Bytes, not characters: 32 two-byte characters are 64 bytes (and not alphanumeric).
  std::string e_acute;
  for (int i = 0; i < 32; ++i) e_acute += "\xc3\xa9";
  CHECK(Join(LabelValueErrors(e_acute)) ==
        Joined({"must be no more than 63 bytes", kLabelValueFormat}));
  // A coordinator endpoint: dots are allowed.
  CHECK(Join(LabelValueErrors("train-leader-0-0.train")) == "");
}

TEST_CASE("names: label value format") {
  for (const char* good : {"MyValue", "my_value", "12345", "a.b-c_d", "A"}) {
    CAPTURE(good);
    CHECK(Join(LabelValueErrors(good)) == "");
  }
  for (const char* bad : {"-a", "a-", "_a", "a_", ".a", "a b", "a/b", "a:b"}) {
    CAPTURE(bad);
    CHECK(Join(LabelValueErrors(bad)) == kLabelValueFormat);
  }
}

TEST_CASE("names: qualified name (label key) without prefix") {
  for (const char* good : {"app", "MyName", "my.name", "123-abc", "a_b"}) {
    CAPTURE(good);
    CHECK(Join(QualifiedNameErrors(good)) == "");
  }
  CHECK(Join(QualifiedNameErrors(std::string(63, 'a'))) == "");
  CHECK(Join(QualifiedNameErrors(std::string(64, 'a'))) ==
        "name part must be no more than 63 characters");
  CHECK(Join(QualifiedNameErrors("-bad")) == kQualifiedNamePartFormat);
  CHECK(Join(QualifiedNameErrors("bad name")) == kQualifiedNamePartFormat);
}

TEST_CASE("names: qualified name with a DNS subdomain prefix") {
  CHECK(Join(QualifiedNameErrors("example.com/name")) == "");
  CHECK(Join(QualifiedNameErrors("app.kubernetes.io/name")) == "");
  CHECK(Join(QualifiedNameErrors(std::string(253, 'a') + "/name")) == "");
  CHECK(Join(QualifiedNameErrors(std::string(254, 'a') + "/name")) ==
        "prefix part must be no more than 253 characters");
  CHECK(Join(QualifiedNameErrors("Example.com/name")) ==
        std::string("prefix part ") + kDns1123SubdomainFormat);
  CHECK(Join(QualifiedNameErrors("/name")) == "prefix part must be non-empty");
  CHECK(Join(QualifiedNameErrors("example.com/-bad")) == kQualifiedNamePartFormat);
  CHECK(Join(QualifiedNameErrors("example.com/" + std::string(64, 'a'))) ==
        "name part must be no more than 63 characters");
}

TEST_CASE("names: qualified name with more than one slash") {
  CHECK(Join(QualifiedNameErrors("a/b/c")) ==
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must "
        "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
        "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') "
        "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
}

// apimachinery's IsQualifiedName checks the regex even when the name part is empty, so an
// empty name part gives "must be non-empty" *and* the format error.
TEST_CASE("names: empty qualified name part gives both errors, as apimachinery does") {
  CHECK(Join(QualifiedNameErrors("")) ==
        Joined({"name part must be non-empty", kQualifiedNamePartFormat}));
  CHECK(Join(QualifiedNameErrors("example.com/")) ==
        Joined({"name part must be non-empty", kQualifiedNamePartFormat}));
}

TEST_CASE("names: MaxLenError") {
  CHECK(MaxLenError(63) == "must be no more than 63 characters");
  CHECK(MaxLenError(253) == "must be no more than 253 characters");
}

TEST_CASE("names: CompactJson of scalars, lists and objects") {
  CHECK(CompactJson(Node()) == "null");
  CHECK(CompactJson(Node::Bool(true)) == "true");
  CHECK(CompactJson(Node::Bool(false)) == "false");
  CHECK(CompactJson(Node::Int(-42)) == "-42");
  CHECK(CompactJson(Node::String("a\"b")) == "\"a\\\"b\"");
  Node map = Node::Map();
  map.Set("name", Node::String("workers"));
  map.Set("replicas", Node::Int(2));
  Node list = Node::Seq();
  list.items.push_back(Node::Int(1));
  list.items.push_back(Node::String("x"));
  map.Set("list", list);
  map.Set("empty", Node::Map());
  CHECK(CompactJson(map) ==
        "{\"name\":\"workers\",\"replicas\":2,\"list\":[1,\"x\"],\"empty\":{}}");
  CHECK(CompactJson(Node::Seq()) == "[]");
}

TEST_CASE("names: CompactJson keeps document key order") {
  Node v = ScalarFromYaml("{b: 1, a: [true, null, \"s\"]}");
  CHECK(CompactJson(v) == "{\"b\":1,\"a\":[true,null,\"s\"]}");
}

TEST_CASE("names: RenderValue quotes strings, leaves numbers and booleans bare") {
  CHECK(RenderValue(Node::String("Evicted")) == "\"Evicted\"");
  CHECK(RenderValue(Node::String("")) == "\"\"");
  CHECK(RenderValue(Node::Int(2147483647)) == "2147483647");
  CHECK(RenderValue(Node::Bool(false)) == "false");
  CHECK(RenderValue(Node()) == "null");
  CHECK(RenderValue(ScalarFromYaml("[a, 1]")) == "[\"a\",1]");
  CHECK(RenderValue(ScalarFromYaml("{x: z}")) == "{\"x\":\"z\"}");
  CHECK(RenderValue(ScalarFromYaml("{x: y}")) == "{\"x\":true}");  // YAML 1.1: y is a bool
  CHECK(RenderValue(ScalarFromYaml("1.5")) == "1.5");
  CHECK(RenderValue(ScalarFromYaml("\"12\"")) == "\"12\"");  // a quoted number is a string
}

// Go prints float64 values (%v and encoding/json) in their shortest form: 0.1, not
// 0.10000000000000001.
TEST_CASE("names: RenderValue prints floats in Go's shortest form") {
  CHECK(RenderValue(ScalarFromYaml("0.1")) == "0.1");
  CHECK(CompactJson(ScalarFromYaml("[0.1, 2.5]")) == "[0.1,2.5]");
}

}  // namespace
}  // namespace jobset
