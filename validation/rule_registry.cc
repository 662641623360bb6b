#include "validation/rule_registry.h"

namespace jobset {

const std::vector<RuleInfo>& AllRules() {
  using S = Severity;
  using R = RuleSource;
  static const std::vector<RuleInfo> rules = {
      // Reading the input.
      {"yaml/syntax", S::kError, R::kInput, "The document is not valid YAML or JSON."},
      {"yaml/duplicate-key", S::kWarning, R::kInput,
       "A mapping sets the same field twice; kubectl silently keeps the last value."},
      {"input/too-large", S::kError, R::kInput, "The file is larger than the reading limit."},
      {"input/binary", S::kError, R::kInput, "The file holds binary data (a NUL byte)."},
      {"input/invalid-utf8", S::kError, R::kInput, "The document is not valid UTF-8."},
      {"input/too-deep", S::kError, R::kInput, "The document nests deeper than the limit."},
      {"input/too-many-values", S::kError, R::kInput,
       "The document expands to too many values (an alias bomb)."},
      // kube-apiserver: object metadata, the CRD schema and its CEL rules.
      {"metadata/name", S::kError, R::kSchema,
       "metadata.name (or generateName) is missing or not a DNS-1123 subdomain."},
      {"metadata/namespace", S::kError, R::kSchema, "metadata.namespace is not a DNS-1123 label."},
      {"metadata/labels", S::kError, R::kSchema, "A label key or value is not valid."},
      {"schema/unknown-field", S::kError, R::kSchema,
       "A field the API does not know (strict field validation rejects it)."},
      {"schema/type", S::kError, R::kSchema, "A value has the wrong JSON type."},
      {"schema/enum", S::kError, R::kSchema, "A value is not one of the supported values."},
      {"schema/required", S::kError, R::kSchema, "A required field is missing."},
      {"schema/minimum", S::kError, R::kSchema,
       "A number is below its minimum (or above its maximum)."},
      {"schema/max-items", S::kError, R::kSchema, "A list has more items than allowed."},
      {"schema/invalid", S::kError, R::kSchema, "A value breaks another schema constraint."},
      {"schema/duplicate-key", S::kError, R::kSchema,
       "Two items of a keyed list (replicatedJobs, dependsOn) share a name."},
      {"jobset/startup-policy-depends-on", S::kError, R::kSchema,
       "startupPolicy InOrder and dependsOn are used together."},
      {"volume-claim-policy/namespace", S::kError, R::kSchema,
       "A volume claim policy template sets a namespace."},
      // The upstream JobSet validating webhook (CREATE).
      {"failure-policy/in-place-restart-gate", S::kError, R::kWebhook,
       "restartStrategy InPlaceRestart needs the InPlaceRestart feature gate."},
      {"depends-on/first-replicated-job", S::kError, R::kWebhook,
       "The first replicated job cannot have dependsOn."},
      {"network/subdomain", S::kError, R::kWebhook,
       "spec.network.subdomain is not a valid DNS-1123 subdomain and DNS-1035 label."},
      {"managed-by/format", S::kError, R::kWebhook,
       "spec.managedBy is not a domain-prefixed path of at most 63 characters."},
      {"replicated-job/replicas-parallelism-overflow", S::kError, R::kWebhook,
       "replicas x parallelism exceeds 2147483647."},
      {"replicated-job/group-name", S::kError, R::kWebhook,
       "groupName is not a DNS-1035 label of at most 63 characters."},
      {"replicated-job/job-name", S::kError, R::kWebhook,
       "Generated child Job names are too long or not DNS-1035 labels."},
      {"replicated-job/pod-name", S::kError, R::kWebhook,
       "Generated Pod names of an Indexed job are too long or not DNS-1035 labels."},
      {"depends-on/unknown-replicated-job", S::kError, R::kWebhook,
       "dependsOn names a replicated job that is not this one or an earlier one."},
      {"in-place-restart/backoff-limit", S::kError, R::kWebhook,
       "In-place restart needs backoffLimit 2147483647."},
      {"in-place-restart/pod-replacement-policy", S::kError, R::kWebhook,
       "In-place restart needs podReplacementPolicy Failed."},
      {"in-place-restart/completions-parallelism", S::kError, R::kWebhook,
       "In-place restart needs completions and parallelism set and equal."},
      {"success-policy/unknown-target", S::kError, R::kWebhook,
       "successPolicy.targetReplicatedJobs names a replicated job that does not exist."},
      {"failure-policy/restart-job-gate", S::kError, R::kWebhook,
       "RestartJob actions need the RestartJob feature gate."},
      {"failure-policy/restart-job-replicas", S::kError, R::kWebhook,
       "RestartJob actions allow at most 1024 replicas per replicated job."},
      {"failure-policy/rule-name", S::kError, R::kWebhook,
       "A failure policy rule name is too long or has characters outside [A-Za-z0-9_,:]."},
      {"failure-policy/unknown-target", S::kError, R::kWebhook,
       "A rule targets a replicated job that does not exist."},
      {"failure-policy/unknown-reason", S::kError, R::kWebhook,
       "A rule names a Job failure reason that does not exist."},
      {"failure-policy/duplicate-rule-name", S::kError, R::kWebhook,
       "Two failure policy rules have the same name (after defaulting)."},
      {"coordinator/unknown-replicated-job", S::kError, R::kWebhook,
       "The coordinator names a replicated job that does not exist."},
      {"coordinator/job-index", S::kError, R::kWebhook,
       "The coordinator jobIndex is outside [0, replicas)."},
      {"coordinator/not-indexed", S::kError, R::kWebhook,
       "The coordinator's job is not Indexed or has no completions."},
      {"coordinator/pod-index", S::kError, R::kWebhook,
       "The coordinator podIndex is outside [0, completions)."},
      {"coordinator/label-value", S::kError, R::kWebhook,
       "The coordinator endpoint is not a valid label value (too long)."},
      {"volume-claim-policy/duplicate-name", S::kError, R::kWebhook,
       "Two volume claim policy templates have the same name."},
      {"volume-claim-policy/name", S::kError, R::kWebhook,
       "A volume claim policy template name is not a DNS-1123 subdomain."},
      {"volume-claim-policy/name-too-long", S::kError, R::kWebhook,
       "<template>-<jobset> is longer than 63 characters."},
      {"volume-claim-policy/volume-conflict", S::kError, R::kWebhook,
       "A pod template already declares a volume with a template's name."},
      {"volume-claim-policy/no-volume-mount", S::kError, R::kWebhook,
       "No container mounts the volume a template declares."},
      // UPDATE only (webhook/ and `jobset-webhook`): kubectl-jobset lint checks CREATE.
      {"update/immutable", S::kError, R::kSchema,
       "A CEL transition rule forbids changing this part of the spec."},
      {"update/replicated-jobs-immutable", S::kError, R::kWebhook,
       "replicatedJobs changed beyond what the webhook lets an update change."},
      {"update/managed-by-immutable", S::kError, R::kWebhook, "spec.managedBy changed."},
      {"update/elastic-terminal", S::kError, R::kWebhook,
       "Elastic resize of a JobSet that already completed or failed."},
      {"update/elastic-parallelism", S::kError, R::kWebhook,
       "Elastic resize to a parallelism below 1."},
      {"update/elastic-completions", S::kError, R::kWebhook,
       "Elastic resize to completions below 1 or unequal to parallelism."},
      // Our own analysis: accepted upstream, but it will not do what was meant.
      {"failure-policy/invalid-pattern", S::kWarning, R::kAnalysis,
       "A message pattern does not compile as RE2 and silently never matches."},
      {"failure-policy/unreachable-reason", S::kWarning, R::kAnalysis,
       "A rule waits for a failure reason the targeted Job templates cannot produce."},
      {"failure-policy/shadowed-rule", S::kWarning, R::kAnalysis,
       "A rule can never fire: an earlier rule matches every failure it matches."},
      {"failure-policy/negative-max-restarts", S::kWarning, R::kAnalysis,
       "maxRestarts is negative: the first counted restart fails the JobSet."},
      {"job-template/pod-failure-policy-restart-policy", S::kWarning, R::kAnalysis,
       "A pod failure policy without restartPolicy Never: the Job API refuses every child Job."},
      {"job-template/exit-code-container", S::kWarning, R::kAnalysis,
       "onExitCodes names a container the pod template does not have."},
      {"job-template/exit-code-zero", S::kWarning, R::kAnalysis,
       "onExitCodes operator In lists exit code 0, which the Job API refuses."},
      {"job-template/exit-code-count", S::kWarning, R::kAnalysis,
       "onExitCodes lists more than 255 values, which the Job API refuses."},
      {"job-template/fail-index-without-backoff-limit-per-index", S::kWarning, R::kAnalysis,
       "A FailIndex pod failure policy rule without backoffLimitPerIndex."},
      {"job-template/backoff-limit-per-index-not-indexed", S::kWarning, R::kAnalysis,
       "backoffLimitPerIndex on a NonIndexed Job, which the Job API refuses."},
      {"failure-policy/unbounded-restarts", S::kWarning, R::kAnalysis,
       "An application error leads to a restart that ignores maxRestarts: a bug loops forever."},
      {"failure-policy/max-restarts-unused", S::kWarning, R::kAnalysis,
       "maxRestarts is set, but no failure resolves to an action that counts against it."},
      {"job-template/unsupported-value", S::kWarning, R::kAnalysis,
       "A Job template field holds a value the Job API does not support."},
      {"depends-on/self", S::kWarning, R::kAnalysis,
       "A replicated job depends on itself and never starts."},
      // Volcano batch.volcano.sh/v1alpha1 Job (validation/volcano_*.cc): ids volcano/*.
      // The CRD schema (schemas/volcano.v1alpha1.json) reports through schema/* and
      // metadata/name; the validating webhook (CREATE, then UPDATE):
      {"volcano/no-tasks", S::kError, R::kWebhook, "A Volcano Job has no tasks."},
      {"volcano/mpi-master-task", S::kError, R::kWebhook,
       "The mpi plugin's master task (--master=, default master) does not exist."},
      {"volcano/network-topology-tiers", S::kError, R::kWebhook,
       "networkTopology sets both highestTierAllowed and highestTierName."},
      {"volcano/task-min-available", S::kError, R::kWebhook,
       "A task's minAvailable is greater than its replicas."},
      {"volcano/duplicate-task-name", S::kError, R::kWebhook, "Two tasks have the same name."},
      {"volcano/policy-event-exit-code", S::kError, R::kWebhook,
       "A lifecycle policy sets both an event and an exitCode, or neither."},
      {"volcano/policy-event", S::kError, R::kWebhook,
       "A lifecycle policy names an event users may not use (PodRunning, OutOfSync, ...)."},
      {"volcano/policy-action", S::kError, R::kWebhook,
       "An event policy's action is missing or not a policy action."},
      {"volcano/duplicate-policy", S::kError, R::kWebhook,
       "Two policies of one list handle the same event or exit code."},
      {"volcano/exit-code-zero", S::kError, R::kWebhook, "An exit-code policy names exit code 0."},
      {"volcano/wildcard-event", S::kError, R::kWebhook,
       "A policy list handles `*` and another event."},
      {"volcano/pod-name", S::kError, R::kWebhook,
       "<job>-<task>-<index> is not a valid qualified name (too long or bad characters)."},
      {"volcano/pod-template", S::kError, R::kWebhook,
       "A task's pod template fails pod template validation (no containers, no image, names)."},
      {"volcano/topology-cpu", S::kError, R::kWebhook,
       "A task with a topologyPolicy has a container whose CPU request is not whole cores."},
      {"volcano/partition-policy", S::kError, R::kWebhook,
       "A task's partitionPolicy does not add up (partitions, size, replicas, minAvailable)."},
      {"volcano/job-name", S::kError, R::kWebhook, "The job name is not a valid qualified name."},
      {"volcano/min-available", S::kError, R::kWebhook,
       "spec.minAvailable is greater than the tasks' total replicas."},
      {"volcano/unknown-plugin", S::kError, R::kWebhook, "spec.plugins names an unknown plugin."},
      {"volcano/volume", S::kError, R::kWebhook,
       "A volume has no or a repeated mountPath, or a wrong claim / claim name."},
      {"volcano/root-queue", S::kError, R::kWebhook, "The job is submitted to the root queue."},
      {"volcano/depends-on-dag", S::kError, R::kWebhook,
       "Task dependsOn forms a cycle or names a task that does not exist."},
      {"volcano/update-tasks", S::kError, R::kWebhook, "An update adds or removes tasks."},
      {"volcano/update-immutable", S::kError, R::kWebhook,
       "An update changes a spec field other than minAvailable, replicas, priorityClassName."},
      // Volcano: accepted, but will not do what was meant.
      {"volcano/exit-code-action", S::kWarning, R::kAnalysis,
       "An exit-code policy's action is not a policy action; nothing checks it."},
      {"volcano/dead-event", S::kWarning, R::kAnalysis,
       "A policy waits for an event that never reaches it (JobUpdated, PodPending, Unknown)."},
      {"volcano/max-retry", S::kWarning, R::kAnalysis,
       "maxRetry 1 with restart actions: the first restart fails the job."},
      {"volcano/zero-replaced", S::kWarning, R::kAnalysis,
       "An explicit 0 (maxRetry, minAvailable) is read as unset and replaced."},
      {"volcano/shadowed-policy", S::kWarning, R::kAnalysis,
       "A policy never fires: an earlier or task-level policy takes its events first."},
      {"volcano/pod-name-length", S::kWarning, R::kAnalysis,
       "Pod names with the highest replica index are longer than 63 characters."},
      // FrameworkController frameworkcontroller.microsoft.com/v1 Framework
      // (validation/framework_*.cc): ids framework/*.
  };
  return rules;
}

const RuleInfo* FindRule(std::string_view id) {
  for (const RuleInfo& r : AllRules()) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

const char* RuleSourceName(RuleSource s) {
  switch (s) {
    case RuleSource::kInput:
      return "input";
    case RuleSource::kSchema:
      return "schema";
    case RuleSource::kWebhook:
      return "webhook";
    case RuleSource::kAnalysis:
      return "analysis";
  }
  return "";
}

}  // namespace jobset
