// Diagnosing a DLRover node check from its job-master log: each round's elapsed times and
// statuses rebuilt, rounds grouped into check cycles, and the fault nodes and stragglers judged
// by DLRover's own rules (intelligent-machine-learning/dlrover@7c3e9648,
// dlrover/python/master/elastic_training/rdzv_manager.py, NetworkCheckRendezvousManager), with the
// evidence.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "validation/netcheck/log.h"

namespace jobset {

/// One round as the master logged it. Times and statuses are the master's accumulated values
/// (best time and OR of the statuses over the cycle so far).
struct DiagnosedRound {
  int round = 0;       ///< As printed in the result lines.
  int rdzv_round = 0;  ///< DLRover's grouping round (the printed round minus the log's offset).
  int line = 0;        ///< First result line of the round.
  std::string phase;   ///< Group-node variant phase, when logged.
  std::vector<std::pair<std::string, double>> elapsed;  ///< In log order.
  std::vector<std::pair<std::string, bool>> status;     ///< In log order; may be empty.
  std::vector<std::vector<std::string>> groups;         ///< When logged.
  double median = 0;
  std::vector<std::string> faults;      ///< status False (or, without a status line, 3600).
  std::vector<std::string> stragglers;  ///< elapsed > 2 × median.
  /// What the master itself logged after the round (`Fault nodes(rank:node_id) are:`,
  /// `Straggler:`), as node ids when the rank is known from the log, else `rank <r>`.
  std::vector<std::string> logged_faults, logged_stragglers;
  bool logged_verdict = false;  ///< One of those lines was seen.
};

/// The verdict on one node in a cycle, with its evidence.
struct NodeEvidence {
  std::string id;
  /// "fault", "straggler", "ok", or "suspect" (failed so far in a cycle without a verdict).
  std::string verdict;
  std::string why;  ///< One sentence: which rule, from which values.
};

/// A check cycle: the rounds from a cleared state (round ≡ 0) to the verdict.
struct DiagnosedCycle {
  std::vector<DiagnosedRound> rounds;
  bool complete = false;
  std::string state;  ///< Why it is complete or not, one sentence.
  /// ≤ 3 nodes and a fault: DLRover fails every node (faults holds them all).
  bool all_failed = false;
  std::vector<std::string> faults, stragglers;
  std::vector<NodeEvidence> nodes;  ///< Every node of the cycle, in first-seen order.
};

/// The diagnosis of a log.
struct NetcheckDiagnosis {
  std::vector<DiagnosedCycle> cycles;
  std::vector<UnparsedLine> unparsed;
  bool group_variant = false;  ///< Phases were logged: 3 rounds per cycle.
  int round_offset = 1;    ///< `Round N:` lines: printed minus grouping round (0: 0-based build).
  int verdict_cycle = -1;  ///< The last complete cycle; -1 when none.
  std::vector<std::string> faults, stragglers;  ///< Its verdict.
};

/// Diagnoses the parsed lines of a log. Cycles start at a round ≡ 0 (mod 2, or 3 for the
/// group-node variant), after a complete cycle, or where the round numbers do not follow on.
NetcheckDiagnosis DiagnoseNetcheck(const NetcheckLog& log);

}  // namespace jobset
