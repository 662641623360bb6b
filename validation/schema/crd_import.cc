// The conversion of a CRD's OpenAPI v3 schema to JSON Schema, for --crd and for schema_gen.
#include "validation/schema/crd_import.h"

#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "validation/core/field_path.h"
#include "validation/core/strings.h"
#include "validation/schema/schema_internal.h"

namespace jobset {

using Json = nlohmann::json;

namespace {

/// Whether `n` is the boolean true.
bool IsTrue(const Node* n) { return n && n->is_bool() && n->boolean; }

/// One conversion: the options, and where in the CRD (field path) the schema being converted is.
struct Converter {
  const CrdImportOptions& options;
  std::string start;  ///< The path of the root of the conversion (never replaced by a $ref).

  /// Converts one schema. `where` names it in messages, `path` is its field path. `structural`
  /// is false inside allOf/anyOf/oneOf/not, whose schemas only validate values and never decide
  /// which fields exist.
  bool Schema(const Node& in, const std::string& where, const std::string& path, bool structural,
              Json* out, std::string* error) const;

  /// Where one schema is being converted, and the flags of it its keywords read.
  struct Frame {
    const Node& in;            ///< The schema.
    const std::string& where;  ///< Names it in messages.
    const std::string& path;   ///< Its field path.
    bool structural;           ///< See Schema.
    bool nullable;             ///< nullable: true.
    bool int_or_string;        ///< x-kubernetes-int-or-string: true.
  };

  /// The JSON Schema types of `f.in` (type, int-or-string, nullable) into `types`.
  bool Types(const Frame& f, std::vector<std::string>* types, std::string* error) const;

  /// Converts keyword `e` of `f.in` into `o`: a keyword holding schemas.
  bool SubschemaKeyword(const Frame& f, const MapEntry& e, Json* o, std::string* error) const;

  /// Converts keyword `e` of `f.in` into `o`: a keyword constraining values.
  bool ValueKeyword(const Frame& f, const MapEntry& e, Json* o, std::string* error) const;

  /// Converts keyword `e` of `f.in` into `o`: Kubernetes' extensions, defaults and annotations;
  /// everything else is dropped.
  bool KubernetesKeyword(const Frame& f, const MapEntry& e, Json* o, std::string* error) const;

