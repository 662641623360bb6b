#include "validation/volcano/rules.h"

namespace jobset {

std::span<const RuleInfo> VolcanoRules() {
  using S = Severity;
  using R = RuleSource;
  static constexpr RuleInfo kRows[] = {
      // The CRD schema (schemas/volcano.v1alpha1.json) reports through schema/* and
      // metadata/name; the validating webhook (CREATE, then UPDATE):
      {kVolcanoNoTasks.id, S::kError, R::kWebhook, "A Volcano Job has no tasks."},
      {kVolcanoMpiMasterTask.id, S::kError, R::kWebhook,
       "The mpi plugin's master task (--master=, default master) does not exist."},
      {kVolcanoNetworkTopologyTiers.id, S::kError, R::kWebhook,
       "networkTopology sets both highestTierAllowed and highestTierName."},
      {kVolcanoTaskMinAvailable.id, S::kError, R::kWebhook,
       "A task's minAvailable is greater than its replicas."},
      {kVolcanoDuplicateTaskName.id, S::kError, R::kWebhook, "Two tasks have the same name."},
      {kVolcanoPolicyEventExitCode.id, S::kError, R::kWebhook,
       "A lifecycle policy sets both an event and an exitCode, or neither."},
      {kVolcanoPolicyEvent.id, S::kError, R::kWebhook,
       "A lifecycle policy names an event users may not use (PodRunning, OutOfSync, ...)."},
      {kVolcanoPolicyAction.id, S::kError, R::kWebhook,
       "An event policy's action is missing or not a policy action."},
      {kVolcanoDuplicatePolicy.id, S::kError, R::kWebhook,
       "Two policies of one list handle the same event or exit code."},
      {kVolcanoExitCodeZero.id, S::kError, R::kWebhook, "An exit-code policy names exit code 0."},
      {kVolcanoWildcardEvent.id, S::kError, R::kWebhook,
       "A policy list handles `*` and another event."},
      {kVolcanoPodName.id, S::kError, R::kWebhook,
       "<job>-<task>-<index> is not a valid qualified name (too long or bad characters)."},
      {kVolcanoPodTemplate.id, S::kError, R::kWebhook,
       "A task's pod template fails pod template validation (no containers, no image, names)."},
      {kVolcanoTopologyCpu.id, S::kError, R::kWebhook,
       "A task with a topologyPolicy has a container whose CPU request is not whole cores."},
      {kVolcanoPartitionPolicy.id, S::kError, R::kWebhook,
       "A task's partitionPolicy does not add up (partitions, size, replicas, minAvailable)."},
      {kVolcanoJobName.id, S::kError, R::kWebhook, "The job name is not a valid qualified name."},
      {kVolcanoMinAvailable.id, S::kError, R::kWebhook,
       "spec.minAvailable is greater than the tasks' total replicas."},
      {kVolcanoUnknownPlugin.id, S::kError, R::kWebhook, "spec.plugins names an unknown plugin."},
      {kVolcanoVolume.id, S::kError, R::kWebhook,
       "A volume has no or a repeated mountPath, or a wrong claim / claim name."},
      {kVolcanoRootQueue.id, S::kError, R::kWebhook, "The job is submitted to the root queue."},
      {kVolcanoDependsOnDag.id, S::kError, R::kWebhook,
       "Task dependsOn forms a cycle or names a task that does not exist."},
      {kVolcanoUpdateTasks.id, S::kError, R::kWebhook, "An update adds or removes tasks."},
      {kVolcanoUpdateImmutable.id, S::kError, R::kWebhook,
       "An update changes a spec field other than minAvailable, replicas, priorityClassName."},
      // Volcano: accepted, but will not do what was meant.
      {kVolcanoExitCodeAction.id, S::kWarning, R::kAnalysis,
       "An exit-code policy's action is not a policy action; nothing checks it."},
      {kVolcanoDeadEvent.id, S::kWarning, R::kAnalysis,
       "A policy waits for an event that never reaches it (JobUpdated, PodPending, Unknown)."},
      {kVolcanoMaxRetry.id, S::kWarning, R::kAnalysis,
       "maxRetry 1 with restart actions: the first restart fails the job."},
      {kVolcanoZeroReplaced.id, S::kWarning, R::kAnalysis,
       "An explicit 0 (maxRetry, minAvailable) is read as unset and replaced."},
      {kVolcanoShadowedPolicy.id, S::kWarning, R::kAnalysis,
       "A policy never fires: an earlier or task-level policy takes its events first."},
      {kVolcanoPodNameLength.id, S::kWarning, R::kAnalysis,
       "Pod names with the highest replica index are longer than 63 characters."},
  };
  return kRows;
}

}  // namespace jobset
