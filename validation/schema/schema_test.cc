#include "validation/schema/schema.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "tests/corpus.h"
#include "validation/core/embedded.h"
#include "validation/core/k8s_names.h"
#include "validation/core/loader.h"
#include "validation/jobset/defaults.h"
#include "validation/schema/schema_internal.h"

namespace jobset {
namespace {

using Json = nlohmann::json;

/// The JobSet CRD of the corpus (tests/corpus.h), at upstream's config/components/crd/bases.
std::string CrdPath() { return CorpusDir() + "/jobset/crd/jobset.x-k8s.io_jobsets.yaml"; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The real CRD, loaded once per test that needs it.
Node LoadCrd() {
  SourceFile f = ParseSource(CrdPath(), ReadFile(CrdPath()));
  REQUIRE(!f.documents.empty());
  REQUIRE(f.documents[0].parsed);
  return f.documents[0].root;
}

std::shared_ptr<const CompiledSchema> CrdSchema() {
  static const std::shared_ptr<const CompiledSchema> schema = [] {
    std::string error;
    auto compiled = CompileCrdSchema(LoadCrd(), "v1alpha2", &error);
    INFO(error);
    REQUIRE(compiled);
    return compiled;
  }();
  return schema;
}

/// The findings of the first document of `yaml` against `schema`.
std::vector<Finding> Check(const CompiledSchema& schema, const std::string& yaml) {
  SourceFile f = ParseSource("test.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return ValidateSchema(schema, f.documents[0].root);
}

std::vector<Finding> Builtin(const std::string& yaml) {
  auto schema = BuiltinJobSetSchema();
  REQUIRE(schema);
  return Check(*schema, yaml);
}

/// The schema the shared test cases below run against: the built-in one (always), or the CRD
/// of the corpus (test suite "corpus", skipped without the corpus). Both must give the same
/// findings, but where a case says the CRD knows more.
struct Under {
  bool crd = false;
  std::vector<Finding> Check(const std::string& yaml) const {
    return crd ? jobset::Check(*CrdSchema(), yaml) : Builtin(yaml);
  }
};

/// The CRD side, or nullopt after printing the skip line when the corpus is absent.
std::optional<Under> CrdSide() {
  if (CorpusOrSkip().empty()) return std::nullopt;
  return Under{true};
}

std::string Describe(const std::vector<Finding>& findings) {
  std::string s;
  for (const Finding& f : findings) {
    s += f.rule + " @" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column) + " [" +
         f.field + "] " + f.message + "\n";
  }
  return s;
}

/// Asserts that `findings` is exactly one finding with these properties.
void ExpectOne(const std::vector<Finding>& findings, const std::string& rule,
               const std::string& field, const std::string& message, int line, int column) {
  INFO(Describe(findings));
  REQUIRE(findings.size() == 1);
  const Finding& f = findings[0];
  CHECK(f.rule == rule);
  CHECK(f.severity == Severity::kError);
  CHECK(f.field == field);
  CHECK(f.message == message);
  CHECK(f.upstream == message);
  CHECK(f.mark.line == line);
  CHECK(f.mark.column == column);
}

// A valid JobSet; tests splice lines into it. Line numbers are given in comments.
const std::string kHead =
    "apiVersion: jobset.x-k8s.io/v1alpha2\n"  // 1
    "kind: JobSet\n"                          // 2
    "metadata:\n"                             // 3
    "  name: js\n"                            // 4
    "spec:\n";                                // 5
const std::string kReplicatedJob =
    "  replicatedJobs:\n"                 // 6
    "  - name: workers\n"                 // 7
    "    replicas: 2\n"                   // 8
    "    template:\n"                     // 9
    "      spec:\n"                       // 10
    "        parallelism: 1\n"            // 11
    "        template:\n"                 // 12
    "          spec:\n"                   // 13
    "            restartPolicy: Never\n"  // 14
    "            containers:\n"           // 15
    "            - name: main\n"          // 16
    "              image: busybox\n";     // 17

std::string JobSet(const std::string& spec_extra = "", const std::string& rjob_extra = "") {
  return kHead + spec_extra + kReplicatedJob + rjob_extra;
}

// ---- The agreement test: our schema against the CRD ------------------------------------------

/// Places where our schema is strict and the CRD is open on purpose.
const std::set<std::string> kStricterThanCrd = {
    "metadata",  // The API server checks ObjectMeta itself; the CRD only says "object".
};

/// Lists whose x-kubernetes-list-type our schema leaves out: the JobSet admission checks
/// (validation/jobset/validation.cc, ValidateKeyedList) report their duplicates, with or without
/// a schema (CompileCrdSchema leaves them out of --crd schemas too).
const std::set<std::string> kListTypeElsewhere = {"spec.replicatedJobs",
                                                  "spec.replicatedJobs[].dependsOn"};

/// A schema value as text, for comparisons ("-" when absent).
std::string Text(const Json& schema, const char* keyword) {
  return schema.contains(keyword) ? schema[keyword].dump() : "-";
}
std::string Text(const Node& schema, const char* keyword) {
  const Node* n = schema.Find(keyword);
  if (!n) return "-";
  if (n->is_string()) return Json(n->text).dump();
  if (n->is_seq()) {
    Json a = Json::array();
    for (const Node& item : n->items) a.push_back(item.text);
    return a.dump();
  }
  return n->text;
}

class Agreement {
 public:
  explicit Agreement(const Json& ours) : ours_(ours) {}

  void Walk(const Json& ours_in, const Node& crd, const std::string& path) {
    const Json& ours = Resolve(ours_in);
    ++compared_;
    // Types: int-or-string is integer or string, nullable adds null.
    std::set<std::string> our_types, crd_types;
    if (ours.contains("type")) {
      if (ours["type"].is_string()) our_types.insert(ours["type"].get<std::string>());
      if (ours["type"].is_array()) {
        for (const Json& t : ours["type"]) our_types.insert(t.get<std::string>());
      }
    }
    if (crd.Find("type")) crd_types.insert(std::string(crd.StringOr("type")));
    const Node* ios = crd.Find("x-kubernetes-int-or-string");
    if (ios && ios->is_bool() && ios->boolean) crd_types = {"integer", "string"};
    const Node* nullable = crd.Find("nullable");
    if (nullable && nullable->is_bool() && nullable->boolean) crd_types.insert("null");
    CHECK_MESSAGE(our_types == crd_types, path, ": types differ");
    const std::string our_type = our_types.size() == 1 ? *our_types.begin() : "";
    // An object our schema leaves open: nothing below it (nor its required list) is ours.
    if (our_type == "object" && !ours.contains("properties") &&
        !ours.contains("additionalProperties")) {
      ++skipped_;
      return;
    }
    // Enums.
    std::set<std::string> our_enum, crd_enum;
    if (ours.contains("enum")) {
      for (const Json& v : ours["enum"]) our_enum.insert(v.dump());
    }
    if (const Node* e = crd.Find("enum")) {
      for (const Node& v : e->items) crd_enum.insert(Json(v.text).dump());
    }
    // Exactly the CRD's enums: the Job API's own enums (completionMode, podFailurePolicy
    // actions ...) are not enforced when the JobSet is admitted, only when its Jobs are created,
    // so they are child Job errors (job-template/unsupported-value), not schema errors.
    CHECK_MESSAGE(our_enum == crd_enum, path, ": enums differ");
    // Required.
    std::set<std::string> our_req, crd_req;
    if (ours.contains("required")) {
      for (const Json& v : ours["required"]) our_req.insert(v.get<std::string>());
    }
    if (const Node* r = crd.Find("required")) {
      for (const Node& v : r->items) crd_req.insert(v.text);
    }
    CHECK_MESSAGE(our_req == crd_req, path, ": required lists differ");
    // Bounds, lengths, patterns, formats.
    for (const char* keyword : {"minimum", "maximum", "minItems", "maxItems", "minLength",
                                "maxLength", "pattern", "format"}) {
      std::string a = Text(ours, keyword), b = Text(crd, keyword);
      CHECK_MESSAGE(a == b, path, ": ", std::string(keyword), " ", a, " vs CRD ", b);
    }
    // List types and keys (atomic is the default).
    if (!kListTypeElsewhere.count(path)) {
      for (const char* keyword : {"x-kubernetes-list-type", "x-kubernetes-list-map-keys"}) {
        std::string a = Text(ours, keyword), b = Text(crd, keyword);
        if (b == "\"atomic\"" && a == "-") a = b;
        CHECK_MESSAGE(a == b, path, ": ", std::string(keyword), " ", a, " vs CRD ", b);
      }
    }
    // Maps of values (labels, nodeSelector, resources ...).
    if (ours.contains("additionalProperties") && ours["additionalProperties"].is_object()) {
      const Node* extra = crd.Find("additionalProperties");
      CHECK_MESSAGE(extra, path, ": a map in ours, not in the CRD");
      if (extra) Walk(ours["additionalProperties"], *extra, path + "{}");
    }
    // Lists.
    if (ours.contains("items")) {
      const Node* items = crd.Find("items");
      CHECK_MESSAGE(items, path, ": a list in ours, not in the CRD");
      if (items) Walk(ours["items"], *items, path + "[]");
    }
    // Fields.
    if (!ours.contains("properties")) {
      // No fields: none in the CRD either (an object of no fields, pruned whole).
      CHECK_MESSAGE(!crd.Find("properties"), path, ": open in ours, strict in the CRD");
      return;
    }
    const Node* crd_props = crd.Find("properties");
    if (kStricterThanCrd.count(path)) return;
    CHECK_MESSAGE(crd_props, path, ": strict in ours, open in the CRD");
    if (!crd_props) return;
    CHECK_MESSAGE(ours.value("additionalProperties", true) == false, path, ": not strict");
    std::set<std::string> crd_names;
    for (const MapEntry& e : crd_props->entries) {
      crd_names.insert(e.key);
      CHECK_MESSAGE(ours["properties"].contains(e.key), Dot(path, e.key), ": only in the CRD");
    }
    for (const auto& [name, sub] : ours["properties"].items()) {
      CHECK_MESSAGE(crd_names.count(name), Dot(path, name), ": only in our schema");
      if (const Node* c = crd_props->Find(name)) Walk(sub, *c, Dot(path, name));
    }
  }

  int compared() const { return compared_; }
  int skipped() const { return skipped_; }

 private:
  static std::string Dot(const std::string& path, const std::string& name) {
    return path.empty() ? name : path + "." + name;
  }
  const Json& Resolve(const Json& s) const {
    if (s.contains("$ref")) {
      std::string ref = s["$ref"].get<std::string>();
      return Resolve(ours_.at(Json::json_pointer(ref.substr(1))));
    }
    return s;
  }

  const Json& ours_;
  int compared_ = 0;
  int skipped_ = 0;
};

}  // namespace

TEST_CASE("schema: the built-in schema agrees with the CRD everywhere" *
          doctest::test_suite("corpus")) {
  if (CorpusOrSkip().empty()) return;
  // The hand-written schema with the definitions generated from the CRD.
  const Json ours = BuiltinJobSetDocument();
  REQUIRE(ours.is_object());
  Node crd = LoadCrd();
  const Node* versions = crd.Find("spec")->Find("versions");
  REQUIRE(versions);
  const Node* open_api = versions->items[0].Find("schema")->Find("openAPIV3Schema");
  REQUIRE(open_api);
  Agreement agreement(ours);
  agreement.Walk(ours, *open_api, "");
  MESSAGE("compared ", agreement.compared(), " schemas, skipped ", agreement.skipped(),
          " open objects");
  // Every object of the CRD, down to the fields of containers, volumes and affinity terms.
  CHECK(agreement.compared() > 1400);
  CHECK(agreement.skipped() == 0);
}

TEST_CASE("schema: the built-in Volcano Job schema agrees with Volcano's CRD everywhere" *
          doctest::test_suite("corpus")) {
  const std::string corpus = CorpusOrSkip();
  if (corpus.empty()) return;
  // The root with the definitions generated from Volcano's CRD: the tasks' pod templates are
  // Volcano's own, down to the fields of containers and volumes.
  const Json ours = BuiltinVolcanoJobDocument();
  REQUIRE(ours.is_object());
  const std::string path = corpus + "/volcano/crd/batch.volcano.sh_jobs.yaml";
  SourceFile f = ParseSource(path, ReadFile(path));
  REQUIRE(!f.documents.empty());
  REQUIRE(f.documents[0].parsed);
  const Node* versions = f.documents[0].root.Find("spec")->Find("versions");
  REQUIRE(versions);
  const Node* open_api = versions->items[0].Find("schema")->Find("openAPIV3Schema");
  REQUIRE(open_api);
  Agreement agreement(ours);
  agreement.Walk(ours, *open_api, "");
  MESSAGE("compared ", agreement.compared(), " schemas, skipped ", agreement.skipped(),
          " open objects");
  CHECK(agreement.compared() > 1300);
  CHECK(agreement.skipped() == 0);
}

TEST_CASE("schema: every corpus JobSet is valid against both schemas, after defaulting" *
          doctest::test_suite("corpus")) {
  const std::string corpus = CorpusOrSkip();
  if (corpus.empty()) return;
  auto builtin = BuiltinJobSetSchema();
  REQUIRE(builtin);
  auto crd = CrdSchema();
  int jobsets = 0;
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(corpus + "/jobset/examples")) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  for (const std::string& path : files) {
    SourceFile f = ParseSource(path, ReadFile(path));
    for (const Document& d : f.documents) {
      if (!d.parsed || d.root.StringOr("kind") != "JobSet") continue;
      ++jobsets;
      INFO(path, " document ", d.index);
      // As kube-apiserver (and the linter) do: defaults first, then the schema. Without the
      // webhook's defaults, the failure-policy examples lack the required rule names.
      Node object = d.root;
      std::vector<PatchOp> patch;
      ApplyCrdDefaults(&object, &patch);
      ApplyWebhookDefaults(&object, &patch);
      std::vector<Finding> a = ValidateSchema(*builtin, object);
      CHECK_MESSAGE(a.empty(), "built-in:\n", Describe(a));
      std::vector<Finding> b = ValidateSchema(*crd, object);
      CHECK_MESSAGE(b.empty(), "CRD:\n", Describe(b));
    }
  }
  CHECK(jobsets >= 25);
}

// ---- Cases shared by both schemas, registered once for each below -------------------------

namespace {

void BaseManifestIsValid(const Under& s) { CHECK(s.Check(JobSet()).empty()); }

void UnknownFields(const Under& s) {
  SUBCASE("in spec") {
    std::string yaml = JobSet("  sucessPolicy:\n    operator: All\n");
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/unknown-field", "spec.sucessPolicy",
                "unknown field \"spec.sucessPolicy\"", 6, 3);
    }
  }
  SUBCASE("at the top level") {
    std::string yaml = JobSet() + "extra: 1\n";
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/unknown-field", "extra", "unknown field \"extra\"", 18, 1);
    }
  }
  SUBCASE("in a replicated job") {
    std::string yaml = JobSet("", "    foo: bar\n");
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/unknown-field", "spec.replicatedJobs[0].foo",
                "unknown field \"spec.replicatedJobs[0].foo\"", 18, 5);
    }
  }
  SUBCASE("in a failure policy rule") {
    std::string yaml = JobSet(
        "  failurePolicy:\n"                 // 6
        "    rules:\n"                       // 7
        "    - name: r\n"                    // 8
        "      action: FailJobSet\n"         // 9
        "      onJobFailureReason: [x]\n");  // 10
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/unknown-field", "spec.failurePolicy.rules[0].onJobFailureReason",
                "unknown field \"spec.failurePolicy.rules[0].onJobFailureReason\"", 10, 7);
    }
  }
  SUBCASE("in the Job spec") {
    std::string yaml = JobSet("", "");
    yaml.replace(yaml.find("parallelism"), 11, "parallelizm");
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/unknown-field",
                "spec.replicatedJobs[0].template.spec.parallelizm",
                "unknown field \"spec.replicatedJobs[0].template.spec.parallelizm\"", 11, 9);
    }
  }
  SUBCASE("in the pod spec") {
    std::string yaml = JobSet() + "            containerz: []\n";  // 18
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/unknown-field",
                "spec.replicatedJobs[0].template.spec.template.spec.containerz",
                "unknown field \"spec.replicatedJobs[0].template.spec.template.spec.containerz\"",
                18, 13);
    }
  }
  SUBCASE("in a container") {
    std::string yaml = JobSet() + "              imagePolicy: Always\n";  // 18
    const char* field =
        "spec.replicatedJobs[0].template.spec.template.spec.containers[0].imagePolicy";
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/unknown-field", field,
                std::string("unknown field \"") + field + "\"", 18, 15);
    }
  }
  SUBCASE("deep in a container: both schemas know every pod field") {
    std::string yaml = JobSet() +
                       "              securityContext:\n"  // 18
                       "                foo: true\n";      // 19
    const char* field =
        "spec.replicatedJobs[0].template.spec.template.spec.containers[0].securityContext.foo";
    ExpectOne(s.Check(yaml), "schema/unknown-field", field,
              std::string("unknown field \"") + field + "\"", 19, 17);
  }
  SUBCASE("template metadata keeps only the fields the CRD publishes") {
    std::string yaml = JobSet("", "");
    yaml.replace(yaml.find("    template:\n") + 14, 0,
                 "      metadata:\n"                    // 10
                 "        creationTimestamp: null\n");  // 11
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/unknown-field",
                "spec.replicatedJobs[0].template.metadata.creationTimestamp",
                "unknown field \"spec.replicatedJobs[0].template.metadata.creationTimestamp\"", 11,
                9);
    }
  }
  SUBCASE("every unknown field of an object, in document order") {
    std::string yaml = JobSet("  foo: 1\n  bar: 2\n");
    for (const auto& findings : {s.Check(yaml)}) {
      INFO(Describe(findings));
      REQUIRE(findings.size() == 2);
      CHECK(findings[0].field == "spec.foo");
      CHECK(findings[1].field == "spec.bar");
      CHECK(findings[1].mark.line == 7);
    }
  }
}

