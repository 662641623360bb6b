// `kubectl jobset netcheck plan` and `netcheck diagnose`.

#include "cmd/netcheck_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "validation/netcheck/diagnose.h"
#include "validation/netcheck/log.h"
#include "validation/netcheck/plan.h"

namespace jobset {
namespace {

using json = nlohmann::ordered_json;

// More nodes than any job DLRover checks; keeps a typo from allocating gigabytes.
constexpr int kMaxPlanNodes = 100000;

std::string Number(double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string List(const std::vector<std::string>& items) {
  if (items.empty()) return "none";
  std::string s;
  for (const std::string& item : items) s += (s.empty() ? "" : ", ") + item;
  return s;
}

// One round of a plan.
struct PlanRound {
  int round = 0;
  NetcheckPhase phase = NetcheckPhase::kNone;
  std::string rule;  // How the groups are formed.
  std::string when;  // When the round runs.
  std::vector<NodeGroup> groups;
};

// --times ID=SECONDS,...: ranks below `nodes`, each once, times >= 0.
bool ParseTimes(const std::string& text, int nodes, std::vector<NodeTime>* out,
                std::string* error) {
  std::vector<bool> seen(nodes, false);
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(pos, comma - pos);
    pos = comma + 1;
    const size_t eq = item.find('=');
    double t = -1;
    if (eq == std::string::npos || !ParseCheckTime(item.substr(eq + 1), &t) || t < 0) {
      *error = "--times: \"" + item + "\": want ID=SECONDS (a node rank and its time, >= 0)";
      return false;
    }
    const std::string id = item.substr(0, eq);
    char* end = nullptr;
    errno = 0;
    const long parsed = std::strtol(id.c_str(), &end, 10);
    if (id.empty() || *end != '\0' || errno != 0 || parsed < 0 || parsed >= nodes) {
      *error = "--times: \"" + id + "\" is not a node rank below --nodes " + std::to_string(nodes);
      return false;
    }
    const int rank = static_cast<int>(parsed);
    if (seen[rank]) {
      *error = "--times: rank " + id + " given twice";
      return false;
    }
    seen[rank] = true;
    out->push_back({rank, t});
  }
  return true;
}

std::vector<PlanRound> PlanRounds(int nodes, const std::vector<NodeGroup>& node_groups,
                                  const std::vector<NodeTime>& times) {
  std::vector<PlanRound> rounds;
  const std::string later = nodes <= kNetcheckAllFailNodes ? "never: with 3 or fewer nodes a "
                                                             "fault fails every node at once"
                                                           : "";
  if (node_groups.empty()) {
    std::vector<int> all(nodes);
    for (int r = 0; r < nodes; ++r) all[r] = r;
    rounds.push_back({0, NetcheckPhase::kNone, "adjacent pairs, a leftover joins the last pair",
                      "always", AdjacentPairs(all)});
    rounds.push_back({1, NetcheckPhase::kNone, "fastest with slowest, by round-0 time",
                      later.empty() ? "if round 0 finds a fault node (or a straggler, with "
                                      "--exclude-straggler)"
                                    : later,
                      later.empty() ? FastestWithSlowest(times) : std::vector<NodeGroup>{}});
    return rounds;
  }
  rounds.push_back({0, NetcheckPhase::kIntraInitial, "adjacent pairs inside each node group",
                    "always", IntraInitial(node_groups)});
  rounds.push_back(
      {1, NetcheckPhase::kIntraDiagnostic, "fastest with slowest inside each node group, by time",
       later.empty() ? "if intra_initial finds a fault node" : later,
       later.empty() ? IntraDiagnostic(node_groups, times) : std::vector<NodeGroup>{}});
  rounds.push_back({1, NetcheckPhase::kInterInitial, "one node per group, by position",
                    "if intra_initial finds no fault node and no straggler",
                    InterInitial(node_groups)});
  rounds.push_back(
      {2, NetcheckPhase::kInterDiagnostic,
       "by position, each group sorted by time and rotated by its ordinal",
       later.empty() ? "if round 1 finds a fault node" : later,
       later.empty() ? InterDiagnostic(node_groups, times) : std::vector<NodeGroup>{}});
  return rounds;
}

json GroupsJson(const std::vector<std::vector<std::string>>& groups) {
  json j = json::array();
  for (const auto& g : groups) j.push_back(g);
  return j;
}

bool ReadLog(const std::string& path, std::string* text, std::string* error) {
  if (path == "-") {
    text->assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    *error = path + ": is a directory";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::string reason = std::strerror(errno);
    if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(reason[0]));
    *error = path + ": " + reason;
    return false;
  }
  text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) {
    *error = path + ": read error";
    return false;
  }
  return true;
}

