#include "cmd/why_render.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "cmd/text_table.h"

namespace jobset {
namespace {

using json = nlohmann::ordered_json;

const char* HealthColor(Health h) {
  switch (h) {
    case Health::kHealthy:
    case Health::kSucceeded:
      return "\033[32m";
    case Health::kSuspended:
    case Health::kRestarting:
      return "\033[33m";
    default:
      return "\033[31m";
  }
}

std::string Limit(int64_t limit) { return limit < 0 ? "unlimited" : std::to_string(limit); }

json DiagnosisJson(const Diagnosis& d) {
  json j;
  j["kind"] = d.kind;
  j["apiVersion"] = d.api_version;
  j["namespace"] = d.namespace_name;
  j["name"] = d.name;
  j["health"] = std::string(HealthName(d.health));
  j["exitCode"] = HealthExitCode(d.health);
  j["state"] = d.state;
  j["conditions"] = d.conditions;
  json budgets = json::array();
  for (const BudgetCounter& b : d.budgets) {
    budgets.push_back({{"scope", b.scope},
                       {"name", b.name},
                       {"used", b.used},
                       {"limit", b.limit < 0 ? json(nullptr) : json(b.limit)},
                       {"note", b.note}});
  }
  j["budgets"] = std::move(budgets);
  json timeline = json::array();
  for (const Attempt& a : d.timeline) {
    json causes = json::array();
    for (const FailureCause& c : a.causes) {
      causes.push_back({{"object", c.object}, {"text", c.text}, {"category", c.category}});
    }
    timeline.push_back({{"attempt", a.number},
                        {"started", a.started},
                        {"ended", a.ended},
                        {"failed", a.failed},
                        {"reason", a.reason},
                        {"message", a.message},
                        {"causes", std::move(causes)},
                        {"rule", a.rule},
                        {"action", a.action},
                        {"counted", a.counted},
                        {"outcome", a.outcome}});
  }
  j["timeline"] = std::move(timeline);
  json next = json::array();
  for (const NextStep& n : d.next) {
    next.push_back({{"scope", n.scope},
                    {"reason", n.reason},
                    {"rule", n.rule},
                    {"action", n.action},
                    {"counts", n.counts},
                    {"effect", n.effect}});
  }
  j["next"] = std::move(next);
  json hazards = json::array();
  for (const Hazard& h : d.hazards) hazards.push_back({{"id", h.id}, {"text", h.text}});
  j["hazards"] = std::move(hazards);
  j["notes"] = d.notes;
  return j;
}

std::string Title(const Diagnosis& d) {
  return d.kind + " " + (d.namespace_name.empty() ? "" : d.namespace_name + "/") + d.name;
}

std::string DecisionLine(const Attempt& a) {
  std::string s = a.rule + " -> " + a.action;
  if (!a.action.empty() && a.action.rfind("none", 0) != 0)
    s += a.counted ? " (counted)" : " (not counted)";
  return s + " -> " + a.outcome;
}

std::vector<std::vector<std::string>> NextTable(const Diagnosis& d) {
  std::vector<std::vector<std::string>> table = {{"SCOPE", "FAILURE", "RULE", "ACTION", "EFFECT"}};
  for (const NextStep& n : d.next) {
    table.push_back({n.scope, n.reason, n.rule, n.action + (n.counts ? "*" : ""), n.effect});
  }
  return table;
}

void RenderText(const Diagnosis& d, bool color, std::ostream& out) {
  const char* bold = color ? "\033[1m" : "";
  const char* reset = color ? "\033[0m" : "";
  out << bold << Title(d) << reset << ": " << (color ? HealthColor(d.health) : "")
      << HealthName(d.health) << reset << "\n  " << d.state << "\n";
  if (!d.conditions.empty()) {
    out << "\n" << bold << "Conditions" << reset << "\n";
    for (const std::string& c : d.conditions) out << "  " << c << "\n";
  }
  if (!d.budgets.empty()) {
    out << "\n" << bold << "Budget" << reset << "\n";
    for (const BudgetCounter& b : d.budgets) {
      out << "  " << (b.scope.empty() ? "" : b.scope + " ") << b.name << ": " << b.used << " of "
          << Limit(b.limit) << " used";
      if (b.limit >= 0) out << ", " << std::max<int64_t>(0, b.limit - b.used) << " left";
      if (!b.note.empty()) out << " (" << b.note << ")";
      out << "\n";
    }
  }
  if (!d.timeline.empty()) {
    out << "\n" << bold << "Timeline" << reset << " (oldest first)\n";
    for (const Attempt& a : d.timeline) {
      out << "  attempt " << a.number;
      if (!a.started.empty() || !a.ended.empty()) {
        out << "  " << (a.started.empty() ? "?" : a.started) << " .. "
            << (a.ended.empty() ? "now" : a.ended);
      }
      out << "\n";
      if (!a.failed.empty()) {
        out << "    " << a.failed << " failed";
        if (!a.reason.empty()) out << ": " << a.reason;
        if (!a.message.empty()) out << ": " << a.message;
        out << "\n";
      }
      for (const FailureCause& c : a.causes) {
        out << "    cause: " << c.object << ": " << c.text;
        if (!c.category.empty()) out << " [" << c.category << "]";
        out << "\n";
      }
      if (!a.rule.empty()) {
        out << "    decision: " << DecisionLine(a) << "\n";
      } else {
        out << "    " << a.outcome << "\n";
      }
    }
  }
  if (!d.next.empty()) {
    out << "\n" << bold << "One more failure" << reset << " (at the current counters)\n";
    PrintTable(NextTable(d), false, out);
    out << "  * counts toward maxRestarts\n";
  }
  if (!d.hazards.empty()) {
    out << "\n" << bold << "Hazards" << reset << "\n";
    for (const Hazard& h : d.hazards) out << "  - " << h.id << ": " << h.text << "\n";
  }
  if (!d.notes.empty()) {
    out << "\n" << bold << "Notes" << reset << "\n";
    for (const std::string& n : d.notes) out << "  - " << n << "\n";
  }
}

void RenderMarkdown(const Diagnosis& d, std::ostream& out) {
  out << "### " << Title(d) << ": **" << HealthName(d.health) << "**\n\n" << d.state << "\n";
  if (!d.conditions.empty()) {
    out << "\n**Conditions**\n\n";
    for (const std::string& c : d.conditions) out << "- `" << c << "`\n";
  }
  if (!d.budgets.empty()) {
    out << "\n**Budget**\n\n";
    for (const BudgetCounter& b : d.budgets) {
      out << "- " << (b.scope.empty() ? "" : "`" + b.scope + "` ") << b.name << ": " << b.used
          << " of " << Limit(b.limit) << " used" << (b.note.empty() ? "" : " (" + b.note + ")")
          << "\n";
    }
  }
  if (!d.timeline.empty()) {
    out << "\n**Timeline**\n\n";
    std::vector<std::vector<std::string>> table = {
        {"ATTEMPT", "FAILED", "REASON", "CAUSE", "RULE", "ACTION", "OUTCOME"}};
    for (const Attempt& a : d.timeline) {
      std::string causes;
      for (const FailureCause& c : a.causes)
        causes += (causes.empty() ? "" : "\n") + c.object + ": " + c.text;
      table.push_back({std::to_string(a.number), a.failed,
                       a.reason + (a.message.empty() ? "" : ": " + a.message), causes, a.rule,
                       a.action + (a.rule.empty() ? "" : (a.counted ? " (counted)" : "")),
                       a.outcome});
    }
    PrintTable(table, true, out);
  }
  if (!d.next.empty()) {
    out << "\n**One more failure** (at the current counters; `*` counts toward maxRestarts)\n\n";
    PrintTable(NextTable(d), true, out);
  }
  if (!d.hazards.empty()) {
    out << "\n**Hazards**\n\n";
    for (const Hazard& h : d.hazards) out << "- `" << h.id << "`: " << h.text << "\n";
  }
  if (!d.notes.empty()) {
    out << "\n**Notes**\n\n";
    for (const std::string& n : d.notes) out << "- " << n << "\n";
  }
}

}  // namespace

void RenderDiagnosis(const Diagnosis& d, std::string_view format, bool color, std::ostream& out) {
  if (format == "json") {
    out << DiagnosisJson(d).dump(2) << "\n";
  } else if (format == "markdown") {
    RenderMarkdown(d, out);
  } else {
    RenderText(d, color, out);
  }
}

void RenderWatchAttempt(const Diagnosis& d, const Attempt& a, std::string_view format,
                        std::ostream& out) {
  if (format == "json") {
    out << json{{"event", "attempt"}, {"name", d.name},       {"attempt", a.number},
                {"failed", a.failed}, {"reason", a.reason},   {"rule", a.rule},
                {"action", a.action}, {"counted", a.counted}, {"outcome", a.outcome}}
               .dump()
        << "\n";
  } else {
    out << "attempt " << a.number << ": "
        << (a.failed.empty() ? "" : a.failed + " failed (" + a.reason + "); ")
        << (a.rule.empty() ? a.outcome : DecisionLine(a)) << "\n";
  }
}

void RenderWatchState(const Diagnosis& d, std::string_view format, std::ostream& out) {
  if (format == "json") {
    out << json{{"event", "state"},
                {"name", d.name},
                {"health", std::string(HealthName(d.health))},
                {"state", d.state}}
               .dump()
        << "\n";
  } else {
    out << "state: " << HealthName(d.health) << ": " << d.state << "\n";
  }
}

}  // namespace jobset