void WrongTypes(const Under& s) {
  SUBCASE("string for an integer") {
    std::string yaml = JobSet("  ttlSecondsAfterFinished: soon\n");
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/type", "spec.ttlSecondsAfterFinished",
                "spec.ttlSecondsAfterFinished: Invalid value: \"string\": "
                "spec.ttlSecondsAfterFinished in body must be of type integer: \"string\"",
                6, 28);
    }
  }
  SUBCASE("float for an integer in the Job spec") {
    std::string yaml = JobSet();
    yaml.replace(yaml.find("parallelism: 1"), 14, "parallelism: 1.5");
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/type", "spec.replicatedJobs[0].template.spec.parallelism",
                "spec.replicatedJobs[0].template.spec.parallelism: Invalid value: \"number\": "
                "spec.replicatedJobs[0].template.spec.parallelism in body must be of type "
                "integer: \"number\"",
                11, 22);
    }
  }
  SUBCASE("a whole float is an integer") {
    std::string yaml = JobSet();
    yaml.replace(yaml.find("replicas: 2"), 11, "replicas: 2.0");
    CHECK(s.Check(yaml).empty());
  }
  SUBCASE("object for a list") {
    std::string yaml = kHead + "  replicatedJobs:\n    name: workers\n";
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/type", "spec.replicatedJobs",
                "spec.replicatedJobs: Invalid value: \"object\": spec.replicatedJobs in body "
                "must be of type array: \"object\"",
                7, 5);
    }
  }
  SUBCASE("number for a string in a list") {
    std::string yaml = JobSet() + "              args: [\"a\", 1]\n";  // 18
    const std::string field =
        "spec.replicatedJobs[0].template.spec.template.spec.containers[0].args[1]";
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/type", field,
                field + ": Invalid value: \"integer\": " + field +
                    " in body must be of type string: \"integer\"",
                18, 27);
    }
  }
  SUBCASE("boolean for a string label") {
    std::string yaml = JobSet();
    yaml.replace(yaml.find("  name: js\n"), 11, "  name: js\n  labels:\n    on: yes\n");
    if (!s.crd) {
      ExpectOne(s.Check(yaml), "schema/type", "metadata.labels.on",
                "metadata.labels.on: Invalid value: \"boolean\": metadata.labels.on in body must "
                "be of type string: \"boolean\"",
                6, 9);
    }
  }
  SUBCASE("null fields are dropped, as kube-apiserver does") {
    std::string yaml = JobSet("  suspend:\n  managedBy: null\n");
    CHECK(s.Check(yaml).empty());
  }
  SUBCASE("int-or-string quantities") {
    std::string yaml = JobSet() +
                       "              resources:\n"       // 18
                       "                limits:\n"        // 19
                       "                  cpu: 2\n"       // 20
                       "                  memory: 1Gi\n"  // 21
                       "                  gpu: true\n";   // 22
    const std::string field =
        "spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources.limits.gpu";
    ExpectOne(s.Check(yaml), "schema/type", field,
              field + ": Invalid value: \"boolean\": " + field +
                  " in body must be of type integer,string: \"boolean\"",
              22, 24);
  }
  SUBCASE("patterns (matched with RE2)") {
    std::string yaml = JobSet() +
                       "              resources:\n"         // 18
                       "                requests:\n"        // 19
                       "                  memory: 1 GB\n";  // 20
    const std::string field =
        "spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources.requests."
        "memory";
    auto findings = s.Check(yaml);
    INFO(Describe(findings));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].rule == "schema/invalid");
    CHECK(findings[0].field == field);
    CHECK(findings[0].message.rfind(
              field + ": Invalid value: \"1 GB\": " + field + " in body should match '^(\\+|-)?",
              0) == 0);
    CHECK(findings[0].mark.line == 20);
    CHECK(findings[0].mark.column == 27);
  }
}

