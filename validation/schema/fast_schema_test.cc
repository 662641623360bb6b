#include "validation/schema/fast_schema.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/corpus.h"
#include "tests/test_size.h"
#include "validation/core/json_node.h"
#include "validation/core/loader.h"
#include "validation/framework/types.h"
#include "validation/jobset/defaults.h"
#include "validation/jobset/types.h"
#include "validation/schema/schema.h"
#include "validation/schema/schema_internal.h"
#include "validation/volcano/defaults.h"

namespace jobset {
namespace {

namespace fs = std::filesystem;

/// A schema the objects are compared under, named for messages.
struct NamedSchema {
  std::string name;
  std::shared_ptr<const CompiledSchema> schema;
};

/// One loaded object: where it came from and whether it is a JobSet, a Volcano Job or a
/// Framework.
struct Sample {
  std::string where;
  Node object;
  bool jobset = false;
  bool volcano = false;
  bool framework = false;
};

/// The bytes of a file.
std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Whether `object` is a Volcano batch.volcano.sh/v1alpha1 Job.
bool IsVolcanoJob(const Node& object) {
  return object.is_map() && object.StringOr("apiVersion") == kVolcanoApiVersion &&
         object.StringOr("kind") == kVolcanoKind;
}

/// Whether `object` is the CustomResourceDefinition of JobSets.
bool IsJobSetCrd(const Node& object) {
  const Node* meta = object.Find("metadata");
  return object.is_map() && object.StringOr("kind") == "CustomResourceDefinition" && meta &&
         meta->StringOr("name") == "jobsets.jobset.x-k8s.io";
}

/// Every parsed document of every YAML (and JSON) file under `roots`, each JobSet and Volcano
/// Job also as the API server validates it (after defaulting).
std::vector<Sample> LoadSamples(const std::vector<std::string>& roots) {
  std::vector<Sample> out;
  for (const std::string& root : roots) {
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      const std::string ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json")) {
        files.push_back(e.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& path : files) {
      SourceFile f = ParseSource(path.string(), ReadFile(path));
      for (const Document& doc : f.documents) {
        if (!doc.parsed) continue;
        Sample s;
        s.where = path.string() + "#" + std::to_string(doc.index);
        s.object = doc.root;
        s.jobset = IsJobSet(doc.root);
        s.volcano = IsVolcanoJob(doc.root);
        s.framework = IsFramework(doc.root);
        if (s.jobset || s.volcano) {
          Sample defaulted = s;
          defaulted.where += " (defaulted)";
          std::vector<PatchOp> patch;
          if (s.jobset) {
            ApplyCrdDefaults(&defaulted.object, &patch);
            ApplyWebhookDefaults(&defaulted.object, &patch);
          } else {
            ApplyVolcanoCrdDefaults(&defaulted.object, &patch);
            ApplyVolcanoWebhookDefaults(&defaulted.object, kVolcanoDefaultScheduler, &patch);
          }
          out.push_back(std::move(defaulted));
        }
        out.push_back(std::move(s));
      }
    }
  }
  return out;
}

/// The samples of examples/ and tests/, loaded once.
const std::vector<Sample>& OwnSamples() {
  static const std::vector<Sample> samples =
      LoadSamples({JOBSET_SOURCE_DIR "/examples", JOBSET_SOURCE_DIR "/tests"});
  return samples;
}

/// The samples of the upstream corpus (tests/corpus.h), loaded once; none without it.
const std::vector<Sample>& CorpusSamples() {
  static const std::vector<Sample> samples =
      CorpusDir().empty() ? std::vector<Sample>{} : LoadSamples({CorpusDir()});
  return samples;
}

/// The JobSet CRD of the corpus compiled (its served version), or nullptr without one.
std::shared_ptr<const CompiledSchema> CorpusCrdSchema() {
  static const std::shared_ptr<const CompiledSchema> schema = [] {
    std::shared_ptr<const CompiledSchema> compiled;
    for (const Sample& s : CorpusSamples()) {
      if (!IsJobSetCrd(s.object)) continue;
      std::string error;
      compiled = CompileCrdSchema(s.object, "", &error);
      INFO(s.where << ": " << error);
      REQUIRE(compiled);
      break;
    }
    return compiled;
  }();
  return schema;
}

/// The schemas under test, named.
NamedSchema JobSetSchema() { return {"builtin JobSet", BuiltinJobSetSchema()}; }
NamedSchema VolcanoSchema() { return {"builtin Volcano", BuiltinVolcanoJobSchema()}; }
NamedSchema FrameworkSchema() { return {"builtin Framework", BuiltinFrameworkSchema()}; }
NamedSchema CrdSchema() { return {"JobSet CRD", CorpusCrdSchema()}; }

/// The schemas `s` is compared under: the three built-in ones for every object (one of another
/// kind is mostly invalid, in many different ways), and with `with_crd` the corpus CRD's for
/// JobSets.
std::vector<NamedSchema> SchemasFor(const Sample& s, bool with_crd) {
  std::vector<NamedSchema> out = {JobSetSchema(), VolcanoSchema(), FrameworkSchema()};
  if (with_crd && s.jobset) out.push_back(CrdSchema());
  return out;
}

/// A verdict in words, for messages.
std::string Name(FastVerdict v) {
  switch (v) {
    case FastVerdict::kValid:
      return "valid";
    case FastVerdict::kInvalid:
      return "invalid";
    case FastVerdict::kUnsure:
      return "unsure";
  }
  return "?";
}

/// Counts of one comparison run.
struct Tally {
  size_t checked = 0;
  size_t decisive = 0;
  size_t valid = 0;  ///< valijson says valid.
  size_t disagreements = 0;
};

/// Compares the fast verdict with valijson's on `object`: when the fast check is decisive, they
/// must agree. Gives the fast verdict.
FastVerdict Compare(const NamedSchema& s, const Node& object, const std::string& where,
                    Tally* tally) {
  const FastVerdict fast = FastSchemaVerdict(*s.schema, object);
  const bool slow = ValijsonSchemaValid(*s.schema, object);
  ++tally->checked;
  tally->valid += slow;
  if (fast == FastVerdict::kUnsure) return fast;
  ++tally->decisive;
  const bool agree = (fast == FastVerdict::kValid) == slow;
  if (!agree) {
    ++tally->disagreements;
    // Only the first few in full: one mistake tends to repeat across the variants.
    if (tally->disagreements <= 5) {
      std::string text = NodeToJsonText(object);
      if (text.size() > 4000) text = text.substr(0, 4000) + "...";
      FAIL_CHECK(where << " under " << s.name << ": fast check says " << Name(fast) << ", valijson "
                       << std::string(slow ? "valid" : "invalid") << "\n"
                       << text);
    }
  }
  return fast;
}

// ---- Hand-written cases: the corners of NodeAdapter and valijson -------------------------------

/// The schema of a one-version CRD whose openAPIV3Schema is `open_api` (YAML flow style),
/// compiled by CompileCrdSchema.
std::shared_ptr<const CompiledSchema> CrdWith(const std::string& open_api) {
  std::string yaml =
      "apiVersion: apiextensions.k8s.io/v1\n"
      "kind: CustomResourceDefinition\n"
      "metadata: {name: things.example.com}\n"
      "spec:\n"
      "  versions:\n"
      "  - name: v1\n"
      "    served: true\n"
      "    schema:\n"
      "      openAPIV3Schema: " +
      open_api + "\n";
  SourceFile f = ParseSource("crd.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  std::string error;
  auto schema = CompileCrdSchema(f.documents[0].root, "v1", &error);
  INFO(error);
  REQUIRE(schema);
  return schema;
}

/// The single document of `text`.
Node Yaml(const std::string& text) {
  SourceFile f = ParseSource("object.yaml", text);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return f.documents[0].root;
}

/// Asserts that valijson finds `yaml` valid (or not, as `valid` says) under `schema`, and that the
/// fast check decides the same.
void ExpectDecided(const std::shared_ptr<const CompiledSchema>& schema, const std::string& yaml,
                   bool valid) {
  Node object = Yaml(yaml);
  INFO(yaml);
  CHECK(ValijsonSchemaValid(*schema, object) == valid);
  CHECK(FastSchemaVerdict(*schema, object) ==
        (valid ? FastVerdict::kValid : FastVerdict::kInvalid));
}

TEST_CASE("fast schema: null fields, unknown fields and required, as NodeAdapter shows them") {
  auto schema = BuiltinJobSetSchema();
  REQUIRE(schema);
  const std::string head = "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\n";
  ExpectDecided(schema, head + "metadata: {name: a}\n", true);
  // A known field whose value is null is invisible to find(), but still counted by the object's
  // size: under additionalProperties false, valijson rejects it.
  ExpectDecided(schema, head + "metadata: {name: a, creationTimestamp: null}\n", false);
  ExpectDecided(schema, head + "metadata: {name: a, bogus: null}\n", false);
  ExpectDecided(schema, head + "metadata: {name: a, bogus: 1}\n", false);
  // A null label value is checked against additionalProperties' schema (type string).
  ExpectDecided(schema, head + "metadata: {name: a, labels: {x: null}}\n", false);
  ExpectDecided(schema, head + "metadata: {name: a, labels: {x: 'y'}}\n", true);
  ExpectDecided(schema, head + "metadata: {name: a, labels: {x: 1}}\n", false);
  // Strong types: "1" is a string, 1 an integer, 1.5 a float (not an integer).
  ExpectDecided(schema, head + "metadata: {name: a, generation: 1}\n", true);
  ExpectDecided(schema, head + "metadata: {name: a, generation: '1'}\n", false);
  ExpectDecided(schema, head + "metadata: {name: a, generation: 1.5}\n", false);
}

TEST_CASE("fast schema: bounds, lengths, patterns and enums of the Volcano schema") {
  auto schema = BuiltinVolcanoJobSchema();
  REQUIRE(schema);
  const std::string head =
      "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: a}\nspec:\n";
  ExpectDecided(schema, head + "  minAvailable: 0\n", true);
  ExpectDecided(schema, head + "  minAvailable: -1\n", false);
  ExpectDecided(schema, head + "  minAvailable: 0.5\n", false);
  ExpectDecided(schema, head + "  minSuccess: 0\n", false);
  ExpectDecided(schema, head + "  tasks: []\n", false);
  ExpectDecided(schema, head + "  tasks: [{name: ok-1}]\n", true);
  ExpectDecided(schema, head + "  tasks: [{name: Not-OK}]\n", false);
  ExpectDecided(schema, head + "  tasks: [{name: " + std::string(64, 'a') + "}]\n", false);
  ExpectDecided(schema, head + "  tasks: [{name: a, topologyPolicy: none}]\n", true);
  ExpectDecided(schema, head + "  tasks: [{name: a, topologyPolicy: None}]\n", false);
  ExpectDecided(schema, head + "  tasks: [{name: a, partitionPolicy: {partitionSize: 1}}]\n",
                false);
  ExpectDecided(schema, head + "  volumes: [{mountPath: ''}]\n", false);
  ExpectDecided(schema, head + "  volumes: [{mountPath: 'a:b'}]\n", false);
  ExpectDecided(schema, head + "  volumes: [{mountPath: /data}]\n", true);
  ExpectDecided(schema, head + "  plugins: {ssh: [], env: ['a']}\n", true);
  ExpectDecided(schema, head + "  plugins: {ssh: [1]}\n", false);
}

TEST_CASE("fast schema: keyword semantics through CRD schemas") {
  auto schema = CrdWith(
      "{type: object, properties: {spec: {type: object, required: [a], properties: {"
      "a: {type: string, minLength: 2, maxLength: 3, pattern: '^[a-z]+$'},"
      "n: {type: number, minimum: 1, maximum: 2, exclusiveMaximum: true},"
      "i: {type: integer, minimum: -3},"
      "e: {type: string, enum: [x, y], nullable: true},"
      "l: {type: array, minItems: 1, maxItems: 2, items: {type: boolean}},"
      "m: {type: object, additionalProperties: {type: integer}},"
      "p: {type: object, x-kubernetes-preserve-unknown-fields: true}}}}}");
  const std::string head = "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\n";
  ExpectDecided(schema, head + "spec: {a: ab}\n", true);
  ExpectDecided(schema, head + "spec: {a: abcd}\n", false);                // maxLength
  ExpectDecided(schema, head + "spec: {a: a}\n", false);                   // minLength
  ExpectDecided(schema, head + "spec: {a: \"\\u00e9\\u00e9\"}\n", false);  // pattern, 2 points
  ExpectDecided(schema, head + "spec: {a: Ab}\n", false);                  // pattern
  ExpectDecided(schema, head + "spec: {a: null}\n", false);                // required
  ExpectDecided(schema, head + "spec: {}\n", false);                       // required
  ExpectDecided(schema, head + "spec: {a: ab, n: 1}\n", true);
  ExpectDecided(schema, head + "spec: {a: ab, n: 1.5}\n", true);
  ExpectDecided(schema, head + "spec: {a: ab, n: 2}\n", false);  // exclusiveMaximum
  ExpectDecided(schema, head + "spec: {a: ab, n: 0.99}\n", false);
  ExpectDecided(schema, head + "spec: {a: ab, i: -3}\n", true);
  ExpectDecided(schema, head + "spec: {a: ab, i: -4}\n", false);
  ExpectDecided(schema, head + "spec: {a: ab, i: 1.5}\n", false);
  ExpectDecided(schema, head + "spec: {a: ab, e: x}\n", true);
  ExpectDecided(schema, head + "spec: {a: ab, e: z}\n", false);
  ExpectDecided(schema, head + "spec: {a: ab, e: null}\n", false);  // A null field: see above.
  ExpectDecided(schema, head + "spec: {a: ab, l: [true]}\n", true);
  ExpectDecided(schema, head + "spec: {a: ab, l: []}\n", false);
  ExpectDecided(schema, head + "spec: {a: ab, l: [true, false, true]}\n", false);
  ExpectDecided(schema, head + "spec: {a: ab, l: [1]}\n", false);
  ExpectDecided(schema, head + "spec: {a: ab, l: [null]}\n", false);
  ExpectDecided(schema, head + "spec: {a: ab, m: {x: 1, y: 2}}\n", true);
  ExpectDecided(schema, head + "spec: {a: ab, m: {x: 1, y: null}}\n", false);
  ExpectDecided(schema, head + "spec: {a: ab, p: {anything: [1, {b: c}]}}\n", true);
  ExpectDecided(schema, head + "spec: {a: ab, q: 1}\n", false);
}

TEST_CASE("fast schema: string lengths counted as valijson counts them") {
  auto schema = CrdWith(
      "{type: object, properties: {spec: {type: object, properties: {"
      "s: {type: string, minLength: 2, maxLength: 2}}}}}");
  auto object = [](std::string text) {
    Node o = Yaml("apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec: {}\n");
    o.Find("spec")->Set("s", Node::String(std::move(text)));
    return o;
  };
  // Each string with the length valijson gives it (2 is valid).
  const std::vector<std::pair<std::string, bool>> cases = {
      {"ab", true},
      {"\xc3\xa9\xc3\xa9", true},           // two code points
      {"\xf0\x9f\x98\x80\xc3\xa9", true},   // U+1F600 and U+00E9
      {std::string("a\0bc", 4), false},     // counting stops at NUL: 1
      {std::string("ab\0c", 4), true},      // 2
      {"\x80\x80\x80", false},              // stray continuation bytes: one character
      {"a\x80\x80", false},                 // folded into the 'a': 1
      {"a\xc3", true},                      // truncated sequence: 2
      {"ab\xc0\x80zz", true},               // an overlong NUL ends the count: 2
      {"a\xe0\x80\x80zz", false},           // 1
      {"\xfc\x80\x80\x80\x80\x80x", true},  // six bytes that do not decode to 0: 2
  };
  for (const auto& [text, valid] : cases) {
    INFO(NodeToJsonText(Node::String(text)));
    Node o = object(text);
    CHECK(ValijsonSchemaValid(*schema, o) == valid);
    CHECK(FastSchemaVerdict(*schema, o) == (valid ? FastVerdict::kValid : FastVerdict::kInvalid));
  }
  // More than six bytes in one character: valijson's count reads outside its table (undefined
  // behaviour, so valijson is not run on it).
  CHECK(FastSchemaVerdict(*schema, object("\xf0\x80\x80\x80\x80\x80\x80")) == FastVerdict::kUnsure);
}

TEST_CASE("fast schema: anyOf, oneOf and not are left to valijson") {
  auto schema = CrdWith(
      "{type: object, properties: {spec: {type: object, properties: {"
      "x: {anyOf: [{type: string}, {type: boolean}]},"
      "y: {type: string}}}}}");
  const std::string head = "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\n";
  // Only objects that reach the unsupported schema are unsure.
  CHECK(FastSchemaVerdict(*schema, Yaml(head + "spec: {y: a}\n")) == FastVerdict::kValid);
  CHECK(FastSchemaVerdict(*schema, Yaml(head + "spec: {x: a}\n")) == FastVerdict::kUnsure);
  // A violation elsewhere decides, whatever the unsupported schema would say.
  CHECK(FastSchemaVerdict(*schema, Yaml(head + "spec: {x: a, y: 1}\n")) == FastVerdict::kInvalid);
  CHECK(!ValijsonSchemaValid(*schema, Yaml(head + "spec: {x: a, y: 1}\n")));
}

// ---- The corpus, the examples and the fixtures --------------------------------------------------

/// The fast check agrees with valijson on every one of `samples`, under the built-in schemas
/// and, `with_crd`, under the corpus CRD's.
void AgreeOnEverySample(const std::vector<Sample>& samples, bool with_crd) {
  REQUIRE(samples.size() > 50);
  const bool have_crd = with_crd && CorpusCrdSchema() != nullptr;
  if (with_crd) REQUIRE(have_crd);
  Tally builtin, crd;
  for (const Sample& s : samples) {
    for (const NamedSchema& schema : SchemasFor(s, have_crd)) {
      Compare(schema, s.object, s.where, schema.name == "JobSet CRD" ? &crd : &builtin);
    }
  }
  MESSAGE("builtin schemas: " << builtin.decisive << " of " << builtin.checked
                              << " decisive, valijson valid on " << builtin.valid);
  MESSAGE("CRD schema: " << crd.decisive << " of " << crd.checked << " decisive, valijson valid on "
                         << crd.valid);
  CHECK(builtin.disagreements == 0);
  CHECK(crd.disagreements == 0);
  // The built-in schemas hold no keyword the fast check leaves to valijson.
  CHECK(builtin.decisive == builtin.checked);
  CHECK(builtin.valid > 20);
  if (have_crd) {
    CHECK(crd.checked > 20);
    CHECK(crd.decisive * 10 >= crd.checked * 9);
  }
}

/// The built-in schema of the kind of `s` (a JobSet, Volcano Job or Framework).
NamedSchema OwnSchema(const Sample& s) {
  return s.jobset ? JobSetSchema() : s.volcano ? VolcanoSchema() : FrameworkSchema();
}

TEST_CASE("fast schema: agrees with valijson on every document of examples/ and tests/") {
  AgreeOnEverySample(OwnSamples(), false);
}

TEST_CASE("fast schema: agrees with valijson on every document of the corpus, CRD included" *
          doctest::test_suite("corpus")) {
  if (!CorpusOrSkip().empty()) AgreeOnEverySample(CorpusSamples(), true);
}

TEST_CASE("fast schema: valid on every valid JobSet, Volcano Job and Framework of examples/") {
  // The fast path is really taken: a fast check that always said "unsure" fails here.
  size_t valid = 0, frameworks = 0;
  for (const Sample& s : OwnSamples()) {
    if (s.where.rfind(JOBSET_SOURCE_DIR "/examples/", 0) != 0 ||
        (!s.jobset && !s.volcano && !s.framework)) {
      continue;
    }
    NamedSchema schema = OwnSchema(s);
    if (!ValijsonSchemaValid(*schema.schema, s.object)) continue;
    ++valid;
    frameworks += s.framework;
    CHECK_MESSAGE(FastSchemaVerdict(*schema.schema, s.object) == FastVerdict::kValid, s.where);
  }
  CHECK(valid >= 10);
  CHECK(frameworks >= 3);
}

// ---- Random variants ------------------------------------------------------------------------

/// A float node (the loader makes whole numbers integers; these are built directly).
Node Float(double d) {
  Node n;
  n.kind = Node::Kind::kFloat;
  n.number = d;
  n.text = std::to_string(d);
  return n;
}

/// A null node.
Node Null() { return Node(); }

/// Generates damaged variants of objects, repeatably (a fixed seed).
class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  /// `base` with one to three random changes.
  Node Mutate(const Node& base) {
    Node out = base;
    for (int k = 1 + Below(3); k > 0; --k) MutateOnce(&out);
    return out;
  }

 private:
  size_t Below(size_t n) { return static_cast<size_t>(rng_() % n); }

  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Below(v.size())];
  }

