#include "validation/jobset/policy_engine_index.h"

#include <re2/re2.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <span>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "validation/core/go_regexp.h"
#include "validation/core/name_index.h"
#include "validation/jobset/policy_engine_match.h"

namespace jobset {
namespace {

constexpr std::string_view kActionNames[] = {
    "FailJobSet",
    "RestartJobSet",
    "RestartJobSetAndIgnoreMaxRestarts",
    "RestartJob",
    "RestartJobAndIgnoreMaxRestarts",
    "Unknown",
};

// One regex for the patterns of a rule that compiled, when there are several: an unanchored
// search for `(?:a)|(?:b)` matches exactly when one of `a`, `b` does (flags such as `(?i)` stay
// inside their group). `\Q` is left alone: an unterminated quote would swallow the `)`. Empty
// when there is nothing to combine.
std::string Alternation(const std::vector<std::string>& patterns,
                        const std::vector<std::string>& errors) {
  std::string alternation;
  int count = 0;
  for (size_t i = 0; i < patterns.size(); ++i) {
    if (!errors[i].empty()) continue;
    if (patterns[i].find("\\Q") != std::string::npos) return "";
    if (count++ > 0) alternation += '|';
    alternation.append("(?:").append(patterns[i]).append(")");
  }
  return count < 2 ? "" : alternation;
}

}  // namespace

bool MessageMatches(const PreparedRule& rule, std::string_view message) {
  return RuleMessageMatches(rule, message);
}

std::string_view ActionName(PolicyAction action) {
  return kActionNames[static_cast<size_t>(action)];
}

PolicyAction ParseAction(std::string_view text) {
  for (size_t i = 0; i < static_cast<size_t>(PolicyAction::kUnknown); ++i) {
    if (kActionNames[i] == text) return static_cast<PolicyAction>(i);
  }
  return PolicyAction::kUnknown;
}

bool CountsTowardsMax(PolicyAction action) {
  return action == PolicyAction::kRestartJobSet || action == PolicyAction::kRestartJob;
}

bool IsIndividualRestart(PolicyAction action) {
  return action == PolicyAction::kRestartJob ||
         action == PolicyAction::kRestartJobAndIgnoreMaxRestarts;
}

PreparedPolicy PreparePolicy(const JobSet& js, const FeatureGates& gates) {
  PreparedPolicy p;
  p.jobset_name = js.name.empty() ? NameForValidation(js) : js.name;
  p.gates = gates;
  p.rjob_names.reserve(js.replicated_jobs.size());
  p.rjob_replicas.reserve(js.replicated_jobs.size());
  for (const ReplicatedJob& rj : js.replicated_jobs) {
    p.rjob_names.push_back(rj.name);
    p.rjob_replicas.push_back(rj.replicas);
  }
  // Replicated jobs by name, the first of a name giving the key.
  const NameIndex key_of = BuildNameIndex(p.rjob_names, &p.rjob_key);
  if (!js.failure_policy) {
    IndexRules(&p);
    return p;
  }
  const FailurePolicy& fp = *js.failure_policy;
  p.has_failure_policy = true;
  p.max_restarts = fp.max_restarts;
  p.restart_strategy = fp.restart_strategy;
  // Go's defaults: UTF-8, case-sensitive, `.` excludes \n (MatchRuleMessages's RE2::Set uses them
  // too).
  const re2::RE2::Options options = GoRegexpOptions();
  // Each distinct pattern (or alternation) is compiled once, however many rules repeat it.
  std::unordered_map<std::string, std::shared_ptr<const re2::RE2>> compiled;
  const auto compile = [&](const std::string& text) {
    auto [it, fresh] = compiled.try_emplace(text);
    if (fresh) {
      it->second =
          std::make_shared<const re2::RE2>(re2::StringPiece(text.data(), text.size()), options);
    }
    return it->second;
  };
  for (size_t i = 0; i < fp.rules.size(); ++i) {
    const FailurePolicyRule& in = fp.rules[i];
    PreparedRule rule;
    rule.name = in.name.empty() ? "failurePolicyRule" + std::to_string(i) : in.name;
    rule.condition_reason = "FailurePolicy_" + rule.name;
    rule.action = ParseAction(in.action);
    rule.action_text = in.action;
    rule.reasons = in.on_job_failure_reasons;
    SortReasons(&rule);
    rule.has_patterns = !in.on_job_failure_message_patterns.empty();
    for (const std::string& pattern : in.on_job_failure_message_patterns) {
      // Go's regexp rejects a little that C++ RE2 accepts (`\C`): never match those either.
      if (std::string go_error = GoRegexpError(pattern); !go_error.empty()) {
        rule.pattern_errors.push_back(go_error);
        continue;
      }
      std::shared_ptr<const re2::RE2> re = compile(pattern);
      if (re->ok()) {
        rule.patterns.push_back(std::move(re));
        rule.pattern_errors.emplace_back();
      } else {
        rule.pattern_errors.push_back(re->error());
      }
    }
    if (std::string alternation =
            Alternation(in.on_job_failure_message_patterns, rule.pattern_errors);
        !alternation.empty()) {
      if (std::shared_ptr<const re2::RE2> re = compile(alternation); re->ok()) {
        rule.combined = std::move(re);
      }
    }
    rule.targets_all = in.target_replicated_jobs.empty();
    for (const std::string& target : in.target_replicated_jobs) {
      if (const int key = FindName(key_of, p.rjob_names, target); key >= 0) {
        rule.target_keys.push_back(key);
      }
    }
    std::sort(rule.target_keys.begin(), rule.target_keys.end());
    rule.target_keys.erase(std::unique(rule.target_keys.begin(), rule.target_keys.end()),
                           rule.target_keys.end());
    p.rules.push_back(std::move(rule));
  }
  IndexRules(&p);
  return p;
}

void SortReasons(PreparedRule* rule) {
  rule->sorted_reasons.clear();
  if (rule->reasons.size() <= kFewReasons) return;
  rule->sorted_reasons = rule->reasons;
  std::sort(rule->sorted_reasons.begin(), rule->sorted_reasons.end());
  rule->sorted_reasons.erase(std::unique(rule->sorted_reasons.begin(), rule->sorted_reasons.end()),
                             rule->sorted_reasons.end());
}

void IndexRules(PreparedPolicy* policy) {
  policy->rule_index = IndexRulesWhere(*policy, [](const PreparedRule&) { return true; });
}

RuleIndex IndexRulesWhere(const PreparedPolicy& policy,
                          const std::function<bool(const PreparedRule&)>& keep) {
  RuleIndex index;
  index.built = true;
  const size_t n_rjobs = policy.rjob_names.size();
  index.targeted_begin.assign(n_rjobs + 1, 0);
  index.targeted_wide_begin.assign(n_rjobs + 1, 0);
  std::vector<std::pair<std::string_view, int>> by_reason;
  std::vector<int> kept, wide;
  // Targeted rules with a reason list: (rjob key, reason, rule).
  std::vector<std::tuple<int, std::string_view, int>> named_targets;
  for (size_t r = 0; r < policy.rules.size(); ++r) {
    const PreparedRule& rule = policy.rules[r];
    if (!keep(rule)) continue;
    // Its reasons without repeats when there are many (a long list of one reason is one).
    const std::vector<std::string>& reasons =
        rule.sorted_reasons.empty() ? rule.reasons : rule.sorted_reasons;
    if (!rule.targets_all && reasons.size() > kFewReasons) {
      wide.push_back(static_cast<int>(r));  // Targets x reasons pairs would not fit.
      for (int key : rule.target_keys) {
        if (key >= 0 && static_cast<size_t>(key) < n_rjobs) ++index.targeted_wide_begin[key + 1];
      }
      continue;
    }
    if (!rule.targets_all && !rule.reasons.empty()) {
      for (int key : rule.target_keys) {
        if (key < 0 || static_cast<size_t>(key) >= n_rjobs) continue;
        for (const std::string& reason : reasons) {
          named_targets.emplace_back(key, reason, static_cast<int>(r));
        }
      }
      continue;
    }
    kept.push_back(static_cast<int>(r));
    if (!rule.targets_all) {
      for (int key : rule.target_keys) {
        if (key >= 0 && static_cast<size_t>(key) < n_rjobs) ++index.targeted_begin[key + 1];
      }
    } else if (rule.reasons.empty()) {
      index.any.push_back(static_cast<int>(r));
    } else {
      for (const std::string& reason : reasons) by_reason.emplace_back(reason, r);
    }
  }
  for (size_t k = 0; k < n_rjobs; ++k) {
    index.targeted_wide_begin[k + 1] += index.targeted_wide_begin[k];
  }
  index.targeted_wide.resize(index.targeted_wide_begin[n_rjobs]);
  std::vector<uint32_t> wide_fill(index.targeted_wide_begin.begin(),
                                  index.targeted_wide_begin.end() - 1);
  for (int r : wide) {
    for (int key : policy.rules[r].target_keys) {
      if (key >= 0 && static_cast<size_t>(key) < n_rjobs) index.targeted_wide[wide_fill[key]++] = r;
    }
  }
  for (size_t k = 0; k < n_rjobs; ++k) index.targeted_begin[k + 1] += index.targeted_begin[k];
  index.targeted.resize(index.targeted_begin[n_rjobs]);
  std::vector<uint32_t> fill(index.targeted_begin.begin(), index.targeted_begin.end() - 1);
  for (int r : kept) {
    const PreparedRule& rule = policy.rules[r];
    if (rule.targets_all) continue;
    for (int key : rule.target_keys) {
      if (key >= 0 && static_cast<size_t>(key) < n_rjobs) {
        index.targeted[fill[key]++] = r;
      }
    }
  }
  // Reasons numbered in sorted order; the (key, reason) pairs sorted, each with its rules in
  // spec order (a reason named twice by one rule lists the rule once).
  for (const auto& [key, reason, r] : named_targets) index.targeted_reasons.emplace_back(reason);
  std::sort(index.targeted_reasons.begin(), index.targeted_reasons.end());
  index.targeted_reasons.erase(
      std::unique(index.targeted_reasons.begin(), index.targeted_reasons.end()),
      index.targeted_reasons.end());
  std::vector<std::tuple<int, uint32_t, int>> numbered;
  numbered.reserve(named_targets.size());
  for (const auto& [key, reason, r] : named_targets) {
    const auto it = std::lower_bound(
        index.targeted_reasons.begin(), index.targeted_reasons.end(), reason,
        [](const std::string& a, std::string_view b) { return std::string_view(a) < b; });
    numbered.emplace_back(key, static_cast<uint32_t>(it - index.targeted_reasons.begin()), r);
  }
  std::sort(numbered.begin(), numbered.end());
  numbered.erase(std::unique(numbered.begin(), numbered.end()), numbered.end());
  for (const auto& [key, reason, r] : numbered) {
    if (index.targeted_pairs.empty() || index.targeted_pairs.back() != std::pair(key, reason)) {
      index.targeted_pairs.emplace_back(key, reason);
      index.targeted_named_begin.push_back(static_cast<uint32_t>(index.targeted_named.size()));
    }
    index.targeted_named.push_back(r);
  }
  index.targeted_named_begin.push_back(static_cast<uint32_t>(index.targeted_named.size()));
  // A reason named twice by one rule lists the rule once.
  std::sort(by_reason.begin(), by_reason.end());
  by_reason.erase(std::unique(by_reason.begin(), by_reason.end()), by_reason.end());
  for (const auto& [reason, r] : by_reason) {
    if (index.by_reason.empty() || index.by_reason.back().first != reason) {
      index.by_reason.emplace_back(std::string(reason), std::vector<int>());
    }
    index.by_reason.back().second.push_back(r);
  }
  return index;
}

CandidateLists Candidates(const PreparedPolicy& policy, const RuleIndex& index, int rjob,
                          std::string_view reason) {
  CandidateLists lists;
  if (!KnownNamedRjob(policy, rjob) || static_cast<size_t>(rjob) >= policy.rjob_key.size()) {
    return lists;
  }
  lists.any = index.any;
  const auto by_reason = std::lower_bound(
      index.by_reason.begin(), index.by_reason.end(), reason,
      [](const auto& entry, std::string_view r) { return std::string_view(entry.first) < r; });
  if (by_reason != index.by_reason.end() && by_reason->first == reason) {
    lists.named = by_reason->second;
  }
  const size_t key = static_cast<size_t>(policy.rjob_key[rjob]);
  if (key + 1 < index.targeted_begin.size()) {
    lists.targeted = std::span<const int>(index.targeted)
                         .subspan(index.targeted_begin[key],
                                  index.targeted_begin[key + 1] - index.targeted_begin[key]);
  }
  const auto named = std::lower_bound(
      index.targeted_reasons.begin(), index.targeted_reasons.end(), reason,
      [](const std::string& a, std::string_view b) { return std::string_view(a) < b; });
  if (named != index.targeted_reasons.end() && *named == reason) {
    const std::pair<int, uint32_t> wanted(
        static_cast<int>(key), static_cast<uint32_t>(named - index.targeted_reasons.begin()));
    const auto pair =
        std::lower_bound(index.targeted_pairs.begin(), index.targeted_pairs.end(), wanted);
    if (pair != index.targeted_pairs.end() && *pair == wanted) {
      const size_t i = static_cast<size_t>(pair - index.targeted_pairs.begin());
      lists.targeted_named =
          std::span<const int>(index.targeted_named)
              .subspan(index.targeted_named_begin[i],
                       index.targeted_named_begin[i + 1] - index.targeted_named_begin[i]);
    }
  }
  if (key + 1 < index.targeted_wide_begin.size() &&
      index.targeted_wide_begin[key] < index.targeted_wide_begin[key + 1]) {
    // Wide rules: those admitting the reason, merged with the pairs' rules in spec order.
    const std::span<const int> wide_rules =
        std::span<const int>(index.targeted_wide)
            .subspan(index.targeted_wide_begin[key],
                     index.targeted_wide_begin[key + 1] - index.targeted_wide_begin[key]);
    std::vector<int> admitting;
    for (int r : wide_rules) {
      if (ReasonListAdmits(policy.rules[r], reason)) admitting.push_back(r);
    }
    lists.merged.reserve(lists.targeted_named.size() + admitting.size());
    std::merge(lists.targeted_named.begin(), lists.targeted_named.end(), admitting.begin(),
               admitting.end(), std::back_inserter(lists.merged));
    lists.targeted_named = lists.merged;
  }
  return lists;
}

int FindReplicatedJob(const PreparedPolicy& policy, std::string_view name) {
  for (size_t i = 0; i < policy.rjob_names.size(); ++i) {
    if (policy.rjob_names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::string ChildJobName(std::string_view jobset_name, std::string_view rjob_name, int64_t index) {
  std::string name;
  name.reserve(jobset_name.size() + rjob_name.size() + 22);
  name.append(jobset_name).append("-").append(rjob_name).append("-");
  name += std::to_string(index);
  return name;
}

std::string JobName(const PreparedPolicy& policy, int rjob, int64_t index) {
  return ChildJobName(policy.jobset_name, policy.rjob_names[rjob], index);
}

bool RuleReasonsAdmit(const PreparedRule& rule, std::string_view reason) {
  return ReasonListAdmits(rule, reason);
}

bool RuleMatches(const PreparedPolicy& policy, const PreparedRule& rule, int rjob,
                 std::string_view reason, std::string_view message) {
  return MatchesIgnoringMessage(policy, rule, rjob, reason) && RuleMessageMatches(rule, message);
}

}  // namespace jobset
