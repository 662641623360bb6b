#include "cmd/why_command.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cmd/text_table.h"
#include "validation/framework/why.h"
#include "validation/jobset/why.h"
#include "validation/volcano/why.h"

extern char** environ;

namespace jobset {
namespace {

using json = nlohmann::ordered_json;

// --- Running kubectl ----------------------------------------------------------------------------

std::string KubectlBinary() {
  const char* k = std::getenv("KUBECTL");
  return k != nullptr && *k ? k : "kubectl";
}

// Runs `argv` (argv[0] looked up on PATH) without a shell. `on_stdout` gets standard output as
// it arrives (return false to stop the child); standard error is collected in `err_text`.
// Returns the exit status, or -1 with `err_text` set when the program could not be started.
int RunProcess(const std::vector<std::string>& argv,
               const std::function<bool(std::string_view)>& on_stdout, std::string* err_text) {
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0) {
    *err_text = std::strerror(errno);
    return -1;
  }
  if (pipe(err_pipe) != 0) {
    *err_text = std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
  posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    *err_text = std::strerror(rc);
    close(out_pipe[0]);
    close(err_pipe[0]);
    return -1;
  }
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  bool stopped = false;
  char buffer[65536];
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (pollfd& p : fds) {
      if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(p.fd, buffer, sizeof(buffer));
      if (n <= 0) {
        close(p.fd);
        p.fd = -1;
        --open_fds;
        continue;
      }
      if (p.fd == out_pipe[0]) {
        if (!stopped && !on_stdout(std::string_view(buffer, static_cast<size_t>(n)))) {
          stopped = true;
          kill(pid, SIGTERM);
        }
      } else {
        err_text->append(buffer, static_cast<size_t>(n));
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (stopped) return 0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The words after `key` in `text` up to the next quote: `cannot list resource "jobs"` -> jobs.
std::string Quoted(std::string_view text, std::string_view key) {
  size_t at = text.find(key);
  if (at == std::string_view::npos) return {};
  size_t begin = text.find('"', at + key.size());
  if (begin == std::string_view::npos) return {};
  size_t end = text.find('"', begin + 1);
  return end == std::string_view::npos ? std::string()
                                       : std::string(text.substr(begin + 1, end - begin - 1));
}

std::string FirstLine(std::string_view text) {
  while (!text.empty() && (text.front() == '\n' || text.front() == ' ')) text.remove_prefix(1);
  return std::string(text.substr(0, text.find('\n')));
}

void AddAccessFlags(const WhyFlags& flags, std::vector<std::string>* argv) {
  if (!flags.namespace_name.empty()) {
    argv->push_back("--namespace");
    argv->push_back(flags.namespace_name);
  }
  if (!flags.context.empty()) {
    argv->push_back("--context");
    argv->push_back(flags.context);
  }
  if (!flags.kubeconfig.empty()) {
    argv->push_back("--kubeconfig");
    argv->push_back(flags.kubeconfig);
  }
}

// Runs kubectl with `args`; its output is appended to `out`. Gives 0, or 2 with a message.
int Kubectl(const std::vector<std::string>& args, std::string* out, std::ostream& err) {
  std::vector<std::string> argv = {KubectlBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string err_text;
  int status = RunProcess(
      argv,
      [&](std::string_view chunk) {
        out->append(chunk);
        return true;
      },
      &err_text);
  if (status == -1) {
    err << "error: cannot run " << argv[0] << " (set KUBECTL to the kubectl binary): " << err_text
        << "\n";
    return 2;
  }
  if (status != 0) {
    err << "error: " << KubectlErrorMessage(err_text, status) << "\n";
    return 2;
  }
  out->push_back('\n');
  return 0;
}

// --- Kinds --------------------------------------------------------------------------------------

const WhyKind* FindKind(std::string_view word) {
  for (const WhyKind& k : WhyKinds()) {
    for (std::string_view n : k.names) {
      if (n == word) return &k;
    }
  }
  return nullptr;
}

std::string KindWords() {
  std::string s;
  for (const WhyKind& k : WhyKinds()) s += (s.empty() ? "" : ", ") + std::string(k.names.front());
  return s;
}

// --- Rendering ----------------------------------------------------------------------------------

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

bool UseColor(const std::string& flag) {
  if (flag == "always") return true;
  if (flag == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color) return false;
  return isatty(STDOUT_FILENO);
}

bool ReadInput(const std::string& path, std::string* text, std::string* error) {
  if (path == "-") {
    std::ostringstream buffer;
    buffer << std::cin.rdbuf();
    *text = std::move(buffer).str();
    return true;
  }
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  // One read of the whole file (a dump of a large JobSet is tens of MB).
  std::streamoff size = in.tellg();
  in.seekg(0);
  text->resize(size > 0 ? static_cast<size_t>(size) : 0);
  if (size > 0 && !in.read(text->data(), size)) {
    *error = path + ": read error";
    return false;
  }
  return true;
}

// --- Listing -------------------------------------------------------------------------------------

int ListWorkloads(const WhyKind& kind, const WorkloadDump& dump, const WhyFlags& flags,
                  std::ostream& out, std::ostream& err) {
  FeatureGates gates;
  std::vector<std::vector<std::string>> table = {{"NAMESPACE", "NAME", "HEALTH", "STATE"}};
  json items = json::array();
  int status = 0;
  for (const Node* object : ObjectsOfKind(dump, kind.api_group, kind.object_kind)) {
    WorkloadDump one;
    one.objects.push_back(*object);
    Diagnosis d;
    std::string error;
    if (!kind.diagnose(one, ObjectName(*object), gates, &d, &error)) {
      err << "error: " << error << "\n";
      return 2;
    }
    status = std::max(status, HealthExitCode(d.health));
    table.push_back({d.namespace_name, d.name, std::string(HealthName(d.health)), d.state});
    items.push_back({{"namespace", d.namespace_name},
                     {"name", d.name},
                     {"health", std::string(HealthName(d.health))},
                     {"state", d.state}});
  }
  if (flags.output == "json") {
    out << json{{"items", items}}.dump(2) << "\n";
  } else if (table.size() == 1) {
    out << "No " << kind.title << "s found.\n";
  } else {
    PrintTable(table, flags.output == "markdown", out);
  }
  return status;
}

// --- Watch ---------------------------------------------------------------------------------------

// Splits a stream of JSON values (what `kubectl get --watch -o json` prints) into whole values.
struct JsonSplitter {
  std::string buffer;
  bool inside = false;
  JsonScanState scan;

  /// Feeds `chunk`; calls `on_value` for each complete top-level value.
  bool Feed(std::string_view chunk, const std::function<bool(std::string_view)>& on_value) {
    for (char c : chunk) {
      if (!inside) {
        if (c != '{' && c != '[') continue;
        inside = true;
        buffer.clear();
      }
      buffer.push_back(c);
      if (scan.Step(c)) {
        inside = false;
        if (!on_value(buffer)) return false;
      }
    }
    return true;
  }
};

std::string AttemptKey(const Attempt& a) {
  return std::to_string(a.number) + "|" + a.failed + "|" + a.ended + "|" + a.outcome;
}

}  // namespace

const std::vector<WhyKind>& WhyKinds() {
  // Volcano and Framework have no feature gates: their rows drop the argument.
  static const std::vector<WhyKind> kinds = {
      {"JobSet",
       "jobset.x-k8s.io",
       "JobSet",
       {"jobset", "jobsets", "jobset.jobset.x-k8s.io", "jobsets.jobset.x-k8s.io", "JobSet"},
       "jobsets.jobset.x-k8s.io",
       "jobs.batch,pods",
       "jobset.sigs.k8s.io/jobset-name",
       &DiagnoseJobSet},
      {"Volcano Job",
       "batch.volcano.sh",
       "Job",
       {"vcjob", "vcjobs", "job.batch.volcano.sh", "jobs.batch.volcano.sh"},
       "jobs.batch.volcano.sh",
       "pods",
       "volcano.sh/job-name",
       [](const WorkloadDump& dump, std::string_view name, const FeatureGates&, Diagnosis* out,
          std::string* error) { return DiagnoseVolcanoJob(dump, name, out, error); }},
      {"Framework",
       "frameworkcontroller.microsoft.com",
       "Framework",
       {"framework", "frameworks", "framework.frameworkcontroller.microsoft.com",
        "frameworks.frameworkcontroller.microsoft.com", "Framework"},
       "frameworks.frameworkcontroller.microsoft.com",
       "pods",
       "FC_FRAMEWORK_NAME",
       [](const WorkloadDump& dump, std::string_view name, const FeatureGates&, Diagnosis* out,
          std::string* error) { return DiagnoseFramework(dump, name, out, error); }},
  };
  return kinds;
}

std::vector<std::vector<std::string>> WhyKubectlCalls(const WhyKind& kind, std::string_view name,
                                                      const WhyFlags& flags) {
  std::vector<std::vector<std::string>> calls = {
      {"get", std::string(kind.resource), std::string(name), "-o", "json"},
      {"get", std::string(kind.child_resources), "-l",
       std::string(kind.child_label) + "=" + std::string(name), "-o", "json"},
      {"get", "events", "-o", "json"},
  };
  for (auto& call : calls) AddAccessFlags(flags, &call);
  return calls;
}

std::string KubectlErrorMessage(std::string_view text, int status) {
  std::string line = FirstLine(text);
  if (text.find("(Forbidden)") != std::string_view::npos ||
      text.find("is forbidden") != std::string_view::npos) {
    std::string verb;
    size_t at = text.find("cannot ");
    if (at != std::string_view::npos) {
      size_t end = text.find(' ', at + 7);
      verb = std::string(text.substr(at + 7, end - at - 7));
    }
    std::string resource = Quoted(text, "resource ");
    std::string group = Quoted(text, "API group ");
    std::string ns = Quoted(text, "the namespace ");
    if (!verb.empty() && !resource.empty()) {
      return "access denied: you may not " + verb + " " + resource +
             (group.empty() ? "" : "." + group) +
             (ns.empty() ? " at cluster scope" : " in namespace " + ns) +
             " (ask for RBAC get and list on jobsets, jobs, pods and events); kubectl said: " +
             line;
    }
    return "access denied: " + line;
  }
  if (text.find("(NotFound)") != std::string_view::npos) return "not found: " + line;
  if (line.empty()) return "kubectl failed with exit status " + std::to_string(status);
  return "kubectl failed (exit status " + std::to_string(status) + "): " + line;
}

void RenderDiagnosis(const Diagnosis& d, std::string_view format, bool color, std::ostream& out) {
  if (format == "json") {
    out << DiagnosisJson(d).dump(2) << "\n";
  } else if (format == "markdown") {
    RenderMarkdown(d, out);
  } else {
    RenderText(d, color, out);
  }
}

int RunWhy(const WhyFlags& flags, std::ostream& out, std::ostream& err) {
  FeatureGates gates;
  std::string error;
  if (!ParseFeatureGates(flags.feature_gates, &gates, &error)) {
    err << "error: --feature-gates: " << error << "\n";
    return 2;
  }
  const WhyKind* kind = &WhyKinds().front();
  std::string name = flags.target;
  if (size_t slash = name.find('/'); slash != std::string::npos) {
    kind = FindKind(name.substr(0, slash));
    if (kind == nullptr) {
      err << "error: unknown kind \"" << name.substr(0, slash) << "\" (want one of " << KindWords()
          << ")\n";
      return 2;
    }
    name = name.substr(slash + 1);
  }
  if (flags.all_namespaces && !name.empty()) {
    err << "error: --all-namespaces lists every workload of the kind; give no NAME with it\n";
    return 2;
  }
  if (flags.watch && (name.empty() || !flags.file.empty())) {
    err << "error: --watch needs a NAME and the cluster (not -f)\n";
    return 2;
  }
  bool color = flags.output == "text" && UseColor(flags.color);
  WorkloadDumpLimits limits;

  // The listing: every workload's health from its status.
  if (name.empty()) {
    std::string text;
    if (!flags.file.empty()) {
      if (!ReadInput(flags.file, &text, &error)) {
        err << "error: " << error << "\n";
        return 2;
      }
    } else {
      std::vector<std::string> args = {"get", std::string(kind->resource), "-o", "json"};
      if (flags.all_namespaces) args.push_back("--all-namespaces");
      AddAccessFlags(flags, &args);
      if (int rc = Kubectl(args, &text, err)) return rc;
    }
    WorkloadDump dump;
    if (!ParseWorkloadDump(text, limits, &dump, &error)) {
      err << "error: " << error << "\n";
      return 2;
    }
    return ListWorkloads(*kind, dump, flags, out, err);
  }

  auto read_dump = [&](WorkloadDump* dump) -> int {
    std::string text;
    if (!flags.file.empty()) {
      if (!ReadInput(flags.file, &text, &error)) {
        err << "error: " << error << "\n";
        return 2;
      }
    } else {
      for (const auto& call : WhyKubectlCalls(*kind, name, flags)) {
        if (int rc = Kubectl(call, &text, err)) return rc;
      }
    }
    if (!ParseWorkloadDump(text, limits, dump, &error)) {
      err << "error: " << (flags.file.empty() ? "kubectl output" : flags.file) << ": " << error
          << "\n";
      return 2;
    }
    return 0;
  };
  auto diagnose = [&](Diagnosis* d) -> int {
    WorkloadDump dump;
    if (int rc = read_dump(&dump)) return rc;
    if (!kind->diagnose(dump, name, gates, d, &error)) {
      err << "error: " << error << "\n";
      return 2;
    }
    return 0;
  };

  Diagnosis d;
  if (int rc = diagnose(&d)) return rc;
  RenderDiagnosis(d, flags.output, color, out);
  if (!flags.watch) return HealthExitCode(d.health);

  // --watch: each change of the object re-reads everything and prints what is new.
  std::vector<std::string> seen;
  for (const Attempt& a : d.timeline) seen.push_back(AttemptKey(a));
  std::string last_state = d.state;
  out << std::flush;
  std::vector<std::string> argv = {
      KubectlBinary(), "get", std::string(kind->resource), name, "--watch", "-o", "json"};
  AddAccessFlags(flags, &argv);
  JsonSplitter splitter;
  int result = HealthExitCode(d.health);
  int failure = 0;
  std::string err_text;
  int status = RunProcess(
      argv,
      [&](std::string_view chunk) {
        return splitter.Feed(chunk, [&](std::string_view) {
          Diagnosis now;
          if ((failure = diagnose(&now)) != 0) return false;
          for (const Attempt& a : now.timeline) {
            std::string key = AttemptKey(a);
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
            seen.push_back(key);
            if (flags.output == "json") {
              out << json{{"event", "attempt"}, {"name", now.name},     {"attempt", a.number},
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
          if (now.state != last_state) {
            last_state = now.state;
            if (flags.output == "json") {
              out << json{{"event", "state"},
                          {"name", now.name},
                          {"health", std::string(HealthName(now.health))},
                          {"state", now.state}}
                         .dump()
                  << "\n";
            } else {
              out << "state: " << HealthName(now.health) << ": " << now.state << "\n";
            }
          }
          out << std::flush;
          result = HealthExitCode(now.health);
          return now.health != Health::kFailed && now.health != Health::kSucceeded;
        });
      },
      &err_text);
  if (failure != 0) return failure;
  if (status == -1 || status != 0) {
    err << "error: "
        << (status == -1 ? "cannot run " + argv[0] + ": " + err_text
                         : KubectlErrorMessage(err_text, status))
        << "\n";
    return 2;
  }
  return result;
}

}  // namespace jobset