void Enums(const Under& s) {
  SUBCASE("failure policy action") {
    std::string yaml = JobSet(
        "  failurePolicy:\n"     // 6
        "    rules:\n"           // 7
        "    - name: r\n"        // 8
        "      action: Foo\n");  // 9
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/enum", "spec.failurePolicy.rules[0].action",
                "spec.failurePolicy.rules[0].action: Unsupported value: \"Foo\": supported values: "
                "\"FailJobSet\", \"RestartJobSet\", \"RestartJobSetAndIgnoreMaxRestarts\", "
                "\"RestartJob\", \"RestartJobAndIgnoreMaxRestarts\"",
                9, 15);
    }
  }
  SUBCASE("dependsOn status") {
    std::string yaml = JobSet("", "    dependsOn:\n    - name: a\n      status: Done\n");
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/enum", "spec.replicatedJobs[0].dependsOn[0].status",
                "spec.replicatedJobs[0].dependsOn[0].status: Unsupported value: \"Done\": "
                "supported values: \"Ready\", \"Complete\"",
                20, 15);
    }
  }
  SUBCASE("Job completionMode: not an admission error, in either schema") {
    std::string yaml = JobSet();
    yaml.replace(yaml.find("parallelism: 1"), 14, "completionMode: indexed");
    CHECK(s.Check(yaml).empty());
  }
}

