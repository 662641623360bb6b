#include "cmd/why_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "cmd/lint_command.h"
#include "cmd/text_table.h"
#include "cmd/why_render.h"
#include "validation/core/diagnosis.h"
#include "validation/core/workload_dump.h"
#include "validation/jobset/feature_gates.h"

namespace jobset {
namespace {

using json = nlohmann::ordered_json;

const char kWhyExamples[] = R"(
Examples:
  # Why did the JobSet fail (or restart), and what does the next failure do?
  kubectl jobset why train -n team-a

  # For an incident ticket
  kubectl jobset why train -n team-a -o markdown

  # Follow it: each new failure and decision as it happens
  kubectl jobset why train -n team-a --watch

  # Every JobSet's health
  kubectl jobset why -A

  # A Volcano Job, a Framework
  kubectl jobset why vcjob/train -n team-a
  kubectl jobset why framework/train -n team-a

  # Offline: the one command that records what why reads (attach dump.json to a bug report)
  kubectl get jobsets.jobset.x-k8s.io,jobs.batch,pods,events -n team-a -o json > dump.json
  kubectl jobset why train -f dump.json
  (vcjob: jobs.batch.volcano.sh,pods,events; framework:
   frameworks.frameworkcontroller.microsoft.com,pods,events)

Reads, with -n, --context and --kubeconfig passed on (KUBECTL names the kubectl binary):
  kubectl get jobsets.jobset.x-k8s.io NAME -o json
  kubectl get jobs.batch,pods -l jobset.sigs.k8s.io/jobset-name=NAME -o json
  kubectl get events -o json
  (vcjob/NAME: jobs.batch.volcano.sh NAME, then pods -l volcano.sh/job-name=NAME; framework/NAME:
   frameworks.frameworkcontroller.microsoft.com NAME, then pods -l FC_FRAMEWORK_NAME=NAME)
Decisions come from the controller's own algorithm (the same engines as simulate), replayed over
the failures the dump holds: failed Jobs and Job failure events for a JobSet, Pods and the Job's
events for a Volcano Job, the attempt and task statuses for a Framework.

Exit status: 0 healthy, succeeded or suspended; 1 failed, restarting or stuck; 2 usage error,
unreadable dump, or kubectl refused (an RBAC refusal names the verb and resource missing).
)";

// What one `why` run is about: the kind, the name (empty: list them), the cluster's gates.
struct WhyTarget {
  const KindHandler* kind = nullptr;
  std::string name;
  FeatureGates gates;
};

// "jobset, vcjob, framework": the short word of every kind.
std::string KindWords() {
  std::string s;
  for (const KindHandler& k : SupportedKinds()) {
    s += (s.empty() ? "" : ", ") + std::string(k.resource_words.front());
  }
  return s;
}

// Reads the gates and KIND/NAME (a bare NAME is a JobSet's) and checks the flags go together.
// Gives false with a message on `err`.
bool ParseWhyTarget(const WhyFlags& flags, WhyTarget* target, std::ostream& err) {
  std::string error;
  if (!ParseFeatureGates(flags.feature_gates, &target->gates, &error)) {
    err << "error: --feature-gates: " << error << "\n";
    return false;
  }
  target->kind = &FindKind(KindId::kJobSet);
  target->name = flags.target;
  if (size_t slash = target->name.find('/'); slash != std::string::npos) {
    target->kind = FindKindByResourceWord(target->name.substr(0, slash));
    if (target->kind == nullptr) {
      err << "error: unknown kind \"" << target->name.substr(0, slash) << "\" (want one of "
          << KindWords() << ")\n";
      return false;
    }
    target->name = target->name.substr(slash + 1);
  }
  if (flags.all_namespaces && !target->name.empty()) {
    err << "error: --all-namespaces lists every workload of the kind; give no NAME with it\n";
    return false;
  }
  if (flags.watch && (target->name.empty() || !flags.file.empty())) {
    err << "error: --watch needs a NAME and the cluster (not -f)\n";
    return false;
  }
  return true;
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

// The dump of -f, or the concatenated output of the kubectl `calls`. Gives 0, or 2 with a
// message on `err`; a parse error names its source when `name_source` is set.
int ReadDump(const WhyFlags& flags, const std::vector<std::vector<std::string>>& calls,
             bool name_source, WorkloadDump* dump, std::ostream& err) {
  std::string text, error;
  if (!flags.file.empty()) {
    if (!ReadInput(flags.file, &text, &error)) {
      err << "error: " << error << "\n";
      return 2;
    }
  } else {
    for (const std::vector<std::string>& call : calls) {
      if (int rc = Kubectl(call, &text, err)) return rc;
    }
  }
  if (!ParseWorkloadDump(text, WorkloadDumpLimits{}, dump, &error)) {
    err << "error: ";
    if (name_source) err << (flags.file.empty() ? "kubectl output" : flags.file) << ": ";
    err << error << "\n";
    return 2;
  }
  return 0;
}

// The listing's dump: -f, or every object of the kind from kubectl. Gives 0, or 2 with a
// message on `err`.
int ReadListingDump(const WhyTarget& target, const WhyFlags& flags, WorkloadDump* dump,
                    std::ostream& err) {
  std::vector<std::string> args = {"get", std::string(target.kind->resource), "-o", "json"};
  if (flags.all_namespaces) args.push_back("--all-namespaces");
  AddAccessFlags(flags.access, &args);
  return ReadDump(flags, {args}, false, dump, err);
}

// The listing: every workload's health from its status. Exit status: the worst health's.
int ListWorkloads(const WhyTarget& target, const WhyFlags& flags, std::ostream& out,
                  std::ostream& err) {
  const KindHandler& kind = *target.kind;
  WorkloadDump dump;
  if (int rc = ReadListingDump(target, flags, &dump, err)) return rc;
  FeatureGates gates;
  std::vector<std::vector<std::string>> table = {{"NAMESPACE", "NAME", "HEALTH", "STATE"}};
  json items = json::array();
  int status = 0;
  for (const Node* object : ObjectsOfKind(dump, ApiGroupOf(kind), kind.kind)) {
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
    out << "No " << kind.noun << "s found.\n";
  } else {
    PrintTable(table, flags.output == "markdown", out);
  }
  return status;
}

// The object's dump: -f, or the object, its children and the events from kubectl. Gives 0, or
// 2 with a message on `err`.
int ReadObjectDump(const WhyTarget& target, const WhyFlags& flags, WorkloadDump* dump,
                   std::ostream& err) {
  return ReadDump(flags, WhyKubectlCalls(*target.kind, target.name, flags.access), true, dump, err);
}

// Reads the object's dump and diagnoses it by its kind's row. Gives 0, or 2 with a message.
int DiagnoseTarget(const WhyTarget& target, const WhyFlags& flags, Diagnosis* d,
                   std::ostream& err) {
  WorkloadDump dump;
  if (int rc = ReadObjectDump(target, flags, &dump, err)) return rc;
  std::string error;
  if (!target.kind->diagnose(dump, target.name, target.gates, d, &error)) {
    err << "error: " << error << "\n";
    return 2;
  }
  return 0;
}

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

// What --watch has printed so far, and the exit status of the last diagnosis.
struct WatchState {
  std::vector<std::string> seen;  ///< AttemptKey of every attempt printed.
  std::string last_state;
  int result = 0;
};

// One change of the watched object: diagnoses it again and prints what is new. Gives false to
// stop watching (the workload finished, or `*failure` is set to a diagnosis's error status).
bool OnWatchedChange(const WhyTarget& target, const WhyFlags& flags, WatchState* state,
                     int* failure, std::ostream& out, std::ostream& err) {
  Diagnosis now;
  if ((*failure = DiagnoseTarget(target, flags, &now, err)) != 0) return false;
  for (const Attempt& a : now.timeline) {
    std::string key = AttemptKey(a);
    if (std::find(state->seen.begin(), state->seen.end(), key) != state->seen.end()) continue;
    state->seen.push_back(key);
    RenderWatchAttempt(now, a, flags.output, out);
  }
  if (now.state != state->last_state) {
    state->last_state = now.state;
    RenderWatchState(now, flags.output, out);
  }
  out << std::flush;
  state->result = HealthExitCode(now.health);
  return now.health != Health::kFailed && now.health != Health::kSucceeded;
}

// --watch: each change of the object re-reads everything and prints what is new.
int Watch(const WhyTarget& target, const WhyFlags& flags, const Diagnosis& first, std::ostream& out,
          std::ostream& err) {
  WatchState state;
  for (const Attempt& a : first.timeline) state.seen.push_back(AttemptKey(a));
  state.last_state = first.state;
  state.result = HealthExitCode(first.health);
  out << std::flush;
  std::vector<std::string> argv = {KubectlBinary(), "get",     std::string(target.kind->resource),
                                   target.name,     "--watch", "-o",
                                   "json"};
  AddAccessFlags(flags.access, &argv);
  JsonSplitter splitter;
  int failure = 0;
  std::string err_text;
  int status = RunProcess(
      argv,
      [&](std::string_view chunk) {
        return splitter.Feed(chunk, [&](std::string_view) {
          return OnWatchedChange(target, flags, &state, &failure, out, err);
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
  return state.result;
}

}  // namespace

CLI::App* AddWhyCommand(CLI::App& app, WhyFlags* why) {
  CLI::App* why_cmd = app.add_subcommand(
      "why",
      "Why a live JobSet failed or restarted, from its status, Jobs, Pods and events, and what "
      "one more failure does.");
  why_cmd->add_option("NAME", why->target,
                      "NAME or KIND/NAME (jobset/, vcjob/, framework/); none: list them");
  why_cmd->add_option("-f,--filename", why->file,
                      "Read a dump (kubectl get ... -o json, see below) instead of the cluster; "
                      "- for standard input");
  why_cmd->add_option("-n,--namespace", why->access.namespace_name,
                      "Namespace (kubectl's default if unset)");
  why_cmd->add_option("--context", why->access.context, "kubeconfig context");
  why_cmd->add_option("--kubeconfig", why->access.kubeconfig, "kubeconfig file");
  why_cmd->add_flag("-A,--all-namespaces", why->all_namespaces,
                    "List the JobSets of every namespace (no NAME)");
  why_cmd->add_option("-o,--output", why->output, "Output format")
      ->check(CLI::IsMember({"text", "json", "markdown"}))
      ->capture_default_str();
  why_cmd->add_option("--color", why->color, "Colour text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  why_cmd->add_flag("-w,--watch", why->watch,
                    "Keep watching; print each new failure and decision as it happens");
  why_cmd->add_option("--feature-gates", why->feature_gates,
                      "JobSet feature gates of the cluster, e.g. RestartJob=true");
  why_cmd->footer(kWhyExamples);
  return why_cmd;
}

int RunWhy(const WhyFlags& flags, std::ostream& out, std::ostream& err) {
  WhyTarget target;
  if (!ParseWhyTarget(flags, &target, err)) return 2;
  if (target.name.empty()) return ListWorkloads(target, flags, out, err);
  Diagnosis d;
  if (int rc = DiagnoseTarget(target, flags, &d, err)) return rc;
  RenderDiagnosis(d, flags.output, flags.output == "text" && UseColor(flags.color), out);
  if (!flags.watch) return HealthExitCode(d.health);
  return Watch(target, flags, d, out, err);
}

}  // namespace jobset
