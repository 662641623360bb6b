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
      // FrameworkController frameworkcontroller.microsoft.com/v1 Framework
      // (validation/framework_*.cc): ids framework/*.
      {"framework/name", S::kError, R::kSchema,
       "metadata.name is missing or does not match ^[a-z0-9]{1,63}$ (no '-')."},
      {"framework/task-role-name", S::kError, R::kSchema,
       "A task role name does not match ^[a-z0-9]{1,63}$ (no '-')."},
      {"framework/execution-type", S::kError, R::kSchema,
       "spec.executionType is not Create, Start or Stop."},
      {"framework/type", S::kError, R::kSchema, "A Framework field has the wrong JSON type."},
      {"framework/minimum", S::kError, R::kSchema,
       "maxRetryCount < -2, a completion count < -1, or taskNumber outside [0, 10000]."},
      {"framework/unknown-field", S::kWarning, R::kAnalysis,
       "A field the Framework CRD does not know: pruned silently, its zero value applies."},
      {"framework/min-failed-omitted", S::kWarning, R::kAnalysis,
       "minFailedTaskCount omitted or 0: failed tasks of the role never fail the attempt."},
      {"framework/failures-succeed", S::kWarning, R::kAnalysis,
       "No role's minFailedTaskCount can trigger: a Framework whose tasks all fail Succeeds."},
      {"framework/completion-count-unreachable", S::kWarning, R::kAnalysis,
       "A completion count is larger than the role's taskNumber and can never trigger."},
      {"framework/rerun-succeeded", S::kWarning, R::kAnalysis,
       "maxRetryCount -2 reruns succeeded work forever."},
      {"framework/unbounded-transient-retries", S::kWarning, R::kAnalysis,
       "fancyRetryPolicy retries Transient failures without counting them: possibly forever."},
      {"framework/duplicate-task-role", S::kWarning, R::kAnalysis,
       "Two task roles have the same name and create the same pods."},
      {"framework/no-tasks", S::kWarning, R::kAnalysis,
       "No task at all: the FrameworkAttempt never completes by its completion policy."},
      {"framework/execution-stop", S::kWarning, R::kAnalysis,
       "executionType Stop on creation: completed at once with -210, no pod runs."},
      {"framework/negative-deletion-timeout", S::kWarning, R::kAnalysis,
       "A negative podGracefulDeletionTimeoutSec force-deletes pods at once."},
      {"framework/execution-create", S::kInfo, R::kAnalysis,
       "executionType Create: no pod is created until executionType is changed to Start."},
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
