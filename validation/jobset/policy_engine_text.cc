#include "validation/jobset/policy_engine_text.h"

namespace jobset {

std::string_view ReasonText(const PreparedPolicy& policy, const StatusText& text) {
  switch (text.reason) {
    case StatusReason::kNone:
      return "";
    case StatusReason::kFailedJobs:
      return "FailedJobs";
    case StatusReason::kFailJobSetFailurePolicyAction:
      return "FailJobSetFailurePolicyAction";
    case StatusReason::kReachedMaxRestarts:
      return "ReachedMaxRestarts";
    case StatusReason::kFailurePolicyRule:
      if (text.rule >= 0 && static_cast<size_t>(text.rule) < policy.rules.size()) {
        return policy.rules[text.rule].condition_reason;
      }
      return "FailurePolicy_";
    case StatusReason::kDefaultFailurePolicy:
      return "DefaultFailurePolicy";
    case StatusReason::kJobsReady:
      return "JobsReady";
    case StatusReason::kJobSetFailed:
      return "JobSetFailed";
    case StatusReason::kJobSetCompleted:
      return "JobSetCompleted";
    case StatusReason::kJobSetSuspended:
      return "JobSetSuspended";
    case StatusReason::kAllJobsCompleted:
      return "AllJobsCompleted";
    case StatusReason::kRestartJobSetFailurePolicyAction:
      return "RestartJobSetFailurePolicyAction";
    case StatusReason::kRestartJobSetAndIgnoreMaxRestartsFailurePolicyAction:
      return "RestartJobSetAndIgnoreMaxRestartsFailurePolicyAction";
    case StatusReason::kRestartJobFailurePolicyAction:
      return "RestartJobFailurePolicyAction";
    case StatusReason::kRestartJobAndIgnoreMaxRestartsFailurePolicyAction:
      return "RestartJobAndIgnoreMaxRestartsFailurePolicyAction";
  }
  return "";
}

std::string MessageText(const PreparedPolicy& policy, const StatusText& text) {
  std::string m;
  switch (text.message) {
    case StatusMessage::kNone:
      break;
    case StatusMessage::kFailedJobs:
      m = "jobset failed due to one or more job failures";
      break;
    case StatusMessage::kReachedMaxRestarts:
      m = "jobset failed due to reaching max number of restarts";
      break;
    case StatusMessage::kApplyingAction:
      m.append("applying ").append(ActionName(text.action)).append(" failure policy action");
      break;
    case StatusMessage::kAllJobsReady:
      m = "all jobs are ready";
      break;
    case StatusMessage::kJobSetFailed:
      m = "jobset failed";
      break;
    case StatusMessage::kJobSetCompleted:
      m = "jobset completed successfully";
      break;
    case StatusMessage::kJobSetSuspended:
      m = "jobset is suspended";
      break;
  }
  if (text.rjob >= 0 && static_cast<size_t>(text.rjob) < policy.rjob_names.size()) {
    m.append(" (first failed job: ").append(JobName(policy, text.rjob, text.index)).append(")");
  }
  return m;
}

bool SameText(const PreparedPolicy& policy, const StatusText& a, const StatusText& b) {
  if (ReasonText(policy, a) != ReasonText(policy, b)) return false;
  if (a.message != b.message) return false;
  if (a.message == StatusMessage::kApplyingAction && a.action != b.action) return false;
  const auto has_job = [&](const StatusText& t) {
    return t.rjob >= 0 && static_cast<size_t>(t.rjob) < policy.rjob_names.size();
  };
  if (has_job(a) != has_job(b)) return false;
  if (!has_job(a)) return true;
  return a.index == b.index && policy.rjob_names[a.rjob] == policy.rjob_names[b.rjob];
}

}  // namespace jobset
