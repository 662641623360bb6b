// The child Jobs a JobSet's controller creates (jobset pkg/controllers/jobset_controller.go
// constructJobsFromTemplate: Job "<jobset>-<replicatedJob>-<index>" with the replicated job's
// JobSpec), checked as kube-apiserver checks a batch/v1 Job on create (validation/k8s/job.h).
// The JobSet API admits them; each error here means every child Job of that template is
// refused and the JobSet never runs it.
#pragma once

#include "validation/core/finding_sink.h"
#include "validation/jobset/types.h"

namespace jobset {

/// Checks the child Job of each replicated job once (its findings name the first child,
/// "<js>-<rj>-0", and how many the template renders), on the JobSet as defaulted by the CRD
/// and the mutating webhook. Nothing when `spec.managedBy` hands the JobSet to another
/// controller.
void ValidateChildJobs(const JobSet& js, FindingSink* sink);

}  // namespace jobset
