// The Pods the Volcano job controller creates for a Job, with what its plugins add
// (volcano-sh/volcano@ed72c7c8, pkg/controllers/job/job_controller_actions.go syncJob,
// job_controller_util.go createJobPod, plugins/env, plugins/svc, plugins/ssh OnPodCreate; the
// distributed-framework plugins in distributed_plugins.h).
#pragma once

#include "validation/core/child_objects.h"
#include "validation/core/node.h"

namespace jobset {

/// The Pods of `job` (as written: the CRD and mutating-webhook defaults are applied first, with
/// the webhook's default scheduler), `<job>-<task>-<index>` for every task and replica in order.
///
/// Each Pod: the task template's labels, annotations and spec; a controller owner reference to
/// the Job; schedulerName and priorityClassName from the Job when the template has none; the
/// Job's volumes (a PVC volume `<job>-<12 characters>` mounted in every container); the
/// controller's `volcano.sh/*` annotations and labels (task index, task spec, PodGroup name
/// `<job>-<uid>`, queue, job version and retry count), the numa policy, the preemptable,
/// cooldown, revocable-zone and disruption-budget keys copied from the Job, the partition id;
/// then the plugins of spec.plugins in their written order (upstream iterates a Go map: any
/// order, seen in the order of appended env entries, and in what hcclrank reads of pytorch's
/// RANK and env, svc and ssh add to pytorch's init container): `env`
/// (VK_TASK_INDEX, VC_TASK_INDEX), `svc` (hostname and subdomain when unset, VC_<TASK>_HOSTS and
/// VC_<TASK>_NUM from ConfigMap `<job>-svc` unless --inject-hosts-env=false, that ConfigMap at
/// /etc/volcano), `ssh` (Secret `<job>-ssh` at /root/.ssh or --ssh-key-file-path), and pytorch,
/// tensorflow, mpi, ray and hcclrank as ApplyDistributedPlugin (distributed_plugins.h) describes. A
/// plugin that fails (ray without its head task) leaves the job without pods, and a note says
/// why; a name that is no Volcano plugin is named in a note. The objects the plugins create
/// beside the Pods (the svc plugin's Service and ConfigMap, the ssh Secret, ray's head Service)
/// are not rendered.
///
/// Values only the cluster knows: the Job's uid is kPlaceholderUid; the 12 random characters
/// of a volume name (and of a generated claim name, `<job>-pvc-<12>`) are the volume's index
/// in 12 digits. `options.restarts` is the Job's status.version and retryCount (each restart
/// kills the pods with version+1 and counts a retry); `options.only` renders one task.
ChildObjects RenderVolcanoJobPods(const Node& job, const ChildOptions& options);

}  // namespace jobset