void RequiredFields(const Under& s) {
  SUBCASE("replicated job name") {
    std::string yaml = JobSet();
    yaml.replace(yaml.find("  - name: workers\n    replicas"), 30, "  - replicas");
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/required", "spec.replicatedJobs[0].name",
                "spec.replicatedJobs[0].name: Required value", 7, 5);
    }
  }
  SUBCASE("success policy operator") {
    std::string yaml = JobSet("  successPolicy:\n    targetReplicatedJobs: [workers]\n");
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/required", "spec.successPolicy.operator",
                "spec.successPolicy.operator: Required value", 6, 3);
    }
  }
  SUBCASE("a null value does not satisfy required") {
    std::string yaml = JobSet("  startupPolicy:\n    startupPolicyOrder: null\n");
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/required", "spec.startupPolicy.startupPolicyOrder",
                "spec.startupPolicy.startupPolicyOrder: Required value", 6, 3);
    }
  }
  SUBCASE("the pod template") {
    std::string yaml = kHead +
                       "  replicatedJobs:\n"  // 6
                       "  - name: w\n"        // 7
                       "    template:\n"      // 8
                       "      spec:\n"        // 9
                       "        completions: 2\n";
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/required", "spec.replicatedJobs[0].template.spec.template",
                "spec.replicatedJobs[0].template.spec.template: Required value", 9, 7);
    }
  }
}

