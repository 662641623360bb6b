#include "validation/schema/crd_import.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "tests/corpus.h"
#include "validation/core/embedded.h"
#include "validation/core/loader.h"

namespace jobset {
namespace {

using Json = nlohmann::json;

Node Parse(const std::string& yaml) {
  SourceFile f = ParseSource("test.yaml", yaml);
  REQUIRE(f.documents.size() == 1);
  REQUIRE(f.documents[0].parsed);
  return f.documents[0].root;
}

// A CRD in the shape controller-gen writes, with the keywords the conversion keeps or drops.
const char kCrd[] = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.com
spec:
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        description: A thing.
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                items:
                  type: object
                  required: [containerPort]
                  properties:
                    containerPort: {type: integer, format: int32, description: The port.}
                    protocol: {type: string, default: TCP}
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [containerPort, protocol]
              codes:
                type: array
                items: {type: integer, format: int32}
                x-kubernetes-list-type: set
              args:
                type: array
                items: {type: string}
                x-kubernetes-list-type: atomic
              limits:
                type: object
                additionalProperties:
                  anyOf: [{type: integer}, {type: string}]
                  pattern: ^[0-9]+$
                  x-kubernetes-int-or-string: true
              template:
                type: object
                x-kubernetes-validations:
                - rule: self.size() > 0
                properties:
                  name: {type: string, nullable: true}
              open:
                type: object
                x-kubernetes-preserve-unknown-fields: true
)";

TEST_CASE("crd import: lists keep their type and keys, the rest only validity") {
  Node crd = Parse(kCrd);
  std::string error;
  const Node* open_api = FindCrdSchema(crd, "", nullptr, &error);
  REQUIRE(open_api);
  Json out;
  REQUIRE(ConvertCrdSchema(*open_api, CrdImportOptions{}, &out, &error));
  const Json& spec = out["properties"]["spec"]["properties"];
  CHECK(spec["ports"]["x-kubernetes-list-type"] == "map");
  CHECK(spec["ports"]["x-kubernetes-list-map-keys"] == Json{"containerPort", "protocol"});
  // The default of a key field decides which items are duplicates: kept.
  CHECK(spec["ports"]["items"]["properties"]["protocol"]["default"] == "TCP");
  CHECK(spec["codes"]["x-kubernetes-list-type"] == "set");
  CHECK_FALSE(spec["args"].contains("x-kubernetes-list-type"));  // atomic: nothing to check.
  CHECK(spec["limits"]["additionalProperties"] ==
        Json{{"type", {"integer", "string"}}, {"pattern", "^[0-9]+$"}});
  CHECK(spec["template"]["properties"]["name"] == Json{{"type", {"string", "null"}}});
  CHECK(spec["template"]["additionalProperties"] == false);
  CHECK_FALSE(spec["open"].contains("additionalProperties"));
  // No descriptions, no formats, no CEL.
  CHECK(out.dump().find("description") == std::string::npos);
  CHECK(out.dump().find("format") == std::string::npos);
  CHECK(out.dump().find("rule") == std::string::npos);
}

TEST_CASE("crd import: annotations for generated files, and references between definitions") {
  Node crd = Parse(kCrd);
  GeneratedSchemaFile file{
      "things.example.com",
      "things.json",
      "v1",
      "example/things crd.yaml",
      {{"Spec", "spec"}, {"Port", "spec.ports[]"}, {"Limit", "spec.limits{}"}}};
  Json doc;
  std::string error;
  REQUIRE(GenerateDefinitions(crd, file, &doc, &error));
  const Json& defs = doc["definitions"];
  CHECK(defs["Spec"]["properties"]["ports"]["items"] == Json{{"$ref", "#/definitions/Port"}});
  CHECK(defs["Spec"]["properties"]["limits"]["additionalProperties"] ==
        Json{{"$ref", "#/definitions/Limit"}});
  CHECK(defs["Port"]["properties"]["containerPort"] ==
        Json{{"type", "integer"}, {"format", "int32"}});
  CHECK(defs["Limit"]["x-kubernetes-int-or-string"] == true);
  CHECK(defs["Spec"]["properties"]["args"]["x-kubernetes-list-type"] == "atomic");
  CHECK(defs["Spec"]["properties"]["open"]["x-kubernetes-preserve-unknown-fields"] == true);
  CHECK(defs["Spec"]["properties"]["template"]["properties"]["name"]["nullable"] == true);
  CHECK(doc["$comment"].get<std::string>().find("example/things crd.yaml") != std::string::npos);
  CHECK(doc.dump().find("description") == std::string::npos);

  file.definitions = {{"Nothing", "spec.nothing[]"}};
  CHECK_FALSE(GenerateDefinitions(crd, file, &doc, &error));
  CHECK(error == "the CRD has no schema at spec.nothing[]");
}

TEST_CASE("crd import: a definition stands for every place of the CRD with the same schema") {
  Node crd = Parse(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.com
spec:
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              main:
                type: object
                properties:
                  port: {type: integer}
                  host: {type: string, description: Where.}
              sidecar:
                type: object
                properties:
                  port: {type: integer}
                  host: {type: string, description: Another text, the same schema.}
              endpoints:
                type: array
                items:
                  type: object
                  properties:
                    port: {type: integer}
                    host: {type: string}
              other:
                type: object
                properties:
                  port: {type: integer}
)");
  GeneratedSchemaFile file{"things.example.com",
                           "things.json",
                           "v1",
                           "example/things crd.yaml",
                           {{"Spec", "spec"}, {"Endpoint", "spec.main"}}};
  Json doc;
  std::string error;
  REQUIRE_MESSAGE(GenerateDefinitions(crd, file, &doc, &error), error);
  const Json& defs = doc["definitions"];
  const Json ref = {{"$ref", "#/definitions/Endpoint"}};
  CHECK(defs["Spec"]["properties"]["main"] == ref);
  CHECK(defs["Spec"]["properties"]["sidecar"] == ref);
  CHECK(defs["Spec"]["properties"]["endpoints"]["items"] == ref);
  // Another schema stays as it is.
  CHECK(defs["Spec"]["properties"]["other"]["properties"]["port"] == Json{{"type", "integer"}});
  CHECK(defs["Endpoint"]["properties"]["port"] == Json{{"type", "integer"}});

  // Two definitions of one schema: which one a place refers to would be a guess.
  file.definitions = {{"Spec", "spec"}, {"Main", "spec.main"}, {"Sidecar", "spec.sidecar"}};
  CHECK_FALSE(GenerateDefinitions(crd, file, &doc, &error));
  CHECK(error == "definitions Main and Sidecar are the same schema");
}

TEST_CASE("crd import: refuses a list-map without keys") {
  Node crd = Parse(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          items: {type: array, items: {type: object}, x-kubernetes-list-type: map}
)");
  std::string error;
  const Node* open_api = FindCrdSchema(crd, "v1", nullptr, &error);
  REQUIRE(open_api);
  Json out;
  CHECK_FALSE(ConvertCrdSchema(*open_api, CrdImportOptions{}, &out, &error));
  CHECK(error ==
        "openAPIV3Schema.properties.items: x-kubernetes-list-type map needs "
        "x-kubernetes-list-map-keys");
}

// The committed generated file of `file` against what schema_gen gives for the corpus CRD at
// `crd` (under the corpus directory).
void CheckGenerated(const GeneratedSchemaFile& file, const std::string& crd) {
  const std::string corpus = CorpusOrSkip();
  if (corpus.empty()) return;
  const std::string path = corpus + "/" + crd;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  SourceFile f = ParseSource(path, text.str());
  REQUIRE(!f.documents.empty());
  REQUIRE(f.documents[0].parsed);
  CHECK(GeneratedFileFor(f.documents[0].root) == &file);
  Json doc;
  std::string error;
  REQUIRE_MESSAGE(GenerateDefinitions(f.documents[0].root, file, &doc, &error), error);
  std::ifstream committed_in(JOBSET_SOURCE_DIR "/schemas/" + file.file, std::ios::binary);
  std::ostringstream committed;
  committed << committed_in.rdbuf();
  // On a difference: build/schema_gen <the CRD> > schemas/<the file>.
  CHECK_MESSAGE(committed.str() == RenderGenerated(doc), "schemas/", file.file,
                " is not what schema_gen gives for ", path);
  // The binary holds the same document, without its indentation.
  const std::string* embedded = FindEmbedded(file.file);
  REQUIRE(embedded);
  CHECK(embedded->size() < committed.str().size() / 2);
  CHECK(Json::parse(*embedded) == doc);
}

TEST_CASE("schema_gen: the committed generated schema is what the corpus CRD gives" *
          doctest::test_suite("corpus")) {
  CheckGenerated(JobSetCrdFile(), "jobset/crd/jobset.x-k8s.io_jobsets.yaml");
}

TEST_CASE("schema_gen: the committed Volcano schema is what Volcano's corpus CRD gives" *
          doctest::test_suite("corpus")) {
  CheckGenerated(VolcanoCrdFile(), "volcano/crd/batch.volcano.sh_jobs.yaml");
}

}  // namespace
}  // namespace jobset