  /// Converts the schemas of an allOf/anyOf/oneOf list (value validations only).
  bool List(const Node& in, const std::string& where, const std::string& path, Json* out,
            std::string* error) const {
    if (!in.is_seq()) {
      *error = where + ": must be a list of schemas";
      return false;
    }
    *out = Json::array();
    for (size_t i = 0; i < in.items.size(); ++i) {
      Json sub;
      if (!Schema(in.items[i], Index(where, i), path, false, &sub, error)) return false;
      out->push_back(std::move(sub));
    }
    return true;
  }
};

/// Whether an anyOf/oneOf is only the `[{type: integer}, {type: string}]` spelling of
/// x-kubernetes-int-or-string.
bool IsIntOrStringAlternatives(const Node& list) {
  if (!list.is_seq() || list.items.size() != 2) return false;
  std::set<std::string> types;
  for (const Node& alt : list.items) {
    if (!alt.is_map() || alt.entries.size() != 1) return false;
    std::string_view type = alt.StringOr("type");
    if (type != "integer" && type != "string") return false;
    types.emplace(type);
  }
  return types.size() == 2;
}

/// Whether `n` is a list of strings.
bool IsStringList(const Node& n) {
  return n.is_seq() &&
         std::all_of(n.items.begin(), n.items.end(), [](const Node& s) { return s.is_string(); });
}

bool Converter::Types(const Frame& f, std::vector<std::string>* types, std::string* error) const {
  if (const Node* type = FindPresent(&f.in, "type")) {
    static const std::set<std::string, std::less<>> kTypes = {"object",  "array",  "string",
                                                              "integer", "number", "boolean"};
    if (!type->is_string() || !kTypes.count(type->text)) {
      *error = Child(f.where, "type") + ": unsupported type " + SchemaJson(*type).dump();
      return false;
    }
    types->push_back(type->text);
  }
  if (f.int_or_string) *types = {"integer", "string"};
  if (f.nullable && !types->empty()) types->push_back("null");
  return true;
}

bool Converter::SubschemaKeyword(const Frame& f, const MapEntry& e, Json* o,
                                 std::string* error) const {
  const std::string at = Child(f.where, e.key);
  const Node& v = e.value;
  if (e.key == "properties") {
    if (!v.is_map()) {
      *error = at + ": must be a mapping";
      return false;
    }
    Json props = Json::object();
    for (const MapEntry& p : v.entries) {
      Json sub;
      if (!Schema(p.value, Child(at, p.key), Child(f.path, p.key), f.structural, &sub, error)) {
        return false;
      }
      props[p.key] = std::move(sub);
    }
    (*o)["properties"] = std::move(props);
  } else if (e.key == "additionalProperties") {
    if (v.is_bool()) {
      (*o)["additionalProperties"] = v.boolean;
    } else {
      Json sub;
      if (!Schema(v, at, f.path + "{}", f.structural, &sub, error)) return false;
      (*o)["additionalProperties"] = std::move(sub);
    }
  } else if (e.key == "items") {
    Json sub;
    if (!Schema(v, at, f.path + "[]", f.structural, &sub, error)) return false;
    (*o)["items"] = std::move(sub);
  } else if (e.key == "allOf" || e.key == "anyOf" || e.key == "oneOf") {
    if (f.int_or_string && e.key != "allOf" && IsIntOrStringAlternatives(v)) return true;
    Json list;
    if (!List(v, at, f.path, &list, error)) return false;
    (*o)[e.key] = std::move(list);
  } else if (e.key == "not") {
    Json sub;
    if (!Schema(v, at, f.path, false, &sub, error)) return false;
    (*o)["not"] = std::move(sub);
  }
  return true;
}

bool Converter::ValueKeyword(const Frame& f, const MapEntry& e, Json* o, std::string* error) const {
  const std::string at = Child(f.where, e.key);
  const Node& v = e.value;
  if (e.key == "required") {
    if (!IsStringList(v)) {
      *error = at + ": must be a list of strings";
      return false;
    }
    if (!v.items.empty()) (*o)["required"] = SchemaJson(v);
  } else if (e.key == "enum") {
    if (!v.is_seq()) {
      *error = at + ": must be a list";
      return false;
    }
    Json values = SchemaJson(v);
    if (f.nullable) values.push_back(nullptr);
    (*o)["enum"] = std::move(values);
  } else if (e.key == "minimum" || e.key == "maximum") {
    if (!v.is_number()) {
      *error = at + ": must be a number";
      return false;
    }
    // OpenAPI v3.0 spells an exclusive bound as a flag beside it; draft 7 as its own keyword.
    const char* exclusive_keyword = e.key == "minimum" ? "exclusiveMinimum" : "exclusiveMaximum";
    const std::string keyword = IsTrue(f.in.Find(exclusive_keyword)) ? exclusive_keyword : e.key;
    (*o)[keyword] = SchemaJson(v);
  } else if (e.key == "minItems" || e.key == "maxItems" || e.key == "minLength" ||
             e.key == "maxLength") {
    if (!v.is_int() || v.integer < 0) {
      *error = at + ": must be a non-negative integer";
      return false;
    }
    (*o)[e.key] = v.integer;
  } else if (e.key == "pattern") {
    if (!v.is_string()) {
      *error = at + ": must be a string";
      return false;
    }
    re2::RE2 re(v.text, re2::RE2::Quiet);
    if (!re.ok()) {
      *error = at + ": invalid regular expression: " + re.error();
      return false;
    }
    (*o)["pattern"] = v.text;
  }
  return true;
}

bool Converter::KubernetesKeyword(const Frame& f, const MapEntry& e, Json* o,
                                  std::string* error) const {
  const std::string at = Child(f.where, e.key);
  const Node& v = e.value;
  if ((e.key == "x-kubernetes-list-type" || e.key == "x-kubernetes-list-map-keys") &&
      options.skip_list_types.count(f.path)) {
    return true;
  } else if (e.key == "x-kubernetes-list-type") {
    // kube-apiserver's listtype validation: items of a "set" are unique, the keys of a "map"
    // are (schema.cc checks both); "atomic" (the default) says nothing about items.
    if (!v.is_string() || (v.text != "atomic" && v.text != "set" && v.text != "map")) {
      *error = at + ": must be atomic, set or map";
      return false;
    }
    if (v.text != "atomic" || options.annotations) (*o)[e.key] = v.text;
  } else if (e.key == "x-kubernetes-list-map-keys") {
    if (!IsStringList(v) || v.items.empty()) {
      *error = at + ": must be a non-empty list of strings";
      return false;
    }
    (*o)[e.key] = SchemaJson(v);
  } else if (e.key == "default") {
    // Applied before validation; schema.cc reads the defaults of list-map key fields.
    (*o)["default"] = SchemaJson(v);
  } else if (options.annotations && e.key == "format" && v.is_string()) {
    (*o)["format"] = v.text;
  } else if (options.annotations && v.is_bool() && v.boolean &&
             (e.key == "nullable" || e.key == "x-kubernetes-int-or-string" ||
              e.key == "x-kubernetes-preserve-unknown-fields" ||
              e.key == "x-kubernetes-embedded-resource")) {
    (*o)[e.key] = true;
  } else if (options.annotations && e.key == "x-kubernetes-map-type" && v.is_string()) {
    (*o)[e.key] = v.text;
  }
  // Everything else (description, example, x-kubernetes-validations, ...) is dropped: it does
  // not reject values here, or is handled above.
  return true;
}

bool Converter::Schema(const Node& in, const std::string& where, const std::string& path,
                       bool structural, Json* out, std::string* error) const {
  if (structural && path != start) {
    if (auto ref = options.refs.find(path); ref != options.refs.end()) {
      *out = Json{{"$ref", "#/definitions/" + ref->second}};
      return true;
    }
  }
  if (!in.is_map()) {
    *error = where + ": a schema must be a mapping";
    return false;
  }
  const Frame f{in,
                where,
                path,
                structural,
                IsTrue(in.Find("nullable")),
                IsTrue(in.Find("x-kubernetes-int-or-string"))};
  const bool preserve_unknown = IsTrue(in.Find("x-kubernetes-preserve-unknown-fields"));
  const bool embedded = IsTrue(in.Find("x-kubernetes-embedded-resource"));
  Json o = Json::object();
  std::vector<std::string> types;
  if (!Types(f, &types, error)) return false;
  if (types.size() == 1) o["type"] = types[0];
  if (types.size() > 1) o["type"] = types;
  static const std::set<std::string, std::less<>> kSubschemaKeywords = {
      "properties", "additionalProperties", "items", "allOf", "anyOf", "oneOf", "not"};
  static const std::set<std::string, std::less<>> kValueKeywords = {
      "required", "enum",      "minimum",   "maximum", "minItems",
      "maxItems", "minLength", "maxLength", "pattern"};
  for (const MapEntry& e : in.entries) {
    bool ok;
    if (kSubschemaKeywords.count(e.key)) {
      ok = SubschemaKeyword(f, e, &o, error);
    } else if (kValueKeywords.count(e.key)) {
      ok = ValueKeyword(f, e, &o, error);
    } else {
      ok = KubernetesKeyword(f, e, &o, error);
    }
    if (!ok) return false;
  }
  if (o.contains("x-kubernetes-list-type") && o["x-kubernetes-list-type"] == "map" &&
      !o.contains("x-kubernetes-list-map-keys")) {
    *error = where + ": x-kubernetes-list-type map needs x-kubernetes-list-map-keys";
    return false;
  }
  if (structural && embedded) {
    // An embedded resource always has apiVersion, kind and (validated) metadata.
    Json& props = o["properties"];
    if (!props.contains("apiVersion")) props["apiVersion"] = {{"type", "string"}};
    if (!props.contains("kind")) props["kind"] = {{"type", "string"}};
    if (!props.contains("metadata")) props["metadata"] = {{"$ref", "#/definitions/ObjectMeta"}};
  }
  // Pruning removes every field a structural object does not declare; strict field
  // validation reports them as unknown.
  const bool object =
      o.contains("properties") || std::find(types.begin(), types.end(), "object") != types.end();
  if (structural && object && !preserve_unknown && !o.contains("additionalProperties")) {
    o["additionalProperties"] = false;
  }
  *out = std::move(o);
  return true;
}

/// The schema at field path `path` below `root` ("a.b[].c{}"); nullptr when there is none.
const Node* SchemaAt(const Node& root, const std::string& path) {
  const Node* at = &root;
  size_t start = 0;
  while (at && start < path.size()) {
    size_t end = path.find_first_of(".[{", start);
    if (end == std::string::npos) end = path.size();
    if (end > start) {
      const Node* props = at->Find("properties");
      at = props ? props->Find(path.substr(start, end - start)) : nullptr;
    }
    start = end;
    while (at && start < path.size() && path[start] != '.') {
      if (path.compare(start, 2, "[]") == 0) {
        at = at->Find("items");
      } else if (path.compare(start, 2, "{}") == 0) {
        at = at->Find("additionalProperties");
      } else {
        return nullptr;
      }
      start += 2;
    }
    if (start < path.size()) ++start;  // The dot.
  }
  return at;
}

/// Replaces each schema below `s` (and `s` itself unless `root`) whose JSON text is a key of
/// `names` by a `$ref` to that definition. Looks only where the conversion puts the `$ref`s of
/// CrdImportOptions::refs: the schemas of properties, of list items and of map values.
void ShareDefinitions(const std::map<std::string, std::string>& names, bool root, Json* s) {
  if (!s->is_object()) return;
  if (!root) {
    if (auto it = names.find(s->dump()); it != names.end()) {
      *s = Json{{"$ref", "#/definitions/" + it->second}};
      return;
    }
  }
  if (auto props = s->find("properties"); props != s->end() && props->is_object()) {
    for (auto& [name, sub] : props->items()) ShareDefinitions(names, false, &sub);
  }
  for (const char* key : {"items", "additionalProperties"}) {
    if (auto it = s->find(key); it != s->end()) ShareDefinitions(names, false, &*it);
  }
}

}  // namespace

bool ConvertCrdSchema(const Node& in, const CrdImportOptions& options, Json* out,
                      std::string* error) {
  std::string ignored;
  Converter converter{options, options.path};
  return converter.Schema(in, "openAPIV3Schema", options.path, true, out, error ? error : &ignored);
}

const Node* FindCrdSchema(const Node& crd, const std::string& version, std::string* chosen_name,
                          std::string* error) {
  std::string ignored;
  if (!error) error = &ignored;
  if (!crd.is_map() || crd.StringOr("kind") != "CustomResourceDefinition" ||
      crd.StringOr("apiVersion").rfind("apiextensions.k8s.io/", 0) != 0) {
    *error = "not a CustomResourceDefinition (apiVersion " + JsonQuote(crd.StringOr("apiVersion")) +
             ", kind " + JsonQuote(crd.StringOr("kind")) + ")";
    return nullptr;
  }
  const Node* meta = crd.Find("metadata");
  const std::string crd_name = meta ? std::string(meta->StringOr("name")) : std::string();
  const std::string what = "CustomResourceDefinition " + JsonQuote(crd_name);
  const Node* spec = crd.Find("spec");
  const Node* versions = spec ? spec->Find("versions") : nullptr;
  if (!versions || !versions->is_seq() || versions->items.empty()) {
    *error = what + " has no spec.versions";
    return nullptr;
  }
  const Node* chosen = nullptr;
  std::string names;
  for (const Node& v : versions->items) {
    const std::string_view name = v.StringOr("name");
    if (!names.empty()) names += ", ";
    names += name;
    const bool served = IsTrue(v.Find("served"));
    if (!chosen && (version.empty() ? served : name == version)) chosen = &v;
  }
  if (!chosen) {
    *error = version.empty()
                 ? what + " serves no version"
                 : what + " has no version " + JsonQuote(version) + " (it has " + names + ")";
    return nullptr;
  }
  if (!IsTrue(chosen->Find("served"))) {
    *error = what + " does not serve version " + JsonQuote(version);
    return nullptr;
  }
  const Node* schema = chosen->Find("schema");
  const Node* open_api = schema ? schema->Find("openAPIV3Schema") : nullptr;
  if (!open_api) {
    // apiextensions.k8s.io/v1beta1 could give one schema for all versions.
    const Node* validation = spec->Find("validation");
    open_api = validation ? validation->Find("openAPIV3Schema") : nullptr;
  }
  if (!open_api) {
    *error = what + " version " + JsonQuote(std::string(chosen->StringOr("name"))) +
             " has no schema.openAPIV3Schema";
    return nullptr;
  }
  if (chosen_name) *chosen_name = std::string(chosen->StringOr("name"));
  return open_api;
}

namespace {

// Schemas a core/v1 PodSpec at `pod_spec` repeats: each is written once and referred to wherever
// the CRD has the same schema (the containers and init containers, the probes and lifecycle hooks
// of all three kinds of container, the label selectors ...), which makes a generated file a third
// of its size and its compilation at start-up as much cheaper.
std::vector<GeneratedDefinition> PodSpecDefinitions(const std::string& pod_spec) {
  return {
      {"Container", pod_spec + ".containers[]"},
      {"Probe", pod_spec + ".containers[].livenessProbe"},
      {"Lifecycle", pod_spec + ".containers[].lifecycle"},
      {"LifecycleHandler", pod_spec + ".containers[].lifecycle.postStart"},
      {"HTTPGetAction", pod_spec + ".containers[].livenessProbe.httpGet"},
      {"EnvVar", pod_spec + ".containers[].env[]"},
      {"EnvFromSource", pod_spec + ".containers[].envFrom[]"},
      {"ResourceFieldSelector", pod_spec + ".containers[].env[].valueFrom.resourceFieldRef"},
      {"VolumeMount", pod_spec + ".containers[].volumeMounts[]"},
      {"ContainerPort", pod_spec + ".containers[].ports[]"},
      {"SecurityContext", pod_spec + ".containers[].securityContext"},
      {"ResourceRequirements", pod_spec + ".containers[].resources"},
      {"PodAffinity", pod_spec + ".affinity.podAffinity"},
      {"PodAffinityTerm",
       pod_spec + ".affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[]"},
      {"NodeSelectorTerm",
       pod_spec + ".affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                  ".nodeSelectorTerms[]"},
      {"DownwardAPIVolumeFile", pod_spec + ".volumes[].downwardAPI.items[]"},
      {"KeyToPath", pod_spec + ".volumes[].configMap.items[]"},
      {"LocalObjectReference", pod_spec + ".imagePullSecrets[]"},
  };
}

GeneratedSchemaFile WithPodSpec(GeneratedSchemaFile file, const std::string& pod_spec,
                                std::vector<GeneratedDefinition> more) {
  for (GeneratedDefinition& d : PodSpecDefinitions(pod_spec)) file.definitions.push_back(d);
  for (GeneratedDefinition& d : more) file.definitions.push_back(std::move(d));
  return file;
}

}  // namespace

const GeneratedSchemaFile& JobSetCrdFile() {
  static const GeneratedSchemaFile file = WithPodSpec(
      {"jobsets.jobset.x-k8s.io",
       "jobset.v1alpha2.crd.json",
       "v1alpha2",
       "kubernetes-sigs/jobset config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml",
       {
           {"JobSpec", "spec.replicatedJobs[].template.spec"},
           {"PodTemplateSpec", "spec.replicatedJobs[].template.spec.template"},
           {"PersistentVolumeClaimSpec", "spec.volumeClaimPolicies[].templates[].spec"},
           {"PersistentVolumeClaimStatus", "spec.volumeClaimPolicies[].templates[].status"},
           {"JobSetStatus", "status"},
       }},
      "spec.replicatedJobs[].template.spec.template.spec",
      {
          {"LabelSelector", "spec.replicatedJobs[].template.spec.selector"},
          {"ResourceList", "spec.volumeClaimPolicies[].templates[].spec.resources.limits"},
      });
  return file;
}

const GeneratedSchemaFile& VolcanoCrdFile() {
  static const GeneratedSchemaFile file =
      WithPodSpec({"jobs.batch.volcano.sh",
                   "volcano.v1alpha1.crd.json",
                   "v1alpha1",
                   "volcano-sh/volcano config/crd/volcano/bases/batch.volcano.sh_jobs.yaml",
                   {
                       {"VolcanoJobSpec", "spec"},
                       {"PodTemplateSpec", "spec.tasks[].template"},
                       {"VolcanoJobStatus", "status"},
                   }},
                  "spec.tasks[].template.spec",
                  {
                      {"LabelSelector",
                       "spec.tasks[].template.spec.affinity.podAffinity"
                       ".requiredDuringSchedulingIgnoredDuringExecution[].labelSelector"},
                  });
  return file;
}

const GeneratedSchemaFile* GeneratedFileFor(const Node& crd) {
  const Node* meta = crd.Find("metadata");
  const std::string_view name = meta ? meta->StringOr("name") : std::string_view();
  for (const GeneratedSchemaFile* f : {&JobSetCrdFile(), &VolcanoCrdFile()}) {
    if (f->crd == name) return f;
  }
  return nullptr;
}

bool GenerateDefinitions(const Node& crd, const GeneratedSchemaFile& file, Json* out,
                         std::string* error) {
  std::string ignored;
  if (!error) error = &ignored;
  const Node* open_api = FindCrdSchema(crd, file.version, nullptr, error);
  if (!open_api) return false;
  // Each definition converted whole, then every schema below the root of one that equals
  // another definition replaced by a reference to it: the CRD's own path of a definition, and
  // any other place with the same schema, which validates the same and explains the same.
  CrdImportOptions options;
  options.annotations = true;
  Json defs = Json::object();
  std::map<std::string, std::string> names;  // A definition's JSON text -> its name.
  for (const GeneratedDefinition& d : file.definitions) {
    const Node* at = SchemaAt(*open_api, d.path);
    if (!at) {
      *error = "the CRD has no schema at " + d.path;
      return false;
    }
    options.path = d.path;
    Json converted;
    if (!ConvertCrdSchema(*at, options, &converted, error)) {
      *error = d.path + ": " + *error;
      return false;
    }
    auto [same, added] = names.emplace(converted.dump(), d.name);
    if (!added) {
      *error = "definitions " + same->second + " and " + d.name + " are the same schema";
      return false;
    }
    defs[d.name] = std::move(converted);
  }
  for (auto& [name, def] : defs.items()) ShareDefinitions(names, /*root=*/true, &def);
  const Node* meta = crd.Find("metadata");
  const std::string crd_name = meta ? std::string(meta->StringOr("name")) : std::string();
  Json doc = Json::object();
  doc["$comment"] =
      "Generated by schema_gen (schemas/schema_gen.cc) from the " + file.version +
      " schema of the CustomResourceDefinition " + crd_name + ", " + file.source +
      " at the commit docs/upstream.md pins; do not edit. Descriptions are left out; a "
      "definition stands for every place of the CRD that has its schema.";
  doc["definitions"] = std::move(defs);
  *out = std::move(doc);
  return true;
}

std::string RenderGenerated(const Json& doc) {
  return doc.dump(2, ' ', false, Json::error_handler_t::strict) + "\n";
}

}  // namespace jobset
