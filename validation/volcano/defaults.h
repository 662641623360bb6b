// Defaulting of Volcano batch.volcano.sh/v1alpha1 Jobs: the CRD's structural defaults and the
// upstream mutating webhook's (/jobs/mutate), as RFC 6902 patches.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"
#include "validation/core/patch.h"

namespace jobset {

inline constexpr char kVolcanoApiVersion[] = "batch.volcano.sh/v1alpha1";
inline constexpr char kVolcanoKind[] = "Job";
/// The scheduler name the upstream webhook manager fills in without --scheduler-name.
inline constexpr char kVolcanoDefaultScheduler[] = "volcano";

/// The CRD structural defaults kube-apiserver applies on decode, to absent fields only
/// (the CRD of volcano-sh/volcano@ed72c7c8, config/crd/volcano/bases/batch.volcano.sh_jobs.yaml):
/// spec.maxRetry 3, spec.queue "default", tasks[].partitionPolicy.minPartitions 0,
/// networkTopology.mode "hard" (job level and in a partition policy). Appends what it did to
/// `patch`.
void ApplyVolcanoCrdDefaults(Node* object, std::vector<PatchOp>* patch);

/// The upstream mutating webhook's defaults, CREATE only, in its patch order
/// (volcano-sh/volcano@ed72c7c8, pkg/webhooks/admission/jobs/mutate/mutate_job.go, createPatch):
/// queue, schedulerName (`scheduler_name`), maxRetry, one "replace /spec/tasks" (task names
/// default<i>, dnsPolicy for hostNetwork, task minAvailable, task maxRetry) when a task changed,
/// spec.minAvailable, and a "replace /spec/plugins" (svc/ssh added) whenever plugins is set.
/// Go zero values count as unset: an explicit 0 or "" is replaced, as upstream does.
void ApplyVolcanoWebhookDefaults(Node* object, std::string_view scheduler_name,
                                 std::vector<PatchOp>* patch);

/// Whether `n` holds what Go decodes to a zero int32 (absent, null or 0).
bool IsZeroInt(const Node* n);

/// The string in `n`, or "" when it is absent or not a string (Go's zero value).
std::string TextOf(const Node* n);

/// The integer in `n` clamped to int32 (Volcano's type), or `fallback` when it is absent or
/// not an integer.
int64_t IntOr(const Node* n, int64_t fallback);

}  // namespace jobset
