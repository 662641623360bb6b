// Defaulting, in one place: the CRD's structural defaults and the upstream mutating webhook's.
#pragma once

#include <string>
#include <vector>

#include "validation/core/node.h"
#include "validation/core/patch.h"

namespace jobset {

/// The CRD structural defaults kube-apiserver applies on every decode (the CRD of
/// kubernetes-sigs/jobset@08dfbdfd, config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml):
/// replicatedJobs[].groupName "default" and replicas 1, failurePolicy.restartStrategy Recreate,
/// volumeClaimPolicies[].retentionPolicy.whenDeleted Delete. Appends what it did to `patch`.
void ApplyCrdDefaults(Node* object, std::vector<PatchOp>* patch);

/// The upstream mutating webhook's defaults, in its order (kubernetes-sigs/jobset@08dfbdfd
/// pkg/webhooks/jobset_webhook.go, Default), CREATE only.
void ApplyWebhookDefaults(Node* object, std::vector<PatchOp>* patch);

}  // namespace jobset