json RoundJson(const DiagnosedRound& r) {
  json elapsed = json::object();
  for (const auto& [id, t] : r.elapsed) elapsed[id] = t;
  json status = json::object();
  for (const auto& [id, ok] : r.status) status[id] = ok;
  json j;
  j["round"] = r.round;
  j["elapsed"] = elapsed;
  j["rdzvRound"] = r.rdzv_round;
  j["line"] = r.line;
  j["phase"] = r.phase;
  j["status"] = status;
  j["groups"] = GroupsJson(r.groups);
  j["median"] = r.median;
  j["faultNodes"] = r.faults;
  j["stragglers"] = r.stragglers;
  if (r.logged_verdict) {
    j["loggedFaultNodes"] = r.logged_faults;
    j["loggedStragglers"] = r.logged_stragglers;
  }
  return j;
}

json DiagnosisJson(const NetcheckDiagnosis& d) {
  json cycles = json::array();
  for (const DiagnosedCycle& c : d.cycles) {
    json rounds = json::array();
    for (const DiagnosedRound& r : c.rounds) rounds.push_back(RoundJson(r));
    json nodes = json::array();
    for (const NodeEvidence& e : c.nodes) {
      nodes.push_back({{"id", e.id}, {"verdict", e.verdict}, {"why", e.why}});
    }
    cycles.push_back({{"rounds", rounds},
                      {"faultNodes", c.faults},
                      {"stragglers", c.stragglers},
                      {"complete", c.complete},
                      {"state", c.state},
                      {"allFailed", c.all_failed},
                      {"nodes", nodes}});
  }
  json unparsed = json::array();
  for (const UnparsedLine& u : d.unparsed) {
    unparsed.push_back({{"line", u.line}, {"why", u.why}, {"text", u.text}});
  }
  json j;
  j["cycles"] = cycles;
  j["faultNodes"] = d.faults;
  j["stragglers"] = d.stragglers;
  j["unparsed"] = d.unparsed.size();
  j["verdictCycle"] = d.verdict_cycle >= 0 ? json(d.verdict_cycle) : json(nullptr);
  j["groupVariant"] = d.group_variant;
  j["roundOffset"] = d.round_offset;
  j["unparsedLines"] = unparsed;
  return j;
}

void UnparsedText(const NetcheckDiagnosis& d, std::ostream& out);

void DiagnosisText(const std::string& name, const NetcheckDiagnosis& d, std::ostream& out) {
  out << "DLRover node check in " << name << ": " << d.cycles.size() << " check cycle"
      << (d.cycles.size() == 1 ? "" : "s")
      << (d.group_variant ? " (node-group variant, 3 rounds each)" : "") << "\n";
  for (size_t c = 0; c < d.cycles.size(); ++c) {
    const DiagnosedCycle& cycle = d.cycles[c];
    out << "\ncycle " << c + 1 << ": " << (cycle.complete ? "complete" : "INCOMPLETE") << ", "
        << cycle.state << "\n";
    for (const DiagnosedRound& r : cycle.rounds) {
      out << "  round " << r.round << (r.phase.empty() ? "" : " (" + r.phase + ")") << ", line "
          << r.line << ": median " << Number(r.median) << ", fault nodes " << List(r.faults)
          << ", stragglers " << List(r.stragglers) << "\n";
      if (r.logged_verdict && r.logged_faults != r.faults) {
        out << "    (the master logged fault nodes " << List(r.logged_faults) << ")\n";
      }
    }
    size_t width = 2;
    for (const NodeEvidence& e : cycle.nodes) width = std::max(width, e.id.size());
    for (const NodeEvidence& e : cycle.nodes) {
      out << "    " << e.id << std::string(width - e.id.size() + 2, ' ') << e.verdict
          << std::string(11 - e.verdict.size(), ' ') << e.why << "\n";
    }
  }
  out << "\n";
  if (d.verdict_cycle < 0) {
    out << "verdict: none (no complete check cycle in the log)\n";
  } else {
    out << "verdict (cycle " << d.verdict_cycle + 1 << "): fault nodes " << List(d.faults)
        << "; stragglers " << List(d.stragglers) << "\n";
  }
  UnparsedText(d, out);
}

