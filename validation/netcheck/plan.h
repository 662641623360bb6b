// DLRover's node health check (`dlrover-run --network-check`), as its job master runs it
// (NetworkCheckRendezvousManager and GroupNodeNetworkCheckRendezvousManager in
// dlrover/python/master/elastic_training/rdzv_manager.py): which nodes are tested together in
// each round, how a round's results are judged, and a simulation of one whole check cycle.
// Facts: intelligent-machine-learning/dlrover@7c3e9648,
// dlrover/python/master/elastic_training/rdzv_manager.py, NetworkCheckRendezvousManager and
// GroupNodeNetworkCheckRendezvousManager.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobset {

/// The elapsed time a node reports for a failed round (DLRover's sentinel).
inline constexpr double kNetcheckFailedTime = 3600;

/// The node-count limit at or under which a fault in a round fails every node (no next round).
inline constexpr int kNetcheckAllFailNodes = 3;

/// Node ranks tested together in one round (a small world), in DLRover's order.
using NodeGroup = std::vector<int>;

/// A rank's recorded time; a list of them is in the order the ranks first reported.
struct NodeTime {
  int rank = 0;
  double time = 0;
};

/// The phases of the group-node variant (one per round ≡ 0, 1, 2 mod 3).
enum class NetcheckPhase {
  kNone,
  kIntraInitial,
  kIntraDiagnostic,
  kInterInitial,
  kInterDiagnostic
};

/// DLRover's phase name (`intra_initial`, ...); "" for kNone.
std::string_view PhaseName(NetcheckPhase phase);

/// Round ≡ 0 (mod 2): adjacent pairs of `ranks` in ascending order; a leftover node is merged
/// into the last pair (a triple); a single node forms its own group.
std::vector<NodeGroup> AdjacentPairs(std::vector<int> ranks);

/// Round ≡ 1 (mod 2): ranks sorted by time ascending (ties keep the order of `times`), then
/// sorted[0] with sorted[n-1], sorted[1] with sorted[n-2], ...; the odd middle node is merged
/// into the last pair formed. The fast member comes first in each group.
std::vector<NodeGroup> FastestWithSlowest(const std::vector<NodeTime>& times);

/// Group-node variant, intra_initial: adjacent pairs inside each node group (ranks sorted); a
/// leftover node forms a singleton group.
std::vector<NodeGroup> IntraInitial(const std::vector<NodeGroup>& node_groups);

/// Group-node variant, intra_diagnostic: FastestWithSlowest inside each node group, with the
/// times of that group's ranks (ranks without a time are left out).
std::vector<NodeGroup> IntraDiagnostic(const std::vector<NodeGroup>& node_groups,
                                       const std::vector<NodeTime>& times);

/// Group-node variant, inter_initial: one group per position across node groups ({G0[0], G1[0],
/// ...}, {G0[1], G1[1], ...}); a position held by a single node is merged into the previous
/// position's group.
std::vector<NodeGroup> InterInitial(const std::vector<NodeGroup>& node_groups);

/// Group-node variant, inter_diagnostic: each node group's ranks sorted by time, rotated left by
/// the group's ordinal, then combined by position as InterInitial.
std::vector<NodeGroup> InterDiagnostic(const std::vector<NodeGroup>& node_groups,
                                       const std::vector<NodeTime>& times);

/// The median of `values` (mean of the two middle ones for an even count; 0 when empty).
double MedianTime(std::vector<double> values);

/// DLRover's straggler rule: time > 2 × median (strict).
bool IsStraggler(double time, double median);

/// One node of a simulated check.
struct CheckNode {
  bool faulty = false;  ///< Every group it is in fails (all members report kNetcheckFailedTime).
  double time = 20;     ///< Its time in a healthy group; a group takes its slowest member's time.
};

/// One simulated round.
struct CheckRound {
  int round = 0;  ///< DLRover's rdzv_round when grouping (0-based).
  NetcheckPhase phase = NetcheckPhase::kNone;
  std::vector<NodeGroup> groups;
  std::vector<double> round_time;  ///< This round's time per rank.
  std::vector<double> time;        ///< The master's node_times per rank (min over the cycle).
  std::vector<bool> ok;            ///< The master's node_status per rank (OR over the cycle).
  std::vector<int> faults;         ///< Ranks with node_status false.
  std::vector<int> stragglers;     ///< Ranks with time > 2 × median.
  double median = 0;
};

/// The outcome of a simulated check cycle.
struct CheckRun {
  std::vector<CheckRound> rounds;
  std::vector<int> faults;      ///< Ranks that fail the check (raise NodeCheckFailedError).
  std::vector<int> stragglers;  ///< Ranks reported as stragglers after the last round.
  /// ≤ 3 nodes and the first round found a fault (or a straggler with exclude_straggler): every
  /// agent raises NodeCheckFailedError at once, so `faults` holds every rank.
  bool all_failed = false;
};

/// Simulates one check cycle of `nodes` (rank = index; ranks report in rank order) as the agents
/// and the master run it: the base algorithm (2 rounds) when `node_groups` is empty, else the
/// group-node variant (3 rounds; every rank must be in exactly one group). A round follows only
/// when the previous found a fault, or a straggler and `exclude_straggler`; the group-node
/// variant also goes on after a clean intra_initial ("Next Phase").
CheckRun SimulateNodeCheck(const std::vector<CheckNode>& nodes,
                           const std::vector<NodeGroup>& node_groups, bool exclude_straggler);

/// Parses `--node-groups`: either a size K (consecutive ranks 0..K-1, K..2K-1, ... of `nodes`)
/// or groups separated by `/`, each a comma list of ranks and ranges (`0-3/4-7`). Every rank
/// 0..nodes-1 must be in exactly one group.
bool ParseNodeGroups(std::string_view text, int nodes, std::vector<NodeGroup>* groups,
                     std::string* error);

/// Renders a group list as DLRover's logs do: `[[0, 1], [2, 3]]`.
std::string GroupsText(const std::vector<NodeGroup>& groups);

}  // namespace jobset
