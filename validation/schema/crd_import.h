// From a CustomResourceDefinition's OpenAPI v3 schema to our JSON Schema (draft 7): what
// CompileCrdSchema does at run time for --crd, and what schema_gen does once to produce the
// generated definitions of schemas/ (the embedded Job and Pod templates, among others).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "validation/core/node.h"

namespace jobset {

/// How ConvertCrdSchema converts one schema tree.
struct CrdImportOptions {
  /// Schema positions, by CRD field path ("spec.replicatedJobs[].template.spec.template": `[]`
  /// for list items, `{}` for map values), converted to a `$ref` to `#/definitions/<name>`
  /// instead of inline. The position where the conversion starts is never replaced.
  std::map<std::string, std::string> refs;
  /// The field path where the conversion starts ("" at the root).
  std::string path;
  /// Lists, by field path, whose x-kubernetes-list-type is left out: their duplicates are
  /// reported by other code.
  std::set<std::string> skip_list_types;
  /// Keep the facts that do not decide validity as annotations: format, default, and the
  /// x-kubernetes-* markers (int-or-string, preserve-unknown-fields, embedded-resource,
  /// map-type). Needed for generated files; --crd mode keeps only what validates.
  bool annotations = false;
};

/// Converts the OpenAPI v3 (structural) schema `in` of a CRD to JSON Schema: types (nullable
/// adds "null", x-kubernetes-int-or-string is integer or string), enums, patterns, bounds,
/// required, properties (additionalProperties false where the API server prunes unknown
/// fields, that is everywhere but under x-kubernetes-preserve-unknown-fields), items, allOf/
/// anyOf/oneOf/not, and x-kubernetes-list-type / x-kubernetes-list-map-keys with the defaults of
/// the key fields. Descriptions, examples and CEL rules (x-kubernetes-validations) are dropped.
/// False and a message naming the place when the schema cannot be used.
bool ConvertCrdSchema(const Node& in, const CrdImportOptions& options, nlohmann::json* out,
                      std::string* error);

/// The `openAPIV3Schema` of the served version `version` of a CustomResourceDefinition ("": the
/// first served one); nullptr and a message when there is none. `chosen` (optional) receives the
/// name of the version.
const Node* FindCrdSchema(const Node& crd, const std::string& version, std::string* chosen,
                          std::string* error);

/// One definition a generated file holds: `name`, from the CRD schema at field path `path`.
struct GeneratedDefinition {
  std::string name;
  std::string path;
};

/// A file of schemas/ that schema_gen generates from an upstream CRD.
struct GeneratedSchemaFile {
  std::string crd;      ///< The CRD's metadata.name ("jobsets.jobset.x-k8s.io").
  std::string file;     ///< Its name in schemas/ ("jobset.v1alpha2.crd.json").
  std::string version;  ///< The CRD version it is taken from.
  std::string source;   ///< The upstream file, for its $comment.
  std::vector<GeneratedDefinition> definitions;
};

/// schemas/jobset.v1alpha2.crd.json, from the JobSet CRD: the batch/v1 JobSpec and core/v1
/// PodTemplateSpec of replicated jobs, the PersistentVolumeClaim spec and status of volume claim
/// policies, and the JobSet's status.
const GeneratedSchemaFile& JobSetCrdFile();

/// schemas/volcano.v1alpha1.crd.json, from the Volcano Job CRD: the Job's spec (its tasks'
/// core/v1 PodTemplateSpec a definition of its own) and status.
const GeneratedSchemaFile& VolcanoCrdFile();

/// The generated file of the CRD `crd` (by its metadata.name); nullptr for another CRD.
const GeneratedSchemaFile* GeneratedFileFor(const Node& crd);

/// The definitions document `file` generated from `crd`: `$comment`, and `definitions` with
/// each definition converted by ConvertCrdSchema (with annotations), where a position that
/// another definition covers is a `$ref` to it. False and a message when the CRD or a path is
/// not usable.
bool GenerateDefinitions(const Node& crd, const GeneratedSchemaFile& file, nlohmann::json* out,
                         std::string* error);

/// A generated document as schema_gen writes it (and the committed file holds): two-space
/// indentation, keys sorted, a final newline.
std::string RenderGenerated(const nlohmann::json& doc);

}  // namespace jobset