void UnparsedText(const NetcheckDiagnosis& d, std::ostream& out) {
  if (!d.unparsed.empty()) {
    out << "\n"
        << d.unparsed.size() << " check line" << (d.unparsed.size() == 1 ? "" : "s")
        << " could not be read:\n";
    for (const UnparsedLine& u : d.unparsed) {
      out << "  line " << u.line << ": " << u.why << ": " << u.text << "\n";
    }
  }
}

}  // namespace

int RunNetcheckPlan(const NetcheckPlanFlags& flags, std::ostream& out, std::ostream& err) {
  if (flags.nodes < 1 || flags.nodes > kMaxPlanNodes) {
    err << "error: --nodes must be between 1 and " << kMaxPlanNodes << "\n";
    return 2;
  }
  std::string error;
  std::vector<NodeGroup> node_groups;
  if (!flags.node_groups.empty() &&
      !ParseNodeGroups(flags.node_groups, flags.nodes, &node_groups, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  std::vector<NodeTime> given;
  if (!flags.times.empty() && !ParseTimes(flags.times, flags.nodes, &given, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  // Nodes without a time are assumed healthy and as fast as the fastest given one below 3600 (1
  // when there is none); all report in rank order.
  double assumed = kNetcheckFailedTime;
  for (const NodeTime& t : given) assumed = std::min(assumed, t.time);
  if (assumed >= kNetcheckFailedTime) assumed = 1;
  std::vector<NodeTime> times;
  std::vector<int> assumed_ranks;
  for (int r = 0; r < flags.nodes; ++r) {
    const auto it =
        std::find_if(given.begin(), given.end(), [r](const NodeTime& t) { return t.rank == r; });
    if (it == given.end()) assumed_ranks.push_back(r);
    times.push_back({r, it == given.end() ? assumed : it->time});
  }
  const std::vector<PlanRound> rounds = PlanRounds(flags.nodes, node_groups, times);
  if (flags.output == "json") {
    json j;
    j["nodes"] = flags.nodes;
    j["checkRounds"] = node_groups.empty() ? 2 : 3;
    json groups = json::array();
    for (const NodeGroup& g : node_groups) groups.push_back(g);
    j["nodeGroups"] = groups;
    json tj = json::object();
    for (const NodeTime& t : times) tj[std::to_string(t.rank)] = t.time;
    j["times"] = tj;
    j["timesAssumed"] = assumed_ranks;
    json rj = json::array();
    for (const PlanRound& r : rounds) {
      json g = json::array();
      for (const NodeGroup& group : r.groups) g.push_back(group);
      rj.push_back({{"round", r.round},
                    {"phase", PhaseName(r.phase)},
                    {"rule", r.rule},
                    {"when", r.when},
                    {"groups", g}});
    }
    j["rounds"] = rj;
    out << j.dump(2) << "\n";
    return 0;
  }
  out << "DLRover node check plan: " << flags.nodes << " node" << (flags.nodes == 1 ? "" : "s")
      << ", up to " << (node_groups.empty() ? 2 : 3) << " rounds per check cycle";
  if (!node_groups.empty()) out << ", node groups " << GroupsText(node_groups);
  out << "\n";
  if (given.empty()) {
    out << "times: none given: all equal, ties in rank order\n";
  } else {
    out << "times:";
    for (const NodeTime& t : given) out << " " << t.rank << "=" << Number(t.time);
    if (!assumed_ranks.empty()) out << "; the others assumed " << Number(assumed);
    out << "\n";
  }
  for (const PlanRound& r : rounds) {
    out << "\nround " << r.round
        << (r.phase == NetcheckPhase::kNone ? "" : " (" + std::string(PhaseName(r.phase)) + ")")
        << ": " << r.rule << "\n  runs " << r.when << "\n";
    if (!r.groups.empty()) out << "  " << GroupsText(r.groups) << "\n";
  }
  return 0;
}

int RunNetcheckDiagnose(const NetcheckDiagnoseFlags& flags, std::ostream& out, std::ostream& err) {
  std::string text, error;
  if (!ReadLog(flags.path, &text, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  const NetcheckDiagnosis d = DiagnoseNetcheck(ParseNetcheckLog(text));
  const std::string name = flags.path == "-" ? "standard input" : flags.path;
  if (flags.output == "json") {
    out << DiagnosisJson(d).dump(2) << "\n";
  } else if (d.cycles.empty()) {
    out << "no DLRover node check in " << name << " (no `network-check round N:` or `Round N:` "
        << "result line)\n";
    UnparsedText(d, out);
  } else {
    DiagnosisText(name, d, out);
  }
  return d.faults.empty() ? 0 : 1;
}

namespace {

const char kNetcheckExamples[] = R"(
Examples:
  # Which of 8 nodes DLRover's node check tests together, round by round
  kubectl jobset netcheck plan --nodes 8

  # Round 1 after round 0 measured ranks 2 and 3 as failed (3600) and rank 5 as slow
  kubectl jobset netcheck plan --nodes 8 --times 2=3600,3=3600,5=45.2,0=20.1

  # The node-group variant (e.g. NVSwitch domains of 4 nodes), its three phases
  kubectl jobset netcheck plan --nodes 8 --node-groups 4 -o json

  # Fault nodes and stragglers from a DLRover job-master log, with the evidence
  kubectl logs job-master-pod | kubectl jobset netcheck diagnose -
  kubectl jobset netcheck diagnose examples/netcheck/master.log -o json

  # The pre-flight check in the cost model: 0.5% of nodes arrive faulty, 3m per round
  kubectl jobset simulate --monte-carlo --nodes 2000 --node-mttf 8760h --run-time 72h \
    --arrive-faulty 0.005 --node-check 3m --node-check-miss 0.05 policy.yaml

Exit status (diagnose): 0 no fault node in the verdict (or no check in the log), 1 fault nodes,
2 usage error or unreadable file.
)";

}  // namespace

NetcheckCommands AddNetcheckCommand(CLI::App& app, NetcheckPlanFlags* plan,
                                    NetcheckDiagnoseFlags* diagnose) {
  CLI::App* netcheck_cmd = app.add_subcommand(
      "netcheck", "DLRover's node health check: the groups of each round, or a log diagnosed.");
  netcheck_cmd->require_subcommand(1);
  netcheck_cmd->footer(kNetcheckExamples);
  CLI::App* plan_cmd = netcheck_cmd->add_subcommand(
      "plan", "The groups of nodes tested together in each round of a check cycle.");
  plan_cmd->add_option("--nodes", plan->nodes, "Nodes (ranks 0..N-1) in the check")->required();
  plan_cmd->add_option("--times", plan->times,
                       "ID=SECONDS,...: round-0 times by rank (3600 = failed); others are "
                       "assumed as fast as the fastest given, all equal when none is given");
  plan_cmd->add_option("--node-groups", plan->node_groups,
                       "Node groups (the group-node variant): a size K, or ranks like 0-3/4-7");
  plan_cmd->add_option("-o,--output", plan->output, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  plan_cmd->footer(kNetcheckExamples);
  CLI::App* diagnose_cmd = netcheck_cmd->add_subcommand(
      "diagnose", "Fault nodes and stragglers from a DLRover job-master log, with the evidence.");
  diagnose_cmd->add_option("FILE", diagnose->path, "The log, or - for standard input (default)");
  diagnose_cmd->add_option("-o,--output", diagnose->output, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  diagnose_cmd->footer(kNetcheckExamples);

  return {plan_cmd, diagnose_cmd};
}

}  // namespace jobset
