#include "validation/core/loader.h"

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

#include "tests/test_size.h"
#include "validation/core/field_path.h"

namespace jobset {
namespace {

SourceFile Parse(const std::string& text, LoadLimits limits = {}) {
  return ParseSource("test.yaml", text, limits);
}

const Finding* OnlyProblem(const Document& d) {
  return d.problems.size() == 1 ? &d.problems[0] : nullptr;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// Runs `body` in a child process whose address space may grow by `extra_bytes` only, and says
// whether it returned true (false when it failed, ran out of memory or crashed). Under
// AddressSanitizer, which reserves terabytes of address space, `body` runs here uncapped.
bool WithinMemory(size_t extra_bytes, const std::function<bool()>& body) {
  if (kAddressSanitizer) return body();
  long pages = 0;
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%ld", &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  if (pages <= 0) return body();
  std::fflush(nullptr);
  pid_t child = fork();
  if (child == 0) {
    rlim_t cap =
        static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + extra_bytes;
    rlimit limit{cap, cap};
    setrlimit(RLIMIT_AS, &limit);
    bool ok = false;
    try {
      ok = body();
    } catch (...) {
      ok = false;
    }
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// A document of six anchored levels, each a list of nine aliases of the one before, and one
// more copy of the last level: 1.3 million values, under the per-document limit.
std::string NearLimitDocument() {
  std::string doc = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'f'; ++c) {
    doc += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 9; ++i) doc += std::string(i ? ", " : "") + "*" + char(c - 1);
    doc += "]\n";
  }
  return doc + "z: [*f]\n";
}

bool AllRefusedAsTooManyValues(const SourceFile& f, size_t documents) {
  if (f.documents.size() != documents) return false;
  for (const Document& d : f.documents) {
    if (d.parsed || d.problems.size() != 1) return false;
    if (d.problems[0].rule != "input/too-many-values" || !d.problems[0].mark.known()) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("loader: every value keeps its line and column") {
  SourceFile f = Parse(
      "apiVersion: jobset.x-k8s.io/v1alpha2\n"
      "kind: JobSet\n"
      "spec:\n"
      "  replicatedJobs:\n"
      "  - name: workers\n"
      "    replicas: 3\n");
  REQUIRE(f.documents.size() == 1);
  const Node& root = f.documents[0].root;
  Mark key = Locate(root, "spec.replicatedJobs[0].replicas", PointAt::kKey);
  Mark value = Locate(root, "spec.replicatedJobs[0].replicas");
  CHECK(key.line == 6);
  CHECK(key.column == 5);
  CHECK(value.line == 6);
  CHECK(value.column == 15);
  Mark item = Locate(root, "spec.replicatedJobs[0]");
  CHECK(item.line == 5);
  CHECK(item.column == 5);
  // A path that does not exist points at the deepest part that does.
  Mark missing = Locate(root, "spec.replicatedJobs[0].template.spec");
  CHECK(missing.line == 5);
}

TEST_CASE("loader: multi-document files count documents and keep absolute lines") {
  SourceFile f = Parse(
      "# leading comment\n"
      "---\n"
      "a: 1\n"
      "---\n"
      "# only a comment: not a document\n"
      "---\n"
      "b:\n"
      "  c: true\n");
  REQUIRE(f.documents.size() == 2);
  CHECK(f.documents[0].index == 0);
  CHECK(f.documents[1].index == 1);
  CHECK(Locate(f.documents[1].root, "b.c").line == 8);
  CHECK(Locate(f.documents[1].root, "b.c").column == 6);
}

TEST_CASE("loader: JSON files parse with positions") {
  SourceFile f =
      Parse("{\n  \"kind\": \"JobSet\",\n  \"spec\": {\"replicas\": [1, 2.5, \"x\"]}\n}\n");
  REQUIRE(f.documents.size() == 1);
  const Node& root = f.documents[0].root;
  CHECK(root.StringOr("kind") == "JobSet");
  const Node* list = FindPath(root, "spec.replicas");
  REQUIRE(list);
  REQUIRE(list->items.size() == 3);
  CHECK(list->items[0].is_int());
  CHECK(list->items[1].kind == Node::Kind::kFloat);
  CHECK(list->items[2].is_string());
  CHECK(Locate(root, "spec.replicas[2]").line == 3);
  CHECK(Locate(root, "spec.replicas[2]").column == 33);
}

TEST_CASE("loader: scalars are typed as Kubernetes reads YAML (YAML 1.1, go-yaml v2)") {
  SourceFile f = Parse(
      "a: yes\nb: off\nc: 0x1F\nd: 010\ne: 1_000\nf: 2.0\ng: 1.5\nh: '123'\ni: ~\n"
      "j: !!str 42\nk: .inf\nl: hello\nm: -7\nn: 99999999999999999999\no: \"true\"\n");
  REQUIRE(f.documents.size() == 1);
  const Node& r = f.documents[0].root;
  CHECK(r.Find("a")->is_bool());
  CHECK(r.Find("a")->boolean);
  CHECK(r.Find("b")->is_bool());
  CHECK_FALSE(r.Find("b")->boolean);
  CHECK(r.Find("c")->integer == 31);
  CHECK(r.Find("d")->integer == 8);
  CHECK(r.Find("e")->integer == 1000);
  CHECK(r.Find("f")->is_int());  // whole numbers decode as integers
  CHECK(r.Find("f")->integer == 2);
  CHECK(r.Find("g")->kind == Node::Kind::kFloat);
  CHECK(r.Find("h")->is_string());
  CHECK(r.Find("i")->is_null());
  CHECK(r.Find("j")->is_string());
  CHECK(r.Find("k")->kind == Node::Kind::kFloat);
  CHECK(r.Find("l")->is_string());
  CHECK(r.Find("m")->integer == -7);
  CHECK(r.Find("n")->kind == Node::Kind::kFloat);  // past int64: a float, as in Go
  CHECK(r.Find("o")->is_string());
}

TEST_CASE("loader: a syntax error is a finding and the other documents are still read") {
  SourceFile f = Parse(
      "a: 1\n"
      "---\n"
      "b: [1, 2\n"
      "c: 3\n"
      "---\n"
      "d: 4\n");
  REQUIRE(f.documents.size() == 3);
  CHECK(f.documents[0].parsed);
  CHECK_FALSE(f.documents[1].parsed);
  const Finding* p = OnlyProblem(f.documents[1]);
  REQUIRE(p);
  CHECK(p->rule == "yaml/syntax");
  CHECK(p->severity == Severity::kError);
  CHECK(p->mark.line >= 3);
  CHECK(p->mark.line <= 5);
  CHECK(f.documents[2].parsed);
  CHECK(f.documents[2].root.Find("d")->integer == 4);
  CHECK(f.documents[2].index == 2);
}

TEST_CASE("loader: duplicate keys keep the last value, as kubectl does, with a warning") {
  SourceFile f = Parse("spec:\n  suspend: true\n  suspend: false\n");
  REQUIRE(f.documents.size() == 1);
  CHECK(f.documents[0].parsed);
  CHECK_FALSE(FindPath(f.documents[0].root, "spec.suspend")->boolean);
  const Finding* p = OnlyProblem(f.documents[0]);
  REQUIRE(p);
  CHECK(p->rule == "yaml/duplicate-key");
  CHECK(p->severity == Severity::kWarning);
  CHECK(p->mark.line == 2);  // the value that is dropped
  CHECK(p->mark.column == 3);
  CHECK(p->message.find("\"suspend\"") != std::string::npos);
  CHECK(p->message.find("line 3") != std::string::npos);
}

TEST_CASE("loader: anchors, aliases and merge keys expand as go-yaml does") {
  SourceFile f = Parse(
      "base: &b\n  image: busybox\n  name: x\n"
      "one:\n  <<: *b\n  name: y\n"
      "two: *b\n");
  REQUIRE(f.documents.size() == 1);
  const Node& r = f.documents[0].root;
  CHECK(FindPath(r, "one.image")->text == "busybox");
  CHECK(FindPath(r, "one.name")->text == "y");  // explicit keys win over merged ones
  CHECK(FindPath(r, "two.name")->text == "x");
}

TEST_CASE("loader: an alias bomb is refused quickly, not expanded") {
  std::string bomb =
      "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  char prev = 'a';
  for (char c = 'b'; c <= 'k'; ++c, ++prev) {
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 9; ++i) bomb += std::string(i ? "," : "") + "*" + prev;
    bomb += "]\n";
  }
  auto start = std::chrono::steady_clock::now();
  SourceFile f = Parse(bomb);
  auto took = std::chrono::steady_clock::now() - start;
  REQUIRE(f.documents.size() == 1);
  const Finding* p = OnlyProblem(f.documents[0]);
  REQUIRE(p);
  CHECK(p->rule == "input/too-many-values");
  CHECK(p->mark.line > 1);
  // Ten levels of nine would be 3.4 billion values; the budget stops it long before.
  CHECK(took < std::chrono::seconds(20));
}

// These tests have a ctest TIMEOUT (CMakeLists.txt): the code they guard cost O(n^2) time
// or memory far beyond the input's size before, and took minutes, or gigabytes, here.
TEST_CASE("loader: alias copies are budgeted per file, before copying") {
  std::string doc = NearLimitDocument();
  SUBCASE("a document under the per-document limit is refused within 100 MB") {
    // Unbudgeted it is accepted after copying 1.9 million values (over 200 MB).
    CHECK(WithinMemory(100u << 20, [&] { return AllRefusedAsTooManyValues(Parse(doc), 1); }));
  }
  SUBCASE("sixteen such documents in one file are refused, with -j or not") {
    // Counted per document, each was accepted: 3.4 GB and many seconds.
    std::string file;
    for (int i = 0; i < 16; ++i) file += (i ? "---\n" : "") + doc;
    CHECK(WithinMemory(100u << 20, [&] { return AllRefusedAsTooManyValues(Parse(file), 16); }));
    SourceFile f = Parse(file);
    REQUIRE(f.documents.size() == 16);
    const Finding& first = f.documents[0].problems.at(0);
    CHECK(first.mark.line == 5);  // e: the level whose copy would exceed the budget
    CHECK(first.message.find("more than 100000 values") != std::string::npos);
    CHECK(first.message.find("all its documents") != std::string::npos);
    CHECK(f.documents[1].problems.at(0).mark.line == 9);  // the first anchor of document 2
  }
  SUBCASE("anchors on nested collections count the copy each anchor makes") {
    // 200 nested anchored mappings around 5,000 values: each anchor remembered a full copy.
    std::string nested;
    for (int i = 0; i < 200; ++i)
      nested +=
          std::string(i * 2, ' ') + "k" + std::to_string(i) + ": &a" + std::to_string(i) + "\n";
    std::string indent(400, ' ');
    for (int i = 0; i < 5000; ++i) nested += indent + "v" + std::to_string(i) + ": 1\n";
    CHECK(WithinMemory(100u << 20, [&] { return AllRefusedAsTooManyValues(Parse(nested), 1); }));
  }
  SUBCASE("a budget that suffices lets aliases expand as before") {
    LoadLimits roomy;
    roomy.max_alias_values = 4'000'000;
    SourceFile f = Parse(doc, roomy);
    REQUIRE(f.documents.size() == 1);
    CHECK(f.documents[0].parsed);
  }
}

TEST_CASE("loader: a mapping of 300,000 keys costs linear time") {
  // The duplicate-key check compared each key with every earlier one: 4.5e10 comparisons.
  const int n = HostileSize(300000);
  std::string wide;
  for (int i = 0; i < n; ++i) wide += "k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  wide += "k7: again\n";
  SourceFile f = Parse(wide);
  REQUIRE(f.documents.size() == 1);
  const Document& d = f.documents[0];
  REQUIRE(d.parsed);
  CHECK(d.root.entries.size() == static_cast<size_t>(n));
  CHECK(d.root.Find("k7")->text == "again");
  const Finding* p = OnlyProblem(d);
  REQUIRE(p);
  CHECK(p->rule == "yaml/duplicate-key");
  CHECK(p->mark.line == 8);
  CHECK(p->message == "duplicate field \"k7\": kubectl silently keeps the value at line " +
                          std::to_string(n + 1) + " and drops this one");
}

TEST_CASE("loader: merging a wide mapping costs linear time") {
  // Merged keys were looked up in the mapping one by one: 4.5e10 comparisons. (300,000 keys
  // are 600,001 values: the anchor and the alias copy them twice, more than the default
  // budget allows.)
  const int n = HostileSize(300000);
  std::string text = "base: &b\n";
  for (int i = 0; i < n; ++i) text += "  k" + std::to_string(i) + ": 1\n";
  text += "copy:\n  k5: 2\n  <<: *b\n";
  LoadLimits roomy;
  roomy.max_alias_values = 2'000'000;
  SourceFile f = Parse(text, roomy);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  const Node* copy = f.documents[0].root.Find("copy");
  REQUIRE(copy);
  CHECK(copy->entries.size() == static_cast<size_t>(n));
  CHECK(copy->entries[0].key == "k5");
  CHECK(copy->Find("k5")->integer == 2);  // its own key wins over the merged one
  CHECK(copy->entries.back().key == "k" + std::to_string(n - 1));
}

TEST_CASE("loader: nesting thousands deep is refused, block and flow style") {
  std::string flow(100000, '[');
  flow += std::string(100000, ']');
  SourceFile f = Parse(flow);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].problems.size() == 1);
  CHECK(f.documents[0].problems[0].rule == "input/too-deep");

  std::string block;
  for (int i = 0; i < 3000; ++i) block += std::string(i, ' ') + "k:\n";
  SourceFile g = Parse(block);
  REQUIRE(g.documents.size() == 1);
  REQUIRE(g.documents[0].problems.size() == 1);
  CHECK(g.documents[0].problems[0].rule == "input/too-deep");
}

TEST_CASE("loader: a file past the size limit is refused without being read") {
  namespace fs = std::filesystem;
  fs::path p = fs::temp_directory_path() / "kubectl-jobset-huge-test.yaml";
  {
    std::ofstream out(p);
    out << "a: 1\n";
  }
  fs::resize_file(p, 300ull << 20);  // sparse: 300 MiB of zeros without writing them
  SourceFile f;
  std::string error;
  REQUIRE(LoadFile(p.string(), LoadLimits{}, &f, &error));
  fs::remove(p);
  REQUIRE(f.problems.size() == 1);
  CHECK(f.problems[0].rule == "input/too-large");
  CHECK(f.problems[0].message.find("300 MiB") != std::string::npos);
  CHECK(f.documents.empty());

  LoadLimits small;
  small.max_file_bytes = 10;
  SourceFile g = Parse("a: 1234567890\n", small);
  REQUIRE(g.problems.size() == 1);
  CHECK(g.problems[0].rule == "input/too-large");
}

TEST_CASE("loader: binary data and invalid UTF-8 are findings with positions") {
  std::string bin = "a: 1\nb: \x01\x02";
  bin += '\0';
  bin += "\xff\xfe";
  SourceFile f = Parse(bin);
  REQUIRE(f.problems.size() == 1);
  CHECK(f.problems[0].rule == "input/binary");
  CHECK(f.problems[0].mark.line == 2);

  SourceFile g = Parse("a: 1\n---\nname: caf\xc3\xa9 \xff\xfe x\n---\nb: 2\n");
  REQUIRE(g.documents.size() == 3);
  CHECK(g.documents[0].parsed);
  REQUIRE(g.documents[1].problems.size() == 1);
  CHECK(g.documents[1].problems[0].rule == "input/invalid-utf8");
  CHECK(g.documents[1].problems[0].mark.line == 3);
  CHECK(g.documents[1].problems[0].mark.column == 12);  // characters, not bytes
  CHECK(g.documents[2].parsed);

  SourceFile overlong = Parse("a: \xc0\xaf\n");  // an overlong '/'
  REQUIRE(overlong.documents.size() == 1);
  CHECK(overlong.documents[0].problems[0].rule == "input/invalid-utf8");
}

TEST_CASE("loader: random garbage never crashes and never passes silently") {
  std::mt19937 rng(42);
  const char* pieces[] = {"a", ":",     " ",      "\n",   "- ", "[",  "]", "{",
                          "}", ",",     "&x ",    "*x ",  "'",  "\"", "|", ">",
                          "#", "---\n", "!!str ", "<<: ", "\t", "?",  "%"};
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    int n = rng() % 60;
    for (int i = 0; i < n; ++i) text += pieces[rng() % (sizeof pieces / sizeof *pieces)];
    SourceFile f = Parse(text);  // must not throw or crash (ASan/UBSan run this too)
    for (const Document& d : f.documents) {
      // Either parsed, or it says why.
      CHECK((d.parsed || !d.problems.empty()));
    }
  }
  for (int round = 0; round < 500; ++round) {
    std::string text;
    int n = rng() % 200;
    for (int i = 0; i < n; ++i) text += static_cast<char>(rng() % 256);
    SourceFile f = Parse(text);
    for (const Document& d : f.documents) CHECK((d.parsed || !d.problems.empty()));
  }
}

TEST_CASE("loader: BOM, CRLF and empty files") {
  SourceFile f = Parse("\xEF\xBB\xBFkind: JobSet\r\nspec:\r\n  suspend: true\r\n");
  REQUIRE(f.documents.size() == 1);
  CHECK(f.documents[0].root.StringOr("kind") == "JobSet");
  CHECK(FindPath(f.documents[0].root, "spec.suspend")->boolean);
  CHECK(Locate(f.documents[0].root, "spec.suspend").line == 3);
  std::string utf16 = "\xFF\xFE";
  for (char c : std::string("kind: JobSet\n")) utf16 += std::string(1, c) + '\0';
  SourceFile u = Parse(utf16);
  REQUIRE(u.problems.empty());
  REQUIRE(u.documents.size() == 1);
  CHECK(u.documents[0].root.StringOr("kind") == "JobSet");
  CHECK(Parse("").documents.empty());
  CHECK(Parse("# nothing here\n\n").documents.empty());
  CHECK(Parse("---\n---\n").documents.empty());
}

TEST_CASE("loader: directories expand to YAML and JSON files, recursively on request") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "kubectl-jobset-expand-test";
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  for (const char* name : {"b.yaml", "a.yml", "c.json", "notes.txt", "sub/d.yaml"}) {
    std::ofstream(dir / name) << "a: 1\n";
  }
  std::vector<std::string> files;
  std::string error;
  REQUIRE(ExpandPaths({dir.string()}, false, &files, &error));
  REQUIRE(files.size() == 3);
  CHECK(fs::path(files[0]).filename() == "a.yml");
  CHECK(fs::path(files[2]).filename() == "c.json");
  files.clear();
  REQUIRE(ExpandPaths({dir.string()}, true, &files, &error));
  CHECK(files.size() == 4);
  files.clear();
  CHECK_FALSE(ExpandPaths({(dir / "missing").string()}, false, &files, &error));
  CHECK(error.find("no such file") != std::string::npos);
  fs::remove_all(dir);
}

}  // namespace jobset
