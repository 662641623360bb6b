// The webhook's decisions on Volcano batch.volcano.sh/v1alpha1 Jobs: /jobs/validate (CREATE
// and UPDATE, as the upstream validating webhook decides, after the CRD schema) and
// /jobs/mutate (the upstream mutating webhook's defaults).
#pragma once

#include <string_view>

#include "validation/lint/lint.h"
#include "webhook/review.h"

namespace jobset::webhook {

/// Whether the request is about a Volcano Job (batch.volcano.sh/v1alpha1, kind Job) itself,
/// not a subresource. Other kinds sent to the Volcano paths are allowed untouched.
bool IsVolcanoJobRequest(const AdmissionRequest& request);

/// The validating webhook. CREATE: LintVolcanoJob (CRD defaults, mutating-webhook defaults,
/// metadata and CRD schema, upstream validateJobCreate); UPDATE: LintVolcanoUpdate. A schema
/// error is denied the way kube-apiserver words it (`Job.batch.volcano.sh "<name>" is
/// invalid: ...`), a webhook error with upstream's own message (CREATE: the fragments joined
/// and trimmed; UPDATE: the first error), both with code 422, reason Invalid. Non-error
/// findings of a CREATE become warnings (the `kubectl-jobset.io/ignore` annotation silences
/// them). Other operations are denied as upstream does: `expect operation to be 'CREATE' or
/// 'UPDATE'`.
AdmissionResponse ValidateVolcanoJob(const AdmissionRequest& request, const LintOptions& options);

/// The mutating webhook, CREATE only: upstream's defaults as an RFC 6902 patch, with
/// `scheduler_name` for an empty spec.schedulerName. Other operations are denied with
/// upstream's `expect operation to be 'CREATE' ` (trailing space included).
AdmissionResponse MutateVolcanoJob(const AdmissionRequest& request,
                                   std::string_view scheduler_name);

}  // namespace jobset::webhook
