#include "validation/jobset/child_checks.h"

#include "validation/core/field_path.h"
#include "validation/k8s/job.h"

namespace jobset {

void ValidateChildJobs(const JobSet& js, FindingSink* sink) {
  // Another controller renders (or not) the Jobs of a JobSet it manages.
  if (js.managed_by && !js.managed_by->empty() &&
      *js.managed_by != "jobset.sigs.k8s.io/jobset-controller") {
    return;
  }
  PodTemplateOptions options;
  // The JobSet CRD keys containers and volumes by name and volumeMounts by mountPath: the
  // schema rejects a repeat before the Job exists.
  options.duplicates = false;
  // A volumeClaimPolicies template some container mounts becomes a volume of the pod.
  for (const VolumeClaimPolicy& vcp : js.volume_claim_policies)
    for (const std::string& name : vcp.template_names) options.added_volumes.push_back(name);
  const std::string js_name = js.name.empty() ? js.generate_name + "xxxxx" : js.name;
  for (size_t r = 0; r < js.replicated_jobs.size(); ++r) {
    const ReplicatedJob& rj = js.replicated_jobs[r];
    if (!rj.job_spec || rj.replicas <= 0) continue;
    ChildObject child{"Job", js_name + "-" + rj.name + "-0", rj.replicas,
                      Child(Index("spec.replicatedJobs", r), "template")};
    ReportChildErrors(child, ValidateJobSpec(*rj.job_spec, options), sink);
  }
}

}  // namespace jobset