  // Every node of the tree, in document order.
  static void Collect(Node* n, std::vector<Node*>* out) {
    out->push_back(n);
    for (Node& item : n->items) Collect(&item, out);
    for (MapEntry& e : n->entries) Collect(&e.value, out);
  }

  Node Scalar() {
    switch (Below(10)) {
      case 0:
        return Null();
      case 1:
        return Node::Bool(Below(2) == 0);
      case 2:
        return Node::Int(static_cast<int64_t>(Below(5)) - 1);
      case 3:
        return Float(1.5);
      case 4:
        return Node::String("1");
      case 5:
        return Node::String("true");
      case 6:
        return Node::String("");
      case 7:
        return Node::Map();
      case 8:
        return Node::Seq();
      default:
        return Node::String("value");
    }
  }

  Node Number() {
    static const std::vector<double> floats = {-0.5,
                                               0.0,
                                               2.5,
                                               1e300,
                                               -1e300,
                                               9007199254740993.0,
                                               std::numeric_limits<double>::infinity(),
                                               std::numeric_limits<double>::quiet_NaN()};
    static const std::vector<int64_t> ints = {-1,
                                              0,
                                              1,
                                              100000,
                                              std::numeric_limits<int64_t>::max(),
                                              std::numeric_limits<int64_t>::min(),
                                              (int64_t{1} << 53) + 1};
    return Below(2) ? Float(Pick(floats)) : Node::Int(Pick(ints));
  }