void MinimumAndMaxItems(const Under& s) {
  SUBCASE("negative replicas") {
    std::string yaml = JobSet();
    yaml.replace(yaml.find("replicas: 2"), 11, "replicas: -1");
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/minimum", "spec.replicatedJobs[0].replicas",
                "spec.replicatedJobs[0].replicas: Invalid value: -1: "
                "spec.replicatedJobs[0].replicas in body should be greater than or equal to 0",
                8, 15);
    }
  }
  SUBCASE("zero replicas are fine") {
    std::string yaml = JobSet();
    yaml.replace(yaml.find("replicas: 2"), 11, "replicas: 0");
    CHECK(s.Check(yaml).empty());
  }
  SUBCASE("six dependencies") {
    std::string deps = "    dependsOn:\n";  // 18
    for (int i = 0; i < 6; ++i) {
      deps += "    - name: j" + std::to_string(i) + "\n      status: Ready\n";
    }
    std::string yaml = JobSet("", deps);
    for (const auto& findings : {s.Check(yaml)}) {
      ExpectOne(findings, "schema/max-items", "spec.replicatedJobs[0].dependsOn",
                "spec.replicatedJobs[0].dependsOn: Too many: 6: must have at most 5 items", 19, 5);
    }
  }
}

void DuplicateKeys(const Under& s) {
  const std::string pod = "spec.replicatedJobs[0].template.spec.template.spec";
  SUBCASE("two containers with one name (list-map key name)") {
    std::string yaml = JobSet() +
                       "            - name: main\n"       // 18
                       "              image: busybox\n";  // 19
    ExpectOne(s.Check(yaml), "schema/duplicate-key", pod + ".containers[1]",
              pod + ".containers[1]: Duplicate value: map[string]interface {}{\"name\":\"main\"}",
              18, 21);
  }
  SUBCASE("ports keyed by containerPort and protocol, which defaults to TCP") {
    std::string yaml = JobSet() +
                       "              ports:\n"                // 18
                       "              - containerPort: 80\n"   // 19
                       "              - containerPort: 80\n"   // 20
                       "                protocol: UDP\n"       // 21
                       "              - containerPort: 80\n"   // 22
                       "                protocol: TCP\n"       // 23
                       "              - containerPort: 80\n";  // 24: a third TCP, not reported
    const std::string field = pod + ".containers[0].ports[2]";
    ExpectOne(s.Check(yaml), "schema/duplicate-key", field,
              field +
                  ": Duplicate value: map[string]interface {}{\"containerPort\":80, "
                  "\"protocol\":\"TCP\"}",
              22, 32);
  }
  SUBCASE("a set repeats a value") {
    std::string yaml = JobSet();
    yaml.replace(yaml.find("        parallelism: 1\n"), 0,
                 "        podFailurePolicy:\n"          // 11
                 "          rules:\n"                   // 12
                 "          - action: FailJob\n"        // 13
                 "            onExitCodes:\n"           // 14
                 "              operator: In\n"         // 15
                 "              values: [1, 2, 1]\n");  // 16
    const std::string field =
        "spec.replicatedJobs[0].template.spec.podFailurePolicy.rules[0].onExitCodes.values[2]";
    ExpectOne(s.Check(yaml), "schema/duplicate-key", field, field + ": Duplicate value: 1", 16, 30);
  }
  SUBCASE("distinct keys are fine") {
    std::string yaml = JobSet() +
                       "              env:\n"
                       "              - {name: A, value: x}\n"
                       "              - {name: B, value: x}\n";
    CHECK(s.Check(yaml).empty());
  }
}

