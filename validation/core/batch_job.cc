#include "validation/core/batch_job.h"

namespace jobset {

const std::vector<std::string>& JobFailureReasons() {
  static const std::vector<std::string> reasons = {"BackoffLimitExceeded", "DeadlineExceeded",
                                                   "FailedIndexes", "MaxFailedIndexesExceeded",
                                                   "PodFailurePolicy"};
  return reasons;
}

}  // namespace jobset
