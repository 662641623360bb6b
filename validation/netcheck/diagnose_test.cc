#include "validation/netcheck/diagnose.h"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

namespace jobset {
namespace {

using Ids = std::vector<std::string>;

NetcheckDiagnosis Diagnose(const std::string& text) {
  return DiagnoseNetcheck(ParseNetcheckLog(text));
}

// 8 nodes (ids 10..17 for ranks 0..7), node 12 faulty, in the current format.
const char kOneFaulty[] =
    "[INFO] Completed 0 round rendezvous of network-check is {10: 0, 11: 1, 12: 2, 13: 3, 14: 4, "
    "15: 5, 16: 6, 17: 7} \\nThe times of nodes to join rendezvous are {}.\n"
    "[INFO] Node groups of round 0 are: [[10, 11], [12, 13], [14, 15], [16, 17]].\n"
    "[INFO] network-check round 1: The node status are: {10: True, 11: True, 12: False, "
    "13: False, 14: True, 15: True, 16: True, 17: True}, the node group are: [[10, 11], [12, 13], "
    "[14, 15], [16, 17]]\n"
    "[INFO] network-check round 1: The node elapsed time are {10: 20.1, 11: 20.3, 12: 3600, "
    "13: 3600, 14: 20.2, 15: 20.0, 16: 19.9, 17: 20.4}\n"
    "[INFO] Fault nodes(rank:node_id) are: {2: 12, 3: 13}\n"
    "[INFO] Straggler: {2: 3600, 3: 3600}.\n"
    "[INFO] Normal nodes: [16, 15, 10, 14, 11, 17].\n"
    "Abnormal nodes: [12, 13]\n"
    "[INFO] Node groups of round 1 are: [[16, 13], [15, 12], [10, 17], [14, 11]].\n"
    "[INFO] network-check round 2: The node status are: {10: True, 11: True, 12: False, "
    "13: True, 14: True, 15: True, 16: True, 17: True}, the node group are: [[16, 13], [15, 12], "
    "[10, 17], [14, 11]]\n"
    "[INFO] network-check round 2: The node elapsed time are {10: 20.1, 11: 20.3, 12: 3600, "
    "13: 20.5, 14: 20.2, 15: 20.0, 16: 19.9, 17: 20.4}\n"
    "[INFO] Fault nodes(rank:node_id) are: {2: 12}\n";

}  // namespace

TEST_CASE("netcheck diagnose: one faulty node in 8, current format") {
  const NetcheckDiagnosis d = Diagnose(kOneFaulty);
  CHECK(d.unparsed.empty());
  REQUIRE(d.cycles.size() == 1);
  const DiagnosedCycle& c = d.cycles[0];
  CHECK(c.complete);
  REQUIRE(c.rounds.size() == 2);
  CHECK(c.rounds[0].rdzv_round == 0);
  CHECK(c.rounds[0].faults == Ids{"12", "13"});
  CHECK(c.rounds[0].median == doctest::Approx(20.25));
  CHECK(c.rounds[0].logged_faults == Ids{"12", "13"});
  CHECK(c.rounds[0].logged_stragglers == Ids{"12", "13"});  // ranks mapped to ids
  CHECK(c.rounds[1].groups[1] == Ids{"15", "12"});
  CHECK(d.faults == Ids{"12"});
  CHECK(d.stragglers == Ids{"12"});  // a failed node (3600) is a straggler too, as in DLRover
  CHECK(d.verdict_cycle == 0);
  REQUIRE(c.nodes.size() == 8);
  CHECK(c.nodes[2].id == "12");
  CHECK(c.nodes[2].verdict == "fault");
  CHECK(c.nodes[2].why ==
        "failed in every round of the cycle (round 1: 3600 (failed) with [12, 13]; round 2: 3600 "
        "(failed) with [15, 12])");
  CHECK(c.nodes[3].verdict == "ok");  // its partner in round 0 passed in round 1
}

TEST_CASE("netcheck diagnose: a faulty pair and a clean re-check in a new cycle") {
  const NetcheckDiagnosis d = Diagnose(
      "network-check round 1: The node elapsed time are {0: 3600, 1: 3600, 2: 20, 3: 21}\n"
      "network-check round 1: The node status are: {0: False, 1: False, 2: True, 3: True}\n"
      "network-check round 2: The node status are: {0: False, 1: False, 2: True, 3: True}\n"
      "network-check round 2: The node elapsed time are {0: 3600, 1: 3600, 2: 20, 3: 21}\n"
      "network-check round 3: The node status are: {4: True, 5: True, 2: True, 3: True}\n"
      "network-check round 3: The node elapsed time are {4: 22, 5: 20, 2: 20, 3: 21}\n");
  REQUIRE(d.cycles.size() == 2);
  CHECK(d.cycles[0].faults == Ids{"0", "1"});
  CHECK(d.cycles[0].rounds[0].stragglers.empty());  // median 1810: nobody
  CHECK(d.cycles[1].complete);
  CHECK(d.cycles[1].state == "round 3 found no fault: the check passed");
  CHECK(d.verdict_cycle == 1);
  CHECK(d.faults.empty());
}

TEST_CASE("netcheck diagnose: the tutorial's old-format sample (0-based rounds, a straggler)") {
  const NetcheckDiagnosis d = Diagnose(
      "Round 0: The node elapsed time are {2: 20.307, 3: 20.265, 0: 206.872, 1: 151.752}\n"
      "Round 1: The node elapsed time are {2: 20.307, 3: 20.265, 0: 206.872, 1: 25.1}\n"
      "Round 2: The node elapsed time aree {2: 20.1, 3: 20.2, 0: 21.0, 1: 20.9}\n");
  CHECK(d.round_offset == 0);
  REQUIRE(d.cycles.size() == 2);
  const DiagnosedCycle& first = d.cycles[0];
  // Median (20.307 + 151.752) / 2 = 86.03: only 206.872 exceeds twice that.
  CHECK(first.rounds[0].stragglers == Ids{"0"});
  CHECK(first.rounds[0].faults.empty());
  CHECK(first.rounds.size() == 2);  // a straggler only: the second round is the same cycle
  CHECK(first.stragglers == Ids{"0"});
  CHECK(first.nodes[2].verdict == "straggler");
  CHECK(first.nodes[2].why.rfind("best time 206.872 > 2 x median 22.7035", 0) == 0);
  CHECK(d.verdict_cycle == 1);
  CHECK(d.stragglers.empty());
}

TEST_CASE("netcheck diagnose: 3 nodes or fewer, a fault fails every node") {
  const NetcheckDiagnosis d = Diagnose(
      "network-check round 1: The node status are: {0: False, 1: False, 2: False}, the node "
      "group are: [[0, 1, 2]]\n"
      "network-check round 1: The node elapsed time are {0: 3600, 1: 3600, 2: 3600}\n");
  REQUIRE(d.cycles.size() == 1);
  CHECK(d.cycles[0].all_failed);
  CHECK(d.cycles[0].complete);
  CHECK(d.faults == Ids{"0", "1", "2"});

  // A straggler only in round 0 (no --exclude-straggler: training went on); round 1 at the next
  // check, grouped by the stale times, finds a fault: all fail there.
  const NetcheckDiagnosis later = Diagnose(
      "network-check round 1: The node elapsed time are {0: 20, 1: 20, 2: 90}\n"
      "network-check round 2: The node status are: {0: True, 1: True, 2: False}\n"
      "network-check round 2: The node elapsed time are {0: 20, 1: 20, 2: 3600}\n");
  REQUIRE(later.cycles.size() == 1);
  CHECK(later.cycles[0].rounds[0].stragglers == Ids{"2"});
  CHECK(later.cycles[0].all_failed);
  CHECK(later.faults == Ids{"0", "1", "2"});
  CHECK(later.cycles[0].nodes[0].why.rfind("passed, but with 3 or fewer nodes", 0) == 0);
}

TEST_CASE("netcheck diagnose: a truncated log has no verdict and says why") {
  std::string text = kOneFaulty;
  text = text.substr(0, text.find("[INFO] network-check round 2: The node elapsed"));
  text += "[INFO] network-check round 2: The node elapsed time are {10: 20.1, 11:";
  const NetcheckDiagnosis d = Diagnose(text);
  REQUIRE(d.unparsed.size() == 1);
  CHECK(d.unparsed[0].line == 11);
  // The status line of round 2 still arrived: the cycle has its verdict from it.
  REQUIRE(d.cycles.size() == 1);
  CHECK(d.cycles[0].rounds.size() == 2);
  CHECK(d.faults == Ids{"12"});

  const NetcheckDiagnosis cut =
      Diagnose(text.substr(0, text.find("[INFO] Node groups of round 1")));
  REQUIRE(cut.cycles.size() == 1);
  CHECK_FALSE(cut.cycles[0].complete);
  CHECK(cut.cycles[0].state == "the log ends before round 2 (truncated?)");
  CHECK(cut.verdict_cycle == -1);
  CHECK(cut.faults.empty());
}

TEST_CASE("netcheck diagnose: interleaved lines of other components and swapped result lines") {
  const NetcheckDiagnosis d = Diagnose(
      "network-check round 1: The node elapsed time are {0: 20, 1: 20, 2: 3600, 3: 3600, 4: 20}\n"
      "worker-3 stdout: NCCL WARN Call to connect returned Connection refused\n"
      "Worker node with id: 4, rank: 4 and ip: 10.0.0.5 joining network-check rendezvous for "
      "round: 1.\n"
      "network-check round 1: The node status are: {0: True, 1: True, 2: False, 3: False, 4: "
      "False}\n"
      "network-check round 2: The node status are: {0: True, 1: True, 2: False, 3: True, 4: "
      "False}\n"
      "Waiting nodes(required:5/5) in rendezvous(size:4) are {0: 0}, lacking ranks(size:1) are "
      "[4] for round 2\n"
      "network-check round 2: The node elapsed time are {0: 20, 1: 20, 2: 3600, 3: 20, 4: "
      "3600}\n");
  CHECK(d.unparsed.empty());
  REQUIRE(d.cycles.size() == 1);
  CHECK(d.cycles[0].rounds.size() == 2);
  // Odd count: the triple {2, 3, 4} of round 0; 4 was grouped with faulty 2 again.
  CHECK(d.faults == Ids{"2", "4"});
}

TEST_CASE("netcheck diagnose: node-group variant, three phases") {
  const NetcheckDiagnosis d = Diagnose(
      "Node groups of round 0 (phase: intra_initial) are: [[0, 1], [2, 3], [4, 5], [6, 7]].\n"
      "network-check round 1: The node status are: {0: True, 1: True, 2: True, 3: True, 4: "
      "False, 5: False, 6: True, 7: True}\n"
      "network-check round 1: The node elapsed time are {0: 20, 1: 20, 2: 20, 3: 20, 4: 3600, 5: "
      "3600, 6: 20, 7: 20}\n"
      "Fault nodes(rank:node_id) are: {4: 4, 5: 5} in phase intra_initial\n"
      "Node groups of round 1 (phase: intra_diagnostic) are: [[0, 3], [1, 2], [6, 5], [7, 4]].\n"
      "network-check round 2: The node status are: {0: True, 1: True, 2: True, 3: True, 4: "
      "True, 5: False, 6: True, 7: True}\n"
      "network-check round 2: The node elapsed time are {0: 20, 1: 20, 2: 20, 3: 20, 4: 20, 5: "
      "3600, 6: 20, 7: 20}\n"
      "Node groups of round 2 (phase: inter_diagnostic) are: [[0, 6], [1, 7], [2, 5], [3, 4]].\n"
      "network-check round 3: The node status are: {0: True, 1: True, 2: True, 3: True, 4: "
      "True, 5: False, 6: True, 7: True}\n"
      "network-check round 3: The node elapsed time are {0: 20, 1: 20, 2: 20, 3: 20, 4: 20, 5: "
      "3600, 6: 20, 7: 20}\n"
      "Fault nodes(rank:node_id) are: {5: 5} in phase inter_diagnostic\n");
  CHECK(d.group_variant);
  REQUIRE(d.cycles.size() == 1);
  REQUIRE(d.cycles[0].rounds.size() == 3);
  CHECK(d.cycles[0].rounds[1].phase == "intra_diagnostic");
  CHECK(d.cycles[0].rounds[2].groups[2] == Ids{"2", "5"});
  CHECK(d.cycles[0].complete);
  CHECK(d.faults == Ids{"5"});

  // A clean intra_initial goes on to the next phase: alone it is not a verdict.
  const NetcheckDiagnosis next = Diagnose(
      "Node groups of round 0 (phase: intra_initial) are: [[0, 1], [2, 3]].\n"
      "network-check round 1: The node elapsed time are {0: 20, 1: 20, 2: 20, 3: 20}\n");
  CHECK_FALSE(next.cycles[0].complete);
  CHECK(next.verdict_cycle == -1);
}

TEST_CASE("netcheck diagnose: a log without a check") {
  const NetcheckDiagnosis d = Diagnose("just training\nloss 0.1\n");
  CHECK(d.cycles.empty());
  CHECK(d.unparsed.empty());
  CHECK(d.verdict_cycle == -1);
}

TEST_CASE("netcheck diagnose: old and new formats in one log keep their own round numbering") {
  // The tutorial's 0-based `Round 0:` lines must not shift master.log's `network-check round N`
  // lines, whose cycle stays complete with its fault node.
  auto read = [](const char* name) {
    std::ifstream in(std::string(JOBSET_SOURCE_DIR "/examples/netcheck/") + name);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string master = read("master.log"), tutorial = read("tutorial.log");
  REQUIRE(!master.empty());
  REQUIRE(!tutorial.empty());
  NetcheckDiagnosis alone = Diagnose(master);
  REQUIRE(alone.verdict_cycle >= 0);
  NetcheckDiagnosis mixed = Diagnose(master + tutorial);
  REQUIRE(!mixed.cycles.empty());
  const DiagnosedCycle& first = mixed.cycles[0];
  CHECK(first.complete);
  CHECK(first.faults == alone.faults);
  CHECK(first.rounds.size() == alone.cycles[alone.verdict_cycle].rounds.size());
}

TEST_CASE("netcheck diagnose: join and rendezvous lines cut off in a truncated log are reported") {
  NetcheckDiagnosis d = Diagnose(
      "[INFO] Worker node with id: 3, rank:\n"
      "[INFO] Completed 0 round rendezvous\n"
      "[INFO] Worker node with id: 4, rank: 4 and ip: 10.0.0.4 joining elastic-training "
      "rendezvous for round: 0.\n"
      "[INFO] Completed 0 round rendezvous of elastic-training is {4: 4}\n");
  REQUIRE(d.unparsed.size() == 2);
  CHECK(d.unparsed[0].line == 1);
  CHECK(d.unparsed[1].line == 2);
  CHECK(d.unparsed[0].why == "cut off before it names its rendezvous");
}

TEST_CASE("netcheck diagnose: node-group evidence when a later phase decides") {
  NetcheckDiagnosis d = Diagnose(
      "Node groups of round 0 (phase: intra_initial) are: [[0, 1], [2, 3]].\n"
      "network-check round 1: The node status are: {0: True, 1: True, 2: True, 3: True}, the "
      "node group are: [[0, 1], [2, 3]]\n"
      "network-check round 1: The node elapsed time are {0: 20, 1: 20, 2: 20, 3: 20}\n"
      "Node groups of round 1 (phase: inter_initial) are: [[0, 2], [1, 3]].\n"
      "network-check round 2: The node status are: {0: True, 1: True, 2: False, 3: True}, the "
      "node group are: [[0, 2], [1, 3]]\n"
      "network-check round 2: The node elapsed time are {0: 20, 1: 20, 2: 3600, 3: 20}\n"
      "Node groups of round 2 (phase: inter_diagnostic) are: [[0, 3], [1, 2]].\n"
      "network-check round 3: The node status are: {0: True, 1: True, 2: False, 3: True}, the "
      "node group are: [[0, 3], [1, 2]]\n"
      "network-check round 3: The node elapsed time are {0: 20, 1: 20, 2: 3600, 3: 20}\n");
  REQUIRE(d.verdict_cycle >= 0);
  CHECK(d.faults == Ids{"2"});
  const DiagnosedCycle& c = d.cycles[d.verdict_cycle];
  const NodeEvidence* two = nullptr;
  for (const NodeEvidence& e : c.nodes) {
    if (e.id == "2") two = &e;
  }
  REQUIRE(two);
  CHECK(two->verdict == "fault");
  CHECK(two->why.find("failed in the round that decides, round 3 (inter_diagnostic)") == 0);
}

TEST_CASE("netcheck diagnose: the v0.5 format, 1-based `Round N:` lines with groups") {
  NetcheckDiagnosis d = Diagnose(
      "Round 1: The node status are: {0: True, 1: True, 2: False, 3: False}, the node group "
      "are: [[0, 1], [2, 3]]\n"
      "Round 1: The node elapsed time are {0: 20.1, 1: 20.2, 2: 3600, 3: 3600}\n"
      "Round 2: The node status are: {0: True, 1: True, 2: False, 3: True}, the node group are: "
      "[[0, 2], [1, 3]]\n"
      "Round 2: The node elapsed time are {0: 20.1, 1: 20.2, 2: 3600, 3: 20.3}\n");
  CHECK(d.round_offset == 1);
  REQUIRE(d.cycles.size() == 1);
  CHECK(d.cycles[0].complete);
  CHECK(d.faults == Ids{"2"});
  CHECK(d.cycles[0].rounds[0].rdzv_round == 0);
  CHECK(d.cycles[0].rounds[0].groups.size() == 2);
}

}  // namespace jobset
