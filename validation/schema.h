// JSON Schema validation of objects (the CRD's structural checks), with valijson.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "validation/finding.h"
#include "validation/node.h"

namespace jobset {

/// A schema ready to validate objects; immutable and shareable across threads.
struct CompiledSchema;

/// The built-in JobSet v1alpha2 schema (schemas/jobset.v1alpha2.json, embedded at build time),
/// compiled once on first use.
std::shared_ptr<const CompiledSchema> BuiltinJobSetSchema();

/// The built-in Volcano batch.volcano.sh/v1alpha1 Job schema (schemas/volcano.v1alpha1.json),
/// completed with the ObjectMeta and PodTemplateSpec definitions of the JobSet schema (the pod
/// template is the same core/v1 type), compiled once on first use.
std::shared_ptr<const CompiledSchema> BuiltinVolcanoJobSchema();

/// Compiles the `openAPIV3Schema` of the served version `version` of a CustomResourceDefinition
/// (e.g. from `kubectl get crd jobsets.jobset.x-k8s.io -o yaml`), converted to JSON Schema at
/// run time. Gives nullptr and a message when the CRD is not usable.
std::shared_ptr<const CompiledSchema> CompileCrdSchema(const Node& crd, const std::string& version,
                                                       std::string* error);

/// Validates `object` (the whole manifest: apiVersion, kind, metadata, spec ...) and returns one
/// error finding per violation, with Kubernetes field paths and messages, placed in `object`.
std::vector<Finding> ValidateSchema(const CompiledSchema& schema, const Node& object);

}  // namespace jobset
