// `kubectl jobset simulate --monte-carlo`: the cost of a policy under a failure model, one
// policy or several side by side, as text (with a terminal histogram), JSON or an SVG plot.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cmd/jobset_objects.h"
#include "cmd/monte_carlo_flags.h"
#include "cmd/simulate_command.h"
#include "cmd/simulate_inputs.h"
#include "validation/core/loader.h"
#include "validation/jobset/monte_carlo.h"
#include "validation/sim/duration.h"

namespace jobset {
namespace {

using json = nlohmann::ordered_json;

std::string Percent(double p) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.1f%%", 100 * p);
  return buf;
}

std::string Fixed(double v, int digits = 1) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string Number(double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// One policy of the run: its file, JobSet and result.
struct PolicyRun {
  std::string file;
  std::string name;
  FailureModel model;
  MonteCarloResult result;
  MonteCarloResult with_check;  ///< With --node-check: the same model with the check on.
};

// The `model:` block of a scenario file, under the flags (flags win).
bool ApplyScenarioModel(const std::string& path, SimulateFlags* flags, std::string* error) {
  SourceFile file;
  if (!LoadFile(path, LoadLimits{}, &file, error)) return false;
  if (file.documents.empty() || !file.documents[0].parsed) {
    *error = path + ": cannot read the scenario";
    return false;
  }
  const Node* model = file.documents[0].root.Find("model");
  if (!model) return true;
  if (!model->is_map()) {
    *error = path + ": model: want a mapping";
    return false;
  }
  for (const MapEntry& e : model->entries) {
    const Node& v = e.value;
    auto str = [&](std::string* field) {
      if (field->empty() || *field == "1m" || *field == "30s" || *field == "0s") *field = v.text;
    };
    if (e.key == "nodes" && v.is_int()) {
      if (!flags->nodes) flags->nodes = v.integer;
    } else if (e.key == "runs" && v.is_int()) {
      if (flags->runs == 10000) flags->runs = v.integer;
    } else if (e.key == "seed" && v.is_int()) {
      if (flags->seed == 1) flags->seed = static_cast<uint64_t>(v.integer);
    } else if (e.key == "nodeMTTF") {
      str(&flags->node_mttf);
    } else if (e.key == "runTime") {
      str(&flags->run_time);
    } else if (e.key == "restartTime") {
      str(&flags->restart_time);
    } else if (e.key == "jobRestartTime") {
      str(&flags->job_restart_time);
    } else if (e.key == "checkpointInterval") {
      str(&flags->checkpoint_interval);
    } else if (e.key == "faultMix") {
      if (flags->fault_mix.empty()) flags->fault_mix = v.text;
    } else if (e.key == "arriveFaulty" && v.is_number()) {
      if (!flags->arrive_faulty_given) flags->arrive_faulty = std::atof(v.text.c_str());
    } else if (e.key == "nodeCheck") {
      if (flags->node_check.empty()) flags->node_check = v.text;
    } else if (e.key == "nodeCheckMiss" && v.is_number()) {
      if (!flags->node_check_miss_given) flags->node_check_miss = std::atof(v.text.c_str());
    } else {
      *error = path + ": model." + e.key +
               ": unknown field (nodes, runs, seed, nodeMTTF, runTime, "
               "restartTime, jobRestartTime, checkpointInterval, faultMix, arriveFaulty, "
               "nodeCheck, nodeCheckMiss)";
      return false;
    }
  }
  return true;
}

bool BuildModel(const SimulateFlags& flags, FailureModel* model, std::string* error) {
  if (!ReadModelFlags(flags, " (or a model: block in --scenario)", model,
                      &model->job_restart_time_s, error)) {
    return false;
  }
  if (flags.fault_mix.empty()) {
    model->faults = DefaultFaultMix();
  } else if (std::string e; !ParseFaultMix(flags.fault_mix, &model->faults, &e)) {
    *error = "--fault-mix: " + e;
    return false;
  }
  model->arrive_faulty = flags.arrive_faulty;
  model->node_check_miss = flags.node_check_miss;
  if (!ParseDurationFlag("node-check", flags.node_check, &model->node_check_round_s, error) ||
      !ParseDurationFlag("faulty-fails-after", flags.faulty_fails_after,
                         &model->faulty_fails_after_s, error)) {
    return false;
  }
  if (flags.runs <= 0) {
    *error = "--runs must be positive";
    return false;
  }
  return true;
}

json ResultJson(const MonteCarloResult& r) {
  json j;
  j["runs"] = r.runs_done;
  j["runsRequested"] = r.runs;
  j["cancelled"] = r.cancelled;
  j["nodes"] = r.nodes;
  j["pComplete"] = r.p_complete;
  j["pFail"] = r.p_fail;
  j["pStuck"] = r.p_stuck;
  j["pUnbounded"] = r.p_unbounded;
  j["meanRestarts"] = r.mean_restarts;
  j["meanJobRestarts"] = r.mean_job_restarts;
  j["meanCountedRestarts"] = r.mean_counted_restarts;
  j["meanFailures"] = r.mean_failures;
  j["meanWastedNodeHours"] = r.mean_wasted_node_hours;
  double n = r.runs_done ? static_cast<double>(r.runs_done) : 1;
  const ActionCounts& a = r.actions;
  j["restartsByKind"] = {{"RestartJobSet", a.restart_jobset / n},
                         {"RestartJobSetAndIgnoreMaxRestarts", a.restart_jobset_ignore_max / n},
                         {"RestartJob", a.restart_job / n},
                         {"RestartJobAndIgnoreMaxRestarts", a.restart_job_ignore_max / n},
                         {"default", a.default_restart / n}};
  j["failedBy"] = {{"FailJobSet", a.fail_jobset / n},
                   {"ReachedMaxRestarts", a.reached_max / n},
                   {"noFailurePolicy", a.no_policy_fail / n}};
  const FinishTimes& t = r.time_to_finish;
  j["timeToFinish"] = {{"p50", t.p50},
                       {"p90", t.p90},
                       {"p99", t.p99},
                       {"mean", t.mean},
                       {"min", t.min},
                       {"max", t.max},
                       {"binWidth", t.bin_width},
                       {"histogram", t.histogram}};
  j["failuresSimulated"] = r.failures_simulated;
  return j;
}

// The pre-flight check's fields (only with --arrive-faulty or --node-check, so that the output
// of a model without them is unchanged).
void AddNodeCheckJson(const PolicyRun& p, bool compare, json* j) {
  const FailureModel& m = p.model;
  if (m.arrive_faulty <= 0 && !compare) return;
  (*j)["arriveFaulty"] = m.arrive_faulty;
  (*j)["faultyFailsAfterSeconds"] = m.faulty_fails_after_s;
  (*j)["meanFaultyNodes"] = p.result.mean_faulty_nodes;
  if (!compare) return;
  json with = ResultJson(p.with_check);
  with["meanFaultyNodes"] = p.with_check.mean_faulty_nodes;
  with["meanFaultyCaught"] = p.with_check.mean_faulty_caught;
  with["meanCheckSeconds"] = p.with_check.mean_check_s;
  (*j)["nodeCheck"] = {
      {"roundSeconds", m.node_check_round_s},
      {"missChance", m.node_check_miss},
      {"savedNodeHours", p.result.mean_wasted_node_hours - p.with_check.mean_wasted_node_hours},
      {"withCheck", with}};
}

// A few wide bins of the 40-bin histogram, as bars of block characters.
void TextHistogram(const FinishTimes& t, std::ostream& out) {
  if (t.histogram.empty()) return;
  const int kRows = 10;
  int per = (static_cast<int>(t.histogram.size()) + kRows - 1) / kRows;
  std::vector<int64_t> rows;
  for (size_t i = 0; i < t.histogram.size(); i += per) {
    int64_t sum = 0;
    for (size_t k = i; k < i + per && k < t.histogram.size(); ++k) sum += t.histogram[k];
    rows.push_back(sum);
  }
  int64_t top = *std::max_element(rows.begin(), rows.end());
  out << "  time to finish (completed runs):\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    double from = t.min + static_cast<double>(i * per) * t.bin_width;
    int width = top ? static_cast<int>(std::lround(40.0 * rows[i] / top)) : 0;
    std::string bar;
    for (int k = 0; k < width; ++k) bar += "\u2588";
    out << "    " << std::setw(10) << std::right << FormatDuration(from) << std::left << "  " << bar
        << (bar.empty() ? "" : " ") << rows[i] << "\n";
  }
}

// The rows of the text report, one value per policy.
std::vector<std::pair<std::string, std::vector<std::string>>> Rows(
    const std::vector<PolicyRun>& runs) {
  std::vector<std::pair<std::string, std::vector<std::string>>> rows = {
      {"completes", {}},          {"fails", {}},
      {"stuck / unbounded", {}},  {"global restarts", {}},
      {"  counted", {}},          {"single-job restarts", {}},
      {"wasted node-hours", {}},  {"time to finish p50", {}},
      {"time to finish p90", {}}, {"time to finish p99", {}},
  };
  for (const PolicyRun& p : runs) {
    const MonteCarloResult& r = p.result;
    std::vector<std::string> v = {
        Percent(r.p_complete),
        Percent(r.p_fail),
        Percent(r.p_stuck) + " / " + Percent(r.p_unbounded),
        Fixed(r.mean_restarts, 2),
        Fixed(r.mean_counted_restarts, 2),
        Fixed(r.mean_job_restarts, 2),
        Fixed(r.mean_wasted_node_hours, 1),
        r.completed ? FormatDuration(r.time_to_finish.p50) : "-",
        r.completed ? FormatDuration(r.time_to_finish.p90) : "-",
        r.completed ? FormatDuration(r.time_to_finish.p99) : "-",
    };
    for (size_t i = 0; i < rows.size(); ++i) rows[i].second.push_back(v[i]);
  }
  // The rows of the pre-flight check: when nodes arrive faulty, or when any run (the "+check"
  // columns) has the check.
  if (runs[0].model.arrive_faulty > 0 ||
      std::any_of(runs.begin(), runs.end(),
                  [](const PolicyRun& p) { return p.model.node_check; })) {
    rows.push_back({"faulty nodes at start", {}});
    rows.push_back({"  caught by the check", {}});
    rows.push_back({"check time", {}});
    for (const PolicyRun& p : runs) {
      const MonteCarloResult& r = p.result;
      const bool check = p.model.node_check;
      rows[rows.size() - 3].second.push_back(Fixed(r.mean_faulty_nodes, 2));
      rows[rows.size() - 2].second.push_back(check ? Fixed(r.mean_faulty_caught, 2) : "-");
      rows[rows.size() - 1].second.push_back(check ? FormatDuration(r.mean_check_s) : "-");
    }
  }
  return rows;
}

void RenderText(const std::vector<PolicyRun>& runs, const SimulateFlags& flags, std::ostream& out) {
  const PolicyRun& first = runs[0];
  const FailureModel& m = first.model;
  out << "Monte Carlo: " << first.result.runs_done << " runs"
      << (first.result.cancelled ? " (interrupted)" : "") << ", seed " << m.seed << "\n";
  out << "model: " << first.result.nodes << " nodes, node MTTF " << FormatDuration(m.node_mttf_s)
      << ", run time " << FormatDuration(m.run_time_s) << ", restart "
      << FormatDuration(m.restart_time_s) << ", job restart "
      << FormatDuration(m.job_restart_time_s);
  if (m.checkpoint_interval_s > 0)
    out << ", checkpoint every " << FormatDuration(m.checkpoint_interval_s);
  if (m.arrive_faulty > 0) {
    out << ", " << Number(100 * m.arrive_faulty) << "% of nodes arrive faulty (fail after "
        << FormatDuration(m.faulty_fails_after_s) << ")";
  }
  out << "\nfaults:";
  double total = 0;
  for (const FaultKind& f : m.faults) total += f.weight;
  for (const FaultKind& f : m.faults) {
    out << " " << f.reason << (f.message.empty() ? "" : " (\"" + f.message + "\")") << " "
        << Percent(f.weight / total) << (f.rjob_name.empty() ? "" : " in " + f.rjob_name) << ";";
  }
  out << "\n\n";
  auto rows = Rows(runs);
  size_t label = 0;
  for (const auto& r : rows) label = std::max(label, r.first.size());
  std::vector<size_t> width(runs.size(), 0);
  for (size_t c = 0; c < runs.size(); ++c) {
    width[c] = runs[c].name.size();
    for (const auto& r : rows) width[c] = std::max(width[c], r.second[c].size());
  }
  out << "  " << std::left << std::setw(static_cast<int>(label) + 2) << "";
  for (size_t c = 0; c < runs.size(); ++c)
    out << std::setw(static_cast<int>(width[c]) + 3) << runs[c].name;
  out << "\n";
  for (const auto& r : rows) {
    out << "  " << std::setw(static_cast<int>(label) + 2) << r.first;
    for (size_t c = 0; c < runs.size(); ++c)
      out << std::setw(static_cast<int>(width[c]) + 3) << r.second[c];
    out << "\n";
  }
  if (runs.size() > 1) {
    out << "\n  (columns: ";
    for (size_t c = 0; c < runs.size(); ++c)
      out << (c ? ", " : "") << runs[c].name << " = " << runs[c].file;
    out << ")\n";
  }
  out << "\n";
  for (const PolicyRun& p : runs) {
    if (runs.size() > 1) out << "  " << p.name << "\n";
    TextHistogram(p.result.time_to_finish, out);
  }
  if (!flags.plot.empty()) out << "\nplot written to " << flags.plot << "\n";
}

// An SVG of the time-to-finish distributions (one outline per policy) and the outcome shares.
std::string Svg(const std::vector<PolicyRun>& runs) {
  const double W = 760, H = 420, L = 70, R = 20, T = 40, B = 60;
  double lo = INFINITY, hi = -INFINITY;
  for (const PolicyRun& p : runs) {
    if (p.result.time_to_finish.histogram.empty()) continue;
    lo = std::min(lo, p.result.time_to_finish.min);
    hi = std::max(hi, p.result.time_to_finish.max);
  }
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << W / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">"
    << "Time to finish of completed runs</text>\n";
  double pw = W - L - R, ph = H - T - B;
  s << "<line x1=\"" << L << "\" y1=\"" << T + ph << "\" x2=\"" << L + pw << "\" y2=\"" << T + ph
    << "\" stroke=\"black\"/>\n<line x1=\"" << L << "\" y1=\"" << T << "\" x2=\"" << L << "\" y2=\""
    << T + ph << "\" stroke=\"black\"/>\n";
  if (!std::isfinite(lo) || hi <= lo) hi = lo + 1;
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  for (int k = 0; k <= 4; ++k) {
    double v = lo + (hi - lo) * k / 4, x = L + pw * k / 4;
    s << "<text x=\"" << x << "\" y=\"" << T + ph + 18 << "\" text-anchor=\"middle\">"
      << FormatDuration(v) << "</text>\n";
  }
  s << "<text x=\"" << L + pw / 2 << "\" y=\"" << H - 28
    << "\" text-anchor=\"middle\">time to finish</text>\n"
    << "<text x=\"18\" y=\"" << T + ph / 2 << "\" transform=\"rotate(-90 18 " << T + ph / 2
    << ")\" text-anchor=\"middle\">share of runs</text>\n";
  static const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd"};
  double top = 0;
  for (const PolicyRun& p : runs) {
    const FinishTimes& t = p.result.time_to_finish;
    for (int64_t c : t.histogram)
      top = std::max(top, static_cast<double>(c) / std::max<int64_t>(1, p.result.runs_done));
  }
  if (top <= 0) top = 1;
  for (size_t i = 0; i < runs.size(); ++i) {
    const FinishTimes& t = runs[i].result.time_to_finish;
    const char* color = kColors[i % 5];
    if (!t.histogram.empty()) {
      s << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\" points=\"";
      for (size_t b = 0; b < t.histogram.size(); ++b) {
        double share =
            static_cast<double>(t.histogram[b]) / std::max<int64_t>(1, runs[i].result.runs_done);
        double x0 = L + pw * (t.min + b * t.bin_width - lo) / (hi - lo);
        double x1 = L + pw * (t.min + (b + 1) * t.bin_width - lo) / (hi - lo);
        double y = T + ph - ph * share / top;
        s << x0 << "," << y << " " << x1 << "," << y << " ";
      }
      s << "\"/>\n";
    }
    s << "<rect x=\"" << L + 10 << "\" y=\"" << T + 8 + 18 * i
      << "\" width=\"12\" height=\"12\" fill=\"" << color << "\"/><text x=\"" << L + 28 << "\" y=\""
      << T + 18 + 18 * i << "\">" << runs[i].name << ": completes "
      << Percent(runs[i].result.p_complete) << ", fails " << Percent(runs[i].result.p_fail)
      << ", wasted " << Fixed(runs[i].result.mean_wasted_node_hours) << " node-h</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace

int RunMonteCarloCommand(const SimulateFlags& flags_in, std::ostream& out, std::ostream& err) {
  SimulateFlags flags = flags_in;
  std::string error;
  if (!flags.scenario.empty() && !ApplyScenarioModel(flags.scenario, &flags, &error)) {
    err << "error: --scenario " << error << "\n";
    return 2;
  }
  FeatureGates gates;
  if (!ParseFeatureGates(flags.feature_gates, &gates, &error)) {
    err << "error: --feature-gates: " << error << "\n";
    return 2;
  }
  FailureModel model;
  if (!BuildModel(flags, &model, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  std::vector<PolicyRun> runs;
  std::vector<std::vector<LoadedJobSet>> loaded(flags.paths.size());
  for (size_t i = 0; i < flags.paths.size(); ++i) {
    if (!LoadJobSets(flags.paths[i], gates, &loaded[i], &error)) {
      err << "error: " << error << "\n";
      return 2;
    }
    const LoadedJobSet& l = loaded[i][0];
    if (l.errors > 0) {
      err << "warning: JobSet " << l.jobset.name << " has " << l.errors
          << " lint error(s): the API server would reject it (run kubectl jobset lint)\n";
    }
    runs.push_back(PolicyRun{flags.paths[i], l.jobset.name, model, {}, {}});
  }
  InterruptScope interrupt;
  for (size_t i = 0; i < runs.size() && !interrupt.interrupted(); ++i) {
    const LoadedJobSet& l = loaded[i][0];
    PreparedPolicy policy = PreparePolicy(l.jobset, gates);
    if (std::string invalid = ValidateFailureModel(policy, l.jobset, runs[i].model);
        !invalid.empty()) {
      err << "error: " << runs[i].file << ": " << invalid << "\n";
      return 2;
    }
    const MonteCarloProgress progress = ProgressBar(runs[i].name, err);
    runs[i].result =
        RunMonteCarlo(policy, l.jobset, runs[i].model, flags.threads, interrupt.flag(), progress);
    if (!flags.node_check.empty() && runs[i].result.error.empty()) {
      FailureModel with = runs[i].model;
      with.node_check = true;
      runs[i].with_check =
          RunMonteCarlo(policy, l.jobset, with, flags.threads, interrupt.flag(), progress);
    }
    ClearProgress(err);
    if (!runs[i].result.error.empty()) {
      err << "error: " << runs[i].file << ": " << runs[i].result.error << "\n";
      return 2;
    }
  }
  // Interrupted: report what finished (the policy in flight has a partial result).
  size_t done = 0;
  while (done < runs.size() && runs[done].result.runs_done > 0) ++done;
  runs.resize(std::max<size_t>(done, 1));
  const bool interrupted = interrupt.interrupted();
  if (interrupted) err << "interrupted: partial result\n";
  const bool compare = !flags.node_check.empty();
  // With --node-check each policy shows twice, without and with the check, side by side.
  std::vector<PolicyRun> columns;
  for (const PolicyRun& p : runs) {
    columns.push_back(p);
    if (!compare) continue;
    PolicyRun with = p;
    with.name = p.name + " +check";
    with.model.node_check = true;
    with.result = p.with_check;
    columns.push_back(std::move(with));
  }
  if (!flags.plot.empty()) {
    std::ofstream svg(flags.plot);
    svg << Svg(columns);
    if (!svg) {
      err << "error: --plot: cannot write " << flags.plot << "\n";
      return 2;
    }
  }
  const auto result_json = [compare](const PolicyRun& p) {
    json j = ResultJson(p.result);
    AddNodeCheckJson(p, compare, &j);
    return j;
  };
  if (flags.output == "json") {
    if (runs.size() == 1 && flags.paths.size() == 1) {
      out << json{{"monteCarlo", result_json(runs[0])}}.dump(2) << "\n";
    } else {
      json policies = json::array();
      for (const PolicyRun& p : runs)
        policies.push_back({{"file", p.file}, {"name", p.name}, {"monteCarlo", result_json(p)}});
      out << json{{"policies", policies}}.dump(2) << "\n";
    }
  } else if (compare) {
    RenderText(columns, flags, out);
    out << "\nnode check: " << FormatDuration(runs[0].model.node_check_round_s) << " per round, "
        << Number(100 * runs[0].model.node_check_miss) << "% of faulty nodes pass it\n";
    for (const PolicyRun& p : runs) {
      const double saved = p.result.mean_wasted_node_hours - p.with_check.mean_wasted_node_hours;
      out << "  " << p.name << ": the check " << (saved >= 0 ? "saves " : "costs ")
          << Fixed(std::abs(saved), 1) << " node-hours per run; completes "
          << Percent(p.result.p_complete) << " -> " << Percent(p.with_check.p_complete) << "\n";
    }
  } else {
    RenderText(runs, flags, out);
  }
  return interrupted ? 130 : 0;
}

}  // namespace jobset
