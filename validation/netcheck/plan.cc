#include "validation/netcheck/plan.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "validation/core/strings.h"
namespace jobset {
namespace {

// Merges a trailing single-node group into the group before it (DLRover's leftover rule).
void MergeLeftover(std::vector<NodeGroup>* groups, NodeGroup leftover) {
  if (leftover.empty()) return;
  if (groups->empty()) {
    groups->push_back(std::move(leftover));
  } else {
    groups->back().insert(groups->back().end(), leftover.begin(), leftover.end());
  }
}

// The ranks of `times` sorted by time, ties in list order.
std::vector<int> SortedByTime(const std::vector<NodeTime>& times) {
  std::vector<NodeTime> sorted = times;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const NodeTime& a, const NodeTime& b) { return a.time < b.time; });
  std::vector<int> ranks;
  for (const NodeTime& t : sorted) ranks.push_back(t.rank);
  return ranks;
}

// The entries of `times` whose rank is in `group`, in list order.
std::vector<NodeTime> TimesOf(const NodeGroup& group, const std::vector<NodeTime>& times) {
  std::vector<NodeTime> out;
  for (const NodeTime& t : times) {
    if (std::find(group.begin(), group.end(), t.rank) != group.end()) out.push_back(t);
  }
  return out;
}

// Combines node groups by position: {G0[p], G1[p], ...} for each p; a position held by a single
// node is merged into the previous position's group.
std::vector<NodeGroup> ByPosition(const std::vector<NodeGroup>& node_groups) {
  size_t longest = 0;
  for (const NodeGroup& g : node_groups) longest = std::max(longest, g.size());
  std::vector<NodeGroup> out;
  for (size_t p = 0; p < longest; ++p) {
    NodeGroup group;
    for (const NodeGroup& g : node_groups) {
      if (p < g.size()) group.push_back(g[p]);
    }
    if (group.size() == 1) {
      MergeLeftover(&out, std::move(group));
    } else {
      out.push_back(std::move(group));
    }
  }
  return out;
}

bool ParseRank(std::string_view text, int* rank) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *rank);
  return !text.empty() && ec == std::errc() && ptr == text.data() + text.size() && *rank >= 0;
}

// One simulated round: every group's result, then the master's report bookkeeping and verdict.
void RunRound(const std::vector<CheckNode>& nodes, CheckRound* round, std::vector<bool>* reported,
              std::vector<int>* report_order, std::vector<double>* time, std::vector<bool>* ok) {
  const size_t n = nodes.size();
  round->round_time.assign(n, kNetcheckFailedTime);
  std::vector<bool> succeeded(n, false);
  for (const NodeGroup& group : round->groups) {
    bool failed = false;
    double slowest = 0;
    for (int r : group) {
      failed = failed || nodes[r].faulty;
      slowest = std::max(slowest, nodes[r].time);
    }
    for (int r : group) {
      succeeded[r] = !failed;
      round->round_time[r] = failed ? kNetcheckFailedTime : slowest;
    }
  }
  for (size_t r = 0; r < n; ++r) {
    const double t = round->round_time[r];
    if (!(*reported)[r]) {
      (*reported)[r] = true;
      report_order->push_back(static_cast<int>(r));
      (*ok)[r] = succeeded[r];
      (*time)[r] = std::round(t * 1000) / 1000;
    } else {
      (*ok)[r] = (*ok)[r] || succeeded[r];
      (*time)[r] = std::round(std::min((*time)[r], t) * 1000) / 1000;
    }
  }
  round->time = *time;
  round->ok = *ok;
  std::vector<double> values;
  for (int r : *report_order) values.push_back((*time)[r]);
  round->median = MedianTime(values);
  for (int r : *report_order) {
    if (!(*ok)[r]) round->faults.push_back(r);
    if (IsStraggler((*time)[r], round->median)) round->stragglers.push_back(r);
  }
  std::sort(round->faults.begin(), round->faults.end());
  std::sort(round->stragglers.begin(), round->stragglers.end());
}

}  // namespace

