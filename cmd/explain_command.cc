#include "cmd/explain_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cmd/jobset_objects.h"
#include "cmd/kind_commands.h"
#include "cmd/text_table.h"
#include "validation/jobset/analysis.h"
#include "validation/jobset/policy_engine.h"
#include "validation/jobset/validation.h"

namespace jobset {
namespace {

using json = nlohmann::ordered_json;

// One cell of the table: what happens to a failure of one replicated job with one reason.
struct Cell {
  std::string reason;
  std::string unreachable;  ///< Why the reason cannot occur, or "".
  CellExplanation explanation;
};

struct Row {
  std::string rjob;
  std::vector<Cell> cells;
};

std::vector<Row> Explain(const PreparedPolicy& policy, const JobSet& js) {
  std::vector<Row> rows;
  for (size_t r = 0; r < js.replicated_jobs.size(); ++r) {
    Row row{js.replicated_jobs[r].name, {}};
    for (const std::string& reason : JobFailureReasons()) {
      row.cells.push_back(Cell{reason, WhyReasonUnreachable(js.replicated_jobs[r], reason),
                               ExplainCell(policy, static_cast<int>(r), reason)});
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string RuleName(const PreparedPolicy& policy, const Decision& d) {
  return d.rule >= 0 ? policy.rules[d.rule].name : "";
}

// Short words for a table cell.
std::string ActionWords(const Decision& d, bool has_policy) {
  if (!has_policy) return "FAIL";
  if (d.stuck) return "stuck (gate off)";
  switch (d.action) {
    case PolicyAction::kFailJobSet:
      return "FAIL";
    case PolicyAction::kRestartJobSet:
      return "restart*";
    case PolicyAction::kRestartJobSetAndIgnoreMaxRestarts:
      return "restart (free)";
    case PolicyAction::kRestartJob:
      return "restart job*";
    case PolicyAction::kRestartJobAndIgnoreMaxRestarts:
      return "restart job (free)";
    default:
      return "stuck (unknown action)";
  }
}

std::string DecisionWords(const PreparedPolicy& policy, const JobSet& js, const Decision& d) {
  std::string rule = RuleName(policy, d);
  std::string s =
      ActionWords(d, policy.has_failure_policy) +
      (rule.empty() ? (policy.has_failure_policy ? " (default)" : "") : " [" + rule + "]");
  if (d.conditional && d.rule >= 0) {
    // A conditional rule: say which messages it takes.
    std::string patterns;
    for (const std::string& p : js.failure_policy->rules[d.rule].on_job_failure_message_patterns)
      patterns += (patterns.empty() ? "" : "|") + p;
    s += " if message ~ /" + patterns + "/";
  }
  return s;
}

std::string CellWords(const PreparedPolicy& policy, const JobSet& js, const Cell& c) {
  if (!c.unreachable.empty()) return "-";
  std::string s = DecisionWords(policy, js, c.explanation.decision);
  for (const Decision& d : c.explanation.otherwise) s += ", else " + DecisionWords(policy, js, d);
  return s;
}

json DecisionJson(const PreparedPolicy& policy, const Decision& d) {
  json j;
  std::string rule = RuleName(policy, d);
  j["rule"] = rule.empty() ? json(nullptr) : json(rule);
  j["action"] = policy.has_failure_policy ? std::string(ActionName(d.action)) : "FailJobSet";
  j["countsTowardsMax"] = d.counts_towards_max;
  j["conditional"] = d.conditional;
  if (d.stuck) j["stuck"] = true;
  return j;
}

json ObjectJson(const LoadedJobSet& l, const PreparedPolicy& policy, const std::vector<Row>& rows) {
  json decisions = json::array();
  for (const Row& row : rows) {
    for (const Cell& c : row.cells) {
      json d = {{"replicatedJob", row.rjob}, {"reason", c.reason}};
      d.update(DecisionJson(policy, c.explanation.decision));
      if (!c.explanation.otherwise.empty()) {
        json other = json::array();
        for (const Decision& o : c.explanation.otherwise) other.push_back(DecisionJson(policy, o));
        d["otherwise"] = std::move(other);
      }
      d["canOccur"] = c.unreachable.empty();
      if (!c.unreachable.empty()) d["whyNot"] = c.unreachable;
      decisions.push_back(std::move(d));
    }
  }
  json o;
  o["kind"] = "JobSet";
  o["name"] = l.jobset.name;
  o["maxRestarts"] = policy.has_failure_policy ? json(policy.max_restarts) : json(nullptr);
  o["hasFailurePolicy"] = policy.has_failure_policy;
  o["restartStrategy"] = policy.restart_strategy;
  o["decisions"] = std::move(decisions);
  return o;
}

// What every outcome of a cell could be, the message unknown.
std::vector<Decision> Outcomes(const Cell& c) {
  std::vector<Decision> all = {c.explanation.decision};
  all.insert(all.end(), c.explanation.otherwise.begin(), c.explanation.otherwise.end());
  return all;
}

bool Free(PolicyAction a) {
  return a == PolicyAction::kRestartJobSetAndIgnoreMaxRestarts ||
         a == PolicyAction::kRestartJobAndIgnoreMaxRestarts;
}

// The plain-language summary under the table.
std::vector<std::string> Summary(const PreparedPolicy& policy, const std::vector<Row>& rows) {
  std::vector<std::string> lines;
  if (!policy.has_failure_policy) {
    lines.push_back("no failure policy: the first failed Job fails the JobSet (FailedJobs)");
    return lines;
  }
  bool counted = false;
  for (const Row& row : rows)
    for (const Cell& c : row.cells)
      if (c.unreachable.empty())
        for (const Decision& d : Outcomes(c)) counted = counted || d.counts_towards_max;
  if (counted && policy.max_restarts <= 0) {
    lines.push_back("maxRestarts " + std::to_string(policy.max_restarts) +
                    ": the first failure marked * fails the JobSet (ReachedMaxRestarts)");
  } else if (counted) {
    lines.push_back("at most " + std::to_string(policy.max_restarts) +
                    " counted restarts (marked *); the next counted failure fails the JobSet "
                    "with ReachedMaxRestarts");
  } else {
    lines.push_back("no failure counts against maxRestarts (" +
                    std::to_string(policy.max_restarts) + ")");
  }
  for (const Row& row : rows) {
    bool can_fail = false, all_free = true;
    for (const Cell& c : row.cells) {
      if (!c.unreachable.empty()) continue;
      for (const Decision& d : Outcomes(c)) {
        if (d.action == PolicyAction::kFailJobSet || d.counts_towards_max) can_fail = true;
        if (!Free(d.action)) all_free = false;
      }
    }
    if (all_free) {
      lines.push_back("failures of `" + row.rjob +
                      "` never fail the JobSet: every one restarts "
                      "without counting");
    } else if (!can_fail) {
      lines.push_back("failures of `" + row.rjob + "` never fail the JobSet");
    }
    const Cell& bug = row.cells[0];  // BackoffLimitExceeded: the container kept failing
    const Decision& d = bug.explanation.decision;
    bool fails_at_once =
        d.action == PolicyAction::kFailJobSet || (d.counts_towards_max && policy.max_restarts <= 0);
    if (fails_at_once && !d.conditional && bug.unreachable.empty()) {
      lines.push_back("an application bug in `" + row.rjob +
                      "` (BackoffLimitExceeded) fails the JobSet at once");
    } else if (Free(d.action)) {
      lines.push_back("an application bug in `" + row.rjob +
                      "` (BackoffLimitExceeded) restarts forever: nothing stops a bug that fails "
                      "every run");
    }
  }
  return lines;
}

void RenderTable(const PreparedPolicy& policy, const JobSet& js, const std::vector<Row>& rows,
                 bool markdown, std::ostream& out) {
  std::vector<std::string> header = {"REPLICATED JOB"};
  for (const std::string& r : JobFailureReasons()) header.push_back(r);
  std::vector<std::vector<std::string>> table = {header};
  for (const Row& row : rows) {
    std::vector<std::string> line = {row.rjob};
    for (const Cell& c : row.cells) line.push_back(CellWords(policy, js, c));
    table.push_back(std::move(line));
  }
  PrintTable(table, markdown, out);
  if (markdown) return;
  // "-" cells, grouped by reason and cause: "DeadlineExceeded (driver, workers): ...".
  std::vector<std::pair<std::string, std::string>> notes;  // (reason + cause, rjobs)
  for (const Row& row : rows) {
    for (const Cell& c : row.cells) {
      if (c.unreachable.empty()) continue;
      std::string key = c.reason + "\t" + c.unreachable;
      auto it = std::find_if(notes.begin(), notes.end(), [&](auto& n) { return n.first == key; });
      if (it == notes.end())
        notes.push_back({key, row.rjob});
      else
        it->second += ", " + row.rjob;
    }
  }
  if (!notes.empty()) out << "\n  - cannot occur:\n";
  for (const auto& [key, rjobs] : notes) {
    size_t tab = key.find('\t');
    out << "      " << key.substr(0, tab) << " (" << rjobs << "): " << key.substr(tab + 1) << "\n";
  }
}

}  // namespace

int RunExplain(const ExplainFlags& flags, std::ostream& out, std::ostream& err) {
  FeatureGates gates;
  std::string error;
  if (!ParseFeatureGates(flags.feature_gates, &gates, &error)) {
    err << "error: --feature-gates: " << error << "\n";
    return 2;
  }
  std::vector<LoadedJobSet> jobsets;
  std::vector<OtherObject> others;
  if (!LoadJobSets(flags.path, gates, &jobsets, &error, &others)) {
    err << "error: " << error << "\n";
    return 2;
  }
  json objects = json::array();
  for (const LoadedJobSet& l : jobsets) {
    if (l.errors > 0) {
      err << "warning: " << l.file << ": JobSet " << l.jobset.name << " has " << l.errors
          << " lint error(s): the API server would reject it (run kubectl jobset lint)\n";
    }
    PreparedPolicy policy = PreparePolicy(l.jobset, gates);
    std::vector<Row> rows = Explain(policy, l.jobset);
    if (flags.output == "json") {
      objects.push_back(ObjectJson(l, policy, rows));
      continue;
    }
    bool md = flags.output == "markdown";
    std::string title = "JobSet " + l.jobset.name;
    std::string params = policy.has_failure_policy
                             ? "maxRestarts " + std::to_string(policy.max_restarts) +
                                   ", restartStrategy " + policy.restart_strategy
                             : "no failure policy";
    out << (md ? "### " : "") << title << " (" << params << ")\n\n";
    RenderTable(policy, l.jobset, rows, md, out);
    out << "\n";
    if (!md) {
      out << "  restart: the whole JobSet; restart job: that Job only; * counts against "
             "maxRestarts, (free) does not;\n  [rule] fired, (default) no rule matched; "
             "\"else\" applies when the message does not match\n\n";
    } else {
      out << "`*` counts against maxRestarts; `(free)` restarts do not; `[rule]` is the rule "
             "that fires; `else` follows a rule that only matches some messages.\n\n";
    }
    for (const std::string& line : Summary(policy, rows))
      out << (md ? "- " : "  - ") << line << "\n";
    out << "\n";
  }
  for (const OtherObject& o : others) {
    if (int rc = o.commands->explain(*o.object, o.file, flags, out, &objects, err); rc != 0)
      return rc;
  }
  if (flags.output == "json") out << json{{"objects", objects}}.dump(2) << "\n";
  return 0;
}

namespace {

const char kExplainExamples[] = R"(
Examples:
  # What each failure of each replicated job does
  kubectl jobset explain examples/training-fail-fast.yaml

  # For a pull request description
  kubectl jobset explain -o markdown jobs/train.yaml

  # For scripts (one decision per replicated job and reason)
  kubectl jobset explain -o json jobs/train.yaml

  # A Volcano Job: for each task and event, which lifecycle policy fires and what the job does
  kubectl jobset explain examples/volcano/3-task-overrides-job.yaml

  # A FrameworkController Framework: its retry and completion policies in terms of the
  # FrameworkType tables of the FrameworkController manual
  kubectl jobset explain examples/framework/tensorflow.yaml
)";

}  // namespace

CLI::App* AddExplainCommand(CLI::App& app, ExplainFlags* flags) {
  CLI::App* explain_cmd = app.add_subcommand(
      "explain",
      "For every replicated job (task, task role) and failure: which rule fires and what happens.");
  explain_cmd->add_option("PATH", flags->path, "A manifest file, or - for standard input")
      ->required();
  explain_cmd->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"text", "json", "markdown"}))
      ->capture_default_str();
  explain_cmd->add_option("--feature-gates", flags->feature_gates,
                          "JobSet feature gates, e.g. RestartJob=true");
  explain_cmd->footer(kExplainExamples);
  return explain_cmd;
}

}  // namespace jobset