void SeveralProblems(const Under& s) {
  std::string yaml = JobSet(
      "  ttlSecondsAfterFinished: -5\n"  // 6
      "  successPolicy:\n"               // 7
      "    operator: Some\n",            // 8
      "    dependsOn:\n"                 // 18
      "    - name: a\n");                // 19
  for (const auto& findings : {s.Check(yaml)}) {
    INFO(Describe(findings));
    REQUIRE(findings.size() == 3);
    CHECK(findings[0].rule == "schema/minimum");
    CHECK(findings[1].rule == "schema/enum");
    CHECK(findings[2].rule == "schema/required");
    CHECK(findings[2].field == "spec.replicatedJobs[0].dependsOn[0].status");
  }
}

/// Four threads validate with `a` and `b` in turn, each getting the same findings throughout.
void SeveralThreads(const CompiledSchema& a, const CompiledSchema& b) {
  std::string yaml = JobSet("  ttlSecondsAfterFinished: -1\n");
  SourceFile f = ParseSource("test.yaml", yaml);
  const Node& object = f.documents[0].root;
  std::vector<int> counts(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        counts[t] += static_cast<int>(ValidateSchema(t % 2 ? a : b, object).size());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int c : counts) CHECK(c == 200);
}

}  // namespace

TEST_CASE("schema: the base manifest of these tests is valid") { BaseManifestIsValid(Under{}); }
TEST_CASE("schema: unknown fields") { UnknownFields(Under{}); }
TEST_CASE("schema: wrong types") { WrongTypes(Under{}); }
TEST_CASE("schema: enums") { Enums(Under{}); }
TEST_CASE("schema: required fields") { RequiredFields(Under{}); }
TEST_CASE("schema: minimum and maxItems") { MinimumAndMaxItems(Under{}); }
TEST_CASE("schema: duplicate keys of list-maps and items of sets") { DuplicateKeys(Under{}); }
TEST_CASE("schema: several problems give one finding each, in document order") {
  SeveralProblems(Under{});
}
TEST_CASE("schema: one compiled schema serves several threads") {
  SeveralThreads(*BuiltinJobSetSchema(), *BuiltinJobSetSchema());
}

