#include "validation/framework/rules.h"

namespace jobset {

std::span<const RuleInfo> FrameworkRules() {
  using S = Severity;
  using R = RuleSource;
  static constexpr RuleInfo kRows[] = {
      // The CRD schema (schemas/framework.v1.json), under framework/ ids (FrameworkSchemaReport).
      {kFrameworkName.id, S::kError, R::kSchema,
       "metadata.name is missing or does not match ^[a-z0-9]{1,63}$ (no '-')."},
      {kFrameworkTaskRoleName.id, S::kError, R::kSchema,
       "A task role name does not match ^[a-z0-9]{1,63}$ (no '-')."},
      {kFrameworkExecutionType.id, S::kError, R::kSchema,
       "spec.executionType is not Create, Start or Stop."},
      {kFrameworkType.id, S::kError, R::kSchema, "A Framework field has the wrong JSON type."},
      {kFrameworkMinimum.id, S::kError, R::kSchema,
       "maxRetryCount < -2, a completion count < -1, or taskNumber outside [0, 10000]."},
      {kFrameworkUnknownField.id, S::kWarning, R::kAnalysis,
       "A field the Framework CRD does not know: pruned silently, its zero value applies."},
      {kFrameworkMinFailedOmitted.id, S::kWarning, R::kAnalysis,
       "minFailedTaskCount omitted or 0: failed tasks of the role never fail the attempt."},
      {kFrameworkFailuresSucceed.id, S::kWarning, R::kAnalysis,
       "No role's minFailedTaskCount can trigger: a Framework whose tasks all fail Succeeds."},
      {kFrameworkCompletionCountUnreachable.id, S::kWarning, R::kAnalysis,
       "A completion count is larger than the role's taskNumber and can never trigger."},
      {kFrameworkRerunSucceeded.id, S::kWarning, R::kAnalysis,
       "maxRetryCount -2 reruns succeeded batch work forever (services are not reported)."},
      {kFrameworkUnboundedTransientRetries.id, S::kInfo, R::kAnalysis,
       "fancyRetryPolicy retries Transient failures without counting them: possibly forever."},
      {kFrameworkDuplicateTaskRole.id, S::kWarning, R::kAnalysis,
       "Two task roles have the same name and create the same pods."},
      {kFrameworkNoTasks.id, S::kWarning, R::kAnalysis,
       "No task at all: the FrameworkAttempt never completes by its completion policy."},
      {kFrameworkExecutionStop.id, S::kWarning, R::kAnalysis,
       "executionType Stop on creation: completed at once with -210, no pod runs."},
      {kFrameworkNegativeDeletionTimeout.id, S::kWarning, R::kAnalysis,
       "A negative podGracefulDeletionTimeoutSec force-deletes pods at once."},
      {kFrameworkExecutionCreate.id, S::kInfo, R::kAnalysis,
       "executionType Create: no pod is created until executionType is changed to Start."},
  };
  return kRows;
}

}  // namespace jobset
