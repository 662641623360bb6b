#include "validation/jobset/message_set.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "tests/test_size.h"

namespace jobset {
namespace {

// A JobSet "js" of one replicated job "a" of one replica, without a failure policy.
JobSet OneReplicatedJob() {
  JobSet js;
  js.name = "js";
  js.replicated_jobs.push_back(ReplicatedJob{});
  js.replicated_jobs.back().name = "a";
  js.replicated_jobs.back().replicas = 1;
  return js;
}

TEST_CASE("message set: MatchRuleMessages answers as MessageMatches on every rule and message") {
  // Random rules (several patterns, flags, anchors, classes, alternations, quotes, patterns
  // matching everything or nothing, invalid ones) against random messages: the one RE2::Set
  // search per message lists exactly the messages each rule's own search matches.
  const std::vector<std::string> fragments = {"a",
                                              "b",
                                              "ab",
                                              "(?i)AB",
                                              "^a",
                                              "b$",
                                              "^$",
                                              "$",
                                              "^",
                                              "[a-c]+",
                                              "[^a]",
                                              "a|b",
                                              "(a|bc)*d",
                                              ".",
                                              "",
                                              "x{0}",
                                              ".*",
                                              "\\d+",
                                              "\\bab\\b",
                                              "(?m)^b",
                                              "(?s)a.b",
                                              "a.b",
                                              "\\Qa.b",
                                              "\\Q(",
                                              "(",
                                              "\\C",
                                              "a{1001}",
                                              "[[:upper:]]",
                                              "\xc3\xa9",
                                              "\\n",
                                              "a\\z",
                                              "(?U)a+b",
                                              "\\pL",
                                              "[\xc3\xa9"
                                              "b]",
                                              "(?i)\xc3\x89",
                                              "c+$",
                                              "\\A",
                                              "\\x{ff}",
                                              "(?:a|)",
                                              "[ ]"};
  const std::string alphabet[] = {"a", "b", "c", "d",        "A",        "B",    "\n",
                                  " ", "1", ".", "\xc3\xa9", "\xc3\x89", "\xff", "("};
  uint64_t seed = 424242;
  auto next = [&](uint64_t bound) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % bound;
  };
  size_t matches = 0, misses = 0, fallbacks = 0;
  for (int trial = 0; trial < RandomTrials(200); ++trial) {
    JobSet js = OneReplicatedJob();
    FailurePolicy fp;
    const int n_rules = 1 + static_cast<int>(next(40));
    for (int r = 0; r < n_rules; ++r) {
      FailurePolicyRule rule;
      rule.name = "r" + std::to_string(r);
      rule.action = "FailJobSet";
      for (uint64_t k = next(4); k > 0; --k) {
        std::string pattern;
        for (uint64_t f = 1 + next(3); f > 0; --f) pattern += fragments[next(fragments.size())];
        rule.on_job_failure_message_patterns.push_back(pattern);
      }
      fp.rules.push_back(rule);
    }
    js.failure_policy = fp;
    const PreparedPolicy p = PreparePolicy(js, FeatureGates{});
    std::vector<std::string> texts = {""};
    for (int m = 1 + static_cast<int>(next(30)); m > 0; --m) {
      std::string text;
      for (uint64_t c = next(9); c > 0; --c) text += alphabet[next(std::size(alphabet))];
      texts.push_back(text);
    }
    const std::vector<std::string_view> messages(texts.begin(), texts.end());
    // The default budget, and one too small for the Set: every rule searched pair by pair.
    for (const int64_t max_mem : {MessageSetOptions{}.max_mem, int64_t{1} << 10}) {
      CAPTURE(trial);
      CAPTURE(max_mem);
      MessageSetStats stats;
      const std::vector<std::vector<int>> got =
          MatchRuleMessages(p.rules, messages, MessageSetOptions{max_mem}, &stats);
      REQUIRE(got.size() == p.rules.size());
      for (size_t r = 0; r < p.rules.size(); ++r) {
        std::vector<int> want;
        for (size_t d = 0; p.rules[r].has_patterns && d < messages.size(); ++d) {
          if (MessageMatches(p.rules[r], messages[d])) want.push_back(static_cast<int>(d));
        }
        CAPTURE(r);
        CHECK(got[r] == want);
        matches += want.size();
        misses += messages.size() - want.size();
      }
      fallbacks += stats.rules_per_pair;
      if (max_mem == MessageSetOptions{}.max_mem && stats.rules_in_set > 0) {
        CHECK(stats.set_compiled);
        CHECK(stats.rules_per_pair == 0);
        CHECK(stats.messages_per_pair == 0);
      } else {
        CHECK(!stats.set_compiled);
        CHECK(stats.rules_in_set == 0);
      }
    }
  }
  // Both answers were common, and the small budget did send rules to the fallback.
  CHECK(matches > 1000);
  CHECK(misses > 1000);
  CHECK(fallbacks > 100);
}

TEST_CASE("message set: MatchRuleMessages leaves a rule whose messages are decided to that list") {
  JobSet js = OneReplicatedJob();
  FailurePolicy fp;
  fp.rules.resize(3);
  fp.rules[0].action = fp.rules[1].action = fp.rules[2].action = "FailJobSet";
  fp.rules[0].on_job_failure_message_patterns = {"oom"};
  fp.rules[1].on_job_failure_message_patterns = {"oom", "(?i)SIG"};
  fp.rules[2].on_job_failure_message_patterns = {"("};  // Never matches.
  js.failure_policy = fp;
  PreparedPolicy p = PreparePolicy(js, FeatureGates{});
  p.rules[0].messages_decided = true;
  p.rules[0].matching_messages = {"sig"};
  const std::vector<std::string_view> messages = {"oom", "sig", "x"};
  MessageSetStats stats;
  const std::vector<std::vector<int>> got = MatchRuleMessages(p.rules, messages, {}, &stats);
  CHECK(got == std::vector<std::vector<int>>{{1}, {0, 1}, {}});
  CHECK(stats.rules_in_set == 1);
  CHECK(stats.rules_per_pair == 1);
  CHECK(stats.set_patterns == 2);
}

}  // namespace
}  // namespace jobset