std::string_view PhaseName(NetcheckPhase phase) {
  switch (phase) {
    case NetcheckPhase::kNone:
      return "";
    case NetcheckPhase::kIntraInitial:
      return "intra_initial";
    case NetcheckPhase::kIntraDiagnostic:
      return "intra_diagnostic";
    case NetcheckPhase::kInterInitial:
      return "inter_initial";
    case NetcheckPhase::kInterDiagnostic:
      return "inter_diagnostic";
  }
  return "";
}

std::vector<NodeGroup> AdjacentPairs(std::vector<int> ranks) {
  std::sort(ranks.begin(), ranks.end());
  std::vector<NodeGroup> groups;
  for (size_t i = 0; i + 1 < ranks.size(); i += 2) groups.push_back({ranks[i], ranks[i + 1]});
  if (ranks.size() % 2 == 1) MergeLeftover(&groups, {ranks.back()});
  return groups;
}

std::vector<NodeGroup> FastestWithSlowest(const std::vector<NodeTime>& times) {
  const std::vector<int> sorted = SortedByTime(times);
  std::vector<NodeGroup> groups;
  if (sorted.empty()) return groups;
  size_t left = 0, right = sorted.size() - 1;
  while (left < right) groups.push_back({sorted[left++], sorted[right--]});
  if (left == right) MergeLeftover(&groups, {sorted[left]});
  return groups;
}

std::vector<NodeGroup> IntraInitial(const std::vector<NodeGroup>& node_groups) {
  std::vector<NodeGroup> out;
  for (NodeGroup g : node_groups) {
    std::sort(g.begin(), g.end());
    for (size_t i = 0; i + 1 < g.size(); i += 2) out.push_back({g[i], g[i + 1]});
    if (g.size() % 2 == 1) out.push_back({g.back()});
  }
  return out;
}

std::vector<NodeGroup> IntraDiagnostic(const std::vector<NodeGroup>& node_groups,
                                       const std::vector<NodeTime>& times) {
  std::vector<NodeGroup> out;
  for (const NodeGroup& g : node_groups) {
    for (NodeGroup& pair : FastestWithSlowest(TimesOf(g, times))) out.push_back(std::move(pair));
  }
  return out;
}

std::vector<NodeGroup> InterInitial(const std::vector<NodeGroup>& node_groups) {
  std::vector<NodeGroup> sorted = node_groups;
  for (NodeGroup& g : sorted) std::sort(g.begin(), g.end());
  return ByPosition(sorted);
}

std::vector<NodeGroup> InterDiagnostic(const std::vector<NodeGroup>& node_groups,
                                       const std::vector<NodeTime>& times) {
  std::vector<NodeGroup> rotated;
  for (size_t ordinal = 0; ordinal < node_groups.size(); ++ordinal) {
    NodeGroup g = SortedByTime(TimesOf(node_groups[ordinal], times));
    if (!g.empty()) {
      std::rotate(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(ordinal % g.size()), g.end());
    }
    rotated.push_back(std::move(g));
  }
  return ByPosition(rotated);
}

double MedianTime(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  if (values.size() % 2 == 1) return values[mid];
  return (values[mid - 1] + values[mid]) / 2;
}

bool IsStraggler(double time, double median) { return time > 2 * median; }

