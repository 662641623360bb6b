// `kubectl jobset why` for a FrameworkController Framework (frameworkcontroller.microsoft.com/v1):
// its state, the FrameworkAttempts and task attempts the dump shows with their completion codes
// and types, the retry decision on each (RetryPolicySpec.ShouldRetry, retry.h) with its delay and
// whether it was accountable, the completion policy that ended each attempt, what one more
// completion would do at the current counters, and the hazards of the history.
#pragma once

#include <string>
#include <string_view>

#include "validation/core/diagnosis.h"
#include "validation/core/workload_dump.h"

namespace jobset {

/// Fills `out` for the Framework called `name` in `dump`. A Framework's status holds only the
/// current FrameworkAttempt and each task's current attempt, so the history is what the dump's
/// copies of the Framework show (several when recorded with `--watch`, oldest first): every task
/// attempt seen completed, with the retry counters the status showed before its completion, is
/// decided again with ShouldRetry and the completion policy; attempts no copy shows are listed as
/// not in the dump. Pods (label FC_FRAMEWORK_NAME) only add what is Pending now. Gives false and
/// names what is missing when the dump holds no such Framework or it has no spec.taskRoles; a
/// missing status is a note. Never throws.
bool DiagnoseFramework(const WorkloadDump& dump, std::string_view name, Diagnosis* out,
                       std::string* error);

}  // namespace jobset