// The same cases against the CRD of the corpus.
TEST_CASE("schema: CRD: the base manifest of these tests is valid" *
          doctest::test_suite("corpus")) {
  if (auto s = CrdSide()) BaseManifestIsValid(*s);
}
TEST_CASE("schema: CRD: unknown fields" * doctest::test_suite("corpus")) {
  if (auto s = CrdSide()) UnknownFields(*s);
}
TEST_CASE("schema: CRD: wrong types" * doctest::test_suite("corpus")) {
  if (auto s = CrdSide()) WrongTypes(*s);
}
TEST_CASE("schema: CRD: enums" * doctest::test_suite("corpus")) {
  if (auto s = CrdSide()) Enums(*s);
}
TEST_CASE("schema: CRD: required fields" * doctest::test_suite("corpus")) {
  if (auto s = CrdSide()) RequiredFields(*s);
}
TEST_CASE("schema: CRD: minimum and maxItems" * doctest::test_suite("corpus")) {
  if (auto s = CrdSide()) MinimumAndMaxItems(*s);
}
TEST_CASE("schema: CRD: duplicate keys of list-maps and items of sets" *
          doctest::test_suite("corpus")) {
  if (auto s = CrdSide()) DuplicateKeys(*s);
}
TEST_CASE("schema: CRD: several problems give one finding each, in document order" *
          doctest::test_suite("corpus")) {
  if (auto s = CrdSide()) SeveralProblems(*s);
}
TEST_CASE("schema: CRD: one compiled schema serves several threads" *
          doctest::test_suite("corpus")) {
  if (CrdSide()) SeveralThreads(*BuiltinJobSetSchema(), *CrdSchema());
}

TEST_CASE("schema: CompileCrdSchema refuses what it cannot use") {
  std::string error;
  SUBCASE("not a CRD") {
    SourceFile f = ParseSource("x.yaml", JobSet());
    CHECK_FALSE(CompileCrdSchema(f.documents[0].root, "v1alpha2", &error));
    CHECK(error ==
          "not a CustomResourceDefinition (apiVersion \"jobset.x-k8s.io/v1alpha2\", "
          "kind \"JobSet\")");
  }
  SUBCASE("a schema that is not a schema") {
    SourceFile f = ParseSource("crd.yaml",
                               "apiVersion: apiextensions.k8s.io/v1\n"
                               "kind: CustomResourceDefinition\n"
                               "metadata: {name: x.y}\n"
                               "spec:\n"
                               "  versions:\n"
                               "  - name: v1\n"
                               "    served: true\n"
                               "    schema:\n"
                               "      openAPIV3Schema:\n"
                               "        type: object\n"
                               "        properties:\n"
                               "          spec: {type: thing}\n");
    CHECK_FALSE(CompileCrdSchema(f.documents[0].root, "v1", &error));
    CHECK(error == "openAPIV3Schema.properties.spec.type: unsupported type \"thing\"");
  }
}

TEST_CASE("schema: CompileCrdSchema on the real CRD: versions" * doctest::test_suite("corpus")) {
  if (CorpusOrSkip().empty()) return;
  std::string error;
  SUBCASE("an unknown version") {
    CHECK_FALSE(CompileCrdSchema(LoadCrd(), "v9", &error));
    CHECK(error ==
          "CustomResourceDefinition \"jobsets.jobset.x-k8s.io\" has no version \"v9\" "
          "(it has v1alpha2)");
  }
  SUBCASE("no version named: the first served one") {
    CHECK(CompileCrdSchema(LoadCrd(), "", &error));
  }
}

TEST_CASE("schema: CRD conversion keeps preserve-unknown-fields open and nullable fields") {
  SourceFile f = ParseSource("crd.yaml",
                             "apiVersion: apiextensions.k8s.io/v1\n"
                             "kind: CustomResourceDefinition\n"
                             "metadata: {name: things.example.com}\n"
                             "spec:\n"
                             "  versions:\n"
                             "  - name: v1\n"
                             "    served: true\n"
                             "    schema:\n"
                             "      openAPIV3Schema:\n"
                             "        type: object\n"
                             "        properties:\n"
                             "          spec:\n"
                             "            type: object\n"
                             "            properties:\n"
                             "              open: {type: object, "
                             "x-kubernetes-preserve-unknown-fields: true}\n"
                             "              size: {type: integer, nullable: true, maximum: 3, "
                             "exclusiveMaximum: true}\n"
                             "              name: {type: string, maxLength: 3}\n");
  std::string error;
  auto schema = CompileCrdSchema(f.documents[0].root, "v1", &error);
  INFO(error);
  REQUIRE(schema);
  CHECK(
      Check(*schema, "kind: Thing\nmetadata: {name: a}\nspec: {open: {x: 1}, size: 2}\n").empty());
  ExpectOne(Check(*schema, "spec: {size: 3}\n"), "schema/minimum", "spec.size",
            "spec.size: Invalid value: 3: spec.size in body should be less than 3", 1, 14);
  ExpectOne(Check(*schema, "spec: {name: abcd}\n"), "schema/invalid", "spec.name",
            "spec.name: Too long: may not be more than 3 bytes", 1, 14);
  ExpectOne(Check(*schema, "metadata: {nam: a}\n"), "schema/unknown-field", "metadata.nam",
            "unknown field \"metadata.nam\"", 1, 12);
}

}  // namespace jobset

