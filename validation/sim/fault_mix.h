// The syntax of a fault mix, shared by the kinds whose failures carry a key and an optional
// detail (JobSet: REASON[:MESSAGE]=WEIGHT[@RJOB]; Volcano Job: EVENT[:EXITCODE]=WEIGHT[@TASK]):
// comma-separated items, each drawn by its relative weight. Each kind gives the items their
// meaning (jobset/monte_carlo.h, volcano/monte_carlo.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// One item of a fault mix.
struct FaultMixItem {
  std::string key;     ///< Before the first `:` of the item's head, trimmed; never empty.
  std::string detail;  ///< After that `:`, as written (may hold `:` and `=`); "" without one.
  double weight = 1;   ///< Positive and finite; a trailing `%` is dropped (weights are relative).
  std::string target;  ///< After `@` in the weight part, trimmed; "" = any.
};

/// The words of a kind's syntax, for the error messages.
struct FaultMixWords {
  std::string_view syntax;  ///< The item syntax, e.g. "REASON[:MESSAGE]=WEIGHT[@RJOB]".
  std::string_view key;     ///< What the key is, e.g. "reason".
  std::string_view target;  ///< What the target names, e.g. "replicated job name".
};

/// Parses `KEY[:DETAIL]=WEIGHT[@TARGET],...`. The head runs to the last `=` of the item (so the
/// detail may hold `=`, not `,`). On error `*items` is left as it is and `*error` quotes the item
/// ("fault mix item \"x\": want <syntax>", "... empty <key>", "... weight \"y\" is not a
/// number", ...). Replaces `*items`.
bool ParseFaultMixItems(std::string_view text, const FaultMixWords& words,
                        std::vector<FaultMixItem>* items, std::string* error);

}  // namespace jobset
