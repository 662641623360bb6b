// Defaulting, in one place: the CRD's structural defaults and the upstream mutating webhook's.
#pragma once

#include <string>
#include <vector>

#include "validation/node.h"

namespace jobset {

/// One RFC 6902 operation: "add" for JobSet (defaulting only adds; "add" on an existing member
/// replaces it, which is how an empty restartPolicy or rule name is filled in), "replace" where
/// an upstream webhook says so (Volcano's /spec/tasks and /spec/plugins).
struct PatchOp {
  std::string path;  ///< JSON Pointer, e.g. "/spec/replicatedJobs/0/replicas".
  Node value;
  std::string op = "add";  ///< "add" or "replace".
};

/// The CRD structural defaults kube-apiserver applies on every decode (the CRD of
/// kubernetes-sigs/jobset@08dfbdfd, config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml):
/// replicatedJobs[].groupName "default" and replicas 1, failurePolicy.restartStrategy Recreate,
/// volumeClaimPolicies[].retentionPolicy.whenDeleted Delete. Appends what it did to `patch`.
void ApplyCrdDefaults(Node* object, std::vector<PatchOp>* patch);

/// The upstream mutating webhook's defaults, in its order (kubernetes-sigs/jobset@08dfbdfd
/// pkg/webhooks/jobset_webhook.go, Default), CREATE only.
void ApplyWebhookDefaults(Node* object, std::vector<PatchOp>* patch);

/// Escapes one JSON Pointer segment ("~" -> "~0", "/" -> "~1").
std::string PointerSegment(std::string_view key);

}  // namespace jobset
