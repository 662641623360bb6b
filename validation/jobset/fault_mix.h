// The fault mix of a JobSet Monte Carlo simulation (monte_carlo.h): the ways a node failure
// surfaces as a failed child Job, each drawn by its weight, as `--fault-mix` writes them
// (REASON[:MESSAGE]=WEIGHT[@RJOB],...; the syntax is every kind's: validation/sim/fault_mix.h).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "validation/jobset/policy_engine.h"

namespace jobset {

/// One way a node failure surfaces as a failed child Job (its Failed condition).
struct FaultKind {
  std::string reason;   ///< Condition reason, e.g. PodFailurePolicy, BackoffLimitExceeded.
  std::string message;  ///< Condition message (matched by onJobFailureMessagePatterns).
  double weight = 1;    ///< Relative weight (> 0) among the kinds that apply to a node.
  /// The replicated job (index) the kind surfaces in; -1 = any. Set by ResolveFaultMix (and by
  /// RunMonteCarlo) from rjob_name when that is not empty.
  int rjob = -1;
  std::string rjob_name;  ///< As written after `@` in a fault mix; empty = any.
};

/// Parses a fault mix `REASON[:MESSAGE]=WEIGHT[@RJOB],...` (e.g.
/// `PodFailurePolicy:exit code 143=0.9,BackoffLimitExceeded=0.1@workers`). The message runs to
/// the last `=` of the item (it may hold `:` and `=`, not `,`); the weight is a positive number,
/// optionally with `%`; RJOB is kept as FaultKind::rjob_name (see ResolveFaultMix). Reasons are
/// any non-empty string. Replaces `*faults`.
bool ParseFaultMix(std::string_view text, std::vector<FaultKind>* faults, std::string* error);

/// Sets FaultKind::rjob from rjob_name for each kind that names one; an unknown name is an error
/// that names it and lists the replicated jobs.
bool ResolveFaultMix(const PreparedPolicy& policy, std::vector<FaultKind>* faults,
                     std::string* error);

/// ResolveFaultMix without copying the kinds: sets (*rjobs)[k] to the replicated job of
/// faults[k] (FaultKind::rjob, or the first replicated job of its rjob_name), looking every name
/// up in one index of the replicated jobs. On an unknown name, the same error, and *rjobs holds
/// the kinds before it.
bool BindFaultMix(const PreparedPolicy& policy, std::span<const FaultKind> faults,
                  std::vector<int>* rjobs, std::string* error);

/// The example mix: 90% host maintenance surfacing as PodFailurePolicy (an exit-143 pod
/// failure policy rule; message as the Job controller writes it), 10% BackoffLimitExceeded.
std::vector<FaultKind> DefaultFaultMix();

}  // namespace jobset