  Node Text() {
    static const std::vector<std::string> texts = {
        // Names, valid and not, and values of the enums.
        "worker-0", "Worker_0", "-bad-", "a.b", "1", "FailJobSet", "RestartJobSet", "Never",
        "OnFailure", "AllJobs", "Any",
        // Long, non-ASCII, and malformed as UTF-8 (NUL, truncated, stray continuation bytes,
        // overlong NUL, a six-byte sequence). Characters of more than six bytes are not
        // generated: valijson's count reads outside its table on them.
        std::string(300, 'a'), std::string(70, 'x') + "\xc3\xa9", "\xc3\xa9t\xc3\xa9",
        "\xf0\x9f\x98\x80", std::string("a\0b", 3), "\xc3", "\x80\x80",
        "ab\xc0\x80" + std::string(80, 'c'), "\xfc\x80\x80\x80\x80\x80"};
    Node n = Node::String(Pick(texts));
    if (Below(4) == 0) n.text = std::string(1 + Below(80), 'z');
    return n;
  }

  void MutateOnce(Node* root) {
    std::vector<Node*> nodes;
    Collect(root, &nodes);
    std::vector<Node*> maps, seqs, strings;
    for (Node* n : nodes) {
      if (n->is_map()) maps.push_back(n);
      if (n->is_seq()) seqs.push_back(n);
      if (n->is_string()) strings.push_back(n);
    }
    Node* target = Pick(nodes);
    switch (Below(11)) {
      case 0:  // A scalar (or an empty container) of another type.
        *target = Scalar();
        break;
      case 1:  // Extreme and negative numbers.
        *target = Number();
        break;
      case 2: {  // An unknown key (or a known one again) at a random depth.
        if (maps.empty()) break;
        static const std::vector<std::string> keys = {
            "unknownField", "x", "", "name", "replicas", "spec", "template", "\xc3\xa9"};
        Node* map = Pick(maps);
        Node value = Below(3) == 0 ? Null() : Scalar();
        map->entries.push_back(MapEntry{Pick(keys), {}, std::move(value)});
        break;
      }
      case 3: {  // A key deleted.
        if (maps.empty()) break;
        Node* map = Pick(maps);
        if (map->entries.empty()) break;
        map->entries.erase(map->entries.begin() +
                           static_cast<std::ptrdiff_t>(Below(map->entries.size())));
        break;
      }
      case 4: {  // A field set to null.
        if (maps.empty()) break;
        Node* map = Pick(maps);
        if (map->entries.empty()) break;
        map->entries[Below(map->entries.size())].value = Null();
        break;
      }
      case 5: {  // A list emptied, or made long.
        if (seqs.empty()) break;
        Node* seq = Pick(seqs);
        if (Below(2) == 0 || seq->items.empty()) {
          seq->items.clear();
        } else {
          Node item = seq->items[Below(seq->items.size())];
          for (size_t i = Below(60); i > 0; --i) seq->items.push_back(item);
        }
        break;
      }
      case 6:  // Long, non-ASCII and malformed strings.
        *(strings.empty() || Below(4) == 0 ? target : Pick(strings)) = Text();
        break;
      case 7: {  // A map as a list of its values, or a list as a map.
        if (target->is_map()) {
          Node seq = Node::Seq();
          for (MapEntry& e : target->entries) seq.items.push_back(std::move(e.value));
          *target = std::move(seq);
        } else if (target->is_seq()) {
          Node map = Node::Map();
          for (size_t i = 0; i < target->items.size(); ++i) {
            map.entries.push_back(MapEntry{"k" + std::to_string(i), {}, target->items[i]});
          }
          *target = std::move(map);
        } else {
          *target = Below(2) ? Node::Map() : Node::Seq();
        }
        break;
      }
      case 8: {  // Another part of the object moved here.
        Node copy = *Pick(nodes);
        *target = std::move(copy);
        break;
      }
      case 9: {  // A null item in a list.
        if (seqs.empty()) break;
        Node* seq = Pick(seqs);
        seq->items.insert(
            seq->items.begin() + static_cast<std::ptrdiff_t>(Below(seq->items.size() + 1)), Null());
        break;
      }
      default: {  // A key repeated (the loaders merge these, other producers may not).
        if (maps.empty()) break;
        Node* map = Pick(maps);
        if (map->entries.empty()) break;
        MapEntry e = map->entries[Below(map->entries.size())];
        if (Below(2) == 0) e.value = Below(2) ? Null() : Scalar();
        map->entries.insert(
            map->entries.begin() + static_cast<std::ptrdiff_t>(Below(map->entries.size() + 1)),
            std::move(e));
        break;
      }
    }
  }

