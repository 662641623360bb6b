#include "validation/netcheck/plan.h"

#include <doctest/doctest.h>

namespace jobset {
namespace {

// `n` healthy nodes of time 20, the ranks in `faulty` faulty.
std::vector<CheckNode> Nodes(int n, std::vector<int> faulty = {}) {
  std::vector<CheckNode> nodes(n);
  for (int r : faulty) nodes[r].faulty = true;
  return nodes;
}

using Groups = std::vector<NodeGroup>;

}  // namespace

TEST_CASE("netcheck plan: round 0 pairs adjacent ranks, a leftover joins the last pair") {
  CHECK(AdjacentPairs({0, 1, 2, 3, 4, 5, 6, 7}) == Groups{{0, 1}, {2, 3}, {4, 5}, {6, 7}});
  CHECK(AdjacentPairs({4, 3, 2, 1, 0}) == Groups{{0, 1}, {2, 3, 4}});
  CHECK(AdjacentPairs({0, 1, 2}) == Groups{{0, 1, 2}});  // 3 nodes: one group of 3
  CHECK(AdjacentPairs({0}) == Groups{{0}});
  CHECK(AdjacentPairs({}).empty());
}

TEST_CASE("netcheck plan: round 1 pairs the fastest with the slowest, ties in report order") {
  // The failed pair (3600) is split, each half joined with a fast node.
  CHECK(FastestWithSlowest({{0, 20}, {1, 21}, {2, 3600}, {3, 3600}}) == Groups{{0, 3}, {1, 2}});
  // Odd: the middle node is merged into the last pair formed.
  CHECK(FastestWithSlowest({{0, 5}, {1, 4}, {2, 3}, {3, 2}, {4, 1}}) == Groups{{4, 0}, {3, 1, 2}});
  // Equal times keep the order the ranks reported in, not rank order.
  CHECK(FastestWithSlowest({{3, 7}, {0, 7}, {2, 7}, {1, 7}}) == Groups{{3, 1}, {0, 2}});
  CHECK(FastestWithSlowest({{5, 1}}) == Groups{{5}});
}

TEST_CASE("netcheck plan: median and the strict straggler rule") {
  CHECK(MedianTime({20, 3600, 20, 3600}) == 1810);
  CHECK(MedianTime({3, 1, 2}) == 2);
  CHECK(IsStraggler(41, 20));
  CHECK_FALSE(IsStraggler(40, 20));  // strictly more than twice
}

TEST_CASE("netcheck simulate: a clean check stops after round 0") {
  const CheckRun run = SimulateNodeCheck(Nodes(8), {}, false);
  REQUIRE(run.rounds.size() == 1);
  CHECK(run.faults.empty());
  CHECK(run.stragglers.empty());
}

TEST_CASE("netcheck simulate: one faulty node in 8 is isolated in round 1") {
  const CheckRun run = SimulateNodeCheck(Nodes(8, {2}), {}, false);
  REQUIRE(run.rounds.size() == 2);
  CHECK(run.rounds[0].faults == std::vector<int>{2, 3});  // its partner fails with it
  CHECK(run.rounds[1].groups == Groups{{0, 3}, {1, 2}, {4, 7}, {5, 6}});
  CHECK(run.faults == std::vector<int>{2});
  CHECK(run.rounds[1].time[3] == 20);  // best time of the cycle
  CHECK(run.rounds[1].time[2] == kNetcheckFailedTime);
}

TEST_CASE("netcheck simulate: several faulty nodes, and a faulty pair") {
  const CheckRun two = SimulateNodeCheck(Nodes(8, {2, 5}), {}, false);
  CHECK(two.rounds[0].faults == std::vector<int>{2, 3, 4, 5});
  CHECK(two.rounds[1].groups == Groups{{0, 5}, {1, 4}, {6, 3}, {7, 2}});
  CHECK(two.faults == std::vector<int>{2, 5});

  const CheckRun pair = SimulateNodeCheck(Nodes(8, {2, 3}), {}, false);
  CHECK(pair.faults == std::vector<int>{2, 3});
}

TEST_CASE("netcheck simulate: 4 nodes with a failed pair: median 1810, nobody a straggler") {
  const CheckRun run = SimulateNodeCheck(Nodes(4, {0}), {}, false);
  CHECK(run.rounds[0].median == 1810);
  CHECK(run.rounds[0].stragglers.empty());
  CHECK(run.faults == std::vector<int>{0});
  CHECK_FALSE(run.all_failed);
}

TEST_CASE("netcheck simulate: odd count, the triple can give a false positive") {
  const CheckRun caught = SimulateNodeCheck(Nodes(5, {4}), {}, false);
  CHECK(caught.rounds[0].groups == Groups{{0, 1}, {2, 3, 4}});
  CHECK(caught.rounds[1].groups == Groups{{0, 4}, {1, 3, 2}});
  CHECK(caught.faults == std::vector<int>{4});

  // Rank 3 faulty: round 1 puts healthy 2 into the triple with 3, so 2 fails both rounds.
  const CheckRun wrong = SimulateNodeCheck(Nodes(5, {3}), {}, false);
  CHECK(wrong.rounds[1].groups == Groups{{0, 4}, {1, 3, 2}});
  CHECK(wrong.faults == std::vector<int>{2, 3});
}

TEST_CASE("netcheck simulate: with 3 nodes or fewer a fault fails every node") {
  for (int n : {2, 3}) {
    CAPTURE(n);
    const CheckRun run = SimulateNodeCheck(Nodes(n, {1}), {}, false);
    CHECK(run.all_failed);
    CHECK(run.rounds.size() == 1);
    CHECK(run.faults.size() == static_cast<size_t>(n));
  }
  CHECK_FALSE(SimulateNodeCheck(Nodes(3), {}, false).all_failed);
}

TEST_CASE("netcheck simulate: a straggler, kept or excluded") {
  std::vector<CheckNode> nodes = Nodes(8);
  nodes[5].time = 100;
  const CheckRun kept = SimulateNodeCheck(nodes, {}, false);
  REQUIRE(kept.rounds.size() == 1);  // only a straggler: agents stop without the flag
  CHECK(kept.stragglers == std::vector<int>{4, 5});  // the partner is slowed down too
  CHECK(kept.faults.empty());

  const CheckRun excluded = SimulateNodeCheck(nodes, {}, true);
  REQUIRE(excluded.rounds.size() == 2);
  CHECK(excluded.rounds[1].groups == Groups{{0, 5}, {1, 4}, {2, 7}, {3, 6}});
  CHECK(excluded.stragglers == std::vector<int>{5});
}

TEST_CASE("netcheck plan: node-group phases") {
  const Groups g = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  CHECK(IntraInitial({{0, 1, 2}, {3, 4}}) == Groups{{0, 1}, {2}, {3, 4}});  // leftover alone
  CHECK(InterInitial(g) == Groups{{0, 4}, {1, 5}, {2, 6}, {3, 7}});
  CHECK(InterInitial({{0, 1, 2}, {3, 4}}) == Groups{{0, 3}, {1, 4, 2}});  // lone position merged
  const std::vector<NodeTime> times = {{0, 1}, {1, 2},    {2, 3}, {3, 4},
                                       {4, 9}, {5, 3600}, {6, 1}, {7, 2}};
  CHECK(IntraDiagnostic(g, times) == Groups{{0, 3}, {1, 2}, {6, 5}, {7, 4}});
  // Group 1 sorted by time is 6, 7, 4, 5; rotated left by its ordinal 1: 7, 4, 5, 6.
  CHECK(InterDiagnostic(g, times) == Groups{{0, 7}, {1, 4}, {2, 5}, {3, 6}});
}

TEST_CASE("netcheck simulate: node-group variant") {
  const Groups g = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  const CheckRun clean = SimulateNodeCheck(Nodes(8), g, false);
  REQUIRE(clean.rounds.size() == 2);  // a clean intra_initial goes on: "Next Phase"
  CHECK(clean.rounds[0].phase == NetcheckPhase::kIntraInitial);
  CHECK(clean.rounds[1].phase == NetcheckPhase::kInterInitial);
  CHECK(clean.faults.empty());

  const CheckRun bad = SimulateNodeCheck(Nodes(8, {5}), g, false);
  REQUIRE(bad.rounds.size() == 3);
  CHECK(bad.rounds[1].phase == NetcheckPhase::kIntraDiagnostic);
  CHECK(bad.rounds[1].groups == Groups{{0, 3}, {1, 2}, {6, 5}, {7, 4}});
  CHECK(bad.rounds[2].phase == NetcheckPhase::kInterDiagnostic);
  CHECK(bad.rounds[2].groups == Groups{{0, 6}, {1, 7}, {2, 5}, {3, 4}});
  CHECK(bad.faults == std::vector<int>{5});
  CHECK(PhaseName(bad.rounds[2].phase) == "inter_diagnostic");
}

TEST_CASE("netcheck plan: --node-groups") {
  Groups groups;
  std::string error;
  REQUIRE(ParseNodeGroups("4", 10, &groups, &error));
  CHECK(groups == Groups{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}});
  REQUIRE(ParseNodeGroups("0-2,7/3-6", 8, &groups, &error));
  CHECK(groups == Groups{{0, 1, 2, 7}, {3, 4, 5, 6}});
  CHECK_FALSE(ParseNodeGroups("0-3/3-7", 8, &groups, &error));
  CHECK(error == "--node-groups: rank 3 is in more than one group");
  CHECK_FALSE(ParseNodeGroups("0-3/4-6", 8, &groups, &error));
  CHECK(error == "--node-groups: rank 7 is in no group");
  CHECK_FALSE(ParseNodeGroups("0-9", 8, &groups, &error));
  CHECK(error == "--node-groups: rank 8 is not below --nodes 8");
  CHECK_FALSE(ParseNodeGroups("a-b", 8, &groups, &error));
  CHECK_FALSE(ParseNodeGroups("0", 8, &groups, &error));
  CHECK(GroupsText({{0, 1}, {2, 3, 4}}) == "[[0, 1], [2, 3, 4]]");
}

}  // namespace jobset
