// What Volcano's distributed-framework job plugins add to a Pod the job controller creates
// (volcano-sh/volcano@ed72c7c8, pkg/controllers/job/plugins/distributed-framework/{pytorch,
// tensorflow,mpi,ray,hcclrank}/*.go: addFlags, OnPodCreate; pkg/controllers/job/helpers/
// helpers.go: MakeDomainName, GetTaskIndexUnderJob).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "validation/core/node.h"

namespace jobset {

/// A Pod as a plugin's OnPodCreate sees it: built by createJobPod, not yet created.
struct VolcanoPluginPod {
  std::string job;              ///< The Job's name (as render names it: see RenderVolcanoJobPods).
  std::string name;             ///< `<job>-<task>-<index>`.
  std::string task_key;         ///< The volcano.sh/task-spec annotation (GetTaskKey).
  int64_t index = 0;            ///< The replica index within its task.
  Node* spec = nullptr;         ///< The Pod's spec (a mapping).
  Node* annotations = nullptr;  ///< The Pod's annotations (a mapping).
};

/// Whether `plugin` is one of the plugins ApplyDistributedPlugin models: pytorch, tensorflow,
/// mpi, ray, hcclrank.
bool IsDistributedPlugin(std::string_view plugin);

/// Applies plugin `plugin` with its arguments `args` (a sequence of strings, parsed as Go's
/// flag package parses them: a bad argument stops the parse) to `pod` of the Volcano Job `job`
/// (its defaults applied), as its OnPodCreate does:
/// - pytorch (--master, --worker, --port 23456, --wait-master-enabled, --wait-master-timeout,
///   --wait-master-image): when the master task exists, port `pytorchjob-port` opened and env
///   MASTER_ADDR (the first master's domain name), MASTER_PORT, WORLD_SIZE (master and worker
///   replicas) and RANK (0 on a master, index+1 on a worker) appended to every container; on a
///   worker the init container `wait-for-master` when enabled;
/// - tensorflow (--ps, --worker, --chief, --evaluator, --port 2222): env TF_CONFIG (the cluster's
///   hosts by role and this pod's role and index, as Go's json.Marshal writes it) appended to
///   every container, unless the job is one task of one replica;
/// - mpi (--master, --worker, --port 22): port `mpijob-port` opened in every (init) container, and
///   on a master, when the worker task exists, env MPI_HOST (the workers' domain names, comma-
///   separated); a master without a worker task is left as it is;
/// - ray (--head, --headContainer, --worker, --workerContainer, --port 6379, --dashboardPort 8265,
///   --clientPort 10001): the head container gets ports `gcs`, `dashboard`, `client-server` and
///   the command `ray start --head ...`, the worker container `ray start --address=<head>:<port>`;
/// - hcclrank (--master, --worker): annotation `hccl/rankIndex` unless already set: the first
///   container env RANK's value, else the index on a master and master replicas + index on a
///   worker.
/// Returns the plugin's error ("" when none): ray on a job without its head task fails, and the
/// controller then creates no pod of the job.
std::string ApplyDistributedPlugin(std::string_view plugin, const Node& args, const Node& job,
                                   VolcanoPluginPod* pod);

/// `s` as Go's encoding/json writes a string: quoted, with `"`, `\`, control characters, `<`,
/// `>`, `&`, U+2028 and U+2029 escaped.
std::string GoJsonString(std::string_view s);

}  // namespace jobset
