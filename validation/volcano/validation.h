// Volcano batch.volcano.sh/v1alpha1 Job admission: the upstream validating webhook's CREATE and
// UPDATE rules (volcano-sh/volcano@ed72c7c8,
// pkg/webhooks/admission/jobs/validate/admit_job.go), with upstream's message fragments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/core/finding.h"
#include "validation/core/node.h"

namespace jobset {

/// The events a policy may name (bus/v1alpha1/events.go), in the order our messages list them.
const std::vector<std::string>& VolcanoPolicyEvents();
/// The actions a policy may take (bus/v1alpha1/actions.go), in the order our messages list them.
const std::vector<std::string>& VolcanoPolicyActions();
/// The job plugins the webhook knows.
const std::vector<std::string>& VolcanoPlugins();

/// The validating webhook's validateJobCreate on a defaulted Job, in upstream order. Each error
/// finding's `upstream` is the fragment upstream appends to its message (leading space and
/// ';' included); VolcanoCreateMessage joins them. The queue checks that need the cluster
/// (the queue exists, is open, is a leaf) are not run; the root-queue check is.
void ValidateVolcanoCreate(const Node& object, std::vector<Finding>* out);

/// The validating webhook's validateJobUpdate: its first error only (none when allowed).
/// Findings are placed in `new_object`; `upstream` is upstream's whole message.
void ValidateVolcanoUpdate(const Node& old_object, const Node& new_object,
                           std::vector<Finding>* out);

/// The message a CREATE denial carries: the `upstream` fragments of `errors`, in order, joined
/// and trimmed of surrounding whitespace, as validateJobCreate builds it.
std::string VolcanoCreateMessage(const std::vector<Finding>& errors);

}  // namespace jobset
