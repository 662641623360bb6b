// Deciding many rules' message patterns for many messages at once (issue #19): one RE2::Set
// search per message instead of one RE2 search per rule and message. Used by the Monte Carlo's
// fault mix specialisation (monte_carlo.cc SpecializeByMessage). Kept out of policy_engine.cc so
// that the engine's hot path compiles as before.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "validation/jobset/policy_engine.h"

namespace jobset {

/// Limits of MatchRuleMessages.
struct MessageSetOptions {
  /// RE2::Options::max_mem of the one RE2::Set of all patterns: a ceiling on its program and on
  /// its lazily built DFA, not an allocation (a search grows the DFA only as far as the messages
  /// need). Each rule's own RE2 keeps RE2's default (8 MB); the Set holds every rule's patterns,
  /// hence the larger budget. Past it the Set falls back to one search per pair (see
  /// MatchRuleMessages): slower, never a different answer.
  int64_t max_mem = int64_t{256} << 20;
};

/// How MatchRuleMessages got its answer (for tests and benchmarks).
struct MessageSetStats {
  bool set_compiled = false;     ///< The Set compiled (false also when no rule needed it).
  size_t set_patterns = 0;       ///< Distinct pattern texts in the Set.
  size_t rules_in_set = 0;       ///< Rules with patterns decided by the Set.
  size_t rules_per_pair = 0;     ///< Rules with patterns searched message by message instead.
  size_t messages_per_pair = 0;  ///< Messages on which the Set failed (DFA out of memory).
};

/// For each of `rules`, the indexes into `messages` (ascending) of the messages its patterns
/// match: exactly those with MessageMatches(rule, message); empty for a rule without patterns
/// (which matches every message: callers test has_patterns). One RE2::Set (RE2::UNANCHORED, the
/// options PreparePolicy compiles patterns with) of every distinct compiled pattern is searched
/// once per message, so the cost is one pass per message plus the answer, not rules x messages
/// searches. A pattern the Set refuses sends its rules, and a failed compile all rules, to one
/// search per rule and message; a message on which the Set's search fails (DFA out of memory) is
/// searched rule by rule. The answer itself can be rules x messages (every pattern matching every
/// message).
std::vector<std::vector<int>> MatchRuleMessages(std::span<const PreparedRule> rules,
                                                std::span<const std::string_view> messages,
                                                const MessageSetOptions& options = {},
                                                MessageSetStats* stats = nullptr);

}  // namespace jobset