  std::mt19937_64 rng_;
};

/// 10,000 random damages of the JobSets and Volcano Jobs of `samples`: the fast check agrees
/// with valijson under their built-in schema and, `with_crd`, under the corpus CRD's.
void AgreeOnDamaged(const std::vector<Sample>& samples, bool with_crd) {
  std::vector<const Sample*> bases;
  for (const Sample& s : samples) {
    if (s.jobset || s.volcano || s.framework) bases.push_back(&s);
  }
  REQUIRE(bases.size() > 20);
  Mutator mutator(20261126);
  Tally builtin, crd;
  size_t fast_valid = 0, fast_invalid = 0, frameworks = 0, frameworks_valid = 0;
  const int variants = RandomTrials(10000);
  for (int i = 0; i < variants; ++i) {
    const Sample& base = *bases[static_cast<size_t>(i) % bases.size()];
    Node variant = mutator.Mutate(base.object);
    const std::string where = base.where + " variant " + std::to_string(i);
    NamedSchema own = OwnSchema(base);
    FastVerdict v = Compare(own, variant, where, &builtin);
    frameworks += base.framework;
    frameworks_valid += base.framework && v == FastVerdict::kValid;
    fast_valid += v == FastVerdict::kValid;
    fast_invalid += v == FastVerdict::kInvalid;
    if (with_crd && base.jobset) Compare(CrdSchema(), variant, where, &crd);
  }
  MESSAGE("builtin schemas: " << builtin.decisive << " of " << builtin.checked
                              << " decisive (valid " << fast_valid << ", invalid " << fast_invalid
                              << ")");
  MESSAGE("CRD schema: " << crd.decisive << " of " << crd.checked << " decisive");
  MESSAGE("Framework schema: " << frameworks << " variants, valid " << frameworks_valid);
  CHECK(builtin.disagreements == 0);
  CHECK(crd.disagreements == 0);
  CHECK(builtin.checked == variants);
  // The built-in schemas hold no keyword the fast check leaves to valijson.
  CHECK(builtin.decisive == builtin.checked);
  // Both verdicts occur often enough for the comparison to mean something.
  CHECK(fast_valid * 10 >= builtin.checked);
  CHECK(fast_invalid * 10 >= builtin.checked);
  if (with_crd) CHECK(crd.decisive * 10 >= crd.checked * 9);
  // The Framework schema gets its share of the variants, valid and invalid ones.
  CHECK(frameworks * 20 >= variants);
  CHECK(frameworks_valid * 10 >= frameworks);
  CHECK(frameworks_valid * 10 <= frameworks * 9);
}

TEST_CASE("fast schema: agrees with valijson on thousands of damaged objects of our own") {
  AgreeOnDamaged(OwnSamples(), false);
}

TEST_CASE("fast schema: agrees with valijson on thousands of damaged corpus objects, CRD included" *
          doctest::test_suite("corpus")) {
  if (CorpusOrSkip().empty()) return;
  REQUIRE(CorpusCrdSchema());
  AgreeOnDamaged(CorpusSamples(), true);
}

}  // namespace
}  // namespace jobset
