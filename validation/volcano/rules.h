// The rules of the Volcano Job kind (batch.volcano.sh/v1alpha1): ids volcano/*.
//
// Each id is a constant its checks report under (FindingSink takes a RuleId, not a string),
// and each has one row here, assembled into the registry by validation/lint/rule_registry.h.
// docs/rules/<id>.md documents each rule.
#pragma once

#include <span>

#include "validation/core/rule_registry.h"

namespace jobset {

inline constexpr RuleId kVolcanoNoTasks{"volcano/no-tasks"};
inline constexpr RuleId kVolcanoMpiMasterTask{"volcano/mpi-master-task"};
inline constexpr RuleId kVolcanoNetworkTopologyTiers{"volcano/network-topology-tiers"};
inline constexpr RuleId kVolcanoTaskMinAvailable{"volcano/task-min-available"};
inline constexpr RuleId kVolcanoDuplicateTaskName{"volcano/duplicate-task-name"};
inline constexpr RuleId kVolcanoPolicyEventExitCode{"volcano/policy-event-exit-code"};
inline constexpr RuleId kVolcanoPolicyEvent{"volcano/policy-event"};
inline constexpr RuleId kVolcanoPolicyAction{"volcano/policy-action"};
inline constexpr RuleId kVolcanoDuplicatePolicy{"volcano/duplicate-policy"};
inline constexpr RuleId kVolcanoExitCodeZero{"volcano/exit-code-zero"};
inline constexpr RuleId kVolcanoWildcardEvent{"volcano/wildcard-event"};
inline constexpr RuleId kVolcanoPodName{"volcano/pod-name"};
inline constexpr RuleId kVolcanoPodTemplate{"volcano/pod-template"};
inline constexpr RuleId kVolcanoTopologyCpu{"volcano/topology-cpu"};
inline constexpr RuleId kVolcanoPartitionPolicy{"volcano/partition-policy"};
inline constexpr RuleId kVolcanoJobName{"volcano/job-name"};
inline constexpr RuleId kVolcanoMinAvailable{"volcano/min-available"};
inline constexpr RuleId kVolcanoUnknownPlugin{"volcano/unknown-plugin"};
inline constexpr RuleId kVolcanoVolume{"volcano/volume"};
inline constexpr RuleId kVolcanoRootQueue{"volcano/root-queue"};
inline constexpr RuleId kVolcanoDependsOnDag{"volcano/depends-on-dag"};
inline constexpr RuleId kVolcanoUpdateTasks{"volcano/update-tasks"};
inline constexpr RuleId kVolcanoUpdateImmutable{"volcano/update-immutable"};
inline constexpr RuleId kVolcanoExitCodeAction{"volcano/exit-code-action"};
inline constexpr RuleId kVolcanoDeadEvent{"volcano/dead-event"};
inline constexpr RuleId kVolcanoMaxRetry{"volcano/max-retry"};
inline constexpr RuleId kVolcanoZeroReplaced{"volcano/zero-replaced"};
inline constexpr RuleId kVolcanoShadowedPolicy{"volcano/shadowed-policy"};
inline constexpr RuleId kVolcanoPodNameLength{"volcano/pod-name-length"};

/// The registry rows of the rules above, in the order `lint --list-rules` prints them.
std::span<const RuleInfo> VolcanoRules();

}  // namespace jobset
