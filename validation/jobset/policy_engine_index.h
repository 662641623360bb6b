// The failure policy of a JobSet prepared for the engine (policy_engine.h): its actions, its
// rules with their patterns compiled and targets resolved, and the index that finds the rules a
// failure can match (kubernetes-sigs/jobset pkg/controllers/failure_policy.go
// findFirstFailedPolicyRuleAndJob and ruleIsApplicable).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "validation/jobset/feature_gates.h"
#include "validation/jobset/types.h"

namespace re2 {
class RE2;
}  // namespace re2

namespace jobset {

/// A failure-policy action. kUnknown stands for any other string (admission rejects it; the
/// controller errors out on it every pass).
enum class PolicyAction : uint8_t {
  kFailJobSet,
  kRestartJobSet,
  kRestartJobSetAndIgnoreMaxRestarts,
  kRestartJob,
  kRestartJobAndIgnoreMaxRestarts,
  kUnknown,
};

/// The upstream spelling ("RestartJobSet", ...); "Unknown" for kUnknown.
std::string_view ActionName(PolicyAction action);

/// Parses the upstream spelling (exact, case-sensitive); anything else gives kUnknown.
PolicyAction ParseAction(std::string_view text);

/// True for the actions that consume the maxRestarts budget: RestartJobSet and RestartJob.
bool CountsTowardsMax(PolicyAction action);

/// True for RestartJob and RestartJobAndIgnoreMaxRestarts (they need gate RestartJob).
bool IsIndividualRestart(PolicyAction action);

// --- The prepared policy --------------------------------------------------------------------

/// One rule of spec.failurePolicy.rules, prepared for matching.
struct PreparedRule {
  std::string name;              ///< As written; failurePolicyRule<i> when empty.
  std::string condition_reason;  ///< "FailurePolicy_<name>", the RestartingJobSet reason.
  PolicyAction action = PolicyAction::kUnknown;
  std::string action_text;           ///< As written (named in the unknown-action error).
  std::vector<std::string> reasons;  ///< onJobFailureReasons; empty = any reason.
  /// When `reasons` has more than kFewReasons entries: them sorted, without repeats, so that a
  /// reason is found by binary search (see SortReasons); empty otherwise.
  std::vector<std::string> sorted_reasons;
  bool has_patterns = false;  ///< onJobFailureMessagePatterns is non-empty.
  /// The patterns that compiled, in order (RE2, Go defaults). When has_patterns and this is
  /// empty, the rule never matches.
  std::vector<std::shared_ptr<const re2::RE2>> patterns;
  /// When several patterns compiled: one alternation `(?:p1)|(?:p2)|...` of them, matched in a
  /// single scan (the same answer as trying each in turn); null when it could not be built.
  std::shared_ptr<const re2::RE2> combined;
  std::vector<std::string> pattern_errors;  ///< Per pattern as written: "" or RE2's error.
  /// Set by a caller that decided the patterns beforehand for every message its failures can
  /// carry (the Monte Carlo's specialisation): then the rule's patterns match exactly the
  /// messages of `matching_messages` (sorted), and are not run.
  bool messages_decided = false;
  std::vector<std::string> matching_messages;  ///< See messages_decided.
  bool targets_all = true;  ///< targetReplicatedJobs is empty: the rule admits every rjob.
  /// Otherwise the rjobs its target list admits, as their keys (PreparedPolicy::rjob_key), sorted,
  /// without repeats; a name no rjob has adds nothing. Memory grows with the list, not with the
  /// number of rjobs.
  std::vector<int> target_keys;
};

/// Reason lists up to this long are scanned; longer ones are searched in sorted_reasons.
inline constexpr size_t kFewReasons = 8;

/// Sets rule->sorted_reasons from rule->reasons (call after changing reasons).
void SortReasons(PreparedRule* rule);

/// The rules of a policy grouped by what they restrict, each group in spec order, so that the
/// rules a failure of one rjob with one reason can match are found without looking at the others
/// (built by IndexRules; memory grows with the rules' target and reason lists).
struct RuleIndex {
  bool built = false;    ///< False: every decision scans all rules.
  std::vector<int> any;  ///< No target list and no reason list: every failure is a candidate.
  /// No target list, a reason list: per reason named, the rules naming it; sorted by reason.
  std::vector<std::pair<std::string, std::vector<int>>> by_reason;
  /// A target list and no reason list: the rules that target rjob key k are
  /// targeted[targeted_begin[k] .. targeted_begin[k + 1]).
  std::vector<uint32_t> targeted_begin;
  std::vector<int> targeted;
  /// A target list and a reason list: the reasons they name, sorted, numbered by their place.
  std::vector<std::string> targeted_reasons;
  /// The (rjob key, reason number) pairs they name, sorted: the rules of pair i are
  /// targeted_named[targeted_named_begin[i] .. targeted_named_begin[i + 1]). Only rules of at
  /// most kFewReasons distinct reasons are listed so (memory: their targets times at most
  /// kFewReasons; the Job controller has five reasons).
  std::vector<std::pair<int, uint32_t>> targeted_pairs;
  std::vector<uint32_t> targeted_named_begin;
  std::vector<int> targeted_named;
  /// Rules with a target list and more distinct reasons (names no Job has: admission rejects
  /// them): those targeting rjob key k are targeted_wide[targeted_wide_begin[k] ..
  /// targeted_wide_begin[k + 1]), and a failure's reason is looked up in each one's
  /// sorted_reasons.
  std::vector<uint32_t> targeted_wide_begin;
  std::vector<int> targeted_wide;
};

/// A JobSet's failure policy prepared once (patterns compiled, names resolved): the read-only
/// input of every decision. Copies share the compiled patterns; safe to share between threads
/// (RE2 guards its lazily built DFA with a lock: a heavily threaded caller may prefer one
/// PreparePolicy per thread).
struct PreparedPolicy {
  std::string jobset_name;              ///< Prefix of child job names.
  std::vector<std::string> rjob_names;  ///< spec.replicatedJobs[].name, in spec order.
  std::vector<int64_t> rjob_replicas;   ///< spec.replicatedJobs[].replicas.
  bool has_failure_policy = false;      ///< spec.failurePolicy present (`{}` counts as present).
  int64_t max_restarts = 0;             ///< May be negative: then no counted restart is allowed.
  std::string restart_strategy = "Recreate";
  std::vector<PreparedRule> rules;  ///< In spec order.
  FeatureGates gates;
  /// Per rjob: the index of the first rjob of its name (its own, unless names repeat); target
  /// lists name rjobs by these keys.
  std::vector<int> rjob_key;
  RuleIndex rule_index;  ///< See IndexRules.
};

/// Prepares `js` for the engine: compiles patterns, resolves targets to rjob indexes, names
/// unnamed rules as the webhook would. The child-job prefix is metadata.name (else the name
/// admission validates with, see NameForValidation).
PreparedPolicy PreparePolicy(const JobSet& js, const FeatureGates& gates);

/// Builds policy->rule_index from the rules' target keys and reason lists; call it again after
/// changing them. Decisions find the same rule with or without the index (small policies are
/// scanned whole either way).
void IndexRules(PreparedPolicy* policy);

/// A RuleIndex of the rules of `policy` for which keep(rule) is true.
RuleIndex IndexRulesWhere(const PreparedPolicy& policy,
                          const std::function<bool(const PreparedRule&)>& keep);

/// The lists of a RuleIndex that hold the rules that can admit a failure of one rjob with one
/// reason, each in spec order, disjoint, every rule of each admitting it: `any` (no target or
/// reason list), `named` (a reason list naming it), `targeted` (a target list naming the rjob, no
/// reason list), `targeted_named` (both lists naming them).
struct CandidateLists {
  std::span<const int> any, named, targeted, targeted_named;
  /// When the rjob has wide rules (RuleIndex::targeted_wide): targeted_named's storage, the
  /// pairs' rules and the wide rules admitting the reason, merged in spec order.
  std::vector<int> merged;

