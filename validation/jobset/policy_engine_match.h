// The matching of one failure against the rules of a prepared policy, inline for the engine's hot
// path (the Monte Carlo simulator decides millions of failures): the first rule a failure
// matches, and the rules whose target and reason lists admit it. Not for other callers:
// RuleMatches, MessageMatches, Decide and ExplainCell are the interface.
#pragma once

#include <re2/re2.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "validation/jobset/policy_engine_index.h"

namespace jobset {

/// No rule (a failure matched none, or there is no policy).
inline constexpr int kNoRule = -1;

/// Policies of at most this many rules are scanned whole: for the few rules of a real policy (and
/// the Monte Carlo hot path) that is faster than merging the index's lists.
inline constexpr size_t kScanAllRules = 8;

/// True when the rule has no reason list or it names `reason`.
inline bool ReasonListAdmits(const PreparedRule& rule, std::string_view reason) {
  if (rule.reasons.empty()) return true;
  if (!rule.sorted_reasons.empty()) {
    return std::binary_search(rule.sorted_reasons.begin(), rule.sorted_reasons.end(), reason,
                              std::less<>());
  }
  for (const std::string& r : rule.reasons) {
    if (r == reason) return true;
  }
  return false;
}

/// True when `rjob` is a replicated job with a name (a job's replicatedjob-name label must be
/// non-empty).
inline bool KnownNamedRjob(const PreparedPolicy& policy, int rjob) {
  return rjob >= 0 && static_cast<size_t>(rjob) < policy.rjob_names.size() &&
         !policy.rjob_names[rjob].empty();
}

/// Whether the rule's target list admits the rjobs of key `key`.
inline bool TargetsAdmitKey(const PreparedRule& rule, int key) {
  if (rule.targets_all) return true;
  const std::vector<int>& keys = rule.target_keys;
  if (keys.size() <= 4) return std::find(keys.begin(), keys.end(), key) != keys.end();
  return std::binary_search(keys.begin(), keys.end(), key);
}

/// Whether the rule's target list admits replicated job `rjob`.
inline bool TargetsAdmit(const PreparedPolicy& policy, const PreparedRule& rule, int rjob) {
  return static_cast<size_t>(rjob) < policy.rjob_key.size() &&
         TargetsAdmitKey(rule, policy.rjob_key[rjob]);
}

/// Whether the rule's reason and target lists admit a failure of `rjob` with `reason`.
inline bool MatchesIgnoringMessage(const PreparedPolicy& policy, const PreparedRule& rule, int rjob,
                                   std::string_view reason) {
  return KnownNamedRjob(policy, rjob) && TargetsAdmit(policy, rule, rjob) &&
         ReasonListAdmits(rule, reason);
}

/// MessageMatches, inline for the hot path.
inline bool RuleMessageMatches(const PreparedRule& rule, std::string_view message) {
  if (!rule.has_patterns) return true;
  if (rule.messages_decided) {
    const std::vector<std::string>& matching = rule.matching_messages;
    if (matching.size() > 8) return std::binary_search(matching.begin(), matching.end(), message);
    for (const std::string& m : matching) {
      if (m == message) return true;
    }
    return false;
  }
  const re2::StringPiece text(message.data(), message.size());
  if (rule.combined) return re2::RE2::PartialMatch(text, *rule.combined);
  for (const auto& re : rule.patterns) {
    if (re2::RE2::PartialMatch(text, *re)) return true;
  }
  return false;
}

/// Calls visit(r), in spec order, for each rule r whose target and reason lists admit a failure of
/// `rjob` with `reason` (the message is the caller's to check), until visit returns true. With the
/// index, only the rules that can admit the failure are looked at: those with neither list, those
/// whose reason list names `reason`, those whose target list names the rjob (the three groups are
/// disjoint, each in spec order: merged).
template <typename Visit>
inline void ForEachCandidate(const PreparedPolicy& policy, int rjob, std::string_view reason,
                             Visit&& visit) {
  if (!KnownNamedRjob(policy, rjob) || static_cast<size_t>(rjob) >= policy.rjob_key.size()) {
    return;
  }
  if (!policy.rule_index.built || policy.rules.size() <= kScanAllRules) {
    const int key = policy.rjob_key[rjob];
    for (size_t r = 0; r < policy.rules.size(); ++r) {
      const PreparedRule& rule = policy.rules[r];
      if (TargetsAdmitKey(rule, key) && ReasonListAdmits(rule, reason) &&
          visit(static_cast<int>(r))) {
        return;
      }
    }
    return;
  }
  const CandidateLists lists = Candidates(policy, policy.rule_index, rjob, reason);
  constexpr int kEnd = std::numeric_limits<int>::max();
  size_t a = 0, n = 0, t = 0, tn = 0;
  for (;;) {
    const int ra = a < lists.any.size() ? lists.any[a] : kEnd;
    const int rn = n < lists.named.size() ? lists.named[n] : kEnd;
    const int rt = t < lists.targeted.size() ? lists.targeted[t] : kEnd;
    const int rtn = tn < lists.targeted_named.size() ? lists.targeted_named[tn] : kEnd;
    const int r = std::min({ra, rn, rt, rtn});
    if (r == kEnd) return;
    if (r == ra) {
      ++a;
    } else if (r == rn) {
      ++n;
    } else if (r == rt) {
      ++t;
    } else {
      ++tn;
    }
    if (visit(r)) return;
  }
}

/// A rule that cannot match any message: it has patterns and none of them compiled.
inline bool NeverMatches(const PreparedRule& rule) {
  return rule.has_patterns && rule.patterns.empty();
}

/// The first rule, in spec order, that matches a failure of `rjob` with `reason` and `message`,
/// or kNoRule.
inline int FirstMatchingRule(const PreparedPolicy& policy, int rjob, std::string_view reason,
                             std::string_view message) {
  if (policy.rules.size() <= kScanAllRules) {
    // The Monte Carlo hot path: ForEachCandidate's scan written out with plain loops, which
    // monte_carlo_bench measured 4% faster than the generic one.
    if (!KnownNamedRjob(policy, rjob) || static_cast<size_t>(rjob) >= policy.rjob_key.size()) {
      return kNoRule;
    }
    const int key = policy.rjob_key[rjob];
    for (size_t r = 0; r < policy.rules.size(); ++r) {
      const PreparedRule& rule = policy.rules[r];
      const std::vector<int>& keys = rule.target_keys;
      if (!rule.targets_all) {
        if (keys.size() > 4) {
          if (!std::binary_search(keys.begin(), keys.end(), key)) continue;
        } else {
          size_t k = 0;
          while (k < keys.size() && keys[k] != key) ++k;
          if (k == keys.size()) continue;
        }
      }
      if (!rule.reasons.empty()) {
        if (!rule.sorted_reasons.empty()) {
          if (!ReasonListAdmits(rule, reason)) continue;
        } else {
          size_t k = 0;
          while (k < rule.reasons.size() && rule.reasons[k] != reason) ++k;
          if (k == rule.reasons.size()) continue;
        }
      }
      if (RuleMessageMatches(rule, message)) return static_cast<int>(r);
    }
    return kNoRule;
  }
  int found = kNoRule;
  ForEachCandidate(policy, rjob, reason, [&](int r) {
    if (!RuleMessageMatches(policy.rules[r], message)) return false;
    found = r;
    return true;
  });
  return found;
}

}  // namespace jobset
