#include "validation/netcheck/diagnose.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "validation/core/strings.h"
#include "validation/netcheck/plan.h"

namespace jobset {
namespace {

// The node ids of a round (elapsed first, then any only in the status), in log order.
std::vector<std::string> RoundIds(const DiagnosedRound& r) {
  std::vector<std::string> ids;
  for (const auto& [id, t] : r.elapsed) ids.push_back(id);
  for (const auto& [id, ok] : r.status) {
    if (!Contains(ids, id)) ids.push_back(id);
  }
  return ids;
}

// Judges a round by DLRover's rules: status False is a fault (3600 without a status line);
// elapsed > 2 × median is a straggler.
void JudgeRound(DiagnosedRound* r) {
  std::vector<double> values;
  for (const auto& [id, t] : r->elapsed) values.push_back(t);
  r->median = MedianTime(values);
  if (!r->status.empty()) {
    for (const auto& [id, ok] : r->status) {
      if (!ok) r->faults.push_back(id);
    }
  } else {
    for (const auto& [id, t] : r->elapsed) {
      if (t >= kNetcheckFailedTime) r->faults.push_back(id);
    }
  }
  for (const auto& [id, t] : r->elapsed) {
    if (IsStraggler(t, r->median)) r->stragglers.push_back(id);
  }
}

// Whether no further round belongs to the cycle (DLRover's agents stop or the cycle is full).
bool CycleEnds(const DiagnosedCycle& c, int check_round) {
  const DiagnosedRound& last = c.rounds.back();
  if (static_cast<int>(c.rounds.size()) >= check_round) return true;
  if (!last.faults.empty()) {
    return static_cast<int>(RoundIds(last).size()) <= kNetcheckAllFailNodes;
  }
  // A clean intra_initial goes on to the next phase.
  if (check_round == 3 && last.rdzv_round % 3 == 0) return false;
  return last.stragglers.empty();
}

// The node's values round by round: `round 1: 3600 (failed) in [2, 3]`.
std::string History(const DiagnosedCycle& c, const std::string& id) {
  std::string s;
  for (const DiagnosedRound& r : c.rounds) {
    std::string entry = "round " + std::to_string(r.round) + ": ";
    bool any = false;
    for (const auto& [node, t] : r.elapsed) {
      if (node == id) entry += FormatG(t), any = true;
    }
    for (const auto& [node, ok] : r.status) {
      if (node == id) entry += std::string(any ? " " : "") + (ok ? "(ok)" : "(failed)"), any = true;
    }
    if (!any) continue;
    for (const auto& group : r.groups) {
      if (Contains(group, id)) entry += " with [" + Join(group) + "]";
    }
    s += (s.empty() ? "" : "; ") + entry;
  }
  return s;
}

void Finish(DiagnosedCycle* c, int check_round, bool last_in_log) {
  const DiagnosedRound& last = c->rounds.back();
  const std::vector<std::string> last_ids = RoundIds(last);
  const int n = static_cast<int>(last_ids.size());
  const std::string next = "round " + std::to_string(last.round + 1);
  // The cycle ends at the first round with a fault when there are 3 nodes or fewer.
  if (!last.faults.empty() && n <= kNetcheckAllFailNodes) {
    c->complete = true;
    c->all_failed = true;
    c->faults = last_ids;
    c->stragglers = last.stragglers;
    c->state = "only " + std::to_string(n) +
               " nodes (3 or fewer) and a fault: every node fails the check, no further round";
  } else if (CycleEnds(*c, check_round)) {
    c->complete = true;
    c->faults = last.faults;
    c->stragglers = last.stragglers;
    if (last.faults.empty() && last.stragglers.empty()) {
      c->state = "round " + std::to_string(last.round) + " found no fault: the check passed";
    } else {
      c->state = "all " + std::to_string(c->rounds.size()) + " rounds of the cycle ran";
    }
  } else if (last.faults.empty() && !last.stragglers.empty()) {
    // Without --exclude-straggler the agents go on training; with it a round would follow.
    c->complete = true;
    c->stragglers = last.stragglers;
    c->state = "stragglers only: no further round (the job runs without --exclude-straggler)";
  } else if (last.faults.empty()) {
    c->state = last_in_log ? "the log ends after intra_initial (the next phase is not in it)"
                           : "the phase after intra_initial is missing";
  } else {
    c->state = last_in_log ? "the log ends before " + next + " (truncated?)"
                           : next + " is missing: the next cycle starts first";
  }
  std::vector<std::string> ids;
  for (const DiagnosedRound& r : c->rounds) {
    for (const std::string& id : RoundIds(r)) {
      if (!Contains(ids, id)) ids.push_back(id);
    }
  }
  for (const std::string& id : ids) {
    NodeEvidence e;
    e.id = id;
    const std::string history = History(*c, id);
    double best = -1;
    for (const auto& [node, t] : last.elapsed) {
      if (node == id) best = t;
    }
    if (Contains(c->faults, id)) {
      e.verdict = "fault";
      // In the node-group variant a later phase clears what an earlier one found, so a node
      // can be a fault after passing intra_initial: the last round decides.
      bool passed_a_round = false;
      for (const DiagnosedRound& r : c->rounds) {
        const std::vector<std::string> in = RoundIds(r);
        passed_a_round = passed_a_round || (Contains(in, id) && !Contains(r.faults, id));
      }
      if (c->all_failed && !Contains(last.faults, id)) {
        e.why = "passed, but with 3 or fewer nodes a fault fails every node (" + history + ")";
      } else if (passed_a_round) {
        e.why = "failed in the round that decides, round " + std::to_string(last.round) +
                (last.phase.empty() ? "" : " (" + last.phase + ")") +
                "; later phases clear earlier results (" + history + ")";
      } else {
        e.why = "failed in every round of the cycle (" + history + ")";
      }
    } else if (Contains(c->stragglers, id)) {
      e.verdict = "straggler";
      e.why = "best time " + FormatG(best) + " > 2 x median " + FormatG(last.median) + " (" +
              history + ")";
    } else if (!c->complete && Contains(last.faults, id)) {
      e.verdict = "suspect";
      e.why = "failed so far, the cycle has no verdict (" + history + ")";
    } else {
      e.verdict = "ok";
      e.why = history;
    }
    c->nodes.push_back(std::move(e));
  }
}

}  // namespace

NetcheckDiagnosis DiagnoseNetcheck(const NetcheckLog& log) {
  NetcheckDiagnosis d;
  d.unparsed = log.unparsed;
  std::map<std::string, std::string> id_of_rank;
  std::map<int, const NetcheckLine*> grouping;  // By grouping round.
  for (const NetcheckLine& l : log.lines) {
    if (!l.phase.empty()) d.group_variant = true;
    // Only old builds printed `Round 0:`; current ones print the grouping round plus one.
    if ((l.kind == NetcheckLineKind::kStatus || l.kind == NetcheckLineKind::kElapsed) &&
        l.old_format && l.round == 0) {
      d.round_offset = 0;
    }
  }
  std::vector<DiagnosedRound> rounds;
  for (const NetcheckLine& l : log.lines) {
    switch (l.kind) {
      case NetcheckLineKind::kJoin:
        id_of_rank[l.rank] = l.node_id;
        break;
      case NetcheckLineKind::kCompleted:
        for (const auto& [id, rank] : l.entries) id_of_rank[rank] = id;
        break;
      case NetcheckLineKind::kGroups:
        grouping[l.round] = &l;
        break;
      case NetcheckLineKind::kStatus:
      case NetcheckLineKind::kElapsed: {
        const bool status = l.kind == NetcheckLineKind::kStatus;
        if (rounds.empty() || rounds.back().round != l.round ||
            (status ? !rounds.back().status.empty() : !rounds.back().elapsed.empty())) {
          DiagnosedRound r;
          r.round = l.round;
          r.rdzv_round = l.round - (l.old_format ? d.round_offset : 1);
          r.line = l.line;
          rounds.push_back(std::move(r));
        }
        DiagnosedRound& r = rounds.back();
        for (const auto& [id, value] : l.entries) {
          if (status) {
            r.status.emplace_back(id, value == "True" || value == "true");
          } else {
            double t = 0;
            ParseCheckTime(value, &t);
            r.elapsed.emplace_back(id, t);
          }
        }
        if (!l.groups.empty()) r.groups = l.groups;
        break;
      }
      case NetcheckLineKind::kFaultNodes:
      case NetcheckLineKind::kStraggler: {
        if (rounds.empty()) break;
        DiagnosedRound& r = rounds.back();
        r.logged_verdict = true;
        if (r.phase.empty()) r.phase = l.phase;
        for (const auto& [rank, value] : l.entries) {
          if (l.kind == NetcheckLineKind::kFaultNodes) {
            r.logged_faults.push_back(value);
          } else {
            const auto it = id_of_rank.find(rank);
            r.logged_stragglers.push_back(it != id_of_rank.end() ? it->second : "rank " + rank);
          }
        }
        break;
      }
      default:
        break;
    }
  }
  const int check_round = d.group_variant ? 3 : 2;
  for (size_t i = 0; i < rounds.size(); ++i) {
    DiagnosedRound& r = rounds[i];
    if (const auto it = grouping.find(r.rdzv_round); it != grouping.end()) {
      if (r.groups.empty()) r.groups = it->second->groups;
      if (!it->second->phase.empty()) r.phase = it->second->phase;
    }
    JudgeRound(&r);
    const bool starts = d.cycles.empty() || r.rdzv_round % check_round == 0 ||
                        r.rdzv_round != d.cycles.back().rounds.back().rdzv_round + 1 ||
                        CycleEnds(d.cycles.back(), check_round);
    if (starts) {
      if (!d.cycles.empty()) Finish(&d.cycles.back(), check_round, false);
      d.cycles.emplace_back();
    }
    d.cycles.back().rounds.push_back(r);
  }
  if (!d.cycles.empty()) Finish(&d.cycles.back(), check_round, true);
  for (size_t c = 0; c < d.cycles.size(); ++c) {
    if (d.cycles[c].complete) d.verdict_cycle = static_cast<int>(c);
  }
  if (d.verdict_cycle >= 0) {
    d.faults = d.cycles[d.verdict_cycle].faults;
    d.stragglers = d.cycles[d.verdict_cycle].stragglers;
  }
  return d;
}

}  // namespace jobset