namespace jobset {
namespace {

/// A one-version CRD whose spec has a name (pattern), a size (bounds), a mode (enum) and a list
/// of objects, compiled.
std::shared_ptr<const CompiledSchema> ReportCrd() {
  SourceFile f = ParseSource("crd.yaml",
                             "apiVersion: apiextensions.k8s.io/v1\n"
                             "kind: CustomResourceDefinition\n"
                             "metadata: {name: things.example.com}\n"
                             "spec:\n"
                             "  versions:\n"
                             "  - name: v1\n"
                             "    served: true\n"
                             "    schema:\n"
                             "      openAPIV3Schema:\n"
                             "        type: object\n"
                             "        properties:\n"
                             "          spec:\n"
                             "            type: object\n"
                             "            properties:\n"
                             "              name: {type: string, pattern: '^[a-z]+$'}\n"
                             "              size: {type: integer, minimum: 0, maximum: 9}\n"
                             "              mode: {type: string, enum: [A, B]}\n"
                             "              items: {type: array, items: {type: object}}\n");
  std::string error;
  auto schema = CompileCrdSchema(f.documents[0].root, "v1", &error);
  INFO(error);
  REQUIRE(schema);
  return schema;
}

/// The findings of `yaml` under `schema`, reported as `report` says.
std::vector<Finding> Reported(const CompiledSchema& schema, const std::string& yaml,
                              const SchemaReport& report) {
  SourceFile f = ParseSource("test.yaml", yaml);
  REQUIRE(f.documents[0].parsed);
  return ValidateSchema(schema, f.documents[0].root, report);
}

}  // namespace

TEST_CASE("schema report: rule ids by keyword and field, first match wins") {
  auto schema = ReportCrd();
  SchemaReport report;
  report.rules = {{"pattern", "spec.name", RuleId{"thing/name"}},
                  {"minimum", "", RuleId{"thing/bound"}},
                  {"maximum", "", RuleId{"thing/bound"}},
                  {"type", "", RuleId{"thing/type"}}};
  const std::string yaml = "spec: {name: A1, size: 10, mode: C, items: [1]}\n";
  std::vector<std::string> got;
  for (const Finding& f : Reported(*schema, yaml, report)) {
    got.push_back(f.rule + " " + f.field);
    CHECK(f.severity == Severity::kError);
    CHECK(f.upstream == f.message);
  }
  // The enum has no mapping: it keeps its schema/* id. Messages do not change.
  CHECK(got == std::vector<std::string>{"thing/name spec.name", "thing/bound spec.size",
                                        "schema/enum spec.mode", "thing/type spec.items[0]"});
  CHECK(Reported(*schema, "spec: {size: -1}\n", report).at(0).message ==
        "spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 0");
  // Without a report, the schema/* ids.
  std::vector<Finding> plain = Reported(*schema, yaml, SchemaReport{});
  REQUIRE(plain.size() == 4);
  CHECK(plain[0].rule == "schema/invalid");
  CHECK(plain[1].rule == "schema/minimum");
  // A field mapping applies at that field only.
  report.rules = {{"pattern", "spec.other", RuleId{"thing/name"}}};
  CHECK(Reported(*schema, "spec: {name: A1}\n", report).at(0).rule == "schema/invalid");
}

TEST_CASE("schema report: pruned unknown fields, Go quoting, null list items") {
  auto schema = ReportCrd();
  SchemaReport report;
  report.rules = {{"additionalProperties", "", RuleId{"thing/unknown-field"}}};
  report.unknown_field_severity = Severity::kWarning;
  report.unknown_field_detail = "pruned";
  report.quote = &GoQuote;
  report.skip_null_items = true;
  std::vector<Finding> fs =
      Reported(*schema, "spec:\n  sise: 1\n  mode: \"\\x01\"\n  items: [null]\n", report);
  REQUIRE(fs.size() == 2);
  CHECK(fs[0].rule == "thing/unknown-field");
  CHECK(fs[0].severity == Severity::kWarning);
  CHECK(fs[0].message == "unknown field \"spec.sise\": pruned");
  CHECK(fs[0].upstream.empty());  // The API server accepts the object.
  CHECK(fs[0].mark.line == 2);
  CHECK(fs[0].mark.column == 3);
  // Go's %q writes a control byte as \x01, JSON as \u0001.
  CHECK(fs[1].message == "spec.mode: Unsupported value: \"\\x01\": supported values: \"A\", \"B\"");

  // The default report: an error, JSON quoting, and the null item is checked.
  std::vector<Finding> plain =
      Reported(*schema, "spec:\n  sise: 1\n  mode: \"\\x01\"\n  items: [null]\n", SchemaReport{});
  REQUIRE(plain.size() == 3);
  CHECK(plain[0].severity == Severity::kError);
  CHECK(plain[0].message == "unknown field \"spec.sise\"");
  CHECK(plain[1].message ==
        "spec.mode: Unsupported value: \"\\u0001\": supported values: \"A\", \"B\"");
  CHECK(plain[2].field == "spec.items[0]");
}

}  // namespace jobset
