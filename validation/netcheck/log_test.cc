#include "validation/netcheck/log.h"

#include <doctest/doctest.h>

namespace jobset {

TEST_CASE("netcheck log: Python dicts and lists as DLRover prints them") {
  std::vector<std::pair<std::string, std::string>> dict;
  std::string_view rest;
  REQUIRE(ParsePyDict("{2: 20.307, 'w-3': True, \"x\": 3600} tail", &dict, &rest));
  REQUIRE(dict.size() == 3);
  CHECK(dict[0] == std::pair<std::string, std::string>{"2", "20.307"});
  CHECK(dict[1] == std::pair<std::string, std::string>{"w-3", "True"});
  CHECK(dict[2].second == "3600");
  CHECK(rest == " tail");
  dict.clear();
  CHECK(ParsePyDict("{}", &dict, &rest));
  CHECK(dict.empty());
  CHECK_FALSE(ParsePyDict("{2: 20.307, 3:", &dict, &rest));  // cut off
  CHECK_FALSE(ParsePyDict("2: 1}", &dict, &rest));

  std::vector<std::vector<std::string>> groups;
  REQUIRE(ParsePyGroups("[[0, 1], [2, 3, 4]].", &groups, &rest));
  CHECK(groups == std::vector<std::vector<std::string>>{{"0", "1"}, {"2", "3", "4"}});
  CHECK(rest == ".");
  groups.clear();
  REQUIRE(ParsePyGroups("[5, 6]", &groups, &rest));
  CHECK(groups == std::vector<std::vector<std::string>>{{"5", "6"}});
  CHECK_FALSE(ParsePyGroups("[[0, 1], [2", &groups, &rest));

  double t = 0;
  CHECK(ParseCheckTime("3600", &t));
  CHECK(t == 3600);
  CHECK_FALSE(ParseCheckTime("fast", &t));
}

TEST_CASE("netcheck log: the tutorial's sample line, with its typo, in the old format") {
  const NetcheckLog log = ParseNetcheckLog(
      "Round 0: The node elapsed time are {2: 20.307, 3: 20.265, 0: 206.872, 1: 151.752}\n"
      "Round 2: The node elapsed time aree {2: 20.307}\n");
  REQUIRE(log.lines.size() == 2);
  CHECK(log.unparsed.empty());
  const NetcheckLine& l = log.lines[0];
  CHECK(l.kind == NetcheckLineKind::kElapsed);
  CHECK(l.old_format);
  CHECK(l.round == 0);
  REQUIRE(l.entries.size() == 4);
  CHECK(l.entries[2] == std::pair<std::string, std::string>{"0", "206.872"});
  CHECK(log.lines[1].round == 2);
}

TEST_CASE("netcheck log: every current line format, behind a logging prefix") {
  const NetcheckLog log = ParseNetcheckLog(
      "[2026-08-21 10:00:00,001] [INFO] [rdzv_manager.py:88:join_rendezvous] Worker node with "
      "id: 12, rank: 1 and ip: 10.0.0.2 joining network-check rendezvous for round: 0.\n"
      "[2026-08-21 10:00:01,000] [INFO] Completed 0 round rendezvous of network-check is "
      "{11: 0, 12: 1} \\nThe times of nodes to join rendezvous are {11: 1.5, 12: 2.0}.\n"
      "The times of nodes to join rendezvous are {11: 1.5, 12: 2.0}.\n"
      "[INFO] Node groups of round 0 are: [[11, 12]].\n"
      "[INFO] Node groups of round 3 (phase: intra_diagnostic) are: [[11, 12]].\n"
      "[INFO] network-check round 1: The node status are: {11: False, 12: False}, the node "
      "group are: [[11, 12]]\n"
      "[INFO] network-check round 1: The node elapsed time are {11: 3600, 12: 3600}\r\n"
      "[INFO] Normal nodes: [].\n"
      "Abnormal nodes: [11, 12]\n"
      "[INFO] Fault nodes(rank:node_id) are: {0: 11, 1: 12} in phase intra_initial\n"
      "[INFO] Straggler: {1: 3600.0}.\n"
      "[INFO] Waiting nodes(required:2/2) in rendezvous(size:1) are {11: 1}, lacking ranks(size:1) "
      "are [1] for round 1\n"
      "[INFO] Round 1: The node status are {11: True}\n"
      "unrelated training output: loss 0.31\n");
  CHECK(log.unparsed.empty());
  std::vector<NetcheckLineKind> kinds;
  for (const NetcheckLine& l : log.lines) kinds.push_back(l.kind);
  using K = NetcheckLineKind;
  CHECK(kinds == std::vector<K>{K::kJoin, K::kCompleted, K::kOther, K::kGroups, K::kGroups,
                                K::kStatus, K::kElapsed, K::kNormal, K::kAbnormal, K::kFaultNodes,
                                K::kStraggler, K::kOther, K::kStatus});
  CHECK(log.lines[0].node_id == "12");
  CHECK(log.lines[0].rank == "1");
  CHECK(log.lines[1].entries.size() == 2);
  CHECK(log.lines[4].phase == "intra_diagnostic");
  CHECK(log.lines[4].round == 3);
  CHECK(log.lines[5].groups == std::vector<std::vector<std::string>>{{"11", "12"}});
  CHECK_FALSE(log.lines[5].old_format);
  CHECK(log.lines[8].ids == std::vector<std::string>{"11", "12"});
  CHECK(log.lines[9].phase == "intra_initial");
  CHECK(log.lines[12].old_format);  // very old builds: no groups, no colon
}

TEST_CASE("netcheck log: check lines that cannot be read are reported with their line") {
  const NetcheckLog log = ParseNetcheckLog(
      "network-check round 2: The node elapsed time are {0: 20.1, 1: 2\n"
      "network-check round 2: The node elapsed time are {0: fast}\n"
      "network-check round 2: The node status are: {0: maybe}\n"
      "Node groups of round 1 are: [[0, 1], [2\n"
      "network-check round 3: something new\n"
      "Straggler: {1: \n"
      "an ordinary line\n");
  REQUIRE(log.unparsed.size() == 6);
  CHECK(log.unparsed[0].line == 1);
  CHECK(log.unparsed[0].why == "the node dict is cut off or malformed");
  CHECK(log.unparsed[1].why == "node 0: time is not a number");
  CHECK(log.unparsed[2].why == "node 0: status is not True or False");
  CHECK(log.unparsed[4].why == "matches no known node-check line format");
  CHECK(log.unparsed[5].line == 6);
  CHECK(log.lines.empty());
}

}  // namespace jobset
