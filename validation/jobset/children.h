// The objects the JobSet controller creates for a JobSet: the headless Service, the PVCs of its
// volume claim policies, and one Job per replica of every replicated job
// (kubernetes-sigs/jobset@08dfbdfd, pkg/controllers/jobset_controller.go:
// createHeadlessSvcIfNecessary, constructJobsFromTemplate, constructJob, labelAndAnnotateObject;
// volume_claim_policy.go: createPVCsIfNecessary, addVolumes).
#pragma once

#include "validation/core/child_objects.h"
#include "validation/core/node.h"

namespace jobset {

/// The children of `jobset` (as written: the CRD and webhook defaults are applied first, as the
/// controller sees the stored object), in the order the controller creates them: the headless
/// Service (DNS hostnames on), the volume claim policies' PVCs, then the Jobs
/// `<jobset>-<replicatedJob>-<index>` in replicated-job order.
///
/// Each Job: the replicated job's template labels and annotations, its spec verbatim, the
/// controller's `jobset.sigs.k8s.io/*` labels and annotations on the Job and its pod template,
/// the pod template's subdomain, the exclusive-placement nodeSelector and toleration (both
/// alpha annotations), `spec.suspend`, the PVC volumes its containers mount, and a controller
/// owner reference to the JobSet. Values only the API server knows: the JobSet's uid is
/// kPlaceholderUid; a JobSet without a namespace has none on its children, and its job keys
/// and namespaced-job selectors use kPlaceholderNamespace; a JobSet with only generateName is
/// named `<generateName>xxxxx`. Feature gates are off (no job-restart-attempt key).
///
/// With `options.only`, just that replicated job's Jobs (no Service, no PVCs). A JobSet that
/// another controller manages (spec.managedBy) has no children here: a note says so.
ChildObjects RenderJobSetChildren(const Node& jobset, const ChildOptions& options);

}  // namespace jobset
