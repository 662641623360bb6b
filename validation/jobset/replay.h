// Replaying child-job failures through the failure-policy engine: the steps `simulate` takes
// from --fail flags or a scenario file, and what the controller did at each.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/core/node.h"
#include "validation/jobset/policy_engine.h"

namespace jobset {

/// One child Job failure as the user wrote it: `workers/0:PodFailurePolicy:exit code 143`.
struct FailureSpec {
  std::string rjob;
  int64_t index = 0;
  std::string reason;
  std::string message;
};

/// The failures of one step, in the order they failed; the controller reacts after all of them.
using StepSpec = std::vector<FailureSpec>;

/// Parses one --fail value: `RJOB/INDEX:REASON[:MESSAGE]`, several separated by commas for one
/// step (`A/0:R1,B/1:R2`). A comma only separates failures where the next part starts a new
/// `RJOB/INDEX:`; otherwise it belongs to the message. REASON is empty or one of
/// JobFailureReasons(); anything else is an error that lists them and names the nearest.
bool ParseFailFlag(std::string_view text, StepSpec* out, std::string* error);

/// Reads `steps: [{fail: [{job: workers/0, reason: ..., message: ...}]}]` from a scenario
/// document. Errors name the field (`steps[1].fail[0].job`); reasons are checked as in
/// ParseFailFlag.
bool ParseScenarioSteps(const Node& scenario, std::vector<StepSpec>* steps, std::string* error);

/// What one step did.
struct ReplayStep {
  std::vector<std::string> failed;  ///< Child job names, in failure order.
  StepOutcome outcome;
  int64_t restarts = 0, restarts_count_towards_max = 0;  ///< After the step.
  TerminalState terminal_state = TerminalState::kNone;
};

/// A whole replay: every step and the state it ended in.
struct ReplayResult {
  std::vector<ReplayStep> steps;
  ControllerState state;
};

/// Runs `steps` in order through the engine. Step s's failures get times 1000·s + position, so
/// list order decides ties. Gives false and a message for an unknown replicated job or an index
/// outside [0, replicas).
bool Replay(const PreparedPolicy& policy, const std::vector<StepSpec>& steps, ReplayResult* out,
            std::string* error);

}  // namespace jobset