CheckRun SimulateNodeCheck(const std::vector<CheckNode>& nodes,
                           const std::vector<NodeGroup>& node_groups, bool exclude_straggler) {
  CheckRun run;
  const int n = static_cast<int>(nodes.size());
  if (n == 0) return run;
  const bool grouped = !node_groups.empty();
  const int check_round = grouped ? 3 : 2;
  std::vector<int> all(n);
  for (int r = 0; r < n; ++r) all[r] = r;
  std::vector<bool> reported(n, false), ok(n, false);
  std::vector<double> time(n, 0);
  std::vector<int> report_order;
  const auto clear = [&] {
    reported.assign(n, false);
    report_order.clear();
  };
  const auto recorded = [&] {
    std::vector<NodeTime> times;
    for (int r : report_order) times.push_back({r, time[r]});
    return times;
  };
  for (int r = 0; r < check_round; ++r) {
    CheckRound round;
    round.round = r;
    if (!grouped) {
      if (r == 0) {
        clear();
        round.groups = AdjacentPairs(all);
      } else {
        round.groups = FastestWithSlowest(recorded());
      }
    } else if (r == 0) {
      clear();
      round.phase = NetcheckPhase::kIntraInitial;
      round.groups = IntraInitial(node_groups);
    } else if (r == 1 && !run.rounds.back().faults.empty()) {
      round.phase = NetcheckPhase::kIntraDiagnostic;
      round.groups = IntraDiagnostic(node_groups, recorded());
    } else if (r == 1) {
      clear();
      round.phase = NetcheckPhase::kInterInitial;
      round.groups = InterInitial(node_groups);
    } else {
      round.phase = NetcheckPhase::kInterDiagnostic;
      round.groups = InterDiagnostic(node_groups, recorded());
    }
    RunRound(nodes, &round, &reported, &report_order, &time, &ok);
    run.rounds.push_back(round);
    const bool clean = round.faults.empty() && round.stragglers.empty();
    if (grouped && r == 0 && clean) continue;  // "Next Phase".
    const bool again = !round.faults.empty() || (!round.stragglers.empty() && exclude_straggler);
    if (again && n <= kNetcheckAllFailNodes) {
      run.all_failed = true;
      run.faults = all;
      return run;
    }
    if (!again) break;
  }
  run.faults = run.rounds.back().faults;
  run.stragglers = run.rounds.back().stragglers;
  return run;
}

bool ParseNodeGroups(std::string_view text, int nodes, std::vector<NodeGroup>* groups,
                     std::string* error) {
  std::vector<NodeGroup> out;
  int size = 0;
  if (ParseRank(text, &size)) {
    if (size < 1) {
      *error = "--node-groups: a group size must be at least 1";
      return false;
    }
    for (int r = 0; r < nodes; ++r) {
      if (r % size == 0) out.emplace_back();
      out.back().push_back(r);
    }
    *groups = std::move(out);
    return true;
  }
  std::vector<int> seen(std::max(nodes, 0), 0);
  for (std::string_view part : Split(text, '/')) {
    NodeGroup group;
    for (std::string_view item : Split(part, ',')) {
      const size_t dash = item.find('-');
      int lo = 0, hi = 0;
      const bool valid = dash == std::string_view::npos
                             ? ParseRank(item, &lo) && ParseRank(item, &hi)
                             : ParseRank(item.substr(0, dash), &lo) &&
                                   ParseRank(item.substr(dash + 1), &hi) && lo <= hi;
      if (!valid) {
        *error = "--node-groups: \"" + std::string(item) +
                 "\" is not a rank or a range A-B (want a group size, or groups like 0-3/4-7)";
        return false;
      }
      for (int r = lo; r <= hi; ++r) {
        if (r >= nodes) {
          *error = "--node-groups: rank " + std::to_string(r) + " is not below --nodes " +
                   std::to_string(nodes);
          return false;
        }
        if (seen[r]++) {
          *error = "--node-groups: rank " + std::to_string(r) + " is in more than one group";
          return false;
        }
        group.push_back(r);
      }
    }
    out.push_back(std::move(group));
  }
  for (int r = 0; r < nodes; ++r) {
    if (!seen[r]) {
      *error = "--node-groups: rank " + std::to_string(r) + " is in no group";
      return false;
    }
  }
  *groups = std::move(out);
  return true;
}

std::string GroupsText(const std::vector<NodeGroup>& groups) {
  std::string s = "[";
  for (size_t g = 0; g < groups.size(); ++g) {
    s += g ? ", [" : "[";
    for (size_t i = 0; i < groups[g].size(); ++i) {
      s += (i ? ", " : "") + std::to_string(groups[g][i]);
    }
    s += "]";
  }
  return s + "]";
}

}  // namespace jobset
