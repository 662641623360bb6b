#include "validation/jobset/message_set.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <string>
#include <unordered_map>

#include "validation/core/go_regexp.h"

namespace jobset {

std::vector<std::vector<int>> MatchRuleMessages(std::span<const PreparedRule> rules,
                                                std::span<const std::string_view> messages,
                                                const MessageSetOptions& options,
                                                MessageSetStats* stats) {
  MessageSetStats local;
  MessageSetStats& st = stats ? *stats : local;
  st = MessageSetStats{};
  std::vector<std::vector<int>> out(rules.size());
  // The options PreparePolicy compiles each pattern with, and a larger budget (MessageSetOptions).
  re2::RE2::Options set_options = GoRegexpOptions();
  set_options.set_max_mem(options.max_mem);
  re2::RE2::Set set(set_options, re2::RE2::UNANCHORED);
  // One Set entry per distinct compiled pattern text; the rules of entry e are
  // entry_rules[e]. Searching a rule's patterns one by one or as their alternation `combined`
  // gives the same answer (see Alternation in policy_engine.cc), so the Set holds the patterns
  // themselves: a `\Q` that kept a rule from its alternation is no obstacle here.
  std::unordered_map<std::string_view, int> entry_of;
  std::vector<std::vector<int>> entry_rules;
  std::vector<int> in_set, per_pair;
  std::vector<int> ids;
  for (size_t r = 0; r < rules.size(); ++r) {
    const PreparedRule& rule = rules[r];
    if (!rule.has_patterns || (rule.patterns.empty() && !rule.messages_decided)) continue;
    bool added = !rule.messages_decided;
    ids.clear();
    for (size_t i = 0; added && i < rule.patterns.size(); ++i) {
      const std::string& text = rule.patterns[i]->pattern();
      auto [it, fresh] = entry_of.try_emplace(text, -1);
      if (fresh) {
        it->second = set.Add(re2::StringPiece(text.data(), text.size()), nullptr);
        if (it->second >= 0) entry_rules.resize(it->second + 1);
      }
      added = it->second >= 0;
      ids.push_back(it->second);
    }
    if (!added) {
      per_pair.push_back(static_cast<int>(r));
      continue;
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (int id : ids) entry_rules[id].push_back(static_cast<int>(r));
    in_set.push_back(static_cast<int>(r));
  }
  st.set_patterns = entry_rules.size();
  if (!in_set.empty()) st.set_compiled = set.Compile();
  if (!st.set_compiled) {
    per_pair.insert(per_pair.end(), in_set.begin(), in_set.end());
    std::sort(per_pair.begin(), per_pair.end());
    in_set.clear();
  }
  st.rules_in_set = in_set.size();
  st.rules_per_pair = per_pair.size();
  if (!in_set.empty()) {
    std::vector<int> matched;
    for (size_t d = 0; d < messages.size(); ++d) {
      const std::string_view message = messages[d];
      const int m = static_cast<int>(d);
      re2::RE2::Set::ErrorInfo error{re2::RE2::Set::kNoError};
      if (!set.Match(re2::StringPiece(message.data(), message.size()), &matched, &error) &&
          error.kind != re2::RE2::Set::kNoError) {
        ++st.messages_per_pair;
        for (int r : in_set) {
          if (MessageMatches(rules[r], message)) out[r].push_back(m);
        }
        continue;
      }
      for (int e : matched) {
        for (int r : entry_rules[e]) {
          // A rule with several matching patterns lists the message once.
          if (out[r].empty() || out[r].back() != m) out[r].push_back(m);
        }
      }
    }
  }
  for (int r : per_pair) {
    for (size_t d = 0; d < messages.size(); ++d) {
      if (MessageMatches(rules[r], messages[d])) out[r].push_back(static_cast<int>(d));
    }
  }
  return out;
}

}  // namespace jobset