  CandidateLists() = default;
  CandidateLists(CandidateLists&&) = default;  ///< Spans into `merged` stay valid.
  CandidateLists& operator=(CandidateLists&&) = default;
  CandidateLists(const CandidateLists&) = delete;
  CandidateLists& operator=(const CandidateLists&) = delete;
};

/// The candidate lists of `index` (built for `policy`) for a failure of `rjob` with `reason`;
/// all empty for an rjob out of range or without a name.
CandidateLists Candidates(const PreparedPolicy& policy, const RuleIndex& index, int rjob,
                          std::string_view reason);

/// True when the rule's onJobFailureReasons is empty or names `reason`.
bool RuleReasonsAdmit(const PreparedRule& rule, std::string_view reason);

/// True when the rule has no message patterns or one of them matches `message` (when
/// messages_decided: when `message` is one of matching_messages).
bool MessageMatches(const PreparedRule& rule, std::string_view message);

/// The index of the replicated job called `name`, or -1.
int FindReplicatedJob(const PreparedPolicy& policy, std::string_view name);

/// `<jobset>-<rjob>-<index>`, the name the controller gives a child Job.
std::string ChildJobName(std::string_view jobset_name, std::string_view rjob_name, int64_t index);

/// ChildJobName for a job of `policy` (rjob must be a valid index).
std::string JobName(const PreparedPolicy& policy, int rjob, int64_t index);

/// As ruleIsApplicable (failure_policy.go): reason, message and target of one failed job of
/// replicated job `rjob` against `rule`. A job of an rjob with an empty name (no label value) never
/// matches.
bool RuleMatches(const PreparedPolicy& policy, const PreparedRule& rule, int rjob,
                 std::string_view reason, std::string_view message);

}  // namespace jobset
