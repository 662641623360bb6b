#include "validation/core/yaml_emit.h"

#include <doctest/doctest.h>

#include "validation/core/json_node.h"
#include "validation/core/loader.h"

namespace jobset {

namespace {

// `node` written and read back by our loader (yaml-cpp's YAML 1.1 reading, as kubectl's).
Node RoundTrip(const Node& node) {
  SourceFile f = ParseSource("t.yaml", NodeToYaml(node));
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return f.documents[0].root;
}

}  // namespace

TEST_CASE("yaml emit: block style, keys in order, sequences at their key's indentation") {
  Node root = Node::Map();
  root.Set("kind", Node::String("Job"));
  Node& meta = root.Set("metadata", Node::Map());
  meta.Set("name", Node::String("js-workers-0"));
  Node& containers = root.Set("containers", Node::Seq());
  Node c = Node::Map();
  c.Set("name", Node::String("main"));
  Node args = Node::Seq();
  args.items.push_back(Node::String("--epochs"));
  args.items.push_back(Node::Int(3));
  c.Set("args", args);
  c.Set("env", Node::Seq());
  c.Set("resources", Node::Map());
  containers.items.push_back(c);
  CHECK(NodeToYaml(root) ==
        "kind: Job\n"
        "metadata:\n"
        "  name: js-workers-0\n"
        "containers:\n"
        "- name: main\n"
        "  args:\n"
        "  - \"--epochs\"\n"
        "  - 3\n"
        "  env: []\n"
        "  resources: {}\n");
  CHECK(RoundTrip(root) == root);
}

TEST_CASE("yaml emit: strings that would read back as something else are quoted") {
  for (const char* s :
       {"",     "0",   "1.5", "1e3", "0x1F",        "1:20",       "true", "Yes",  "no",
        "ON",   "off", "y",   "N",   "null",        "~",          "-",    "-x",   "a: b",
        "a #b", "#c",  "*x",  "&x",  "!x",          "[a]",        "{a}",  "'q'",  "\"q\"",
        "@x",   "`x",  "x ",  " x",  "line\nbreak", "tab\there",  ".inf", ".nan", "%x",
        "|",    ">",   "?",   ",",   "10.0.0.1",    "2024-01-01", "v1.2"}) {
    CAPTURE(s);
    Node n = Node::Map();
    n.Set(s, Node::String(s));
    Node back = RoundTrip(n);
    REQUIRE(back.entries.size() == 1);
    CHECK(back.entries[0].key == s);
    CHECK(back.entries[0].value.is_string());
    CHECK(back.entries[0].value.text == s);
  }
  // Ordinary names stay plain.
  Node n = Node::Map();
  n.Set("jobset.sigs.k8s.io/jobset-name", Node::String("pytorch"));
  n.Set("command", Node::String("sleep 10"));
  CHECK(NodeToYaml(n) == "jobset.sigs.k8s.io/jobset-name: pytorch\ncommand: sleep 10\n");
}

TEST_CASE("yaml emit: scalars of every kind, nested sequences, and the empty document") {
  Node n = Node::Map();
  n.Set("i", Node::Int(-7));
  Node f;
  f.kind = Node::Kind::kFloat;
  f.number = 2.0;
  n.Set("f", f);
  n.Set("b", Node::Bool(false));
  n.Set("z", Node{});
  Node outer = Node::Seq();
  Node inner = Node::Seq();
  inner.items.push_back(Node::String("a"));
  inner.items.push_back(Node::String("b"));
  outer.items.push_back(inner);
  n.Set("s", outer);
  CHECK(NodeToYaml(n) == "i: -7\nf: 2.0\nb: false\nz: null\ns:\n- - a\n  - b\n");
  CHECK(RoundTrip(n) == n);
  CHECK(NodeToYaml(Node::Map()) == "{}\n");
}

}  // namespace jobset
