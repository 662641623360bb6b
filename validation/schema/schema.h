// JSON Schema validation of objects (the CRD's structural checks), with valijson.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "validation/core/finding.h"
#include "validation/core/node.h"
#include "validation/core/rule_registry.h"

namespace jobset {

/// A schema ready to validate objects; immutable and shareable across threads.
struct CompiledSchema;

/// The built-in JobSet v1alpha2 schema (schemas/jobset.v1alpha2.json, embedded at build time),
/// compiled once on first use.
std::shared_ptr<const CompiledSchema> BuiltinJobSetSchema();

/// The built-in Volcano batch.volcano.sh/v1alpha1 Job schema (schemas/volcano.v1alpha1.json, the
/// root, with the definitions schema_gen generates from the Volcano CRD,
/// schemas/volcano.v1alpha1.crd.json, and the ObjectMeta of the JobSet schema), compiled once on
/// first use.
std::shared_ptr<const CompiledSchema> BuiltinVolcanoJobSchema();

/// The built-in FrameworkController frameworkcontroller.microsoft.com/v1 Framework schema
/// (schemas/framework.v1.json: the CRD that the controller installs), its tasks' pods checked
/// against the PodTemplateSpec generated from the JobSet CRD (schemas/jobset.v1alpha2.crd.json),
/// compiled once on first use. Its findings carry the Framework's rule ids when validated with
/// the report of validation/framework/lint.cc.
std::shared_ptr<const CompiledSchema> BuiltinFrameworkSchema();

/// Compiles the `openAPIV3Schema` of the served version `version` of a CustomResourceDefinition
/// (e.g. from `kubectl get crd jobsets.jobset.x-k8s.io -o yaml`), converted to JSON Schema at
/// run time. Gives nullptr and a message when the CRD is not usable.
std::shared_ptr<const CompiledSchema> CompileCrdSchema(const Node& crd, const std::string& version,
                                                       std::string* error);

/// A rule id that ValidateSchema reports instead of its own schema/* one.
struct SchemaRuleId {
  /// The violated keyword: "type", "enum", "required", "additionalProperties" (an unknown field),
  /// "pattern", "minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum",
  /// "exclusiveMinimum", "exclusiveMaximum", "anyOf", "oneOf", "not" or
  /// "x-kubernetes-list-type" (a duplicate in a list-type set or map).
  std::string_view keyword;
  std::string_view field;  ///< Only at this field path ("metadata.name"); "" at any.
  RuleId rule;             ///< The rule id reported.
};

/// How ValidateSchema reports the violations of one kind's schema. The default: the schema/*
/// rules, each finding an error in kube-apiserver's words, strings quoted as JSON.
struct SchemaReport {
  /// Rule ids by violated keyword (and field); the first that matches wins, none keeps schema/*.
  std::vector<SchemaRuleId> rules;
  /// The severity of an unknown field. Anything but an error has no `upstream` text: the API
  /// server accepts the object (a structural schema prunes the field silently).
  Severity unknown_field_severity = Severity::kError;
  /// Follows `unknown field "<path>"` (after ": ") in the message; "" adds nothing.
  std::string unknown_field_detail;
  /// Quotes a string value or an unknown field's path in messages; nullptr quotes as JSON.
  std::string (*quote)(std::string_view) = nullptr;
  /// Null list items are left unchecked, as null fields always are (kube-apiserver prunes only
  /// those): for a kind whose lint has always let them through.
  bool skip_null_items = false;
  /// Fields whose path contains `subtree` (".task.pod.") are reported as `*subtree_report`
  /// says (its rules, unknown fields): a part of the object whose schema is another API's type.
  std::string_view subtree;
  const SchemaReport* subtree_report = nullptr;
};

/// Validates `object` (the whole manifest: apiVersion, kind, metadata, spec ...) and returns one
/// finding per violation, with Kubernetes field paths and messages, placed in `object`, reported
/// as `report` says.
std::vector<Finding> ValidateSchema(const CompiledSchema& schema, const Node& object,
                                    const SchemaReport& report = {});

}  // namespace jobset
